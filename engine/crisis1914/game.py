"""Crisis: 1914 as a Game: setup, prompts, views, outcome, automatic players, invariants."""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING, Any

from pydantic import Field

from engine.core import (
    Entry,
    Event,
    Game,
    IllegalAction,
    Layout,
    Model,
    Outcome,
    Period,
    Prompt,
    Showable,
    Standing,
    rng_for,
)

from . import actions as a
from . import bots, exploits, rules, showing, standing, strong, texts, views, weeks
from .cards import (
    MAX_BELLIGERENCE,
    alternative_open,
    blocked_by_momentum,
    card,
    card_dp,
    limit,
    prestige_breakdown,
    reducible_boxes,
)
from .commands import COMMANDS, nation_alternatives
from .content import load_content
from .hidden import deal_unseen
from .log import Log, statesman
from .state import CrisisState, Player
from .view_types import CrisisView

NATION_ORDER = ["AH", "RU", "DE", "FR", "GB"]  # Berchtold, Sazonov, Bethmann Hollweg, Poincaré, Grey
DECK_SIZE = 24
SOLO_LEVELS = [
    (40, "Emphatic Diplomatic Victory"),
    (35, "Clear Diplomatic Victory"),
    (30, "Marginal Diplomatic Victory"),
    (25, "Diplomatic Tie"),
    (0, "Diplomatic Loss"),
]


class CrisisOptions(Model):
    congress: bool = Field(
        True,
        description="Play the optional Congress Step at the end of each Week",
        json_schema_extra={"section": "Crisis: 1914 rulebook, 4. Congress Step (Optional)"},
    )
    choose_nations: bool = Field(
        False,
        description="Honour every /game join nation preference, first come first served",
        json_schema_extra={"section": "Crisis: 1914 rulebook, Set Up ('choose sides')"},
    )


class Crisis1914(Game[CrisisState, a.CrisisAction, CrisisView]):
    id = "crisis1914"
    title = "Crisis: 1914"
    min_players = 1
    max_players = 5
    aliases = ("crisis",)
    command_group = "crisis"
    missed_deadline = (
        "A missed deadline costs that decision only, never the Week: a missed turn is a Draw "
        "(or, when the player cannot draw or knows a General Mobilization card is on top, the "
        "automatic player's choice); a revealed card is placed without Belligerence; a "
        "Congress invitation is not made and an invitation is accepted; at Refresh the Hand "
        "is kept down to its limit. A table may instead hand missed seats to the automatic "
        "player (/game settings on_expiry autopilot)."
    )
    owed_words = {
        "turn": "a turn (/crisis play, draw, deliberate, reorganize, seize or pass)",
        "resolve": "the revealed card's placement (/crisis place)",
        "choose": "a card to play after Deliberating (/crisis choose)",
        "reorder": "the order of the top cards (/crisis reorder)",
        "discard": "a discard (/crisis discard)",
        "reduce": "the Tension die to lower (/crisis reduce)",
        "congress": "a Congress answer (/crisis congress)",
        "refresh": "the Refresh discards (/crisis refresh)",
    }

    def check_content(self) -> None:
        load_content()  # validates every file and checks counters, cards and nations named

    Options = CrisisOptions
    State = CrisisState
    View = CrisisView
    Action = a.ACTION
    commands = COMMANDS
    standing_orders = standing.ORDERS
    round_event = "week"  # "Week 2 begins." (weeks.py)
    nation_choice = "choose"
    nation_rule = (
        "Players choose their nations (Set Up): each /game join preference no other player shares "
        "is honoured; two players asking for the same nation get the deal, unless the host sets "
        "choose_nations (first come first served)."
    )
    rules_version = 3  # raised by each rules correction that changes play (docs/rulings.md, Crisis: 1914)
    how_to = texts.HOW_TO
    rules_summary = (
        "Statesmen of the July Crisis play cards for Diplomatic Pressure each Week: the most DP wins "
        "Prestige, but DP and Belligerence raise Tension, and 6 Tension in your City Box means war and defeat."
    )

    # -- lifecycle -------------------------------------------------------------------------------

    def nation_names(self) -> dict[str, tuple[str, ...]]:
        return nation_alternatives()

    def setup(self, seats: list[str], options: Model, seed: int) -> CrisisState:
        assert isinstance(options, CrisisOptions)
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction("Crisis: 1914 takes 1 to 5 players.")
        content = load_content()
        nations = NATION_ORDER[: len(seats)]
        rng = rng_for(seed, -1, "setup")
        players: dict[str, Player] = {}
        for nid, seat in zip(nations, seats, strict=True):
            board = content.nations[nid]
            aside = [s.card for s in board.set_aside]
            draw = [c.id for c in content.decks[nid].cards if c.id not in aside]
            rng.shuffle(draw)
            players[nid] = Player(
                nation=nid,
                seat=seat,
                draw=draw[3:],
                hand=draw[:3],
                set_aside=aside,
                counters={k: v.start for k, v in board.counters.items()},
            )
        tension = {
            nid: {b: 0 for i, b in enumerate(content.nations[nid].boxes) if i == 0 or b in players}
            for nid in nations
        }
        state = CrisisState(
            game=self.id,
            seed=seed,
            seats=list(seats),
            solo=len(seats) == 1,
            congress=options.congress,
            players=players,
            tension=tension,
            current=list(nations),
        )
        rules.advance(state, rng, Log())  # the First Draw Step of Week 1
        return state

    def opening_events(self, state: CrisisState) -> list[Event]:
        # setup runs the First Draw until its first decision; its cards are the Tableaux
        events = []
        for nid in state.initiative():
            p = state.players[nid]
            if p.tableau:
                cards = ", ".join(f"{card(t.card).name} ({t.dp} DP)" for t in p.tableau)
                events.append(
                    Event(
                        kind="first_draw", text=f"First Draw: {statesman(nid)} drew {cards} to the Tableau."
                    )
                )
        return events

    def showable(self, state: CrisisState, seat: str) -> list[Showable]:
        return showing.showable(state, seat)

    def period(self, state: CrisisState) -> Period | None:
        return showing.period(state)

    def round_label(self, state: CrisisState) -> str | None:
        return None if state.phase == "over" else f"Week {state.week}"

    def play(self, state: CrisisState, seat: str, action: a.CrisisAction, rng: random.Random) -> list[Event]:
        return rules.play(state, seat, action, rng)

    def prompts(self, state: CrisisState) -> list[Prompt]:
        return views.prompts(state)

    def standing_scope(self, state: CrisisState, seat: str, order: str) -> str | None:
        return standing.scope(state, seat, order)

    def standing_action(self, state: CrisisState, seat: str, order: str) -> a.CrisisAction | None:
        return standing.action(state, seat, order)

    def bot_standing(self, state: CrisisState, seat: str, action: a.CrisisAction, rng: random.Random) -> list[str]:
        return standing.after(state, seat, action)

    def bot_ahead(self, state: CrisisState, seat: str, rng: random.Random) -> list[str]:
        return standing.ahead(state, seat)

    def seat_label(self, state: CrisisState, seat: str) -> str:
        p = state.player_of(seat)
        if p is None:
            return seat
        nation = load_content().nations[p.nation]
        return f"{nation.statesman} ({nation.name})"

    # -- views -----------------------------------------------------------------------------------
    def view(self, state: CrisisState, seat: str | None) -> CrisisView:
        return views.view(state, seat)


    def layout(self, view: CrisisView) -> Layout:
        return views.layout(view)

    def describe(self, view: CrisisView) -> str:
        return views.describe(view)

    # -- the end ---------------------------------------------------------------------------------
    def outcome(self, state: CrisisState) -> Outcome | None:
        if state.phase != "over":
            return None
        if state.solo:
            p = next(iter(state.players.values()))
            level = "Diplomatic Loss" if p.lost else next(t for v, t in SOLO_LEVELS if p.prestige >= v)
            rank = 1 if "Victory" in level else 2
            return Outcome(
                reason=state.result or "",
                standings=[
                    Standing(
                        seat=p.seat, rank=rank, score=p.prestige, detail=f"{level}: {prestige_breakdown(p)}"
                    )
                ],
            )
        standing = [p for p in state.players.values() if p.lost is None]
        scores = sorted({p.prestige for p in standing}, reverse=True)
        out = [
            Standing(
                seat=p.seat,
                rank=scores.index(p.prestige) + 1,
                score=p.prestige,
                detail=f"{statesman(p.nation)}: {prestige_breakdown(p)}",
            )
            for p in standing
        ]
        last = len(scores) + 1 if scores else 2  # when all lose, nobody ranks first
        out += [
            Standing(
                seat=p.seat, rank=last, score=0, detail=f"{statesman(p.nation)}: {prestige_breakdown(p)}"
            )
            for p in state.players.values()
            if p.lost is not None
        ]
        return Outcome(reason=state.result or "", standings=out)

    def figures(self, state: CrisisState) -> dict[str, float]:
        out: dict[str, float] = {
            "war": 1.0 if any(p.lost for p in state.players.values()) else 0.0,
            "weeks": float(state.week),
        }
        for i, dp in enumerate(state.dp_history, start=1):
            out[f"dp_week{i}"] = dp
        result = self.outcome(state)
        if result is not None:
            winners = [s.seat for s in result.standings if s.rank == 1]
            for p in state.players.values():
                out[f"win_{p.nation}"] = (1.0 / len(winners)) if p.seat in winners else 0.0
                out[f"prestige_{p.nation}"] = float(p.prestige)
        return out

    # -- automatic choices -----------------------------------------------------------------------
    def default_action(self, state: CrisisState, seat: str) -> a.CrisisAction:
        p = state.player_of(seat)
        assert p is not None
        if state.pending and state.pending[0].nation == p.nation:
            pend = state.pending[0]
            if pend.kind == "resolve":
                return a.Resolve()
            if pend.kind == "choose":
                safe = [c for c in pend.cards if not bots.is_mobilization(c)] or pend.cards
                return a.Resolve(card=safe[0])
            if pend.kind == "reorder":
                return a.Reorder(order=list(pend.cards))
            if pend.kind == "reduce":
                return a.Reduce()  # the Target box
            return a.Discard(cards=p.hand[: pend.count])
        if state.phase == "congress_invite":
            return a.Congress(yes=False)
        if state.phase == "congress_answer":
            return a.Congress(yes=True)
        if state.phase == "refresh":
            return a.Refresh(discards=p.hand[weeks.HAND_MAX :])
        # A missed turn costs that turn only, never the Week: a Draw,
        # unless the player knows the top card is a General Mobilization card or cannot
        # draw; then the automatic player's choice, seeded from the table.
        if self._default_draws(state, seat):
            return a.Draw()
        chosen: a.CrisisAction = bots.bot_action(state, seat, rng_for(state.seed, state.step, "default"))
        return chosen

    def _default_draws(self, state: CrisisState, seat: str) -> bool:
        p = state.player_of(seat)
        if p is None or state.pending or state.phase not in ("play",):
            return False
        top_known_mobilization = bool(p.known and p.draw and bots.is_mobilization(p.draw[0]))
        return not top_known_mobilization and a.Draw() in self.legal_actions(state, seat)

    def default_words(self, state: CrisisState, seat: str) -> str:
        p = state.player_of(seat)
        if p is not None and state.pending and state.pending[0].nation == p.nation:
            return "the default for the card in hand"
        if state.phase in ("congress_invite", "congress_answer"):
            return "the Congress default"
        if state.phase == "refresh":
            return "keeping the Hand"
        return "a Draw" if self._default_draws(state, seat) else "the automatic player's choice"

    def bot_action(self, state: CrisisState, seat: str, rng: random.Random) -> a.CrisisAction:
        chosen: a.CrisisAction = bots.bot_action(state, seat, rng)
        return chosen

    def knowledge(self) -> Any:
        return strong.CrisisKnowledge(self)

    def test_players(self) -> dict[str, Any]:
        return exploits.test_players()

    def legal_actions(self, state: CrisisState, seat: str) -> list[a.CrisisAction]:
        p = state.player_of(seat)
        if p is None or not self.may_act(state, seat):
            return []
        if state.pending and state.pending[0].nation == p.nation:
            pend = state.pending[0]
            if pend.kind in ("resolve", "choose"):
                cards = pend.cards if pend.kind == "choose" else [None]
                return [
                    a.Resolve(card=c, belligerence=b, alternative=alt)
                    for c in cards
                    for b in (
                        [False]
                        if state.phase == "first_draw"
                        else self._bell_options(p, pend.cards[0] if c is None else c)
                    )
                    for alt in self._alt_options(p, pend.cards[0] if c is None else c)
                ]
            if pend.kind == "reorder":
                return [a.Reorder(order=list(o)) for o in itertools.permutations(pend.cards)]
            if pend.kind == "reduce":
                return [a.Reduce(box=b) for b in reducible_boxes(state, p.nation)]
            return [a.Discard(cards=list(c)) for c in itertools.combinations(p.hand, pend.count)]
        if state.phase in ("congress_invite", "congress_answer"):
            return [a.Congress(yes=True), a.Congress(yes=False)]
        if state.phase == "refresh":
            must = max(0, len(p.hand) - weeks.HAND_MAX)
            refreshes: list[a.CrisisAction] = [a.Refresh(discards=list(c)) for c in itertools.combinations(p.hand, must)]
            return refreshes[:50]
        if len(p.tableau) >= limit(p):
            return [a.Pass()]
        out: list[a.CrisisAction] = []
        if p.draw or p.recycled:
            out.append(a.Draw())
        for c in dict.fromkeys(p.hand):
            for b in self._bell_options(p, c):
                for alt in self._alt_options(p, c):
                    out.append(a.Play(card=c, belligerence=b, alternative=alt))
        free = blocked_by_momentum(state, p) is None and (not state.solo or p.prestige >= rules.SOLO_COST)
        if free and not p.deliberated and (p.draw or p.recycled):
            out += [a.Deliberate(discard=c) for c in dict.fromkeys(p.hand)]
        if free:
            out += [a.Reorganize(discard=c) for c in dict.fromkeys(p.hand)]
        top = next((n for n in state.current if n is not None), p.nation)
        if not state.solo and len(p.hand) >= 3 and p.highest >= state.players[top].highest:
            out += [a.Seize(discards=list(c)) for c in itertools.combinations(p.hand, 3)][:20]
        out.append(a.Pass())
        return out

    def confirm(self, state: CrisisState, seat: str, action: a.CrisisAction, events: list[Event]) -> str:
        """ "You played Conrad with Belligerence (8 DP)." The DP are the ones the card added
        (doubled by Belligerence), from the play event; `state` is before the action."""

        def names(ids: list[str]) -> str:
            return ", ".join(card(c).name.split(" (")[0] for c in ids) or "nothing"

        played = next((e for e in events if e.kind == "play" and e.audience is None), None)
        how = ""
        if isinstance(action, a.CardChoices):
            how = " with Belligerence" if action.belligerence else ""
            how += " and its alternative effect" if how and action.alternative else ""
            how = how or (" with its alternative effect" if action.alternative else "")
        dp = f" ({played.data['dp']} DP)" if played is not None and "dp" in played.data else ""
        match action:
            case a.Draw():
                shown = (
                    card(played.data["card"]).name if played is not None and "card" in played.data else None
                )
                if shown:
                    return f"You drew {shown}{dp} to your Tableau."
                revealed = next((e for e in events if e.kind == "revealed" and "card" in e.data), None)
                if revealed is not None:
                    return f"You revealed {card(revealed.data['card']).name}: decide how it is played."
                return "You drew the top card of your Draw Pile."
            case a.Pass():
                return "You passed: you play no more cards this Week."
            case a.Play(card=c):
                return f"You played {card(c).name}{how}{dp}."
            case a.Resolve(card=None):
                # the card its play event names; else the one that was pending
                if played is not None and "card" in played.data:
                    shown = card(played.data["card"]).name
                else:
                    pend = state.pending[0] if state.pending else None
                    shown = card(pend.cards[0]).name if pend and pend.cards and pend.cards[0] else "the card"
                return f"You placed {shown}{how}{dp}."
            case a.Resolve(card=str(c)):
                return f"You chose {card(c).name}{how}{dp}; you keep the other two."
            case a.Deliberate(discard=c):
                return f"You Deliberated, discarding {card(c).name}: play one of the three cards you drew."
            case a.Reorganize(discard=c):
                return f"You Reorganized, discarding {card(c).name}: put the top cards back in your order."
            case a.Seize(discards=cs):
                return f"You Seized the Initiative, discarding {names(cs)}."
            case a.Reorder(order=cs):
                return f"Your Draw Pile now starts {names(cs)}."
            case a.Discard(cards=cs):
                return f"You discarded {names(cs)}."
            case a.Reduce():
                fell = next((e for e in events if e.kind == "tension"), None)
                return f"You lowered a Tension die: {fell.text}" if fell else "No Tension die could fall."
            case a.Congress(yes=yes):
                if state.phase == "congress_invite":
                    return "You invited every statesman to a Congress." if yes else "You called no Congress."
                return "You attend the Congress." if yes else "You refused the Congress."
            case a.Refresh(discards=cs):
                return (
                    f"You discarded {names(cs)} in the Refresh Step." if cs else "You kept your whole Hand."
                )
        return super().confirm(state, seat, action, events)

    def action_label(self, state: CrisisState, seat: str, action: a.CrisisAction) -> str:
        """In the rulebook's words: "Play Hartwig (3 DP) with Belligerence". Not cut to a
        button's 80 characters: the service does that, keeping the labels apart."""
        p = state.player_of(seat)

        def names(ids: list[str]) -> str:  # one's own cards: "General Mobilization" needs no "(nation)"
            return ", ".join(card(c).name.split(" (")[0] for c in ids) or "nothing"

        def choices(ch: a.CardChoices, played: str | None) -> str:
            alt = f"the alternative effect ({texts.alternative_short(card(played))})" if played else "the alternative effect"
            if ch.belligerence and ch.alternative:
                return f" with Belligerence and {alt}"
            return " with Belligerence" if ch.belligerence else f" with {alt}" if ch.alternative else ""

        match action:
            case a.Draw():
                text = "Draw"
            case a.Pass():
                text = "Pass"
            case a.Play(card=c):
                dp = f" ({card_dp(state, p, card(c))} DP)" if p is not None else ""
                text = f"Play {card(c).name}{dp}{choices(action, c)}"
            case a.Resolve(card=None):
                pend = state.pending[0] if state.pending else None
                shown = card(pend.cards[0]) if pend and pend.cards and pend.cards[0] else None
                it = f"{shown.name} ({card_dp(state, p, shown)} DP)" if shown and p is not None else "it"
                text = f"Place {it}{choices(action, shown.id if shown else None)}"
            case a.Resolve(card=str(c)):
                text = f"Choose {card(c).name}{choices(action, c)}"
            case a.Deliberate(discard=c):
                text = f"Deliberate, discarding {card(c).name}"
            case a.Reorganize(discard=c):
                text = f"Reorganize, discarding {card(c).name}"
            case a.Seize(discards=cs):
                text = f"Seize the Initiative, discarding {names(cs)}"
            case a.Reorder(order=cs):
                text = f"Top first: {names(cs)}"
            case a.Discard(cards=cs):
                text = f"Discard {names(cs)}"
            case a.Reduce(box=b):
                nations = load_content().nations
                box = b or (nations[p.nation].boxes[0] if p is not None else "")
                text = f"Lower the {nations[box].name} die" if box in nations else "Lower the Target box"
            case a.Congress(yes=yes):
                inviting = state.phase == "congress_invite"
                text = (
                    ("Invite to a Congress" if yes else "No Congress")
                    if inviting
                    else ("Attend" if yes else "Refuse")
                )
            case a.Refresh(discards=cs):
                text = f"Refresh, discarding {names(cs)}" if cs else "Refresh, keeping my Hand"
            case _:
                text = super().action_label(state, seat, action)
        return text

    def action_group(self, state: CrisisState, seat: str, action: a.CrisisAction) -> str:
        return texts.choice_group(action) or super().action_group(state, seat, action)

    def action_detail(self, state: CrisisState, seat: str, action: a.CrisisAction) -> str:
        """The card the choice plays or discards, in a few words (the Hand shows it whole)."""
        p = state.player_of(seat)
        match action:
            case a.Play(card=c) | a.Resolve(card=str(c)):
                pass
            case a.Resolve(card=None) if state.pending and state.pending[0].cards:
                c = state.pending[0].cards[0]
            case a.Deliberate(discard=c) | a.Reorganize(discard=c):
                return f"Discards {card(c).name}: {texts.card_summary(card(c))}"
            case _:
                return ""
        dp = card_dp(state, p, card(c)) if p is not None else None
        return texts.card_summary(card(c), dp)

    @staticmethod
    def _bell_options(p: Player, card_id: str) -> list[bool]:
        if card(card_id).forced_belligerence or p.belligerence >= MAX_BELLIGERENCE:
            return [False]
        return [False, True]

    @staticmethod
    def _alt_options(p: Player, card_id: str) -> list[bool]:
        return [False, True] if alternative_open(p, card(card_id)) else [False]

    # -- checks ----------------------------------------------------------------------------------
    def invariants(self, state: CrisisState) -> list[str]:
        broken: list[str] = []
        content = load_content()
        deck_ids = content.deck_ids
        # Tension is a true total (docs/rulings.md, Crisis 25): a die may pass 6 from the
        # Score Step until the game ends, by at most the Score Track's largest "+"; in every
        # other step all dice are below 6, or the Game End Check would have ended the game
        week_running = state.phase in ("first_draw", "play", "refresh")
        most = weeks.WAR_TENSION - 1 if week_running else weeks.WAR_TENSION - 1 + max(content.tension_at)
        held: dict[str, list[str]] = {n: [] for n in state.players}
        for x in state.pending:
            if x.kind in ("resolve", "choose"):
                held[x.nation] += x.cards
        for nid, p in state.players.items():
            cards = (
                p.draw
                + p.hand
                + [t.card for t in p.tableau]
                + p.recycled
                + p.returned
                + p.permanent
                + p.set_aside
                + held[nid]
            )
            if len(cards) != DECK_SIZE or set(cards) != deck_ids[nid]:
                broken.append(
                    f"{nid}'s deck holds {len(cards)} cards ({len(set(cards))} distinct), not its {DECK_SIZE}"
                )
            if not 0 <= p.belligerence <= MAX_BELLIGERENCE:
                broken.append(f"{nid}'s Belligerence is {p.belligerence}")
            for box, t in state.tension[nid].items():
                if t < p.belligerence or not 0 <= t <= most:
                    broken.append(f"Tension {t} in {nid}'s {box} box (Belligerence {p.belligerence})")
            if p.lost is not None and p.prestige != 0:
                broken.append(f"{nid} lost but has {p.prestige} Prestige")
            if p.prestige < 0:
                broken.append(f"{nid} has negative Prestige")
            if p.second is not None and p.second <= p.score:
                broken.append(f"{nid}'s second Score marker is not above the first")
            if state.phase in ("first_draw", "play") and sum(t.dp for t in p.tableau) != p.score:
                broken.append(f"{nid}'s Score marker {p.score} is not the sum of its Tableau")
            if not set(p.waiting) <= set(p.set_aside) or (p.waiting and p.draw):
                broken.append(f"{nid}'s cards waiting for a Draw Pile {p.waiting} are misplaced")
            if not 0 <= p.known <= len(p.draw):
                broken.append(f"{nid} knows {p.known} cards of a Draw Pile of {len(p.draw)}")
        markers = [n for n in state.current if n] + state.will_top + state.will_bottom
        still_in = sorted(n for n, p in state.players.items() if p.lost is None or state.phase == "over")
        if state.phase != "over" and sorted(markers) != still_in:
            broken.append(f"Initiative markers {markers} do not match the players still in the game")
        return broken

    def vary_hidden(self, state: CrisisState, observer: str | None, rng: random.Random) -> CrisisState:
        """Reshuffle every card whose place the observer cannot know (`deal_unseen`)."""
        varied = state.model_copy(deep=True)
        deal_unseen(varied, observer, rng)
        return varied

    def entries(self) -> list[Entry]:
        return texts.entries()

    def aid(self, state: CrisisState | None, seat: str | None) -> str:
        return texts.aid(state, seat)

    def provenance(self) -> list[dict[str, str]]:
        content = load_content()
        out = []
        for c in content.cards.values():
            out.append({"entry": f"card {c.name} ({c.nation})", **c.provenance.model_dump()})
        for n in content.board.nations:
            out.append({"entry": f"player board {n.statesman} ({n.name})", **n.provenance.model_dump()})
        for s in content.board.score_track:
            out.append({"entry": f"Score Track space {s.space} (+{s.tension})", **s.provenance.model_dump()})
        return out


if TYPE_CHECKING:  # mypy holds Crisis1914 to each part of a game's shape (engine/core/hooks.py)
    from engine.core.hooks import Checks, Diplomacy, Orders, Players, Reference, Rules, Texts

    _rules: Rules[CrisisState, a.CrisisAction] = Crisis1914()
    _checks: Checks[CrisisState] = Crisis1914()
    _orders: Orders[CrisisState, a.CrisisAction] = Crisis1914()
    _players: Players[CrisisState, a.CrisisAction] = Crisis1914()
    _texts: Texts[CrisisState, a.CrisisAction] = Crisis1914()
    _diplomacy: Diplomacy[CrisisState] = Crisis1914()
    _reference: Reference[CrisisState] = Crisis1914()
    # the view's part, Views[S, V], is the view named in the class statement

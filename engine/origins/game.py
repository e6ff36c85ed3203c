"""The Game of Origins of World War I: setup, prompts, views, outcome and invariants."""

from __future__ import annotations

import functools
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
    built,
    rng_for,
)
from engine.core.words import counted

from . import attacks, bots, content, placement, scoring, showing, standing, texts, views
from .actions import ACTION, Attack, Bid, Done, OriginsAction, Pass, Place, Ready, Remove, Submit, WriteSheet
from .commands import COMMANDS, nation_alternatives
from .rules import begin_turn, play
from .state import Ledger, OriginsState, Sheet
from .view_types import OriginsView


class OriginsOptions(Model):
    # Optional rule (§9): the winner needs 3 VPs more than the 2nd player, else a tie.
    margin_rule: bool = Field(
        False,
        description="The winner needs 3 VPs more than the second player, otherwise a tie",
        json_schema_extra={"section": "§9 Determining the winner - optional Rule"},
    )
    four_players_italy: bool = Field(
        False,
        description="With 4 players the single countries are the United Kingdom and Italy "
        "(Turkey is only an embassy), not the United Kingdom and Turkey",
        json_schema_extra={"section": "§9 Victory Points (the §1 table gives Turkey)", "players": [4]},
    )
    choose_nations: bool = Field(
        False,
        description="Honour every /game join nation preference, first come first served (a house rule)",
        json_schema_extra={"section": "§1 (countries are assigned at random)"},
    )
    one_auction: bool = Field(
        False,
        description="House reading, not in the rulebook: Phase 3 is one auction; every bid is still "
        "paid and lost, but only the highest bid moves its card, once every other player has passed "
        "(by default each bid moves its card at once)",
        json_schema_extra={"section": "§6 Phase 3 (a house reading; the default is the rulebook's)"},
    )
    # The diplomacy length is the table setting `diplomacy_minutes` the prompts name
    # (the platform's: 10 minutes in the console as in the rulebook, 24 hours in Discord).


class Origins(Game[OriginsState, OriginsAction, OriginsView]):
    id = "origins"
    title = "Origins of World War I"
    aliases = ("origins-of-ww1", "origins-of-wwi", "origins-ww1", "oww1")
    min_players = 2
    owed_words = {
        "bid": "a bid (/origins bid or /origins pass)",
        "sheet": "a secret sheet (/origins sheet, then /origins submit)",
        "attack": "attacks (/origins attack or /origins done)",
        "ready": "the end of diplomacy (/origins ready)",
    }
    max_players = 7
    round_event = "turn"  # "**November 1913**" (rules.begin_turn)
    nation_choice = "random"
    nation_rule = (
        "Countries are assigned at random (§1): /game join preferences count only if the host "
        "sets choose_nations."
    )
    rules_version = 3  # raised by each rules correction that changes play: the attack table (26a), one_auction (11a)
    Options = OriginsOptions

    how_to = texts.HOW_TO

    def nation_names(self) -> dict[str, tuple[str, ...]]:
        return nation_alternatives()

    def check_content(self) -> None:
        content.check_content()

    State = OriginsState
    View = OriginsView
    Action = ACTION
    missed_deadline = (
        "A missed deadline costs that decision only: in the bidding a pass; in Phase 4 the "
        "sheets are handed in as written so far (an unwritten sheet is empty); in the attacks "
        "no more attacks for that country this turn; in diplomacy, ready."
    )
    rules_summary = (
        "October 1913 to (at most) September 1914. Each month: income, the attack order "
        "(bid PFs to move a card), secret placement sheets, then diplomatic attacks in card order. "
        "Treaty rights (10+ PFs in another nation's embassy) score your national objectives."
    )

    commands = COMMANDS
    standing_orders = standing.ORDERS

    # -- lifecycle -----------------------------------------------------------------------
    def setup(self, seats: list[str], options: Model, seed: int) -> OriginsState:
        assert isinstance(options, OriginsOptions)
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction(
                f"Origins of World War I takes {self.min_players}-{self.max_players} players."
            )
        rng = rng_for(seed, -1, "origins-setup")
        reading = "s9" if options.four_players_italy else ""
        groups = [list(g) for g in content.assignment(len(seats), reading).groups]
        rng.shuffle(groups)  # countries are assigned at random (§1)
        owner = {c: seats[i] for i, group in enumerate(groups) for c in group}
        holders = {c: owner[c] for c in content.powers() if c in owner}
        state = OriginsState(
            game=self.id,
            seed=seed,
            seats=list(seats),
            holders=holders,
            margin_rule=options.margin_rule,
            one_auction=options.one_auction,
            ledger={c: Ledger() for c in holders},
        )
        begin_turn(state, rng)
        return state

    def prompts(self, state: OriginsState) -> list[Prompt]:
        return views.prompts(state)

    def play(self, state: OriginsState, seat: str, action: OriginsAction, rng: random.Random) -> list[Event]:
        return play(state, seat, action, rng)

    def showable(self, state: OriginsState, seat: str) -> list[Showable]:
        return showing.showable(state, seat)

    def period(self, state: OriginsState) -> Period | None:
        return showing.period(state)

    def outcome(self, state: OriginsState) -> Outcome | None:
        if state.phase != "over" or state.final is None:
            return None
        scores = scoring.seat_scores(state, state.final)
        ranks = scoring.ranks(scores, state.margin_rule)
        parts = state.final_parts or {c: [("not itemised", n)] for c, n in state.final.items()}
        standings = []
        for seat in state.seats:
            detail = scoring.seat_detail(state, seat, parts)
            if state.margin_rule and ranks[seat] == 1 and scores[seat] < max(scores.values()):
                detail += " (shares the win: within 3 VPs of the leader, optional rule §9)"
            standings.append(Standing(seat=seat, rank=ranks[seat], score=scores[seat], detail=detail))
        label = content.board().turns[state.turn].label
        return Outcome(reason=f"The game ended after {label}.", standings=standings)

    def default_action(self, state: OriginsState, seat: str) -> OriginsAction:
        if state.phase == "bidding":
            return Pass()
        if state.phase == "placement":
            return Submit()  # the sheets as written so far (empty if none)
        if state.phase == "attacks":
            return Done()
        return Ready()

    def default_words(self, state: OriginsState, seat: str) -> str:
        return {
            "bidding": "a pass in the bidding",
            "placement": "the sheets as written",
            "attacks": "no more attacks this turn",
        }.get(state.phase, "ready")

    def bot_action(self, state: OriginsState, seat: str, rng: random.Random) -> OriginsAction:
        chosen: OriginsAction = bots.choose(state, seat, rng)
        return chosen

    def knowledge(self) -> Any:
        """What the strong automatic players search with (engine/origins/strong.py)."""
        from .strong import OriginsKnowledge  # only when a strong player is named

        return OriginsKnowledge(self)

    def test_players(self) -> dict[str, Any]:
        """The exploits the strong player must keep beating (engine/origins/exploits.py)."""
        from .exploits import test_players  # only when a named player is asked for

        return test_players()

    def may_act(self, state: OriginsState, seat: str) -> bool:
        """Whether `seat` owes a decision, as `prompts` says, without writing the prompts."""
        match state.phase:
            case "bidding":
                return state.bidder is not None and seat == state.bidder
            case "placement":
                return seat in state.seats and seat not in state.submitted
            case "attacks":
                return state.holders[state.order[state.attacker]] == seat
            case "diplomacy":
                return seat in state.seats and seat not in state.ready
        return False

    def legal_actions(self, state: OriginsState, seat: str) -> list[OriginsAction]:
        if not self.may_act(state, seat):
            return []
        if state.phase == "bidding":
            out: list[OriginsAction] = [_PASS]
            amount, n = state.high_bid + 1, len(state.order)
            for payer in state.countries_of(seat):
                if placement.funds(state, payer) < amount:
                    continue
                for i, card in enumerate(state.order):
                    moves = _bids(payer, card, amount, n)  # to every position, its own excepted
                    out += moves[:i]
                    out += moves[i + 1 :]
            return out
        if state.phase == "placement":
            return [_SUBMIT]
        if state.phase == "attacks":
            country = state.order[state.attacker]
            out = [_DONE]
            for embassy in attacks.attack_embassies(state, country):
                for target in attacks.targets(state, country, embassy):
                    out.append(Attack(embassy=embassy, split={target: state.at(embassy, country)}))
            return out
        return [_READY]

    def action_label(self, state: OriginsState, seat: str, action: OriginsAction) -> str:
        """What a button does, in full: "Bid 2 PF: move Italy to 1st", "Attack Russia in
        Serbia (8 vs 5, 3:2)"; no two legal actions read the same."""
        names = content.names()
        match action:
            case Pass():
                return "Pass in the bidding"
            case Bid():
                paid = f" from {names[action.payer]}" if len(state.countries_of(seat)) > 1 else ""
                return (
                    f"Bid {action.amount} PF{paid}: move {names[action.card]} to {_ordinal(action.position)}"
                )
            case Submit():
                return "Hand in your sheets as written"
            case Done():
                country = state.order[state.attacker] if 0 <= state.attacker < len(state.order) else None
                return f"No more attacks for {names[country]} this turn" if country else "No more attacks"
            case Attack():
                embassy = placement.embassy_code(action.embassy)
                labels = [c.label for c in content.attack_table().columns]
                parts = []
                for target, n in action.split.items():
                    code = placement.embassy_code(target)
                    defending = state.at(embassy, code)
                    parts.append((names[code], f"{n} vs {defending}, {labels[attacks.column(n, defending)]}"))
                if len(parts) == 1:
                    return f"Attack {parts[0][0]} in {names[embassy]} ({parts[0][1]})"
                return f"Attack in {names[embassy]}: " + ", ".join(f"{who} ({odds})" for who, odds in parts)
            case Ready():
                return "Ready: end diplomacy"
        return super().action_label(state, seat, action)

    def action_group(self, state: OriginsState, seat: str, action: OriginsAction) -> str:
        """Bids by the order card they move ("Move Russia"), attacks by embassy."""
        names = content.names()
        match action:
            case Bid():
                return f"Move {names[action.card]}"
            case Attack():
                return f"Attack in {names[placement.embassy_code(action.embassy)]}"
        return super().action_group(state, seat, action)

    def confirm(self, state: OriginsState, seat: str, action: OriginsAction, events: list[Event]) -> str:
        names = content.names()
        match action:
            case Pass():
                return "You passed in the bidding (you may bid again when it comes round)."
            case Bid():
                return (
                    f"You bid {action.amount} PF from {names[action.payer]}: {names[action.card]} moves to "
                    f"{_ordinal(action.position)} in the attack order."
                )
            case Place():
                country, embassy = names[_code(action.country)], names[_code(action.embassy)]
                if not action.amount:
                    return f"You cleared {embassy} on {country}'s sheet."
                return f"You wrote {counted(action.amount, 'new PF')} for {embassy} on {country}'s sheet."
            case Remove():
                country, embassy = names[_code(action.country)], names[_code(action.embassy)]
                if not action.amount:
                    return f"You cleared the eliminations in {embassy} on {country}'s sheet."
                return f"You wrote {action.amount} of {country}'s PFs in {embassy} to eliminate."
            case WriteSheet():
                return f"You wrote {names[_code(action.country)]}'s sheet."
            case Submit():
                # the warning `/origins sheet` gives, for each sheet that leaves PFs unplaced
                drafts = state.drafts if action.sheets is None else action.sheets
                notes = [
                    f"\n{names[c]}: {note}"
                    for c in state.countries_of(seat)
                    if (note := placement.unplaced_note(state, c, drafts.get(c) or Sheet()))
                ]
                return "You handed in your sheets; they are revealed when every player's are in." + "".join(notes)
            case Done():
                return f"{names[state.order[state.attacker]]} makes no more attacks this turn."
            case Attack():
                fought = [e.data for e in events if e.kind == "attack" and e.data.get("attacker")]
                results = "; ".join(
                    f"against {names[d['defender']]}, {d['committed']} vs {d['defending']} ({d['column']}), "
                    f"rolled {sum(d['dice'])}: {d['result']}"
                    for d in fought
                )
                return f"You attacked in {names[placement.embassy_code(action.embassy)]}: {results}."
            case Ready():
                return "You are ready; diplomacy ends when every player is."
        return super().confirm(state, seat, action, events)

    def action_detail(self, state: OriginsState, seat: str, action: OriginsAction) -> str:
        """An attack's odds column and its chances, before the player commits."""
        if not isinstance(action, Attack) or len(action.split) != 1:
            return ""
        ((target, mine),) = action.split.items()
        theirs = state.at(placement.embassy_code(action.embassy), placement.embassy_code(target))
        col = attacks.column(mine, theirs)
        label = content.attack_table().columns[col].label
        return f"{mine} vs {theirs} PFs, odds {label}: {texts.odds_text(col)}"

    def standing_scope(self, state: OriginsState, seat: str, order: str) -> str | None:
        return standing.scope(state, seat, order)

    def standing_action(self, state: OriginsState, seat: str, order: str) -> OriginsAction | None:
        return standing.action(state, seat, order)

    def bot_standing(self, state: OriginsState, seat: str, action: OriginsAction, rng: random.Random) -> list[str]:
        return standing.after(state, seat, action, rng)

    def bot_ahead(self, state: OriginsState, seat: str, rng: random.Random) -> list[str]:
        return standing.ahead(state, seat, rng)

    def seat_label(self, state: OriginsState, seat: str) -> str:
        names = content.names()
        return " & ".join(names[c] for c in state.countries_of(seat)) or seat

    # -- what players see ------------------------------------------------------------------
    def view(self, state: OriginsState, seat: str | None) -> OriginsView:
        return views.view(state, seat)


    def describe(self, view: OriginsView) -> str:
        return views.describe(view)

    def layout(self, view: OriginsView) -> Layout:
        return views.layout(view)

    # -- checks ---------------------------------------------------------------------------
    def invariants(self, state: OriginsState) -> list[str]:
        broken = []
        if any(state.countries_of(s) != [c for c, h in state.holders.items() if h == s] for s in state.seats):
            broken.append("the countries kept by seat beside the state are out of date")
        known = content.names()
        on_board = dict.fromkeys(state.holders, 0)
        for embassy, here in state.pfs.items():
            if embassy not in known:
                broken.append(f"unknown embassy {embassy}")
            for country, n in here.items():
                if n <= 0:
                    broken.append(f"{country} has {n} PFs in {embassy}")
                if country not in on_board:
                    broken.append(f"{country} holds PFs but nobody holds it")
                else:
                    on_board[country] += n
        for country, ledger in state.ledger.items():
            board = on_board[country]
            unplaced = state.unplaced.get(country, 0)
            if unplaced < 0:
                broken.append(f"{country} has {unplaced} unplaced PFs")
            if ledger.income != board + ledger.bids + ledger.eliminated + unplaced:
                broken.append(
                    f"{country}: income {ledger.income} != board {board} + bids {ledger.bids} "
                    f"+ eliminated {ledger.eliminated} + unplaced {unplaced}"
                )
            if state.phase not in ("bidding", "placement") and unplaced:
                broken.append(f"{country} still has {unplaced} unplaced PFs in phase {state.phase}")
        if state.treaties != scoring.treaty_rights(state):
            broken.append(f"treaty rights {state.treaties} do not match the counts")
        if state.phase == "over" and not 9 <= state.turn <= 11:
            broken.append(f"the game ended in turn {state.turn}, not between July and September 1914")
        if state.turn > 11:
            broken.append("the game ran past September 1914")
        if state.turn < 9 and state.last_turn:
            broken.append("a last turn before July 1914")
        if sorted(state.order) != sorted(state.holders):
            broken.append(f"the attack order {state.order} is not one card per held country")
        return broken

    def vary_hidden(self, state: OriginsState, observer: str | None, rng: random.Random) -> OriginsState:
        """Every draft of another player's country is replaced by a different legal sheet
        (drafts and handed-in sheets are the game's only secrets)."""
        varied = state.model_copy(deep=True)
        if state.phase != "placement":
            return varied
        for country, seat in state.holders.items():
            if seat == observer:
                continue
            current = state.drafts.get(country, Sheet())
            for _ in range(8):
                sheet = bots.random_sheet(state, country, rng)
                if sheet != current:
                    break
            varied.drafts[country] = sheet
        return varied

    def figures(self, state: OriginsState) -> dict[str, float]:
        out: dict[str, float] = {"turns": float(state.turn + 1)}
        for country, vps in (state.final or {}).items():
            out[f"vps_{country}"] = float(vps)
        result = self.outcome(state)
        if result is not None:
            for seat in result.winners:
                for country in state.countries_of(seat):
                    out[f"won_{country}"] = 1.0
        return out

    def entries(self) -> list[Entry]:
        return texts.entries()

    def aid(self, state: OriginsState | None, seat: str | None) -> str:
        return texts.aid(state, seat)

    def provenance(self) -> list[dict[str, str]]:
        entries: list[tuple[str, Any]] = []
        b = content.board()
        entries += [(f"power {p.code}", p) for p in b.powers]
        entries += [(f"embassy {m.code}", m) for m in b.minors]
        entries += [
            (f"assignment {a.players} players" + (f" ({a.reading} reading)" if a.reading else ""), a)
            for a in b.assignments
        ]
        entries += [(f"turn {t.label}", t) for t in b.turns]
        entries += [(f"attack table row {r.roll}", r) for r in content.attack_table().rows]
        o = content.objectives()
        entries += [(f"objective {x.power} in {x.location}", x) for x in o.objectives]
        entries += [(f"special objective {x.power}", x) for x in o.specials]
        return [
            {
                "entry": what,
                "kind": e.provenance.kind,
                "source": e.provenance.source,
                "note": e.provenance.note,
            }
            for what, e in entries
        ]


__all__ = ["Origins", "OriginsOptions"]


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … (attack-order positions)."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _code(text: str) -> str:
    """An embassy or country as typed (a code or a name) as its code."""
    return placement.embassy_code(text)


@functools.lru_cache(maxsize=1 << 12)
def _bids(payer: str, card: str, amount: int, positions: int) -> tuple[Bid, ...]:
    """The Bids of `amount` by `payer` moving `card` to each position. The bidding phase
    lists every payer, card and position (hundreds of Bids at seven players): each is made
    once, frozen, and listed again as it is."""
    return tuple(
        built(Bid, payer=payer, card=card, position=p, amount=amount) for p in range(1, positions + 1)
    )


# the orders without choices, listed again as they are (orders are frozen)
_PASS, _SUBMIT, _DONE, _READY = Pass(), Submit(), Done(), Ready()


if TYPE_CHECKING:  # mypy holds Origins to each part of a game's shape (engine/core/hooks.py)
    from engine.core.hooks import Checks, Diplomacy, Orders, Players, Reference, Rules, Texts

    _rules: Rules[OriginsState, OriginsAction] = Origins()
    _checks: Checks[OriginsState] = Origins()
    _orders: Orders[OriginsState, OriginsAction] = Origins()
    _players: Players[OriginsState, OriginsAction] = Origins()
    _texts: Texts[OriginsState, OriginsAction] = Origins()
    _diplomacy: Diplomacy[OriginsState] = Origins()
    _reference: Reference[OriginsState] = Origins()
    # the view's part, Views[S, V], is the view named in the class statement

"""Schönbrunn as a `Game`: prompts, views, outcome, invariants and the hidden-information hooks."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from engine.core import (
    Entry,
    Event,
    Forced,
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

from . import actions as A
from . import bots, exploits, legal, rules, showing, standing, texts, views
from .actions import ACTION, SchonbrunnAction
from .commands import COMMANDS
from .content import card, cards, nations, tables
from .phases.end import ranking
from .pieces import name, nation_alternatives
from .state import SchonbrunnState
from .view_types import SchonbrunnView


class SchonbrunnOptions(Model):
    simplified: bool = Field(
        False,
        description="Simplified rules: no Receptions, Favours, Heads or Plots",
        json_schema_extra={"section": "rules: Variants, Simplified rules"},
    )
    auction: bool = Field(
        False,
        description="Auction for the Nations (very experienced players)",
        json_schema_extra={"section": "rules: Variants, Optional rule for very experienced players"},
    )
    see_own_face_down: bool = Field(
        False,
        description="Players may look at their own face-down Delegates (the rulebook forbids it)",
        json_schema_extra={
            "section": "a house rule against rules: Phase 2, Practical tip (Secrets and memory)"
        },
    )
    choose_nations: bool = Field(
        False,
        description="Honour every /game join nation preference, first come first served (a house rule)",
        json_schema_extra={"section": "rules: Setup (Roles dealt at random; very experienced players may agree to choose)"},
    )
    lasting_allies: bool = Field(
        False,
        description="Ally markers last for the rest of the game and add up; by default each serves "
        "one round and is discarded, as the publisher's FAQ rules",
        json_schema_extra={
            "section": "rules: Phase 6, Important ('in later rounds'); the FAQ makes them single-use"
        },
    )

    @model_validator(mode="after")
    def _one_variant(self) -> SchonbrunnOptions:
        # the Auction is paid in Receptions, which the simplified rules remove (Variants)
        if self.simplified and self.auction:
            raise PydanticCustomError(
                "variants",
                "The simplified rules have no Receptions, and the Auction for the Nations is bid in "
                "Receptions: choose simplified or auction, not both.",
            )
        return self


# SchonbrunnState has GameState's fields and the model methods the engine uses, but is a
# dataclass, not a GameState (state.py says why): Game's bound asks for the class itself.
class Schonbrunn(Game[SchonbrunnState, SchonbrunnAction, SchonbrunnView]):
    id = "schonbrunn"
    title = "Schönbrunn"
    aliases = ("schönbrunn",)
    min_players = 3
    owed_words = {
        "bid": "an Auction bid (/schonbrunn bid)",
        "choose": "a Nation (/schonbrunn choose)",
        "commit": "a Hierarchy Delegate (/schonbrunn commit)",
        "tiebreak": "a tie-break (/schonbrunn tiebreak)",
        "sign": "Treaties to sign (/schonbrunn sign)",
        "receptions": "Receptions for Prestige (/schonbrunn receptions)",
        "favour": "a Political Favour (/schonbrunn favour)",
        "assign": "Delegate assignments (/schonbrunn assign)",
        "head": "the Delegation Head (/schonbrunn head)",
        "plot": "a Plot (/schonbrunn plot or /schonbrunn pass)",
        "move": "a Chancellery move (/schonbrunn move)",
        "minister": "the Foreign Minister (/schonbrunn minister)",
        "activate": "a Treaty activation (/schonbrunn activate or /schonbrunn pass)",
        "keep": "Treaties to keep (/schonbrunn keep)",
    }
    max_players = 6
    round_event = "round"  # "Round 2/4. Reparations: …" (rules._start_round)
    nation_choice = "agreed"
    nation_rule = (
        "The Roles are dealt at random unless all players agree (Setup): /game join preferences "
        "count only if every player names a different nation, or the host sets choose_nations."
    )
    # 2: single-use Ally markers, the Principle of Balance, Annexation of Territories;
    # 3: Poland counts every Ally card collected, the Principle of Balance never rewards a
    # delegation below zero (docs/rulings.md, Schönbrunn 18 and 34)
    rules_version = 3
    Options = SchonbrunnOptions

    def check_content(self) -> None:
        from .content import check_content

        check_content()

    State = SchonbrunnState
    View = SchonbrunnView
    Action = ACTION
    commands = COMMANDS
    missed_deadline = (
        "A missed deadline costs that decision only: a missed Hierarchy commit or Assignment "
        "is made by the automatic player, and said so in the channel; anything else takes the "
        "most passive choice (bid 1 Reception, sign nothing, spend nothing, pass, keep nothing)."
    )
    how_to = texts.HOW_TO
    rules_summary = (
        "The Congress of Vienna in 4 rounds (5 with 6 players): commit a Delegate for the "
        "Hierarchy, assign Delegates to five Objectives, plot, move, and win Reparations in Congress."
    )

    def nation_names(self) -> dict[str, tuple[str, ...]]:
        return nation_alternatives()

    def setup(self, seats: list[str], options: Model, seed: int) -> SchonbrunnState:
        assert isinstance(options, SchonbrunnOptions)
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction("Schönbrunn takes 3 to 6 players.")
        state = rules.setup(
            self.id, seats, options.simplified, options.auction, options.see_own_face_down, seed
        )
        state.lasting_allies = options.lasting_allies
        return state

    def prompts(self, state: SchonbrunnState) -> list[Prompt]:
        return views.prompts(state)

    def play(self, state: SchonbrunnState, seat: str, action: SchonbrunnAction, rng: random.Random) -> list[Event]:
        return rules.play(state, seat, action, rng)

    def seat_label(self, state: SchonbrunnState, seat: str) -> str:
        return name(state, seat)

    # ---------------------------------------------------------------- views

    def view(self, state: SchonbrunnState, seat: str | None) -> SchonbrunnView:
        return views.view(state, seat)


    def layout(self, view: SchonbrunnView) -> Layout:
        return views.layout(view)

    def describe(self, view: SchonbrunnView) -> str:
        return views.describe(view)

    # ---------------------------------------------------------------- outcome and automation

    def outcome(self, state: SchonbrunnState) -> Outcome | None:
        if state.stage != "over":
            return None
        order = ranking(state)
        return Outcome(
            reason=f"{state.rounds} rounds played",
            standings=[
                Standing(seat=s, rank=i + 1, score=state.players[s].prestige, detail=texts.outcome_detail(state, s))
                for i, s in enumerate(order)
            ],
        )

    def default_action(self, state: SchonbrunnState, seat: str) -> SchonbrunnAction:
        # A missed commit or assignment is made by the automatic player:
        # the most passive choice there would throw the seat's round away.
        chosen: SchonbrunnAction
        if state.stage in ("commit", "assign"):
            chosen = bots.bot_action(state, seat, rng_for(state.seed, state.step, "default"))
        else:
            chosen = bots.default_action(state, seat)
        return chosen

    def default_words(self, state: SchonbrunnState, seat: str) -> str:
        if state.stage in ("commit", "assign"):
            return "the automatic player's choice"
        return "the most passive choice"

    def bot_action(self, state: SchonbrunnState, seat: str, rng: random.Random) -> SchonbrunnAction:
        chosen: SchonbrunnAction = bots.bot_action(state, seat, rng)
        return chosen

    standing_orders = standing.ORDERS

    def standing_scope(self, state: SchonbrunnState, seat: str, order: str) -> str | None:
        return standing.scope(state, seat, order)

    def standing_action(self, state: SchonbrunnState, seat: str, order: str) -> SchonbrunnAction | None:
        return standing.action(state, seat, order)

    def bot_ahead(self, state: SchonbrunnState, seat: str, rng: random.Random) -> list[str]:
        return standing.ahead(state, seat, rng)

    def knowledge(self) -> Any:
        """The strong players' knowledge of the game (engine/schonbrunn/strong.py)."""
        from .strong import SchonbrunnKnowledge

        return SchonbrunnKnowledge(self)

    def test_players(self) -> dict[str, Any]:
        """The all-in exploit on each Objective, which the strong player must keep beating."""
        return exploits.test_players()

    def legal_actions(self, state: SchonbrunnState, seat: str) -> list[SchonbrunnAction]:
        """Every choice listed whole (engine/schonbrunn/legal.py says how combinations are)."""
        return legal.legal_actions(state, seat)

    def waiting_reason(self, state: SchonbrunnState, seat: str) -> str:
        """A secret choice already made (the Auction's bid, the Hierarchy's commit) while
        others still make theirs: the refusal says so, not that it is not the seat's turn."""
        if seat in state.players and state.queue and seat not in state.queue:
            if state.stage == "commit":
                return "You have already committed a Delegate this round."
            if state.stage == "bid":
                return "You have already made your bid in this Auction."
        return ""

    def forced_action(self, state: SchonbrunnState, seat: str) -> Forced[SchonbrunnAction] | None:
        """A Delegation Head with nowhere to go (no Reception to pay and no free screen, or
        every place taken) and no Treaty to activate: it is kept, said publicly."""
        if (
            state.stage != "assign"
            or state.assign_step != "head"
            or not state.queue
            or state.queue[0] != seat
        ):
            return None
        choices = legal.legal_actions(state, seat)
        if len(choices) != 1 or choices[0].kind != "head":
            return None
        return Forced(choices[0], f"{name(state, seat)} has no place for its Delegation Head: it keeps it.")

    def action_label(self, state: SchonbrunnState, seat: str, action: SchonbrunnAction) -> str:
        return legal.label(state, seat, action)

    def action_group(self, state: SchonbrunnState, seat: str, action: SchonbrunnAction) -> str:
        return legal.group(state, seat, action) or super().action_group(state, seat, action)

    def confirm(self, state: SchonbrunnState, seat: str, action: SchonbrunnAction, events: list[Event]) -> str:
        """The button's words in the past tense: "You committed your 3 (secret)."."""
        label = legal.label(state, seat, action)
        verb, _, rest = label.partition(" ")
        past = texts.PAST.get(verb)
        if isinstance(action, A.TieBreak):
            text = f"You ordered the tie: {label}"
        elif label.startswith(("Delegation Head", "Foreign Minister")):
            text = f"You sent your {label}"
        elif past:
            text = f"You {past} {rest}".rstrip()
        else:
            text = f"Done: {label}"
        secret = " (secret until all are in)" if isinstance(action, A.Bid | A.Commit) else ""
        return f"{text}{secret}."

    def showable(self, state: SchonbrunnState, seat: str) -> list[Showable]:
        return showing.showable(state, seat)

    def period(self, state: SchonbrunnState) -> Period | None:
        return showing.period(state)

    def round_label(self, state: SchonbrunnState) -> str | None:
        if state.stage == "over" or state.round < 1:
            return None  # the auction for nations comes before round 1
        return f"Round {state.round}"

    def figures(self, state: SchonbrunnState) -> dict[str, float]:
        order = ranking(state)
        out = {f"prestige_{state.players[s].nation}": float(state.players[s].prestige) for s in state.seats}
        out["winning_prestige"] = float(state.players[order[0]].prestige)
        out["margin"] = float(state.players[order[0]].prestige - state.players[order[1]].prestige)
        out["decided_by_tiebreak"] = float(out["margin"] == 0)
        return out

    def entries(self) -> list[Entry]:
        return texts.entries()

    def aid(self, state: SchonbrunnState | None, seat: str | None) -> str:
        return texts.aid(state, seat)

    def provenance(self) -> list[dict[str, str]]:
        out = []
        for n in nations().values():
            out.append({"entry": f"Nation {n.name}", **n.provenance.model_dump()})
        for c in cards().values():
            out.append({"entry": f"{c.type.capitalize()} {c.name}", **c.provenance.model_dump()})
        t = tables()
        for key in ("rounds", "plot", "favours", "receptions", "minister", "aid_sets"):
            out.append({"entry": f"Table {key}", **getattr(t, key).provenance.model_dump()})
        return out

    # ---------------------------------------------------------------- checks

    def invariants(self, state: SchonbrunnState) -> list[str]:
        broken = []
        places = {"supply", "committed", *state.objectives}
        if not {d.place for d in state.delegates} <= places:
            broken.append(
                f"a Delegate is in no place: {[d.id for d in state.delegates if d.place not in places]}"
            )
        mine = {s: state.delegates_of(s) for s in state.seats}
        if sum(map(len, mine.values())) != len(state.delegates) or any(
            d.owner != s for s, held in mine.items() for d in held
        ):
            broken.append("the positions of the Delegates kept beside the state are out of date")
        ids = {d.id for d in state.delegates}
        if len(ids) != len(state.delegates):
            broken.append("a Delegate is in two places")
        if state.players and all(p.nation for p in state.players.values()):
            expected = sum(len(nations()[p.nation].delegates) for p in state.players.values())
            if len(ids) != expected:
                broken.append(f"{len(ids)} Delegates instead of {expected}")
        heads = [p.head for p in state.players.values() if p.head]
        if len(heads) != len(set(heads)):
            broken.append("two Delegation Heads in one place")
        every: list[str] = [*state.box, *state.box_hidden]
        for s, p in state.players.items():
            if any(isinstance(value, list) for value in p.__dict__.values()):
                broken.append(f"{s}'s Player holds a list, which a copy of the state would share")
            if p.receptions < 0 or p.prestige < 0:
                broken.append(f"{s} has negative Receptions or Prestige")
            every += p.screen
            every += p.signed
            every += p.under
        for pile in state.piles.values():
            every += pile
        if len(every) != len(cards()) or set(every) != cards().keys():
            broken.append("the Reparations are not all accounted for exactly once")
        return broken

    def vary_hidden(
        self, state: SchonbrunnState, observer: str | None, rng: random.Random
    ) -> SchonbrunnState:
        v = state.model_copy(deep=True)
        # Delegates: permute values among the pieces each owner has hidden from the observer.
        for seat in v.seats:
            hidden = [
                d
                for d in v.delegates
                if d.owner == seat
                and not d.face_up
                and not d.known
                and (seat != observer or (d.place in v.objectives and not v.see_own_face_down))
            ]
            values = [d.value for d in hidden]
            rng.shuffle(values)
            for d, value in zip(hidden, values, strict=True):
                v.change(d, value=value)
        # Reparations still face down: permute within each type (Poland stays put).
        # (into new lists: the copy shares the piles and the box with `state`)
        start = 1 if v.tops_revealed else 0
        piles = {o: list(pile) for o, pile in v.piles.items()}
        box_hidden = list(v.box_hidden)
        slots: dict[str, list[tuple[list[str], int]]] = {}
        for pile in piles.values():
            for i in range(start, len(pile)):
                if not card(pile[i]).legitimacy:
                    slots.setdefault(card(pile[i]).type, []).append((pile, i))
        for i, c in enumerate(box_hidden):
            slots.setdefault(card(c).type, []).append((box_hidden, i))
        for places in slots.values():
            ids = [lst[i] for lst, i in places]
            rng.shuffle(ids)
            for (lst, i), c in zip(places, ids, strict=True):
                lst[i] = c
        v.piles = {o: tuple(pile) for o, pile in piles.items()}
        v.box_hidden = box_hidden
        # Political Favours still face down, and the unplaced token.
        down = [o for o in v.objectives if o in v.favours and o not in v.favours_up]
        values = [v.favours[o] for o in down] + v.favour_spare
        rng.shuffle(values)
        for o, value in zip(down, values, strict=False):
            v.favours[o] = value
        v.favour_spare = values[len(down) :]
        # Auction bids not yet revealed.
        if v.stage == "bid":
            for s, p in list(v.players.items()):
                if s != observer and p.bid is not None:
                    v.change(p, bid=rng.randint(1, p.receptions))
        return v


GAME = Schonbrunn()


if TYPE_CHECKING:  # mypy holds Schonbrunn to each part of a game's shape (engine/core/hooks.py)
    from engine.core.hooks import Checks, Diplomacy, Orders, Players, Reference, Rules, Texts

    _rules: Rules[SchonbrunnState, SchonbrunnAction] = Schonbrunn()
    _checks: Checks[SchonbrunnState] = Schonbrunn()
    _orders: Orders[SchonbrunnState, SchonbrunnAction] = Schonbrunn()
    _players: Players[SchonbrunnState, SchonbrunnAction] = Schonbrunn()
    _texts: Texts[SchonbrunnState, SchonbrunnAction] = Schonbrunn()
    _diplomacy: Diplomacy[SchonbrunnState] = Schonbrunn()
    _reference: Reference[SchonbrunnState] = Schonbrunn()
    # the view's part, Views[S, V], is the view named in the class statement

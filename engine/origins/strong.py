"""The strong automatic player of Origins of World War I: what its search
(engine/core/search.py; docs/architecture.md §2, "Automatic players") needs to
know of the game.

- `determinize` deals afresh what the seat cannot see: the other players' drafts and
  handed-in sheets of this turn's Phase 4 (the game's only secrets; each is written again by
  the quick planner from the public board and income) and the seed behind the future dice.
- `candidates` keeps the choices worth a thought. Phase 4's legal actions list only Submit
  (a sheet is written by separate orders), so the tree is offered a few whole sheets: the
  basic planner's (bots.py), the quick planner's (quick_player.py) and a variant of each.
  Phase 3: a pass, or the lowest bid moving one of the seat's own cards to the top or the
  bottom (bids are lost whatever happens, so only a cheap one is worth a thought). Phase 5:
  every attack the rules allow, and Done.
- `playout` is the quick planner (quick_player.py): cheap, and it attacks only at good odds.
- A playout ends at the end of the turn (`stop`): the board is then what Phase 6 scores, and
  `evaluate` turns each seat's victory points as the position stands (with the basic
  player's credit for progress towards treaty rights and debit for threatened ones) into win
  chances.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, cast

from engine.core import clone
from engine.core.search import Knowledge

from . import attacks, bots, content, placement, quick_player, scoring
from .actions import Attack, Bid, Done, Pass, Submit
from .state import OriginsState, Sheet

GOOD_ODDS, EVEN_ODDS = 5, 3  # the attack table's 2:1 and 1:1 columns (§7)
MAX_BID = 4  # the dearest bid the tree considers: PFs bid are lost (Phase 3)
PER_VP = 0.08  # value of a VP gained on the others by the end of the turn (see `values`)
_PLANS_KEPT = 4096  # planned sheets remembered (a pure function of the public board)


def _frozen_board(state: OriginsState) -> Hashable:
    return tuple(sorted((e, tuple(sorted(here.items()))) for e, here in state.pfs.items() if here))


class OriginsKnowledge(Knowledge[OriginsState]):
    horizon = 400  # a bound only: a playout ends at the end of the turn (`stop`)
    score_name = "VPs"

    def __init__(self, game: Any):
        super().__init__(game)
        self._turn = 0
        self._base: dict[str, float] = {}
        self._plans: dict[Hashable, list[dict[str, Sheet]]] = {}

    # -- what the seat cannot see ----------------------------------------------------------
    def determinize(self, state: OriginsState, seat: str, rng: random.Random) -> OriginsState:
        self._turn = state.turn  # public: the turn the decision is made in
        self._base = leads(projected(state))  # public: the board and who holds what
        d = clone(state)
        d.seed = rng.getrandbits(63)
        if d.phase == "placement":
            drafts = {c: s for c, s in d.drafts.items() if d.holders[c] == seat}
            for country, holder in d.holders.items():  # dealt in the fixed order of `holders`
                if holder != seat and holder in d.submitted:
                    drafts[country] = quick_player.plan(d, country, rng)
            d.drafts = drafts  # another player still writing hands in its sheet in the tree
        return d

    # -- the choices worth a thought -------------------------------------------------------
    def candidates(self, state: OriginsState, seat: str) -> list[Any]:
        actions = self.game.legal_actions(state, seat)
        if state.phase == "placement" and actions:
            return [Submit(sheets=sheets) for sheets in self.sheets(state, seat)]
        if state.phase == "bidding" and len(actions) > 1:
            return self._bids(state, seat, actions)
        if state.phase == "attacks" and len(actions) > 1:
            return self._attacks(state, seat, actions)
        return actions

    @staticmethod
    def _attacks(state: OriginsState, seat: str, actions: list[Any]) -> list[Any]:
        """Done, the basic player's attack, and those at 2:1 or better, or at 1:1 or better
        against treaty rights: an attack at worse odds mostly loses the attacker's PFs."""
        country = state.order[state.attacker]
        basic = bots.attack(state, country, random.Random(1))
        out: list[Done | Attack] = [a for a in actions if isinstance(a, Done)]
        if isinstance(basic, Attack) and len(basic.split) == 1 and basic in actions:
            out.append(basic)
        for a in actions:
            if not isinstance(a, Attack) or a in out:
                continue
            ((target, n),) = a.split.items()
            theirs = state.at(a.embassy, target)
            col = attacks.column(n, theirs)
            if col >= GOOD_ODDS or (col >= EVEN_ODDS and theirs >= scoring.TREATY and target != a.embassy):
                out.append(a)
        return out

    def sheets(self, state: OriginsState, seat: str) -> list[dict[str, Sheet]]:
        """A few whole sets of sheets for the seat's countries, from the public board and
        the seat's own income only, the same for every determinization of one position."""
        key = (
            seat,
            tuple(state.holders.items()),
            state.last_turn,
            tuple(sorted(state.unplaced.items())),
            _frozen_board(state),
        )
        kept = self._plans.get(key)
        if kept is not None:
            return kept
        mine = state.countries_of(seat)
        options = [bots.plan_seat(state, seat, random.Random(1))]
        options.append({c: quick_player.plan(state, c, random.Random(1)) for c in mine})
        options.append(bots.plan_seat(state, seat, random.Random(2)))
        options.append({c: quick_player.plan(state, c, random.Random(2)) for c in mine})
        unique: list[dict[str, Sheet]] = []
        for sheets in options:
            if sheets not in unique:
                unique.append(sheets)
        if len(self._plans) >= _PLANS_KEPT:
            self._plans.clear()
        self._plans[key] = unique
        return unique

    @staticmethod
    def _bids(state: OriginsState, seat: str, actions: list[Any]) -> list[Any]:
        amount = state.high_bid + 1
        out: list[Any] = [a for a in actions if isinstance(a, Pass)]
        if amount > MAX_BID:
            return out
        mine = state.countries_of(seat)
        payer = max(mine, key=lambda c: (placement.funds(state, c), -mine.index(c)))
        legal = set(actions)
        for card in mine:
            where = state.order.index(card) + 1
            for position in (1, len(state.order)):
                bid = Bid(payer=payer, card=card, position=position, amount=amount)
                if position != where and bid in legal:
                    out.append(bid)
        return out

    def key(self, action: Any) -> Hashable:
        if isinstance(action, Submit):
            sheets = action.sheets or {}
            return (
                "submit",
                tuple(
                    (c, tuple(sorted(s.place.items())), tuple(sorted(s.remove.items())))
                    for c, s in sorted(sheets.items())
                ),
            )
        if isinstance(action, Attack):
            return ("attack", action.embassy, tuple(action.split.items()))
        return cast(Hashable, action)  # every other action of Origins is a frozen model

    def label(self, state: OriginsState, seat: str, action: Any) -> str:
        """Sheets handed in by what each one places and removes (the search's whole sheets,
        which no button offers, and the seat's own drafts as written)."""
        if not isinstance(action, Submit) or state.phase != "placement":
            return super().label(state, seat, action)
        sheets = action.sheets or {c: state.drafts.get(c, Sheet()) for c in state.countries_of(seat)}
        names = content.names()
        written = "; ".join(
            f"{names[c]}: {placement.sheet_words(placement.sheet_line(s))}" for c, s in sorted(sheets.items())
        )
        return f"Hand in the sheets {written}"

    # -- below the tree --------------------------------------------------------------------
    def playout(self, state: OriginsState, seat: str, rng: random.Random) -> Any:
        return quick_player.choose(state, seat, rng)

    def stop(self, state: OriginsState) -> bool:
        return state.turn != self._turn or state.phase == "diplomacy"

    def evaluate(self, state: OriginsState) -> dict[str, float]:
        return values(leads(projected(state)), self._base)

    def points(self, state: OriginsState) -> dict[str, float]:
        """Each seat's victory points as the position stands (`projected`)."""
        return projected(state)

    def judged(self, state: OriginsState) -> tuple[dict[str, float], dict[str, float]]:
        scores = projected(state)
        return values(leads(scores), self._base), scores


def projected(state: OriginsState) -> dict[str, float]:
    """Each seat's victory points as the position stands, with the basic player's credit
    for PFs short of treaty rights and debit for treaty rights a rival's PFs threaten, and
    the doubling of §9."""
    judge = bots._Judge(state, state.seats[0])
    values = judge.country_values(state.pfs)
    totals = dict.fromkeys(state.seats, 0.0)
    for country, value in values.items():
        totals[state.holders[country]] += value
    return {s: v * judge.factor[s] for s, v in totals.items()}


def leads(scores: dict[str, float]) -> dict[str, float]:
    """Each seat's lead over the others: half over the best rival, half over their mean
    (as the basic player weighs it)."""
    out = {}
    for seat, mine in scores.items():
        others = [v for s, v in scores.items() if s != seat]
        out[seat] = mine - 0.5 * max(others) - 0.5 * sum(others) / len(others) if others else 0.0
    return out


def values(lead: dict[str, float], base: dict[str, float]) -> dict[str, float]:
    """Each seat's value: 0.5 for its lead at the decision, `PER_VP` for each VP gained on
    the others since, within [0, 1]. Centred on the decision's own position, so a seat far
    ahead or far behind still tells a VP more from a VP less (the exploration term of the
    search is about 0.4 at these iterations: a flatter value would be noise to it)."""
    return {s: min(1.0, max(0.0, 0.5 + PER_VP * (v - base.get(s, 0.0)))) for s, v in lead.items()}

"""The strong automatic player of Schönbrunn: what the search (engine/core/search.py,
docs/architecture.md §2, "Automatic players") needs to know of this game.

- `determinize` deals afresh what a seat cannot see: the values of face-down Delegates,
  of committed Delegates not yet revealed and of the pieces behind other screens (each
  owner's unseen values permuted among its unseen pieces, its own face-down ones too: the
  rulebook forbids looking at them), the Reparations still face down (within their type,
  whose back is printed), the face-down Political Favours and the auction bids. Everything
  else a seat may know, from the board or from the public record (every Reception and every
  card changes hands in a public event, so a player who keeps count knows them).
- `candidates` prunes the combinations `legal.py` lists whole to the few worth a thought
  (three Delegate values for each Objective, a Plot at the delegations that matter) and
  leaves the routine choices (signing, keeping, the order of a tie, the '-1' markers) to
  one rule each.
- Below the tree no engine step is played: `evaluate` finishes the round on a `Sketch`, a
  light copy of the board in plain lists, with a fast policy for every seat (greedy
  Delegates by the worth of each Reparation, Plots and the Foreign Minister where they can
  tip an Objective), resolves the Congress, and turns each seat's Prestige plus what its
  cards will still give into a chance of winning. About a hundred times cheaper than the
  engine's steps to the end of the round, which is what the search's budget allows.

The player's other parts, each in its module: what cards, Aids and contests are worth
(worth.py); the sketch of a round and its value (sketch.py); the fast policy that plays it
to the Congress (foresight.py); the quick choice for every decision and the candidates
(fast_policy.py). The all-in exploits it must keep beating are in exploits.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.core import built
from engine.core.fast import clone, replaced
from engine.core.search import Knowledge

from . import actions as A
from .content import card
from .fast_policy import heuristic, options, spend_choice
from .foresight import finish, finished
from .pieces import spend_limit, supply_values
from .state import SchonbrunnState

__all__ = ["SchonbrunnKnowledge"]


@dataclass
class _Unseen:
    """The hidden pools of a state as one seat sees it, each in a fixed order: Delegates
    (piece indices and their values), face-down Reparations (places and ids), Favours."""

    delegates: list[tuple[list[int], list[int]]]
    cards: list[tuple[list[tuple[str | None, int]], list[str]]]
    favour_places: list[str]
    favours: list[int]


# The state is not a GameState but a dataclass like one: see `Schonbrunn` in game.py.
class SchonbrunnKnowledge(Knowledge[SchonbrunnState]):
    horizon = 0  # no engine step below the tree: `evaluate` finishes the round on a Sketch
    score_name = "Prestige"

    def __init__(self, game: Any):
        super().__init__(game)
        self._unseen: tuple[SchonbrunnState, str, int, _Unseen] | None = None

    def determinize(self, state: SchonbrunnState, seat: str, rng: random.Random) -> SchonbrunnState:
        unseen = self._unseen_of(state, seat)
        d = clone(state)
        d.seed = rng.getrandbits(63)
        delegates = d.delegates
        for pieces, values in unseen.delegates:
            values = list(values)
            rng.shuffle(values)
            for i, v in zip(pieces, values, strict=True):
                if delegates[i].value != v:
                    delegates[i] = replaced(delegates[i], value=v)
        # into new lists: the copy shares the piles and the box with `state`
        piles = {o: list(pile) for o, pile in d.piles.items()}
        box_hidden = list(d.box_hidden)
        for places, ids in unseen.cards:
            ids = list(ids)
            rng.shuffle(ids)
            for (where, i), c in zip(places, ids, strict=True):
                (box_hidden if where is None else piles[where])[i] = c
        d.piles = {o: tuple(pile) for o, pile in piles.items()}
        d.box_hidden = box_hidden
        if unseen.favours:
            values = list(unseen.favours)
            rng.shuffle(values)
            for o, v in zip(unseen.favour_places, values, strict=False):
                d.favours[o] = v
            d.favour_spare = values[len(unseen.favour_places) :]
        if d.stage == "bid":
            for s in d.seats:
                other = d.players[s]
                if s != seat and other.bid is not None:
                    d.change(other, bid=rng.randint(1, max(1, other.receptions)))
        return d

    def _unseen_of(self, state: SchonbrunnState, seat: str) -> _Unseen:
        """What `seat` cannot see in `state`, gathered in a fixed order from what it can
        (kept for the decision's next iterations: the search determinizes one state again
        and again)."""
        cached = self._unseen
        if cached is not None and cached[0] is state and cached[1] == seat and cached[2] == state.step:
            return cached[3]
        objectives = set(state.objectives)
        # Delegates: each owner's unseen values dealt again among its unseen pieces
        hidden: dict[str, list[int]] = {}
        for i, x in enumerate(state.delegates):  # the pieces' order is public (made in seat order)
            if x.face_up or x.known:
                continue
            if x.owner == seat and (x.place not in objectives or state.see_own_face_down):
                continue
            hidden.setdefault(x.owner, []).append(i)
        delegates = []
        for owner in state.seats:
            pieces = hidden.get(owner, [])
            if len(pieces) > 1:
                delegates.append((pieces, sorted(state.delegates[i].value for i in pieces)))
        # Reparations face down: within their type (printed on the back), Poland in place
        start = 1 if state.tops_revealed else 0
        slots: dict[str, list[tuple[str | None, int]]] = {}
        for o in [*state.objectives, "PoB"]:
            pile = state.piles[o]
            for i in range(start, len(pile)):
                if not card(pile[i]).legitimacy:
                    slots.setdefault(card(pile[i]).type, []).append((o, i))
        for i, c in enumerate(state.box_hidden):
            slots.setdefault(card(c).type, []).append((None, i))
        deal = []
        for kind in ("indemnity", "ally", "aid", "treaty"):
            places = slots.get(kind, [])
            if len(places) > 1:
                ids = sorted((state.box_hidden if o is None else state.piles[o])[i] for o, i in places)
                deal.append((places, ids))
        # Political Favours face down, and the token left out
        down = [o for o in state.objectives if o in state.favours and o not in state.favours_up]
        favours = sorted([state.favours[o] for o in down] + state.favour_spare)
        unseen = _Unseen(delegates, deal, down, favours if len(favours) > 1 else [])
        self._unseen = (state, seat, state.step, unseen)
        return unseen

    def candidates(self, state: SchonbrunnState, seat: str) -> list[Any]:
        stage = state.stage
        if stage in ("bid", "commit"):
            if seat not in state.queue:
                return []
        elif state.queue[:1] != [seat]:
            return []
        if stage == "commit":
            return [built(A.Commit, delegate=v) for v in sorted(set(supply_values(state, seat)))]
        if stage == "receptions":
            cap = spend_limit(state, seat)
            return [built(A.Spend, receptions=r) for r in sorted({cap, max(0, cap - 1), spend_choice(state, seat)})]
        if stage == "bid":
            return [built(A.Bid, receptions=r) for r in range(1, min(3, state.players[seat].receptions) + 1)]
        if stage == "choose":
            return [built(A.Choose, nation=n) for n in state.nations_left]
        if stage in ("assign", "plot", "minister", "move"):
            return options(state, seat)
        return [heuristic(state, seat, random.Random(state.step))]

    def playout(self, state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
        return heuristic(state, seat, rng)

    def evaluate(self, state: SchonbrunnState) -> dict[str, float]:
        if state.stage in ("bid", "choose"):
            return {s: 1.0 / len(state.seats) for s in state.seats}
        rng = random.Random(state.seed ^ (state.step << 20))
        return dict(zip(state.seats, finish(state, rng), strict=True))

    def points(self, state: SchonbrunnState) -> dict[str, float]:
        """Each seat's Prestige and what its cards will still give, once the round is played
        out on the sketch `evaluate` reads (Prestige alone before the first round)."""
        return self.judged(state)[1]

    def judged(self, state: SchonbrunnState) -> tuple[dict[str, float], dict[str, float]]:
        if state.stage in ("bid", "choose"):
            return self.evaluate(state), {s: float(state.players[s].prestige) for s in state.seats}
        sk = finished(state, random.Random(state.seed ^ (state.step << 20)))
        return dict(zip(state.seats, sk.values(), strict=True)), dict(zip(state.seats, sk.scores(), strict=True))

    def key(self, action: Any) -> Any:
        d = action.__dict__
        if d.get("kind") in ("activate", "tiebreak", "sign", "keep"):
            return repr(action)
        return tuple(d.values())

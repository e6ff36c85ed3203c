"""The strong automatic statesman of Crisis: 1914: what its search (engine/core/search.py;
docs/architecture.md §2, "Automatic players") needs to know of the game.

- `determinize` deals afresh what the seat cannot see: the other statesmen's Hands, Draw
  Piles and the cards they are looking at, and the unseen part of its own Draw Pile.
- `candidates` keeps the choices worth a thought: every card play, one discard for
  Deliberate, Reorganize and Seize Initiative (the least useful cards), a few orders; never
  a Draw or Deliberate that likely brings war, nor (with rivals) a Belligerence that raises
  the highest Tension die before the last Week.
- `playout` is a fast statesman that knows the Score Track's Tension and its own City Box:
  it plans the Week's DP to what its Tension can bear over the Weeks left, never plays or
  draws into General Mobilization it can avoid, counts a card that forces Belligerence at
  its doubled value and its raised floor, and Deliberates rather than draw blind when a
  General Mobilization card is in its Draw Pile. Alone it plays for one doubled Week (4
  Assertions): it holds the Assertions and the best cards in Hand, Deliberates to gather
  them, sheds Tension in Weeks under 14 DP while holding, and doubles a 4-DP card by
  Belligerence in that Week.
- `evaluate` turns an unfinished game into win chances: Prestige banked, the Week's
  placing so far, what the Weeks left can still bring with the Tension room left, and the
  risk of war; in the solitaire game, the chance of reaching the Victory tiers.

The player's other parts, each in its module: what a card adds now and what Tension the
Score Track can bear (worth.py); the value of a position (prospects.py); the fast statesman
below the tree (fast_policy.py). The simple strategies it must keep beating are in
exploits.py.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Outcome, clone
from engine.core.search import Knowledge

from . import actions as a
from .cards import TRACK_END
from .fast_policy import (
    DRAW_WAR_RISK,
    deliberate_war_risk,
    draw_war_risk,
    fast_action,
    order_rank,
    solo_doubling,
    solo_held,
    spare_order,
    tree_cap,
)
from .hidden import deal_unseen
from .prospects import projected_prestige, solo_value, tension_after_week, win_chances
from .state import CrisisState, Player
from .weeks import PRESTIGE_THRESHOLD, WAR_TENSION
from .worth import (
    belligerence_cost,
    card_value,
    forced_ok,
    is_mobilization,
    lets_mobilization_in,
    level_after_belligerence,
    mobilization_unseen,
    target_box,
    tension_added,
    weeks_left,
)


class CrisisKnowledge(Knowledge[CrisisState]):
    horizon = 40
    score_name = "Prestige"
    danger_words = "war or mobilization cost you the game"

    @staticmethod
    def horizon_for(players: int) -> int:
        """Playout steps: about two Weeks alone, one Week with more statesmen (a Week is
        about 11 actions a statesman), so most playouts reach a Score Step."""
        return 24 if players == 1 else 6 * players + 6

    # -- what the seat cannot see ----------------------------------------------------------
    def determinize(self, state: CrisisState, seat: str, rng: random.Random) -> CrisisState:
        self.horizon = self.horizon_for(len(state.players))  # public: the number of statesmen
        d = clone(state)
        d.seed = rng.getrandbits(63)
        deal_unseen(d, seat, rng)  # the same dealing as the hidden-information check's
        return d

    # -- the choices worth a thought -------------------------------------------------------
    def candidates(self, state: CrisisState, seat: str) -> list[Any]:
        actions = self.game.legal_actions(state, seat)
        if len(actions) <= 1:  # (two choices are filtered too: a revealed card's Belligerence)
            return actions
        p = state.player_of(seat)
        assert p is not None
        spare = spare_order(state, p)
        out: list[Any] = []
        seized = False
        for act in actions:
            if isinstance(act, a.Deliberate | a.Reorganize):
                if spare and act.discard == spare[0] and not (isinstance(act, a.Reorganize) and p.known >= 3):
                    out.append(act)
            elif isinstance(act, a.Seize):
                if not seized and sorted(act.discards) == sorted(spare[:3]):
                    out.append(act)
                    seized = True
            elif isinstance(act, a.Play | a.Resolve) and not self._sound_play(state, p, act):
                continue
            elif isinstance(act, a.Discard):
                if sorted(act.cards) == sorted(spare[: len(act.cards)]) or len(actions) <= 6:
                    out.append(act)
            elif isinstance(act, a.Refresh):
                if sorted(act.discards) == sorted(spare[: len(act.discards)]):
                    out.append(act)
            else:
                out.append(act)
        if not out:
            return actions
        if state.phase == "play" and not state.pending:
            out = self._worth_a_turn(state, p, out)
        reorders = [x for x in out if isinstance(x, a.Reorder)]
        if len(reorders) > 3:  # the best few orders: wanted cards first, General Mobilization last
            keep = sorted(reorders, key=lambda r: order_rank(state, p, r.order))[:3]
            out = [x for x in out if not isinstance(x, a.Reorder) or x in keep]
        return out

    @staticmethod
    def _worth_a_turn(state: CrisisState, p: Player, out: list[Any]) -> list[Any]:
        """Drop the turns a careful statesman never takes, so the search spends its
        iterations on real choices: a Pass below 14 DP while a safe card is there and no
        Tension die can fall; alone, paying Prestige to look at cards with nothing to fear."""
        safe: list[a.Play | a.Draw] = [x for x in out if isinstance(x, a.Play)]
        risk = draw_war_risk(state, p) if a.Draw() in out else 1.0
        if risk == 0:
            safe.append(a.Draw())
        sheds = state.tension[p.nation][target_box(p)] > p.belligerence
        held = solo_held(state, p)  # alone: kept for the doubled Week, which `evaluate` cannot see
        doubling = state.solo and solo_doubling(state, p)
        kept = []
        for x in out:
            if isinstance(x, a.Pass) and p.highest < PRESTIGE_THRESHOLD and safe and not sheds:
                continue
            if state.solo and isinstance(x, a.Reorganize) and not mobilization_unseen(p):
                continue
            if isinstance(x, a.Draw) and risk > DRAW_WAR_RISK:
                continue
            if isinstance(x, a.Deliberate) and deliberate_war_risk(state, p) > DRAW_WAR_RISK:
                continue
            if isinstance(x, a.Play) and (x.card in held or (state.solo and x.belligerence and not doubling)):
                continue
            kept.append(x)
        return kept or out

    @staticmethod
    def _sound_play(state: CrisisState, p: Player, act: a.Play | a.Resolve) -> bool:
        """Not General Mobilization, not a card or Belligerence that brings war this Week
        or lets General Mobilization into the Draw Pile, when the choice is free."""
        chosen = act.card if act.card is not None else (state.pending[0].cards[0] if state.pending else None)
        if chosen is None:
            return True
        if is_mobilization(chosen):
            return False
        if isinstance(act, a.Resolve) and act.card is None and not act.belligerence:
            return True  # a revealed card is placed as it is: always possible
        if isinstance(act, a.Play) and not forced_ok(state, p, chosen):
            return False
        value = card_value(state, p, chosen) * (2 if act.belligerence else 1)
        if p.score + value > tree_cap(state, p) or p.highest + value > TRACK_END:
            return isinstance(act, a.Resolve) and act.card is not None and not act.belligerence
        if act.belligerence and (
            lets_mobilization_in(state, p)
            or level_after_belligerence(state, p) + tension_added(p.score + value) >= WAR_TENSION
            or (not state.solo and weeks_left(state) and belligerence_cost(state, p))
        ):
            # (with rivals, a Belligerence that raises the highest die spends Tension room and
            # lifts the floor a forced Belligerence starts from: 2 in Week 1 took a quick
            # Berchtold to 4, Ultimatum to Belligerence 4, and General Mobilization in)
            return False
        return True

    # -- the fast statesman below the tree -------------------------------------------------
    def playout(self, state: CrisisState, seat: str, rng: random.Random) -> Any:
        return fast_action(state, seat, rng)

    # -- how good an unfinished game is --------------------------------------------------------
    def evaluate(self, state: CrisisState) -> dict[str, float]:
        if state.solo:
            p = next(iter(state.players.values()))
            return {p.seat: solo_value(projected_prestige(state, p))}
        projected = {p.seat: projected_prestige(state, p) for p in state.players.values()}
        return win_chances(projected)

    def points(self, state: CrisisState) -> dict[str, float]:
        """The Prestige each statesman can expect at the end, as `evaluate` reads it."""
        return {p.seat: projected_prestige(state, p) for p in state.players.values()}

    def danger(self, state: CrisisState, seat: str) -> bool:
        """The statesman has lost, or this Week's Score Track Tension brings war (as `evaluate` counts it)."""
        p = state.player_of(seat)
        return p is not None and (p.lost is not None or tension_after_week(state, p) >= WAR_TENSION)

    def terminal(self, state: CrisisState, outcome: Outcome) -> dict[str, float]:
        if state.solo:
            p = next(iter(state.players.values()))
            return {p.seat: solo_value(-20.0 if p.lost else float(p.prestige))}
        return super().terminal(state, outcome)


"""An automatic statesman: pushes DP up to what its Tension can bear, and no further.

It drives the random-play tests and the balance simulations, so it plays every action
the rules offer and avoids the obvious ways to lose (General Mobilization, 6 Tension).
"""

from __future__ import annotations

import random
from typing import Any

from . import actions as a
from . import content as ct
from .cards import MAX_BELLIGERENCE, blocked_by_momentum, card, card_dp, limit, reducible_boxes
from .state import CrisisState, Player
from .weeks import HAND_MAX, LAST_WEEK, refresh_waiting

SAFE_TENSION = 4  # aim to end a Week with the Target box at most here (5 in the last Week)


def is_mobilization(card_id: str) -> bool:
    return card_id in ct.load_content().mobilization


def _cap_for_room(room: int) -> int:
    best = 13
    for space, added in enumerate(ct.load_content().tension_at):
        if added <= room:
            best = space
    return best


def lower_cap(state: CrisisState, p: Player) -> int:
    """The highest lower-marker space whose Tension keeps the Target box safe."""
    target = ct.load_content().nations[p.nation].boxes[0]
    now = state.tension[p.nation][target]
    # alone, only Vienna's Russia box matters and each DP above 18 scores: press harder
    safe = SAFE_TENSION + (1 if state.week >= LAST_WEEK or state.solo else 0)
    return _cap_for_room(safe - now)


def value(state: CrisisState, p: Player, card_id: str) -> int:
    if is_mobilization(card_id):
        return -99
    if card(card_id).forced_belligerence and p.belligerence >= 2:
        return -9  # one more forced Belligerence could bring General Mobilization into the deck
    return card_dp(state, p, card(card_id))


def want_belligerence(state: CrisisState, p: Player, card_id: str, rng: random.Random) -> bool:
    c = card(card_id)
    if p.belligerence >= MAX_BELLIGERENCE or c.forced_belligerence or state.phase == "first_draw":
        return False
    v = card_dp(state, p, c)
    city_max = max(state.tension[p.nation].values())
    if v < 3 or p.belligerence >= 2 or city_max >= 3 or state.solo:  # alone it only raises the floor
        return False
    return p.score + 2 * v <= lower_cap(state, p) and rng.random() < 0.35


def choices(state: CrisisState, p: Player, card_id: str, rng: random.Random) -> dict[str, Any]:
    c = card(card_id)
    alt = False
    if c.alternative is not None and any(e.kind == "reclaim_assertion" for e in c.alternative):
        # take an Assertion back when the DP is already more than the Tension can bear
        alt = p.score > lower_cap(state, p) and any(card(t.card).type == "assertion" for t in p.tableau)
    return {"belligerence": want_belligerence(state, p, card_id, rng), "alternative": alt}


def bot_action(state: CrisisState, seat: str, rng: random.Random) -> Any:
    p = state.player_of(seat)
    assert p is not None
    if state.pending and state.pending[0].nation == p.nation:
        return _pending(state, p, rng)
    if state.phase == "congress_invite":
        return a.Congress(yes=max(state.tension[p.nation].values()) >= 2 or rng.random() < 0.3)
    if state.phase == "congress_answer":
        return a.Congress(yes=max(state.tension[p.nation].values()) >= 2 or rng.random() < 0.6)
    if state.phase == "refresh":
        return refresh_choice(state, p)
    return _turn(state, p, rng)


def refresh_choice(state: CrisisState, p: Player) -> a.Refresh:
    if p.nation not in refresh_waiting(state):
        return a.Refresh()
    # keep the best cards; a General Mobilization card is safest kept in Hand
    ranked = sorted(p.hand, key=lambda c: (is_mobilization(c), value(state, p, c)), reverse=True)
    return a.Refresh(discards=ranked[HAND_MAX:])


def _pending(state: CrisisState, p: Player, rng: random.Random) -> Any:
    pend = state.pending[0]
    if pend.kind == "resolve":
        return a.Resolve(**choices(state, p, pend.cards[0], rng))
    if pend.kind == "choose":
        room = lower_cap(state, p) - p.score
        fitting = [c for c in pend.cards if not is_mobilization(c) and value(state, p, c) <= max(room, 0)]
        pool = fitting or [c for c in pend.cards if not is_mobilization(c)] or pend.cards
        best = (
            max(pool, key=lambda c: value(state, p, c))
            if fitting
            else min(pool, key=lambda c: value(state, p, c))
        )
        return a.Resolve(card=best, **choices(state, p, best, rng))
    if pend.kind == "reorder":
        return a.Reorder(order=sorted(pend.cards, key=lambda c: value(state, p, c), reverse=True))
    if pend.kind == "reduce":  # the highest die is the nearest to war
        return a.Reduce(box=reducible_boxes(state, p.nation)[0])
    worst = sorted(p.hand, key=lambda c: (not is_mobilization(c), value(state, p, c)))
    return a.Discard(cards=worst[: pend.count])


def _turn(state: CrisisState, p: Player, rng: random.Random) -> Any:
    if len(p.tableau) >= limit(p):
        return a.Pass()
    cap = lower_cap(state, p)
    room = cap - p.score
    playable = [c for c in p.hand if not is_mobilization(c)]
    spare = sorted(p.hand, key=lambda c: (not is_mobilization(c), value(state, p, c)))
    # Seize the Initiative when level with the leader and holding cards to spare
    top = next((n for n in state.current if n is not None), p.nation)
    if (
        not state.solo
        and top != p.nation
        and p.highest >= state.players[top].highest
        and len(p.hand) >= 4
        and rng.random() < 0.3
    ):
        return a.Seize(discards=[c for c in spare if not is_mobilization(c)][:3] or spare[:3])
    fits = [c for c in playable if 0 < value(state, p, c) <= room]
    if fits:
        best = max(fits, key=lambda c: value(state, p, c))
        ch = choices(state, p, best, rng)
        if ch["belligerence"] and 2 * value(state, p, best) > room:
            ch["belligerence"] = False
        return a.Play(card=best, **ch)
    free = [c for c in playable if value(state, p, c) <= 0]
    if free and room >= 0 and rng.random() < 0.5:
        return a.Play(card=free[0], **choices(state, p, free[0], rng))
    unblocked = blocked_by_momentum(state, p) is None
    cost_ok = not state.solo or (p.prestige >= 4 and rng.random() < 0.3)
    known_danger = any(is_mobilization(c) for c in p.draw[: p.known])
    if unblocked and cost_ok and p.hand and not p.deliberated and room >= 2 and rng.random() < 0.5:
        return a.Deliberate(discard=spare[0])
    if unblocked and cost_ok and p.hand and known_danger and rng.random() < 0.7:
        return a.Reorganize(discard=spare[0])
    mobilization_hidden = _mobilization_in_draw(p) and not (p.known and not is_mobilization(p.draw[0]))
    risky = room < 4 or (mobilization_hidden and rng.random() < 0.6)
    if (p.draw or p.recycled) and (p.highest < 14 or not risky) and room >= 1:
        if not (p.known and is_mobilization(p.draw[0])):
            return a.Draw()
    return a.Pass()


def _mobilization_in_draw(p: Player) -> bool:
    return any(is_mobilization(c) for c in p.draw) or any(is_mobilization(c) for c in p.recycled)

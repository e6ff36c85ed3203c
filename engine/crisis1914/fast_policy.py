"""The fast statesman of Crisis: 1914, which the strong statesman (strong.py) plays below its
search tree (`fast_action`): it plans the Week's DP to what its Tension can bear over the
Weeks left, never plays or draws into General Mobilization it can avoid, and alone plays
for one doubled Week. Also the war risks of a blind Draw or a Deliberate, which the
search's candidates read."""

from __future__ import annotations

import random
from typing import Any

from . import actions as a
from .cards import MAX_BELLIGERENCE, TRACK_END, assertions, card, card_dp, limit
from .state import CrisisState, Player
from .weeks import HAND_MAX, PRESTIGE_THRESHOLD, WAR_TENSION
from .worth import (
    allowed_tension,
    belligerence_cost,
    cap_for,
    card_table,
    card_value,
    city_max,
    forced_ok,
    is_mobilization,
    lets_mobilization_in,
    level_after_belligerence,
    target_box,
    tension_added,
    weeks_left,
)


def spare_order(state: CrisisState, p: Player) -> list[str]:
    """Hand cards from the least to the most useful to keep; a General Mobilization card is
    kept (in Hand it cannot be drawn blind), so it comes last."""
    return sorted(p.hand, key=lambda c: (is_mobilization(c), _keep_value(state, p, c), c))


def _keep_value(state: CrisisState, p: Player, card_id: str) -> float:
    info = card_table().info[card_id]
    v = card_value(state, p, card_id) + info[6]
    if state.solo and info[5] == "assertion":
        v += SOLO_KEEP_ASSERTION  # kept across Weeks for the doubled Week
    if info[3] and not forced_ok(state, p, card_id):
        v -= 6
    return v


def order_rank(state: CrisisState, p: Player, order: list[str]) -> tuple[tuple[bool, float], ...]:
    return tuple((is_mobilization(c), -_keep_value(state, p, c)) for c in order)


def fast_action(state: CrisisState, seat: str, rng: random.Random) -> Any:
    """The playout's statesman: cheap, and never blind to Tension or General Mobilization."""
    p = state.player_of(seat)
    assert p is not None
    if state.pending and state.pending[0].nation == p.nation:
        return _fast_pending(state, p, rng)
    if state.phase == "congress_invite":
        return a.Congress(yes=True)  # +1 Prestige to the inviter, and 1 Tension off every die
    if state.phase == "congress_answer":
        return a.Congress(yes=city_max(state, p) > p.belligerence or rng.random() < 0.5)
    if state.phase == "refresh":
        must = max(0, len(p.hand) - HAND_MAX)
        return a.Refresh(discards=spare_order(state, p)[:must])
    return _fast_turn(state, p, rng)


TREE_GREED = 0.3  # the playout statesman's mean share of its Tension room spent in a Week


def tree_cap(state: CrisisState, p: Player) -> int:
    """The highest lower marker a chosen play may reach in the tree: the playout statesman's
    mean plan, so the search does not spend in one Week the Tension room of the Weeks left
    (with the bare war cap, most wars among quick players were Tension 6)."""
    if state.solo:
        return war_cap(state, p)
    return min(war_cap(state, p), cap_for(allowed_tension(state, p, TREE_GREED)))


def war_cap(state: CrisisState, p: Player) -> int:
    """The highest lower-marker space that does not bring war at this Week's Score Step."""
    room = WAR_TENSION - 1 - state.tension[p.nation][target_box(p)]
    return cap_for(room) if room >= 0 else -1


def _plan(state: CrisisState, p: Player, rng: random.Random) -> int:
    """DP the lower marker may still climb this Week by plan (a random greed keeps the
    playouts varied)."""
    if state.solo and solo_sheds(state, p):
        return PRESTIGE_THRESHOLD - 1 - p.score
    return cap_for(allowed_tension(state, p, (1.0 if state.solo else rng.random() * 0.6))) - p.score


def _wants_belligerence(state: CrisisState, p: Player, card_id: str, room: int) -> bool:
    """`room`: DP the plan leaves before the card."""
    c = card(card_id)
    if c.forced_belligerence or p.belligerence >= MAX_BELLIGERENCE or state.phase == "first_draw":
        return False
    v = card_dp(state, p, c)
    if v < 2 or 2 * v > room:
        return False
    cost = belligerence_cost(state, p)
    if lets_mobilization_in(state, p):
        return False
    if (
        max(level_after_belligerence(state, p), city_max(state, p)) + tension_added(p.score + 2 * v)
        >= WAR_TENSION
    ):
        return False
    if state.solo:
        # alone a Belligerence only raises the floor the Weeks under 14 DP would lower; in the
        # doubled Week a card's DP counts twice and the card slots, not Tension, run out first
        return solo_doubling(state, p) and v >= SOLO_BELLIGERENCE_DP
    # +1 Prestige with the most DP, -1 without: only when it should lead
    lead = max((q.highest for q in state.active() if q is not p), default=0)
    return cost == 0 and p.highest + 2 * v > lead


def _card_choices(state: CrisisState, p: Player, card_id: str, room: int) -> dict[str, Any]:
    c = card(card_id)
    alt = False
    if c.alternative is not None and any(e.kind == "reclaim_assertion" for e in c.alternative):
        alt = room < 0 and any(card(t.card).type == "assertion" and t.card != card_id for t in p.tableau)
    return {"belligerence": _wants_belligerence(state, p, card_id, room), "alternative": alt}


def _fast_pending(state: CrisisState, p: Player, rng: random.Random) -> Any:
    pend = state.pending[0]
    if pend.kind == "resolve":
        return a.Resolve(**_card_choices(state, p, pend.cards[0], _plan(state, p, rng)))
    if pend.kind == "choose":
        room = _plan(state, p, rng)
        pool = [c for c in pend.cards if not is_mobilization(c)] or pend.cards
        ok = [c for c in pool if forced_ok(state, p, c)] or pool
        if solo_held(state, p):  # alone, a Deliberate while holding keeps its Assertions
            ok = [c for c in ok if card_table().info[c][5] != "assertion"] or ok
        fitting = [c for c in ok if card_value(state, p, c) <= room]
        best = (
            max(fitting, key=lambda c: _keep_value(state, p, c))
            if fitting
            else min(ok, key=lambda c: card_value(state, p, c))
        )
        return a.Resolve(card=best, **_card_choices(state, p, best, room))
    if pend.kind == "reorder":
        return a.Reorder(
            order=sorted(pend.cards, key=lambda c: (is_mobilization(c), -_keep_value(state, p, c)))
        )
    if pend.kind == "reduce":
        boxes = sorted(state.tension[p.nation].items(), key=lambda kv: -kv[1])
        return a.Reduce(box=next((b for b, t in boxes if t > p.belligerence), None))
    return a.Discard(cards=spare_order(state, p)[: pend.count])


def _blind_odds(state: CrisisState, p: Player, room: int) -> tuple[float, float]:
    """For a card drawn blind: the chance it brings war (General Mobilization, a Score
    marker past what the Tension can bear or past 32) and the chance it overshoots the plan."""
    unknown = p.draw[p.known :] if p.draw else p.recycled
    if not unknown:
        return 0.0, 0.0
    wc = war_cap(state, p)
    war = over = 0
    for c in unknown:
        v = card_value(state, p, c)
        if is_mobilization(c) or p.score + v > wc or p.highest + v > TRACK_END:
            war += 1
        elif card_table().info[c][3] and not forced_ok(state, p, c):
            war += 1
        elif v > room:
            over += 1
    return war / len(unknown), over / len(unknown)


DRAW_WAR_RISK = 0.15  # the tree does not draw when more of the Draw Pile than this brings war


def draw_war_risk(state: CrisisState, p: Player) -> float:
    """The chance that the next card drawn brings war: General Mobilization, a lower marker
    past what the Target box can bear this Week, the higher one past 32, or a forced
    Belligerence whose floor is not safe. A known top card is certain either way."""
    if p.known and p.draw:
        top = p.draw[0]
        v = card_value(state, p, top)
        bad = (
            is_mobilization(top)
            or p.score + v > war_cap(state, p)
            or p.highest + v > TRACK_END
            or (card_table().info[top][3] and not forced_ok(state, p, top))
        )
        return 1.0 if bad else 0.0
    war, _ = _blind_odds(state, p, 0)
    return war


def deliberate_war_risk(state: CrisisState, p: Player) -> float:
    """The chance that all three cards a Deliberate draws bring war, as one of them must be
    played (a quick Bethmann Hollweg at Tension 5 Deliberated at 15 DP and had to go to 19)."""
    top = p.draw[: min(p.known, 3)]
    if p.known >= 3:
        bad = [draw_war_risk(state, _with_top(p, c)) for c in top]
        return min(bad)
    war, _ = _blind_odds(state, p, 0)
    known_safe = any(draw_war_risk(state, _with_top(p, c)) == 0 for c in top)
    return 0.0 if known_safe else war ** (3 - len(top))


def _with_top(p: Player, card_id: str) -> Player:
    """`p` as if `card_id` were its known top card (for the one-card war test)."""
    q = p.model_copy()
    q.draw, q.known = [card_id], 1
    return q


def _can_look(state: CrisisState, p: Player) -> bool:
    """Deliberate and Reorganize: not under an opponent's Momentum, paid for alone."""
    if state.solo and p.prestige < 1:
        return False
    board = card_table().opposing[p.nation]
    return bool(p.hand) and not any(state.players[o].momentum for o in board if o in state.players)


def solo_held(state: CrisisState, p: Player) -> set[str]:
    """Alone, the Assertions a careful Berchtold keeps in Hand across Weeks until one Week
    can hold 4 of them (Prestige doubled): none once this Week can, or in the last Week."""
    if not state.solo or weeks_left(state) == 0:
        return set()
    held = {c for c in p.hand if card_table().info[c][5] == "assertion" and forced_ok(state, p, c)}
    if not held or solo_doubling(state, p):
        return set()
    # with them the cards worth most in the doubled Week: 3+ DP, and the Back-Channel cards
    # (each one more DP on the higher marker, without Tension); one place left for a draw
    info = card_table().info
    more = [c for c in p.hand if c not in held and (card_value(state, p, c) >= SOLO_HOLD_DP or info[c][8])]
    more.sort(key=lambda c: (-card_value(state, p, c), c))
    return held | set(more[: max(0, HAND_MAX - 1 - len(held))])


SOLO_KEEP_ASSERTION = 3.0
SOLO_DOUBLE = 4  # Assertions on the Tableau that double a Week's Prestige (Score Step table)
SOLO_BELLIGERENCE_DP = 4  # alone, only a 4-DP card is doubled by Belligerence, in the doubled Week
SOLO_HOLD_DP = 3  # alone, cards of 3+ DP are held with the Assertions for the doubled Week
SOLO_SHED_FROM = 2  # alone and holding, a Week under 14 DP sheds the Target box's Tension from 2


def solo_doubling(state: CrisisState, p: Player) -> bool:
    """Alone, this Week has 4 Assertions on the Tableau, or can still reach 4 with its Hand."""
    if assertions(p) >= SOLO_DOUBLE:
        return True
    held = sum(1 for c in p.hand if card_table().info[c][5] == "assertion" and forced_ok(state, p, c))
    slots = limit(p) - len(p.tableau)
    return assertions(p) + held >= SOLO_DOUBLE and slots >= SOLO_DOUBLE - assertions(p)


def solo_sheds(state: CrisisState, p: Player) -> bool:
    """Alone and holding cards for a doubled Week: stay under 14 DP to lower the Target box
    by 1 (Score Step, -1 Tension), as each point of Tension room is worth about 3 DP of the
    doubled Week, twice over."""
    t = state.tension[p.nation][target_box(p)]
    return t > p.belligerence and t >= SOLO_SHED_FROM and bool(solo_held(state, p))


def _fast_turn(state: CrisisState, p: Player, rng: random.Random) -> Any:
    if len(p.tableau) >= limit(p) or p.highest >= TRACK_END:
        return a.Pass()
    room = _plan(state, p, rng)
    held = solo_held(state, p)
    spare = [c for c in spare_order(state, p) if c not in held]
    if held and spare and not p.deliberated and _can_look(state, p) and room >= 4:
        # alone and holding: 3 cards for 1 Prestige and a spare card gather the doubled Week
        return a.Deliberate(discard=spare[0])
    hand = [c for c in p.hand if not is_mobilization(c) and forced_ok(state, p, c) and c not in held]
    fits = [
        c
        for c in hand
        if 0 < card_value(state, p, c) <= room and p.highest + card_value(state, p, c) <= TRACK_END
    ]
    if fits:
        # alone, the Week that can hold 4 Assertions plays them first
        doubling = state.solo and assertions(p) < SOLO_DOUBLE
        best = max(
            fits,
            key=lambda c: (
                doubling and card_table().info[c][5] == "assertion",
                card_value(state, p, c),
                _keep_value(state, p, c),
            ),
        )
        return a.Play(card=best, **_card_choices(state, p, best, room))
    if room < 0:
        return a.Pass()
    info = card_table().info
    for c in hand:
        if info[c][7] and card_value(state, p, c) <= 0:
            return a.Play(card=c, **_card_choices(state, p, c, room))
    if not (p.draw or p.recycled) or room < 1:
        return a.Pass()
    if p.known and p.draw:
        top = p.draw[0]
        if not is_mobilization(top) and forced_ok(state, p, top) and card_value(state, p, top) <= room:
            return a.Draw()
    else:
        war, over = _blind_odds(state, p, room)
        low = p.highest < PRESTIGE_THRESHOLD
        if war == 0 and over <= (0.5 if low else 0.25):
            return a.Draw()
        if war <= 0.1 and low and over <= 0.5 and rng.random() < 0.5:
            return a.Draw()
    if _can_look(state, p) and not p.deliberated and room >= 2 and (not state.solo or room >= 4):
        return a.Deliberate(discard=spare_order(state, p)[0])
    return a.Pass()

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
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.core import Outcome, clone
from engine.core.search import Knowledge

from . import actions as a
from . import content as ct
from .cards import MAX_BELLIGERENCE, TRACK_END, assertions, card, card_dp, limit
from .hidden import deal_unseen
from .state import CrisisState, Player
from .weeks import HAND_MAX, LAST_WEEK, PRESTIGE_THRESHOLD, WAR_TENSION

SOLO_VICTORY = 30  # Marginal Diplomatic Victory (Solitaire Game, Victory Conditions)


class _Cards:
    """What the fast statesman reads of every card and of the Score Track, gathered once
    per content in use (a group's content_dir may replace it): plain tuples, no look-ups."""

    def __init__(self, content: ct.Content):
        self.content = content
        self.track = tuple(content.tension_at)
        self.caps = tuple(
            max([PRESTIGE_THRESHOLD - 1] + [s for s, t in enumerate(self.track) if t <= added])
            for added in range(WAR_TENSION + 1)
        )
        self.info: dict[str, tuple] = {}
        for cid, c in content.cards.items():
            kinds = {e.kind for e in c.effects}
            keep = (0.5 if c.type == "assertion" else 0) + (1.5 if "back_channel" in kinds else 0)
            keep += 1 if "reduce_tension" in kinds else 0
            self.info[cid] = (
                c.dp,
                tuple(c.dp_by_week) if c.dp_by_week else None,
                c.dp_counter,
                c.forced_belligerence,
                cid in content.mobilization,
                c.type,
                keep,
                bool(kinds & {"back_channel", "draw", "reduce_tension"}),
                "back_channel" in kinds,
            )
        self.target = {n: x.boxes[0] for n, x in content.nations.items()}
        self.opposing = dict(content.board.opposing)


_cache: _Cards | None = None


def _cards() -> _Cards:
    global _cache
    content = ct.load_content()
    if _cache is None or _cache.content is not content:
        _cache = _Cards(content)
    return _cache


def tension_added(score: int) -> int:
    """The Score Track's "+" Tension at the lower marker's space."""
    track = _cards().track
    return track[min(max(score, 0), len(track) - 1)]


def cap_for(added: int) -> int:
    """The highest lower-marker space that adds at most `added` Tension."""
    caps = _cards().caps
    return caps[min(max(added, 0), len(caps) - 1)]


def is_mobilization(card_id: str) -> bool:
    return _cards().info[card_id][4]


def target_box(p: Player) -> str:
    return _cards().target[p.nation]


def city_max(state: CrisisState, p: Player) -> int:
    return max(state.tension[p.nation].values())


def weeks_left(state: CrisisState) -> int:
    """Weeks still to score after this one."""
    return LAST_WEEK - state.week


def belligerence_cost(state: CrisisState, p: Player) -> int:
    """How much a Belligerence action now raises the highest Tension die of the City Box."""
    if p.belligerence >= MAX_BELLIGERENCE:
        return 0
    top = city_max(state, p)
    return 1 if top <= p.belligerence else 0


def level_after_belligerence(state: CrisisState, p: Player) -> int:
    """Belligerence Action, Examples #1 and #2: up to the highest die, or 1 more if level."""
    top = city_max(state, p)
    return min(MAX_BELLIGERENCE, top if top > p.belligerence else p.belligerence + 1)


def lets_mobilization_in(state: CrisisState, p: Player) -> bool:
    """A Belligerence action now would bring General Mobilization into a later Week's
    Draw Pile (its player board's condition: Belligerence 3, a die at 4)."""
    return weeks_left(state) > 0 and level_after_belligerence(state, p) >= 3


def allowed_tension(state: CrisisState, p: Player, greed: float = 0.5) -> int:
    """The Tension this Week's Score Track may add: the room below war spread over the
    Weeks left, more with `greed` (0 spreads evenly, 1 spends all now)."""
    room = WAR_TENSION - 1 - state.tension[p.nation][target_box(p)]
    if room <= 0:
        return 0
    left = weeks_left(state)
    if left == 0:
        return room
    # a Week under 14 DP sheds 1 and a Congress may shed another: a little more than even
    even = room / (left + 1) + 0.5 * (1 if not state.solo else 0)
    return max(0, min(room, int(even + greed * (room - even) + 0.5)))


def mobilization_unseen(p: Player) -> bool:
    """A General Mobilization card may be the next one drawn blind."""
    unknown = p.draw[p.known :] if p.draw else p.recycled
    return any(is_mobilization(c) for c in unknown)


def card_value(state: CrisisState, p: Player, card_id: str) -> int:
    """The DP a card adds when played now (a forced Belligerence doubles it); as
    `cards.card_dp` reads it, from the static table."""
    dp, by_week, counter, forced = _cards().info[card_id][:4]
    if by_week is not None:
        dp = by_week[min(state.week, len(by_week)) - 1]
    elif counter is not None:
        dp = p.counters.get(counter, dp)
    if forced and p.belligerence < MAX_BELLIGERENCE:
        dp *= 2
    return dp


def _forced_ok(state: CrisisState, p: Player, card_id: str) -> bool:
    """A card that forces Belligerence is only worth it while the raised floor is safe."""
    if not _cards().info[card_id][3] or p.belligerence >= MAX_BELLIGERENCE:
        return True
    floor_after = level_after_belligerence(state, p)
    # the floor stays for the rest of the game and General Mobilization enters at 3
    top = max(floor_after, state.tension[p.nation][target_box(p)])
    margin = 1 if weeks_left(state) else 0
    return top + tension_added(p.score + card_value(state, p, card_id)) <= WAR_TENSION - 1 - margin and (
        not lets_mobilization_in(state, p)
    )


class CrisisKnowledge(Knowledge[CrisisState]):
    horizon = 40

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
        spare = _spare_order(state, p)
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
            keep = sorted(reorders, key=lambda r: _order_rank(state, p, r.order))[:3]
            out = [x for x in out if not isinstance(x, a.Reorder) or x in keep]
        return out

    @staticmethod
    def _worth_a_turn(state: CrisisState, p: Player, out: list[Any]) -> list[Any]:
        """Drop the turns a careful statesman never takes, so the search spends its
        iterations on real choices: a Pass below 14 DP while a safe card is there and no
        Tension die can fall; alone, paying Prestige to look at cards with nothing to fear."""
        safe = [x for x in out if isinstance(x, a.Play)]
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
        if isinstance(act, a.Play) and not _forced_ok(state, p, chosen):
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

    def terminal(self, state: CrisisState, outcome: Outcome) -> dict[str, float]:
        if state.solo:
            p = next(iter(state.players.values()))
            return {p.seat: solo_value(-20.0 if p.lost else float(p.prestige))}
        return super().terminal(state, outcome)


# -- the value of a position -----------------------------------------------------------------
# What the Weeks left bring, fitted to the playout statesman's own games (1,000 games at 1
# and 3 players: the Prestige gained from the end of each Week to the end of the game, by
# the Weeks left and the Target box's Tension, a loss counting as a fall to 0).
# a solitaire Week, and each point of Tension room (more per Week than the playout makes:
# a careful player does better, and a lower figure makes the search put off its Weeks)
SOLO_PER_WEEK, SOLO_PER_ROOM = 2.5, 1.5
PER_WEEK, PER_TENSION = 2.6, 0.6  # 2-5 players: a Week, less for Tension already spent
TEMPERATURE = 2.5  # Prestige of lead that makes a win about e times likelier


def _week_running(state: CrisisState) -> bool:
    return state.phase in ("first_draw", "play")


def tension_after_week(state: CrisisState, p: Player) -> int:
    """The Target box once this Week's Score Track Tension is in (as the marker stands)."""
    t = state.tension[p.nation][target_box(p)]
    return t + tension_added(p.score) if _week_running(state) else t


def future_prestige(state: CrisisState, p: Player) -> float:
    """What the Weeks after this one can still bring, with the Tension room left."""
    left = weeks_left(state)
    t = tension_after_week(state, p)
    if state.solo:
        room = max(0, WAR_TENSION - 1 - t)
        return SOLO_PER_WEEK * left + SOLO_PER_ROOM * min(room, left + 1)
    return max(0.0, PER_WEEK * left - PER_TENSION * t) if left else 0.0


def blind_mobilization(p: Player) -> float:
    """The chance a General Mobilization card in the Draw Pile costs the game before the end."""
    unknown = p.draw[p.known :] if p.draw else p.recycled
    if any(is_mobilization(c) for c in p.draw[: p.known][:1]):
        return 0.3
    return 0.15 if any(is_mobilization(c) for c in unknown) else 0.0


def week_award(state: CrisisState, p: Player) -> float:
    """This Week's Prestige as the Score Track stands (mid-Week: the placing so far)."""
    if not _week_running(state) or p.lost:
        return 0.0
    if state.solo:
        return float(_solo_award(p))
    active = state.active()
    order = [n for n in state.initiative() if state.players[n].lost is None]
    ranked = sorted(active, key=lambda q: (-q.highest, order.index(q.nation) if q.nation in order else 9))
    place = ranked.index(p)
    pts = 0.0
    if p.highest >= PRESTIGE_THRESHOLD:
        pts = 3 if place == 0 else (2 if place == 1 and len(state.players) >= 3 else 1)
        if order and order[0] == p.nation:
            pts += 1
    if p.belligerent_this_week:
        pts += 1 if place == 0 else -1
    if assertions(p) >= 4:
        pts *= 2
    return pts


def projected_prestige(state: CrisisState, p: Player) -> float:
    """Prestige the statesman can expect at the end; a lost game counts far below 0."""
    if p.lost or tension_after_week(state, p) >= WAR_TENSION:
        return -20.0
    if state.solo:
        base = p.prestige + week_award(state, p) + future_prestige(state, p)
    else:
        base = p.prestige + 0.8 * week_award(state, p) + future_prestige(state, p)
    risk = blind_mobilization(p) if weeks_left(state) or _week_running(state) else 0.0
    return (1 - risk) * base - risk * 20.0


def win_chances(projected: dict[str, float]) -> dict[str, float]:
    top = max(projected.values())
    weights = {s: math.exp((v - top) / TEMPERATURE) for s, v in projected.items()}
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items()}


def _solo_award(p: Player) -> int:
    if p.highest < PRESTIGE_THRESHOLD:
        return 0
    pts = 1 + max(0, p.highest - 18)
    return pts * 2 if assertions(p) >= 4 else pts


def solo_value(prestige: float) -> float:
    """The solitaire game's value: mostly whether the Victory tiers (30, 35, 40) are
    reached, a little for every Prestige point on the way."""
    tiers = sum(1.0 / (1.0 + math.exp(-(prestige - (t - 0.5)) / 2.0)) for t in (30, 35, 40)) / 3
    return 0.6 * tiers + 0.4 * max(0.0, min(prestige, 45.0)) / 45.0


# -- the fast statesman --------------------------------------------------------------------------
def _spare_order(state: CrisisState, p: Player) -> list[str]:
    """Hand cards from the least to the most useful to keep; a General Mobilization card is
    kept (in Hand it cannot be drawn blind), so it comes last."""
    return sorted(p.hand, key=lambda c: (is_mobilization(c), _keep_value(state, p, c), c))


def _keep_value(state: CrisisState, p: Player, card_id: str) -> float:
    info = _cards().info[card_id]
    v = card_value(state, p, card_id) + info[6]
    if state.solo and info[5] == "assertion":
        v += SOLO_KEEP_ASSERTION  # kept across Weeks for the doubled Week
    if info[3] and not _forced_ok(state, p, card_id):
        v -= 6
    return v


def _order_rank(state: CrisisState, p: Player, order: list[str]) -> tuple:
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
        return a.Refresh(discards=_spare_order(state, p)[:must])
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
        ok = [c for c in pool if _forced_ok(state, p, c)] or pool
        if solo_held(state, p):  # alone, a Deliberate while holding keeps its Assertions
            ok = [c for c in ok if _cards().info[c][5] != "assertion"] or ok
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
    return a.Discard(cards=_spare_order(state, p)[: pend.count])


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
        elif _cards().info[c][3] and not _forced_ok(state, p, c):
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
            or (_cards().info[top][3] and not _forced_ok(state, p, top))
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
    board = _cards().opposing[p.nation]
    return bool(p.hand) and not any(state.players[o].momentum for o in board if o in state.players)


def solo_held(state: CrisisState, p: Player) -> set[str]:
    """Alone, the Assertions a careful Berchtold keeps in Hand across Weeks until one Week
    can hold 4 of them (Prestige doubled): none once this Week can, or in the last Week."""
    if not state.solo or weeks_left(state) == 0:
        return set()
    held = {c for c in p.hand if _cards().info[c][5] == "assertion" and _forced_ok(state, p, c)}
    if not held or solo_doubling(state, p):
        return set()
    # with them the cards worth most in the doubled Week: 3+ DP, and the Back-Channel cards
    # (each one more DP on the higher marker, without Tension); one place left for a draw
    info = _cards().info
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
    held = sum(1 for c in p.hand if _cards().info[c][5] == "assertion" and _forced_ok(state, p, c))
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
    spare = [c for c in _spare_order(state, p) if c not in held]
    if held and spare and not p.deliberated and _can_look(state, p) and room >= 4:
        # alone and holding: 3 cards for 1 Prestige and a spare card gather the doubled Week
        return a.Deliberate(discard=spare[0])
    hand = [c for c in p.hand if not is_mobilization(c) and _forced_ok(state, p, c) and c not in held]
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
                doubling and _cards().info[c][5] == "assertion",
                card_value(state, p, c),
                _keep_value(state, p, c),
            ),
        )
        return a.Play(card=best, **_card_choices(state, p, best, room))
    if room < 0:
        return a.Pass()
    info = _cards().info
    for c in hand:
        if info[c][7] and card_value(state, p, c) <= 0:
            return a.Play(card=c, **_card_choices(state, p, c, room))
    if not (p.draw or p.recycled) or room < 1:
        return a.Pass()
    if p.known and p.draw:
        top = p.draw[0]
        if not is_mobilization(top) and _forced_ok(state, p, top) and card_value(state, p, top) <= room:
            return a.Draw()
    else:
        war, over = _blind_odds(state, p, room)
        low = p.highest < PRESTIGE_THRESHOLD
        if war == 0 and over <= (0.5 if low else 0.25):
            return a.Draw()
        if war <= 0.1 and low and over <= 0.5 and rng.random() < 0.5:
            return a.Draw()
    if _can_look(state, p) and not p.deliberated and room >= 2 and (not state.solo or room >= 4):
        return a.Deliberate(discard=_spare_order(state, p)[0])
    return a.Pass()


# -- the simple strategies the strong player must keep beating ---------------------------------
def _reckless(state: CrisisState, seat: str, rng: random.Random) -> Any:
    """Pushes DP as far as the track goes: every card, Belligerence whenever it may ('DP to
    32 at 0 Tension')."""
    p = state.player_of(seat)
    assert p is not None
    if state.pending and state.pending[0].nation == p.nation:
        pend = state.pending[0]
        if pend.kind in ("resolve", "choose"):
            pick = None if pend.kind == "resolve" else max(pend.cards, key=lambda c: card_value(state, p, c))
            chosen = pend.cards[0] if pick is None else pick
            bell = not card(chosen).forced_belligerence and p.belligerence < MAX_BELLIGERENCE
            return a.Resolve(card=pick, belligerence=bell and state.phase != "first_draw")
        return fast_action(state, seat, rng)
    if state.phase != "play":
        return fast_action(state, seat, rng)
    if len(p.tableau) >= limit(p):
        return a.Pass()
    playable = [c for c in p.hand if not is_mobilization(c)]
    if playable:
        best = max(playable, key=lambda c: card_value(state, p, c))
        bell = not card(best).forced_belligerence and p.belligerence < MAX_BELLIGERENCE
        return a.Play(card=best, belligerence=bell)
    return a.Draw() if p.draw or p.recycled else a.Pass()


def _cautious(state: CrisisState, seat: str, rng: random.Random) -> Any:
    """Never lets the Score Track add Tension: stops at 17 DP every Week."""
    p = state.player_of(seat)
    assert p is not None
    if state.phase == "play" and not state.pending and len(p.tableau) < limit(p):
        room = cap_for(0) - p.score
        fits = [c for c in p.hand if not is_mobilization(c) and 0 < card_value(state, p, c) <= room]
        if fits:
            return a.Play(card=max(fits, key=lambda c: card_value(state, p, c)))
        if room >= 4 and (p.draw or p.recycled) and not mobilization_unseen(p):
            return a.Draw()
        return a.Pass()
    if state.pending and state.pending[0].nation == p.nation and state.pending[0].kind == "resolve":
        return a.Resolve()
    return fast_action(state, seat, rng)


def _seizer(state: CrisisState, seat: str, rng: random.Random) -> Any:
    """Seizes the Initiative whenever it may (first on the Initiative Track is +1 Prestige);
    otherwise plays as the basic player."""
    from .bots import bot_action

    p = state.player_of(seat)
    assert p is not None
    if state.phase == "play" and not state.pending and not state.solo and len(p.hand) >= 3:
        top = next((n for n in state.current if n is not None), p.nation)
        if top != p.nation and p.highest >= state.players[top].highest and len(p.tableau) < limit(p):
            return a.Seize(discards=_spare_order(state, p)[:3])
    return bot_action(state, seat, rng)


def test_players() -> dict[str, Any]:
    return {"reckless": _reckless, "cautious": _cautious, "seizer": _seizer}

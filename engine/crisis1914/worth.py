"""What a card of Crisis: 1914 is worth to the strong statesman (strong.py) now: the DP it
adds, whether it forces Belligerence and what that costs, and how much Tension the Score
Track may add before war; read once per content in use (`card_table`)."""

from __future__ import annotations

from . import content as ct
from .cards import MAX_BELLIGERENCE
from .state import CrisisState, Player
from .weeks import LAST_WEEK, PRESTIGE_THRESHOLD, WAR_TENSION

# What the fast statesman reads of a card, by index: 0 DP, 1 DP by Week, 2 the DP counter,
# 3 forced Belligerence, 4 General Mobilization, 5 type, 6 its worth kept in Hand, 7 a Back
# Channel, draw or Tension reduction among its effects, 8 a Back Channel.
CardInfo = tuple[int, tuple[int, ...] | None, str | None, bool, bool, str, float, bool, bool]

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
        self.info: dict[str, CardInfo] = {}
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


def card_table() -> _Cards:
    global _cache
    content = ct.load_content()
    if _cache is None or _cache.content is not content:
        _cache = _Cards(content)
    return _cache


def tension_added(score: int) -> int:
    """The Score Track's "+" Tension at the lower marker's space."""
    track = card_table().track
    return track[min(max(score, 0), len(track) - 1)]


def cap_for(added: int) -> int:
    """The highest lower-marker space that adds at most `added` Tension."""
    caps = card_table().caps
    return caps[min(max(added, 0), len(caps) - 1)]


def is_mobilization(card_id: str) -> bool:
    return card_table().info[card_id][4]


def target_box(p: Player) -> str:
    return card_table().target[p.nation]


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
    dp, by_week, counter, forced = card_table().info[card_id][:4]
    if by_week is not None:
        dp = by_week[min(state.week, len(by_week)) - 1]
    elif counter is not None:
        dp = p.counters.get(counter, dp)
    if forced and p.belligerence < MAX_BELLIGERENCE:
        dp *= 2
    return dp


def forced_ok(state: CrisisState, p: Player, card_id: str) -> bool:
    """A card that forces Belligerence is only worth it while the raised floor is safe."""
    if not card_table().info[card_id][3] or p.belligerence >= MAX_BELLIGERENCE:
        return True
    floor_after = level_after_belligerence(state, p)
    # the floor stays for the rest of the game and General Mobilization enters at 3
    top = max(floor_after, state.tension[p.nation][target_box(p)])
    margin = 1 if weeks_left(state) else 0
    return top + tension_added(p.score + card_value(state, p, card_id)) <= WAR_TENSION - 1 - margin and (
        not lets_mobilization_in(state, p)
    )

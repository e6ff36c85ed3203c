"""Reading the board: who is where, Influence totals, and what a seat may legally do.

Shared by the rules, the bots and the commands' autocomplete, so the three agree.
"""

from __future__ import annotations

from engine.core import find_name, match_name

from .content import card, nations, tables
from .state import Delegate, SchonbrunnState


def nation_of(state: SchonbrunnState, seat: str) -> str:
    return state.players[seat].nation


# The names players commonly type for the Nations besides the rulebook's, by its name:
# England for Great Britain, Germany for Prussia (for a /game join preference, a Nation
# chosen in the Auction, a Plot, a tie broken).
NATION_NAMES: dict[str, tuple[str, ...]] = {
    "Great Britain": ("Britain", "England", "United Kingdom", "UK"),
    "Austria": ("Austrian Empire", "Austria-Hungary", "Habsburg Monarchy"),
    "Prussia": ("Germany", "Kingdom of Prussia"),
    "Russia": ("Russian Empire",),
    "France": ("Kingdom of France",),
    "Spain": ("España", "Kingdom of Spain"),
}


def nation_alternatives() -> dict[str, tuple[str, ...]]:
    """NATION_NAMES: what a seat's label (its Nation's name) may also be called."""
    return dict(NATION_NAMES)


def nation_candidates(codes: list[str]) -> list[tuple[str, ...]]:
    """The Nations `codes` for the name matcher (engine/core/names.py): each by its code,
    its name and its common names."""
    return [(n, nations()[n].name, *NATION_NAMES.get(nations()[n].name, ())) for n in codes]


def free_nation(state: SchonbrunnState, typed: str) -> str:
    """The Nation still free in the Auction that `typed` names (code, name or common name,
    as players type names); refused naming the free ones, or the candidates of an
    ambiguous name."""
    free = ", ".join(nations()[n].name for n in state.nations_left)
    return match_name(typed, nation_candidates(state.nations_left), unknown="", listed=f"Choose one of: {free}.")


def seat_of(state: SchonbrunnState, nation: str) -> str | None:
    """The seat holding the Nation named (code, name or common name, as players type names);
    None if no seat does. A name that could be several: IllegalAction naming them."""
    held = {player.nation: seat for seat, player in state.players.items() if player.nation}
    if nation in held:  # a code, as the automatic players and the buttons give it
        return held[nation]
    code = find_name(nation, nation_candidates(list(held)))
    return held[code] if code is not None else None


def name(state: SchonbrunnState, seat: str) -> str:
    """The seat's Nation; before the Auction has dealt one, the player's place at the table
    ("Player 2"), never the internal seat id."""
    nat = state.players[seat].nation
    return nations()[nat].name if nat else f"Player {state.seats.index(seat) + 1}"


def ally_bonus(state: SchonbrunnState, seat: str) -> int:
    return sum(state.players[seat].ally_markers)


def worth(state: SchonbrunnState, d: Delegate) -> int:
    """A Delegate's Influence: a printed 0 adds its owner's Ally markers (Phase 3, Phase 6)."""
    return d.value if d.value else ally_bonus(state, d.owner)


def delegates_at(state: SchonbrunnState, seat: str, place: str) -> list[Delegate]:
    return state.delegates_at(seat, place)


def supply(state: SchonbrunnState, seat: str) -> list[Delegate]:
    return delegates_at(state, seat, "supply")


def supply_values(state: SchonbrunnState, seat: str) -> list[int]:
    return sorted(d.value for d in supply(state, seat))


def spend_limit(state: SchonbrunnState, seat: str) -> int:
    """Receptions a seat may spend for Prestige in the Hierarchy: up to its Delegate's
    Influence, and no more than it holds."""
    p = state.players[seat]
    return min(p.committed or 0, p.receptions)


def minister_bonus(state: SchonbrunnState, seat: str) -> int:
    return tables().minister.bonus


def influence(state: SchonbrunnState, seat: str, objective: str) -> int:
    """The total of a delegation in an Objective: Delegates, Foreign Minister, markers, head."""
    player = state.players[seat]
    total = sum(worth(state, d) for d in delegates_at(state, seat, objective))
    if player.minister == objective:
        total += minister_bonus(state, seat)
    total += sum(m.value for m in state.markers if m.owner == seat and m.objective == objective)
    nation = nations()[player.nation]
    if player.head == objective and nation.head_power == "influence":
        total += nation.head_value
    return total


def board(state: SchonbrunnState) -> dict[str, tuple[dict[str, int], set[str]]]:
    """`influences` and `delegations` of every Objective, by Objective, in one pass over
    the Delegates: the Congress reads the whole board three times a round."""
    out: dict[str, tuple[dict[str, int], set[str]]] = {
        o: (dict.fromkeys(state.seats, 0), set()) for o in state.objectives
    }
    bonus = {seat: sum(p.ally_markers) for seat, p in state.players.items()}  # `worth` of a 0
    for d in state.delegates:
        here = out.get(d.place)
        if here is not None:
            here[0][d.owner] += d.value or bonus[d.owner]
            here[1].add(d.owner)
    for m in state.markers:
        if m.objective in out:
            out[m.objective][0][m.owner] += m.value
    for seat, player in state.players.items():
        if player.minister in out:
            out[player.minister][0][seat] += minister_bonus(state, seat)
        if player.head in out:
            nation = nations()[player.nation]
            if nation.head_power == "influence":
                out[player.head][0][seat] += nation.head_value
    return out


def head_at(state: SchonbrunnState, place: str) -> str | None:
    """The seat whose Delegation Head stands at an Objective or before a seat's screen."""
    for seat, player in state.players.items():
        if player.head == place:
            return seat
    return None


def in_reverse_hierarchy(state: SchonbrunnState) -> list[str]:
    return list(reversed(state.hierarchy))


def best(state: SchonbrunnState, totals: dict[str, int]) -> str:
    """The highest total; ties go to the first in reverse Hierarchy order (Phase 5)."""
    winner = None
    for seat in in_reverse_hierarchy(state):
        if seat in totals and (winner is None or totals[seat] > totals[winner]):
            winner = seat
    assert winner is not None
    return winner


def aids_held(state: SchonbrunnState, seat: str) -> list[str]:
    return [c for c in state.players[seat].screen if card(c).type == "aid"]


def unshown_aids(state: SchonbrunnState, seat: str) -> list[str]:
    player = state.players[seat]
    return [c for c in aids_held(state, seat) if c not in player.shown_aids]


def head_targets(state: SchonbrunnState, seat: str) -> list[str]:
    """Objectives and nations where this seat's Delegation Head may go now (Phase 2)."""
    player = state.players[seat]
    free_screen = nations()[player.nation].head_power == "free_screen"
    out: list[str] = []
    if player.receptions >= 1 or free_screen:
        taken = {p.head for p in state.players.values()}  # `head_at` of every place at once
        if player.receptions >= 1:
            out += [o for o in state.objectives if o not in taken]
        out += [state.players[s].nation for s in state.seats if s != seat and s not in taken]
    return out


def plot_targets(state: SchonbrunnState, seat: str) -> list[tuple[str, str, int]]:
    """(target seat, Objective, index) of every opposing face-down Delegate a Plot may reach,
    in seat order, then Objective order."""
    out: list[tuple[str, str, int]] = []
    for other in state.seats:
        if other != seat:
            counts = plottable(state, other)
            for objective in state.objectives:
                out += [(other, objective, i) for i in range(1, counts.get(objective, 0) + 1)]
    return out


def any_plot_target(state: SchonbrunnState, seat: str) -> bool:
    """Whether a Plot of this seat may reach any Delegate (`plot_targets` is not empty),
    without listing them: the rules ask it of every seat at the Plot."""
    return any(
        counts.get(objective)
        for other in state.seats
        if other != seat and (counts := plottable(state, other))
        for objective in state.objectives
    )


def plottable(state: SchonbrunnState, other: str) -> dict[str, int]:
    """How many of the seat's face-down Delegates a Plot may reach at each place; only the
    Objectives' counts are read (the rest are in the supply or committed): (other,
    Objective, i) is one of `plot_targets` for 1 <= i <= the Objective's count."""
    player = state.players[other]
    # Russia's Delegation Head protects its Delegates where it stands
    shielded = player.head if nations()[player.nation].head_power == "plot_shield" else None
    counts: dict[str, int] = {}
    for d in state.delegates_of(other):
        if not d.face_up and (place := d.place) != shielded:
            counts[place] = counts.get(place, 0) + 1
    return counts


def face_down_at(state: SchonbrunnState, seat: str, objective: str) -> list[Delegate]:
    return sorted((d for d in delegates_at(state, seat, objective) if not d.face_up), key=lambda d: d.order)


def move_destinations(state: SchonbrunnState, target: str, origin: str) -> list[str]:
    """Other Objectives where the target nation has assigned Delegates (Phase 4)."""
    return [o for o in objectives_with_delegates(state, target) if o != origin]


def face_up_of(state: SchonbrunnState, target: str) -> list[Delegate]:
    return sorted(
        (d for d in state.delegates_of(target) if d.face_up and d.place in state.objectives),
        key=lambda d: (state.objectives.index(d.place), d.value),
    )


def minister_objectives(state: SchonbrunnState, seat: str) -> list[str]:
    """Where the Foreign Minister may go: an Objective with a Delegate of the seat (Prussia: any)."""
    if nations()[state.players[seat].nation].ability == "free_minister":
        return list(state.objectives)
    return objectives_with_delegates(state, seat)


def objectives_with_delegates(state: SchonbrunnState, seat: str) -> list[str]:
    here = {d.place for d in state.delegates_of(seat)}
    return [o for o in state.objectives if o in here]


def activatable(state: SchonbrunnState, seat: str, timing: str) -> list[str]:
    """Signed Treaties of this timing not yet activated this round, if the seat can pay."""
    player = state.players[seat]
    if not player.signed:  # most seats, most of the time: asked at every Assignment
        return []
    signed = [t for t in player.signed if card(t).timing == timing and t not in player.activated]
    if signed and player.minister is not None and not unshown_aids(state, seat):
        return []  # read last: most seats have signed no such Treaty
    return signed


def hierarchy_order(state: SchonbrunnState, seats: list[str]) -> list[str]:
    """These seats in Hierarchy order."""
    return [s for s in state.hierarchy if s in seats]


def head_target_seat(state: SchonbrunnState, seat: str) -> str | None:
    """The seat whose screen this seat's Delegation Head faces, if any."""
    head = state.players[seat].head
    return head if head in state.players else None


def gain_prestige(state: SchonbrunnState, seat: str, what: str, points: int, dated: bool = True) -> None:
    """Add Prestige and remember where it came from ("Round 2: Receptions spent +3")."""
    if points:
        p = state.players[seat]
        label = f"Round {state.round}: {what}" if dated and state.round else what
        state.change(p, prestige=p.prestige + points, prestige_items=(*p.prestige_items, (label, points)))


def prestige_breakdown(state: SchonbrunnState, seat: str) -> str:
    """The Prestige item by item, adding up to the total."""
    p = state.players[seat]
    items = [f"{what} {n:+d}" for what, n in p.prestige_items]
    unlisted = p.prestige - sum(n for _, n in p.prestige_items)
    if unlisted:  # a game saved before the items were kept
        items.insert(0, f"earlier, not itemised {unlisted:+d}")
    return "; ".join(items) or "no Prestige"

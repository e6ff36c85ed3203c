"""Every legal decision of the seat that owes one, listed (docs/architecture.md §2).

The turn buttons, the automatic players' search and the random-play harness read this
list, so it holds each distinct choice once and nothing the rules would refuse
(tests/schonbrunn/test_legal_actions.py plays every entry and compares the bots' choices).
Delegates of equal Influence are one choice: which of two 2s goes is no decision.

Where a decision is combinatorial, it is listed whole, one action per combination:

- `tiebreak`: every order of the first tied group (at most 6! orders, in practice 2 or 6);
- `sign`: every subset of the unsigned Treaties behind the screen, in screen order;
- `keep`: every set of signed Treaties with every set of as many Aids to discard;
- `activate`: each way to pay (an Aid not yet revealed this round, or the Foreign
  Minister), times each Objective for a marker, times each multiset of opposing
  delegations for the '-1' markers (their order does not matter, so targets are sorted).

Actions are built with `engine.core.built`, without validation: the values come from the
state, so pydantic's validation would only check what this module already knows. Those
whose fields are all single values are made once and listed again (`_listed`): actions
are frozen, and hundreds are listed in every round.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any

from engine.core import built
from engine.core.words import counted

from . import actions as A
from .content import card, nations
from .pieces import (
    activatable,
    aids_held,
    face_up_of,
    head_targets,
    minister_objectives,
    move_destinations,
    name,
    objectives_with_delegates,
    plottable,
    seat_of,
    spend_limit,
    supply_values,
    unshown_aids,
)
from .state import SchonbrunnState

MAX_PLOT = 4  # Phase 3: a Plot costs 1 to 4 Receptions


def legal_actions(state: SchonbrunnState, seat: str) -> list[Any]:
    """The seat's legal actions now; [] when it owes nothing."""
    stage, queue = state.stage, state.queue
    if stage in ("bid", "commit"):
        if seat not in queue:
            return []
    elif not queue or queue[0] != seat:
        return []
    if stage == "assign":  # first: half of all decisions
        return _assign(state, seat)
    p = state.players[seat]
    match stage:
        case "bid":
            return [_listed(A.Bid, r) for r in range(1, p.receptions + 1)]
        case "choose":
            return [_listed(A.Choose, n) for n in state.nations_left]
        case "commit":
            return [_listed(A.Commit, v) for v in _distinct(supply_values(state, seat))]
        case "tiebreak":
            group = next(g for g in state.tie_groups if len(g) > 1)
            return list(_tiebreaks(tuple(state.players[s].nation for s in group)))
        case "sign":
            return list(_signs(tuple(c for c in p.screen if card(c).type == "treaty")))
        case "receptions":
            return [_listed(A.Spend, r) for r in range(spend_limit(state, seat) + 1)]
        case "favour":
            return [
                _listed(A.Favour, o) for o in state.objectives if o not in state.favours_up
            ]
        case "plot":
            return [_listed(A.Pass), *_plots(state, seat)]
        case "move":
            return _moves(state, seat)
        case "minister":
            return [_listed(A.Minister, None)] + [
                _listed(A.Minister, o) for o in minister_objectives(state, seat)
            ]
        case "activate":
            return [_listed(A.Pass), *_activations(state, seat, state.treaty_queue[0], "congress")]
        case "keep":
            return _keeps(state, seat)
    return []


@cache
def _listed(cls: type[A.Action], *values: Any) -> Any:
    """The one `cls` action with these values of its fields after `kind`, in field order."""
    names = [n for n in cls.model_fields if n != "kind"]
    return built(cls, **dict(zip(names, values, strict=True)))


def _distinct(values: list[int]) -> list[int]:
    return sorted(set(values))


# A Hierarchy tie's orders and a screen's signings are made once for their nations or
# Treaties and listed again, like `_listed`'s actions: the actions are frozen, and the rules
# never change the lists they hold.


@cache
def _tiebreaks(nations: tuple[str, ...]) -> tuple[A.TieBreak, ...]:
    return tuple(built(A.TieBreak, order=list(order)) for order in permutations(nations))


@cache
def _signs(treaties: tuple[str, ...]) -> tuple[A.Sign, ...]:
    return tuple(built(A.Sign, treaties=list(chosen)) for chosen in _subsets(list(treaties)))


def _subsets(items: list[str]) -> list[tuple[str, ...]]:
    return [chosen for k in range(len(items) + 1) for chosen in combinations(items, k)]


def _assign(state: SchonbrunnState, seat: str) -> list[Any]:
    # Treaties of the Assignments are activated on the seat's own turn, at any step of it.
    out: list[Any] = []
    for treaty in activatable(state, seat, "assignments"):
        out += _activations(state, seat, treaty, "assignments")
    if state.assign_step == "head":
        heads = [_listed(A.Head, None)]
        return heads + [_listed(A.Head, t) for t in head_targets(state, seat)] + out
    return [*_assigns(state.supply_values(seat), tuple(state.objectives)), *out]


@cache
def _assigns(values: tuple[int, ...], objectives: tuple[str, ...]) -> tuple[Any, ...]:
    """Every Assign of these Influences to these Objectives, made once: half a game's
    decisions are Assignments, and a seat's supply takes few shapes."""
    return tuple(_listed(A.Assign, v, o) for v in values for o in objectives)


def _plots(state: SchonbrunnState, seat: str) -> list[A.Plot]:
    """Every Plot, in the order of `plot_targets` (seat, Objective, index), then by cost."""
    most = min(MAX_PLOT, state.players[seat].receptions)
    out: list[A.Plot] = []
    for other in state.seats:
        if other != seat:
            counts = plottable(state, other)
            nation = state.players[other].nation
            for o in state.objectives:
                if counts.get(o):
                    out += _plots_at(nation, o, counts[o], most)
    return out


@cache
def _plots_at(nation: str, objective: str, count: int, most: int) -> tuple[A.Plot, ...]:
    """The Plots against `count` face-down Delegates of a nation in an Objective, made once."""
    return tuple(
        _listed(A.Plot, nation, objective, r, i) for i in range(1, count + 1) for r in range(1, most + 1)
    )


def _moves(state: SchonbrunnState, seat: str) -> list[A.Move]:
    target = state.players[seat].head
    if target not in state.players:
        return []
    out: list[A.Move] = []
    seen: set[tuple[str, int]] = set()
    for d in face_up_of(state, target):
        if (d.place, d.value) in seen:
            continue
        seen.add((d.place, d.value))
        dests = move_destinations(state, target, d.place)
        out += [_listed(A.Move, d.place, d.value, t) for t in dests] or [
            _listed(A.Move, d.place, d.value, None)
        ]
    return out


def _activations(state: SchonbrunnState, seat: str, treaty: str, timing: str) -> list[A.Activate]:
    p = state.players[seat]
    if treaty not in p.signed or treaty in p.activated or card(treaty).timing != timing:
        return []
    c = card(treaty)
    pays = unshown_aids(state, seat) + (["minister"] if p.minister is None else [])
    objectives: list[str | None] = [None]
    if c.marker:
        objectives = list(
            state.objectives if timing == "assignments" else objectives_with_delegates(state, seat)
        )
    spreads: list[list[A.Target]] = [[]]
    if c.minus:
        present = {(d.owner, d.place) for d in state.delegates}  # one pass, not one per place
        rivals = [
            built(A.Target, nation=state.players[s].nation, objective=o)
            for s in state.seats
            if s != seat
            for o in state.objectives
            if (s, o) in present
        ]
        if rivals:
            spreads = [list(spread) for spread in combinations_with_replacement(rivals, c.minus)]
    return [
        built(A.Activate, treaty=treaty, pay=pay, objective=o, targets=targets)
        for pay in pays
        for o in objectives
        for targets in spreads
    ]


def _keeps(state: SchonbrunnState, seat: str) -> list[A.Keep]:
    signed = state.players[seat].signed
    aids = aids_held(state, seat)
    out: list[A.Keep] = []
    for k in range(min(len(signed), len(aids)) + 1):
        for treaties in combinations(signed, k):
            for discarded in combinations(aids, k):
                out.append(built(A.Keep, treaties=list(treaties), aids=list(discarded)))
    return out


def label(state: SchonbrunnState, seat: str, action: Any) -> str:
    """A turn button's words for one of `legal_actions`, in the game's terms."""

    def nation(n: str) -> str:
        other = seat_of(state, n)
        return name(state, other) if other else n

    match action:
        case A.Bid():
            return f"Bid {action.receptions} Reception{'s' * (action.receptions != 1)}"
        case A.Choose():
            return f"Take {_nation_name(action.nation)}"
        case A.Commit():
            return f"Commit your {action.delegate}"
        case A.TieBreak():
            return " ahead of ".join(nation(n) for n in action.order)
        case A.Sign():
            return "Sign " + (_and([card(t).name for t in action.treaties]) or "no Treaty")
        case A.Spend():
            return f"Spend {counted(action.receptions, 'Reception')} for {action.receptions} Prestige"
        case A.Favour():
            return f"Reveal the Political Favour of Objective {action.objective}"
        case A.Assign():
            face = "face up" if state.assign_step in ("up", "last") else "face down"
            return f"Assign your {action.delegate} {face} to Objective {action.objective}"
        case A.Head() if action.target is None:
            return "Keep your Delegation Head"
        case A.Head() if action.target in state.objectives:
            return f"Delegation Head to Objective {action.target} (1 Reception)"
        case A.Head():
            return f"Delegation Head before {nation(action.target or '')}'s screen"
        case A.Plot():
            return (
                f"Plot against {nation(action.nation)}'s face-down Delegate {action.index} in "
                f"Objective {action.objective}, {counted(action.receptions, 'Reception')}"
            )
        case A.Move() if action.to is None:
            return f"Remove the {action.delegate} from Objective {action.objective}"
        case A.Move():
            return f"Move the {action.delegate} from Objective {action.objective} to {action.to}"
        case A.Minister() if action.objective is None:
            return "Keep your Foreign Minister"
        case A.Minister():
            return f"Foreign Minister to Objective {action.objective}"
        case A.Activate():
            paid = "the Foreign Minister" if action.pay == "minister" else f"the Aid {card(action.pay).name}"
            parts = [f"Activate {card(action.treaty).name} with {paid}"]
            if action.objective:
                parts.append(f"marker in {action.objective}")
            if action.targets:
                parts.append(
                    "-1 on " + _and([f"{nation(t.nation)} in {t.objective}" for t in action.targets])
                )
            return ", ".join(parts)
        case A.Pass():
            return "Pass"
        case A.Keep():
            if not action.treaties:
                return "Keep no Treaty"
            kept = _and([card(t).name for t in action.treaties])
            return f"Keep {kept}, discarding {_and([card(a).name for a in action.aids])}"
    return str(getattr(action, "kind", "act")).capitalize()


def group(state: SchonbrunnState, seat: str, action: Any) -> str:
    """A choice's group in long menus: a Treaty's activation by Treaty and payment, a Plot
    by the Delegate it targets, an Assignment by Delegate; "" for the label's first word."""
    match action:
        case A.Activate() | A.Plot():
            return label(state, seat, action).split(",", 1)[0]
        case A.Assign():
            return f"Assign your {action.delegate}"
        case A.Move():
            return f"Move the {action.delegate}" if action.to is not None else "Remove"
        case A.Head():
            return "Delegation Head" if action.target is not None else "Keep"
        case A.Minister():
            return "Foreign Minister" if action.objective is not None else "Keep"
        case A.TieBreak():  # by who is placed first: 24 orders each among five
            return "Place " + label(state, seat, action).split(" ahead of ", 1)[0] + " first"
    return ""


def _nation_name(nation: str) -> str:
    return nations()[nation].name


def _and(words: list[str]) -> str:
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]

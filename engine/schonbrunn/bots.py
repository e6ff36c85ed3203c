"""Automatic players: the deadline defaults and the basic bot (fuzzing, the first balance
runs, and the strength ladder's yardstick: the ladder compares the strong player of
`strong.py` against it, so it stays as it is). The all-in exploits built on it, which the
strong player must keep beating, are in exploits.py.

The bot sees only what its seat may see (face-down opposing pieces are estimated).
"""

from __future__ import annotations

import random
from typing import Any

from . import actions as A
from .content import card, nations
from .phases.hierarchy import tie_resolver
from .pieces import (
    activatable,
    aids_held,
    delegates_at,
    face_up_of,
    head_targets,
    minister_bonus,
    minister_objectives,
    move_destinations,
    objectives_with_delegates,
    plot_targets,
    spend_limit,
    supply_values,
    unshown_aids,
)
from .state import SchonbrunnState

GUESS = 2  # what an unseen opposing Delegate is assumed to be worth


def default_action(state: SchonbrunnState, seat: str) -> Any:
    """What a deadline does: the most passive legal choice."""
    p = state.players[seat]
    match state.stage:
        case "bid":
            return A.Bid(receptions=1)
        case "choose":
            return A.Choose(nation=state.nations_left[0])
        case "commit":
            return A.Commit(delegate=supply_values(state, seat)[0])
        case "tiebreak":
            group = next(g for g in state.tie_groups if len(g) > 1)
            return A.TieBreak(order=[state.players[s].nation for s in group])
        case "sign":
            return A.Sign()
        case "receptions":
            return A.Spend(receptions=0)
        case "favour":
            return A.Favour(objective=next(o for o in state.objectives if o not in state.favours_up))
        case "assign":
            if state.assign_step == "head":
                return A.Head()
            return A.Assign(delegate=supply_values(state, seat)[0], objective=_weakest_own(state, seat))
        case "plot" | "activate":
            return A.Pass()
        case "move":
            return _moves(state, seat)[0]
        case "minister":
            return A.Minister()
        case "keep":
            return A.Keep()
    raise AssertionError(f"no default for {state.stage} ({p.nation})")


def _weakest_own(state: SchonbrunnState, seat: str) -> str:
    """The first Objective where the seat already is (or the first), for the default."""
    mine = objectives_with_delegates(state, seat)
    return mine[0] if mine else state.objectives[0]


def _moves(state: SchonbrunnState, seat: str) -> list[A.Move]:
    target = state.players[seat].head
    assert target is not None
    out = []
    for d in face_up_of(state, target):
        dests = move_destinations(state, target, d.place)
        out += [A.Move(objective=d.place, delegate=d.value, to=t) for t in dests] or [
            A.Move(objective=d.place, delegate=d.value, to=None)
        ]
    return out


def prize(state: SchonbrunnState, objective: str) -> float:
    """A rough Prestige worth of an Objective's Reparation this round."""
    pile = state.piles[objective]
    if not pile:
        return 0.0
    c = card(pile[0])
    base = {"indemnity": c.prestige + 1.5, "ally": 4.0, "aid": 4.5, "treaty": 3.0}[c.type]
    late = state.round == state.rounds
    if late and c.type in ("ally", "treaty") and not c.end and not c.wild_aid:
        base = 1.0  # an Ally marker or a Treaty is worth little in the last round
    return base + (state.favours.get(objective, 0) if objective in state.favours_up else 1.0) * 0.5


def estimates(state: SchonbrunnState, viewer: str) -> dict[tuple[str, str], float]:
    """Influence of every delegation as `viewer` may guess it, in one pass over the board."""
    allies = {s: sum(p.ally_markers) for s, p in state.players.items()}
    out: dict[tuple[str, str], float] = {}
    for d in state.delegates:
        if d.place in ("supply", "committed"):
            continue
        if d.face_up or d.owner == viewer:
            value = d.value or allies[d.owner]
        else:
            value = GUESS
        out[d.owner, d.place] = out.get((d.owner, d.place), 0.0) + value
    for s, p in state.players.items():
        if p.minister in state.objectives:
            out[s, p.minister] = out.get((s, p.minister), 0.0) + minister_bonus(state, s)
    for m in state.markers:
        out[m.owner, m.objective] = out.get((m.owner, m.objective), 0.0) + m.value
    return out


def rival_best(state: SchonbrunnState, est: dict[tuple[str, str], float], seat: str, objective: str) -> float:
    return max((est.get((s, objective), 0.0) for s in state.seats if s != seat), default=0.0)


def bot_action(state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
    p = state.players[seat]
    match state.stage:
        case "bid":
            return A.Bid(receptions=rng.randint(1, max(1, min(3, p.receptions))))
        case "choose":
            return A.Choose(nation=rng.choice(state.nations_left))
        case "commit":
            values = supply_values(state, seat)
            pick = rng.choice(values[:3]) if rng.random() < 0.7 else rng.choice(values[:-1] or values)
            return A.Commit(delegate=pick)
        case "tiebreak":
            group = list(next(g for g in state.tie_groups if len(g) > 1))
            rng.shuffle(group)
            if tie_resolver(state, group) in group:  # a resolver in the tie takes the last place
                group.remove(seat)
                group.append(seat)
            return A.TieBreak(order=[state.players[s].nation for s in group])
        case "sign":
            usable = [t for t in p.screen if card(t).type == "treaty" and card(t).timing != "end"]
            return A.Sign(treaties=usable[: max(1, len(aids_held(state, seat)))])
        case "receptions":
            cap = spend_limit(state, seat)
            keep = 0 if state.round == state.rounds else 2
            return A.Spend(receptions=max(0, min(cap, p.receptions - keep)))
        case "favour":
            hidden = [o for o in state.objectives if o not in state.favours_up]
            return A.Favour(objective=rng.choice(hidden))
        case "assign":
            return _assign(state, seat, rng)
        case "plot":
            return _plot(state, seat, rng)
        case "move":
            moves = _moves(state, seat)
            # send the opponent's strongest face-up piece where it helps them least
            return max(moves, key=lambda m: (m.delegate, rng.random()))
        case "minister":
            return _minister(state, seat)
        case "activate":
            return treaty_choice(state, seat, state.treaty_queue[0])
        case "keep":
            aids = aids_held(state, seat)
            n = min(len(p.signed), max(0, len(aids) - 1)) if state.round < state.rounds - 1 else 0
            return A.Keep(treaties=list(p.signed[:n]), aids=aids[:n])
    raise AssertionError(state.stage)


def _assign(state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
    p = state.players[seat]
    if state.assign_step == "head":
        for t in activatable(state, seat, "assignments"):
            if unshown_aids(state, seat):
                return treaty_choice(state, seat, t)
        est = estimates(state, seat)
        targets = head_targets(state, seat)
        objectives = [t for t in targets if t in state.objectives]
        screens = [t for t in targets if t not in state.objectives]
        free = nations()[p.nation].head_power == "free_screen"
        if screens and free and rng.random() < 0.3:
            return A.Head(target=rng.choice(screens))
        if objectives and p.receptions >= 2 and rng.random() < 0.5:
            return A.Head(target=max(objectives, key=lambda o: (est.get((seat, o), 0.0), rng.random())))
        return A.Head()
    values = supply_values(state, seat)
    if state.assign_step == "down":
        delegate = rng.choice(values[-2:])  # strong pieces hidden
    elif state.assign_step == "up":
        delegate = rng.choice(values[: max(1, len(values) - 1)])
    else:
        delegate = values[-1]
    weights = []
    est = estimates(state, seat)
    for o in state.objectives:
        mine = est.get((seat, o), 0.0)
        rival = rival_best(state, est, seat, o)
        w = prize(state, o) + (3.0 if mine > 0 else 0.0) - max(0.0, rival - mine) * 0.3
        weights.append(max(0.3, w))
    objective = rng.choices(state.objectives, weights=weights)[0]
    return A.Assign(delegate=delegate, objective=objective)


def _plot(state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
    p = state.players[seat]
    targets = plot_targets(state, seat)
    if p.receptions < 2 or rng.random() > 0.45:
        return A.Pass()
    # aim at the Objective worth most
    target = max(targets, key=lambda t: (prize(state, t[1]), rng.random()))
    spend = min(p.receptions, 2 if rng.random() < 0.6 else 3)
    return A.Plot(
        nation=state.players[target[0]].nation, objective=target[1], index=target[2], receptions=spend
    )


def _minister(state: SchonbrunnState, seat: str) -> Any:
    options = minister_objectives(state, seat)
    bonus = minister_bonus(state, seat)
    est = estimates(state, seat)

    def margin(o: str) -> tuple[float, float]:
        mine = est.get((seat, o), 0.0) + bonus
        rival = rival_best(state, est, seat, o)
        m = mine - rival
        return (1.0 if m >= 0 else 0.0, prize(state, o) if m >= 0 else m)

    return A.Minister(objective=max(options, key=margin))


def treaty_choice(state: SchonbrunnState, seat: str, treaty: str) -> Any:
    """The basic player's Treaty activation: paid with an Aid (or the Foreign Minister kept
    back), its marker where the Reparation is worth most, its '-1' markers on the strongest
    rivals as the seat estimates them."""
    c = card(treaty)
    aids = unshown_aids(state, seat)
    if aids:
        pay = aids[0]
    elif state.players[seat].minister is None:
        pay = "minister"
    else:
        return A.Pass()
    objective = None
    est = estimates(state, seat)
    if c.marker:
        mine = objectives_with_delegates(state, seat) if c.timing == "congress" else state.objectives
        if not mine:
            return A.Pass()
        objective = max(mine, key=lambda o: (prize(state, o), est.get((seat, o), 0.0)))
    targets = []
    if c.minus:
        rivals = [
            (s, o) for s in state.seats if s != seat for o in state.objectives if delegates_at(state, s, o)
        ]
        rivals.sort(key=lambda t: -est.get(t, 0.0))
        if rivals:
            targets = [
                A.Target(nation=state.players[s].nation, objective=o) for s, o in (rivals * 3)[: c.minus]
            ]
    return A.Activate(treaty=treaty, pay=pay, objective=objective, targets=targets)

"""The strong player's quick choices in Schönbrunn (strong.py): `heuristic`, one rule for
every decision from what the seat may see, which the search plays below its tree and takes
where it prunes a decision to one candidate; and `options`, the few choices worth the
search's thought at a decision of Assignments, Plot, Movement or Chancellery (three Delegate
values for each Objective, a Plot at the delegations that matter).

The rules that weigh the board (a Delegate, the Delegation Head, a Plot, the Foreign
Minister, a Congress Treaty's markers) ask a sketch of the round (foresight.py).
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import built

from . import actions as A
from .content import card
from .foresight import Foresight
from .phases.hierarchy import tie_resolver
from .pieces import (
    activatable,
    aids_held,
    face_up_of,
    head_targets,
    minister_objectives,
    move_destinations,
    objectives_with_delegates,
    plot_targets,
    spend_limit,
    supply_values,
    unshown_aids,
)
from .state import SchonbrunnState
from .worth import SYMBOL, aid_worth, treaty_worth

__all__ = ["heuristic", "options", "spend_choice"]


def heuristic(state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
    """A quick choice for every decision, from what the seat may see: the search's choice
    where it prunes a decision to one candidate, and a player of its own."""
    p = state.players[seat]
    stage = state.stage
    if stage == "bid":
        return built(A.Bid, receptions=min(2, p.receptions))
    if stage == "choose":
        return built(A.Choose, nation=state.nations_left[0])
    if stage == "commit":
        values = sorted(set(supply_values(state, seat)))
        return built(A.Commit, delegate=values[min(1, len(values) - 1)])
    if stage == "tiebreak":
        return _tiebreak(state, seat)
    if stage == "sign":
        return _sign(state, seat)
    if stage == "receptions":
        return built(A.Spend, receptions=spend_choice(state, seat))
    if stage == "favour":
        return built(A.Favour, objective=next(o for o in state.objectives if o not in state.favours_up))
    if stage == "activate":
        return _activate(state, seat)
    if stage == "keep":
        return _keep(state, seat)
    if stage == "move":
        return _moves(state, seat)[0]
    return _sketched(state, seat, rng)


def _sketched(state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
    """Assignments, the Delegation Head, a Plot, the Foreign Minister: the sketch's rule."""
    choices = options(state, seat)
    if len(choices) == 1 or isinstance(choices[0], A.Activate):
        return choices[0]
    sk = Foresight(state, rng)
    i = sk.idx[seat]
    if state.stage == "plot":
        choice = sk.choose_plot(i)
        if choice is None:
            return built(A.Pass)
        o, j, spend = choice
        return built(A.Plot, nation=state.players[sk.seats[o]].nation, objective=sk.objs[j], receptions=spend, index=1)
    if state.stage == "minister":
        j = sk.choose_minister(i)
        return built(A.Minister, objective=sk.objs[j] if j >= 0 else None)
    if state.assign_step == "head":
        j = sk.choose_head(i)
        return built(A.Head, target=sk.objs[j] if j >= 0 else None)
    later = any(sk.pos[o] > sk.pos[i] for o in range(sk.n))
    step = "up" if state.assign_step == "up" else "down"
    v, j = sk.place(i, step, later)
    return built(A.Assign, delegate=v, objective=sk.objs[j])


def _tiebreak(state: SchonbrunnState, seat: str) -> A.TieBreak:
    """The later place is the better (it acts later and wins Congress ties): the breaker
    takes it if it is in the tie, and gives the earliest to the highest Prestige."""
    group = list(next(g for g in state.tie_groups if len(g) > 1))
    group.sort(key=lambda s: (-state.players[s].prestige, state.seats.index(s)))
    if seat in group and tie_resolver(state, group) == seat:
        group.remove(seat)
        group.append(seat)
    return built(A.TieBreak, order=[state.players[s].nation for s in group])


def _sign(state: SchonbrunnState, seat: str) -> A.Sign:
    """Sign the Treaties the Aids can pay for this round; the best first."""
    p = state.players[seat]
    usable = [t for t in p.screen if card(t).type == "treaty" and card(t).timing in ("assignments", "congress")]
    usable.sort(key=lambda t: (-treaty_worth(t), t))
    room = len(aids_held(state, seat)) - len(p.signed)
    chosen = set(usable[: max(0, room)])
    return built(A.Sign, treaties=[t for t in p.screen if t in chosen])


def spend_choice(state: SchonbrunnState, seat: str) -> int:
    """All but one Reception kept for a Delegation Head (all in the last round when the
    Head has no Objective to pay for)."""
    cap = spend_limit(state, seat)
    return max(0, min(cap, state.players[seat].receptions - 1))


def _keep(state: SchonbrunnState, seat: str) -> A.Keep:
    """Keep a Treaty for an Aid only while its effect is worth more than the Aid's points."""
    p = state.players[seat]
    if state.round >= state.rounds:
        return built(A.Keep)
    aids = aids_held(state, seat)
    treaties = sorted(p.signed, key=lambda t: (-treaty_worth(t), t))
    kept, paid = [], []
    for t in treaties:
        if not aids:
            break
        held = [x for x in [*p.screen, *p.signed] if x not in paid]
        loss = []
        for a in aids:
            counts = [0, 0, 0]
            for x in held:
                if x != a and card(x).type == "aid":
                    counts[SYMBOL[card(x).symbol]] += 1
            loss.append((aid_worth(counts, 0, 1), a))
        keep_value = max(loss)  # the Aid whose loss leaves the most
        full = [0, 0, 0]
        for x in held:
            if card(x).type == "aid":
                full[SYMBOL[card(x).symbol]] += 1
        cost = aid_worth(full, 0, 1) - keep_value[0]
        if 0.7 * treaty_worth(t) > cost + 0.5:
            kept.append(t)
            paid.append(keep_value[1])
            aids.remove(keep_value[1])
    return built(A.Keep, treaties=kept, aids=paid)


def _activate(state: SchonbrunnState, seat: str) -> Any:
    """A Congress Treaty: free to activate with an Aid (or a Foreign Minister kept back);
    its marker where it tips an Objective, its '-1' markers on the closest rivals."""
    treaty = state.treaty_queue[0]
    c = card(treaty)
    p = state.players[seat]
    aids = unshown_aids(state, seat)
    if aids:
        pay = sorted(aids)[0]
    elif p.minister is None:
        pay = "minister"
    else:
        return built(A.Pass)
    sk = Foresight(state, random.Random(0))
    i = sk.idx[seat]
    objective = None
    if c.marker:
        places = [j for j in range(sk.k) if sk.present(i, j)]
        if not places:
            return built(A.Pass)
        objective = sk.objs[sk.tip(i, places, c.marker)]
    targets = []
    if c.minus:
        chosen = sorted(sk.minus(i, c.minus))
        targets = [built(A.Target, nation=state.players[sk.seats[o]].nation, objective=sk.objs[j]) for o, j in chosen]
    return built(A.Activate, treaty=treaty, pay=pay, objective=objective, targets=targets)


def _moves(state: SchonbrunnState, seat: str) -> list[A.Move]:
    target = state.players[seat].head
    out = []
    for d in face_up_of(state, target or ""):
        dests = move_destinations(state, target or "", d.place)
        out += [built(A.Move, objective=d.place, delegate=d.value, to=t) for t in dests] or [
            built(A.Move, objective=d.place, delegate=d.value, to=None)
        ]
    # the opponent's strongest piece first
    out.sort(key=lambda m: -m.delegate)
    return out


# ---------------------------------------------------------------------------- the candidates


def options(state: SchonbrunnState, seat: str) -> list[Any]:
    """The choices worth the search's thought at a decision of Assignments, Plot or
    Chancellery (the others take one rule, `heuristic`)."""
    p = state.players[seat]
    stage = state.stage
    if stage == "assign":
        if state.assign_step == "head":
            for t in activatable(state, seat, "assignments"):
                if not card(t).marker and unshown_aids(state, seat):
                    return [_pay(state, seat, t, None)]
            return _heads(state, seat)
        values = sorted(set(supply_values(state, seat)))
        if state.assign_step == "last":
            for t in activatable(state, seat, "assignments"):
                if unshown_aids(state, seat):
                    if card(t).marker:
                        return [_pay(state, seat, t, o) for o in state.objectives]
                    return [_pay(state, seat, t, None)]
        if len(values) > 3:
            values = [values[0], values[len(values) // 2], values[-1]]
        return [built(A.Assign, delegate=v, objective=o) for v in values for o in state.objectives]
    if stage == "plot":
        return [built(A.Pass), *_plots(state, seat)]
    if stage == "minister":
        return [built(A.Minister, objective=None)] + [
            built(A.Minister, objective=o) for o in minister_objectives(state, seat)
        ]
    if stage == "move":
        return _moves(state, seat)[:6]
    raise AssertionError(stage, p.nation)


def _pay(state: SchonbrunnState, seat: str, treaty: str, objective: str | None) -> A.Activate:
    return built(A.Activate, treaty=treaty, pay=sorted(unshown_aids(state, seat))[0], objective=objective, targets=[])


def _heads(state: SchonbrunnState, seat: str) -> list[A.Head]:
    targets = head_targets(state, seat)
    mine = set(objectives_with_delegates(state, seat))
    out = [built(A.Head, target=None)]
    out += [built(A.Head, target=t) for t in targets if t in state.objectives and t in mine]
    # before a screen: the two rivals with the most Prestige, and whoever shows the strongest piece
    screens = [t for t in targets if t not in state.objectives]
    by_nation = {state.players[s].nation: s for s in state.seats}

    def threat(n: str) -> tuple[int, int]:
        s = by_nation[n]
        shown = [d.value for d in face_up_of(state, s)]
        return (state.players[s].prestige + max(shown, default=0), -state.seats.index(s))

    out += [built(A.Head, target=t) for t in sorted(screens, key=threat, reverse=True)[:2]]
    return out


def _plots(state: SchonbrunnState, seat: str) -> list[A.Plot]:
    """Plots against the leading rival delegations of Objectives where the seat stands or
    which hold more than it: 2, 3 or 4 Receptions (the reach of 3, 5 and 7)."""
    p = state.players[seat]
    most = min(4, p.receptions)
    amounts = [r for r in (2, 3, 4) if r <= most] or [most]
    mine = set(objectives_with_delegates(state, seat))
    seen: set[tuple[str, str]] = set()
    out = []
    for other, objective, index in plot_targets(state, seat):
        if objective not in mine or (other, objective) in seen:
            continue
        seen.add((other, objective))
        nation = state.players[other].nation
        out += [built(A.Plot, nation=nation, objective=objective, receptions=r, index=index) for r in amounts]
    return out

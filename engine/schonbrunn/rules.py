"""The rules of Schönbrunn: setup, the six phases of a round, and the end of the game.

`play` checks an action against the current stage and carries it out; `advance` then
moves the game on, skipping seats that have no decision to make, until someone owes one.
"""

from __future__ import annotations

import itertools
import random

from engine.core import Event, IllegalAction, rng_for

from . import actions as A
from .content import (
    OBJECTIVES,
    SYMBOLS,
    card,
    cards,
    nations,
    nations_in_play,
    plot_reach,
    rounds_for,
    tables,
)
from .pieces import (
    activatable,
    aids_held,
    best,
    delegates_at,
    face_down_at,
    face_up_of,
    head_at,
    head_targets,
    influence,
    minister_objectives,
    move_destinations,
    name,
    objectives_with_delegates,
    plot_targets,
    seat_of,
    spend_limit,
    supply,
    unshown_aids,
    worth,
)
from .state import Delegate, Marker, Player, SchonbrunnState

# --------------------------------------------------------------------------- setup


def setup(
    game_id: str, seats: list[str], simplified: bool, auction: bool, see_own: bool, seed: int
) -> SchonbrunnState:
    n = len(seats)
    rng = rng_for(seed, 0, "setup")
    state = SchonbrunnState(
        game=game_id,
        seed=seed,
        seats=list(seats),
        simplified=simplified,
        auction=auction,
        see_own_face_down=see_own,
        rounds=rounds_for(n),
        objectives=list(OBJECTIVES if n >= 5 else OBJECTIVES[:4]),
    )
    start = 0 if simplified else tables().receptions.start
    state.master = rng.choice(seats)
    _build_piles(state, rng)
    if auction:
        # Variants, Auction: the Receptions of the Preparation plus 1, then a secret bid.
        for seat in seats:
            state.players[seat] = Player(seat=seat, nation="", receptions=start + 1)
        state.nations_left = nations_in_play(n)
        state.stage = "bid"
        state.queue = list(seats)
        return state
    roles = nations_in_play(n)
    rng.shuffle(roles)  # Setup step 2: Role cards dealt at random
    for seat, nation in zip(seats, roles, strict=True):
        state.players[seat] = Player(seat=seat, nation=nation, receptions=start)
    _make_delegates(state)
    _start_round(state, [])
    return state


def _make_delegates(state: SchonbrunnState) -> None:
    for seat in state.seats:
        nation = nations()[state.players[seat].nation]
        state.delegates += [
            Delegate(id=f"{nation.id}{i}", owner=seat, value=v) for i, v in enumerate(nation.delegates)
        ]


def _build_piles(state: SchonbrunnState, rng: random.Random) -> None:
    """Preparation of the Reparations by number of players."""
    n = len(state.seats)
    by_type: dict[str, list[str]] = {t: [] for t in ("indemnity", "ally", "aid", "treaty")}
    poland = None
    for c in cards().values():
        if c.legitimacy:
            if n >= 5:
                poland = c.id
            else:
                state.box.append(c.id)
        elif c.min_players > n:
            state.box.append(c.id)
        else:
            by_type[c.type].append(c.id)
    for ids in by_type.values():
        rng.shuffle(ids)
    drop = {3: 2, 4: 2, 5: 1, 6: 0}[n]  # Treaties removed at random, unseen
    state.box_hidden += by_type["treaty"][:drop]
    del by_type["treaty"][:drop]
    piles = {
        o: by_type[t] for o, t in zip(OBJECTIVES[:4], ("indemnity", "ally", "aid", "treaty"), strict=True)
    }
    if n >= 5:
        sources = ("I", "III", "IIII") if n == 5 else ("I", "II", "III", "IIII")
        legit = [piles[o].pop(0) for o in sources]
        rng.shuffle(legit)
        assert poland is not None
        piles["V"] = legit + [poland]
    if n == 6:
        # the first 2 from I, then II, III and IIII on top: Treaty on top
        pob = [piles["IIII"][0], piles["III"][0], piles["II"][0], piles["I"][1], piles["I"][0]]
        for o, k in (("I", 2), ("II", 1), ("III", 1), ("IIII", 1)):
            del piles[o][:k]
    else:
        pob = [piles[o].pop(0) for o in ("IIII", "III", "II", "I")]  # Treaty on top
    per = state.rounds
    for o in OBJECTIVES[:4]:
        # The piles count the rounds (Phase 6): surplus Aids and Treaties stay unseen in the box.
        state.box_hidden += piles[o][per:]
        piles[o] = piles[o][:per]
    state.piles = {o: piles[o] for o in state.objectives} | {"PoB": pob}


# --------------------------------------------------------------------------- flow


def _start_round(state: SchonbrunnState, events: list[Event]) -> None:
    state.round += 1
    state.tops_revealed = True
    for player in state.players.values():
        player.activated, player.shown_aids, player.committed = [], [], None
    tops = ", ".join(f"{o}: {card(state.piles[o][0]).name}" for o in [*state.objectives, "PoB"])
    events.append(
        Event(
            kind="round",
            text=f"Round {state.round}/{state.rounds}. Reparations: {tops}.",
            reveals=True,
            data={"round": state.round},
        )
    )
    state.stage = "commit"
    state.queue = list(state.seats)


def hierarchy_order(state: SchonbrunnState, seats: list[str]) -> list[str]:
    return [s for s in state.hierarchy if s in seats]


def advance(state: SchonbrunnState, events: list[Event], rng: random.Random) -> None:
    """Skip seats with nothing to decide; move to the next stage when a stage is done."""
    while True:
        if state.stage == "over":
            return
        while state.queue and not _has_choice(state, state.queue[0]):
            skipped = state.queue.pop(0)
            _auto(state, skipped, events)
        if state.queue:
            return
        _next_stage(state, events, rng)


def _has_choice(state: SchonbrunnState, seat: str) -> bool:
    p = state.players[seat]
    match state.stage:
        case "sign":
            return any(card(c).type == "treaty" for c in p.screen)
        case "receptions":
            return spend_limit(state, seat) > 0
        case "plot":
            return p.receptions > 0 and bool(plot_targets(state, seat))
        case "move":
            target = _head_target_seat(state, seat)
            return target is not None and bool(face_up_of(state, target))
        case "minister":
            return p.minister is None and bool(minister_objectives(state, seat))
        case "activate":
            return bool(state.treaty_queue) and state.treaty_queue[0] in activatable(state, seat, "congress")
        case "keep":
            return bool(p.signed) and bool(aids_held(state, seat))
    return True


def _auto(state: SchonbrunnState, seat: str, events: list[Event]) -> None:
    """What happens to a seat skipped for lack of a choice."""
    if state.stage == "activate":
        state.treaty_queue.pop(0)
        _queue_next_treaty(state)
    elif state.stage == "keep":
        _keep(state, seat, [], [], events)


def _head_target_seat(state: SchonbrunnState, seat: str) -> str | None:
    head = state.players[seat].head
    return head if head in state.players else None


def _next_stage(state: SchonbrunnState, events: list[Event], rng: random.Random) -> None:
    s = state.stage
    if s == "bid":
        _resolve_bids(state, events)
    elif s == "choose":
        _make_delegates(state)
        _start_round(state, events)
    elif s == "commit":
        _reveal_commits(state, events)
    elif s == "tiebreak":
        _open_signing(state, events)
    elif s == "sign":
        state.stage = "receptions"
        state.queue = [] if state.simplified else list(state.hierarchy)
    elif s == "receptions":
        _open_assignments(state, events, rng)
    elif s == "favour":
        _open_assign(state)
    elif s == "assign":
        if state.simplified:  # no Plot, no Delegation Heads
            state.stage, state.queue = "minister", list(state.hierarchy)
        else:
            state.stage, state.queue = "plot", list(state.hierarchy)
    elif s == "plot":
        state.stage = "move"
        state.queue = [x for x in state.hierarchy if _head_target_seat(state, x)]
    elif s == "move":
        state.stage, state.queue = "minister", list(state.hierarchy)
    elif s == "minister":
        _open_congress(state, events)
    elif s == "activate":
        _resolve_congress(state, events)
        if state.round == state.rounds:  # Phase 6 is skipped in the last round
            _final_scoring(state, events)
        else:
            _recover(state, events)
    elif s == "keep":
        _convert_allies(state, events)
        _start_round(state, events)


# --------------------------------------------------------------------------- auction variant


def _resolve_bids(state: SchonbrunnState, events: list[Event]) -> None:
    n = len(state.seats)
    m = state.seats.index(state.master)

    def distance(seat: str) -> int:  # anticlockwise (towards the right) from the Master
        return (m - state.seats.index(seat)) % n

    order = sorted(state.seats, key=lambda s: (-(state.players[s].bid or 0), distance(s)))
    shown = ", ".join(f"{s} {state.players[s].bid}" for s in order)
    events.append(Event(kind="bids", text=f"Auction bids revealed: {shown}.", reveals=True))
    state.choose_order = order
    state.stage, state.queue = "choose", list(order)


# --------------------------------------------------------------------------- Phase 1: Hierarchy


def _reveal_commits(state: SchonbrunnState, events: list[Event]) -> None:
    groups: dict[int, list[str]] = {}
    for seat in state.seats:
        d = delegates_at(state, seat, "committed")[0]
        d.face_up = d.known = True
        state.players[seat].committed = worth(state, d)
        groups.setdefault(worth(state, d), []).append(seat)
    shown = ", ".join(f"{name(state, s)} {state.players[s].committed}" for s in state.seats)
    events.append(Event(kind="commits", text=f"Hierarchy Delegates revealed: {shown}.", reveals=True))
    state.tie_groups = [groups[v] for v in sorted(groups)]
    _ask_tiebreak(state, events)


def tie_resolver(state: SchonbrunnState, group: list[str]) -> str:
    """The Master of Ceremonies, unless Austria (its Nation ability) is in the tie."""
    for seat in group:
        if nations()[state.players[seat].nation].ability == "hierarchy_ties":
            return seat
    return state.master


def _ask_tiebreak(state: SchonbrunnState, events: list[Event]) -> None:
    for group in state.tie_groups:
        if len(group) > 1:
            state.stage = "tiebreak"
            state.queue = [tie_resolver(state, group)]
            return
    state.hierarchy = [g[0] for g in state.tie_groups]
    state.tie_groups = []
    state.master = state.hierarchy[0]  # the token goes to position 1
    order = ", ".join(f"{i + 1}. {name(state, s)}" for i, s in enumerate(state.hierarchy))
    events.append(
        Event(
            kind="hierarchy",
            text=f"Hierarchy: {order}. Master of Ceremonies: {name(state, state.master)}.",
            reveals=True,
        )
    )
    state.stage, state.queue = "tiebreak", []


def _open_signing(state: SchonbrunnState, events: list[Event]) -> None:
    state.stage, state.queue = "sign", list(state.hierarchy)


def _tiebreak(state: SchonbrunnState, seat: str, action: A.TieBreak, events: list[Event]) -> None:
    i, group = next((i, g) for i, g in enumerate(state.tie_groups) if len(g) > 1)
    chosen = [seat_of(state, n) for n in action.order]
    if sorted(s for s in chosen if s) != sorted(group) or len(chosen) != len(group):
        names = ", ".join(name(state, s) for s in group)
        raise IllegalAction(f"Order exactly the tied nations: {names}.")
    state.tie_groups[i : i + 1] = [[s] for s in chosen if s]
    text = " ahead of ".join(name(state, s) for s in chosen if s)
    events.append(Event(kind="tiebreak", text=f"{name(state, seat)} breaks the tie: {text}."))
    _ask_tiebreak(state, events)


def _sign(state: SchonbrunnState, seat: str, action: A.Sign, events: list[Event]) -> None:
    p = state.players[seat]
    for t in action.treaties:
        if t not in p.screen or card(t).type != "treaty":
            raise IllegalAction(f"You hold no unsigned Treaty {t!r} behind your screen.")
    if len(set(action.treaties)) != len(action.treaties):
        raise IllegalAction("Name each Treaty once.")
    for t in action.treaties:
        p.screen.remove(t)
        p.signed.append(t)
        c = card(t)
        events.append(Event(kind="sign", text=f"{name(state, seat)} signs {c.name}: {c.text}", reveals=True))
    if not action.treaties:
        events.append(Event(kind="sign", text=f"{name(state, seat)} signs no Treaty."))


def _spend(state: SchonbrunnState, seat: str, action: A.Spend, events: list[Event]) -> None:
    p = state.players[seat]
    most = spend_limit(state, seat)
    if not 0 <= action.receptions <= most:
        raise IllegalAction(f"Spend between 0 and {most} Receptions (your Hierarchy Delegate's Influence).")
    p.receptions -= action.receptions
    p.prestige += action.receptions
    events.append(
        Event(
            kind="spend",
            text=f"{name(state, seat)} spends {action.receptions} Receptions "
            f"for {action.receptions} Prestige.",
        )
    )


# --------------------------------------------------------------------------- Phase 2: Assignments


def _open_assignments(state: SchonbrunnState, events: list[Event], rng: random.Random) -> None:
    if state.simplified:
        _open_assign(state)
        return
    values = list(tables().favours.values or [])
    rng.shuffle(values)
    state.favours = dict(zip(state.objectives, values, strict=False))
    state.favour_spare = values[len(state.objectives) :]
    state.favours_up = []
    count = state.rounds - state.round + 1  # cards in each pile, this round's included
    if count <= len(state.objectives):
        _reveal_favour(state, state.objectives[count - 1], events, "matches the pile size")
    state.stage, state.queue = "favour", [state.master]


def _reveal_favour(state: SchonbrunnState, objective: str, events: list[Event], why: str) -> None:
    state.favours_up.append(objective)
    events.append(
        Event(
            kind="favour",
            text=f"Political Favour of Objective {objective} ({why}): {state.favours[objective]}.",
            reveals=True,
        )
    )


def _favour(state: SchonbrunnState, seat: str, action: A.Favour, events: list[Event]) -> None:
    if action.objective not in state.objectives or action.objective in state.favours_up:
        hidden = ", ".join(o for o in state.objectives if o not in state.favours_up)
        raise IllegalAction(f"Reveal a face-down Political Favour: {hidden}.")
    _reveal_favour(state, action.objective, events, f"chosen by {name(state, seat)}")


def _open_assign(state: SchonbrunnState) -> None:
    state.stage, state.queue = "assign", list(state.hierarchy)
    _begin_turn(state)


def _begin_turn(state: SchonbrunnState) -> None:
    if state.queue:
        state.assign_step = "down"
        state.assign_left = nations()[state.players[state.queue[0]].nation].face_down_first


def _assign(state: SchonbrunnState, seat: str, action: A.Assign, events: list[Event]) -> None:
    if state.assign_step == "head":
        raise IllegalAction("Decide on your Delegation Head first (`head`, or `head` with no target).")
    if action.objective not in state.objectives:
        raise IllegalAction(f"Objectives in this game: {', '.join(state.objectives)}.")
    d = next((d for d in supply(state, seat) if d.value == action.delegate), None)
    if d is None:
        raise IllegalAction(f"You have no Delegate of Influence {action.delegate} in your supply.")
    up = state.assign_step == "up"
    d.place, d.face_up, d.known, d.order = action.objective, up, up, state.placed
    state.placed += 1
    who = name(state, seat)
    if up:
        events.append(
            Event(
                kind="assign", text=f"{who} assigns a {d.value} face up to {action.objective}.", reveals=True
            )
        )
    else:
        events.append(Event(kind="assign", text=f"{who} assigns a Delegate face down to {action.objective}."))
        if state.see_own_face_down:
            events.append(
                Event(
                    kind="assign", text=f"Your {d.value} is face down in {action.objective}.", audience=seat
                )
            )
    state.assign_left -= 1
    if state.assign_left == 0:
        _next_assign_step(state)


def _next_assign_step(state: SchonbrunnState) -> None:
    step = state.assign_step
    if step == "down":
        state.assign_step, state.assign_left = ("up", 3) if state.simplified else ("head", 0)
    elif step == "head":
        state.assign_step, state.assign_left = "up", 3
    elif step == "up":
        state.assign_step, state.assign_left = "last", 1
    else:
        state.queue.pop(0)
        _begin_turn(state)


def _head(state: SchonbrunnState, seat: str, action: A.Head, events: list[Event]) -> None:
    if state.assign_step != "head":
        raise IllegalAction("The Delegation Head is assigned after your face-down Delegates.")
    p = state.players[seat]
    target = action.target
    if target is not None:
        other = seat_of(state, target)
        place = other if other else target
        if (other or target) not in [seat_of(state, t) or t for t in head_targets(state, seat)]:
            raise IllegalAction(_head_refusal(state, seat, place))
        nation = nations()[p.nation]
        p.head = place
        if other:
            if nation.head_power == "free_screen":
                text = (
                    f"{name(state, seat)}'s {nation.head} stands before {name(state, other)}'s screen, free."
                )
            else:
                p.receptions -= 1
                state.players[other].receptions += 1
                text = (
                    f"{name(state, seat)}'s {nation.head} stands before {name(state, other)}'s screen "
                    f"and gives them 1 Reception."
                )
        else:
            p.receptions -= 1
            text = f"{name(state, seat)} assigns {nation.head} to Objective {place} for 1 Reception."
        events.append(Event(kind="head", text=text))
    else:
        events.append(Event(kind="head", text=f"{name(state, seat)} keeps its Delegation Head."))
    _next_assign_step(state)


def _head_refusal(state: SchonbrunnState, seat: str, place: str) -> str:
    legal = ", ".join(head_targets(state, seat)) or "none"
    if place == seat:
        return "Your Delegation Head cannot stand before your own screen."
    if head_at(state, place):
        return f"Another Delegation Head already stands there. Legal: {legal}."
    return f"Your Delegation Head cannot go to {place!r} (it costs 1 Reception). Legal: {legal}."


# --------------------------------------------------------------------------- Phase 3: Plot


def _plot(state: SchonbrunnState, seat: str, action: A.Plot, events: list[Event]) -> None:
    p = state.players[seat]
    other = seat_of(state, action.nation)
    if other is None or other == seat:
        raise IllegalAction("Plot against an opposing nation.")
    if not 1 <= action.receptions <= min(4, p.receptions):
        raise IllegalAction(f"Spend between 1 and {min(4, p.receptions)} Receptions on a Plot.")
    if (other, action.objective, action.index) not in plot_targets(state, seat):
        if (
            state.players[other].head == action.objective
            and nations()[state.players[other].nation].head_power == "plot_shield"
        ):
            raise IllegalAction(
                f"{nations()[state.players[other].nation].head} protects the "
                f"{name(state, other)} Delegates in {action.objective}."
            )
        raise IllegalAction(
            f"{name(state, other)} has no face-down Delegate number {action.index} in {action.objective}."
        )
    target = face_down_at(state, other, action.objective)[action.index - 1]
    p.receptions -= action.receptions
    strength = action.receptions + (1 if nations()[p.nation].ability == "cheap_plots" else 0)
    removed = worth(state, target) <= plot_reach(strength)
    target.known = True
    if removed:
        target.place, target.face_up = "supply", False
        outcome = "removed behind its screen"
    else:
        target.face_up = True
        outcome = "it stays, face up"
    events.append(
        Event(
            kind="plot",
            reveals=True,
            text=(
                f"{name(state, seat)} plots against {name(state, other)} in {action.objective} with "
                f"{action.receptions} Receptions and reveals a {target.value}: {outcome}."
            ),
        )
    )


# --------------------------------------------------------------------------- Phase 4: Chancellery


def _move(state: SchonbrunnState, seat: str, action: A.Move, events: list[Event]) -> None:
    other = _head_target_seat(state, seat)
    assert other is not None
    d = next(
        (d for d in face_up_of(state, other) if d.place == action.objective and d.value == action.delegate),
        None,
    )
    if d is None:
        raise IllegalAction(f"{name(state, other)} has no face-up {action.delegate} in {action.objective}.")
    dests = move_destinations(state, other, action.objective)
    if dests and action.to not in dests:
        raise IllegalAction(
            f"Move it to an Objective where {name(state, other)} has Delegates: {', '.join(dests)}."
        )
    if not dests and action.to is not None:
        raise IllegalAction(f"{name(state, other)} has no Delegates elsewhere: the Delegate must be removed.")
    if action.to:
        d.place, d.order = action.to, state.placed
        state.placed += 1
        text = f"moves the {name(state, other)} {d.value} from {action.objective} to {action.to}"
    else:
        d.place, d.face_up = "supply", False
        text = f"removes the {name(state, other)} {d.value} from {action.objective}"
    events.append(Event(kind="move", text=f"{name(state, seat)}'s Delegation Head {text}."))


def _minister(state: SchonbrunnState, seat: str, action: A.Minister, events: list[Event]) -> None:
    if action.objective is None:
        events.append(Event(kind="minister", text=f"{name(state, seat)} keeps its Foreign Minister."))
        return
    if action.objective not in minister_objectives(state, seat):
        legal = ", ".join(minister_objectives(state, seat))
        raise IllegalAction(f"Your Foreign Minister goes where you still have a Delegate: {legal}.")
    state.players[seat].minister = action.objective
    events.append(
        Event(
            kind="minister", text=f"{name(state, seat)} assigns its Foreign Minister to {action.objective}."
        )
    )


# --------------------------------------------------------------------------- Treaties


def _activate(state: SchonbrunnState, seat: str, action: A.Activate, events: list[Event]) -> None:
    p = state.players[seat]
    if action.treaty not in p.signed:
        raise IllegalAction("Activate a Treaty you have signed.")
    c = card(action.treaty)
    if action.treaty in p.activated:
        raise IllegalAction(f"{c.name} is already active this round.")
    timing = "congress" if state.stage == "activate" else "assignments"
    if c.timing != timing:
        raise IllegalAction(f"{c.name} is activated in {c.timing or 'no phase'}.")
    if state.stage == "activate" and state.treaty_queue[:1] != [action.treaty]:
        raise IllegalAction("Treaties are activated in order of priority.")
    if action.pay == "minister":
        if p.minister is not None:
            raise IllegalAction("Your Foreign Minister is already assigned.")
    elif action.pay not in unshown_aids(state, seat):
        raise IllegalAction(
            "Pay with an Aid behind your screen not yet revealed this round, or the minister."
        )
    opponents: list[tuple[str, str]] = []
    if c.marker:
        allowed = state.objectives if timing == "assignments" else objectives_with_delegates(state, seat)
        if action.objective not in allowed:
            raise IllegalAction(f"Place the marker in one of: {', '.join(allowed) or 'none'}.")
    if c.minus:
        legal = {
            (s, o) for s in state.seats if s != seat for o in state.objectives if delegates_at(state, s, o)
        }
        opponents = [(seat_of(state, t.nation) or "", t.objective) for t in action.targets]
        if any(t not in legal for t in opponents):
            raise IllegalAction("The '-1' markers go to opposing delegations on the board.")
        if len(opponents) != (c.minus if legal else 0):
            raise IllegalAction(f"Distribute exactly {c.minus} '-1' markers.")
    if action.pay == "minister":
        p.minister = "treaty"
        paid = "assigning the Foreign Minister"
    else:
        p.shown_aids.append(action.pay)
        paid = f"revealing the Aid {card(action.pay).name}"
    p.activated.append(action.treaty)
    p.prestige += c.prestige
    if not state.simplified:
        p.receptions += c.receptions
    if c.marker:
        state.markers.append(
            Marker(owner=seat, objective=action.objective or "", value=c.marker, source=c.id)
        )
    for other, objective in opponents:
        state.markers.append(Marker(owner=other, objective=objective, value=-1, source=c.id))
    events.append(
        Event(
            kind="activate", reveals=True, text=f"{name(state, seat)} activates {c.name} by {paid}: {c.text}"
        )
    )
    if state.stage == "activate":
        state.treaty_queue.pop(0)
        _queue_next_treaty(state)


def _queue_next_treaty(state: SchonbrunnState) -> None:
    state.queue = [_owner(state, state.treaty_queue[0])] if state.treaty_queue else []


def _owner(state: SchonbrunnState, treaty: str) -> str:
    return next(s for s, p in state.players.items() if treaty in p.signed)


# --------------------------------------------------------------------------- Phase 5: Congress


def _open_congress(state: SchonbrunnState, events: list[Event]) -> None:
    for d in state.delegates:
        if d.place in state.objectives:
            d.face_up = d.known = True
    if not state.simplified:
        state.favours_up = list(state.objectives)
    board = []
    for o in state.objectives:
        parts = [
            f"{name(state, s)} {influence(state, s, o)}" for s in state.hierarchy if delegates_at(state, s, o)
        ]
        fav = f" (favour {state.favours[o]})" if state.favours else ""
        board.append(f"{o}{fav}: " + (", ".join(parts) or "nobody"))
    events.append(
        Event(kind="congress", reveals=True, text="Congress: all revealed. " + "; ".join(board) + ".")
    )
    signed = [t for p in state.players.values() for t in p.signed if card(t).timing == "congress"]
    state.treaty_queue = sorted(signed, key=lambda t: card(t).priority)
    state.stage = "activate"
    _queue_next_treaty(state)


def _collect(state: SchonbrunnState, seat: str, card_id: str) -> str:
    c = card(card_id)
    p = state.players[seat]
    p.screen.append(card_id)
    gained = ""
    if c.type == "indemnity":
        p.prestige += c.prestige
        if not state.simplified:
            p.receptions += c.receptions
        gained = f" (+{c.prestige} Prestige)"
    elif c.type == "ally":
        p.allies_this_round.append(card_id)
    return f"{name(state, seat)} collects {c.name}{gained}"


def _resolve_congress(state: SchonbrunnState, events: list[Event]) -> None:
    lines = []
    for o in state.objectives:
        totals = {s: influence(state, s, o) for s in state.seats}
        winner = best(state, totals)
        line = _collect(state, winner, state.piles[o].pop(0)) + f" in {o} with {totals[winner]}"
        for d in delegates_at(state, winner, o):
            d.place, d.face_up, d.known = "supply", False, True
        state.markers = [m for m in state.markers if not (m.owner == winner and m.objective == o)]
        p = state.players[winner]
        if p.minister == o:
            p.minister = "removed"
        if p.head == o and not state.simplified:
            p.prestige += 1
            p.receptions += 1
            line += " (+1 Prestige and 1 Reception for the Delegation Head)"
        lines.append(line)
    # The Principle of Balance: highest total left in a single Objective.
    left = {}
    for s in state.seats:
        here = [influence(state, s, o) for o in state.objectives if delegates_at(state, s, o)]
        if here:
            left[s] = max(here)
    pob_winner = best(state, left) if left else in_reverse_order_first(state)
    lines.append(_collect(state, pob_winner, state.piles["PoB"].pop(0)) + " by the Principle of Balance")
    if not state.simplified:
        lines += _favour_rewards(state)
    state.tops_revealed = False
    state.last_awards = lines
    events.append(Event(kind="awards", reveals=True, text="\n".join(lines)))


def in_reverse_order_first(state: SchonbrunnState) -> str:
    return state.hierarchy[-1]


def _favour_rewards(state: SchonbrunnState) -> list[str]:
    """Each delegation left above an Objective's Favour takes 1 Reception; the highest also
    gains Prestige equal to the Favour (Phase 5, example)."""
    lines = []
    for o in state.objectives:
        value = state.favours[o]
        above = {s: influence(state, s, o) for s in state.seats if delegates_at(state, s, o)}
        above = {s: t for s, t in above.items() if t > value}
        if not above:
            continue
        for s in above:
            state.players[s].receptions += 1
        top = best(state, above)
        state.players[top].prestige += value
        names = ", ".join(name(state, s) for s in hierarchy_order(state, list(above)))
        lines.append(f"Favour {o} ({value}): 1 Reception to {names}; {name(state, top)} +{value} Prestige")
    return lines


# --------------------------------------------------------------------------- Phase 6: Recovery


def _recover(state: SchonbrunnState, events: list[Event]) -> None:
    for d in state.delegates:
        d.place, d.face_up, d.known, d.order = "supply", False, False, 0
    state.markers, state.favours, state.favours_up, state.favour_spare = [], {}, [], []
    for p in state.players.values():
        p.head = p.minister = None
    events.append(Event(kind="recovery", text="Recovery: every piece returns behind its screen."))
    state.stage, state.queue = "keep", list(state.hierarchy)


def _keep(
    state: SchonbrunnState, seat: str, treaties: list[str], aids: list[str], events: list[Event]
) -> None:
    p = state.players[seat]
    if len(treaties) != len(aids) or len(set(treaties)) != len(treaties) or len(set(aids)) != len(aids):
        raise IllegalAction("Discard exactly one different Aid for each Treaty you keep.")
    if any(t not in p.signed for t in treaties):
        raise IllegalAction("Keep only Treaties you signed.")
    if any(a not in aids_held(state, seat) for a in aids):
        raise IllegalAction("Discard only Aids behind your screen.")
    for a in aids:
        p.screen.remove(a)
        p.under.append(a)
    for t in list(p.signed):
        (p.screen if t in treaties else p.under).append(t)
    p.signed = []
    if treaties:
        kept = ", ".join(
            f"{card(t).name} (discarding {card(a).name})" for t, a in zip(treaties, aids, strict=True)
        )
        events.append(Event(kind="keep", text=f"{name(state, seat)} keeps {kept}.", reveals=True))


def _convert_allies(state: SchonbrunnState, events: list[Event]) -> None:
    for seat, p in state.players.items():
        for ally in p.allies_this_round:
            c = card(ally)
            if c.end:  # Portugal and Poland stay behind the screen for the final scoring
                continue
            held = [card(a).symbol for a in aids_held(state, seat)]
            value = c.marker
            if c.bonus and (held if c.bonus_symbol == "any" else c.bonus_symbol in held):
                value += c.bonus
            p.screen.remove(ally)
            p.under.append(ally)
            p.ally_markers.append(value)
            events.append(
                Event(
                    kind="ally",
                    reveals=True,
                    text=f"{name(state, seat)} exchanges {c.name} for an Ally marker of {value}.",
                )
            )
        p.allies_this_round = []


# --------------------------------------------------------------------------- End of the Game


def aid_points(symbols: list[str], wild: int) -> int:
    """7 for three different symbols; 4 for each matching Aid beyond the first. Wild Aids
    (Free Navigation of the Seas) take whichever symbols score best."""
    pts = tables().aid_sets
    best_score = 0
    for extra in itertools.combinations_with_replacement(SYMBOLS, wild):
        counts = {s: 0 for s in SYMBOLS}
        for s in [*symbols, *extra]:
            counts[s] += 1
        score = (pts.different if all(counts.values()) else 0) + pts.matching * sum(
            max(0, c - 1) for c in counts.values()
        )
        best_score = max(best_score, score)
    return best_score


def end_points(state: SchonbrunnState, seat: str) -> tuple[int, list[str]]:
    p = state.players[seat]
    held = [*p.screen, *p.signed]
    total, parts = 0, []
    ally_cards = sum(1 for c in [*held, *p.under] if card(c).type == "ally")
    for cid in held:
        c = card(cid)
        pts = 0
        if c.end == "per_indemnity":
            pts = c.end_value * sum(1 for x in held if card(x).type == "indemnity")
        elif c.end == "per_two_receptions":
            pts = c.end_value * (p.receptions // 2)
        elif c.end == "per_ally_card":
            pts = c.end_value * ally_cards
        elif c.end == "portugal":
            pts = c.end_value + 2 * sum(1 for x in held if card(x).symbol == "naval")
        if pts:
            total += pts
            parts.append(f"{c.name} {pts}")
    aids = [card(x).symbol for x in held if card(x).type == "aid"]
    wild = sum(1 for x in held if card(x).wild_aid)
    pts = aid_points(aids, wild)
    if pts:
        total += pts
        parts.append(f"Aids {pts}")
    return total, parts


def _final_scoring(state: SchonbrunnState, events: list[Event]) -> None:
    lines = []
    for seat in state.hierarchy:
        pts, parts = end_points(state, seat)
        p = state.players[seat]
        p.prestige += pts
        p.end_detail = ", ".join(parts)
        state.final[seat] = p.prestige
        lines.append(f"{name(state, seat)}: +{pts} ({p.end_detail or 'nothing'}) = {p.prestige}")
    state.stage, state.queue = "over", []
    events.append(Event(kind="end", reveals=True, text="End of the game.\n" + "\n".join(lines)))


def ranking(state: SchonbrunnState) -> list[str]:
    """Highest Prestige first; ties to the later position in the last Hierarchy."""
    pos = {s: i for i, s in enumerate(state.hierarchy)}
    return sorted(state.seats, key=lambda s: (-state.players[s].prestige, -pos[s]))


# --------------------------------------------------------------------------- dispatch


def play(state: SchonbrunnState, seat: str, action: object, rng: random.Random) -> list[Event]:
    events: list[Event] = []
    stage = state.stage
    if isinstance(action, A.Activate) and stage == "assign" and state.queue[:1] == [seat]:
        _activate(state, seat, action, events)
        return events
    expected = EXPECTS.get(stage, ())
    if not isinstance(action, expected):
        kinds = " or ".join(k.model_fields["kind"].default for k in expected) or "nothing"
        raise IllegalAction(f"Now is the time for: {kinds}.")
    if stage in ("bid", "commit"):
        if seat not in state.queue:
            raise IllegalAction("You have already made your secret choice this phase.")
    elif state.queue[:1] != [seat]:
        raise IllegalAction("It is not your turn.")
    p = state.players[seat]
    match action:
        case A.Bid():
            if not 1 <= action.receptions <= p.receptions:
                raise IllegalAction(f"Bid between 1 and {p.receptions} Receptions.")
            p.bid = action.receptions
            state.queue.remove(seat)
            events.append(Event(kind="bid", text=f"{seat} has bid."))
            events.append(Event(kind="bid", text=f"You bid {action.receptions}.", audience=seat))
        case A.Choose():
            nat = next(
                (
                    n
                    for n in state.nations_left
                    if action.nation.casefold() in (n.casefold(), nations()[n].name.casefold())
                ),
                None,
            )
            if nat is None:
                raise IllegalAction(f"Choose one of: {', '.join(state.nations_left)}.")
            k = state.choose_order.index(seat)
            pay = state.players[state.choose_order[k + 1]].bid or 0 if k + 1 < len(state.choose_order) else 0
            p.nation = nat
            p.receptions -= pay
            state.nations_left.remove(nat)
            state.queue.pop(0)
            events.append(
                Event(kind="choose", text=f"{seat} takes {nations()[nat].name}, losing {pay} Receptions.")
            )
        case A.Commit():
            d = next((d for d in supply(state, seat) if d.value == action.delegate), None)
            if d is None:
                raise IllegalAction(f"You have no Delegate of Influence {action.delegate} in your supply.")
            d.place = "committed"
            state.queue.remove(seat)
            events.append(Event(kind="commit", text=f"{name(state, seat)} has committed a Delegate."))
            events.append(Event(kind="commit", text=f"You committed your {d.value}.", audience=seat))
        case A.TieBreak():
            _tiebreak(state, seat, action, events)
        case A.Sign():
            _sign(state, seat, action, events)
            state.queue.pop(0)
        case A.Spend():
            _spend(state, seat, action, events)
            state.queue.pop(0)
        case A.Favour():
            _favour(state, seat, action, events)
            state.queue.pop(0)
        case A.Assign():
            _assign(state, seat, action, events)
        case A.Head():
            _head(state, seat, action, events)
        case A.Plot():
            _plot(state, seat, action, events)
            state.queue.pop(0)
        case A.Move():
            _move(state, seat, action, events)
            state.queue.pop(0)
        case A.Minister():
            _minister(state, seat, action, events)
            state.queue.pop(0)
        case A.Activate():
            _activate(state, seat, action, events)
        case A.Pass():
            if stage == "activate":
                treaty = state.treaty_queue.pop(0)
                events.append(
                    Event(kind="pass", text=f"{name(state, seat)} does not activate {card(treaty).name}.")
                )
                _queue_next_treaty(state)
            else:
                events.append(Event(kind="pass", text=f"{name(state, seat)} passes."))
                state.queue.pop(0)
        case A.Keep():
            _keep(state, seat, action.treaties, action.aids, events)
            state.queue.pop(0)
    advance(state, events, rng)
    return events


EXPECTS: dict[str, tuple[type, ...]] = {
    "bid": (A.Bid,),
    "choose": (A.Choose,),
    "commit": (A.Commit,),
    "tiebreak": (A.TieBreak,),
    "sign": (A.Sign,),
    "receptions": (A.Spend,),
    "favour": (A.Favour,),
    "assign": (A.Assign, A.Head),
    "plot": (A.Plot, A.Pass),
    "move": (A.Move,),
    "minister": (A.Minister,),
    "activate": (A.Activate, A.Pass),
    "keep": (A.Keep,),
}

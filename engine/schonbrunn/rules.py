"""The rules of Schönbrunn: setup, the six phases of a round, and the end of the game.

`play` checks an action against the current stage and carries it out; `advance` then
moves the game on, skipping seats that have no decision to make, until someone owes one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from engine.core import Event, IllegalAction, rng_for
from engine.core.words import counted

from . import actions as A
from .content import (
    OBJECTIVES,
    card,
    cards,
    nations,
    nations_in_play,
    rounds_for,
    tables,
)
from .phases import assignments, chancellery, congress, end, hierarchy, plot, recovery, treaties
from .pieces import (
    activatable,
    aids_held,
    any_plot_target,
    face_up_of,
    free_nation,
    head_target_seat,
    minister_objectives,
    name,
    spend_limit,
    supply,
)
from .state import Delegate, Player, SchonbrunnState

# --------------------------------------------------------------------------- setup


def extra_receptions(state: SchonbrunnState, nation: str) -> int:
    """The Receptions a Nation starts with above everyone's start (Russia's court); none in
    the simplified rules, which have no Receptions."""
    return 0 if state.simplified else nations()[nation].extra_receptions


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
        state.players[seat] = Player(seat=seat, nation=nation, receptions=start + extra_receptions(state, nation))
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
    box: list[str] = []
    poland = None
    for c in cards().values():
        if c.legitimacy:
            if n >= 5:
                poland = c.id
            else:
                box.append(c.id)
        elif c.min_players > n:
            box.append(c.id)
        else:
            by_type[c.type].append(c.id)
    for ids in by_type.values():
        rng.shuffle(ids)
    drop = {3: 2, 4: 2, 5: 1, 6: 0}[n]  # Treaties removed at random, unseen
    box_hidden = by_type["treaty"][:drop]
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
        box_hidden += piles[o][per:]
        piles[o] = piles[o][:per]
    state.box, state.box_hidden = box, box_hidden  # made here: a copy of the state shares them
    state.piles = {o: tuple(piles[o]) for o in state.objectives} | {"PoB": tuple(pob)}


# --------------------------------------------------------------------------- flow


def _start_round(state: SchonbrunnState, events: list[Event]) -> None:
    state.round += 1
    state.tops_revealed = True
    for player in list(state.players.values()):
        if player.activated or player.shown_aids or player.committed is not None:
            state.change(player, activated=(), shown_aids=(), committed=None)
    tops = ", ".join(f"{o}: {card(state.piles[o][0]).name}" for o in state.objectives)
    tops += f", Principle of Balance: {card(state.piles['PoB'][0]).name}"
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


def advance(state: SchonbrunnState, events: list[Event], rng: random.Random) -> None:
    """Skip seats with nothing to decide; move to the next stage when a stage is done."""
    # the stage and the queue read once a pass: a model's attribute costs more than a
    # local's, and every step ends here
    while (stage := state.stage) != "over":
        queue = state.queue
        if stage in _OPTIONAL:  # elsewhere every seat in the queue decides (the Assignments, ...)
            while queue and not _has_choice(state, stage, queue[0]):
                _auto(state, queue.pop(0), events)
                queue = state.queue  # the Congress queues each Treaty's owner in a new list
        if queue:
            return
        _next_stage(state, events, rng)


_OPTIONAL = frozenset({"sign", "receptions", "plot", "move", "minister", "activate", "keep"})


def _has_choice(state: SchonbrunnState, stage: str, seat: str) -> bool:
    """Whether the seat has a choice to make in this stage, one of `_OPTIONAL`."""
    p = state.players[seat]
    match stage:
        case "sign":
            return any(card(c).type == "treaty" for c in p.screen)
        case "receptions":
            return spend_limit(state, seat) > 0
        case "plot":
            return p.receptions > 0 and any_plot_target(state, seat)
        case "move":
            target = head_target_seat(state, seat)
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
        treaty, state.treaty_queue = state.treaty_queue[0], state.treaty_queue[1:]
        # the same words as a pass: whether the owner could have paid is behind its screen
        owner = treaties.treaty_owner(state, treaty)
        events.append(Event(kind="pass", text=f"{name(state, owner)} does not activate {card(treaty).name}."))
        treaties.queue_next_treaty(state)
    elif state.stage == "keep":
        recovery.keep(state, seat, [], [], events)


def _next_stage(state: SchonbrunnState, events: list[Event], rng: random.Random) -> None:
    s = state.stage
    if s == "bid":
        hierarchy.resolve_bids(state, events)
    elif s == "choose":
        _make_delegates(state)
        _start_round(state, events)
    elif s == "commit":
        hierarchy.reveal_commits(state, events)
    elif s == "tiebreak":
        hierarchy.open_signing(state, events)
    elif s == "sign":
        state.stage = "receptions"
        state.queue = [] if state.simplified else list(state.hierarchy)
    elif s == "receptions":
        assignments.open_assignments(state, events, rng)
    elif s == "favour":
        assignments.open_assign(state)
    elif s == "assign":
        if state.simplified:  # no Plot, no Delegation Heads
            state.stage, state.queue = "minister", list(state.hierarchy)
        else:
            state.stage, state.queue = "plot", list(state.hierarchy)
    elif s == "plot":
        state.stage = "move"
        state.queue = [x for x in state.hierarchy if head_target_seat(state, x)]
    elif s == "move":
        state.stage, state.queue = "minister", list(state.hierarchy)
    elif s == "minister":
        congress.open_congress(state, events)
    elif s == "activate":
        congress.resolve_congress(state, events)
        if state.round == state.rounds:  # Phase 6 is skipped in the last round
            end.final_scoring(state, events)
        else:
            recovery.recover(state, events)
    elif s == "keep":
        recovery.convert_allies(state, events)
        _start_round(state, events)


# --------------------------------------------------------------------------- dispatch


# The orders a phase module carries out whole, by the action's exact class (see `play`).
# Those of the second table end the acting seat's turn. Each takes the state, the seat, an
# action of its class and the events to add to.
Handler = Callable[[SchonbrunnState, str, Any, list[Event]], None]
_HANDLERS: dict[type, Handler] = {
    A.Assign: assignments.assign,
    A.Head: assignments.head,
    A.TieBreak: hierarchy.tiebreak,
    A.Activate: treaties.activate,
}
_TURN_HANDLERS: dict[type, Handler] = {
    A.Sign: hierarchy.sign,
    A.Spend: hierarchy.spend,
    A.Favour: assignments.favour,
    A.Plot: plot.plot,
    A.Move: chancellery.move,
    A.Minister: chancellery.minister,
}


def play(state: SchonbrunnState, seat: str, action: object, rng: random.Random) -> list[Event]:
    """Apply one action, dispatched by its exact class to the phase module that carries it
    out; long because the dispatch tables and the stage checks are one hot path, written
    inline for speed (see the comment below)."""
    events: list[Event] = []
    stage, queue = state.stage, state.queue
    # dispatched on the action's class, not by `isinstance` (nor `match`, which calls it):
    # a check of a pydantic class an action is not costs a Python call (pydantic's
    # ABCMeta), and the last cases took a dozen; actions are parsed to these classes. mypy
    # cannot see that `kind is A.Bid` makes `action` a Bid: each case casts it.
    kind = type(action)
    if kind is A.Activate and stage == "assign" and queue[:1] == [seat]:
        treaties.activate(state, seat, cast(A.Activate, action), events)
        return events
    expected = EXPECTS.get(stage, ())
    if kind not in expected:
        wanted = " or ".join(f"/schonbrunn {COMMAND_OF.get(k, k)}" for k in (c.model_fields["kind"].default for c in expected))
        raise IllegalAction(f"Not now: the {PHASE_OF.get(stage, stage)} wants {wanted or 'no order'}.")
    if stage in ("bid", "commit"):
        if seat not in queue:
            raise IllegalAction("You have already made your secret choice this phase.")
    elif not queue or queue[0] != seat:
        raise IllegalAction("It is not your turn.")
    if (handler := _HANDLERS.get(kind)) is not None:
        handler(state, seat, action, events)
    elif (handler := _TURN_HANDLERS.get(kind)) is not None:
        handler(state, seat, action, events)
        state.queue.pop(0)  # the seat's turn is over
    elif kind is A.Bid:
        action = cast(A.Bid, action)
        p = state.players[seat]
        if not 1 <= action.receptions <= p.receptions:
            raise IllegalAction(f"Bid between 1 and {p.receptions} Receptions.")
        state.change(p, bid=action.receptions)
        state.queue.remove(seat)
        events.append(Event(kind="bid", text=f"{name(state, seat)} has bid."))
        events.append(Event(kind="bid", text=f"You bid {action.receptions}.", audience=seat))
    elif kind is A.Choose:
        action = cast(A.Choose, action)
        nat = free_nation(state, action.nation)
        p, k = state.players[seat], state.choose_order.index(seat)
        pay = state.players[state.choose_order[k + 1]].bid or 0 if k + 1 < len(state.choose_order) else 0
        before = name(state, seat)
        state.change(p, nation=nat, receptions=p.receptions - pay + extra_receptions(state, nat))
        state.nations_left = [n for n in state.nations_left if n != nat]
        state.queue.pop(0)
        events.append(
            Event(kind="choose", text=f"{before} takes {nations()[nat].name}, losing {counted(pay, 'Reception')}.")
        )
    elif kind is A.Commit:
        action = cast(A.Commit, action)
        d = next((d for d in supply(state, seat) if d.value == action.delegate), None)
        if d is None:
            raise IllegalAction(f"You have no Delegate of Influence {action.delegate} in your supply.")
        d = state.change(d, place="committed")
        state.queue.remove(seat)
        events.append(Event(kind="commit", text=f"{name(state, seat)} has committed a Delegate."))
        events.append(Event(kind="commit", text=f"You committed your {d.value}.", audience=seat))
    elif kind is A.Pass:
        if stage == "activate":
            treaty, state.treaty_queue = state.treaty_queue[0], state.treaty_queue[1:]
            events.append(
                Event(kind="pass", text=f"{name(state, seat)} does not activate {card(treaty).name}.")
            )
            treaties.queue_next_treaty(state)
        else:
            events.append(Event(kind="pass", text=f"{name(state, seat)} passes."))
            state.queue.pop(0)
    elif kind is A.Keep:
        action = cast(A.Keep, action)
        recovery.keep(state, seat, action.treaties, action.aids, events)
        state.queue.pop(0)
    advance(state, events, rng)
    return events


# The slash command that gives each action (where its name differs) and each stage's phase.
COMMAND_OF = {"spend": "receptions"}
PHASE_OF = {
    "bid": "Auction", "choose": "Auction", "commit": "Hierarchy", "tiebreak": "Hierarchy", "sign": "Hierarchy",
    "receptions": "Hierarchy", "favour": "Assignments", "assign": "Assignments", "plot": "Plot",
    "move": "Chancellery", "minister": "Chancellery", "activate": "Congress", "keep": "Recovery",
}  # fmt: skip

EXPECTS: dict[str, tuple[type[A.Action], ...]] = {
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

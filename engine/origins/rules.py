"""play(): the rules of Origins of World War I, and the turn flow between phases (§6)."""

from __future__ import annotations

import random
from typing import Any

from engine.core import Event, IllegalAction, roll

from . import attacks, bidding, content, placement, scoring
from .actions import Attack, Bid, Done, Pass, Place, Ready, Remove, Submit, WriteSheet
from .state import OriginsState, Sheet


def play(state: OriginsState, seat: str, action: Any, rng: random.Random) -> list[Event]:
    """Apply one action: a branch per kind of action, each checking whose turn it is and
    handing the work to its phase's module (bidding, placement, attacks); long because the
    checks of every phase read together here."""
    names = content.names()
    if isinstance(action, Bid | Pass):
        if state.phase != "bidding" or state.bidder != seat:
            raise IllegalAction("It is not your turn to bid.")
        if isinstance(action, Pass):
            return bidding.pass_(state, seat)
        return bidding.bid(state, seat, action.payer, action.card, action.position, action.amount)

    if isinstance(action, Place | Remove | WriteSheet | Submit):
        if state.phase != "placement":
            raise IllegalAction("Placement sheets are written in Phase 4 only.")
        if seat in state.submitted:
            raise IllegalAction("Your sheets are already handed in for this turn.")
        if isinstance(action, Submit):
            return _submit(state, seat, action, rng)
        country = _own(state, seat, action.country)
        draft = state.drafts.get(country, Sheet()).model_copy(deep=True)
        if isinstance(action, WriteSheet):
            draft = placement.parse_sheet(action.text)
        else:
            where = placement.embassy_code(action.embassy)
            target = draft.place if isinstance(action, Place) else draft.remove
            if action.amount:
                target[where] = action.amount
            else:
                target.pop(where, None)
        placement.check_sheet(state, country, draft)
        state.drafts[country] = draft
        line = placement.sheet_line(draft)
        note = placement.unplaced_note(state, country, draft)
        text = f"Your sheet for {names[country]}: {line}" + (f"\n{note}" if note else "")
        return [Event(kind="draft", text=text, audience=seat)]

    if isinstance(action, Attack | Done):
        if state.phase != "attacks" or state.holders[state.order[state.attacker]] != seat:
            raise IllegalAction("It is not your turn to attack.")
        country = state.order[state.attacker]
        if isinstance(action, Done):
            events = [Event(kind="done", text=f"{names[country]} makes no more attacks.")]
            state.attacks_made = attacks.allowed(state)
        else:
            embassy = placement.embassy_code(action.embassy)
            split = {placement.embassy_code(t): n for t, n in action.split.items()}
            if len(split) < len(action.split):
                raise IllegalAction(
                    "A country is named twice; attacks in one embassy go to different countries."
                )
            attacks.check(state, country, embassy, split)
            events = attacks.resolve(state, country, embassy, split, rng)
            state.treaties = scoring.treaty_rights(state)
        return events + _next_attacker(state, rng)

    if isinstance(action, Ready):
        if state.phase != "diplomacy":
            raise IllegalAction("There is no diplomacy phase now.")
        if seat in state.ready:
            raise IllegalAction("You are already ready.")
        state.ready.append(seat)
        verb = "are" if len(state.countries_of(seat)) > 1 else "is"
        events = [Event(kind="ready", text=f"{_label(state, seat)} {verb} ready.")]
        if len(state.ready) == len(state.seats):
            state.turn += 1
            events += begin_turn(state, rng)
        return events

    raise IllegalAction("That order is not one of this game's.")


def _label(state: OriginsState, seat: str) -> str:
    names = content.names()
    return " & ".join(names[c] for c in state.countries_of(seat))


def _own(state: OriginsState, seat: str, country: str) -> str:
    code = placement.embassy_code(country)
    if code not in state.countries_of(seat):
        raise IllegalAction(f"You do not hold {content.names()[code]}.")
    return code


def _submit(state: OriginsState, seat: str, action: Submit, rng: random.Random) -> list[Event]:
    mine = state.countries_of(seat)
    if action.sheets is not None:
        for country in action.sheets:
            _own(state, seat, country)
        for country in mine:
            sheet = action.sheets.get(country, Sheet())
            placement.check_sheet(state, country, sheet)
            state.drafts[country] = sheet
    state.submitted.append(seat)
    verb = "have handed in their sheets" if len(mine) > 1 else "has handed in its sheet"
    events = [Event(kind="submitted", text=f"{_label(state, seat)} {verb}.")]
    if len(state.submitted) < len(state.seats):
        return events
    # Everything from here on follows from the sheets just revealed.
    after = [placement.reveal(state)]
    state.treaties = scoring.treaty_rights(state)
    after += _start_attacks(state, rng)
    for event in after:
        event.reveals = True
    return events + after


def _start_attacks(state: OriginsState, rng: random.Random) -> list[Event]:
    state.phase = "attacks"
    state.attacker = -1
    return _next_attacker(state, rng)


def _next_attacker(state: OriginsState, rng: random.Random) -> list[Event]:
    """Move down the cards to the next country that can still attack (Phase 5)."""
    country = state.order[state.attacker] if state.attacker >= 0 else None
    if country is not None and attacks.attack_embassies(state, country):
        return []
    skipped: list[Event] = []
    while True:
        state.attacker += 1
        state.attacks_made = 0
        state.embassies_used = []
        if state.attacker >= len(state.order):
            return skipped + end_turn(state, rng)
        country = state.order[state.attacker]
        if attacks.attack_embassies(state, country):
            return skipped
        if attacks.only_own(state, country):
            skipped.append(
                Event(
                    kind="no_attack",
                    text=f"{content.names()[country]} shares embassies only with its own player's "
                    "countries: no attack this turn.",
                )
            )


def begin_turn(state: OriginsState, rng: random.Random) -> list[Event]:
    """Phases 1-3 of a turn: income, the end roll, the attack order and its bidding."""
    turn = content.board().turns[state.turn]
    powers = content.powers()
    events = [Event(kind="turn", text=f"**{turn.label}**", data={"turn": state.turn})]
    for country in state.holders:
        state.unplaced[country] = powers[country].income
        state.book(country, income=powers[country].income)
    state.end_roll = None
    if turn.end_on >= 6:
        state.last_turn = True
        events.append(Event(kind="last_turn", text="The game ends after this turn."))
    elif turn.end_on:
        state.end_roll = roll(rng)[0]
        state.last_turn = state.end_roll <= turn.end_on
        verdict = "this is the last turn" if state.last_turn else "the game goes on"
        events.append(
            Event(
                kind="end_roll",
                text=f"Game end roll: {state.end_roll} (1-{turn.end_on} ends the game): {verdict}.",
                data={"roll": state.end_roll, "last_turn": state.last_turn},
            )
        )
    state.order = list(state.holders)
    rng.shuffle(state.order)
    names = content.names()
    events.append(
        Event(
            kind="cards",
            text="Country cards: " + ", ".join(names[c] for c in state.order) + ". Bidding opens.",
            data={"order": list(state.order)},
        )
    )
    return events + bidding.start(state)


def end_turn(state: OriginsState, rng: random.Random) -> list[Event]:
    """After the attacks: final scoring, Phase 6, or the next turn."""
    turn = content.board().turns[state.turn]
    parts = scoring.country_breakdown(state)
    vps = {c: sum(n for _, n in p) for c, p in parts.items()}
    summary = _vp_summary(state, parts)
    if state.last_turn:
        state.final, state.final_parts = vps, parts
        state.provisional, state.provisional_parts, state.provisional_when = vps, parts, turn.label
        state.phase = "over"
        return [Event(kind="final", text=f"Final victory points, {turn.label}:\n{summary}", data={"vps": vps})]
    if turn.scoring:
        state.provisional, state.provisional_parts, state.provisional_when = vps, parts, turn.label
        state.phase = "diplomacy"
        state.ready = []
        text = f"Provisional victory points, {turn.label}:\n{summary}"
        return [Event(kind="provisional", text=text, data={"vps": vps})]
    state.turn += 1
    return begin_turn(state, rng)


def _vp_summary(state: OriginsState, parts: dict[str, list[tuple[str, int]]]) -> str:
    """Each player's VPs, one line each, with every country's objectives and any doubling."""
    vps = {c: sum(n for _, n in p) for c, p in parts.items()}
    totals = scoring.seat_scores(state, vps)
    return "\n".join(
        f"{_label(state, s)}: {totals[s]} = {scoring.seat_detail(state, s, parts)}" for s in state.seats
    )

"""At service level: decisions with no real choice are taken at once."""

from __future__ import annotations

import pytest

import tests.tinygame
from bot.discord.markup import markup
from bot.service.tables import TableError, TableService
from engine.core import Forced, StandingOrder
from tests.tinygame import Yield

from .conftest import ALICE, BOB, CHANNEL, seated


def _no_choice_in_the_press(monkeypatch):
    """The round's first seat may only yield in this variant (a forced decision)."""

    def forced(state, seat):
        return (
            Forced(Yield(), "Envoy must yield: there is nothing to press.")
            if state.phase == "press"
            else None
        )

    monkeypatch.setattr(tests.tinygame.GAME, "forced_action", forced)


async def test_a_decision_with_no_real_choice_is_taken_at_once_and_said_once(service, monkeypatch):
    _no_choice_in_the_press(monkeypatch)
    await seated(service, "alice", "bob")
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    out = await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    said = [markup(p.text) for p in out.posts if p.to == "channel" and "must yield" in markup(p.text)]
    assert said == ["Envoy must yield: there is nothing to press."]
    # nobody was told it was their turn to press: the diplomacy notices only
    assert not [p for p in out.posts if p.kind == "prompt" and "Press" in markup(p.text)]
    actions = await service.store.get_actions(CHANNEL)
    assert actions[-1].action == '{"kind":"yield"}' and actions[-1].user_id is None
    status = markup(await service.status(CHANNEL))
    assert "ready" in status.lower() or "diplomacy" in status.lower()


async def test_without_the_hook_the_player_is_asked(service):
    await seated(service, "alice", "bob")
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    out = await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    assert [p for p in out.posts if p.kind == "prompt" and "Press" in markup(p.text)]
    assert (await service.store.get_actions(CHANNEL))[-1].action == '{"kind":"commit","value":2}'


def _standing_yield(monkeypatch):
    """Envoys with one standing order: 'yield' in this round's press."""
    game = tests.tinygame.GAME
    monkeypatch.setattr(game, "standing_orders", (StandingOrder("yield", "yield in this round's press"),))
    monkeypatch.setattr(
        game,
        "standing_scope",
        lambda state, seat, order: f"round {state.round}" if order == "yield" else None,
    )
    monkeypatch.setattr(
        game, "standing_action", lambda state, seat, order: Yield() if state.phase == "press" else None
    )


async def test_a_standing_order_is_private_survives_a_restart_and_is_applied_when_its_prompt_comes(
    service, store, clock, monkeypatch
):
    _standing_yield(monkeypatch)
    await seated(service, "alice", "bob")
    out = await service.controls.standing(CHANNEL, ALICE, "yield")
    assert "only you see it" in out.reply and not [p for p in out.posts if p.to == "channel"]
    listed = (await service.controls.standing(CHANNEL, ALICE)).reply
    assert "Your standing orders: yield in this round's press." in listed
    assert "Your standing orders: none." in (await service.controls.standing(CHANNEL, BOB)).reply
    restarted = TableService(store, clock=clock)  # the order is stored with the table
    await restarted.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    out = await restarted.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    mine = [
        markup(p.text)
        for p in out.posts
        if p.to == "seat" and p.user_id == ALICE and "standing order" in markup(p.text)
    ]
    assert mine == ["Your standing order was applied: yield in this round's press."]
    assert not [p for p in out.posts if p.kind == "prompt" and "Press" in markup(p.text)]
    actions = await store.get_actions(CHANNEL)
    assert actions[-1].action == '{"kind":"yield"}' and actions[-1].user_id == ALICE


async def test_a_standing_order_can_be_withdrawn_and_lapses_with_its_round(service, monkeypatch):
    _standing_yield(monkeypatch)
    await seated(service, "alice", "bob")
    await service.controls.standing(CHANNEL, ALICE, "yield")
    assert (await service.controls.standing(CHANNEL, ALICE, "yield", withdraw=True)).reply.startswith("Withdrawn")
    with pytest.raises(TableError, match="no standing order"):
        await service.controls.standing(CHANNEL, ALICE, "yield", withdraw=True)
    with pytest.raises(TableError, match="no standing order 'surrender'"):
        await service.controls.standing(CHANNEL, ALICE, "surrender")
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    out = await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    # asked: it was withdrawn
    assert [p for p in out.posts if p.kind == "prompt" and "Press" in markup(p.text)]
    await service.controls.standing(CHANNEL, ALICE, "yield")  # for round 1, whose press is now
    actions = await service.store.get_actions(CHANNEL)
    assert actions[-1].action == '{"kind":"yield"}'  # applied at once: the decision was already owed
    for uid in (ALICE, BOB):
        await service.act(CHANNEL, uid, {"kind": "ready"})
    assert "Your standing orders: none." in (await service.controls.standing(CHANNEL, ALICE)).reply  # lapsed


async def test_each_kind_of_step_has_its_own_deadline(service, clock):
    await seated(service, "alice", "bob")
    await service.settings(CHANNEL, ALICE, {"single_hours": "2", "simultaneous_hours": "30"})
    # the commit phase was opened at the start (24 h); the next ones take the new lengths
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    (press,) = await service.store.get_deadlines(CHANNEL)
    assert press.due_at - clock.now == 2 * 3600  # a single-player step
    await service.act(CHANNEL, ALICE, {"kind": "press"})
    (diplomacy,) = await service.store.get_deadlines(CHANNEL)
    assert diplomacy.due_at - clock.now == 1440 * 60  # diplomacy keeps diplomacy_minutes
    for uid in (ALICE, BOB):
        await service.act(CHANNEL, uid, {"kind": "ready"})
    (commit,) = await service.store.get_deadlines(CHANNEL)
    assert commit.due_at - clock.now == 30 * 3600  # simultaneous orders
    out = await service.settings(CHANNEL, ALICE, {"single_hours": "none"})
    assert "single_hours: as phase_hours" in (await service.settings(CHANNEL, ALICE, {})).reply
    assert out is not None


async def test_during_a_live_session_a_single_player_step_is_short_and_pinged(service, clock):
    # the clock starts at 2027-01-15 08:00 UTC, a Friday: a session from 08:00 for 2 hours
    await seated(service, "alice", "bob")
    with pytest.raises(TableError, match="Only the host"):
        await service.sessions.session(CHANNEL, BOB, "Friday", "08:00", 2, "UTC")
    reply, upcoming = await service.sessions.session(CHANNEL, ALICE, "Friday", "08:00", 2, "UTC")
    assert reply.startswith("Live session added: Fridays at 08:00 (UTC) for 2 h.")
    assert len(upcoming) == 4 and upcoming[0][1] <= clock.now < upcoming[0][2]
    assert [b - a for (_, a, _), (_, b, _) in zip(upcoming, upcoming[1:], strict=False)] == [7 * 86400] * 3
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    out = await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    (press,) = await service.store.get_deadlines(CHANNEL)
    assert press.due_at - clock.now == 15 * 60  # session_minutes
    pings = [p for p in out.posts if p.kind == "ping"]
    assert [(p.to, p.user_id) for p in pings] == [("channel", ALICE)]
    # after the session: the usual deadline, no ping
    await service.act(CHANNEL, ALICE, {"kind": "press"})
    for uid in (ALICE, BOB):
        await service.act(CHANNEL, uid, {"kind": "ready"})
    clock.advance(3 * 3600)
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    out = await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    (press,) = await service.store.get_deadlines(CHANNEL)
    assert press.due_at - clock.now == 24 * 3600 and not [p for p in out.posts if p.kind == "ping"]
    listed, _ = await service.sessions.session(CHANNEL, BOB)
    assert "Fridays at 08:00 (UTC) for 2 h" in listed
    removed, _ = await service.sessions.session(CHANNEL, ALICE, "fri", "8:00", remove=True)
    assert removed.startswith("Removed") and (await service.sessions.session(CHANNEL, BOB))[0].startswith("No live")


async def test_an_origins_sheet_written_before_phase_4_becomes_the_draft_once(service):
    await service.lobby.create(CHANNEL, 9, "origins", 1, "p1")
    for uid in range(2, 6):
        await service.lobby.join(CHANNEL, uid, f"p{uid}")
    await service.lobby.start(CHANNEL, 1, seed=5)
    t = await service.load(CHANNEL)
    me = t.seat_of(1).seat
    country = t.state.countries_of(me)[0]
    out = await service.controls.standing(CHANNEL, 1, "sheet SER 2")
    assert "only you see it" in out.reply and "SER 2" in out.reply
    await service.controls.standing(CHANNEL, 2, "sheet SER 9")  # more than 5 a turn: refused when applied
    told = []
    for _ in range(40):  # everyone passes: Phase 3 ends and Phase 4 begins
        t = await service.load(CHANNEL)
        if t.state.phase != "bidding":
            break
        seat = t.prompts[0].seat
        out = await service.act(CHANNEL, t.holder(seat).user_id, {"kind": "pass"})
        told += [
            markup(p.text) for p in out.posts if p.user_id == 2 and "could not be applied" in markup(p.text)
        ]
    assert len(told) == 1 and told[0].endswith("it is withdrawn.")
    assert (await service.table_info(CHANNEL)).status == "running"
    t = await service.load(CHANNEL)
    assert t.state.phase == "placement"
    assert t.state.drafts[country].place == {"SER": 2}  # the draft; still to hand in
    assert any(p.seat == me for p in t.prompts)
    assert "Your standing orders: none." in (await service.controls.standing(CHANNEL, 1)).reply  # used once


async def _origins_table(service, players: int = 5, seed: int = 5):
    await service.lobby.create(CHANNEL, 9, "origins", 1, "p1")
    for uid in range(2, players + 1):
        await service.lobby.join(CHANNEL, uid, f"p{uid}")
    await service.lobby.start(CHANNEL, 1, seed=seed)
    return await service.load(CHANNEL)


async def test_an_origins_sheet_left_with_hand_in_is_handed_in_the_moment_phase_4_begins(service):
    t = await _origins_table(service)
    me, other = t.seat_of(1).seat, t.seat_of(2).seat
    # hand_in given before the sheet: the sheet is still written first, then handed in
    await service.controls.standing(CHANNEL, 1, "hand_in")
    await service.controls.standing(CHANNEL, 1, "sheet SER 2")
    out = await service.controls.standing(CHANNEL, 2, "hand_in FE 3")
    assert "hand in my sheets the moment Phase 4 begins" in out.reply and "FE 3" in out.reply
    for _ in range(40):  # everyone passes: Phase 3 ends and Phase 4 begins
        t = await service.load(CHANNEL)
        if t.state.phase != "bidding":
            break
        await service.act(CHANNEL, t.holder(t.prompts[0].seat).user_id, {"kind": "pass"})
    t = await service.load(CHANNEL)
    assert t.state.phase == "placement"
    assert {me, other} <= set(t.state.submitted)
    assert t.state.drafts[t.state.countries_of(me)[0]].place == {"SER": 2}
    assert t.state.drafts[t.state.countries_of(other)[0]].place == {"FE": 3}
    assert not any(p.seat in (me, other) for p in t.prompts)  # neither is asked
    public = [a.action for a in await service.store.get_actions(CHANNEL)]
    assert sum('"kind":"submit"' in a for a in public) == 2


async def test_pass_unless_a_card_moves_is_applied_at_the_turn_and_lapses_when_the_card_moves(service):
    t = await _origins_table(service)
    order = list(t.state.order)
    first = t.prompts[0].seat
    seats = t.state.seats
    third = seats[(seats.index(first) + 2) % len(seats)]
    uid = t.holder(third).user_id
    out = await service.controls.standing(CHANNEL, uid, f"pass_unless {order[-1]}")
    assert "unless one of these cards changes its place" in out.reply
    # the first bidder moves the second card to the top: the bottom card stays where it is
    first_uid = t.holder(first).user_id
    country = t.state.countries_of(first)[0]
    bid = {"kind": "bid", "payer": country, "card": order[1], "position": 1, "amount": 1}
    await service.act(CHANNEL, first_uid, bid)
    t = await service.load(CHANNEL)
    out = await service.act(CHANNEL, t.holder(t.prompts[0].seat).user_id, {"kind": "pass"})
    applied = [
        markup(p.text)
        for p in out.posts
        if p.user_id == uid and "standing order was applied" in markup(p.text)
    ]
    assert len(applied) == 1 and "unless one of these cards changes its place" in applied[0]
    t = await service.load(CHANNEL)
    assert t.state.bidder != third
    # next round of the same turn: a bid moves the watched card, so the order no longer holds
    assert (await service.controls.standing(CHANNEL, uid)).reply.startswith("Your standing orders: pass in")
    mover = t.prompts[0].seat
    pay = t.state.countries_of(mover)[0]
    await service.act(
        CHANNEL,
        t.holder(mover).user_id,
        {"kind": "bid", "payer": pay, "card": order[-1], "position": 1, "amount": t.state.high_bid + 1},
    )
    assert "Your standing orders: none." in (await service.controls.standing(CHANNEL, uid)).reply


async def test_between_sessions_a_single_player_step_can_wait_for_the_next_session(service, clock):
    # the clock starts at 2027-01-15 08:00 UTC, a Friday; the session is on Saturdays at 18:00
    await seated(service, "alice", "bob")
    await service.sessions.session(CHANNEL, ALICE, "Saturday", "18:00", 2, "UTC")
    saturday = clock.now + 34 * 3600
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    (press,) = await service.store.get_deadlines(CHANNEL)
    assert press.due_at - clock.now == 24 * 3600  # by default it goes on between sessions
    await service.act(CHANNEL, ALICE, {"kind": "press"})
    for uid in (ALICE, BOB):
        await service.act(CHANNEL, uid, {"kind": "ready"})
    out = await service.settings(CHANNEL, ALICE, {"between_sessions": "wait"})
    assert out is not None
    assert "between_sessions: wait" in (await service.settings(CHANNEL, ALICE, {})).reply
    with pytest.raises(TableError, match="between_sessions must be continue"):
        await service.settings(CHANNEL, ALICE, {"between_sessions": "sometimes"})
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    (press,) = await service.store.get_deadlines(CHANNEL)
    assert press.due_at == saturday + 15 * 60  # session_minutes into the next session
    # the commits, orders given together, keep their usual length between sessions
    await service.act(CHANNEL, BOB, {"kind": "press"})
    for uid in (ALICE, BOB):
        await service.act(CHANNEL, uid, {"kind": "ready"})
    (commit,) = await service.store.get_deadlines(CHANNEL)
    assert commit.due_at - clock.now == 24 * 3600

"""At service level: pause and resume, substitutes, automatic seats, undo, talks."""

from __future__ import annotations

import pytest

from bot.discord.markup import markup, typed_member
from bot.service.tables import TableError, TableService
from tests.tinygame import Envoys

from .conftest import ALICE, BOB, CAROL, CHANNEL, seated

HOUR = 3600.0
DAVE = 4


async def _due(service: TableService) -> float:
    return min(d.due_at for d in await service.store.get_deadlines(CHANNEL))


# -- pause and resume ------------------------------------------------------------------------


async def test_pause_freezes_the_deadline_and_resume_gives_back_exactly_the_time_left(service, clock):
    await seated(service, "alice", "bob")
    clock.advance(10 * HOUR)
    out = await service.controls.pause(CHANNEL, ALICE)
    assert (await service.table_info(CHANNEL)).status == "paused"
    told = {(p.user_id, p.dm) for p in out.posts if p.to == "seat" and p.kind == "notice"}
    assert told == {(ALICE, True), (BOB, True)}  # everyone seated, privately
    assert any(p.to == "channel" and "paused" in p.text for p in out.posts)
    assert await service.deadlines.next_wakeup() is None  # a paused table's deadlines do not run
    clock.advance(30 * HOUR)  # long past the old deadline
    assert await service.deadlines.tick() == []
    out = await service.controls.resume(CHANNEL, ALICE)
    assert {p.user_id for p in out.posts if p.to == "seat"} == {ALICE, BOB}
    assert await _due(service) == pytest.approx(clock.now + 14 * HOUR)
    assert await service.deadlines.next_wakeup() == pytest.approx(clock.now + 2 * HOUR)  # the 12 h reminder


async def test_a_majority_of_seated_players_pauses_and_resumes(service):
    await seated(service, "alice", "bob", "carol")
    out = await service.controls.pause(CHANNEL, BOB)
    assert "1 more needed" in out.reply and (await service.table_info(CHANNEL)).status == "running"
    again = await service.controls.pause(CHANNEL, BOB)  # voting twice counts once
    assert "1 more needed" in again.reply
    await service.controls.pause(CHANNEL, CAROL)
    assert (await service.table_info(CHANNEL)).status == "paused"
    with pytest.raises(TableError, match="already paused"):
        await service.controls.pause(CHANNEL, ALICE)
    await service.controls.resume(CHANNEL, CAROL)
    assert (await service.table_info(CHANNEL)).status == "paused"
    await service.controls.resume(CHANNEL, BOB)
    assert (await service.table_info(CHANNEL)).status == "running"


async def test_a_stranger_cannot_pause_but_a_manager_can(service):
    await seated(service, "alice", "bob")
    with pytest.raises(TableError, match="Only the host"):
        await service.controls.pause(CHANNEL, 99)
    await service.controls.pause(CHANNEL, 99, admin=True)
    assert (await service.table_info(CHANNEL)).status == "paused"


# -- substitutes -----------------------------------------------------------------------------


@pytest.mark.whole_game
async def test_a_substitute_is_briefed_privately_and_the_history_records_who_played_when(service):
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, BOB, "commit", {"value": "3"})
    with pytest.raises(TableError, match="Only the host"):
        await service.controls.substitute(CHANNEL, BOB, "bob", DAVE, "dave")
    out = await service.controls.substitute(CHANNEL, ALICE, "bob", DAVE, "dave")  # by the holder's name
    (briefing,) = [p for p in out.posts if p.kind == "briefing"]
    assert briefing.to == "seat" and briefing.user_id == DAVE and briefing.dm
    assert "Your commit: 3" in markup(briefing.text)  # bob's secret commit, to his successor only
    assert "You owe nothing right now." in markup(briefing.text)
    assert not any("commit: 3" in markup(p.text) for p in out.public())
    info = await service.table_info(CHANNEL)
    assert [(s.seat, s.name) for s in info.seats] == [("s1", "alice"), ("s2", "dave")]
    history = await service.store.get_seat_history(CHANNEL)
    assert [(h.seat, h.name, h.from_step, h.reason) for h in history] == [
        ("s1", "alice", 0, "start"),
        ("s2", "bob", 0, "start"),
        ("s2", "dave", 1, "substitute"),
    ]
    with pytest.raises(TableError, match="not seated"):
        await service.command(CHANNEL, BOB, "commit", {"value": "1"})
    with pytest.raises(TableError, match="already holds a seat"):
        await service.controls.substitute(CHANNEL, ALICE, "s1", DAVE, "dave")
    with pytest.raises(TableError, match="Which seat"):
        await service.controls.substitute(CHANNEL, ALICE, "nobody", 5, "eve")


async def test_a_player_asks_for_a_substitute_and_the_host_is_told(service):
    await seated(service, "alice", "bob")
    out = await service.controls.request_substitute(CHANNEL, BOB)
    assert any(
        p.to == "seat" and p.user_id == ALICE and "bob asks to be replaced" in p.text for p in out.posts
    )
    with pytest.raises(TableError, match="not seated"):
        await service.controls.request_substitute(CHANNEL, 99)


# -- automatic seats -------------------------------------------------------------------------


async def test_automatic_seats_fill_the_table_and_play_without_posting_private_lines(service):
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    out = await service.controls.set_automatic(CHANNEL, ALICE, None, True)
    assert "Automatic 1" in out.reply
    with pytest.raises(TableError, match="Only the host"):
        await service.controls.set_automatic(CHANNEL, BOB, None, True)
    out = await service.lobby.start(CHANNEL, ALICE, seed=5)
    info = await service.table_info(CHANNEL)
    auto = next(s for s in info.seats if s.automatic)
    assert auto.user_id < 0
    # the automatic seat committed at once; only alice is asked
    assert {p.user_id for p in out.posts if p.to == "seat"} == {ALICE}
    assert any(p.seat == auto.seat for p in (await service.store.get_actions(CHANNEL)))
    for _ in range(40):
        if (await service.table_info(CHANNEL)).status != "running":
            break
        owing = [p for p in (await service.load(CHANNEL)).prompts if p.seat != auto.seat]
        if owing:
            out = await service.act(
                CHANNEL, ALICE, Envoys().default_action((await service.load(CHANNEL)).state, owing[0].seat)
            )
            assert not any(p.to == "seat" and p.seat == auto.seat for p in out.posts)
    assert (await service.table_info(CHANNEL)).status == "finished"


async def test_the_host_hands_a_seat_to_automatic_play_and_a_substitute_takes_it_back(service):
    await seated(service, "alice", "bob")
    out = await service.controls.set_automatic(CHANNEL, ALICE, "bob", True)
    # bob's seat owed a commit: it is played at once
    actions = await service.store.get_actions(CHANNEL)
    assert [a.seat for a in actions] == ["s2"]
    assert not any(p.to == "seat" and p.seat == "s2" for p in out.posts)
    assert "bob (automatic)" in markup(await service.status(CHANNEL))
    with pytest.raises(TableError, match="already played automatically"):
        await service.controls.set_automatic(CHANNEL, ALICE, "s2", True)
    out = await service.controls.set_automatic(CHANNEL, ALICE, "s2", False)
    assert "bob plays" in out.reply
    await service.controls.set_automatic(CHANNEL, ALICE, "s2", True)
    await service.controls.substitute(CHANNEL, ALICE, "s2", DAVE, "dave")
    info = await service.table_info(CHANNEL)
    assert [(s.name, s.automatic) for s in info.seats] == [("alice", False), ("dave", False)]


async def test_on_expiry_autopilot_hands_the_late_seat_to_automatic_play(service, clock):
    await seated(service, "alice", "bob")
    await service.settings(CHANNEL, ALICE, {"on_expiry": "autopilot"})
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    clock.advance(25 * HOUR)
    (out,) = await service.deadlines.tick()
    assert any("automatic play takes over" in p.text for p in out.posts)
    info = await service.table_info(CHANNEL)
    assert [(s.name, s.automatic) for s in info.seats] == [("alice", False), ("bob", True)]
    assert (await service.store.get_actions(CHANNEL))[-1].seat == "s2"


# -- undo ------------------------------------------------------------------------------------


async def test_undo_takes_back_an_action_that_revealed_nothing(service):
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    with pytest.raises(TableError, match="Only the host"):
        await service.controls.undo(CHANNEL, BOB)
    out = await service.controls.undo(CHANNEL, ALICE)
    assert any("took back alice" in p.text for p in out.public())
    assert await service.store.get_actions(CHANNEL) == []
    assert await service.store.count_events(CHANNEL, public_only=False) == 0
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})  # alice owes her commit again
    await service.controls.undo(CHANNEL, ALICE)
    with pytest.raises(TableError, match="nothing to undo"):
        await service.controls.undo(CHANNEL, ALICE)


async def test_undo_is_refused_after_the_die_roll(service):
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    await service.command(CHANNEL, BOB, "commit", {"value": "3"})  # reveals the commits, rolls the die
    with pytest.raises(TableError, match="used chance"):
        await service.controls.undo(CHANNEL, ALICE)
    assert len(await service.store.get_actions(CHANNEL)) == 2


# -- talks -----------------------------------------------------------------------------------


async def test_talk_names_seated_players_by_name_mention_or_nation(service):
    await seated(service, "alice", "bob", "carol")
    mentioned = typed_member(f"<@{CAROL}>")  # as the Discord adapter passes a member picked or typed
    assert await service.controls.talk(CHANNEL, ALICE, ["bob", mentioned]) == [ALICE, BOB, CAROL]
    assert await service.controls.talk(CHANNEL, BOB, ["s1"]) == [BOB, ALICE]  # the tiny game's labels are its seat ids
    with pytest.raises(TableError, match="not seated"):
        await service.controls.talk(CHANNEL, 99, ["bob"])
    with pytest.raises(TableError, match="No seated player"):
        await service.controls.talk(CHANNEL, ALICE, ["zed"])
    with pytest.raises(TableError, match="at least one other"):
        await service.controls.talk(CHANNEL, ALICE, ["alice"])


async def test_a_seat_made_automatic_while_paused_plays_when_the_game_resumes(service):
    await seated(service, "alice", "bob")
    await service.controls.pause(CHANNEL, ALICE)
    await service.controls.set_automatic(CHANNEL, ALICE, "bob", True)
    assert await service.store.get_actions(CHANNEL) == []  # nothing moves while paused
    await service.controls.resume(CHANNEL, ALICE)
    assert [a.seat for a in await service.store.get_actions(CHANNEL)] == ["s2"]


async def test_undo_takes_back_the_automatic_moves_that_answered_the_last_action(service):
    await seated(service, "alice", "bob")
    await service.controls.set_automatic(CHANNEL, ALICE, "bob", True)  # bob commits at once
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})  # the last commit rolls the die
    with pytest.raises(TableError, match="used chance"):
        await service.controls.undo(CHANNEL, ALICE)
    t = await service.load(CHANNEL)
    first = t.prompts[0]
    assert (first.kind, first.seat) == ("press", "s1")  # round 1's first seat, alice, presses or yields
    before = t.state
    await service.command(CHANNEL, ALICE, "press", {})  # bob's automatic ready follows at once
    seats = [a.seat for a in await service.store.get_actions(CHANNEL)]
    assert seats[-2:] == ["s1", "s2"]
    out = await service.controls.undo(CHANNEL, ALICE)
    assert "and 1 automatic move after it" in out.posts[0].text
    assert (await service.load(CHANNEL)).state == before


class Broken(Envoys):
    """Envoys whose automatic player fails."""

    id = "broken"
    title = "Broken"

    def bot_action(self, state, seat, rng):
        raise RuntimeError("no idea")


async def test_a_failing_automatic_player_pauses_the_table_and_keeps_the_members_move(service, registry):
    registry.register(Broken())
    await service.lobby.create(CHANNEL, 9, "broken", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=7)
    await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    out = await service.controls.set_automatic(CHANNEL, ALICE, "alice", True)
    assert any("failed (an error in the game's program; the details are in the bot's log); the game is paused" in p.text for p in out.posts)
    assert not any("no idea" in p.text for p in out.posts)  # the exception's text may be secret
    assert (await service.table_info(CHANNEL)).status == "paused"
    assert [a.seat for a in await service.store.get_actions(CHANNEL)] == ["s2"]

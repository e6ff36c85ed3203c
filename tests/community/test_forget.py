"""`/community forget`: afterwards nothing the bot produces names the member, on both stores.

The world of every test: a finished game alice hosted with bob, a running one she hosts with
bob, and a lobby bob hosts that she joined. Alice forgets; then each output is read and must
not hold her name or her id, while it still names bob (so each check can fail).
"""

from __future__ import annotations

import json
from typing import Any

from bot.discord.markup import markup
from bot.render.text import escape
from bot.service.audience import EVERY_CHANNEL
from bot.service.community import FORMER_MEMBER
from bot.store import NoticeRow, OutboxRow
from bot.store.forgetting import spoken
from bot.store.front_rows import LiveNotice

from .conftest import GUILD, finish

ALICE, BOB = 7_000_000_001, 7_000_000_002  # ids no other number in an output could be
FINISHED, RUNNING, LOBBY, LOBBY_CHANNEL, ELSEWHERE = 301, 302, 303, 399, 398


async def _world(service) -> None:
    community = service.community
    await community.set_lobby(GUILD, LOBBY_CHANNEL)
    await finish(service, FINISHED, {ALICE: "alice", BOB: "bob"})
    await service.lobby.create(RUNNING, GUILD, "envoys", ALICE, "alice")
    await service.lobby.join(RUNNING, BOB, "bob")
    await service.lobby.start(RUNNING, ALICE, seed=5)
    service.clock.advance(60)
    await service.auto(RUNNING)  # one move each way, so the log has lines
    await service.lobby.create(LOBBY, GUILD, "envoys", BOB, "bob")
    await service.lobby.join(LOBBY, ALICE, "alice")


async def _forgotten(service) -> None:
    await _world(service)
    await service.community.forget(ALICE, confirm="me")


def _numbers(value: Any) -> set[int]:
    """Every whole number in a JSON value, keys included."""
    if isinstance(value, dict):
        return {n for k, v in value.items() for n in _numbers(v) | _numbers(k)}
    if isinstance(value, list):
        return {n for v in value for n in _numbers(v)}
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return {int(value)}
    return set()


def _names_bob_not_alice(text: str) -> None:
    assert "bob" in text
    assert "alice" not in text.casefold()
    assert str(ALICE) not in text


def _json_names_bob_not_alice(data: Any) -> None:
    _names_bob_not_alice(json.dumps(data))
    assert ALICE not in _numbers(data)


async def test_the_finished_game_s_export_names_bob_and_not_alice(service):
    await _world(service)
    assert "alice" in json.dumps(await service.history.export(FINISHED))  # the check can fail
    await service.community.forget(ALICE, confirm="me")
    data = await service.history.export(FINISHED)
    _json_names_bob_not_alice(data)
    assert FORMER_MEMBER in data["names"].values()


async def test_the_finished_game_s_replay_page_names_bob_and_not_alice(service):
    await _forgotten(service)
    page = (await service.history.export_html(FINISHED)).decode()
    _names_bob_not_alice(page)
    assert FORMER_MEMBER in page


async def test_the_published_history_names_nobody_forgotten(service):
    await _forgotten(service)
    out = await service.history.publish(FINISHED, BOB, admin=True)
    text = "\n".join(p.text for p in out.posts)
    assert "alice" not in text.casefold() and str(ALICE) not in text
    assert "full history" in text


async def test_the_archived_record_and_the_history_lines_name_bob_and_not_alice(service):
    await _forgotten(service)
    community = service.community
    listed = markup(await community.history(EVERY_CHANNEL, GUILD))
    _names_bob_not_alice(listed)
    assert FORMER_MEMBER in listed
    number = int(listed.split("**#")[1].split(" ")[0])
    text, record = await community.finished(EVERY_CHANNEL, GUILD, number)
    _names_bob_not_alice(markup(text))
    _json_names_bob_not_alice(record)


async def test_profiles_leaderboard_and_bob_s_data_name_bob_and_not_alice(service):
    await _forgotten(service)
    community = service.community
    board = markup(await community.leaderboard(EVERY_CHANNEL, GUILD, "envoys"))
    _names_bob_not_alice(board)
    bob = markup(await community.profile(EVERY_CHANNEL, GUILD, BOB, "bob"))
    _names_bob_not_alice(bob)
    assert "1 finished" in bob
    hers = markup(await community.profile(EVERY_CHANNEL, GUILD, ALICE, "someone"))
    assert "0 finished" in hers or "No finished" in hers  # no finished game is hers any more
    data = await community.mydata(BOB)
    assert data["finished_games"] and "alice" not in json.dumps(data) and ALICE not in _numbers(data)
    mine = await community.mydata(ALICE)
    assert mine["finished_games"] == [] and mine["ratings"] == []


async def test_the_running_table_shows_her_seat_as_a_former_member(service):
    await _forgotten(service)
    status = markup(await service.status(RUNNING))
    _names_bob_not_alice(status)
    assert FORMER_MEMBER in status
    info = await service.table_info(RUNNING)
    assert {s.name for s in info.seats} == {FORMER_MEMBER, "bob"}
    log = markup(await service.history.log(RUNNING))
    assert "alice" not in log.casefold() and "log, page 1" in log
    public = await service.history.export(RUNNING)  # the public record of a game in play
    _json_names_bob_not_alice(public)
    assert FORMER_MEMBER in public["names"].values()
    heading = (await service.load(RUNNING)).row.meta["summary"]["heading"]  # the round summary's
    _names_bob_not_alice(heading)
    assert FORMER_MEMBER in heading


async def test_the_round_summary_s_heading_named_her_before(service):
    await _world(service)
    assert "alice" in (await service.load(RUNNING)).row.meta["summary"]["heading"]


async def test_the_finished_table_s_status_and_log_name_bob_and_not_alice(service):
    await _forgotten(service)
    status = markup(await service.status(FINISHED))
    _names_bob_not_alice(status)
    log = markup(await service.history.log(FINISHED))
    assert "alice" not in log.casefold()


async def test_the_lobby_entry_and_the_directory_name_bob_and_not_alice(service):
    await _forgotten(service)
    community = service.community
    news = await community.lobby_news(LOBBY)
    _names_bob_not_alice(markup(news.text))
    directory = markup(await community.directory(EVERY_CHANNEL, GUILD))
    assert f"<#{LOBBY}>" in directory and f"<#{RUNNING}>" in directory
    assert "alice" not in directory.casefold() and str(ALICE) not in directory


async def test_a_game_she_keeps_playing_is_archived_without_her(service, store):
    await _forgotten(service)
    for _ in range(200):
        service.clock.advance(60)
        if await service.auto(RUNNING) is None:
            break
    assert (await service.table_info(RUNNING)).status == "finished"
    community = service.community
    listed = markup(await community.history(EVERY_CHANNEL, GUILD))
    assert listed.count(FORMER_MEMBER) == 2 and "alice" not in listed  # both games, neither names her
    _json_names_bob_not_alice(await service.history.export(RUNNING))
    assert "alice" not in (await service.history.export_html(RUNNING)).decode()
    games = await store.community.finished_games(GUILD)
    seats = await store.community.finished_seats([g.id for g in games])
    assert len(games) == 2 and ALICE not in {s.user_id for s in seats} and BOB in {s.user_id for s in seats}
    assert (await community.mydata(ALICE))["ratings"] == []
    _names_bob_not_alice(markup(await community.leaderboard(EVERY_CHANNEL, GUILD, "envoys")))


async def test_posts_and_turn_notices_waiting_to_be_said_no_longer_name_her(service, store):
    await _world(service)
    body = {"posts": [{"to": "channel", "text": "alice left the table; bob stays.", "kind": "notice"}]}
    await store.add_outbox([OutboxRow(1, ELSEWHERE, service.clock(), json.dumps(body), 0, 0.0)])
    notice = {"texts": ["Your turn: alice and bob wait for you."], "mention": None, "fallback": None}
    await service.deliveries.done([], [NoticeRow(RUNNING, BOB, service.clock() + 60, json.dumps(notice))])
    await service.community.forget(ALICE, confirm="me")
    waiting = await service.deliveries.due(everything=True)
    said = [p.text for w in waiting if w.channel_id == ELSEWHERE for _, out in w.parts for p in out.posts]
    assert said == [f"{FORMER_MEMBER} left the table; bob stays."]
    (kept,) = await service.deliveries.notices()
    assert json.loads(kept.body)["texts"] == [f"Your turn: {FORMER_MEMBER} and bob wait for you."]


async def test_her_turn_notices_sent_are_no_longer_kept_and_bob_s_no_longer_name_her(service, store):
    await _world(service)
    front = service.posts.front
    hers = LiveNotice(RUNNING, ALICE, 81, 82, "**Envoys**: alice, commit 1, 2 or 3.", "s1")
    await front.keep_notice(hers)
    await front.keep_notice(LiveNotice(RUNNING, BOB, 91, 92, "**Envoys**: alice and bob wait for you.", "s2"))
    assert [n.user_id for n in await front.notices(RUNNING)] == [ALICE, BOB]  # the check can fail
    await service.community.forget(ALICE, confirm="me")
    (kept,) = await front.notices(RUNNING)
    assert (kept.user_id, kept.message_id) == (BOB, 92)
    assert kept.text == f"**Envoys**: {FORMER_MEMBER} and bob wait for you."


async def test_a_name_inside_another_word_is_left_alone(service, store):
    await _world(service)
    body = {"posts": [{"to": "channel", "text": "malice and alice.", "kind": "notice"}]}
    await store.add_outbox([OutboxRow(1, ELSEWHERE, service.clock(), json.dumps(body), 0, 0.0)])
    await service.community.forget(ALICE, confirm="me")
    waiting = await service.deliveries.due(everything=True)
    said = [p.text for w in waiting if w.channel_id == ELSEWHERE for _, out in w.parts for p in out.posts]
    assert said == [f"malice and {FORMER_MEMBER}."]


def test_a_name_is_found_as_typed_and_as_discord_escaping_wrote_it():
    pattern = spoken(["al_ice*", "a former member"], FORMER_MEMBER)
    for text in ("al_ice* joined.", f"{escape('al_ice*')} joined."):
        assert pattern.sub(FORMER_MEMBER, text) == f"{FORMER_MEMBER} joined."
    assert pattern.sub(FORMER_MEMBER, "pal_ice* joined.") == "pal_ice* joined."
    assert spoken([FORMER_MEMBER], FORMER_MEMBER) is None  # nothing left to find

"""Sign-ups in the service, on each database: what a lobby table's entry reads through its
life, which watchers are told and when, abandoned games archived for profiles; and the
console's /community lobby, watch, unwatch and tables."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console.console import run_console
from bot.discord.markup import markup
from bot.service.community import EVERY_CHANNEL
from bot.service.tables import TableService
from bot.store import NotifyPrefs
from tests.community.conftest import ALICE, BOB, CAROL, GUILD
from tests.service.conftest import Clock

CHANNEL = 500
DAVE = 4


async def _shown(tables, channel: int = CHANNEL):
    """What the front end would do now, done: the entry kept as if posted as message 77."""
    community = tables.community
    news = await community.lobby_news(channel)
    if news is not None:
        await community.keep_entry(news, 77 if news.text else None)
    return news


async def test_an_entry_follows_its_table_from_creation_to_start(service):
    community = service.community
    await community.set_lobby(GUILD, 600)
    out = await service.lobby.create(CHANNEL, GUILD, "envoys", ALICE, "alice")
    assert out.lobby_changed
    news = await _shown(service)
    assert news.lobby_channel == 600 and news.previous is None
    assert await community.servers_with_tables() == [GUILD]
    text = markup(news.text)
    assert text.startswith("**Envoys (test game)**, hosted by alice: 1 of 4 seated (alice).")
    assert f"use /game join in <#{CHANNEL}>" in text and "https://" not in text  # "#name", tappable

    assert (await service.lobby.join(CHANNEL, BOB, "bob")).lobby_changed
    news = await _shown(service)
    assert "2 of 4 seated (alice, bob)" in markup(news.text) and news.previous.message_id == 77
    assert not news.must_remove()  # the same message is edited

    assert (await service.lobby.start(CHANNEL, ALICE, seed=7)).lobby_changed
    news = await _shown(service)
    assert news.text is None and news.must_remove()
    assert await service.store.community.get_lobby_entry(CHANNEL) is None  # forgotten once removed


async def test_abandoning_removes_the_entry_and_archives_a_started_game_only(service, store):
    community = service.community
    await community.set_lobby(GUILD, 600)
    await service.lobby.create(CHANNEL, GUILD, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await _shown(service)
    out = await service.abandon(CHANNEL, ALICE)
    assert out.lobby_changed
    assert (await _shown(service)).must_remove()
    assert await store.community.member_abandoned(GUILD, ALICE) == {}  # a lobby abandoned is no game

    await service.lobby.create(CHANNEL, GUILD, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=7)
    await service.abandon(CHANNEL, BOB, admin=True)
    await service.lobby.create(CHANNEL, GUILD, "envoys", CAROL, "carol")  # the row is replaced
    assert await store.community.member_abandoned(GUILD, ALICE) == {"envoys": 1}
    assert await store.community.member_abandoned(GUILD, BOB) == {"envoys": 1}
    profile = markup(await community.profile(EVERY_CHANNEL, GUILD, BOB, "bob"))
    assert "**Envoys (test game)**: 1 abandoned." in profile  # no count of nothing
    assert (await community.mydata(BOB))["abandoned_games"][0]["game"] == "envoys"
    await community.forget(BOB, confirm="me")
    assert await store.community.member_abandoned(GUILD, BOB) == {}


async def test_watchers_are_told_once_when_a_table_opens_and_never_the_seated(service, clock):
    community = service.community
    for uid in (ALICE, BOB, CAROL):
        await community.watch(GUILD, uid, "envoys", True)
    await community.watch(GUILD, CAROL, "envoys", False)
    await community.watch(GUILD, DAVE, "crisis1914", True)  # another game
    await service.lobby.create(CHANNEL, GUILD, "envoys", ALICE, "alice")  # no lobby channel here
    news = await _shown(service)
    assert news.text is None and news.tell == [BOB]
    notice = markup(news.notice())
    assert "A table of **Envoys (test game)** is open, hosted by alice" in notice
    assert "/community unwatch game:envoys" in notice
    await service.lobby.join(CHANNEL, BOB, "bob")
    assert (await _shown(service)).tell == []  # told already

    await service.lobby.leave(CHANNEL, BOB)
    await service.lobby.leave(CHANNEL, ALICE)  # the table closes (its front end was not told)
    clock.advance(60)
    await service.lobby.create(CHANNEL, GUILD, "envoys", ALICE, "alice")  # the channel's next table
    assert (await _shown(service)).tell == [BOB]


async def test_a_new_lobby_channel_moves_the_entry(service):
    community = service.community
    await community.set_lobby(GUILD, 600)
    await service.lobby.create(CHANNEL, GUILD, "envoys", ALICE, "alice")
    await _shown(service)
    await community.set_lobby(GUILD, 601)
    assert await community.open_lobbies(GUILD) == [CHANNEL]
    news = await _shown(service)
    assert news.lobby_channel == 601 and news.must_remove() and news.text
    await community.set_lobby(GUILD, None)
    news = await _shown(service)
    assert news.text is None and news.must_remove()


async def test_only_manage_server_sets_the_lobby_channel(service):
    community = service.community
    try:
        await community.set_lobby(GUILD, 600, admin=False)
    except Exception as exc:  # noqa: BLE001 - the refusal's type is the service's TableError
        assert "Manage Server" in str(exc)
    else:
        raise AssertionError("refused")
    assert await community.lobby_channel(GUILD) is None


SCRIPT = """\
as bob /community watch game:envoys
as dora /community lobby channel:lobby
as alice /game new game:envoys
as bob /game join
as carol /community tables
as alice /game start seed:7
as carol /community tables open_seat:yes
as bob /community unwatch game:envoys
"""


async def test_the_console_prints_the_lobby_entry_and_tells_the_watcher(store, tmp_path: Path):
    script = tmp_path / "signups.script"
    script.write_text(SCRIPT, encoding="utf-8")
    out = io.StringIO()
    rc = await run_console(TableService(store, clock=Clock()), script=script, stdin=io.StringIO(), stdout=out)
    text = out.getvalue()
    assert rc == 0, text
    assert "[private to bob] You will be told when a table of Envoys (test game) opens" in text
    assert "[lobby] **Envoys (test game)**, hosted by alice: 1 of 4 seated (alice)." in text
    assert "[private to bob] A table of **Envoys (test game)** is open, hosted by alice." in text
    assert "[lobby] **Envoys (test game)**, hosted by alice: 2 of 4 seated (alice, bob)." in text
    assert "[private to carol] • **Envoys (test game)** in #table, hosted by alice: gathering players, 2 of 4 seated." in text
    assert "2 open: /game join there." in text
    assert "[lobby] (the entry is removed)" in text
    assert "[private to carol] No tables with an open seat here." in text
    assert "[private to bob] You will no longer be told about new tables of Envoys (test game) here." in text


async def test_the_migration_counts_the_games_abandoned_before_it_once(database, monkeypatch):
    """Tables abandoned before the archive of abandoned games existed are counted from their
    rows: a started game for each member seated, a lobby for nobody."""
    from dataclasses import replace

    from bot.store import open_store, postgres, sqlite

    front = {module: next(sql for number, sql in module.migrations() if number == 8) for module in (sqlite, postgres)}
    for module in (sqlite, postgres):
        every = module.migrations()
        monkeypatch.setattr(module, "migrations", lambda every=every: [m for m in every if m[0] < 5])
    old = await open_store(database)
    # Today's service clears a channel's front-end row when it opens a table there; the bot
    # of then had none. The table is lent to the old database for these calls and dropped
    # before the upgrade, which creates it (migration 8).
    await _execute(old, front[sqlite if isinstance(old, sqlite.SqliteStore) else postgres])
    older = TableService(old, clock=Clock())
    for member in (ALICE, BOB, CAROL):  # known already: the bot of then read no digest columns (migration 6)
        older.preferences.cache[member] = NotifyPrefs(member)
    await older.lobby.create(CHANNEL, GUILD, "envoys", ALICE, "alice")
    await older.lobby.join(CHANNEL, BOB, "bob")
    await older.lobby.start(CHANNEL, ALICE, seed=7)
    await older.lobby.create(CHANNEL + 1, GUILD, "envoys", CAROL, "carol")  # abandoned in its lobby
    for channel in (CHANNEL, CHANNEL + 1):
        row = await old.get_table(channel)
        await old.save(replace(row, status="abandoned"), row.version)
    await _execute(old, "DROP TABLE front_messages")
    await old.close()
    monkeypatch.undo()

    store = await open_store(database)
    try:
        assert await store.community.member_abandoned(GUILD, ALICE) == {"envoys": 1}
        assert await store.community.member_abandoned(GUILD, BOB) == {"envoys": 1}
        assert await store.community.member_abandoned(GUILD, CAROL) == {}
    finally:
        await store.close()


async def _execute(store, sql: str) -> None:
    """Run SQL on either backend's own connection (a test's setup of an older schema)."""
    from bot.store import sqlite

    if isinstance(store, sqlite.SqliteStore):
        await store._run(lambda conn: conn.executescript(sql))
    else:
        async with store._pool.acquire() as conn:
            await conn.execute(sql)

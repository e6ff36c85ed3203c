"""/diplomacy spectate end to end with SimCord: the real bot, a real table of Crisis: 1914.
A spectator's DMs carry only the delayed record (each Week once the next one is over),
their /game status and /game log stop where it stops, everything comes after the end, and
every refusal is private and in words."""

from __future__ import annotations

import pytest

from bot.service.gallery import CHANNEL_SHOWS_ALL, NOT_HERE, PLAYS_HERE

pytestmark = pytest.mark.simcord


class Table:
    """A guild channel with members; `dave` and `erin` are not seated."""

    def __init__(self, env) -> None:
        self.env = env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("crisis")
        self.elsewhere = self.guild.create_text_channel("chat")
        self.members = {n: self.guild.add_member(env.create_user(n)) for n in ("anna", "boris", "dave", "erin")}

    def __getitem__(self, name: str):
        return self.members[name]

    def dms(self, name: str) -> list[str]:
        return [m.content for m in self.dm_messages(name)]

    def dm_messages(self, name: str) -> list:
        dm = self[name].user.dm_channel
        return list(dm.history()) if dm is not None else []


async def _crisis(env) -> Table:
    table = Table(env)
    await table["anna"].slash(table.channel, "game new", game="crisis1914")
    await table["boris"].slash(table.channel, "game join")
    return table


async def _play_until(env, service, table: Table, weeks_begun: int, *, every: bool = True) -> None:
    """Automatic moves, each delivered as the deadline loop delivers one (not `every`: only
    those that send a spectator something; the rest wait as stored outbox rows, said with
    it), until that many Weeks have begun (or the game is over)."""
    channel = table.channel.id
    while True:
        events = await service.store.get_all_events(channel)
        if sum(e.kind == "week" for e in events) + 1 >= weeks_begun:
            return
        out = await service.auto(channel)
        if out is None:
            return
        if every or any(p.kind == "gallery" for p in out.posts):
            await env.bot.delivery.deliver(out)


async def _week_lines(service, channel: int, week: int) -> list[str]:
    public = [e for e in await service.store.get_all_events(channel) if e.audience is None]
    opens = [0] + [i for i, e in enumerate(public) if e.kind == "week"]
    ends = opens[1:] + [len(public)]
    return [e.text for e in public[opens[week - 1] : ends[week - 1]]]


async def test_a_spectators_dms_carry_only_the_delayed_record_and_everything_after_the_end(env, service):
    table = await _crisis(env)
    setting = await table["anna"].slash(table.channel, "game settings", key="spectator_delay", value="1")
    assert setting.ephemeral and CHANNEL_SHOWS_ALL in setting.response.content, setting.response.content
    await table["anna"].slash(table.channel, "game start")
    watched = await table["dave"].slash(table.channel, "diplomacy spectate")
    assert watched.ephemeral and "You now watch **Crisis: 1914**" in watched.response.content

    await _play_until(env, service, table, 3)  # Week 3 has begun: Week 1 is old enough, Week 2 not
    await env.advance_time(5)
    week1, week2 = [await _week_lines(service, table.channel.id, w) for w in (1, 2)]
    got = "\n".join(table.dms("dave"))
    assert got.startswith("**Crisis: 1914**, Week 1:")
    assert all(line in got for line in week1)
    assert "Week 2 begins." not in got and not any(line in got for line in week2 if line not in week1)
    assert table.dms("erin") == []  # not watching: nothing

    status = await table["dave"].slash(table.channel, "game status")
    assert status.ephemeral and "the table as Week 1 ended" in status.response.content, status.response.content
    assert "Week 3" not in status.response.content and "Waiting for" not in status.response.content
    log = await table["dave"].slash(table.channel, "game log")
    assert "the record up to the end of Week 1" in log.response.content
    assert "Week 2 begins." not in log.response.content
    live = await table["anna"].slash(table.channel, "game status")
    assert "Waiting for" in live.response.content  # a player reads the table as it is

    await _play_until(env, service, table, 99)  # to the end
    await env.advance_time(5)
    got = "\n".join(table.dms("dave"))
    public = [e.text for e in await service.store.get_all_events(table.channel.id) if e.audience is None]
    assert all(line in got for line in public)  # every public line of the game, once over
    assert "**Final standings**" in got
    private = [e.text for e in await service.store.get_all_events(table.channel.id) if e.audience is not None]
    assert not [line for line in private if line not in public and line in got]  # never a private line


async def test_spectate_refusals_are_private_and_in_words(env, service):
    table = await _crisis(env)
    seated = await table["boris"].slash(table.channel, "diplomacy spectate")
    assert seated.ephemeral and seated.response.content == PLAYS_HERE
    nowhere = await table["dave"].slash(table.elsewhere, "diplomacy spectate")
    assert nowhere.ephemeral and NOT_HERE in nowhere.response.content, nowhere.response.content
    not_watching = await table["dave"].slash(table.channel, "diplomacy spectate", stop=True)
    assert not_watching.ephemeral and "You are not watching this table." in not_watching.response.content
    await table["dave"].slash(table.channel, "diplomacy spectate")
    again = await table["dave"].slash(table.channel, "diplomacy spectate")
    assert again.ephemeral and "already watch" in again.response.content
    stopped = await table["dave"].slash(table.channel, "diplomacy spectate", stop=True)
    assert stopped.ephemeral and "no longer watch" in stopped.response.content


async def test_a_spectator_who_can_no_longer_open_the_channel_is_sent_nothing_of_it(env, service):
    """The server's rule (docs/rulings.md 47): nothing of a channel reaches a member who
    cannot open it, the gallery's DMs included."""
    table = await _crisis(env)
    await table["anna"].slash(table.channel, "game start")
    await table["dave"].slash(table.channel, "diplomacy spectate")
    await table["erin"].slash(table.channel, "diplomacy spectate")
    channel = env.bot.get_channel(table.channel.id)
    await channel.set_permissions(await channel.guild.fetch_member(table["dave"].id), view_channel=False)
    await _play_until(env, service, table, 3)
    await env.advance_time(5)
    assert table.dms("dave") == []
    assert any(text.startswith("**Crisis: 1914**, Week 1:") for text in table.dms("erin"))


async def test_a_spectators_round_comes_with_the_board_as_it_stood_then(env, service):
    """The picture of the state replayed to the move that began Week 2 (what /game status
    describes to the spectator), not the live board."""
    service.draw_pictures = True
    table = await _crisis(env)
    await table["anna"].slash(table.channel, "game start")
    await table["dave"].slash(table.channel, "diplomacy spectate")
    await _play_until(env, service, table, 3, every=False)
    await env.advance_time(5)
    messages = table.dm_messages("dave")  # Week 1 in as many messages as it needs
    assert messages[0].content.startswith("**Crisis: 1914**, Week 1:")
    [sent] = [m for m in messages if m.attachments]
    assert sent is messages[-1]  # the board goes with the last part
    expected = await service.picture(table.channel.id, table["dave"].id)
    live = await service.picture(table.channel.id)
    assert expected is not None and live is not None
    assert sent.attachments[0].description == expected.description != live.description

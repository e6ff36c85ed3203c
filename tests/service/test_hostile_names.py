"""A display name reaches every message escaped (`bot.render.escape`): a member called
`<@123> **bold** ||spoiler|| [x](https://evil.example) @everyone` pings no one, formats
nothing and links nowhere, wherever the bot names them; and a join preference is shown in
the game's words, never as typed."""

from __future__ import annotations

import io

from bot.console import Console
from bot.discord.markup import markup
from bot.render import escape
from bot.render.rich import Text
from bot.service.signups import entry_text

from .conftest import ALICE, BOB, CHANNEL, seated

HOSTILE = "<@123> **bold** ||spoiler|| [x](https://evil.example) @everyone"
SHOWN = escape(HOSTILE)
HOUR = 3600


def named_escaped(text: Text) -> None:
    """`text`, as Discord shows it, names the hostile member, escaped, and holds none of
    their markup live."""
    shown = markup(text)
    assert SHOWN in shown, shown
    plain_of_it(shown)


def plain_of_it(text: Text) -> None:
    shown = markup(text)
    for live in ("<@123>", "@everyone", "**bold**", "||spoiler||", "[x]("):
        assert live not in shown, (live, shown)


async def test_the_lobby_card_status_join_notice_and_entry_show_a_hostile_nickname_escaped(service):
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    out = await service.lobby.join(CHANNEL, BOB, HOSTILE)
    named_escaped(out.posts[0].text)  # "… joined. (2 seated)"
    named_escaped(out.status)
    named_escaped((await service.posts.status_card(CHANNEL)).text())
    named_escaped(entry_text(await service.load(CHANNEL)))


async def test_a_hostile_host_is_named_escaped_in_the_lobby(service):
    out = await service.lobby.create(CHANNEL, 9, "envoys", BOB, HOSTILE)
    named_escaped(out.posts[0].text)  # "… opened a table for …"
    await service.lobby.join(CHANNEL, ALICE, "alice")
    named_escaped((await service.posts.status_card(CHANNEL)).description)  # "the host (…) starts"


async def test_the_status_card_of_a_running_game_names_a_hostile_player_escaped(service):
    await seated(service, "alice", HOSTILE)
    named_escaped((await service.posts.status_card(CHANNEL)).description)  # the waiting line
    named_escaped(await service.status(CHANNEL))


async def test_the_status_card_s_panel_of_a_hostile_player_is_named_escaped(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, HOSTILE)
    await service.lobby.join(CHANNEL, 3, "carol")
    await service.lobby.start(CHANNEL, ALICE, seed=1)
    card = await service.posts.status_card(CHANNEL)
    (field,) = [f.name for f in card.fields if "spoiler" in f.name]  # "Nation · player"
    named_escaped(field)
    named_escaped(card.text())


async def test_a_deadline_notice_names_a_hostile_player_escaped(service, clock):
    await seated(service, "alice", HOSTILE)
    await service.settings(CHANNEL, ALICE, {"on_expiry": "extend"})
    clock.advance(24 * HOUR)
    (out,) = await service.deadlines.tick()
    notice = markup(out.posts[0].text)
    assert "Still owing" in notice
    named_escaped(notice)


async def test_the_final_standings_name_a_hostile_player_escaped(service, clock):
    await seated(service, "alice", HOSTILE)
    posts = []
    for _ in range(200):
        clock.advance(60)
        out = await service.auto(CHANNEL)
        if out is None:
            break
        posts += out.posts
    (final,) = [p.text for p in posts if p.kind == "standings"]
    assert "Final standings" in final
    named_escaped(final)
    named_escaped(await service.status(CHANNEL))


async def test_a_substitute_s_notice_names_them_escaped(service):
    await seated(service, "alice", "bob")
    out = await service.controls.substitute(CHANNEL, ALICE, "bob", 5, HOSTILE)
    named_escaped(out.posts[0].text)  # "… takes over …"


async def test_game_mine_holds_no_live_markup_of_a_hostile_member(service):
    await seated(service, "alice", HOSTILE)
    mine = markup(await service.notifications.mine(BOB))
    assert "you owe" in mine
    plain_of_it(mine)


async def test_the_console_shows_an_escaped_name_as_it_was_typed(service):
    out = io.StringIO()
    Console(service, out).say(f"**Lobby**: {SHOWN} joined.")
    assert out.getvalue() == f"**Lobby**: {HOSTILE} joined.\n"


# -- a join preference in the game's words ------------------------------------------------------


async def test_a_preference_typed_with_markup_is_shown_as_the_nation_it_names(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    out = await service.lobby.join(CHANNEL, BOB, "bob", preference="**Berchtold**")
    assert "wants Berchtold" in out.status and "**Berchtold**" not in out.status
    assert "hoping for Berchtold" in out.posts[0].text
    assert "“Berchtold”" in out.reply


async def test_a_preference_is_shown_in_the_games_words_not_as_typed(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob", preference="germany")
    await service.lobby.join(CHANNEL, 3, "carol", preference="England")
    await service.lobby.join(CHANNEL, 4, "dora", preference="poincare")
    status = await service.status(CHANNEL)
    assert "bob — wants Germany" in status
    assert "carol — wants Britain" in status  # the game's name for the nation England means
    assert "dora — wants Poincaré" in status
    await service.lobby.join(CHANNEL, 5, "emil")
    await service.lobby.start(CHANNEL, ALICE, seed=1)
    labels = {s.name: s.label for s in (await service.table_info(CHANNEL)).seats}
    assert "Germany" in labels["bob"] and "Britain" in labels["carol"] and "France" in labels["dora"], labels

"""The community's texts as a member reads them on a phone: options in words and only where
they differ from the game's default, no literal placeholders, the host named and the
reader's own seat said, a history entry in two short lines, footnotes apart from the list
above them, profiles without counts of nothing, ratings never shown below 0, and files
named for people."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.discord.markup import markup
from bot.service.audience import Reader
from bot.service.community import EVERY_CHANNEL, Server, file_name, rating_text
from tests.community.conftest import ALICE, BOB, CAROL, GUILD, finish

CHANNEL = 700
PLACEHOLDER = re.compile(r"<(nation|number|id|name)>|:<|=\w")


def _plain(text: str) -> None:
    """No literal placeholder, no key=value, no nested brackets."""
    assert not PLACEHOLDER.search(text), text
    assert "((" not in text and "))" not in text, text


async def test_options_are_in_words_and_only_where_they_differ_from_the_default(service):
    await service.community.set_lobby(GUILD, 600)
    await service.lobby.create(CHANNEL, GUILD, "crisis1914", ALICE, "alice", options={"congress": "no"})
    news = await service.community.lobby_news(CHANNEL)
    text = markup(news.text)
    assert "Options: off: play the optional Congress Step at the end of each Week." in text
    assert "choose" not in text.casefold() and "rated" not in text  # defaults go unsaid
    assert "hosted by alice" in text
    assert "(add preference: and a nation to ask for one)" in text  # Crisis lets players choose
    _plain(text)

    await service.lobby.create(CHANNEL + 1, GUILD, "origins", BOB, "bob")
    plain = markup((await service.community.lobby_news(CHANNEL + 1)).text)
    assert "Options:" not in plain and "preference:" not in plain  # dealt at random
    _plain(plain)


async def test_the_directory_names_the_host_and_tells_the_reader_where_they_sit(service):
    await service.lobby.create(CHANNEL, GUILD, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    community = service.community
    everyone = Reader(None)
    bobs = await community.directory_page([Server(GUILD, None, Reader(BOB))])
    carols = await community.directory_page([Server(GUILD, None, Reader(CAROL))])
    bobs_text, carols_text = markup(bobs.text), markup(carols.text)
    assert "hosted by alice: gathering players, 2 of 4 seated. You are seated." in bobs_text
    assert "/game join" not in bobs_text and bobs.joinable == []
    assert "2 open: /game join there." in carols_text
    assert carols.joinable == [(CHANNEL, "Envoys (test game)")]
    assert "lobby" not in markup(await community.directory(everyone, GUILD)).casefold()
    for text in (bobs_text, carols_text):
        _plain(text)


async def test_a_history_entry_takes_two_lines_and_the_footnote_stands_apart(service):
    await finish(service, CHANNEL, {ALICE: "alice", BOB: "bob", CAROL: "carol"})
    listed = markup(await service.community.history(EVERY_CHANNEL, GUILD))
    header, first, second, blank, footnote = listed.split("\n")
    assert first.startswith("**#1 Envoys (test game)** · <t:")
    assert second.startswith("Won by ") and ", against " in second
    assert second.endswith(f"[Go to the end](https://discord.com/channels/{GUILD}/{CHANNEL})")
    assert blank == "" and footnote.startswith("-# ") and "e.g. id:1." in footnote
    _plain(listed)

    finished, _ = await service.community.finished(EVERY_CHANNEL, GUILD, 1)
    one = markup(finished)
    assert re.search(r"\n1\. \w+ as s\d: ", one) and "\n\n-# Where it was played: " in one
    _plain(one)


async def test_profiles_count_nothing_that_is_zero_and_leaderboards_explain_the_rating(service):
    await finish(service, CHANNEL, {ALICE: "alice", BOB: "bob"})  # a minute a decision
    community = service.community
    for uid, name in ((ALICE, "alice"), (BOB, "bob")):
        profile = markup(await community.profile(EVERY_CHANNEL, GUILD, uid, name))
        lines = profile.split("\n")
        assert lines[1].startswith("**Envoys (test game)**: 1 finished")
        assert not re.search(r"\b0 (won|abandoned|finished|played)", profile), profile
        assert re.search(r"Answers a turn in \d+ seconds on average; (has missed no deadline|misses)", profile)
        assert "Played as s" in profile and " once" in profile
        assert "\n\n-# A rating starts at 0" in profile
        _plain(profile)
    board = markup(await community.leaderboard(EVERY_CHANNEL, GUILD, "envoys"))
    assert re.search(r"\n1\. \w+: rating \d+ · 1 game, 1 won\n", board)
    assert "deviation" not in board and "\n\n-# A rating starts at 0" in board

    newcomer = markup(await community.profile(EVERY_CHANNEL, GUILD, CAROL, "carol"))
    assert "No finished or abandoned games on this server yet." in newcomer
    assert "Answer time: not enough data yet." in newcomer and "0 seconds" not in newcomer


def test_a_rating_is_a_whole_number_never_below_zero():
    assert rating_text(-1.6) == "0" and rating_text(0.4) == "0" and rating_text(7.5) == "8"


def test_files_are_named_for_people_and_safe_on_every_file_system():
    day = datetime(2026, 12, 6, 18, tzinfo=UTC).timestamp()
    assert file_name("Crisis: 1914", "balkans", day, "html") == "Crisis-1914 #balkans 2026-12-06.html"
    assert file_name("Schönbrunn", "", day, "json") == "Schonbrunn 2026-12-06.json"
    hostile = file_name("Origins of World War I", '../a/b:c*?"<>|', day, "html")
    assert hostile.endswith(" 2026-12-06.html") and not re.search(r'[/\\:*?"<>|]', hostile)

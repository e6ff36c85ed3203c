"""Texts with spans (bot/render/rich.py) and how each front end writes them: Discord's
markup (bot/discord/markup.py) and the console's words (bot/console/words.py)."""

from __future__ import annotations

import json

import pytest

from bot.console.words import Words
from bot.discord.markup import markup, typed_member
from bot.render.rich import (
    Channel,
    Member,
    Moment,
    Rich,
    SmallPrint,
    channel,
    member,
    moment,
    searchable,
    small,
    width,
)
from bot.render.status import Waiting, waiting_line

NOW = 1_767_225_600  # 2026-01-01 00:00 UTC


def words(text, names=None):
    return Words(lambda: NOW, names or {7: "alice"}, {1: "table"})(text)


def test_a_text_without_a_span_stays_a_string():
    assert Rich.of("a", "b") == "ab"
    assert Rich.join("\n", ["a", "b"]) == "a\nb"
    assert isinstance(Rich.of("a", moment(NOW)), Rich)


def test_strings_side_by_side_become_one_span():
    text = Rich.of("Due ", "at ", moment(NOW), "", ".")
    assert text.spans == ("Due at ", Moment(NOW, "R"), ".")


def test_join_puts_the_separator_between_texts_only():
    text = Rich.join("; ", [member(7), "bob", channel(1)])
    assert text.spans == (Member(7), "; bob; ", Channel(1))


def test_a_rich_text_refuses_to_become_a_string_by_accident():
    text = Rich.of("due ", moment(NOW))
    with pytest.raises(TypeError):
        str(text)
    with pytest.raises(TypeError):
        f"{text}"  # noqa: B018
    with pytest.raises(TypeError):
        "\n".join([text])  # type: ignore[list-item]


def test_concatenation_with_strings_keeps_the_spans():
    text = "a " + member(7) + " b"
    assert text == Rich("a ", Member(7), " b")


def test_json_round_trip_and_old_rows_as_strings():
    text = Rich.of(small("hint "), member(7), " in ", channel(1), " ", moment(NOW, "F"))
    kept = json.loads(json.dumps(text.to_json()))
    assert Rich.from_json(kept) == text
    assert Rich.from_json("<@7> stored before spans") == "<@7> stored before spans"


def test_discord_writes_its_own_markup():
    text = Rich.of(member(7), " owes, due ", moment(NOW), " in ", channel(1), "\n", small("a hint"))
    assert markup(text) == f"<@7> owes, due <t:{NOW}:R> in <#1>\n-# a hint"
    assert markup("plain **Markdown**") == "plain **Markdown**"


def test_the_console_writes_words():
    text = Rich.of(member(7), " owes, due ", moment(NOW + 600), " in ", channel(1), "\n", small("a hint"))
    assert words(text) == "@alice owes, due in 10 min in #table\na hint"
    assert words(member(99)) == "@a member"  # never an id
    assert words(channel(99)) == "#another channel"


def test_the_console_shows_typed_text_as_typed():
    assert words(Rich.of(r"\*\*bold\*\* by ", member(7))) == "**bold** by @alice"


def test_width_counts_a_span_as_discord_counts_its_markup():
    text = Rich.of("due ", moment(NOW), " ", member(123), " ", channel(4567), small("x"))
    assert width(text) == len(markup(text))


def test_searchable_finds_words_but_never_across_a_span():
    text = Rich.of("a bid (/origins bid)", moment(NOW))
    assert "a bid" in searchable(text)
    assert searchable(text).endswith("\ufffc")


def test_the_waiting_line_carries_its_deadline_as_a_moment():
    line = waiting_line([Waiting("anna", "a bid")], everyone=2, due=moment(NOW))
    assert markup(line) == f"**Waiting for** anna: a bid — due <t:{NOW}:R>"
    assert words(waiting_line([Waiting("anna", "a bid")], 2, due=moment(NOW), bold=False)) == (
        "Waiting for anna: a bid — due in 0 s"
    )


def test_a_member_typed_or_picked_in_discord_reaches_the_service_as_an_id():
    assert typed_member("<@123>") == "123"
    assert typed_member("<@!123>") == "123"
    assert typed_member(" Berchtold ") == "Berchtold"


def test_small_print_is_a_marker_at_the_start_of_its_line():
    assert small("x").spans == (SmallPrint(), "x")

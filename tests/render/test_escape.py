"""`escape`: a display name or typed text reaches Discord as it was typed, never as markup."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.render.text import escape, unescape

HOSTILE = "<@123> **bold** ||spoiler|| [x](https://evil.example) @everyone"
ZWSP = "\u200b"

# What Discord's markdown does with a backslash: it shows the punctuation after it as it is.
_DISCORD_ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
_MENTIONS = re.compile(r"<[@#/:]|<a:|<t:|@everyone|@here")
_INLINE = set("*_~|`[]\\")


def as_discord_shows(text: str) -> str:
    """The characters a reader sees: escapes consumed, the invisible zero-width space gone."""
    return _DISCORD_ESCAPE.sub(r"\1", text).replace(ZWSP, "")


def live_markup(text: str) -> list[str]:
    """Markup that would format or ping: an unescaped formatting character, a line that
    starts a quote, heading or list, a mention."""
    found = []
    escaped = False
    for i, ch in enumerate(text):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in _INLINE:
            found.append(f"{ch!r} at {i}")
    for line in text.split("\n"):
        if re.match(r"[ \t]*(?:[>#-]|\d+\.\s)", line):
            found.append(f"a line starting {line[:5]!r}")
    found += [f"a mention {m[0]!r}" for m in _MENTIONS.finditer(text)]
    return found


def test_the_hostile_nickname_has_no_mention_no_formatting_and_no_masked_link():
    out = escape(HOSTILE)
    assert live_markup(out) == []
    assert "<@123>" not in out and "@everyone" not in out
    assert "](" not in out.replace("\\](", "")  # the link's bracket is escaped
    assert as_discord_shows(out) == HOSTILE


def test_a_plain_name_is_left_as_it_is():
    assert escape("Alice von Berchtold (she/her)") == "Alice von Berchtold (she/her)"


def test_line_starts_that_would_format_are_escaped():
    out = escape("# heading\n> quote\n- item\n 3. third\n-# small")
    assert live_markup(out) == []
    assert as_discord_shows(out) == "# heading\n> quote\n- item\n 3. third\n-# small"


def test_a_backslash_typed_stays_a_backslash():
    assert as_discord_shows(escape("a\\*b\\")) == "a\\*b\\"
    assert unescape(escape("a\\*b\\")) == "a\\*b\\"


def test_unescape_leaves_the_service_markup_and_restores_the_name():
    line = f"**Lobby**: {escape(HOSTILE)} wants Germany"
    assert unescape(line) == f"**Lobby**: {HOSTILE} wants Germany"


typed = st.text(st.characters(blacklist_characters=ZWSP, blacklist_categories=("Cs",)), max_size=60)
pieces = st.sampled_from(list("*_~|`[]()\\<>@#:/-.1 \nat") + ["everyone", "here"])
markdownish = st.lists(pieces, max_size=30).map("".join)


@given(st.one_of(typed, markdownish))
def test_escaped_text_shows_every_character_typed_and_no_markup(text):
    out = escape(text)
    assert as_discord_shows(out) == text
    assert unescape(out) == text
    assert live_markup(out) == []

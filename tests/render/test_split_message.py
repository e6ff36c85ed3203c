"""The one message splitter every front end uses (bot/render/text.py)."""

from bot.render.text import MESSAGE_LIMIT, split_message


def test_a_history_longer_than_a_message_is_split_at_line_ends():
    lines = [f"{i}. " + "x" * 90 for i in range(100)]  # about 9,500 characters
    parts = split_message("\n".join(lines))
    assert len(parts) >= 5 and all(len(p) <= MESSAGE_LIMIT for p in parts)
    assert "\n".join(parts).split("\n") == lines  # every line whole, in order


def test_a_line_longer_than_a_message_is_cut_inside_itself_and_nothing_is_lost():
    text = "head\n" + "y" * 4500 + "\ntail"
    parts = split_message(text, limit=1000)
    assert all(len(p) <= 1000 for p in parts)
    assert "".join(p.replace("\n", "") for p in parts) == text.replace("\n", "")


def test_a_short_text_is_one_message_and_an_empty_one_is_none():
    assert split_message("  one line \n") == ["one line"]
    assert split_message("   ") == []

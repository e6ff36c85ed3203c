"""The round summary (bot/render/summary.py): the public log cut into one
message per Week, round or turn, each under 2,000 characters, nothing cut or lost."""

from __future__ import annotations

from bot.render.summary import Line, Part, parts, round_name
from bot.render.text import MESSAGE_LIMIT


def _all_lines(cut: list[Part]) -> list[str]:
    return [line.text for part in cut for line in part.lines]


def test_a_new_round_starts_a_new_message_headed_by_its_opening_line():
    start = Part(since=0, heading="**Crisis: 1914** begins.\n**Week 1**", name="Week 1")
    log = [Line("play", "Berchtold plays Conrad."), Line("week", "Week 2 begins."), Line("play", "Grey passes.")]
    first, second = parts(start, log, "week")
    assert first.text() == "**Crisis: 1914** begins.\n**Week 1**\nBerchtold plays Conrad."
    assert second.since == 1 and second.text() == "**Week 2** begins.\nGrey passes."
    assert parts(start, log, "") == [Part(since=0, heading=start.heading, name="Week 1", lines=log)]


def test_a_full_message_goes_on_in_the_next_and_no_line_is_cut():
    log = [Line("event", f"Line {i}: " + "words " * 30) for i in range(40)]
    cut = parts(Part(since=5, name="Round 2"), log, "round")
    assert len(cut) > 2
    assert all(len(part.text()) <= MESSAGE_LIMIT for part in cut)
    assert _all_lines(cut) == [line.text for line in log]
    assert [p.since for p in cut] == [5 + sum(len(q.lines) for q in cut[:i]) for i in range(len(cut))]
    assert all(p.heading == "*Round 2, continued*" for p in cut[1:])


def test_a_line_longer_than_a_message_is_finished_as_several_messages():
    huge = Line("congress", "Congress: " + "result, " * 400)
    cut = parts(Part(since=0), [Line("event", "before"), huge], "round")
    assert cut[-1].lines == []  # the message still growing starts after it
    messages = [m for part in cut[:-1] for m in part.messages()]
    assert all(len(m) <= MESSAGE_LIMIT for m in messages)
    assert "".join(messages).replace("\n", "").count("result,") == 400


def test_where_a_summary_starts_survives_being_stored():
    part = Part(since=12, heading="*Week 3, continued*", name="Week 3", continued=True)
    assert Part.resume(part.start()) == part


def test_a_rounds_name_is_read_from_its_opening_line():
    assert round_name("Week 2 begins.") == "Week 2"
    assert round_name("Round 2/4. Reparations: I: Saxony.") == "Round 2/4"
    assert round_name("**November 1913**") == "November 1913"
    assert round_name("**Crisis: 1914** begins.\n1. anna — Berchtold") == "Crisis: 1914"

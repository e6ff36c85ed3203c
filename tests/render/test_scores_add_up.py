"""Every score explained. Whole games of every title at every player
count, played by the automatic players: each final standing's breakdown re-adds to its
score, each breakdown item's parts to the item, and every score line posted during the
game (Crisis Week scores, Origins provisional and final VPs, Schönbrunn's end scoring)
re-adds from the parts it names."""

from __future__ import annotations

import re

import pytest

from engine import games
from engine.core import rng_for

SIGNED = re.compile(r"(?<![\w+-])[+-]\d+\b")


def _top(text: str, sep: str) -> list[str]:
    """`text` split at `sep` outside parentheses."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and text.startswith(sep, i):
            out.append(text[start:i])
            start = i + len(sep)
            i += len(sep)
            continue
        i += 1
    out.append(text[start:])
    return out


def _outside(text: str) -> str:
    """`text` without what stands in parentheses."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "("
        if depth == 0:
            out.append(ch)
        depth -= ch == ")"
    return "".join(out)


def _groups(text: str) -> list[str]:
    """The contents of the top-level parentheses of `text`."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth == 1:
                start = i + 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                out.append(text[start:i])
    return out


def value(item: str) -> int:
    """An item's points: its last signed number; 0 for one that scored nothing ("Week 4
    nothing (…)", "France 0 (…)", or a reason standing without a number)."""
    outside = _outside(item).strip()
    found = SIGNED.findall(outside)
    if found:
        return int(found[-1])
    assert not re.search(r"(?<![\w+-])[1-9]\d*$", outside), f"an unsigned total in {item!r}"
    return 0


def readd(breakdown: str) -> int:
    """The total a breakdown "a +1 (x +1); b +3 (y +2, z +1)" adds up to, after checking
    that each item's parts add up to the item."""
    total = 0
    for item in _top(breakdown, "; "):
        n = value(item)
        for group in _groups(item):
            parts = [p for p in _top(group, ", ") if SIGNED.search(_outside(p))]
            if parts:
                assert sum(value(p) for p in parts) == n, f"the parts of {item!r} do not add up to {n}"
        total += n
    return total


def test_the_parser_reads_what_it_should():
    assert readd("Berchtold: Week 1 +4 (first on the Initiative Track +1, most DP (15 DP) +3); Week 2 -1") == 3
    assert readd("Russia +10 (treaty rights in Serbia +5, treaty rights in France +5); doubled +10") == 20
    assert readd("Week 3 nothing (most DP (16 DP) +1, Belligerence -1); Week 4 nothing (13 DP (under 14))") == 0
    assert readd("France 0 (no objective met); Russia +5 (treaty rights in Serbia +5)") == 5
    with pytest.raises(AssertionError):
        readd("Week 1 +4 (most DP +3)")
    with pytest.raises(AssertionError):
        readd("Week 1 4 (most DP +3, first +1)")


def _cases():
    return [(gid, n) for gid in games.ids() for n in range(games.get(gid).min_players, games.get(gid).max_players + 1)]


@pytest.mark.whole_game
@pytest.mark.parametrize(("game_id", "players"), _cases())
def test_every_score_of_a_whole_game_re_adds_from_its_breakdown(game_id, players):
    game = games.get(game_id)
    seats = [f"s{i}" for i in range(1, players + 1)]
    state = game.setup(seats, game.Options(), 11)
    lines: list[str] = []
    while game.outcome(state) is None:
        seat = game.prompts(state)[0].seat
        action = game.bot_action(state, seat, rng_for(11, state.step, "scores"))
        state, events = game.apply(state, seat, action)
        lines += [e.text for e in events if e.audience is None]
    checked = 0
    for standing in game.outcome(state).standings:
        assert standing.detail, f"{game_id}: a standing without its breakdown"
        assert readd(standing.detail) == standing.score, (standing.detail, standing.score)
        checked += 1
    for text in lines:
        for line in text.splitlines():
            if m := re.search(r"scores ([+-]\d+|no) Prestige \(now -?\d+\): (.*)\.$", line):  # Crisis, a Week
                assert readd("; ".join(_top(m[2], ", "))) == (0 if m[1] == "no" else int(m[1])), line
                checked += 1
            elif m := re.search(r": (-?\d+) = (.+)$", line):  # Origins, provisional and final VPs
                assert readd(m[2]) == int(m[1]), line
                checked += 1
            elif m := re.search(r": \+(\d+) \((.*)\) = \d+$", line):  # Schönbrunn, the end of the game
                assert readd("; ".join(_top(m[2], ", "))) == int(m[1]), line
                checked += 1
            elif re.search(r": nothing to add = \d+$", line):  # Schönbrunn, no points at the end
                checked += 1
    assert checked > players

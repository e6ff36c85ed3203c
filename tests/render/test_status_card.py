"""The status card (bot/render/status.py): the waiting line first, a
field per nation, and within 1,000 characters whole lines give way, never parts of one."""

from __future__ import annotations

from bot.render.status import LIMIT, MORE, Waiting, card_of, waiting_line
from engine.core import Layout, Panel


def test_players_owing_the_same_are_named_together():
    owing = [Waiting("anna", "a sheet (/origins sheet)"), Waiting("boris", "a sheet (/origins sheet)")]
    assert waiting_line(owing, everyone=3) == "**Waiting for** anna and boris: a sheet (/origins sheet)"
    everyone = owing + [Waiting("clara", "a sheet (/origins sheet)")]
    assert waiting_line(everyone, everyone=3, due="in 1 h").startswith("**Waiting for** all 3 players: a sheet")
    mixed = [Waiting("anna", "a bid (/origins bid)"), Waiting("boris", "a sheet (/origins sheet)")]
    assert waiting_line(mixed, everyone=2) == (
        "**Waiting for** anna: a bid (/origins bid); boris: a sheet (/origins sheet)"
    )


def _layout(panels: int, lines: int) -> Layout:
    return Layout(
        title="A game · Round 1",
        lines=[f"shared fact {i} " + "x" * 40 for i in range(lines)],
        panels=[
            Panel(name=f"{i}. Nation {i}", seat=f"s{i}", lines=[f"**{i} points**", "detail " * 12, "more " * 10])
            for i in range(panels)
        ],
    )


def test_a_card_that_fits_shows_everything_and_names_each_player():
    card = card_of(_layout(3, 2), ["**Waiting for** anna: a turn"], {"s0": "anna", "s1": "boris"})
    assert card.size() < LIMIT and card.footer == ""
    assert card.description.startswith("**Waiting for** anna")
    assert [f.name for f in card.fields] == ["0. Nation 0 · anna", "1. Nation 1 · boris", "2. Nation 2"]
    assert all(len(f.value.splitlines()) == 3 for f in card.fields)


def test_a_crowded_card_drops_whole_lines_and_says_where_they_are():
    layout = _layout(7, 6)
    names = {f"s{i}": f"a player with a long name {i}" for i in range(7)}
    card = card_of(layout, ["**Waiting for** all 7 players: a sheet"], names)
    assert card.size() <= LIMIT and card.footer == MORE
    assert card.description.startswith("**Waiting for** all 7 players")  # the waiting line stays first
    text = card.text()
    for f, panel in zip(card.fields, layout.panels, strict=True):
        assert f.value.splitlines()[0] == panel.lines[0]  # every nation keeps its score
        assert all(line in panel.lines for line in f.value.splitlines())  # lines whole, never cut
    for line in card.description.splitlines()[1:]:
        assert line in layout.lines
    assert "detail" in text  # what fits stays

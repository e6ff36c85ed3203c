"""The content files: complete, with provenance, and faithful to every printed cell."""

from __future__ import annotations

import pytest

from engine.origins import GAME, content

# §7 as printed: rows 2 and 3 in full and the first cell of row 4.
PRINTED = {
    2: ["AE", "AE", "AE", "AE", "AE", "AE", "AE", "EX", "EX"],
    3: ["AE", "AE", "AE", "AE", "AE", "AE", "EX", "EX", "EX"],
    4: ["AE"],
}


def test_every_entry_has_provenance_and_reconstructions_say_how():
    entries = GAME.provenance()
    assert len(entries) > 60
    for entry in entries:
        assert entry["kind"] in ("rulebook", "public", "reconstructed")
        assert entry["source"]
        if entry["kind"] == "reconstructed":
            assert entry["note"], entry


def test_attack_table_is_complete_and_keeps_the_printed_cells():
    table = content.attack_table()
    assert [c.label for c in table.columns] == [
        "<1:2", "1:2", "2:3", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1 or more",
    ]  # fmt: skip
    assert [r.roll for r in table.rows] == list(range(2, 13))
    for row in table.rows:
        assert len(row.results) == 9
        printed = PRINTED.get(row.roll, [])
        assert row.results[: len(printed)] == printed
        assert row.rulebook_cells == len(printed)
        assert (row.provenance.kind == "rulebook") == (len(printed) == 9)


def test_attack_table_rises_from_ae_through_ex_to_de():
    """The shape the printed rows show: a higher roll or better odds never hurts the attacker."""
    rank = {"AE": 0, "EX": 1, "DE": 2}
    rows = content.attack_table().rows
    for col in range(9):
        column = [rank[r.results[col]] for r in rows]
        assert column == sorted(column)
    for row in rows:
        cells = [rank[c] for c in row.results]
        assert cells == sorted(cells)


def test_income_is_the_rulebooks():
    """§6 Phase 1: Germany 16, United Kingdom 14, France 12, all others 10."""
    assert {c: p.income for c, p in content.powers().items()} == {
        "UK": 14, "FRA": 12, "GER": 16, "RUS": 10, "AH": 10, "ITA": 10, "TUR": 10,
    }  # fmt: skip


def test_thirteen_embassies():
    """§2: 11 nations plus Africa and the Far East."""
    assert len(content.embassies()) == 13


@pytest.mark.parametrize("players", range(2, 8))
def test_assignments_deal_each_power_at_most_once(players):
    a = content.assignment(players)
    dealt = [c for g in a.groups for c in g]
    assert len(a.groups) == players
    assert len(dealt) == len(set(dealt))
    assert set(dealt) <= set(content.powers())
    assert (a.provenance.kind == "rulebook") == (players <= 4)


def test_assignments_for_five_to_seven_are_the_issues():
    assert content.assignment(5).groups == [["UK"], ["FRA"], ["GER"], ["RUS"], ["AH"]]
    assert content.assignment(6).groups[-1] == ["ITA"]
    assert content.assignment(7).groups[-1] == ["TUR"]


def test_objectives_cover_all_seven_powers_with_the_printed_values():
    objectives = content.objectives().objectives
    by = {(o.power, o.location): o for o in objectives}
    assert {o.power for o in objectives} == set(content.powers())
    # §9: the printed first values, on the locations of the 1969 listing order
    assert [by[("UK", e)].points for e in ("ITA", "GRE", "TUR", "FE")] == [3, 1, 2, 2]
    assert [by[("FRA", e)].points for e in ("RUS", "UK", "ITA")] == [3, 2, 2]
    assert [by[("GER", e)].points for e in ("AH", "RUS", "ITA")] == [4, 2, 2]
    # §9 example: the Far East is worth 5 to the United Kingdom alone, else 2
    assert by[("UK", "FE")].exclusive == 5
    for o in objectives:
        assert o.location in content.names() and o.location != o.power

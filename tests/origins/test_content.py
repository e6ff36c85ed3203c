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


def test_four_players_s1_gives_uk_and_turkey_s9_option_gives_uk_and_italy():
    """§1's table: with 4 players the United Kingdom and Turkey are single countries; §9 says
    "United Kingdom and Italy". §1 is the default; the table option four_players_italy is §9's."""
    from engine.origins import GAME

    seats = ["s1", "s2", "s3", "s4"]
    default = GAME.setup(seats, GAME.Options(), seed=4)
    assert "TUR" in default.holders and "ITA" not in default.holders
    s9 = GAME.setup(seats, GAME.Options(four_players_italy=True), seed=4)
    assert "ITA" in s9.holders and "TUR" not in s9.holders
    singles = [s for s in seats if sum(1 for h in s9.holders.values() if h == s) == 1]
    assert sorted(c for c, h in s9.holders.items() if h in singles) == ["ITA", "UK"]
    assert GAME.setup(["s1", "s2", "s3"], GAME.Options(four_players_italy=True), seed=4).holders.keys() == (
        GAME.setup(["s1", "s2", "s3"], GAME.Options(), seed=4).holders.keys()
    )


def test_an_objective_whose_value_is_printed_but_location_inferred_is_not_counted_as_rulebook():
    """The §9 table's cut rows give values, not where they belong; such an
    entry says exactly that (value printed, location reconstructed), so /game rules does not
    count it as the rulebook's."""
    placed = [
        o for o in content.objectives().objectives if "its location is reconstructed" in o.provenance.source
    ]
    assert len(placed) == 9
    for o in placed:
        assert o.provenance.kind == "reconstructed"
        assert o.provenance.note.startswith("Value printed in the rulebook; location reconstructed.")
    rulebook = [o for o in content.objectives().objectives if o.provenance.kind == "rulebook"]
    assert [(o.power, o.location) for o in rulebook] == [("UK", "FE")]  # the example under the table


def test_attack_table_bands_follow_the_1969_table_as_recounted():
    """The derivation note (attack_table.toml) recounted from the 1969 1d6 table:
    1969 "<1:1" AE 3 rows of 6 (18/36), "2:1" AE 6/36 EX 24/36 DE 6/36, "3:1" EX 24/36 DE 12/36,
    "4:1+" EX 18/36 DE 18/36. Each 2d6 column (in 36ths) is the band nearest its 1969 column."""
    ways = {r: 6 - abs(7 - r) for r in range(2, 13)}
    table = content.attack_table()
    bands = {}
    for i, column in enumerate(table.columns):
        count = {"AE": 0, "EX": 0, "DE": 0}
        for row in table.rows:
            count[row.results[i]] += ways[row.roll]
        bands[column.label] = (count["AE"], count["EX"], count["DE"])
    assert bands == {
        "<1:2": (21, 15, 0),
        "1:2": (15, 21, 0),
        "2:3": (15, 21, 0),
        "1:1": (10, 20, 6),  # 1969 1:1: 12, 18, 6
        "3:2": (6, 24, 6),
        "2:1": (6, 24, 6),  # 1969 2:1: 6, 24, 6
        "3:1": (1, 25, 10),  # 1969 3:1: 0, 24, 12 (AE on 2 is printed)
        "4:1": (0, 15, 21),  # 1969 4:1+: 0, 18, 18
        "5:1 or more": (0, 10, 26),
    }
    below_1_1 = [bands[c][0] for c in ("<1:2", "1:2", "2:3")]
    assert abs(sum(below_1_1) / 3 - 18) <= 1  # 1969 "<1:1": AE 18/36

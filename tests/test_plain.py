"""engine/core/plain.py: a typed view's records as plain JSON data and back, derived from
their fields (each game's own views are checked over whole games in tests/<game>/test_view.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from engine.core.plain import as_plain, from_plain


@dataclass(frozen=True, slots=True)
class Attack:
    embassy: str
    odds: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    funds: Mapping[str, int]
    attacks: tuple[Attack, ...] | None = None  # a part the phase lacks


@dataclass(frozen=True, slots=True)
class Table:
    turn: str
    roll: int | None  # None is written as null: the key is always there
    seats: Mapping[str, Seat]
    order: tuple[str, ...]
    you: Seat | None = None
    when: str = field(default="", kw_only=True)  # missing from older records


TABLE = Table(
    turn="October 1913",
    roll=None,
    seats={"s2": Seat("anna", {"GER": 3}), "s1": Seat("boris", {}, (Attack("Paris", (("AE", 28), ("EX", 56))),))},
    order=("GER", "FRA"),
    you=Seat("anna", {"GER": 3}),
    when="June 1914",
)


def test_fields_in_order_nested_records_as_objects_tuples_as_lists():
    assert as_plain(TABLE) == {
        "turn": "October 1913",
        "roll": None,
        "seats": {
            "s2": {"name": "anna", "funds": {"GER": 3}},
            "s1": {"name": "boris", "funds": {}, "attacks": [{"embassy": "Paris", "odds": [["AE", 28], ["EX", 56]]}]},
        },
        "order": ["GER", "FRA"],
        "you": {"name": "anna", "funds": {"GER": 3}},
        "when": "June 1914",
    }
    assert list(as_plain(TABLE)) == ["turn", "roll", "seats", "order", "you", "when"]
    assert list(as_plain(TABLE)["seats"]) == ["s2", "s1"]  # a mapping keeps its order


def test_a_part_the_phase_lacks_is_left_out_and_read_back_as_none():
    public = Table(turn="July 1914", roll=4, seats={}, order=())
    assert "you" not in as_plain(public) and as_plain(public)["roll"] == 4
    assert from_plain(Table, as_plain(public)) == public


def test_json_and_back_gives_the_same_record():
    data = json.loads(json.dumps(as_plain(TABLE)))
    back = from_plain(Table, data)
    assert back == TABLE
    assert back.seats["s1"].attacks == (Attack("Paris", (("AE", 28), ("EX", 56))),)  # tuples again


def test_an_older_record_without_a_key_takes_the_fields_default_and_one_without_a_default_is_refused():
    data = as_plain(TABLE)
    del data["when"]
    assert from_plain(Table, data).when == ""
    del data["order"]
    with pytest.raises(KeyError, match="order"):
        from_plain(Table, data)

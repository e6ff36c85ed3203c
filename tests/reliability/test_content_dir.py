"""A group's own content is validated whole when the bot starts: unknown counters, cards
that do not exist and every other reference stop the start with file, entry and field
(docs/reliability.md)."""

from __future__ import annotations

import io
import pathlib

import pytest

from bot.__main__ import main
from engine.core import set_content_dir

BUILTIN = pathlib.Path(__file__).resolve().parents[2] / "engine" / "content"


@pytest.fixture
def own(clean_env):
    folder = clean_env / "our-cards"
    folder.mkdir()
    # an absolute folder per test: the games keep loaded content per folder for the process
    (clean_env / "config.toml").write_text(f'content_dir = "{folder}"\n', encoding="utf-8")
    yield folder
    set_content_dir(None)


def _copy(own, game: str, name: str, old: str, new: str) -> None:
    text = (BUILTIN / game / name).read_text(encoding="utf-8")
    assert old in text
    (own / game).mkdir(exist_ok=True)
    (own / game / name).write_text(text.replace(old, new, 1), encoding="utf-8")


def _start(capsys) -> tuple[int, str]:
    code = main(["console"], stdin=io.StringIO("quit\n"), stdout=io.StringIO())
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "game, name, old, new, said",
    [
        ("crisis1914", "germany.toml", 'counter = "timetable"', 'counter = "timetabel"', "germany.toml: cards."),
        ("crisis1914", "germany.toml", 'dp_counter = "timetable"', 'dp_counter = "clock"', ".dp_counter: DE has no counter 'clock'"),
        ("origins", "objectives.toml", 'location = "ITA"', 'location = "ATLANTIS"', "objectives.toml: objectives.0.location: no embassy 'ATLANTIS'"),
        ("crisis1914", "france.toml", 'kind = "reduce_tension"', 'kind = "calm_down"', "france.toml: cards.0.effects.0"),
    ],
)
def test_a_wrong_reference_stops_the_start_naming_file_entry_and_field(own, capsys, game, name, old, new, said):
    _copy(own, game, name, old, new)
    code, err = _start(capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"chancellery: cannot start: content_dir {own}: ") and said in err


def test_the_counter_error_names_the_card(own, capsys):
    _copy(own, "crisis1914", "germany.toml", 'kind = "advance_counter", counter = "timetable"',
          'kind = "advance_counter", counter = "timetabel"')
    _, err = _start(capsys)
    assert "germany.toml: cards.21 (de-schlieffen-plan).effects.0.counter: DE has no counter 'timetabel'" in err


def test_a_folder_that_is_no_game_and_a_missing_folder_are_named(own, capsys):
    (own / "crisis").mkdir()
    code, err = _start(capsys)
    assert code == 2 and "crisis is not a game here" in err
    (own / "crisis").rmdir()
    own.rmdir()
    code, err = _start(capsys)
    assert code == 2 and f"content_dir {own}: no such folder" in err


def test_good_own_content_starts(own, capsys):
    _copy(own, "crisis1914", "russia.toml", 'dp = 2', 'dp = 1')
    code, err = _start(capsys)
    assert code == 0 and err == ""

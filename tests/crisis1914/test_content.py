"""A group with the printed cards types them into TOML: the same schema loads their files."""

from __future__ import annotations

import pathlib

import pytest

from engine.core import ContentError, set_content_dir
from engine.crisis1914.content import load_content

BUILTIN = pathlib.Path(__file__).resolve().parents[2] / "engine" / "content" / "crisis1914"


@pytest.fixture
def own_content(tmp_path):
    yield tmp_path
    set_content_dir(None)


def test_a_groups_own_deck_replaces_the_builtin_one(own_content):
    folder = own_content / "crisis1914"
    folder.mkdir()
    text = (BUILTIN / "russia.toml").read_text(encoding="utf-8")
    marker = 'id = "ru-basili"\nname = "Basili"\ntype = "other"\ndp = 2'
    assert marker in text
    (folder / "russia.toml").write_text(text.replace(marker, marker[:-1] + "1"), encoding="utf-8")
    assert load_content().cards["ru-basili"].dp == 2
    set_content_dir(own_content)
    assert load_content().cards["ru-basili"].dp == 1
    assert load_content().cards["ah-conrad"].dp == 4  # files the group did not give stay built-in


def test_a_typing_error_names_the_file_and_the_field(own_content):
    folder = own_content / "crisis1914"
    folder.mkdir()
    text = (BUILTIN / "france.toml").read_text(encoding="utf-8")
    (folder / "france.toml").write_text(text.replace('kind = "reduce_tension"', 'kind = "calm_down"', 1))
    set_content_dir(own_content)
    with pytest.raises(ContentError, match=r"france\.toml: cards\.0\.effects\.0"):
        load_content()

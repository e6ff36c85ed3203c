"""The one name matcher of every game's commands (engine/core/names.py)."""

from __future__ import annotations

import pytest

from engine.core import (
    Choice,
    IllegalAction,
    did_you_mean,
    find_name,
    fold,
    match_choice,
    match_name,
    matches_seat,
    nearest_names,
)

STATESMEN = [
    ("ah-berchtold", "Berchtold"),
    ("gb-bertie", "Bertie"),
    ("ru-witte", "Sergei Witte"),
    ("gb-lloyd-george", "Lloyd George"),
    ("gb-george-v", "George V"),
    ("ah-szogyeny", "Szőgyény"),
    ("ah-cheque", "The Kaiser’s Blank Cheque"),
]


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Szőgyény", "szogyeny"),
        ("Stürgkh", "sturgkh"),
        ("FORGÁCH", "forgach"),
        ("The Kaiser’s Blank Cheque", "the kaisers blank cheque"),
        ("the kaiser's blank cheque", "the kaisers blank cheque"),
        ("Austria-Hungary", "austria hungary"),
        ("Austria–Hungary", "austria hungary"),  # an en dash
        ("  Great   Britain ", "great britain"),
        ("General Mobilization (Russia)", "general mobilization russia"),
        ("Straße", "strasse"),
        ("Jaurès", "jaures"),
        ("España", "espana"),
    ],
)
def test_fold_drops_accents_quotes_case_and_marks(text, folded):
    assert fold(text) == folded


def test_a_name_is_found_without_its_accents_or_curly_quote():
    assert match_name("Szogyeny", STATESMEN) == "ah-szogyeny"
    assert match_name("the kaiser's blank cheque", STATESMEN) == "ah-cheque"


def test_a_unique_prefix_or_a_whole_word_of_the_name_is_enough():
    assert match_name("Szog", STATESMEN) == "ah-szogyeny"
    assert match_name("Witte", STATESMEN) == "ru-witte"  # a word of Sergei Witte
    assert match_name("Kaiser's Blank Cheque", STATESMEN) == "ah-cheque"  # words in a row
    assert find_name("Wit", STATESMEN) is None  # a part of a later word is not a word of it


def test_spaces_and_hyphens_are_optional():
    assert match_name("LloydGeorge", STATESMEN) == "gb-lloyd-george"
    assert match_name("lloyd-george", STATESMEN) == "gb-lloyd-george"
    assert match_name("Kaisers Blank-Cheque", STATESMEN) == "ah-cheque"


def test_an_exact_match_wins_over_a_prefix():
    objectives = [("I", "Objective I"), ("II", "Objective II"), ("III", "Objective III")]
    assert match_name("i", objectives) == "I"
    assert match_name("Objective II", objectives) == "II"
    cards = [("jc", "Cambon"), ("pc", "Cambon Paul")]
    assert match_name("CAMBON", cards) == "jc"


def test_an_ambiguous_prefix_is_refused_naming_the_candidates_in_full():
    with pytest.raises(IllegalAction) as refused:
        match_name("Ber", STATESMEN, "card")
    assert str(refused.value) == "`Ber` could be Berchtold or Bertie: type more of the name."
    with pytest.raises(IllegalAction) as refused:
        match_name("George", STATESMEN, "card")  # the start of one, a word of another
    assert str(refused.value) == "`George` could be Lloyd George or George V: type more of the name."


def test_the_candidates_are_named_by_their_full_names_not_their_other_names():
    countries = [("AH", "Austria-Hungary", "Austria", "A-H"), ("AFR", "Africa"), ("UK", "United Kingdom")]
    assert match_name("Austria", countries) == "AH"
    assert match_name("a h", countries) == "AH"
    with pytest.raises(
        IllegalAction, match="^`A` could be Austria-Hungary or Africa: type more of the name.$"
    ):
        match_name("A", countries)


def test_an_unknown_name_is_refused_naming_the_legal_ones():
    with pytest.raises(IllegalAction) as refused:
        match_name("Narnia", [("GB", "Britain"), ("FR", "France")], "Tension box")
    assert str(refused.value) == "'Narnia' is not a legal Tension box. Legal: Britain, France."
    with pytest.raises(IllegalAction) as refused:
        match_name("Narnia", [], "card")
    assert str(refused.value) == "'Narnia' is not a legal card. Legal: none right now."
    with pytest.raises(IllegalAction, match="^No embassy called 'Narnia'.$"):
        match_name("Narnia", [("GB", "Britain")], unknown="No embassy called 'Narnia'.")


def test_a_value_is_accepted_only_in_full_and_nothing_matches_an_empty_name():
    assert match_name("RU-WITTE", STATESMEN) == "ru-witte"
    assert find_name("ru", STATESMEN) is None  # not a prefix of a name: ids are typed whole
    assert find_name("", STATESMEN) is None and find_name(" - ", STATESMEN) is None


def test_match_choice_reads_labels_as_names():
    choices = [Choice("Free City of Kraków — Congress: 2 Prestige", "krakow"), Choice("Donation", "donation")]
    assert match_choice("Krakow", choices, "Treaty") == "krakow"
    assert match_choice("free city", choices, "Treaty") == "krakow"
    assert match_choice("DONATION", choices, "Treaty") == "donation"


def test_a_seat_is_named_by_its_label_its_parts_and_the_games_other_names():
    others = {"Britain": ("England", "United Kingdom", "UK")}
    assert matches_seat("Poincare", "s4", "Poincaré (France)")
    assert matches_seat("france", "s4", "Poincaré (France)")
    assert matches_seat("Fran", "s4", "Poincaré (France)")  # a part of the label, as always
    assert matches_seat("s4", "s4", "Poincaré (France)")
    assert matches_seat("England", "s5", "Grey (Britain)", others)
    assert matches_seat("united-kingdom", "s5", "Grey (Britain)", others)
    assert not matches_seat("England", "s5", "Grey (Britain)")  # the game names England
    assert not matches_seat("England", "s4", "Poincaré (France)", others)
    assert matches_seat("Austria", "s2", "Germany & Austria-Hungary")
    assert not matches_seat("", "s4", "Poincaré (France)")


def test_a_misspelt_name_is_answered_with_the_nearest_one_before_the_legal_ones():
    with pytest.raises(IllegalAction) as refused:
        match_name("Szogeny", [("c1", "Szőgyény"), ("c2", "Witte")], "card")
    assert str(refused.value) == "'Szogeny' is not a legal card. Did you mean Szőgyény? Legal: Szőgyény, Witte."


def test_did_you_mean_names_the_nearest_one_or_two_folded_and_nothing_when_none_is_close():
    assert did_you_mean("germny", ["Russia", "Germany", "France"]) == "Did you mean Germany?"
    assert did_you_mean("statsu", ["status", "start", "join"]) == "Did you mean status or start?"
    assert did_you_mean("sazanov", [("Sazonov (Russia)", "Sazonov", "Russia")]) == "Did you mean Sazonov (Russia)?"
    assert did_you_mean("xyz", ["status", "start"]) == ""
    assert nearest_names("GERMNY", ["Germany"]) == ["Germany"]

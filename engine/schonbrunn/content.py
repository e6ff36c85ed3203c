"""The content of Schönbrunn: nations, Reparation cards and the game's tables (TOML)."""

from __future__ import annotations

from functools import cache
from typing import Literal

from engine.core import ContentError, Model, Sourced, load_toml
from engine.core.content import content_path

GAME_ID = "schonbrunn"
OBJECTIVES = ("I", "II", "III", "IIII", "V")
SYMBOLS = ("commercial", "military", "naval")


class Nation(Sourced):
    id: str
    name: str
    colour: str
    min_players: int
    delegates: list[int]
    face_down_first: int
    ability: Literal["none", "hierarchy_ties", "free_minister", "cheap_plots"]
    ability_text: str
    head: str
    head_power: Literal["influence", "free_screen", "plot_shield"]
    head_value: int = 0
    head_text: str
    extra_receptions: int = 0  # Receptions above everyone's start (not in the simplified rules)


class Card(Sourced):
    id: str
    name: str
    type: Literal["indemnity", "ally", "aid", "treaty"]
    min_players: int
    text: str
    prestige: int = 0  # on collection (Indemnity) or activation (Treaty)
    receptions: int = 0
    # the end-of-game effect: Annexation counts the Ally cards under the Nation card, Poland
    # every Ally card collected (two counts, each read from its own card's text)
    end: Literal[
        "", "per_indemnity", "per_two_receptions", "per_ally_under", "per_ally_collected", "portugal"
    ] = ""
    end_value: int = 0
    # Allies
    marker: int = 0
    bonus: int = 0
    bonus_symbol: Literal["", "any", "commercial", "military", "naval"] = ""
    legitimacy: bool = False  # the Ally Poland, placed at Objective V with 5-6 players
    # Aids
    symbol: Literal["", "commercial", "military", "naval"] = ""
    # Treaties
    timing: Literal["", "assignments", "congress", "end"] = ""
    priority: int = 0
    minus: int = 0  # '-1' markers to distribute among opposing delegations
    wild_aid: bool = False


class Nations(Model):
    nations: list[Nation]


class Cards(Model):
    cards: list[Card]


class Table(Sourced):
    values: dict[str, int] | list[int] | None = None
    thresholds: dict[str, int] | None = None
    start: int = 0
    bonus: int = 0
    different: int = 0
    matching: int = 0


class Tables(Model):
    rounds: Table
    plot: Table
    favours: Table
    receptions: Table
    minister: Table
    aid_sets: Table


@cache
def nations() -> dict[str, Nation]:
    return {n.id: n for n in load_toml(GAME_ID, "nations.toml", Nations).nations}


@cache
def cards() -> dict[str, Card]:
    return {c.id: c for c in load_toml(GAME_ID, "reparations.toml", Cards).cards}


@cache
def tables() -> Tables:
    return load_toml(GAME_ID, "tables.toml", Tables)


def card(card_id: str) -> Card:
    return cards()[card_id]


def favour_values() -> list[int]:
    """The values of the Political Favour tokens (none if the table gives none)."""
    values = tables().favours.values or []
    if not isinstance(values, list):
        raise ContentError(f"{content_path(GAME_ID, 'tables.toml')}: favours.values: a list of the tokens' values")
    return values


def check_content() -> None:
    """Every file loads; ids are unique; the tables the rules read have every entry they
    read (ContentError naming file, entry and field)."""
    for name, model, attr in (("nations.toml", Nations, "nations"), ("reparations.toml", Cards, "cards")):
        seen: set[str] = set()
        for i, entry in enumerate(getattr(load_toml(GAME_ID, name, model), attr)):
            if entry.id in seen:
                raise ContentError(f"{content_path(GAME_ID, name)}: {attr}.{i}.id: {entry.id!r} appears twice")
            seen.add(entry.id)
    t, where = tables(), content_path(GAME_ID, "tables.toml")
    rounds = t.rounds.values
    for players in range(3, 7):
        if not isinstance(rounds, dict) or str(players) not in rounds:
            raise ContentError(f"{where}: rounds.values: no number of rounds for {players} players")
    if t.plot.thresholds is None or any(str(n) not in t.plot.thresholds for n in range(1, 5)):
        raise ContentError(f"{where}: plot.thresholds: needs the reach of 1, 2, 3 and 4 Receptions")
    if len(nations()) < 6:
        raise ContentError(f"{content_path(GAME_ID, 'nations.toml')}: nations: six nations are needed for six players")


def rounds_for(players: int) -> int:
    values = tables().rounds.values
    assert isinstance(values, dict)
    return values[str(players)]


def plot_reach(receptions: int) -> int:
    """The highest Influence a Plot of `receptions` Receptions removes."""
    thresholds = tables().plot.thresholds
    assert thresholds is not None
    return thresholds[str(min(receptions, 4))] if receptions >= 1 else -1


def nations_in_play(players: int) -> list[str]:
    """Setup step 2: GB, Austria, Russia; Prussia from 4; France from 5; Spain at 6."""
    return [n.id for n in nations().values() if n.min_players <= players]

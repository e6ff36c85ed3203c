"""The content of Schönbrunn: nations, Reparation cards and the game's tables (TOML)."""

from __future__ import annotations

from functools import cache
from typing import Literal

from engine.core import Model, Sourced, load_toml

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


class Card(Sourced):
    id: str
    name: str
    type: Literal["indemnity", "ally", "aid", "treaty"]
    min_players: int
    text: str
    prestige: int = 0  # on collection (Indemnity) or activation (Treaty)
    receptions: int = 0
    end: Literal["", "per_indemnity", "per_two_receptions", "per_ally_card", "portugal"] = ""
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

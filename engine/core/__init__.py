"""What every game shares: state base, prompts, events, outcome, errors, rng, commands, and the
parts of a game's shape (`Game`, and each part as a protocol: hooks.py)."""

from .commands import Choice, Command, Option, match_choice, parse_int
from .content import Provenance, Sourced, load_toml, set_content_dir
from .errors import ContentError, GameError, IllegalAction, NotYourTurn
from .fast import WHOLE, built, clone, replaced
from .game import AnyGame, Applied, Game, StandingOrder, TrackingRandom
from .hooks import Checks, Diplomacy, Forced, Orders, Players, Reference, Rules, Texts, Views
from .layout import Layout, Panel
from .model import PUBLIC, Event, GameState, Model, Outcome, Prompt, Standing
from .names import did_you_mean, find_name, fold, match_name, matches_seat, nearest_names, seat_names
from .reference import Entry
from .rng import rng_for, roll, seed_commitment
from .showing import Period, Showable

__all__ = [
    "AnyGame",
    "Applied",
    "Checks",
    "Diplomacy",
    "Orders",
    "Players",
    "Reference",
    "Rules",
    "Texts",
    "Views",
    "Choice",
    "Command",
    "ContentError",
    "Entry",
    "Event",
    "Forced",
    "Game",
    "GameError",
    "GameState",
    "IllegalAction",
    "Layout",
    "Model",
    "NotYourTurn",
    "Option",
    "Outcome",
    "Panel",
    "Period",
    "PUBLIC",
    "Prompt",
    "Provenance",
    "Sourced",
    "load_toml",
    "set_content_dir",
    "Showable",
    "Standing",
    "StandingOrder",
    "TrackingRandom",
    "WHOLE",
    "built",
    "replaced",
    "clone",
    "match_choice",
    "match_name",
    "matches_seat",
    "find_name",
    "fold",
    "seat_names",
    "nearest_names",
    "did_you_mean",
    "parse_int",
    "rng_for",
    "roll",
    "seed_commitment",
]

"""The parts of a game's shape (docs/architecture.md §2), each a small protocol.

`Game` (engine/core/game.py) implements all of them and each game subclasses `Game`; a
caller that needs one part only may ask for that part:

- `Rules[S, A]`: what the rulebook decides: setup, who owes a decision, playing an
  action, the legal and default actions, a decision without a real choice, the end.
- `Checks[S]`: what the random-play harness and the hidden-information check ask:
  the broken invariants, a copy whose secrets differ.
- `Orders[S, A]`: the standing orders a player leaves before a decision reaches them.
- `Players[S, A]`: the automatic players: the reasonable choice, the orders a person
  would leave, the strong player's knowledge, the test players it must beat, the
  figures `simulate` averages.
- `Views[S, V]`: what a seat is shown (`view`, typed `V`) and how it reads: the text,
  the phone's status card, the plain JSON a record keeps.
- `Texts[S, A]`: the words around an action: a choice's label, group and detail, the
  confirmation, what a prompt owes, what a missed deadline does, why a seat waits,
  the seat's name in the game.
- `Diplomacy[S]`: what the table's diplomacy uses: the things a seat may show, the
  period a pact runs until, the round that opens a thread.
- `Reference[S]`: the content a player looks up without a table: the entries, the
  player aid, provenance, other names of nations; and the check of that content.

Each method's contract is written once, on `Game`'s method of the same name. The state
and action types are the game's (`Game[S, A, V]`); each game's module has mypy hold its
class to every part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .layout import Layout
from .model import Event, Model, Outcome, Prompt
from .reference import Entry
from .showing import Period, Showable

__all__ = ["Checks", "Diplomacy", "Forced", "Orders", "Players", "Reference", "Rules", "Texts", "Views"]

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)
A_contra = TypeVar("A_contra", contravariant=True)
V = TypeVar("V")


@dataclass(frozen=True)
class Forced(Generic[A]):
    """A decision that carries no real choice (one legal action, or all alike): the table
    takes it at once and says `said` in one public line."""

    action: A
    said: str


class Rules(Protocol[S, A]):
    """What the rulebook decides; `Game.step` plays an action through these."""

    def setup(self, seats: list[str], options: Model, seed: int) -> S: ...
    def prompts(self, state: S) -> list[Prompt]: ...
    def may_act(self, state: S, seat: str) -> bool: ...
    def play(self, state: S, seat: str, action: A, rng: random.Random) -> list[Event]: ...
    def legal_actions(self, state: S, seat: str) -> list[A]: ...
    def default_action(self, state: S, seat: str) -> A: ...
    def forced_action(self, state: S, seat: str) -> Forced[A] | None: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def opening_events(self, state: S) -> list[Event]: ...


class Checks(Protocol[S]):
    """What the random-play harness and the hidden-information check ask of a game."""

    def invariants(self, state: S) -> list[str]: ...
    def vary_hidden(self, state: S, observer: str | None, rng: random.Random) -> S: ...


class Orders(Protocol[S_contra, A_co]):
    """Standing orders: what one given now is for, and the action it gives."""

    def standing_scope(self, state: S_contra, seat: str, order: str) -> str | None: ...
    def standing_action(self, state: S_contra, seat: str, order: str) -> A_co | None: ...


class Players(Protocol[S_contra, A]):
    """The automatic players, and what the strong one and `simulate` need."""

    def bot_action(self, state: S_contra, seat: str, rng: random.Random) -> A: ...
    def bot_standing(self, state: S_contra, seat: str, action: A, rng: random.Random) -> list[str]: ...
    def bot_ahead(self, state: S_contra, seat: str, rng: random.Random) -> list[str]: ...
    def knowledge(self) -> Any: ...
    def test_players(self) -> dict[str, Any]: ...
    def figures(self, state: S_contra) -> dict[str, float]: ...


class Views(Protocol[S_contra, V]):
    """What a seat is shown, and the forms it is read in."""

    def view(self, state: S_contra, seat: str | None) -> V: ...
    def describe(self, view: V) -> str: ...
    def layout(self, view: V) -> Layout: ...
    def view_dict(self, view: V) -> dict[str, Any]: ...
    def view_from_dict(self, data: dict[str, Any]) -> V: ...


class Texts(Protocol[S_contra, A_contra]):
    """The words around a decision, in the game's own."""

    def action_label(self, state: S_contra, seat: str, action: A_contra) -> str: ...
    def action_group(self, state: S_contra, seat: str, action: A_contra) -> str: ...
    def action_detail(self, state: S_contra, seat: str, action: A_contra) -> str: ...
    def confirm(self, state: S_contra, seat: str, action: A_contra, events: list[Event]) -> str: ...
    def owed(self, prompt: Prompt) -> str: ...
    def default_words(self, state: S_contra, seat: str) -> str: ...
    def waiting_reason(self, state: S_contra, seat: str) -> str: ...
    def seat_label(self, state: S_contra, seat: str) -> str: ...


class Diplomacy(Protocol[S_contra]):
    """What the table's diplomacy needs of the game: showings, pacts, round threads."""

    def showable(self, state: S_contra, seat: str) -> list[Showable]: ...
    def period(self, state: S_contra) -> Period | None: ...
    def round_label(self, state: S_contra) -> str | None: ...


class Reference(Protocol[S_contra]):
    """The game's content as a player looks it up, and its check at start."""

    def check_content(self) -> None: ...
    def nation_names(self) -> dict[str, tuple[str, ...]]: ...
    def entries(self) -> list[Entry]: ...
    def aid(self, state: S_contra | None, seat: str | None) -> str: ...
    def provenance(self) -> list[dict[str, str]]: ...

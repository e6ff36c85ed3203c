"""The fixed shape every game module has (docs/architecture.md §2), as an abstract base class.

A game subclasses `Game[S, A, V]` (its state, its action, its view), sets its class
attributes and implements the abstract methods. `Game` implements each part of the shape
that engine/core/hooks.py names as a small protocol (`Rules`, `Texts`, `Players`, ...);
here each hook's contract is written, with its default.
`apply` is the only way state changes: it copies the state, hands the copy and a seeded
generator to the game's `play`, and returns the new state with its events; if `play`
raises `IllegalAction`, the caller's state is untouched.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar, cast

from pydantic import BaseModel, TypeAdapter

from .commands import Command
from .errors import IllegalAction, NotYourTurn
from .hooks import Checks, Diplomacy, Forced, Orders, Players, Reference, Rules, Texts, Views
from .layout import Layout
from .model import Event, Model, Outcome, Prompt, StateLike
from .plain import as_plain, from_plain
from .reference import Entry
from .rng import seed_for
from .showing import Period, Showable

__all__ = ["AnyGame", "Game", "Applied", "StandingOrder", "TrackingRandom"]

S = TypeVar("S", bound=StateLike)
A = TypeVar("A")  # the game's action: a union of its action models
V = TypeVar("V")  # what a seat is shown of the state (`view`)


class TrackingRandom(random.Random):
    """A seeded generator that remembers whether it was used (undo must know)."""

    used: bool = False

    def random(self) -> float:  # every other method funnels through random/getrandbits
        self.used = True
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.used = True
        return super().getrandbits(k)


class _StepRandom:
    """The per-action generator: the same numbers as `TrackingRandom(seed_for(table_seed,
    index))`, made at the action's first draw. Most actions draw nothing, and CPython seeds
    every `random.Random` it makes (twice: in `__new__` and again in `__init__`), which cost
    more than the rest of a small game's step. Every method of the generator is reached
    through `__getattr__`, so the rules use it as the `random.Random` they are given.
    """

    __slots__ = ("_pending", "_made")

    def __init__(self, table_seed: int, index: int):
        self._pending = (table_seed, index)
        self._made: TrackingRandom | None = None

    @property
    def used(self) -> bool:
        return self._made is not None and self._made.used

    def __getattr__(self, name: str) -> Any:  # only names not found here: the generator's
        made = self._made
        if made is None:
            made = self._made = TrackingRandom(seed_for(*self._pending))
        return getattr(made, name)


def _copy(state: S, source: str | bytes | None = None) -> S:
    """The state copy `step` hands to `play`: the game's own `__deepcopy__` where it has
    one (the three games use `engine.core.clone`, compiled for their fields: 3 to 7 times
    cheaper than parsing the state's JSON for Crisis: 1914 and Schönbrunn, about even for
    Origins); else the state's JSON when the caller holds it (`source`; states round-trip
    by contract, see Model); else a round trip through pydantic-core."""
    if cast(Any, type(state)).__deepcopy__ is not BaseModel.__deepcopy__:  # the same function or not
        # called directly: `model_copy(deep=True)` would reach it through two more calls
        return state.__deepcopy__({})
    if source is not None:
        return type(state).model_validate_json(source)
    return type(state).model_validate(state.model_dump())


class Applied(NamedTuple, Generic[S]):
    """What `step` returns. A named tuple, immutable like the frozen dataclass it was, at
    half the cost to make (one is made at every step)."""

    state: S
    events: list[Event]
    used_randomness: bool

    @property
    def revealed(self) -> bool:
        return any(e.reveals for e in self.events)

    @property
    def undoable(self) -> bool:
        return not self.used_randomness and not self.revealed


@dataclass(frozen=True)
class StandingOrder:
    """An answer a player gives before the decision reaches them: `name` is what
    they type, `text` what it does, in the game's words."""

    name: str
    text: str
    takes_text: bool = False  # given with the player's words after the name ("sheet SER 5")
    example: str = ""  # how it is typed, when it takes words ("pass_unless Germany, Russia")


class Game(
    ABC,
    Rules[S, A],
    Checks[S],
    Orders[S, A],
    Players[S, A],
    Views[S, V],
    Texts[S, A],
    Diplomacy[S],
    Reference[S],
    Generic[S, A, V],
):
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[Model]]
    State: ClassVar[type[StateLike]]
    # the view's record class (engine/<game>/view_types.py), from which its JSON is derived;
    # None for a game whose view is a plain dictionary (the tests' tiny game)
    View: ClassVar[type[Any] | None] = None
    Action: ClassVar[TypeAdapter[Any]]  # discriminated union on `kind`
    commands: ClassVar[tuple[Command, ...]] = ()
    aliases: ClassVar[tuple[str, ...]] = ()
    command_group: ClassVar[str] = ""  # the slash-command group (/crisis ...); "" means the id
    rules_summary: ClassVar[str] = ""
    # How a turn of the game goes here, step by step, with the commands that play it, in
    # the game's own words (its texts.py): what `/game help game:<id>` shows above the list
    # of every command. "" shows the title alone.
    how_to: ClassVar[str] = ""
    standing_orders: ClassVar[tuple[StandingOrder, ...]] = ()
    # Phase lengths of this game's own that a Prompt.deadline_setting names, beyond the
    # shared phase_hours and diplomacy_minutes: `/game settings` accepts exactly these.
    deadline_settings: ClassVar[tuple[str, ...]] = ()
    # What each prompt kind asks for, in a player's words with its slash command
    # ("a bid (/origins bid or /origins pass)"); `owed` falls back to the kind.
    owed_words: ClassVar[dict[str, str]] = {}
    # Raised when a rules change makes an old record play out differently; a record names the
    # version it was played under, and replay refuses another one by name (docs/rulings.md).
    rules_version: ClassVar[int] = 1
    # Who gets which nation at the start, as the rulebook says: "random" ignores
    # /game join preferences; "agreed" honours them only if every player named a different
    # nation; "choose" honours each that no other player shares; "first_come" honours them
    # all, first come first served (also what a table option `choose_nations` asks for).
    nation_choice: ClassVar[str] = "first_come"
    nation_rule: ClassVar[str] = ""  # that rule in the rulebook's words, for /game rules
    # What a missed deadline does, in a player's words, for `/game rules`.
    missed_deadline: ClassVar[str] = "A missed deadline gives the default order for that decision."
    # The kind of the public event that opens each Week, round or turn after the first
    # ("week"): the channel's round summary starts a new message there.
    round_event: ClassVar[str] = ""

    # -- lifecycle -------------------------------------------------------------------
    @abstractmethod
    def setup(self, seats: list[str], options: Model, seed: int) -> S:
        """A new game. Seats are opaque ids in table order; nations are assigned here."""

    @abstractmethod
    def prompts(self, state: S) -> list[Prompt]:
        """Who owes a decision now; empty once the game is over."""

    @abstractmethod
    def play(self, state: S, seat: str, action: A, rng: random.Random) -> list[Event]:
        """Carry out `action` on `state` in place. Raise IllegalAction to refuse."""

    @abstractmethod
    def view(self, state: S, seat: str | None) -> V:
        """What `seat` may know (None: anyone). Plain JSON data."""

    def view_dict(self, view: V) -> dict[str, Any]:
        """A view as plain JSON data (an export's public view, what a save keeps for the
        board's picture): a typed view's fields, key for key (engine/core/plain.py); a
        game whose view is a dictionary already gives it as it is."""
        if self.View is None:
            return cast("dict[str, Any]", view)
        return as_plain(view)

    def view_from_dict(self, data: dict[str, Any]) -> V:
        """The view `view_dict` wrote (a public record read back)."""
        return cast(V, data if self.View is None else from_plain(self.View, data))

    @abstractmethod
    def describe(self, view: V) -> str:
        """Readable Markdown of a view, short enough for a phone. Sees only the view."""

    def layout(self, view: V) -> Layout:
        """The public view laid out for a phone's status card (`engine/core/layout.py`):
        the same facts as `describe`, or fewer (never others). This default puts the
        description under its first line; the games lay out their own."""
        title, *lines = self.describe(view).splitlines() or [self.title]
        return Layout(title=title.replace("**", ""), lines=lines)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def default_action(self, state: S, seat: str) -> A:
        """What a deadline does for a seat that gave no order."""

    def default_words(self, state: S, seat: str) -> str:
        """What `default_action` will do for `seat` now, in a few public words that name no
        secret ("a Draw", "the sheet as written", "the automatic player's choice")."""
        return "the default order"

    @abstractmethod
    def bot_action(self, state: S, seat: str, rng: random.Random) -> A:
        """A reasonable automatic player's choice."""

    @property
    def group(self) -> str:
        """The name players type before a game command: `/crisis play`, `/origins bid`."""
        return self.command_group or self.id

    # -- optional hooks ----------------------------------------------------------------
    def legal_actions(self, state: S, seat: str) -> list[A]:
        """Every legal action where the space is small enough to list; [] otherwise."""
        return []

    def action_label(self, state: S, seat: str, action: A) -> str:
        """A button's words for one of `legal_actions`; the service cuts them to a button's
        80 characters and keeps them apart, so a game may name every card."""
        return str(getattr(action, "kind", "act")).capitalize()[:80]

    def action_group(self, state: S, seat: str, action: A) -> str:
        """What kind of choice one of `legal_actions` is, in the game's words, where a long
        list is grouped in menus ("Play with Belligerence", "Deliberate"); the choice's label
        read without these words says which one. The label's first word by default."""
        return self.action_label(state, seat, action).split(" ", 1)[0].rstrip(",:")

    def owed(self, prompt: Prompt) -> str:
        """What `prompt` asks for, in a few words: "you owe …", "Waiting for: anna (…)"."""
        return self.owed_words.get(prompt.kind, prompt.kind.replace("_", " "))

    def nation_names(self) -> dict[str, tuple[str, ...]]:
        """Other names players type for the nations a seat label shows, by the name the
        label uses (England for Britain): a `/game join` preference may use them
        (engine/core/names.py, `matches_seat`). None by default."""
        return {}

    def confirm(self, state: S, seat: str, action: A, events: list[Event]) -> str:
        """What the player who acted is told they did ("You played Conrad with Belligerence
        (8 DP)."): `state` is the state before the action, `events` what it caused. Only
        the actor reads it. Games say it in the past tense; this default names the action."""
        return f"Done: {self.action_label(state, seat, action)}."

    def action_detail(self, state: S, seat: str, action: A) -> str:
        """More about one of `legal_actions` than its label holds, for the line under it in a
        menu: the text of the card it plays, an attack's odds. Only `seat` reads it."""
        return ""

    def may_act(self, state: S, seat: str) -> bool:
        return any(p.seat == seat for p in self.prompts(state))

    def waiting_reason(self, state: S, seat: str) -> str:
        """Why `seat`, which owes nothing now, cannot act, in the game's words, when "It is
        not your turn" would be wrong: "You have already committed a Delegate this round."
        for a secret choice already made while the others still choose. "" by default."""
        return ""

    def forced_action(self, state: S, seat: str) -> Forced[A] | None:
        """The seat's decision now if it carries no real choice; None when it does."""
        return None

    def standing_scope(self, state: S, seat: str, order: str) -> str | None:
        """What a standing order `order` given now is for ("1912" for that turn's bidding):
        it applies while the game's scope for it stays the same and lapses when it moves
        on. None: the order cannot be given now (or does not exist)."""
        return None

    def standing_action(self, state: S, seat: str, order: str) -> A | None:
        """The action `order` gives for the decision `seat` owes now; None if it gives none."""
        return None

    def bot_standing(self, state: S, seat: str, action: A, rng: random.Random) -> list[str]:
        """The standing orders a person who just chose `action` would leave now (the
        pacing model's players, docs/pacing.md); [] by default."""
        return []

    def bot_ahead(self, state: S, seat: str, rng: random.Random) -> list[str]:
        """The standing orders a person at `seat` who looks at the table now, before a
        decision reaches them, would leave (the pacing model's players, docs/pacing.md):
        what the automatic player would choose, with what it knows now, where an order
        can say it; [] by default."""
        return []

    def seat_label(self, state: S, seat: str) -> str:
        """The seat in the game's words (its nation or role)."""
        return seat

    def check_content(self) -> None:
        """Load every content file in use (a group's content_dir included) and check each
        reference between entries; ContentError naming the file, the entry and the field.
        Called once when the bot starts, so a bad file stops the start, not a game."""

    def invariants(self, state: S) -> list[str]:
        """Broken invariants, in words; [] when all hold. Checked by the random-play harness."""
        return []

    def vary_hidden(self, state: S, observer: str | None, rng: random.Random) -> S:
        """A copy whose facts hidden from `observer` differ, consistent with the public
        history. Used by the hidden-information check; games with secrets override it."""
        return state.model_copy(deep=True)

    def opening_events(self, state: S) -> list[Event]:
        """Public events of what `setup` already did (a First Draw), for the log at start."""
        return []

    def showable(self, state: S, seat: str) -> list[Showable]:
        """The seat's own hidden things it may show another player, with the referee's
        words for each (`engine/core/showing.py`); [] where the game hides nothing."""
        return []

    def period(self, state: S) -> Period | None:
        """Which Week, round or turn the game is in, for a pact's `until`; None where the
        game has no such count or is over."""
        return None

    def round_label(self, state: S) -> str | None:
        """The current Week or round in the game's words ("Week 2"), for a table that
        opens a public diplomacy thread each round; None where the game has no rounds."""
        return None

    def knowledge(self) -> Any:
        """What the strong automatic player needs of this game (an `engine.core.search.Knowledge`,
        made in `engine/<game>/strong.py`); None: the game has no strong player yet."""
        return None

    def test_players(self) -> dict[str, Any]:
        """Simple strategies, by name, that the strong player must keep beating:
        policies of `bot_action`'s shape (state, seat, rng) -> action."""
        return {}

    def figures(self, state: S) -> dict[str, float]:
        """Game-specific numbers of a finished game for `simulate` to average
        (for example {"war": 1.0} for a Crisis game that ended in war)."""
        return {}

    def provenance(self) -> list[dict[str, str]]:
        """Content entries with provenance, for `/game rules` and the README."""
        return []

    def aid(self, state: S | None, seat: str | None) -> str:
        """The player aid the physical game hands each player, as text. With a table's state
        and the reader's seat, what the aid is used for there and then (public facts and that
        seat's own only); without, the aid alone."""
        return f"{self.title} has no player aid."

    def entries(self) -> list[Entry]:
        """Every piece of content a player may look up by name, with its full text:
        what the printed cards, boards and player aids would show (`/game card`)."""
        return []

    # -- the one path that changes state --------------------------------------------------
    def parse_action(self, data: Any) -> A:
        action: A = self.Action.validate_python(data)
        return action

    def load_state(self, data: str | bytes) -> S:
        return self.State.model_validate_json(data)  # type: ignore[return-value]

    def step(
        self,
        state: S,
        seat: str,
        action: A | dict[str, Any],
        *,
        prompts: list[Prompt] | None = None,
        source: str | bytes | None = None,
    ) -> Applied[S]:
        """Apply `action` for `seat` to a copy of `state`. A caller that already holds
        `self.prompts(state)` passes them as `prompts`, and one that holds the state's
        JSON (`state.model_dump_json()`, as stored) passes it as `source`: each saves
        work that `step` would otherwise do again. `source` must be that state's JSON."""
        if self.outcome(state) is not None:
            raise IllegalAction("The game is over.")
        if seat not in state.seats:
            raise NotYourTurn("You do not hold a seat in this game.")
        if prompts is not None and type(self).may_act is Game.may_act:
            allowed = any(p.seat == seat for p in prompts)
        else:  # a game with its own may_act decides for itself
            allowed = self.may_act(state, seat)
        if not allowed:
            raise NotYourTurn("You owe no decision right now.")
        if isinstance(action, dict):
            action = self.parse_action(action)
        new = _copy(state, source)
        rng = _StepRandom(state.seed, state.step)
        # a stand-in for the generator, reached through __getattr__ (see _StepRandom)
        events = self.play(new, seat, action, cast(random.Random, rng))
        new.step = state.step + 1
        return Applied(new, events, rng.used)

    def apply(self, state: S, seat: str, action: A | dict[str, Any]) -> tuple[S, list[Event]]:
        applied = self.step(state, seat, action)
        return applied.state, applied.events

    def validate(self, state: S, seat: str, action: A | dict[str, Any]) -> None:
        """Raise IllegalAction if `action` is not legal now; change nothing."""
        self.step(state, seat, action)


# A game of any kind, where the caller holds whichever the registry gives (engine/games.py).
AnyGame = Game[Any, Any, Any]

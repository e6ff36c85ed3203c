"""The State of a Crisis: 1914 game: one Player per active nation, the board, the Week."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from engine.core import GameState, Model, clone

Phase = Literal[
    "first_draw", "play", "score", "congress_invite", "congress_answer", "end_check", "refresh", "over"
]
PendingKind = Literal["resolve", "choose", "reorder", "discard", "reduce"]


class Played(Model):
    """A card on a Tableau with the DP it counts (doubled by a Belligerence action).
    Frozen: a step's copy of the state shares them (engine/core/fast.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    card: str
    dp: int
    belligerence: bool = False


class ScoreItem(Model):
    """One change of a Prestige total and where it came from: `parts` add up to `points`
    (every score explained). Frozen: a step's copy of the state shares them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    what: str
    points: int
    parts: list[tuple[str, int]] = Field(default_factory=list)


class Player(Model):
    nation: str
    seat: str
    draw: list[str] = Field(default_factory=list)  # index 0 is the top
    known: int = 0  # how many top cards of the Draw Pile the owner has seen (Reorganize)
    hand: list[str] = Field(default_factory=list)
    tableau: list[Played] = Field(default_factory=list)
    recycled: list[str] = Field(default_factory=list)
    returned: list[str] = Field(default_factory=list)  # the Return Discards pile
    permanent: list[str] = Field(default_factory=list)
    set_aside: list[str] = Field(default_factory=list)  # on the player board
    # set-aside cards already added to the Draw Pile that found no other card to join: they
    # wait on the player board for the next Draw Pile formed (docs/rulings.md, Crisis 20)
    waiting: list[str] = Field(default_factory=list)
    counters: dict[str, int] = Field(default_factory=dict)
    score: int = 0  # the lower (or only) Score marker
    second: int | None = None  # the Diplomatic Back-Channel marker, always above `score`
    prestige: int = 0
    prestige_items: list[ScoreItem] = Field(default_factory=list)  # how `prestige` was reached
    belligerence: int = 0  # the Belligerence Level Track in this nation's City Box
    belligerent_this_week: bool = False
    deliberated: bool = False
    passed: bool = False
    momentum: bool = False
    lost: str | None = None  # why this player lost ("General Mobilization", ...)

    @property
    def highest(self) -> int:
        return self.second if self.second is not None else self.score


class Pending(Model):
    """A decision owed inside a turn, before play moves on.

    resolve: a card was revealed onto the Tableau and offers choices (Belligerence, "or").
    choose: Deliberate drew `cards`; play one of them, keep the rest.
    reorder: Reorganize looks at `cards` (the top of the Draw Pile).
    discard: discard `count` card(s) from Hand.
    reduce: the Score Step's -1 Tension, when more than one die in the City Box can fall.
    """

    kind: PendingKind
    nation: str
    cards: list[str] = Field(default_factory=list)
    count: int = 1


class CrisisState(GameState):
    solo: bool = False
    congress: bool = True
    week: int = 1
    phase: Phase = "first_draw"
    players: dict[str, Player]  # by nation id, in setup order
    tension: dict[str, dict[str, int]]  # City Box nation -> Tension box nation -> die
    current: list[str | None]  # the Current Round column, top first; None is an empty space
    will_top: list[str] = Field(default_factory=list)  # the pile, top first
    will_bottom: list[str] = Field(default_factory=list)  # the pile, top first
    turn: int = 0  # the Turn Track: the space in `current` whose player acts
    actor: str | None = None  # the nation whose turn is running
    pending: list[Pending] = Field(default_factory=list)
    round: int = 1
    ending: bool = False  # the game ends at the end of this Week
    congress_inviter: str | None = None
    congress_yes: list[str] = Field(default_factory=list)
    refresh_discards: dict[str, list[str]] = Field(default_factory=dict)  # secret until all are in
    refresh_choosers: list[str] = Field(default_factory=list)  # who owes a Refresh choice
    last_week: dict[str, dict[str, int]] = Field(default_factory=dict)  # the last Score Step, for display
    dp_history: list[float] = Field(default_factory=list)  # mean highest DP of each Week, for simulations
    result: str | None = None

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> CrisisState:
        # The core copies the state once per action (engine/core/fast.py).
        return clone(self)

    def player_of(self, seat: str) -> Player | None:
        for p in self.players.values():
            if p.seat == seat:
                return p
        return None

    def active(self) -> list[Player]:
        return [p for p in self.players.values() if p.lost is None]

    def initiative(self) -> list[str]:
        return [n for n in self.current if n is not None]

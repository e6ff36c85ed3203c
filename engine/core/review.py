"""The review of a finished game for one seat: the three decisions where the strong
automatic player, knowing what that seat knew then, would have chosen differently with the
largest difference in its estimate (docs/architecture.md §2, "Automatic players").

The game is replayed from its setup; before each of the seat's decisions the search
(engine/core/search.py, `Search.estimates`) weighs the candidates it would consider and the
choice the player made, from the state as the automatic player is handed it: it reads only
what the seat may see (`Knowledge.determinize` deals every hidden fact afresh), so two
games that differ only in facts hidden from the seat give the same review. Each decision
draws from its own generator, seeded from the review's seed and the decision's index, so a
review is the same however its work is cut into pieces (`advance` takes a bounded piece;
the bot runs the pieces in its automatic players' workers behind the live tables'
decisions, bot/service/reviews.py).

Skipped: a decision the table took without asking (`Game.forced_action`), one with a
single legal choice, and an action that is no decision of its own (a line written on an
Origins sheet before it is handed in: its kind is not among the choices). The work is
bounded: `iterations_for` gives every decision of a seat the same number of iterations,
at most `per_decision`, fewer when the seat's actions times that would pass `per_seat`.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from .game import AnyGame
from .model import Model
from .rng import seed_for
from .search import Estimate, Knowledge, Search, Strength

__all__ = [
    "PER_DECISION",
    "PER_SEAT",
    "Progress",
    "Turning",
    "advance",
    "finish",
    "iterations_for",
    "judge",
    "review",
    "start",
    "weighed",
]

PER_DECISION = 48  # iterations for one decision: the "quick" strength's
PER_SEAT = 2400  # iterations for all of one seat's decisions together
FLOOR = 12  # never fewer for a decision: below it most candidates are tried once
SHOWN = 3  # turning points a review shows


@dataclass(frozen=True)
class Turning:
    """One decision the search would have taken otherwise: where it was, what was chosen,
    what the search preferred, and by how much it rated that choice higher."""

    index: int  # the action's place in the game's record, from 0
    round: str  # the Week, round or turn in the game's words ("Week 3"); "" where none
    chose: str  # the choice made, in the game's words (a button's label)
    preferred: str  # the choice the search preferred
    projected: float  # the seat's score the search projected after its choice, in `score_name`
    projected_chosen: float  # and after the choice made
    score_name: str  # "Prestige", "VPs"; "" where the game names no score
    rating: float  # the search's value of the preferred choice, 0 to 100
    rating_chosen: float  # and of the choice made
    tries: int  # deals of what the seat could not see the search weighed
    danger_words: str = ""  # the game's main danger ("war or mobilization cost you the game"); "" none
    danger: float = 0.0  # the share of the search's deals after its choice that reached it
    danger_chosen: float = 0.0  # and after the choice made

    @property
    def difference(self) -> float:
        """The projected score of the search's choice minus the choice made's."""
        return self.projected - self.projected_chosen

    @property
    def margin(self) -> float:
        """How much better the search rated its choice (points of 100): the review's order."""
        return self.rating - self.rating_chosen

    def _score(self, amount: float, sign: str = "") -> str:
        """An amount in the game's score, whole: "+2 Prestige", "1 VP", "3 VPs"."""
        whole = f"{amount:{sign}.0f}"
        unit = self.score_name[:-1] if whole.lstrip("+-") == "1" and self.score_name.endswith("Ps") else self.score_name
        return f"{whole} {unit}"

    def worth(self) -> str:
        """What the search's choice was worth beside the one made, in the game's score."""
        if not self.score_name:
            return "better by its estimate"
        if abs(self.difference) < 0.5:
            return f"worth about as much {self.score_name} by its estimate"
        return f"worth about {self._score(self.difference, '+')} by its estimate"

    def because(self) -> str:
        """Why, in what the search measured and nothing else: the score it projected after
        each choice, its rating of the position, and over how many deals."""
        projected = (
            f"it projected you {self._score(self.projected)} after it against "
            f"{self._score(self.projected_chosen)} after yours and "
            if self.score_name
            else ""
        )
        danger = (
            f", and {self.danger_words} in {self.danger_chosen:.0%} of its deals after yours against {self.danger:.0%} "
            "after it"
            if self.danger_words and (self.danger or self.danger_chosen)
            else ""
        )
        return (
            f"{projected}rated your position {self.rating:.0f} against {self.rating_chosen:.0f} out of 100, "
            f"over {self.tries} deals of what you could not see{danger}"
        )

    def sentence(self) -> str:
        """The turning point in the game's words: "Week 3: you chose Play Hoyos (3 DP). The
        automatic player would have chosen Play Conrad with Belligerence (8 DP): worth about
        +2 Prestige by its estimate, because …"."""
        where = f"{self.round}: you" if self.round else "You"
        return (
            f"{where} chose {self.chose}. The automatic player would have chosen {self.preferred}: "
            f"{self.worth()}, because {self.because()}."
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Turning:
        """A turning point as `to_json` wrote it (one written before a field existed takes
        that field's default)."""
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


@dataclass
class Progress:
    """A review under way: the state before action `next`, the turning points found so
    far (every decision the search rated otherwise), and the iterations spent."""

    seat: str
    state: Any
    next: int = 0
    iterations: int = PER_DECISION  # for each decision of this review (`iterations_for`)
    found: list[Turning] = field(default_factory=list)
    spent: int = 0

    def done(self, actions: list[tuple[str, Any]]) -> bool:
        return self.next >= len(actions)


def iterations_for(actions: list[tuple[str, Any]], seat: str, per_decision: int, per_seat: int) -> int:
    """The iterations each of `seat`'s decisions gets: `per_decision`, fewer when the
    seat's actions times that would pass `per_seat`, never fewer than FLOOR (or
    `per_decision` if that is less)."""
    mine = sum(1 for s, _ in actions if s == seat)
    return min(per_decision, max(FLOOR, per_seat // max(1, mine)))


def start(
    game: AnyGame,
    seats: list[str],
    options: Model,
    seed: int,
    actions: list[tuple[str, Any]],
    seat: str,
    *,
    per_decision: int = PER_DECISION,
    per_seat: int = PER_SEAT,
) -> Progress:
    """A review of `seat` at the game's setup."""
    if seat not in seats:
        raise ValueError("that seat did not play this game")
    state = game.setup(list(seats), options, seed)
    return Progress(seat, state, iterations=iterations_for(actions, seat, per_decision, per_seat))


def advance(
    game: AnyGame,
    progress: Progress,
    actions: list[tuple[str, Any]],
    review_seed: int,
    limit: int,
    exploration: float = 0.7,
) -> Progress:
    """The review carried on through the record until about `limit` more iterations are
    spent (at least one decision is weighed) or the record ends; a new Progress."""
    knowledge = game.knowledge()
    state, index, spent = progress.state, progress.next, 0
    found = list(progress.found)
    while index < len(actions) and (spent < limit or spent == 0):
        seat, raw = actions[index]
        action = game.parse_action(raw) if isinstance(raw, dict) else raw
        if seat == progress.seat and knowledge is not None and weighed(game, knowledge, state, seat, action):
            strength = Strength(progress.iterations, exploration)
            rng = random.Random(seed_for(review_seed, index, "review"))
            turning = judge(game, knowledge, state, seat, action, index, strength, rng)
            if turning is not None:
                found.append(turning)
            spent += strength.iterations
        state = game.step(state, seat, action).state
        index += 1
    return Progress(progress.seat, state, index, progress.iterations, found, progress.spent + spent)


def finish(progress: Progress, shown: int = SHOWN) -> list[Turning]:
    """The `shown` turning points with the largest margin, largest first (the earlier of
    two equal ones first)."""
    return sorted(progress.found, key=lambda t: (-t.margin, t.index))[:shown]


def review(
    game: AnyGame,
    seats: list[str],
    options: Model,
    seed: int,
    actions: list[tuple[str, Any]],
    seat: str,
    review_seed: int,
    *,
    per_decision: int = PER_DECISION,
    per_seat: int = PER_SEAT,
) -> list[Turning]:
    """The review of `seat` in one go: its top turning points, largest first."""
    progress = start(game, seats, options, seed, actions, seat, per_decision=per_decision, per_seat=per_seat)
    progress = advance(game, progress, actions, review_seed, limit=len(actions) * progress.iterations + 1)
    return finish(progress)


def weighed(game: AnyGame, knowledge: Knowledge[Any], state: Any, seat: str, action: Any) -> bool:
    """Whether the decision is one a review weighs: not forced, more than one choice, and
    the action one of the kinds of choice the seat was offered."""
    if game.outcome(state) is not None or game.forced_action(state, seat) is not None:
        return False
    legal = game.legal_actions(state, seat)
    offered = legal + [a for a in knowledge.candidates(state, seat) if a not in legal]
    if len(offered) <= 1:
        return False
    kind = getattr(action, "kind", None)
    return any(getattr(a, "kind", None) == kind for a in offered)


def judge(
    game: AnyGame,
    knowledge: Knowledge[Any],
    state: Any,
    seat: str,
    action: Any,
    index: int,
    strength: Strength,
    rng: random.Random,
) -> Turning | None:
    """The turning point at a decision a review weighs (`weighed`): None when the search
    prefers the choice made, or rates its own no higher."""
    estimates = Search(knowledge, strength).estimates(state, seat, rng, also=(action,))
    mine = knowledge.key(action)
    chosen = next((e for e in estimates if knowledge.key(e.action) == mine), None)
    best = estimates[0]
    if chosen is None or knowledge.key(best.action) == mine or best.value <= chosen.value:
        return None
    return Turning(
        index=index,
        round=_when(game, state),
        chose=knowledge.label(state, seat, action),
        preferred=knowledge.label(state, seat, best.action),
        projected=round(_points(best), 2),
        projected_chosen=round(_points(chosen), 2),
        score_name=knowledge.score_name,
        rating=round(100 * best.value, 1),
        rating_chosen=round(100 * chosen.value, 1),
        tries=strength.iterations,
        danger_words=knowledge.danger_words,
        danger=round(best.danger or 0.0, 3),
        danger_chosen=round(chosen.danger or 0.0, 3),
    )


def _when(game: AnyGame, state: Any) -> str:
    """The Week, round or turn of a decision in the game's words ("Week 3", "Turn 4
    (January 1914)"); "" where the game counts none."""
    label = game.round_label(state)
    if label:
        return label
    period = game.period(state)
    return period.label() if period is not None else ""


def _points(e: Estimate) -> float:
    return e.points if e.points is not None else 0.0

"""Information-set Monte Carlo tree search: the strong automatic player of every game
(docs/architecture.md §2, "Automatic players").

A seat decides from its own view only. Each iteration draws a *determinization*: a whole
state consistent with what the seat may know, with every hidden fact (the other players'
cards and secret orders, the order of unseen piles, the table seed behind future dice)
dealt afresh by the game's `Knowledge.determinize`, which reads only what the seat may
see. The search then walks one tree shared by all determinizations (single-observer
ISMCTS, Cowling, Powley & Whitehouse 2012): a node's children are keyed by the action,
UCB counts how often a child was *available* rather than how often its parent was
visited, and each node keeps the value of the seat that chose it. Below the tree a fast
playout policy plays on for a bounded number of steps, and the game's `evaluate` scores
the state reached (a finished game scores by its outcome).

The search plays the engine's `play` in place on its own copy, never `step`: no copy per
action. Everything it draws comes from the `rng` it is given, so a decision is a function
of (the seat's view, the rng's state): `tests/test_search.py` checks that two states
differing only in what the seat cannot see give the same decision from the same stream.

`estimates` runs the same search and returns what it thinks of each choice at the root
instead of the choice alone: its visits, its mean value and, where the game names its
score (`Knowledge.score_name`, `points`), the seat's mean projected score in the game's
unit; a choice the caller names (`also`) is weighed beside the candidates (the review of a
finished game, engine/core/review.py, weighs the choice a player made).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from .errors import IllegalAction
from .fast import clone
from .game import Game
from .model import Outcome, StateLike

__all__ = ["Estimate", "Knowledge", "Search", "Strength", "STRENGTHS", "graded", "win_shares"]

S = TypeVar("S", bound=StateLike)


def win_shares(outcome: Outcome, seats: list[str]) -> dict[str, float]:
    """1/k to each of k seats sharing first place, 0 to the rest."""
    winners = outcome.winners
    return {s: (1.0 / len(winners) if s in winners else 0.0) for s in seats}


def graded(outcome: Outcome, seats: list[str], margin: float = 0.25) -> dict[str, float]:
    """The win share, with `margin` of the value given by where each seat's score lies
    between the lowest and the highest: a point more is worth a little even when it does
    not change the winner, which gives the search a gradient to climb in a few iterations."""
    shares = win_shares(outcome, seats)
    scores = {st.seat: st.score for st in outcome.standings}
    low, high = min(scores.values(), default=0.0), max(scores.values(), default=0.0)
    span = (high - low) or 1.0
    return {s: (1 - margin) * shares[s] + margin * (scores.get(s, low) - low) / span for s in seats}


class Knowledge(Generic[S]):
    """What a game tells its search: how to deal what a seat cannot see, how to play fast,
    and how good a state is for each seat. Each game subclasses it in
    `engine/<game>/strong.py`."""

    # Steps a playout runs below the tree before `evaluate` scores the state.
    horizon: int = 40
    # The game's score in a player's words ("Prestige", "VPs"): the unit of `points`; ""
    # where the game gives its search no such projection.
    score_name: str = ""
    # The game's main danger that `danger` looks for, as a sentence's subject and verb ("war
    # or mobilization cost you the game"); "" where the game names none.
    danger_words: str = ""

    def __init__(self, game: Game[S, Any, Any]):
        self.game = game

    def determinize(self, state: S, seat: str, rng: random.Random) -> S:
        """A full state `seat` cannot tell from `state`: every fact hidden from it dealt
        again from `rng`, and the seed replaced. It must read only what `seat` may see
        (gather each hidden pool in a fixed order before shuffling it), so that two states
        that differ only in hidden facts give the same result from the same `rng`."""
        raise NotImplementedError

    def candidates(self, state: S, seat: str) -> list[Any]:
        """The actions the tree considers for `seat`: every legal one unless a game prunes
        (hundreds of bids, every combination of a payment) to the ones worth a thought."""
        return self.game.legal_actions(state, seat)

    def playout(self, state: S, seat: str, rng: random.Random) -> Any:
        """The fast policy below the tree; uniform among the legal actions by default."""
        return rng.choice(self.game.legal_actions(state, seat))

    def stop(self, state: S) -> bool:
        """Whether a playout ends here before its `horizon` (a game's natural boundary, such
        as the end of a turn, where `evaluate` reads the position best); never, by default."""
        return False

    def evaluate(self, state: S) -> dict[str, float]:
        """Each seat's value in [0, 1] of a state the playout stopped in (not finished)."""
        raise NotImplementedError

    def terminal(self, state: S, outcome: Outcome) -> dict[str, float]:
        """Each seat's value of a finished game: its share of the win, graded by score."""
        return graded(outcome, state.seats)

    def points(self, state: S) -> dict[str, float]:
        """Each seat's score in `score_name`'s unit that a state the playout stopped in
        projects (the same reading of the position as `evaluate`'s); {} where the game
        names no score."""
        return {}

    def danger(self, state: S, seat: str) -> bool:
        """Whether a state a playout stopped in (or a finished one) holds the game's main
        danger for `seat` (`danger_words`); never, by default."""
        return False

    def judged(self, state: S) -> tuple[dict[str, float], dict[str, float]]:
        """`evaluate` and `points` of one state: a game whose evaluation works its points
        out on the way gives both from one reading."""
        return self.evaluate(state), self.points(state)

    def label(self, state: S, seat: str, action: Any) -> str:
        """A choice in the game's words (its button's label); a game whose candidates hold
        choices no button offers (Origins' whole sheets) says those itself."""
        return self.game.action_label(state, seat, action)

    def key(self, action: Any) -> Hashable:
        """Two actions with one key are the same choice in the tree: a frozen (hashable)
        action is its own key, any other its JSON."""
        try:
            hash(action)
        except TypeError:
            return action.model_dump_json() if hasattr(action, "model_dump_json") else repr(action)
        return cast(Hashable, action)  # hash() just took it


@dataclass(frozen=True)
class Strength:
    """How hard the search thinks: iterations per decision (fixed, so a decision is
    reproducible; never a clock) and the exploration constant."""

    iterations: int
    exploration: float = 0.7


@dataclass(frozen=True)
class Estimate:
    """What the search thinks of one choice at the root: how often it tried it, the
    deciding seat's mean value there (in [0, 1]), its mean projected score in the game's
    unit (None where the game names no score) and the share of its playouts that reached
    the game's main danger for the seat (None where the game names none)."""

    action: Any
    visits: int
    value: float
    points: float | None
    danger: float | None = None


# Named strengths for the table setting and `simulate`; "strong" is the default, sized so a
# decision takes at most about a second on a 2-core machine (bench/search.py measures it).
STRENGTHS: dict[str, Strength] = {
    "quick": Strength(iterations=48),
    "strong": Strength(iterations=200),
    "deep": Strength(iterations=800),
}


@dataclass(eq=False)
class _Node:
    seat: str | None  # who chose the action leading here (None at the root)
    action: Any = None
    visits: int = 0
    available: int = 0
    value: float = 0.0
    points: float = 0.0  # the deciding seat's projected score summed (root children, by `estimates`)
    dangers: int = 0  # playouts below it that reached the game's main danger for that seat (likewise)
    children: dict[Hashable, _Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        return self.value / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


class Search(Generic[S]):
    """The strong player of one game: `decide(state, seat, rng)` gives the action."""

    def __init__(self, knowledge: Knowledge[S], strength: Strength = STRENGTHS["strong"]):
        self.knowledge = knowledge
        self.game = knowledge.game
        self.strength = strength

    # -- the engine, in place ----------------------------------------------------------
    def _actor(self, state: S) -> str | None:
        if self.game.outcome(state) is not None:
            return None
        prompts = self.game.prompts(state)
        return prompts[0].seat if prompts else None

    def _play(self, state: S, seat: str, action: Any, rng: random.Random) -> None:
        self.game.play(state, seat, action, rng)
        state.step += 1

    # -- one decision -------------------------------------------------------------------
    def decide(self, state: S, seat: str, rng: random.Random) -> Any:
        """The action `seat` chooses now, from what it may see and from `rng` alone."""
        k = self.knowledge
        options = k.candidates(k.determinize(state, seat, random.Random(rng.getrandbits(64))), seat)
        if not options:
            raise IllegalAction("There is nothing to decide.")
        if len(options) == 1:
            return options[0]
        root = _Node(seat=None)
        for _ in range(self.strength.iterations):
            self._iterate(root, state, seat, random.Random(rng.getrandbits(64)))
        best = max(root.children.values(), key=lambda n: (n.visits, n.value))
        return best.action

    def estimates(self, state: S, seat: str, rng: random.Random, also: tuple[Any, ...] = ()) -> list[Estimate]:
        """What the search, from what `seat` may see and from `rng` alone, thinks of each
        choice it tried at the root, the one `decide` would play first (most visits, then
        value). `also`: choices weighed beside the candidates, each tried first (a legal
        choice the game's candidates leave out, such as the one a player made)."""
        k = self.knowledge
        options = k.candidates(k.determinize(state, seat, random.Random(rng.getrandbits(64))), seat)
        if not options and not also:
            raise IllegalAction("There is nothing to decide.")
        root = _Node(seat=None)
        for _ in range(self.strength.iterations):
            self._iterate(root, state, seat, random.Random(rng.getrandbits(64)), also=also, scored=True)
        tried = sorted(root.children.values(), key=lambda n: (n.visits, n.value), reverse=True)
        return [
            Estimate(
                n.action,
                n.visits,
                n.value / n.visits,
                n.points / n.visits if k.score_name else None,
                n.dangers / n.visits if k.danger_words else None,
            )
            for n in tried
            if n.visits
        ]

    def _root_actions(self, state: S, seat: str, also: tuple[Any, ...]) -> list[Any]:
        """The candidates at the root, and after them the `also` choices they lack."""
        k = self.knowledge
        actions = list(k.candidates(state, seat))
        keys = {k.key(a) for a in actions}
        return actions + [a for a in also if k.key(a) not in keys]

    def _iterate(
        self, root: _Node, real: S, seat: str, rng: random.Random, also: tuple[Any, ...] = (), scored: bool = False
    ) -> None:
        k = self.knowledge
        state = clone(k.determinize(real, seat, rng))
        node, path = root, []
        actor: str | None = seat  # the root is always the deciding seat's own choice
        while actor is not None:
            actions = self._root_actions(state, actor, also) if node is root and also else k.candidates(state, actor)
            if not actions:
                break
            keys = [k.key(a) for a in actions]
            untried = []
            for key, action in zip(keys, actions, strict=True):
                child = node.children.get(key)
                if child is None:
                    untried.append((key, action))
                else:
                    child.available += 1
            if untried:
                first = [u for u in untried if node is root and any(u[0] == k.key(a) for a in also)]
                key, action = first[0] if first else untried[rng.randrange(len(untried))]
                child = node.children[key] = _Node(seat=actor, action=action, available=1)
                try:
                    self._play(state, actor, action, rng)
                except IllegalAction:
                    if not first:
                        raise
                    del node.children[key]  # a choice named by the caller this deal does not allow
                    return
                path.append(child)
                break
            c = self.strength.exploration
            child = max((node.children[key] for key in keys), key=lambda n: n.ucb(c))
            self._play(state, actor, child.action, rng)
            path.append(child)
            node = child
            actor = self._actor(state)
        values, points = self._rollout(state, rng, scored)
        for n in path:
            n.visits += 1
            if n.seat is not None:  # every node on a path is some seat's choice; the root alone has none
                n.value += values.get(n.seat, 0.0)
        if path and scored:
            path[0].points += points.get(seat, 0.0)
            path[0].dangers += bool(k.danger_words) and k.danger(state, seat)

    def _rollout(self, state: S, rng: random.Random, scored: bool = False) -> tuple[dict[str, float], dict[str, float]]:
        k = self.knowledge
        for _ in range(k.horizon):
            actor = self._actor(state)
            if actor is None or k.stop(state):
                break
            self._play(state, actor, k.playout(state, actor, rng), rng)
        outcome = self.game.outcome(state)
        if outcome is not None:
            points = {st.seat: st.score for st in outcome.standings} if scored else {}
            return k.terminal(state, outcome), points
        return k.judged(state) if scored else (k.evaluate(state), {})


def policy(search: Search[Any]) -> Callable[[Any, str, random.Random], Any]:
    """The search as a policy of the shape `bot_action` has (state, seat, rng) -> action."""
    return search.decide

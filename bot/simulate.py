"""`python -m bot simulate`: many whole games between automatic players.

Each game is `engine.core.playout.play_out` with every seat played by `bot_action`. The
report gives each nation's (or seat's) share of wins, the mean game length in actions,
and the mean of every figure the game reports for a finished game (`Game.figures`, such
as the share of Crisis games that end in war). A game that leaves a figure out counts as
0 for it (so an indicator's mean is a share); the report then also says in how many games
it was reported and its mean over those. A first place shared by k seats counts
1/k to each, so the win shares of one player count add up to 100%.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from engine.core import Game, Model, rng_for
from engine.core.playout import play_out

__all__ = ["Simulation", "simulate", "game_seed", "player_counts", "parse_options"]


def game_seed(seed: int, index: int) -> int:
    """The seed of game number `index` of a run: spread out, so runs with nearby seeds differ."""
    return rng_for(seed, index, "simulate").getrandbits(63)


def player_counts(game: Game, players: int | None) -> list[int]:
    if players is None:
        return list(range(game.min_players, game.max_players + 1))
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players}-{game.max_players} players, not {players}.")
    return [players]


@dataclass
class Simulation:
    """The results for one player count."""

    game: str
    title: str
    players: int
    games: int
    seed: int
    wins: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    seated: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # games each label played
    lengths: list[int] = field(default_factory=list)
    figures: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    reasons: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def win_rates(self) -> dict[str, float]:
        return {label: self.wins[label] / n for label, n in sorted(self.seated.items())}

    def mean_length(self) -> float:
        return statistics.fmean(self.lengths) if self.lengths else 0.0

    def mean_figures(self) -> dict[str, float]:
        """Mean per game, a figure missing from a game counting as 0."""
        return {key: sum(values) / self.games for key, values in sorted(self.figures.items())}

    def _figure_lines(self, markdown: bool) -> list[str]:
        lines = []
        for key, mean in self.mean_figures().items():
            values = self.figures[key]
            partial = (
                f" (reported in {len(values)} of {self.games} games; mean there {statistics.fmean(values):.3f})"
                if len(values) < self.games
                else ""
            )
            lines.append(
                f"| {key} | {mean:.3f} | {partial.strip(' ()')} |"
                if markdown
                else f"  {key}: {mean:.3f}{partial}"
            )
        return lines

    def text(self) -> str:
        lines = [
            f"{self.title}: {self.players} players, {self.games} games, seed {self.seed}",
            f"Mean length: {self.mean_length():.1f} actions"
            f" (min {min(self.lengths, default=0)}, max {max(self.lengths, default=0)})",
            "Win rate (shared first places split):",
        ]
        width = max((len(label) for label in self.seated), default=0)
        lines += [f"  {label:<{width}}  {rate:6.1%}" for label, rate in self.win_rates().items()]
        if self.reasons:
            lines.append("How games ended:")
            lines += [
                f"  {n:>5}  {reason}" for reason, n in sorted(self.reasons.items(), key=lambda r: -r[1])
            ]
        if self.figures:
            lines.append("Figures (mean per game):")
            lines += self._figure_lines(markdown=False)
        return "\n".join(lines)

    def markdown(self) -> str:
        lines = [
            f"## {self.title}, {self.players} players",
            "",
            f"{self.games} games, seed {self.seed}. Mean length {self.mean_length():.1f} actions "
            f"(min {min(self.lengths, default=0)}, max {max(self.lengths, default=0)}).",
            "",
            "| Seat | Games | Win rate |",
            "|---|---:|---:|",
        ]
        lines += [
            f"| {label} | {self.seated[label]} | {rate:.1%} |" for label, rate in self.win_rates().items()
        ]
        if self.reasons:
            lines += ["", "| How the game ended | Games |", "|---|---:|"]
            lines += [
                f"| {reason} | {n} |" for reason, n in sorted(self.reasons.items(), key=lambda r: -r[1])
            ]
        if self.figures:
            lines += ["", "| Figure | Mean per game | Note |", "|---|---:|---|"]
            lines += self._figure_lines(markdown=True)
        return "\n".join(lines)


@dataclass(frozen=True)
class _Played:
    """What one game contributes to the report (small, so workers can send it back)."""

    labels: tuple[str, ...]
    winners: tuple[str, ...]  # labels
    length: int
    reason: str
    figures: dict[str, float]


def _play(game: Game, players: int, seed: int, options: Model | None, index: int) -> _Played:
    playout = play_out(game, players, game_seed(seed, index), options)
    state, outcome = playout.state, playout.outcome
    assert outcome is not None  # play_out raises rather than return an unfinished game
    label = {seat: game.seat_label(state, seat) for seat in state.seats}
    return _Played(
        labels=tuple(label.values()),
        winners=tuple(label[seat] for seat in outcome.winners),
        length=len(playout.actions),
        reason=outcome.reason,
        figures={key: float(value) for key, value in game.figures(state).items()},
    )


def simulate(
    game: Game, players: int, games: int, seed: int, options: Model | None = None, jobs: int = 1
) -> Simulation:
    """Play `games` games at `players` seats; deterministic for a given seed, whatever `jobs`.

    With jobs > 1 the games are shared among worker processes; the results are added up
    in game order, so the report is the same as with one process.
    """
    if games < 1:
        raise ValueError("Simulate at least one game.")
    play = partial(_play, game, players, seed, options)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            played = list(pool.map(play, range(games), chunksize=max(1, games // (jobs * 4))))
    else:
        played = [play(index) for index in range(games)]
    result = Simulation(game=game.id, title=game.title, players=players, games=games, seed=seed)
    for one in played:
        for label in one.labels:
            result.seated[label] += 1
        for label in one.winners:
            result.wins[label] += 1 / len(one.winners)
        result.lengths.append(one.length)
        result.reasons[one.reason] += 1
        for key, value in one.figures.items():
            result.figures[key].append(value)
    return result


def parse_options(game: Game, pairs: list[str]) -> Model:
    """`key=value` pairs into the game's Options (values parsed as JSON when they are JSON)."""
    raw: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"Options are key=value, not {pair!r}.")
        try:
            raw[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            raw[key.strip()] = value
    return game.Options.model_validate(raw)

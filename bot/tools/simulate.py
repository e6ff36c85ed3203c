"""`python -m bot simulate`: many whole games between automatic players.

Each game is `engine.core.playout.play_out` with every seat played by `bot_action`. The
report gives each nation's (or seat's) share of wins, the mean game length in actions,
and the mean of every figure the game reports for a finished game (`Game.figures`, such
as the share of Crisis games that end in war). A game that leaves a figure out counts as
0 for it (so an indicator's mean is a share); the report then also says in how many games
it was reported and its mean over those. A first place shared by k seats counts
1/k to each, so the win shares of one player count add up to 100%.

A *lineup* names the automatic player of each seat (`engine.core.players`: "basic",
"strong", a game's test players): `("strong", "basic")` is one strong player among basic
ones (the last name fills the remaining seats). The lineup turns one seat further each
game, so every player sits at every seat equally often, and the report gives each named
player's share of wins against its fair share (1 / players), with a 95% interval.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from engine.core import Game, Model, rng_for
from engine.core.players import player
from engine.core.playout import play_out

__all__ = ["Simulation", "simulate", "game_seed", "player_counts", "parse_options", "seat_players"]


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
    lineup: tuple[str, ...] = ()
    player_wins: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    player_seats: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # seat-games

    def player_rates(self) -> dict[str, tuple[float, float, float]]:
        """Each named player's share of the seat-games it won, with a 95% interval
        (normal approximation, clipped to [0, 1])."""
        out = {}
        for name, n in sorted(self.player_seats.items()):
            rate = self.player_wins[name] / n
            half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-12) / n)
            out[name] = (rate, max(0.0, rate - half), min(1.0, rate + half))
        return out

    def _player_lines(self, markdown: bool) -> list[str]:
        fair = 1 / self.players
        lines = []
        for name, (rate, low, high) in self.player_rates().items():
            ratio = f"{rate / fair:.2f}x fair ({low / fair:.2f}-{high / fair:.2f})"
            if markdown:
                lines.append(f"| {name} | {self.player_seats[name]} | {rate:.1%} | {ratio} |")
            else:
                lines.append(f"  {name:<12} {rate:6.1%}  {ratio}, {self.player_seats[name]} seat-games")
        return lines

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
        if self.lineup:
            lines.append(f"By player (lineup {', '.join(self.lineup)}; fair share {1 / self.players:.1%}):")
            lines += self._player_lines(markdown=False)
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
        if self.lineup:
            lines += [
                "",
                f"Lineup {', '.join(self.lineup)} (fair share {1 / self.players:.1%}):",
                "",
                "| Player | Seat-games | Win rate | Against fair share (95%) |",
                "|---|---:|---:|---|",
            ]
            lines += self._player_lines(markdown=True)
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
    players: tuple[str, ...]  # the named automatic player of each seat, in seat order
    shares: tuple[float, ...]  # each seat's share of the win, in seat order
    length: int
    reason: str
    figures: dict[str, float]


def seat_players(lineup: tuple[str, ...], players: int, index: int) -> list[str]:
    """The named player at each seat in game number `index`: the lineup filled out with its
    last name, turned one seat further each game."""
    names = (list(lineup) + [lineup[-1]] * players)[:players]
    turn = index % players
    return names[-turn:] + names[:-turn] if turn else names


def _play(
    game: Game, players: int, seed: int, options: Model | None, lineup: tuple[str, ...], index: int
) -> _Played:
    names = seat_players(lineup, players, index) if lineup else []
    seat_policies = {f"s{i + 1}": player(game, name) for i, name in enumerate(names)}
    playout = play_out(game, players, game_seed(seed, index), options, seat_policies=seat_policies)
    state, outcome = playout.state, playout.outcome
    assert outcome is not None  # play_out raises rather than return an unfinished game
    label = {seat: game.seat_label(state, seat) for seat in state.seats}
    winners = outcome.winners
    return _Played(
        labels=tuple(label.values()),
        winners=tuple(label[seat] for seat in winners),
        players=tuple(names),
        shares=tuple((1 / len(winners) if seat in winners else 0.0) for seat in state.seats),
        length=len(playout.actions),
        reason=outcome.reason,
        figures={key: float(value) for key, value in game.figures(state).items()},
    )


def simulate(
    game: Game,
    players: int,
    games: int,
    seed: int,
    options: Model | None = None,
    jobs: int = 1,
    lineup: tuple[str, ...] = (),
    progress: bool = False,
) -> Simulation:
    """Play `games` games at `players` seats; deterministic for a given seed, whatever `jobs`.

    With jobs > 1 the games are shared among worker processes; the results are added up
    in game order, so the report is the same as with one process. `lineup` names each
    seat's automatic player (default: everyone `bot_action`); `progress` writes a line to
    standard error as each tenth of the games is done.
    """
    if games < 1:
        raise ValueError("Simulate at least one game.")
    for name in lineup:
        player(game, name)  # an unknown name is refused before any game is played
    play = partial(_play, game, players, seed, options, tuple(lineup))
    played: list[_Played] = []
    step = max(1, games // 10)

    def done(one: _Played) -> None:
        played.append(one)
        if progress and (len(played) % step == 0 or len(played) == games):
            print(f"{game.title}, {players} players: {len(played)}/{games} games", file=sys.stderr, flush=True)

    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for one in pool.map(play, range(games), chunksize=max(1, min(8, games // (jobs * 4)))):
                done(one)
    else:
        for index in range(games):
            done(play(index))
    result = Simulation(
        game=game.id, title=game.title, players=players, games=games, seed=seed, lineup=tuple(lineup)
    )
    for one in played:
        for name, share in zip(one.players, one.shares, strict=False):
            result.player_seats[name] += 1
            result.player_wins[name] += share
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

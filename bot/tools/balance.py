"""`python -m bot balance`: seat balance measured in stored parts, and the reports made from them.

The strong players are too slow to play thousands of games in one sitting (a 5-player
Crisis game between quick players takes about 18 s of CPU), so a measurement is built up in
*parts*: `balance run GAME --players N --games K --seed S [--start I]` plays the games
number I to I+K-1 of seed S (the games `simulate` plays with that seed, `game_seed(S, i)`)
with the lineup in every seat, and appends one line to the game's results file,
docs/balance/results/GAME-LINEUP.jsonl. `balance report GAME` merges every stored part and
writes docs/balance/GAME.md: the hand-written prose of docs/balance/GAME.notes.md with the
generated results put where its `<!-- results -->` line stands. The figures of the current
state are only ever the generated ones.

A part is one JSON line: the player count, seed, first index and number of games, the
lineup, the content it was measured on (`content_key`: a hash of the game's rules version
and content files), the commit and the date, the seats' labels (sorted) and per game
`[length, winner, ...]`, the winners given as indexes into those labels (a first place
shared by k seats counts 1/k to each). Results of other content are kept but labelled
stale and left out of the figures, so a change of cards or objectives never mixes with the
measurements made before it. A part whose games overlap a stored part of the same content
(the same count, seed and an index in both) is refused, before it is played and again when
it is stored.

The goal (GOALS): every seat's share of wins within 0.67-1.5x its fair share (1 / players)
at the game's number of games a count; where the goal says so, the seat's 95% Wilson
interval must also overlap that range (a point estimate outside it on a few hundred games
may still be noise).
"""

from __future__ import annotations

import datetime
import fcntl
import hashlib
import json
import math
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import engine
from engine.core import Game
from engine.core.content import content_dir
from engine.core.players import player

from .simulate import _play

__all__ = [
    "GOALS",
    "Goal",
    "Part",
    "BalanceError",
    "check_free",
    "commit_of",
    "content_key",
    "load",
    "report",
    "results_file",
    "run_part",
    "store",
    "summary",
    "write_report",
]

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "balance"
LOW, HIGH = 0.67, 1.5
MARKER = "<!-- results -->"


@dataclass(frozen=True)
class Goal:
    """What a game's balance is measured against: the lineup in every seat, at `games` games
    a count, for the counts given (a solitaire count has no seat balance)."""

    lineup: str
    games: int
    counts: tuple[int, ...]
    interval: bool  # the seat's 95% interval must overlap LOW-HIGH as well
    part: int = 50  # games a part, in the next command the report suggests


GOALS = {
    "origins": Goal("reserve", 2000, (2, 3, 4, 5, 6, 7), interval=False, part=2000),
    "crisis1914": Goal("quick", 400, (2, 3, 4, 5), interval=True, part=25),
    "schonbrunn": Goal("quick", 400, (3, 4, 5, 6), interval=True, part=50),
}


class BalanceError(Exception):
    """A part that may not be stored, or a report that cannot be written; the message says why."""


def goal_for(game: Game) -> Goal:
    counts = tuple(range(max(2, game.min_players), game.max_players + 1))
    return GOALS.get(game.id, Goal("basic", 400, counts, interval=True))


def content_key(game: Game) -> str:
    """A short hash of the game's rules version and its shipped content files: results of
    one key were measured on the same cards, tables and objectives."""
    digest = hashlib.sha256(f"{game.id} rules {game.rules_version}\n".encode())
    folder = Path(engine.__file__).resolve().parent / "content" / game.id
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        digest.update(path.name.encode() + b"\n" + path.read_bytes())
    return digest.hexdigest()[:12]


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def commit_of(game: Game) -> str:
    """The commit the measurement stands for; refused while the game's content or engine
    differs from it, since the stored results must be of content as committed."""
    changed = _git("status", "--porcelain", "--", f"engine/content/{game.id}", f"engine/{game.id}")
    if changed:
        raise BalanceError(
            f"{game.title}'s content or engine has uncommitted changes ({changed.splitlines()[0].strip()}, ...): "
            "commit them first, so the stored results name the content they were measured on."
        )
    return _git("rev-parse", "--short=7", "HEAD") or "unknown"


def unchanged_since(game: Game, commit: str) -> bool:
    """Whether the game's content and engine are as they were at `commit` (other files may
    have moved on: the work tree is shared) and still committed."""
    commit_of(game)  # refuses uncommitted changes
    paths = [f"engine/content/{game.id}", f"engine/{game.id}"]
    return _git("diff", "--name-only", commit, "HEAD", "--", *paths) == ""


@dataclass
class Part:
    """One stored run: games number start..start+games-1 of `seed` at `players` seats."""

    players: int
    seed: int
    start: int
    lineup: str
    content: str
    rules_version: int
    commit: str
    date: str
    labels: list[str]
    results: list[list[int]]  # per game: [length, winner index, ...]
    cpu: float | None = None  # seconds of CPU the part's games took, all processes together

    @property
    def games(self) -> int:
        return len(self.results)

    def indexes(self) -> range:
        return range(self.start, self.start + self.games)

    def overlaps(self, other: Part) -> bool:
        same = (self.players, self.seed, self.content) == (other.players, other.seed, other.content)
        return same and self.start < other.start + other.games and other.start < self.start + self.games

    def line(self) -> str:
        record = {
            "players": self.players,
            "seed": self.seed,
            "start": self.start,
            "games": self.games,
            "lineup": self.lineup,
            "content": self.content,
            "rules_version": self.rules_version,
            "commit": self.commit,
            "date": self.date,
            "labels": self.labels,
            "results": self.results,
        }
        if self.cpu is not None:
            record["cpu"] = self.cpu
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def parse(cls, line: str) -> Part:
        record = json.loads(line)
        record.pop("games")
        return cls(**record)


def results_file(game_id: str, lineup: str, docs: Path | None = None) -> Path:
    return (docs or DOCS) / "results" / f"{game_id}-{lineup}.jsonl"


def load(path: Path) -> list[Part]:
    if not path.exists():
        return []
    return [Part.parse(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _refuse_overlap(part: Part, stored: list[Part]) -> None:
    for other in stored:
        if part.overlaps(other):
            free = max(
                o.start + o.games
                for o in stored
                if (o.players, o.seed, o.content) == (part.players, part.seed, part.content)
            )
            raise BalanceError(
                f"games {part.start}-{part.start + part.games - 1} of seed {part.seed} at {part.players} players "
                f"overlap a stored part (games {other.start}-{other.start + other.games - 1}, commit {other.commit}): "
                f"use --start {free} or another --seed."
            )


def check_free(path: Path, game: Game, players: int, seed: int, start: int, games: int) -> None:
    """Refuse before playing a part whose games are stored already."""
    planned = Part(players, seed, start, "", content_key(game), game.rules_version, "", "", [], [[0]] * games)
    _refuse_overlap(planned, load(path))


def store(path: Path, part: Part) -> None:
    """Append the part to the results file, under a lock, refusing an overlap."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        stored = [Part.parse(line) for line in handle.read().splitlines() if line.strip()]
        _refuse_overlap(part, stored)
        handle.seek(0, 2)
        handle.write(part.line() + "\n")


def run_part(
    game: Game,
    players: int,
    games: int,
    seed: int,
    start: int = 0,
    lineup: str | None = None,
    jobs: int = 1,
    commit: str = "",
    progress: bool = False,
) -> Part:
    """Play one part (the same games `simulate` plays with this seed, from index `start`)."""
    goal = goal_for(game)
    name = lineup or goal.lineup
    player(game, name)  # an unknown name is refused before any game is played
    if not game.min_players <= players <= game.max_players:
        raise BalanceError(
            f"{game.title} takes {game.min_players}-{game.max_players} players, not {players}."
        )
    if games < 1 or start < 0:
        raise BalanceError("A part plays at least one game, from an index of 0 or more.")
    if content_dir() is not None:
        raise BalanceError(
            "A group's own content is configured (content_dir): balance measures the shipped content."
        )
    play = partial(_timed, partial(_play, game, players, seed, None, (name,)))
    indexes = range(start, start + games)
    played = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for one in pool.map(play, indexes, chunksize=1):
                played.append(one)
                _say(progress, game, players, len(played), games)
    else:
        for index in indexes:
            played.append(play(index))
            _say(progress, game, players, len(played), games)
    labels = sorted(played[0][0].labels)
    results = []
    for one, _ in played:
        if sorted(one.labels) != labels:
            raise BalanceError(f"The seats' nations differ between games at {players} players: {one.labels}.")
        results.append([one.length, *sorted(labels.index(w) for w in one.winners)])
    return Part(
        players=players,
        seed=seed,
        start=start,
        lineup=name,
        content=content_key(game),
        rules_version=game.rules_version,
        commit=commit,
        date=datetime.datetime.now(datetime.UTC).date().isoformat(),
        labels=labels,
        results=results,
        cpu=round(sum(seconds for _, seconds in played), 1),
    )


def _timed(play: Any, index: int) -> tuple[Any, float]:
    """One game and the CPU it took in the process that played it."""
    began = time.process_time()
    one = play(index)
    return one, time.process_time() - began


def _say(progress: bool, game: Game, players: int, done: int, games: int) -> None:
    if progress and (done % max(1, games // 10) == 0 or done == games):
        print(f"{game.title}, {players} players: {done}/{games} games", file=sys.stderr, flush=True)


# -- the report ---------------------------------------------------------------------------


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share (successes may be fractional: split wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Count:
    """The merged parts of one player count."""

    players: int
    parts: list[Part] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(p.games for p in self.parts)

    def shares(self) -> dict[str, float]:
        wins: dict[str, float] = defaultdict(float)
        for part in self.parts:
            for label in part.labels:
                wins[label] += 0.0
            for result in part.results:
                winners = result[1:]
                for index in winners:
                    wins[part.labels[index]] += 1 / len(winners)
        return dict(sorted(wins.items()))

    def cpu_a_game(self) -> float | None:
        """Mean seconds of CPU a game, over the parts that were timed."""
        timed = [p for p in self.parts if p.cpu is not None]
        return sum(p.cpu or 0.0 for p in timed) / sum(p.games for p in timed) if timed else None

    def mean_length(self) -> float:
        lengths = [r[0] for p in self.parts for r in p.results]
        return sum(lengths) / len(lengths) if lengths else 0.0


def _seat_row(label: str, wins: float, count: Count, goal: Goal) -> tuple[str, bool]:
    fair = 1 / count.players
    share = wins / count.games
    low, high = wilson(wins, count.games)
    ratio, low_x, high_x = share / fair, low / fair, high / fair
    inside = LOW <= round(ratio, 2) <= HIGH
    overlap = low_x <= HIGH and high_x >= LOW
    ok = inside and (overlap or not goal.interval)
    verdict = "inside" if inside else "**outside**"
    if goal.interval:
        verdict += ", interval overlaps" if overlap else ", **interval outside**"
    row = f"| {label} | {share:.1%} | {ratio:.2f}× | {low_x:.2f}-{high_x:.2f}× | {verdict} |"
    return row, ok


def _seeds(parts: list[Part]) -> str:
    spans = sorted((p.seed, p.start, p.start + p.games - 1) for p in parts)
    merged: list[list[int]] = []
    for seed, first, last in spans:
        if merged and merged[-1][0] == seed and merged[-1][2] + 1 == first:
            merged[-1][2] = last
        else:
            merged.append([seed, first, last])
    return "; ".join(f"seed {s} games {a}-{b}" for s, a, b in merged)


def _measured(parts: list[Part]) -> str:
    """The commits the parts were measured at, in the order they were stored (the work tree
    moves on between parts, the game's content does not: it is part of the results' key)."""
    seen = list(dict.fromkeys((p.commit, p.date) for p in parts))
    if len(seen) > 3:
        (first, began), (last, ended) = seen[0], seen[-1]
        return f"{len(seen)} commits, from {first} ({began}) to {last} ({ended})"
    return ", ".join(f"{commit} ({date})" for commit, date in seen)


def _next_command(game: Game, goal: Goal, lineup: str, count: Count) -> str:
    seed = max((p.seed for p in count.parts), default=game.rules_version * 1000 + count.players)
    start = max((p.start + p.games for p in count.parts if p.seed == seed), default=0)
    return (
        f"nice -n 19 python -m bot balance run {game.id} --players {count.players} --games {goal.part} "
        f"--seed {seed} --start {start} --lineup {lineup} --jobs 2"
    )


def _count_section(game: Game, goal: Goal, lineup: str, count: Count) -> tuple[list[str], str]:
    """The table of one count, and its line in the summary."""
    lines = [f"### {count.players} players", ""]
    if not count.parts:
        lines += ["No games stored.", "", f"Next part: `{_next_command(game, goal, lineup, count)}`", ""]
        return lines, f"| {count.players} | 0 | not measured | |"
    lines += [
        f"{count.games:,} games ({_seeds(count.parts)}); measured at {_measured(count.parts)}. "
        f"Mean length {count.mean_length():.1f} actions. Fair share {1 / count.players:.1%}.",
        "",
        "| Seat | Share of wins | × fair | 95% interval (× fair) | 0.67-1.5× |",
        "|---|---:|---:|---:|---|",
    ]
    outside = []
    for label, wins in count.shares().items():
        row, ok = _seat_row(label, wins, count, goal)
        lines.append(row)
        if not ok:
            outside.append(f"{label} {wins / count.games * count.players:.2f}×")
    lines.append("")
    if count.games < goal.games:
        cpu = count.cpu_a_game()
        if cpu is not None:
            hours = cpu * (goal.games - count.games) / 3600
            lines += [
                f"CPU: {cpu:.1f} s a game where timed, so the {goal.games - count.games:,} games to go "
                f"need about {hours:.1f} CPU-hours.",
                "",
            ]
        lines += [f"Next part: `{_next_command(game, goal, lineup, count)}`", ""]
    verdict = "not met" if outside else "met"
    if count.games < goal.games:
        verdict = f"{'outside' if outside else 'inside'} so far, {goal.games - count.games:,} games to go"
    summary = f"| {count.players} | {count.games:,} | {verdict} | {', '.join(outside)} |"
    return lines, summary


def _lineup_section(game: Game, goal: Goal, lineup: str, parts: list[Part]) -> list[str]:
    key = content_key(game)
    current = [p for p in parts if p.content == key]
    stale = [p for p in parts if p.content != key]
    counts = sorted(set(goal.counts) | {p.players for p in current})
    interval = " and its 95% interval overlapping that range" if goal.interval else ""
    lines = [
        f"## Results: `{lineup}` in every seat (generated)",
        "",
        f"Goal: every seat's share of wins (a shared first place split) within {LOW}-{HIGH}× its fair "
        f"share{interval}, at {goal.games:,} games a count. Content {key} (rules version "
        f"{game.rules_version}); stored in `docs/balance/results/{game.id}-{lineup}.jsonl`.",
        "",
        "| Players | Games | Goal | Seats outside |",
        "|---:|---:|---|---|",
    ]
    body: list[str] = []
    for players in counts:
        section, summary = _count_section(
            game, goal, lineup, Count(players, [p for p in current if p.players == players])
        )
        lines.append(summary)
        body += section
    lines += [""] + body
    if stale:
        lines += [
            f"Not counted: {sum(p.games for p in stale)} games in {len(stale)} parts measured on other content "
            f"(at {_measured(stale)}).",
            "",
        ]
    return lines


def report(game: Game, docs: Path | None = None) -> str:
    """docs/balance/GAME.md as `balance report` writes it: the notes with the results inserted."""
    docs = docs or DOCS
    notes_path = docs / f"{game.id}.notes.md"
    if not notes_path.exists():
        raise BalanceError(f"{notes_path} is missing: it holds the report's hand-written prose.")
    notes = notes_path.read_text(encoding="utf-8")
    if notes.count(MARKER) != 1:
        raise BalanceError(f"{notes_path} must hold the line {MARKER} once: the generated results go there.")
    goal = goal_for(game)
    lineups = [goal.lineup] + sorted(
        p.name.removeprefix(f"{game.id}-").removesuffix(".jsonl")
        for p in (docs / "results").glob(f"{game.id}-*.jsonl")
        if p.name != f"{game.id}-{goal.lineup}.jsonl"
    )
    generated: list[str] = []
    for lineup in lineups:
        generated += _lineup_section(game, goal, lineup, load(results_file(game.id, lineup, docs)))
    head, tail = notes.split(MARKER)
    banner = (
        f"<!-- Generated by `python -m bot balance report {game.id}` from {game.id}.notes.md and "
        f"results/{game.id}-*.jsonl: edit those, not this file. -->\n"
    )
    return banner + head + "\n".join(generated).rstrip("\n") + "\n" + tail


def write_report(game: Game, docs: Path | None = None) -> Path:
    path = (docs or DOCS) / f"{game.id}.md"
    path.write_text(report(game, docs), encoding="utf-8")
    return path


def summary(part: Part) -> Iterator[str]:
    """What `balance run` prints of the part it stored."""
    count = Count(part.players, [part])
    yield f"{part.games} games at {part.players} players, seed {part.seed} from {part.start}, content {part.content}:"
    for label, wins in count.shares().items():
        yield f"  {label}: {wins / part.games:.1%} = {wins / part.games * part.players:.2f}× fair"

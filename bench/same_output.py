"""Prove that a change of structure changed nothing players see: play seeded whole games of
every title and player count and digest everything they produce.

    .venv/bin/python bench/same_output.py --record bench/same_output.json [--keep DIR]
    .venv/bin/python bench/same_output.py --compare bench/same_output.json [--keep DIR]
    .venv/bin/python bench/same_output.py --compare FILE --game crisis1914 --players 2

Every title at every count it seats (Crisis: 1914 1-5, Origins 2-7, Schönbrunn 3-6), one
seed each, is played to its end by the basic automatic player (`TableService.auto`, no
worker process) on a fresh SQLite file, with a clock that starts at a fixed instant and
advances one minute per decision, so every `<t:…>` deadline is the same from run to run.
Per game and count, seven streams are kept and each digested with SHA-256:

- `public`: the console's transcript without its private lines: each command typed,
  every public post, the status text whenever it changed, and after the end `/game
  status`, every page of `/game log`, `/game publish` and `/community history id:1`;
- `private`: every `[private to <name>]` line (confirmations, hands, turn notices, and
  each player's `/game me` after the end), with its reader;
- `summaries`: the channel's round summaries as the Discord adapter posts them (each
  finished message, then the last one still held by the status message), raw markup;
- `cards`: the status card (the status message's embed) after every status change;
- `pictures`: the board at each new status message (each round, and where a round's
  summary filled a message), every player's private picture after the end, and the final
  board and score chart: file name, SHA-256 of the PNG, alt text;
- `export`: the finished game's `/game export` JSON;
- `replay_page`: its `/game export format:html` replay page.

Why the console as the front end: it is the one front end that turns every outbox into
text without a network, so its transcript is what a player reads (posts, the status text,
private lines labelled with their reader, timestamps in words), through the same
`Console` class `python -m bot console` runs. What only Discord shows (the round summary
that is the status message's text, the status card that is its embed, the board picture)
is read here from the same service calls the Discord adapter makes
(`Posts.round_summary`, `Posts.summary_moved`, `Posts.status_card`,
`TableService.picture`), in the same order (bot/discord/delivery.py), so those are
covered too. Pictures are drawn once per round rather than per status change: a picture
takes about 0.1 s, and one per decision would make the run many minutes long.

`--record FILE` writes the digests (with each stream's line count and a digest of every
block of lines, so a comparison can say where a stream first differs). `--compare FILE`
plays again and prints per game and count `same` or the streams that differ; exit 1 on
any difference. `--keep DIR` writes each stream as text (`DIR/<game>-<n>p/<stream>.txt`,
the PNGs under `pictures/`) when recording; when comparing it writes `<stream>.now.txt`
(and `pictures.now/`) beside them and prints the first differing lines of the two.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, whichever checkout the venv was made in

from bot.console.console import CHANNEL, Console, user_id_for  # noqa: E402
from bot.discord.markup import markup  # noqa: E402
from bot.render.pictures import Picture  # noqa: E402
from bot.service.outbox import Outbox  # noqa: E402
from bot.service.tables import TableService  # noqa: E402
from bot.store import open_store  # noqa: E402

COUNTS = {"crisis1914": range(1, 6), "origins": range(2, 8), "schonbrunn": range(3, 7)}
NAMES = ("anna", "boris", "clara", "dmitri", "emil", "franz", "greta")
SEED = 1
START = 1_800_000_000.0  # the clock's first instant (as the service tests' Clock)
STEP_SECONDS = 60.0  # the clock moves this much before each automatic decision
MOST_DECISIONS = 20_000  # a game still running after this many is a fault in itself
STREAMS = ("public", "private", "summaries", "cards", "pictures", "export", "replay_page")
BLOCK = 200  # lines per block digest
FORMAT = 1


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@dataclass
class Played:
    """What one game produced: each stream's lines, and the PNGs by name."""

    streams: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in STREAMS})
    pngs: list[tuple[str, bytes]] = field(default_factory=list)
    seconds: float = 0.0


class Recorder(Console):
    """The console, keeping also what the Discord adapter's status message would show."""

    def __init__(self, service: TableService, out: io.StringIO, played: Played) -> None:
        super().__init__(service, out)
        self.played = played
        self.message: int | None = None  # the status message holding the live summary

    async def show(self, out: Outbox, caller: str | None = None) -> None:
        changed = out.status_source is not None
        await super().show(out, caller)
        if changed:
            await self.status_changed()

    async def status_changed(self) -> None:
        """As bot/discord/delivery.py's status edit: the card, then the summary; a finished
        summary message stays, a new status message takes over (and shows the board)."""
        posts = self.service.posts
        card = await posts.status_card(CHANNEL)
        shown = {**asdict(card), "description": markup(card.description)}  # as the status message holds it
        self.played.streams["cards"].append(json.dumps(shown, ensure_ascii=False, sort_keys=True))
        summary = await posts.round_summary(CHANNEL)
        if summary is None:
            return
        *finished, live = summary.parts
        if self.message is not None and summary.held_by == self.message and not finished:
            return
        for part in finished:
            for text in part.messages():
                self.played.streams["summaries"] += [*text.splitlines(), "-- (message)"]
        self.message = (self.message or 0) + 1
        await posts.summary_moved(CHANNEL, self.message, live)
        self.picture("board", await self.service.picture(CHANNEL))

    async def last_summary(self) -> None:
        """The summary the status message holds at the end (still live, never finished)."""
        summary = await self.service.posts.round_summary(CHANNEL)
        for part in summary.parts if summary else []:
            for text in part.messages():
                self.played.streams["summaries"] += [*text.splitlines(), "-- (status message)"]

    def picture(self, label: str, picture: Picture | None) -> None:
        if picture is None:
            return
        digest = hashlib.sha256(picture.png).hexdigest()
        name = f"{len(self.played.pngs) + 1:03d}-{label}-{picture.filename}"
        self.played.pngs.append((name, picture.png))
        self.played.streams["pictures"].append(f"{name} {digest} {picture.description!r}")

    async def typed(self, line: str) -> None:
        self.out.write(f"> {line}\n")
        if not await self.line(line):
            raise RuntimeError(f"the console could not read {line!r}")


async def play(game: str, players: int, folder: Path) -> Played:
    """One seeded game of `players` basic automatic players, start to end and after."""
    played = Played()
    clock = Clock()
    store = await open_store(folder / "table.sqlite3")
    service = TableService(store, clock=clock, automatic_workers=0)
    service.reviews.enabled = False  # a review is background work: no digest may wait on its timing
    out = io.StringIO()
    console = Recorder(service, out, played)
    names = NAMES[:players]
    try:
        await console.typed(f"as {names[0]} /game new game:{game}")
        for name in names[1:]:
            await console.typed(f"as {name} /game join")
        await console.typed(f"as {names[0]} /game start seed:{SEED}")
        for _ in range(MOST_DECISIONS):
            clock.now += STEP_SECONDS
            step = await service.auto(CHANNEL)
            if step is None:
                break
            await console.show(step)
        await after_the_end(console, names)
        played.streams["export"] = record_lines(await service.history.export(CHANNEL))
        page = await service.history.export_html(CHANNEL)
        played.streams["replay_page"] = page.decode("utf-8").splitlines()
    finally:
        service.close()
        await store.close()
    split_transcript(out.getvalue(), played)
    return played


async def after_the_end(console: Recorder, names: tuple[str, ...]) -> None:
    """What players read once the game is over: status, log, hands, pictures, archive."""
    service = console.service
    table = await service.load(CHANNEL)
    if table.row.status != "finished":
        raise RuntimeError(f"the game did not end in {MOST_DECISIONS} decisions ({table.row.status})")
    await console.last_summary()
    await console.typed(f"as {names[0]} /game status")
    for name in names:
        await console.typed(f"as {name} /game me")
        console.picture(f"private-{name}", await service.my_picture(CHANNEL, user_id_for(name)))
    for picture in await service.final_pictures(CHANNEL):
        console.picture("final", picture)
    await console.typed(f"as {names[0]} /game log")
    pages = re.search(r"page 1 of (\d+)", console.out.getvalue().rsplit("/game log", 1)[1])
    for page in range(2, int(pages[1]) + 1 if pages else 1):
        await console.typed(f"as {names[0]} /game log page:{page}")
    await console.typed(f"as {names[0]} /game publish")
    await console.typed(f"as {names[-1]} /community history id:1")


def record_lines(record: dict) -> list[str]:
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False).splitlines()


def split_transcript(text: str, played: Played) -> None:
    for line in text.splitlines():
        stream = "private" if line.startswith("[private to ") else "public"
        played.streams[stream].append(line)


# -- digests ---------------------------------------------------------------------------------
def digest(lines: list[str]) -> dict:
    """The stream's SHA-256, its line count, and a short digest of each block of lines."""
    blocks = [
        hashlib.sha256("\n".join(lines[i : i + BLOCK]).encode()).hexdigest()[:12]
        for i in range(0, len(lines), BLOCK)
    ]
    whole = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    return {"sha256": whole, "lines": len(lines), "blocks": blocks}


def first_block_differing(was: dict, now: dict) -> int | None:
    """The first line of the first block that differs; None if none does."""
    for i, (a, b) in enumerate(zip(was.get("blocks", []), now["blocks"], strict=False)):
        if a != b:
            return i * BLOCK
    if was.get("lines") == now["lines"]:
        return None
    return min(was.get("lines", 0), now["lines"])


def key(game: str, players: int) -> str:
    return f"{game}-{players}p"


def commit() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("-dirty" if dirty.strip() else "")


# -- keeping the text ------------------------------------------------------------------------
def keep(folder: Path, played: Played, suffix: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for stream, lines in played.streams.items():
        (folder / f"{stream}{suffix}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    pictures = folder / ("pictures" if suffix == ".txt" else "pictures.now")
    pictures.mkdir(exist_ok=True)
    for name, png in played.pngs:
        (pictures / name).write_bytes(png)


def first_difference(folder: Path, stream: str, lines: list[str], at: int, context: int = 3) -> list[str]:
    """The first differing lines, against the recorded text if it was kept, else this
    run's lines from the first block that differs."""
    kept = folder / f"{stream}.txt"
    if not kept.exists():
        return [f"    now {at + 1 + i}: {line}" for i, line in enumerate(lines[at : at + context * 2])]
    was = kept.read_text(encoding="utf-8").splitlines()
    i = next(
        (i for i, (a, b) in enumerate(zip(was, lines, strict=False)) if a != b), min(len(was), len(lines))
    )
    shown = [f"    first difference at line {i + 1} ({len(was)} lines recorded, {len(lines)} now):"]
    shown += [f"    was: {line}" for line in was[i : i + context]]
    shown += [f"    now: {line}" for line in lines[i : i + context]]
    return shown


# -- the command -----------------------------------------------------------------------------
def chosen(args: argparse.Namespace) -> list[tuple[str, int]]:
    games = [args.game] if args.game else list(COUNTS)
    return [(g, n) for g in games for n in COUNTS[g] if args.players is None or n == args.players]


async def play_all(args: argparse.Namespace) -> dict[str, Played]:
    done = {}
    # the database files on a memory file system where there is one: a save's fsync is
    # most of a whole game's wall time on disk, and nothing here needs to survive a crash
    memory = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix="same_output-", dir=memory if memory.is_dir() else None) as tmp:
        for game, players in chosen(args):
            folder = Path(tmp) / key(game, players)
            folder.mkdir()
            began = time.perf_counter()
            played = await play(game, players, folder)
            played.seconds = time.perf_counter() - began
            done[key(game, players)] = played
    return done


def record(args: argparse.Namespace, done: dict[str, Played]) -> int:
    games = {}
    for name, played in done.items():
        games[name] = {s: digest(lines) for s, lines in played.streams.items()}
        if args.keep:
            keep(args.keep / name, played, ".txt")
        sizes = ", ".join(f"{s} {len(lines)}" for s, lines in played.streams.items())
        print(f"{name}: recorded in {played.seconds:.1f} s (lines: {sizes})")
    data = {"format": FORMAT, "commit": commit(), "seed": SEED, "step_seconds": STEP_SECONDS, "games": games}
    args.record.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


def compare(args: argparse.Namespace, done: dict[str, Played]) -> int:
    data = json.loads(args.compare.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT or data.get("seed") != SEED or data.get("step_seconds") != STEP_SECONDS:
        print(f"{args.compare} was recorded with other settings (format, seed or clock); record it again")
        return 2
    print(f"comparing with {args.compare}, recorded at {data.get('commit')}")
    failed = 0
    for name, played in done.items():
        if args.keep:
            keep(args.keep / name, played, ".now.txt")
        was = data["games"].get(name)
        lines = ["  not in the record"] if was is None else differences(args, name, was, played)
        failed += bool(lines)
        print(f"{name}: {'differs' if lines else 'same'} ({played.seconds:.1f} s)")
        for line in lines:
            print(line)
    print(f"{len(done) - failed} of {len(done)} same" + (f"; {failed} differ" if failed else ""))
    return 1 if failed else 0


def differences(args: argparse.Namespace, name: str, was: dict, played: Played) -> list[str]:
    """A line per stream that differs from the record (and its first differing lines)."""
    lines = []
    for stream, text in played.streams.items():
        now, before = digest(text), was.get(stream, {})
        if before.get("sha256") == now["sha256"]:
            continue
        at = first_block_differing(before, now)
        counts = f"{before.get('lines')} lines recorded, {now['lines']} now"
        if at is None:  # only a hand-edited record gets here
            lines.append(f"  {stream} differs (its digest only: every block of lines matches; {counts})")
            continue
        lines.append(f"  {stream} differs (from about line {at + 1}; {counts})")
        if args.keep:
            lines += first_difference(args.keep / name, stream, text, at)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", type=Path, metavar="FILE", help="write the digests to FILE")
    mode.add_argument("--compare", type=Path, metavar="FILE", help="compare with the digests in FILE")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="also write every stream as text in DIR")
    parser.add_argument("--game", choices=list(COUNTS), help="only this game (default: every title)")
    parser.add_argument("--players", type=int, help="only this player count (default: every count)")
    args = parser.parse_args(argv)
    if not chosen(args):
        parser.error("no game seats that many players")
    began = time.perf_counter()
    done = asyncio.run(play_all(args))
    code = record(args, done) if args.record else compare(args, done)
    print(f"{len(done)} games in {time.perf_counter() - began:.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(main())

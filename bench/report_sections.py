"""The sections of bench/README.md that bench/report.py writes, in the README's order:
each one's heading, what it measures (the paragraph above its commands), the benchmark
commands it runs with settings short enough for the whole report to fit a few minutes,
and the function of bench/report_figures.py that turns their output into its tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bench.report_figures import (
    AP_GAMES,
    action_path_figures,
    engine_figures,
    render_figures,
    search_figures,
    startup_figures,
    status_figures,
)

PYTHON_SHOWN = ".venv/bin/python"  # how the README writes the interpreter


# -- one benchmark command ------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    id: str  # its output's file name in --save-output / --from-output (id.txt)
    script: str
    args: tuple[str, ...] = ()
    codes: tuple[int, ...] = (0,)  # exit statuses that still mean "it measured"

    @property
    def command(self) -> str:
        return " ".join([PYTHON_SHOWN, f"bench/{self.script}", *self.args])


@dataclass(frozen=True)
class Section:
    name: str
    heading: str
    about: str
    runs: tuple[Run, ...]
    figures: Callable[[dict[str, str]], str]  # the outputs by run id -> the tables and notes


# -- the sections, in the README's order ----------------------------------------------------
SECTIONS: tuple[Section, ...] = (
    Section(
        "engine",
        "The engine (`engine.py`)",
        """\
Whole random games per second on one core, for each title at its largest player count,
every decision chosen uniformly among `legal_actions`. Two ways of stepping are timed:
**by step**, `Game.step`, which copies the state and then plays (what the table service
and a search that keeps its states use), and **in place**, `Game.play` on one state (what
a playout that throws its state away uses). **Goal: 100 games/s by step for each title**,
so that simulations of thousands of games, the strong players' playouts and the engine's
share of every action stay cheap. The state copy is compiled per state class from its
fields' types (`engine.core.fast`) and shares what a step cannot change (frozen pieces,
fields always replaced whole); Schönbrunn's pieces and state are plain dataclasses,
whose attributes read several times faster than a pydantic model's.""",
        (Run("engine", "engine.py", ("--seconds", "2")),),
        engine_figures,
    ),
    Section(
        "action_path",
        "The action path (`action_path.py`)",
        """\
What one action costs the table service, against the cheapest write that could store it.
**Service**: `TableService.act` (lock, load, apply, save with the action log, events and
deadlines, build the outbox) for every table at once, one task per table. **Bare**: the
same state JSON written with aiosqlite, one transaction per action (append the action,
update the state under a version check), with the same concurrency. Both on a fresh SQLite
file with the store's pragmas (WAL, synchronous=NORMAL) and the bot's gc setting; the
script checks that the service saved the same final states the bare run writes. The ratio
is the bare write's throughput over the service's. **Targets, 200 tables acting at once
on a 2-core machine: ratio ≤ 1.5 and p99 ≤ 25 ms**; with 1,000 tables, the service's p99
within 1.5× the bare write's (run by hand, below). The tiny test game (tests/tinygame.py:
3 players, 35 actions a table) measures the platform alone; the three real games add
their engines' work. A real game's actions are chosen once by its automatic players and
kept in bench/.cache/, so the first run on a machine takes some minutes longer.""",
        (
            Run("action_path", "action_path.py", ("--repeat", "2"), codes=(0, 1)),
            *(
                Run(f"action_path-{g}", "action_path.py", ("--game", g, "--repeat", "1"), codes=(0, 1))
                for g in AP_GAMES
            ),
            *(
                Run(
                    f"action_path-breakdown-{g}",
                    "action_path.py",
                    ("--game", g, "--tables", "50", "--breakdown", "--repeat", "1"),
                )
                for g in AP_GAMES
            ),
        ),
        action_path_figures,
    ),
    Section(
        "startup",
        "Start-up after an outage (`startup.py`)",
        """\
How soon the bot serves again after an outage. The script plays 30 tables of each game
through the service (0 to 11 actions in), copies them by SQL to N tables (built once and
kept in bench/.cache/), and times a start one hour after the last heartbeat: open the
store, build the service and measure the outage, which is all the bot does before it
connects. The outage work, a notice and the deadline shift at every running table, runs
once connected, 100 tables at a time so their saves share commits; the deadline loop
starts only after it. **Target: ready within 1 s after a one-hour outage with 10,000
tables.**""",
        (Run("startup", "startup.py", ("--tables", "10000", "--repeat", "1")),),
        startup_figures,
    ),
    Section(
        "render",
        "Board pictures (`render.py`)",
        """\
Draws the public board of 40 states spread over one seeded game of each title at its
largest player count, PNG encoding included, each timed once after a warm-up: what the bot
does once per state before it edits the status message. **Goals: median at most 50 ms,
every PNG at most 300 KB.** PNGs are quantised to 256 colours before encoding (about half
the time and size of RGB), and text widths are cached (a board measures its labels about
580 times to fit them to their boxes). The bot draws each state once, cached by table and
version, in a worker thread, so the event loop keeps answering while a picture is drawn.""",
        (Run("render", "render.py"),),
        render_figures,
    ),
    Section(
        "status_size",
        "The status at the largest tables (`status_size.py`)",
        """\
Not a timing: plays three whole games (seeds 1-3) of each title at its largest player
count through the table service and records the largest status card (the Discord embed in
the channel: title, description, fields, footer) and the largest whole status text
(`/game status`, the Full status button, the console) at any step, the end included.
**Goal: the card under 1,000 characters**, so it reads on a phone. The whole status is
shown privately; when it is longer than one message it goes on in the next, never cut (at
the end it carries every score's breakdown).""",
        (Run("status_size", "status_size.py"),),
        status_figures,
    ),
    Section(
        "search",
        "Strong players' decision time (`search.py`)",
        """\
How long the strong automatic player, which automatic seats play by default (200
iterations of an information-set search over what the seat can see), takes to decide,
with basic players in the other seats; every decision with more than one choice is timed.
**Goal: at most 1 s a decision on a 2-core machine.** Timed as the process's CPU
(`--cpu`), the decision's own cost, which on a dedicated host is about its wall time. The
search runs on one worker thread of its own, one search at a time, so the event loop
keeps serving the other tables meanwhile. One game at each title's largest count, where
decisions are slowest. Origins tables seat the `reserve` player, which does not search,
for the strong and quick settings alike, so Origins is not timed here.""",
        (
            Run(
                "search-crisis1914",
                "search.py",
                ("--game", "crisis1914", "--players", "5", "--games", "1", "--cpu"),
            ),
            Run(
                "search-schonbrunn",
                "search.py",
                ("--game", "schonbrunn", "--players", "6", "--games", "1", "--cpu"),
            ),
        ),
        search_figures,
    ),
)

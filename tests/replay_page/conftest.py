"""What the replay page tests share: whole seeded games of each title, their records, and
a headless Chromium (Debian's `chromium`, driven by Playwright) that may fetch nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.store.records import Record, record_from_playout
from engine import games
from engine.core import PUBLIC, Game, GameState
from engine.core.playout import play_out

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NAMES = ["Anna", "Bruno", "Chiara <i>the Bold</i>"]
TITLES = ["crisis1914", "origins", "schonbrunn"]
SEED = 20240628


@dataclass
class Played:
    """One whole game: its record (with players' names) and every state, for the tests'
    own expectations, computed from the engine and not from the page."""

    game: Game
    record: dict[str, Any]
    states: list[GameState]
    public_lines: list[list[str]]  # per step: the public log lines that step added

    def label(self, seat: str) -> str:
        return self.game.seat_label(self.states[-1], seat)

    def who(self, seat: str) -> str:
        name, label = self.record["names"][seat], self.label(seat)
        return f"{name}, {label}" if "(" in label else f"{name} ({label})"

    def log_count(self, step: int) -> int:
        return sum(len(lines) for lines in self.public_lines[: step + 1])

    def score(self, step: int, seat: str) -> int:
        """The seat's score as the status card shows it (its nations' VPs or Prestige added)."""
        layout = self.game.layout(self.game.view(self.states[step], PUBLIC))
        total = 0
        for panel in layout.panels:
            if panel.seat == seat:
                found = re.search(r"(-?\d+) (?:VPs?|Prestige)\b", " ".join(panel.lines).replace("**", ""))
                total += int(found.group(1)) if found else 0
        return total


def play(game_id: str, players: int = 3, seed: int = SEED, names: list[str] = NAMES) -> Played:
    game = games.get(game_id)
    playout = play_out(game, players, seed=seed)
    record = record_from_playout(game, playout, seed=seed).model_dump(mode="json")
    record["names"] = {seat: names[i % len(names)] for i, seat in enumerate(record["seats"])}
    state = game.setup(list(record["seats"]), game.Options(), seed)
    states = [state]
    public = [[e.text for e in game.opening_events(state) if e.audience is None]]
    for seat, action in playout.actions:
        state, events = game.apply(state, seat, action)
        states.append(state)
        public.append([e.text for e in events if e.audience is None])
    return Played(game, record, states, public)


@pytest.fixture(scope="session")
def played() -> dict[str, Played]:
    return {game_id: play(game_id) for game_id in TITLES}


def as_record(data: dict[str, Any]) -> Record:
    return Record.model_validate(data)


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium. Never skipped: scripts/test installs Debian's chromium, and a
    machine without it fails here saying how to get it. One per module: Playwright's
    synchronous driver holds an event loop while it runs, and the asynchronous tests of
    the other modules need the thread's loop free."""
    if not CHROMIUM.exists():
        pytest.fail(
            "The replay page tests need Debian's chromium at /usr/bin/chromium "
            "(apt-get install chromium; scripts/test installs it when run as root)."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Viewer:
    """One page open in the browser, every request but the file itself refused and noted."""

    def __init__(self, browser, path: Path, width: int = 1280, height: int = 900, touch: bool = False):
        """`touch`: a phone's browser (a touch screen, the page laid out as on a phone)."""
        self.url = path.resolve().as_uri()
        self.refused: list[str] = []
        self.errors: list[str] = []
        self.page = browser.new_page(
            viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch
        )
        self.page.route("**/*", self._route)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.goto(self.url)

    def _route(self, route) -> None:
        if route.request.url.split("#")[0] == self.url:
            route.continue_()
        else:
            self.refused.append(route.request.url)
            route.abort()

    def state(self) -> dict[str, Any]:
        """What a viewer reads now: the step line, the log, the scores, the board's title."""
        return self.page.evaluate(
            """() => ({
                where: document.getElementById('where').innerText,
                slider: Number(document.getElementById('slider').value),
                log: [...document.querySelectorAll('#log .entry')].map(e => e.innerText),
                now: [...document.querySelectorAll('#now .entry')].map(e => e.innerText),
                legend: [...document.querySelectorAll('#legend li')].map(li => [
                    li.querySelector('.name').innerText, li.querySelector('.score').innerText]),
                board: document.getElementById('board').innerText,
                boardAlt: document.getElementById('boardSvg').getAttribute('aria-label'),
                boardTitle: (document.querySelector('#boardSvg text') || {}).textContent,
            })"""
        )

    def close(self) -> None:
        self.page.close()

"""What a front end shows of a table after a save, as plain data carried in the save's
outbox row (docs/architecture.md §3, "The path of one action").

A `Shown` is written from the table as it is saved (`Posts.shown`, called by the save
itself): its version, the status card, the public events from where the round summary
stood then, the public view the board is drawn from, and what the front end had been
answered (its status message, phase thread and summary start) as the save read it; once
the game is over, also every player's score after each action, for the chart the final
standings carry (`Scores`, bot/service/final_scores.py). A
front end delivers from it alone: it loads, locks and saves no table. Two deliveries that
finish out of order are put right by the version: an older card is never shown over a
newer one.

Only what anyone who opens the table's channel sees: no private view, no Hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..render.rich import Rich, text_json
from ..render.status import Field, StatusCard
from ..render.summary import Line, Part, PartStart, parts
from ..store.front_rows import FrontRow

__all__ = ["Board", "Scores", "Shown", "SummaryLines", "summary_of"]


@dataclass(slots=True)
class SummaryLines:
    """The public events from the `since`-th on, as they stood after the save."""

    since: int
    lines: list[Line] = field(default_factory=list)
    round_event: str = ""  # the game's event kind that opens a round (render.summary.parts)

    @property
    def total(self) -> int:
        return self.since + len(self.lines)

    def from_(self, since: int) -> list[Line]:
        """The lines from the `since`-th event on (all of them when `since` is earlier)."""
        return self.lines[max(since - self.since, 0) :]


@dataclass(slots=True)
class Board:
    """What the public board picture is drawn from: the game's public view as JSON
    (`Game.view_dict`), and the seed and step that key it in the picture cache."""

    game: str
    seed: int
    step: int
    view: dict[str, Any]


@dataclass(slots=True)
class Scores:
    """A finished game's chart data (bot/render/pictures/chart.py): each player's score
    after every action (`series[name][i]`, after the i-th; 0 the setup) and where each
    period (a Week, a round) begins. The chart's colours come from the final board's view."""

    series: dict[str, list[float]]
    periods: list[tuple[int, str]]

    def body(self) -> dict[str, Any]:
        """As an outbox row holds it: each score as runs of [value, how many actions it
        stood] (a score stands for dozens of actions: a fifth to a tenth of the plain list)."""
        return {"series": {name: _runs(values) for name, values in self.series.items()}, "periods": self.periods}

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> Scores:
        series = {name: [float(v) for v, n in runs for _ in range(n)] for name, runs in body["series"].items()}
        return cls(series, [(i, label) for i, label in body["periods"]])


def _runs(values: list[float]) -> list[list[float | int]]:
    runs: list[list[float | int]] = []
    for v in values:
        if runs and runs[-1][0] == v:
            runs[-1][1] += 1
        else:
            runs.append([int(v) if v.is_integer() else v, 1])
    return runs


@dataclass(slots=True)
class Shown:
    channel_id: int
    table_created: float  # which of the channel's tables (its next table is another)
    version: int  # the table's version once saved: a front end shows the highest it has had
    card: StatusCard
    lobby: bool  # the table had not started (a summary kept now is the lobby's)
    game: str = ""  # the game's id: a DM about the table names its game from it
    owing: list[str] = field(default_factory=list)  # the seats that owe a decision (the waiting line's)
    # what the front end had been answered, as the save read it (front_rows.py)
    status_message_id: int | None = None
    thread_id: int | None = None
    summary_start: dict[str, Any] | None = None  # posts.StoredSummary; None: none kept yet
    summary: SummaryLines | None = None  # None: the game has not started
    board: Board | None = None  # None: no picture (a game without one, or none drawn)
    scores: Scores | None = None  # a finished game's, for its chart (None: in play, or no pictures)

    def front(self) -> FrontRow:
        """What the front end had been answered, as the save that wrote this read it."""
        return FrontRow(self.channel_id, self.table_created, self.status_message_id, self.thread_id, self.summary_start)

    def body(self) -> dict[str, Any]:
        """As an outbox row holds it (JSON)."""
        body: dict[str, Any] = {
            "table_created": self.table_created,
            "version": self.version,
            "card": _card_body(self.card),
            "lobby": self.lobby,
            "game": self.game,
            "owing": self.owing,
            "status_message_id": self.status_message_id,
            "thread_id": self.thread_id,
            "summary_start": self.summary_start,
        }
        if self.summary is not None:
            s = self.summary
            body["summary"] = {"since": s.since, "lines": [[x.kind, x.text] for x in s.lines], "round_event": s.round_event}
        if self.board is not None:
            b = self.board
            body["board"] = {"game": b.game, "seed": b.seed, "step": b.step, "view": b.view}
        if self.scores is not None:
            body["scores"] = self.scores.body()
        return body

    @classmethod
    def from_body(cls, channel_id: int, body: dict[str, Any]) -> Shown:
        card = dict(body["card"])
        card["fields"] = [Field(**f) for f in card.get("fields", [])]
        card["description"] = Rich.from_json(card.get("description", ""))
        summary = body.get("summary")
        board = body.get("board")
        scores = body.get("scores")
        return cls(
            channel_id=channel_id,
            table_created=body["table_created"],
            version=body["version"],
            card=StatusCard(**card),
            lobby=body.get("lobby", False),
            game=body.get("game", ""),
            owing=list(body.get("owing", [])),
            status_message_id=body.get("status_message_id"),
            thread_id=body.get("thread_id"),
            summary_start=body.get("summary_start"),
            summary=SummaryLines(
                summary["since"], [Line(k, t) for k, t in summary["lines"]], summary.get("round_event", "")
            )
            if summary is not None
            else None,
            board=Board(**board) if board is not None else None,
            scores=Scores.from_body(scores) if scores is not None else None,
        )


def _card_body(card: StatusCard) -> dict[str, Any]:
    """The card as JSON data (every save writes one: `dataclasses.asdict` copies each value
    deeply, three times slower)."""
    return {
        "title": card.title,
        "description": text_json(card.description),
        "fields": [{"name": f.name, "value": f.value} for f in card.fields],
        "footer": card.footer,
    }


def summary_of(lines: SummaryLines, start: PartStart) -> list[Part]:
    """The summary's parts from `start` (where the part the status message holds begins)
    over the public events carried: as `Posts.round_summary` cuts the stored log."""
    first = Part.resume(start)
    since = min(first.since, lines.total)  # an undo may have taken events back
    first.since = since
    return parts(first, lines.from_(since), lines.round_event)

"""The server's games as a member reads them on a phone (docs/architecture.md §3): the
texts of `Community` (bot/service/community.py): a directory line, a profile's games and
pace, a rating and its note, a finished game's players, link, record and file name.

Short lines, no count of nothing, no placeholder; names members typed escaped.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from engine import games
from engine.core import GameError

from ..render.rich import Rich, Text, channel, moment, small
from ..render.text import escape
from ..store.community_rows import FinishedGame, FinishedSeat
from . import signups
from .signups import jump, option_text

if TYPE_CHECKING:
    from .loaded import LoadedTable

__all__ = ["file_name", "game_title", "rating_text", "wins_text", "RATING_NOTE"]


def game_title(game_id: str) -> str:
    try:
        return games.get(game_id).title
    except GameError:
        return game_id



def wins_text(wins: float) -> str:
    """Wins as counted: whole, or to a tenth where members shared a seat."""
    return f"{wins:g}" if float(wins).is_integer() else f"{wins:.1f}"


def most_players(game: str) -> int:
    try:
        return games.get(game).max_players
    except GameError:
        return 0


def table_line(t: LoadedTable, reader: int | None = None) -> Text:
    """One table in the directory: its game, channel, host, state and what is happening
    there; "You are seated" where the reader sits, and how to join where they could."""
    head = Rich.of(f"• **{t.game.title}** in ", channel(t.row.channel_id), f", hosted by {signups.host_name(t)}")
    me = t.seat_of(reader) if reader is not None else None
    if t.row.status == "lobby":
        free = signups.free_seats(t)
        options = option_text(t)
        rated = "" if t.row.meta.get("rated", True) else " Not rated."
        join = " You are seated." if me else (f" {free} open: /game join there." if free else " Full.")
        return Rich.of(
            head,
            f": gathering players, {len(t.seats)} of {t.game.max_players} seated.{join}",
            f" Options: {options}." if options else "",
            rated,
        )
    seated = f" You play {t.label(me.seat)}." if me is not None and me.seat else ""
    if t.row.status == "paused":
        return Rich.of(head, f": paused.{seated}")
    due = {d.phase: d.due_at for d in t.deadlines}
    waiting: list[Text] = []
    for p in t.prompts:
        when = Rich.of(", due ", moment(due[p.phase])) if p.phase in due else ""
        waiting.append(Rich.of(f"{t.who(p.seat)} ({t.label(p.seat)})", when))
    return Rich.of(head, ": waiting for ", Rich.join("; ", dict.fromkeys(waiting)) or "nobody", f".{seated}")


def game_lines(game: str, record: list[dict[str, Any]], abandoned: int, ratings: dict) -> list[str]:
    """A game in a member's profile: what they finished, won and abandoned, their rating;
    the nations they played. No count of nothing."""
    finished = sum(r["games"] for r in record)
    won = sum(r["wins"] for r in record)
    counts = [f"{finished} finished"] if finished else []
    counts += [f"{wins_text(won)} won"] if won else []
    counts += [f"{abandoned} abandoned"] if abandoned else []
    rating = ratings.get(game)
    if rating:
        counts.append(f"rating {rating_text(rating.ordinal)}")
    lines = [f"**{game_title(game)}**: {', '.join(counts) or 'no games yet'}."]
    nations = [
        f"{r['label']} {times(r['games'])}" + (f" ({wins_text(r['wins'])} won)" if r["wins"] else "")
        for r in record
        if r["games"]
    ]
    if nations:
        lines.append(f"Played as {', '.join(nations)}.")
    return lines


def count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.1f} days"


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def pace(record: list[dict[str, Any]]) -> str:
    """How fast the member answers and how often they miss a deadline, in finished games;
    "not enough data yet" when nothing was measured."""
    decisions = sum(r["decisions"] for r in record)
    missed = sum(r["missed"] for r in record)
    waited = sum(r["answer_seconds"] for r in record)
    if not decisions or waited / decisions < 1:  # nothing measured (moves the clock never saw)
        return "Answer time: not enough data yet."
    line = f"Answers a turn in {duration(waited / decisions)} on average"
    if missed:
        return f"{line}; misses {100 * missed / (decisions + missed):.1f} deadlines in 100."
    return f"{line}; has missed no deadline."


def rating_text(ordinal: float) -> str:
    """A rating as the leaderboard shows it: a whole number, never below 0 (a newcomer's
    cautious estimate dips under it after a loss or two)."""
    return str(max(0, round(ordinal)))


RATING_NOTE = small(
    "A rating starts at 0 and rises with wins, and with games played as they make it surer: "
    "an average player reaches about 12 after 50 games. Below 0 shows as 0."
)


def finished_link(g: FinishedGame) -> Text:
    """Where a finished game was played: a short link a phone taps, to its last message."""
    if not g.guild_id:
        return channel(g.channel_id)
    return f"[Go to the end]({jump(g.guild_id, g.channel_id, g.message_id)})"


def file_name(title: str, channel: str, when: float, ext: str) -> str:
    """A file named for people and safe on every file system: game, channel, date
    ("Crisis-1914 #balkans 2026-12-06.html")."""
    day = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d")
    parts = [title.replace(": ", "-"), f"#{channel}" if channel else "", day]
    plain = unicodedata.normalize("NFKD", " ".join(p for p in parts if p)).encode("ascii", "ignore").decode()
    safe = re.sub(r"[^A-Za-z0-9 #()._-]+", "-", plain).strip(" .-")
    return f"{safe or 'game'}.{ext}"


def players_text(seats: list[FinishedSeat]) -> str:
    """Who played these seats, each with the seat they played: "alice as Russia"."""
    by_seat: dict[str, list[FinishedSeat]] = {}
    for s in seats:
        by_seat.setdefault(s.seat, []).append(s)
    return ", ".join(f"{played_by(rows)} as {rows[0].label}" for rows in by_seat.values())


def played_by(rows: list[FinishedSeat]) -> str:
    """A seat's players by their share of its decisions: "alice", "alice (4 of 10 decisions)
    and bob (6 of 10 decisions)"."""
    if len(rows) == 1:
        return escape(rows[0].name)
    total = max(rows[0].seat_decisions, 1)
    return " and ".join(f"{escape(s.name)} ({s.decisions + s.missed} of {total} decisions)" for s in rows)


def finished_record(g: FinishedGame, seats: list[FinishedSeat]) -> dict[str, Any]:
    """A finished game as the archive keeps it, for a member to download."""
    return {
        "format": "chancellery-finished-game/1",
        "game": g.game,
        "title": game_title(g.game),
        "number": g.id,
        "finished_at": g.finished_at,
        "rated": g.counted,
        "outcome": g.outcome,
        "seats": [
            {
                "seat": s.seat, "nation": s.label, "player": s.name, "automatic": s.automatic,
                "rank": s.rank, "score": s.score, "decisions": s.decisions, "missed_deadlines": s.missed,
                "seat_decisions": s.seat_decisions, "automatic_decisions": s.seat_automatic, "win": s.win,
            }
            for s in seats
        ],
    }

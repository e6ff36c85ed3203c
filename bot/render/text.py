"""Plain-text helpers. Discord renders `<t:unix:R>` in each reader's own time zone;
the console turns the same markup into "in 10 min" with `plain_timestamps`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.core import Outcome

__all__ = ["timestamp", "plain_timestamps", "relative", "seat_list", "standings"]

_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")


def timestamp(unix: float, style: str = "R") -> str:
    """A Discord timestamp: style R reads "in 3 hours", F a full date and time."""
    return f"<t:{int(unix)}:{style}>"


def relative(seconds: float) -> str:
    """`seconds` from now in words: "in 10 min", "2 h ago"."""
    ahead = seconds >= 0
    s = abs(seconds)
    if s < 60:
        amount = f"{int(s)} s"
    elif s < 3600:
        amount = f"{round(s / 60)} min"
    elif s < 48 * 3600:
        amount = f"{s / 3600:.1f} h".replace(".0 h", " h")
    else:
        amount = f"{s / 86400:.1f} days".replace(".0 days", " days")
    return f"in {amount}" if ahead else f"{amount} ago"


def plain_timestamps(text: str, now: float) -> str:
    """Replace Discord timestamp markup with words relative to `now` (for the console)."""
    return _TIMESTAMP.sub(lambda m: relative(int(m.group(1)) - now), text)


def seat_list(rows: Sequence[tuple[str, str | None]]) -> str:
    """One line per player: `name — label`, in table order."""
    return "\n".join(
        f"{i}. {name}" + (f" — {label}" if label else "") for i, (name, label) in enumerate(rows, 1)
    )


def standings(outcome: Outcome, names: dict[str, str]) -> str:
    """Final standings, best first: rank, who (by `names[seat]`), score and detail."""
    lines = [f"**Final standings** ({outcome.reason})"]
    for s in sorted(outcome.standings, key=lambda s: (s.rank, -s.score)):
        score = f"{s.score:g}"
        detail = f" — {s.detail}" if s.detail else ""
        lines.append(f"{s.rank}. {names.get(s.seat, s.seat)}: {score}{detail}")
    return "\n".join(lines)

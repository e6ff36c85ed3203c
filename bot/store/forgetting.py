"""Forgetting a member (`/community forget`): what both stores write in the one transaction
of `CommunityStore.forget_member`, written once here (docs/rulings.md, Platform 42).

Afterwards no row the bot reads to say something holds the member's name:

- every table they sat at or hold a seat history at, whatever its status: their seats and
  seat histories are named "a former member", and the strings of the table's meta (the
  round summary's heading names the players) have their name replaced;
- a finished or abandoned table: their id too, in its seats, seat history, action log and
  host, becomes an id of its own that names nobody (one per table, so no two of their
  games are linked);
- a table still open keeps their id (they still play their seat, and the bot must know
  their turns) and lists it in its meta under `FORGOTTEN`: the archive records that seat
  under an anonymous id when the game ends, and an export shows no id for it;
- the posts and turn notices waiting to be said have their name replaced, and so have
  the round summaries' headings and the others' turn notices sent by DM the front end
  keeps (front_rows.py); the member's own notices sent are no longer kept.

Each table's version moves on, so no process keeps a copy of it as it was. A name is
replaced where it stands as a word of its own, escaped for Discord or not; "alice" in
"malice" is left alone.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = [
    "FORGOTTEN",
    "NAMES_SQL",
    "NOTICES_SQL",
    "OUTBOX_SQL",
    "TABLES_SQL",
    "anonymous_id",
    "bodies_rewritten",
    "spoken",
    "table_statements",
    "texts_rewritten",
]

OPEN = ("lobby", "running", "paused")
FORGOTTEN = "forgotten"  # a table's meta key: members forgotten while it was open (archive.py)

# every name the member is stored under (each query takes the member's id four times)
NAMES_SQL = (
    "SELECT name FROM seats WHERE user_id=? UNION SELECT name FROM seat_history WHERE user_id=? "
    "UNION SELECT name FROM finished_seats WHERE user_id=? UNION SELECT name FROM ratings WHERE user_id=?"
)
# the tables that name the member: seated, in a seat history (whoever acted sat there), or host
TABLES_SQL = (
    "SELECT channel_id, status, meta FROM tables WHERE host_id=? OR channel_id IN "
    "(SELECT channel_id FROM seats WHERE user_id=? UNION SELECT channel_id FROM seat_history WHERE user_id=?) "
    "ORDER BY channel_id"
)
OUTBOX_SQL = "SELECT id, body FROM outbox"
NOTICES_SQL = "SELECT channel_id, user_id, body FROM turn_notices"


def anonymous_id() -> int:
    """An id that names nobody: below the automatic player's -1, drawn afresh each time."""
    return -2 - secrets.randbelow(2**48)


def spoken(names: Iterable[str], former: str) -> re.Pattern[str] | None:
    """What finds the names in a text: each as a word of its own, as typed or as Discord
    escaping wrote it (a backslash before a character, a zero-width space after one)."""
    forms = sorted({n for n in names if n and n != former}, key=len, reverse=True)
    if not forms:
        return None
    either = "|".join("".join(rf"\\?{re.escape(c)}\u200b?" for c in name) for name in forms)
    return re.compile(rf"(?<!\w)(?:{either})(?!\w)")


def scrub(value: Any, pattern: re.Pattern[str], former: str) -> Any:
    """A JSON value with the names replaced in every string of it (keys are not names)."""
    if isinstance(value, str):
        return pattern.sub(former, value)
    if isinstance(value, list):
        return [scrub(v, pattern, former) for v in value]
    if isinstance(value, dict):
        return {k: scrub(v, pattern, former) for k, v in value.items()}
    return value


def _meta(text: str, pattern: re.Pattern[str] | None, former: str, forgotten: int | None) -> str:
    meta = json.loads(text or "{}")
    if pattern is not None:
        meta = scrub(meta, pattern, former)
    if forgotten is not None:
        meta[FORGOTTEN] = sorted({*meta.get(FORGOTTEN, []), forgotten})
    return json.dumps(meta)


def table_statements(
    tables: Sequence[Sequence[Any]], user_id: int, former: str, pattern: re.Pattern[str] | None
) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements (SQLite's `?`) that forget the member at each table of `TABLES_SQL`."""
    out: list[tuple[str, tuple[Any, ...]]] = []
    for channel_id, status, meta in tables:
        if status in OPEN:
            out += [
                ("UPDATE seats SET name=? WHERE channel_id=? AND user_id=?", (former, channel_id, user_id)),
                ("UPDATE seat_history SET name=? WHERE channel_id=? AND user_id=?", (former, channel_id, user_id)),
                (
                    "UPDATE tables SET meta=?, version=version+1 WHERE channel_id=?",
                    (_meta(meta, pattern, former, user_id), channel_id),
                ),
            ]
            continue
        nobody = anonymous_id()
        out += [
            (
                "UPDATE seats SET user_id=?, name=? WHERE channel_id=? AND user_id=?",
                (nobody, former, channel_id, user_id),
            ),
            (
                "UPDATE seat_history SET user_id=?, name=? WHERE channel_id=? AND user_id=?",
                (nobody, former, channel_id, user_id),
            ),
            ("UPDATE actions SET user_id=? WHERE channel_id=? AND user_id=?", (nobody, channel_id, user_id)),
            (
                "UPDATE tables SET host_id = CASE WHEN host_id=? THEN ? ELSE host_id END, meta=?, "
                "version=version+1 WHERE channel_id=?",
                (user_id, nobody, _meta(meta, pattern, former, None), channel_id),
            ),
        ]
    return out


def bodies_rewritten(
    rows: Sequence[Sequence[Any]], pattern: re.Pattern[str] | None, former: str
) -> list[tuple[str, tuple[Any, ...]]]:
    """The rows (their key columns, then a JSON body last) whose body names the member, as
    (new body, key) pairs."""
    if pattern is None:
        return []
    out = []
    for *key, body in rows:
        data = json.loads(body)
        new = scrub(data, pattern, former)
        if new != data:
            out.append((json.dumps(new, separators=(",", ":")), tuple(key)))
    return out


def texts_rewritten(
    rows: Sequence[Sequence[Any]], pattern: re.Pattern[str] | None, former: str
) -> list[tuple[str, tuple[Any, ...]]]:
    """The rows (their key columns, then a plain text last) whose text names the member, as
    (new text, key) pairs."""
    if pattern is None:
        return []
    return [(new, tuple(key)) for *key, text in rows if (new := pattern.sub(former, text)) != text]

"""Plain-text helpers for every front end: names kept as typed (`escape`), times in words,
seat lists, standings, button labels, and messages cut to Discord's length."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence

from engine.core import Outcome

__all__ = [
    "escape",
    "unescape",
    "relative",
    "seat_list",
    "standings",
    "button_labels",
    "split_message",
    "MESSAGE_LIMIT",
]

MESSAGE_LIMIT = 2000  # characters in one Discord message

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


# Characters that format wherever they stand: bold/italic, underline, strike, spoiler,
# code, a masked link's brackets (its parentheses format only after "]", so they stay
# plain) and the backslash itself. A few more format only at the start of a line.
_INLINE = re.compile(r"([\\*_~|`\[\]])")
_LINE_START = re.compile(r"^([ \t]*)(?:([>#-])|(\d+)\.(?=\s))", re.MULTILINE)  # quote, heading, list
# A mention, channel, slash command, custom emoji or timestamp is `<` then one of these;
# a zero-width space after the `<` (or the `@`) leaves it plain text that pings nobody.
_MENTION = re.compile(r"<(?=[@#/:]|a:|t:)|@(?=everyone|here)")
_ZWSP = "\u200b"
_ESCAPED = re.compile(r"\\([\\*_~|`\[\]>#.-])")


def escape(text: str) -> str:
    """`text` as Discord shows it typed: for a display name or anything a member typed that
    goes into a message. Markdown is backslash-escaped (`**x**` stays two stars and an x),
    mentions (`<@1>`, `@everyone`) and masked links (`[x](url)`) stay plain text. Never for
    plain-text places (a thread's name); `unescape` gives the typed text back."""
    text = _INLINE.sub(r"\\\1", text)
    text = _LINE_START.sub(lambda m: m[1] + (f"\\{m[2]}" if m[2] else f"{m[3]}\\."), text)
    return _MENTION.sub(lambda m: m[0] + _ZWSP, text)


def unescape(text: str) -> str:
    """A message as plain text, each `escape`d piece as it was typed (for the console)."""
    return _ESCAPED.sub(r"\1", text).replace(_ZWSP, "")


def seat_list(rows: Sequence[tuple[str, str | None]]) -> str:
    """One line per player: `name — label`, in table order."""
    return "\n".join(
        f"{i}. {name}" + (f" — {label}" if label else "") for i, (name, label) in enumerate(rows, 1)
    )


def standings(
    outcome: Outcome,
    names: dict[str, str],
    title: str = "Final standings",
    nations: dict[str, str] | None = None,
    breakdown: bool = False,
) -> str:
    """Final standings, best first, one short line per player a phone reads as a table:
    place, player (`names[seat]`), nation (`nations[seat]`, where the game has them) and
    score. How each score was reached (`breakdown`) follows under its own heading, for the
    full status and the record; the channel's post leaves it behind its button."""
    ranked = sorted(outcome.standings, key=lambda s: (s.rank, -s.score))
    lines = [f"**{title}** — {outcome.reason}"]
    for s in ranked:
        nation = (nations or {}).get(s.seat)
        lines.append(f"{s.rank}. **{names.get(s.seat, s.seat)}**" + (f" · {nation}" if nation else "") + f" · {s.score:g}")
    if breakdown and any(s.detail for s in ranked):
        lines.append("**How each score was reached**")
        lines += [f"{names.get(s.seat, s.seat)}: {s.detail}" for s in ranked if s.detail]
    return "\n".join(lines)


def button_labels(labels: list[str], limit: int = 80) -> list[str]:
    """Labels for turn buttons, in the same order: each at most `limit` characters (Discord's
    limit for a button) and no two alike, so a player can tell every button apart. A label
    that already fits and is unique is kept as it is. A longer one is cut after a word with
    "…", unless that would make it read like another: then the long words after the start
    they share are shortened instead ("Seize the Initiative, discarding Assass. Investig.,
    The Kaiser's Blank Cheque, Summer Harv. Leave"), or else that start is left out after
    its first word ("Seize … Kaiser's Blank Cheque, Summer Harvest Leave, No Romanian
    Support"), so every card stays recognisable. Any still alike (or alike from the start)
    get " (2)", " (3)", ... in order."""

    def cut(text: str, width: int) -> str:  # the start of `text`, up to a word, then "…"
        if len(text) <= width:
            return text
        head = text[: width - 1]
        if text[width - 1] != " " and head.rfind(" ") > width // 2:
            head = head[: head.rfind(" ")]
        return head.rstrip(" ,;:(") + "…"

    def squeeze(text: str, keep: int) -> str:  # text[:keep] (or its first word), then long words cut
        first = text[: max(text.find(" "), 0)]
        heads = [text[:keep]] + ([f"{first} … "] if first and len(first) + 3 < keep else [])
        for head in heads:
            for most in range(max(map(len, text.split())), 3, -1):

                def shorten(word: re.Match[str], most: int = most) -> str:
                    return word[0][: most - 1] + "."

                rest = re.sub(rf"\w{{{most + 1},}}", shorten, text[keep:])
                if len(head) + len(rest) <= limit:
                    return head + rest
        return cut(text, limit)

    counts = Counter(labels)
    out = [text if len(text) <= limit and counts[text] == 1 else "" for text in labels]
    taken = {text for text in out if text}
    groups: dict[str, list[int]] = {}  # the rest, by how they read when cut at the end
    for i, text in enumerate(labels):
        if not out[i]:
            groups.setdefault(cut(text, limit), []).append(i)
    for short, group in groups.items():
        originals = {labels[i] for i in group}
        shared = os.path.commonprefix(list(originals))[: limit // 2]
        keep = shared.rfind(" ") + 1 if len(originals) > 1 else 0
        for i in group:
            text, n = labels[i], 1
            label = short if len(originals) == 1 else squeeze(text, keep)
            while label in taken:
                n += 1
                label = cut(text, limit - len(f" ({n})")) + f" ({n})"
            taken.add(label)
            out[i] = label
    return out


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """`text` as messages of at most `limit` characters, cut at line ends where possible.

    The one splitter for every front end: nothing is ever dropped, and a line longer than
    `limit` is cut inside itself only when it must be.
    """
    out: list[str] = []
    text = text.strip()
    while text:
        if len(text) <= limit:
            out.append(text)
            break
        cut = text.rfind("\n", 0, limit)
        cut = cut if cut > 0 else limit
        out.append(text[:cut].rstrip("\n"))
        text = text[cut:].lstrip("\n")
    return out

"""The games' Markdown-light text as HTML for the replay page.

`describe`, `layout` and the log write plain text with a little Markdown: `**bold**`,
`*italic*`, a bullet (`•` or `- `) or an indent at the start of a line. The page shows
them as the channel does; everything else is escaped, so a player's name or a card's text
can never become markup.
"""

from __future__ import annotations

import html
import re

from engine.core import Layout

__all__ = ["inline", "line_html", "text_html", "layout_html"]

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")


def inline(text: str) -> str:
    """One piece of text, escaped, with its bold, italic and code marks as HTML."""
    out = html.escape(text, quote=False)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _ITALIC.sub(r"<em>\1</em>", out)
    return _CODE.sub(r"<code>\1</code>", out)


def line_html(line: str) -> str:
    """One line of a text as a block: a bullet or an indent keeps its shape."""
    stripped = line.lstrip(" ")
    indent = len(line) - len(stripped)
    if not stripped.strip():
        return '<div class="gap"></div>'
    bullet = stripped.startswith(("• ", "- ", "* "))
    body = inline(stripped[2:] if bullet else stripped)
    classes = ["ln"] + (["bullet"] if bullet else []) + (["indent"] if indent else [])
    return f'<div class="{" ".join(classes)}">{body}</div>'


def text_html(text: str) -> str:
    """A text of one or more lines (a log entry may hold several) as blocks."""
    return "".join(line_html(line) for line in text.splitlines()) or line_html("")


def layout_html(layout: Layout) -> list[str]:
    """The status card: its title, the shared facts, then a panel per nation."""
    parts = [f'<div class="card-title">{inline(layout.title)}</div>']
    parts += [f'<div class="card-line">{inline(line)}</div>' for line in layout.lines]
    for panel in layout.panels:
        body = "".join(f"<div>{inline(line)}</div>" for line in panel.lines)
        parts.append(f'<div class="panel"><div class="panel-name">{inline(panel.name)}</div>{body}</div>')
    return parts

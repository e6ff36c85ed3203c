"""The replay page's record of diplomacy: every showing (who showed what to whom, when) and
every pact, listed after the game (docs/architecture.md §6; bot/service/diplomacy.py keeps
them). They come from the full record's "diplomacy" part, which `History` adds only once a
game has finished, so a page made from anything else lists none."""

from __future__ import annotations

import html
from typing import Any

from ..text import unescape

__all__ = ["with_diplomacy"]


def _plain(text: Any) -> str:
    """A stored message line as the page shows it: escaped for HTML, its Markdown bold dropped."""
    return html.escape(unescape(str(text)).replace("**", ""))


def _section(diplomacy: dict[str, Any]) -> str:
    showings = [s for s in diplomacy.get("showings") or [] if isinstance(s, dict)]
    pacts = [p for p in diplomacy.get("pacts") or [] if isinstance(p, dict)]
    if not showings and not pacts:
        return ""
    parts = ['<section id="diplomacy" aria-labelledby="h-diplomacy">', '<h2 id="h-diplomacy">Diplomacy</h2>']
    parts.append(
        '<p class="help">What players showed each other with the referee\'s word, and the pacts they '
        "recorded: private to their players during the game.</p>"
    )
    if showings:
        parts.append("<h3>Showings</h3><ul>")
        for s in showings:
            to = ", ".join(str(x) for x in s.get("to") or [])
            parts.append(f"<li><b>To {html.escape(to)}:</b> {_plain(s.get('text', ''))}</li>")
        parts.append("</ul>")
    if pacts:
        parts.append("<h3>Pacts</h3><ul>")
        for p in pacts:
            who = " and ".join(html.escape(str(x)) for x in p.get("players") or [])
            until = f" until the end of {html.escape(str(p['until']))}" if p.get("until") else ""
            ended = f" ({_plain(p['ended'])})" if p.get("ended") and p.get("status") != "expired" else ""
            parts.append(
                f"<li><b>Pact {html.escape(str(p.get('number', '')))}</b> ({html.escape(str(p.get('status', '')))}), "
                f"between {who}, proposed in {html.escape(str(p.get('proposed') or ''))}: "
                f"“{html.escape(str(p.get('text', '')))}”{until}{ended}.</li>"
            )
        parts.append("</ul>")
    parts.append("</section>")
    return "\n".join(parts)


def with_diplomacy(page: str, raw: dict[str, Any]) -> str:
    """`page` with the game's showings and pacts listed at the end of its main part."""
    diplomacy = raw.get("diplomacy")
    section = _section(diplomacy) if isinstance(diplomacy, dict) else ""
    if not section or "</main>" not in page:
        return page
    at = page.rindex("</main>")
    return page[:at] + section + "\n" + page[at:]

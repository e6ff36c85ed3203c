"""The replay page's reviews (docs/architecture.md §6): for each player, the decisions where
the strong automatic player, knowing only what that player knew then, would have chosen
otherwise (engine/core/review.py, computed after the end by bot/service/reviews.py and
carried in the finished game's record as `reviews`: seat -> turning points).

A finished game's page shows every seat's secrets already, so it shows every seat's review,
one toggle per player, at the end of the page's main part. A record without reviews (an older
one, an abandoned game's, or one exported before they were computed) shows none.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from engine.core.review import Turning

__all__ = ["reviews_section", "with_reviews"]


def reviews_section(reviews: Any, seats: list[str], who: Callable[[str], str]) -> str:
    """The record's reviews (seat -> turning points) as one HTML section, players in seat
    order; "" when there are none."""
    shown = [s for s in seats if s in reviews] if isinstance(reviews, dict) else []
    if not shown:
        return ""
    parts = [
        '<section id="reviews" aria-labelledby="h-reviews"><h2 id="h-reviews">Where the automatic player would have '
        "chosen otherwise</h2><p>For each player, the decisions where the automatic player, knowing only what that "
        "player knew then, would have chosen otherwise, the largest difference first.</p>"
    ]
    for seat in shown:
        turnings = _turnings(reviews[seat])
        if turnings:
            body = "<ol>" + "".join(f"<li>{html.escape(t.sentence())}</li>" for t in turnings) + "</ol>"
        else:
            body = "<p>At every decision it weighed, it would have chosen the same or rated its own choice no higher.</p>"
        parts.append(f"<details><summary>{html.escape(who(seat))}</summary>{body}</details>")
    parts.append("</section>")
    return "".join(parts)


def _turnings(data: Any) -> list[Turning]:
    """A seat's turning points as the record carries them; what is not one is left out (a
    record is a file anyone may hand in)."""
    out = []
    for item in data if isinstance(data, list) else []:
        try:
            out.append(Turning.from_json(item))
        except (KeyError, TypeError, ValueError):
            continue
    return out


def with_reviews(page: str, section: str) -> str:
    """`page` with the reviews' section at the end of its main part."""
    if not section or "</main>" not in page:
        return page
    at = page.rindex("</main>")
    return page[:at] + section + "\n" + page[at:]

"""The replay page assembled: the first page (standings, players, options, seed) in HTML,
the step-by-step data as one JSON block, and the page's own template, style and script
(package data beside this module), all inline in one file: nothing is fetched.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

from engine.core import Outcome, seed_commitment

from .chart import X0, X1, score_chart, swatch
from .markup import inline
from .walk import Walk

__all__ = ["Facts", "assemble"]


class Facts:
    """What the first page says beside the walk: who played, the options, the seed."""

    def __init__(
        self,
        names: dict[str, str],
        options: dict[str, Any],
        option_help: dict[str, str],
        seed: int | None,
        commitment: str | None,
        outcome: Outcome | None,
        seats_over_time: list[dict[str, Any]],
        note: str = "",
    ):
        self.names = names
        self.options = options
        self.option_help = option_help
        self.seed = seed
        self.commitment = commitment
        self.outcome = outcome
        self.seats_over_time = seats_over_time
        self.note = note


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def who(walk: Walk, facts: Facts, seat: str) -> str:
    """A player as people read them: "anna (Germany)", "anna, Berchtold (Austria-Hungary)",
    or the nation alone when the record names no player."""
    label, name = walk.labels.get(seat, ""), facts.names.get(seat, "")
    if name and label:
        return f"{name}, {label}" if "(" in label else f"{name} ({label})"
    return name or label or "a player"


def _standings(walk: Walk, facts: Facts) -> str:
    outcome = facts.outcome
    if outcome is None:
        return f"<p>{html.escape(facts.note or 'The game has no final standings.')}</p>"
    items = []
    for s in sorted(outcome.standings, key=lambda s: (s.rank, -s.score)):
        parts = [p for p in s.detail.split("; ") if p] if s.detail else []
        detail = ""
        if parts:
            rows = "".join(f"<li>{inline(p)}</li>" for p in parts)
            detail = f"<details><summary>How the {s.score:g} were scored</summary><ul>{rows}</ul></details>"
        items.append(
            f'<li class="standing rank{s.rank}"><span class="rank">{s.rank}.</span> '
            f"<strong>{html.escape(who(walk, facts, s.seat))}</strong>: {s.score:g}{detail}</li>"
        )
    reason = f"<p>{inline(outcome.reason)}</p>"
    return f'{reason}<ol class="standings">{"".join(items)}</ol>'


def _players(walk: Walk, facts: Facts) -> str:
    rows = []
    for seat in walk.seats:
        later = [
            e
            for e in facts.seats_over_time
            if e.get("seat") == seat and (e.get("from_action") or 1) > 1 and e.get("name")
        ]
        then = "".join(
            f"; then {html.escape(str(e['name']))}"
            + (" (the automatic player)" if e.get("automatic") else "")
            + f" from action {int(e['from_action'])}"
            for e in later
        )
        rows.append(f"<li>{html.escape(who(walk, facts, seat))}{then}</li>")
    return f'<ul class="players">{"".join(rows)}</ul>'


def _option_value(value: Any, facts: Facts, walk: Walk) -> str:
    if isinstance(value, bool):
        return "On" if value else "Off"
    if isinstance(value, dict):  # keyed by seat (preferences): name the players
        return (
            "; ".join(f"{who(walk, facts, k) if k in walk.seats else k}: {v}" for k, v in value.items())
            or "none"
        )
    return str(value)


def _options(walk: Walk, facts: Facts) -> str:
    """Each option as the game describes it, with its setting first."""
    rows = []
    for key, value in facts.options.items():
        setting = html.escape(_option_value(value, facts, walk))
        words = facts.option_help.get(key) or key.replace("_", " ").capitalize()
        rows.append(f"<li><strong>{setting}</strong>: {html.escape(words)}</li>")
    return f'<ul class="options">{"".join(rows)}</ul>' if rows else "<p>The game's standard rules.</p>"


def _seed(facts: Facts) -> str:
    if facts.seed is None:
        kept = "The seed stays secret: an abandoned game's secrets are kept for ever."
        posted = (
            f' The commitment posted at the start was <code class="hash">{html.escape(facts.commitment)}</code>.'
            if facts.commitment
            else ""
        )
        return f"<p>{kept}{posted}</p>"
    made = seed_commitment(facts.seed)
    if facts.commitment is None:
        check = "The record does not carry the commitment posted at the start."
    elif facts.commitment == made:
        check = "It matches the commitment posted at the start of the game."
    else:  # replay refuses such a record; kept as a safeguard
        check = "It does NOT match the commitment posted at the start."
    return (
        f"<p>Every card drawn and die rolled came from the seed <code>{facts.seed}</code>. "
        f'Its commitment (SHA-256) is <code class="hash">{made}</code>. {check}</p>'
    )


def _summary(walk: Walk, facts: Facts) -> str:
    return (
        f'<section id="summary" aria-labelledby="h-standings"><h2 id="h-standings">Final standings</h2>'
        f"{_standings(walk, facts)}"
        f'<p><a class="button go" href="#replay">Watch the game step by step</a></p>'
        f"<h2>Players</h2>{_players(walk, facts)}"
        f"<h2>Rules options</h2>{_options(walk, facts)}"
        f"<h2>The seed</h2>{_seed(facts)}</section>"
    )


def _periods(walk: Walk) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for k, label in enumerate(walk.period):
        if label and (not out or out[-1][1] != label):
            out.append((k, label))
    return out


def _data(walk: Walk, facts: Facts) -> dict[str, Any]:
    index = {seat: i for i, seat in enumerate(walk.seats)}
    colours = [walk.colours.get(s, (120, 120, 120)) for s in walk.seats]
    return {
        "steps": walk.steps,
        "publicOnly": walk.public_only,
        "scoreName": walk.score_name,
        "players": [
            {"who": who(walk, facts, s), "swatch": swatch(colours[i], i)} for i, s in enumerate(walk.seats)
        ],
        "lines": walk.texts.lines,
        "texts": walk.texts.texts,
        "board": walk.board,
        "card": walk.card,
        "actor": [index.get(s, -1) for s in walk.actor],
        "did": walk.did,
        "period": walk.period,
        "periods": _periods(walk),
        "log": walk.log,
        "scores": [walk.scores[s] for s in walk.seats] if walk.score_name else [],
        "chart": {"x0": X0, "x1": X1},
        "shapes": walk.drawings.shapes,
        "frames": walk.drawings.frames,
        "sentences": walk.drawings.sentences,
        "alts": walk.drawings.alts,
        "pictures": walk.drawings.pictures,
        "picture": walk.picture,
        "private": [walk.private.get(s, []) for s in walk.seats],
        "told": [walk.told.get(s, []) for s in walk.seats],
        "privatePicture": [walk.private_picture.get(s, []) for s in walk.seats],
    }


def _chart(walk: Walk, facts: Facts) -> str:
    if not walk.score_name:
        return ""
    finals = ", ".join(f"{who(walk, facts, s)} {walk.scores[s][-1]:g}" for s in walk.seats)
    colours = [walk.colours.get(s, (120, 120, 120)) for s in walk.seats]
    return score_chart(
        [walk.scores[s] for s in walk.seats],
        colours,
        _periods(walk),
        f"{walk.score_name} of every player after each action. At the end: {finals}.",
    )


def assemble(walk: Walk, facts: Facts) -> str:
    """The whole page as one HTML text."""
    title = f"{walk.game.title}: the game replayed"
    data = json.dumps(_data(walk, facts), ensure_ascii=False, separators=(",", ":"))
    data = data.replace("</", "<\\/").replace("<!--", "<\\!--")  # cannot end the script element
    fills = {
        "@TITLE@": html.escape(title),
        "@GAME@": html.escape(walk.game.title),
        "@NOTE@": f'<p class="note">{html.escape(facts.note)}</p>' if facts.note else "",
        "@SUMMARY@": _summary(walk, facts),
        "@CHART@": _chart(walk, facts),
        "@SCORE_NAME@": html.escape(walk.score_name or "Scores"),
        "@STYLE@": _asset("page.css"),
        "@SCRIPT@": _asset("page.js"),
        "@DATA@": data,
    }
    # one pass over the template: a marker inside a filled-in value stays as it is
    return re.sub(r"@[A-Z_]+@", lambda m: fills[m.group(0)], _asset("page.html"))

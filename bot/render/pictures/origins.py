"""The board picture of Origins of World War I (docs/architecture.md §6).

A schematic map of Europe: the thirteen embassies (the seven powers, the four Balkan
minors, Africa and the Far East) at roughly their places, each showing every country's
PFs as a labelled chip in that country's colour, treaty rights (10 or more) starred and
outlined twice; the turn track with the months that score and the end-roll months; the
attack order of this turn; the provisional (or final) VPs. Reads only a view.
"""

from __future__ import annotations

from typing import Any

from engine.origins import content
from engine.origins.view_types import OriginsView

from .layout import Canvas, Picture, clip_description
from .palette import FAINT, HIGHLIGHT, INK, NEUTRAL, ORIGINS, PANEL, PAPER, RULE, ink_on

WIDTH, HEIGHT = 1000, 760
TRACK_TOP, MAP_TOP = 48, 128
COLS, ROWS = 4, 4
GAP, MARGIN = 8, 10
CELL_W = (WIDTH - 2 * MARGIN - (COLS - 1) * GAP) // COLS
CELL_H = (HEIGHT - MAP_TOP - MARGIN - (ROWS - 1) * GAP) // ROWS

# (row, column) of each embassy on the schematic map: north-west to south-east.
PLACES = {
    "UK": (0, 0), "GER": (0, 1), "RUS": (0, 2), "FE": (0, 3),
    "FRA": (1, 0), "AH": (1, 1), "ROM": (1, 2),
    "ITA": (2, 1), "SER": (2, 2), "BUL": (2, 3),
    "AFR": (3, 0), "GRE": (3, 2), "TUR": (3, 3),
}  # fmt: skip
# The three free cells hold the attack order, the VPs and the key.
ORDER_CELL, VPS_CELL, KEY_CELL = (1, 3), (2, 0), (3, 1)

PHASES = {
    "bidding": "Phase 3: bidding for the attack order",
    "placement": "Phase 4: secret placement",
    "attacks": "Phase 5: diplomatic attacks",
    "diplomacy": "Phase 6: diplomacy",
    "over": "Game over",
}


def _cell(place: tuple[int, int]) -> tuple[int, int, int, int]:
    row, col = place
    x = MARGIN + col * (CELL_W + GAP)
    y = MAP_TOP + row * (CELL_H + GAP)
    return x, y, x + CELL_W, y + CELL_H


def _month(label: str) -> str:
    month, year = label.split()
    return f"{month[:3]} {year[2:]}"


def draw(view: OriginsView, canvas: type[Canvas] = Canvas) -> Picture:
    c = canvas(WIDTH, HEIGHT)
    names = content.names()
    phase = PHASES[view.phase]
    c.text(
        (MARGIN, 12),
        f"Origins of World War I · {view.turn} · {phase}",
        21,
        bold=True,
        width=WIDTH - 2 * MARGIN,
    )
    _turn_track(c, view)
    for embassy, place in PLACES.items():
        _embassy(c, view, embassy, names[embassy], _cell(place))
    _order(c, view, _cell(ORDER_CELL))
    _scores(c, view, _cell(VPS_CELL))
    _key(c, view, _cell(KEY_CELL))
    return c.picture(describe(view), "origins.png")


def _turn_track(c: Canvas, view: OriginsView) -> None:
    turns = content.board().turns
    w = (WIDTH - 2 * MARGIN - (len(turns) - 1) * 4) / len(turns)
    for i, turn in enumerate(turns):
        x = MARGIN + i * (w + 4)
        now = i == view.turn_index
        past = i < view.turn_index
        fill = INK if now else (PANEL if past else PAPER)
        c.draw.rounded_rectangle(
            (x, TRACK_TOP, x + w, TRACK_TOP + 70), radius=6, fill=fill, outline=RULE if not now else INK
        )
        ink = ink_on(fill)
        c.text(
            (x + w / 2, TRACK_TOP + 16),
            _month(turn.label),
            15,
            bold=now,
            fill=ink if not past else FAINT,
            anchor="mm",
        )
        marks = []
        if turn.scoring:
            marks.append("VP")
        if turn.end_on:
            marks.append(f"end ≤{turn.end_on}")
        if marks:
            c.text(
                (x + w / 2, TRACK_TOP + 38),
                " ".join(marks),
                13,
                fill=ink if not past else FAINT,
                anchor="mm",
                width=int(w) - 4,
            )
        if now and view.end_roll is not None:
            c.text(
                (x + w / 2, TRACK_TOP + 58),
                f"rolled {view.end_roll}",
                13,
                bold=True,
                fill=ink,
                anchor="mm",
            )
        elif now and view.last_turn:
            c.text((x + w / 2, TRACK_TOP + 58), "last turn", 13, bold=True, fill=ink, anchor="mm")


def _embassy(c: Canvas, view: OriginsView, code: str, name: str, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    own = ORIGINS.get(code)
    held = code in view.countries
    c.panel(box, fill=HIGHLIGHT, outline=INK if held else RULE, width=2 if held else 1)
    # the title bar: the embassy's country colour (grey for a minor or an unheld power)
    bar = own if own is not None else NEUTRAL
    c.draw.rounded_rectangle((x0, y0, x1, y0 + 28), radius=8, fill=bar, outline=INK if held else RULE)
    c.draw.rectangle((x0 + 1, y0 + 20, x1 - 1, y0 + 28), fill=bar)
    title = f"{code} · {name}"
    c.text((x0 + 8, y0 + 14), title, 16, bold=True, fill=ink_on(bar), anchor="lm", width=CELL_W - 16)
    here = view.board.get(code, {})
    treaty = set(view.treaties.get(code, ()))
    if not here:
        c.text(((x0 + x1) / 2, (y0 + y1 + 28) / 2), "no PFs", 15, fill=FAINT, anchor="mm")
        return
    chips = sorted(here.items(), key=lambda kv: (-kv[1], kv[0]))
    chip_w = (CELL_W - 24) // 2
    for i, (country, pfs) in enumerate(chips):
        row, col = divmod(i, 2)
        x = x0 + 8 + col * (chip_w + 8)
        y = y0 + 36 + row * 28
        star = "★" if country in treaty else ""
        c.chip(
            x,
            y,
            f"{country} {pfs}{star}",
            ORIGINS.get(country, NEUTRAL),
            size=16,
            width=chip_w,
            strong=bool(star),
        )


def _order(c: Canvas, view: OriginsView, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    c.panel(box)
    c.text((x0 + 8, y0 + 8), "Attack order", 16, bold=True)
    attacking = view.attacking.country if view.attacking is not None else None
    chip_w = (CELL_W - 24) // 2
    for i, country in enumerate(view.order):
        col, row = divmod(i, 4)
        label = f"{i + 1}. {country}" + (" ◀" if country == attacking else "")
        x, y = x0 + 8 + col * (chip_w + 8), y0 + 32 + row * 22
        c.chip(
            x,
            y,
            label,
            ORIGINS.get(country, NEUTRAL),
            size=13,
            height=19,
            width=chip_w,
            strong=country == attacking,
        )
    if not view.order:
        c.text((x0 + 10, y0 + 34), "not drawn yet", 14, fill=FAINT)
    if view.bidding is not None:
        note = f"Highest bid: {view.bidding.high_bid} PF"
    elif view.submitted is not None:
        note = f"Sheets in: {len(view.submitted)} of {len(view.countries)}"
    elif view.attacking is not None:
        note = f"{view.attacking.country} attacks: {view.attacking.left} left"
    elif view.ready is not None:
        note = f"Finished diplomacy: {len(view.ready)}"
    else:
        note = ""
    c.text((x0 + 8, y1 - 24), note, 14, bold=True, width=CELL_W - 16)


def _scores(c: Canvas, view: OriginsView, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    c.panel(box)
    final = view.final is not None
    scores = view.scores()
    c.text((x0 + 8, y0 + 8), "Final VPs" if final else "Provisional VPs", 16, bold=True)
    if not scores:
        c.text((x0 + 10, y0 + 36), "none yet", 14, fill=FAINT)
        return
    top = max(max(scores.values()), 1)
    rows = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    step = min(19, (y1 - y0 - 34) // max(len(rows), 1))
    for i, (country, vps) in enumerate(rows):
        y = y0 + 32 + i * step
        c.chip(x0 + 8, y, country, ORIGINS.get(country, NEUTRAL), size=12, height=step - 2, width=44)
        length = int((CELL_W - 100) * max(vps, 0) / top)
        c.draw.rectangle(
            (x0 + 56, y + 3, x0 + 56 + length, y + step - 5), fill=ORIGINS.get(country, NEUTRAL), outline=INK
        )
        c.text((x0 + 62 + length, y + (step - 2) / 2), str(vps), 13, bold=True, anchor="lm")


def _key(c: Canvas, view: OriginsView, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    c.panel(box)
    c.text((x0 + 8, y0 + 8), "Key", 16, bold=True)
    c.text((x0 + 8, y0 + 30), "GER 12★: 12 PFs, treaty rights", 13, width=CELL_W - 16)
    c.text((x0 + 8, y0 + 48), "(10+), outlined twice", 13, width=CELL_W - 16)
    players = list(view.countries)
    for i, country in enumerate(players):
        row, col = divmod(i, 4)
        c.chip(
            x0 + 8 + col * 55,
            y0 + 70 + row * 26,
            country,
            ORIGINS.get(country, NEUTRAL),
            size=12,
            height=22,
            width=50,
        )


def describe(view: OriginsView) -> str:
    """Alt text: the board in sentences, most important first."""
    names = view.names()
    all_names = content.names()
    parts = [f"Origins of World War I board, {view.turn}, {PHASES[view.phase]}."]
    if view.order:
        parts.append("Attack order: " + ", ".join(names.get(c, c) for c in view.order) + ".")
    scores = view.scores()
    if scores:
        title = "Final VPs" if view.final is not None else "Provisional VPs"
        parts.append(f"{title}: " + ", ".join(f"{names.get(c, c)} {n}" for c, n in scores.items()) + ".")
    for embassy, here in view.board.items():
        treaty = set(view.treaties.get(embassy, ()))
        cells = ", ".join(
            f"{names.get(c, c)} {n}" + (" with treaty rights" if c in treaty else "")
            for c, n in sorted(here.items(), key=lambda kv: -kv[1])
        )
        parts.append(f"{all_names[embassy]}: {cells}.")
    return clip_description(" ".join(parts))


def draw_private(view: OriginsView, canvas: type[Canvas] = Canvas) -> Picture | None:
    """The owner's countries: PFs to bid or place, and the sheet being written (secret
    until every sheet is in); from the owner's own view."""
    you = view.you
    if you is None:
        return None
    mine = you.countries
    names = view.names()
    c = canvas(WIDTH, 70 + 64 * len(mine))
    c.text((MARGIN, 12), f"Your countries, {view.turn}: only you see this", 20, bold=True, width=WIDTH - 20)
    if you.handed_in:
        c.text((WIDTH - MARGIN, 44), "Sheets handed in", 14, bold=True, anchor="ra")
    parts = []
    for i, country in enumerate(mine):
        y = 60 + i * 64
        c.panel((MARGIN, y, WIDTH - MARGIN, y + 56), fill=HIGHLIGHT, outline=INK)
        c.chip(MARGIN + 8, y + 8, country, ORIGINS.get(country, NEUTRAL), size=16, height=26, width=64)
        c.text((MARGIN + 82, y + 10), names.get(country, country), 16, bold=True)
        c.text((MARGIN + 82, y + 32), f"{you.funds[country]} PFs to bid or place", 14)
        sheet = you.sheets.get(country) if you.sheets is not None else None
        if sheet is not None:
            c.text((MARGIN + 380, y + 10), "Sheet", 14, bold=True, fill=FAINT)
            c.text((MARGIN + 380, y + 30), sheet, 15, width=WIDTH - MARGIN - 390)
        parts.append(
            f"{names.get(country, country)}: {you.funds[country]} PFs" + (f", sheet {sheet}" if sheet else "")
        )
    return c.picture(clip_description("Your countries. " + "; ".join(parts) + "."), "sheet.png")


SCORE_NAME = "VPs"


def period(view: OriginsView) -> str:
    return _month(view.turn)


def scores(view: OriginsView) -> dict[str, int]:
    """Each country's VPs as the table saw them: provisional, then final."""
    return dict(view.scores())


def chart_colours(view: OriginsView) -> dict[str, Any]:
    return dict(ORIGINS)


def holders(view: OriginsView) -> dict[str, str]:
    """Which seat holds each nation scored on the chart (a player with fewer than seven
    holds two)."""
    return {code: country.seat for code, country in view.countries.items() if country.seat}

"""The board picture of Schönbrunn (docs/architecture.md §6).

The Hierarchy track with the Master of Ceremonies; the five Objectives with the top
Reparation of each pile, the Political Favour once revealed, and each nation's Delegates
there (face-up values shown, face-down ones as backs), its Delegation Head and Foreign
Minister marked; in Congress the total of each delegation; the Principle of Balance; and
each nation's Prestige, signed Treaties and screen. Nations wear their printed colours
(red, white, green, black, blue, yellow) in Okabe and Ito's shades, always named.
Reads only a view.
"""

from __future__ import annotations

from engine.core.words import counted
from engine.schonbrunn.content import nations
from engine.schonbrunn.view_types import ObjectiveView, SchonbrunnView

from .layout import Canvas, Picture, clip_description
from .palette import (
    BLACK,
    BLUE,
    BLUISH_GREEN,
    FAINT,
    HIGHLIGHT,
    INK,
    NEUTRAL,
    PANEL,
    RGB,
    RULE,
    VERMILLION,
    YELLOW,
    ink_on,
)

WIDTH, HEIGHT = 1000, 620
MARGIN = 10
COLOURS = {
    "red": VERMILLION,
    "white": HIGHLIGHT,
    "green": BLUISH_GREEN,
    "black": BLACK,
    "blue": BLUE,
    "yellow": YELLOW,
}
BACK: RGB = (90, 90, 110)  # a face-down Delegate

HIERARCHY_TOP = 44
OBJECTIVES_TOP = 112
OBJECTIVES_H = 330
PLAYERS_TOP = OBJECTIVES_TOP + OBJECTIVES_H + 8


def _colour(nation_name: str) -> RGB:
    for n in nations().values():
        if n.name == nation_name:
            return COLOURS.get(n.colour, NEUTRAL)
    return NEUTRAL


def _code(nation_name: str) -> str:
    for n in nations().values():
        if n.name == nation_name:
            return n.id
    return nation_name


def _names(view: SchonbrunnView) -> dict[str, str]:
    """Each player's nation, or "Player N" while the Auction has not yet given one."""
    known = {n.name for n in nations().values()}
    return {
        seat: p.nation if p.nation in known else f"Player {i + 1}"
        for i, (seat, p) in enumerate(view.players.items())
    }


def draw(view: SchonbrunnView, canvas: type[Canvas] = Canvas) -> Picture:
    c = canvas(WIDTH, HEIGHT)
    title = f"Schönbrunn · Round {view.round} of {view.rounds} · {view.phase}"
    if view.simplified:
        title += " · simplified"
    c.text((MARGIN, 12), title, 21, bold=True, width=WIDTH - 2 * MARGIN)
    _hierarchy(c, view)
    objectives = list(view.objectives)
    n = len(objectives) + 1  # the Principle of Balance is the last column
    gap = 6
    w = (WIDTH - 2 * MARGIN - (n - 1) * gap) // n
    for i, o in enumerate(objectives):
        _objective(c, o, view.objectives[o], (MARGIN + i * (w + gap), OBJECTIVES_TOP, w))
    _balance(c, view, (MARGIN + len(objectives) * (w + gap), OBJECTIVES_TOP, w))
    _players(c, view)
    return c.picture(describe(view), "schonbrunn.png")


def _hierarchy(c: Canvas, view: SchonbrunnView) -> None:
    c.panel((MARGIN, HIERARCHY_TOP, WIDTH - MARGIN, HIERARCHY_TOP + 60))
    c.text((MARGIN + 8, HIERARCHY_TOP + 6), "Hierarchy", 14, bold=True)
    if not view.hierarchy:
        c.text(
            (MARGIN + 8, HIERARCHY_TOP + 30),
            "not set yet (the Auction for nations comes first)",
            14,
            fill=FAINT,
        )
        return
    w = min(150, (WIDTH - 2 * MARGIN - 110) // len(view.hierarchy))
    for i, nation in enumerate(view.hierarchy):
        x = MARGIN + 100 + i * w
        master = nation == view.master
        label = f"{i + 1}. {nation}"
        c.chip(x, HIERARCHY_TOP + 8, label, _colour(nation), size=13, height=24, width=w - 8, strong=master)
        if master:
            c.text(
                (x + (w - 8) / 2, HIERARCHY_TOP + 44),
                "Master of Ceremonies",
                11,
                bold=True,
                anchor="mm",
                width=w - 8,
            )


def _objective(c: Canvas, o: str, info: ObjectiveView, slot: tuple[int, int, int]) -> None:
    x0, y0, w = slot
    c.panel((x0, y0, x0 + w, y0 + OBJECTIVES_H), fill=HIGHLIGHT, outline=INK)
    c.text((x0 + 8, y0 + 6), f"Objective {o}", 15, bold=True, width=w - 16)
    c.text((x0 + 8, y0 + 26), info.reparation or "Reparation face down", 12, width=w - 16)
    c.text((x0 + 8, y0 + 42), f"{info.pile} in the pile", 11, fill=FAINT)
    if info.favour is not None:
        c.text((x0 + w - 8, y0 + 42), f"Favour {info.favour}", 11, bold=True, anchor="ra")
    c.draw.line((x0 + 6, y0 + 60, x0 + w - 6, y0 + 60), fill=RULE)
    y = y0 + 66
    if not info.pieces:
        c.text((x0 + w / 2, y0 + 120), "no Delegates", 13, fill=FAINT, anchor="mm")
    for nation, pc in info.pieces.items():
        c.chip(x0 + 6, y, _code(nation), _colour(nation), size=11, height=18, width=40)
        badges = (["FM"] if pc.minister else []) + (["Head"] if pc.head else [])
        bx = x0 + 50
        for badge in badges:
            bw = c.text_width(badge, 10, True) + 8
            c.draw.rounded_rectangle((bx, y + 1, bx + bw, y + 17), radius=8, fill=PANEL, outline=INK)
            c.text((bx + bw / 2, y + 9), badge, 10, bold=True, anchor="mm")
            bx += bw + 3
        if pc.total is not None:
            c.text((x0 + w - 8, y + 9), f"= {pc.total}", 14, bold=True, anchor="rm")
        y += 21
        x = x0 + 8
        pieces = (
            [str(v) for v in pc.face_up] + ["?"] * pc.face_down + [f"{m:+d}" for m in pc.markers]
        )
        for piece in pieces:
            if x + 24 > x0 + w - 4:
                x, y = x0 + 8, y + 24
            down = piece == "?"
            c.draw.rectangle((x, y, x + 22, y + 20), fill=BACK if down else HIGHLIGHT, outline=INK)
            c.text((x + 11, y + 10), piece, 12, bold=True, fill=HIGHLIGHT if down else INK, anchor="mm")
            x += 25
        y += 26
        if y > y0 + OBJECTIVES_H - 30:
            break


def _balance(c: Canvas, view: SchonbrunnView, slot: tuple[int, int, int]) -> None:
    x0, y0, w = slot
    c.panel((x0, y0, x0 + w, y0 + OBJECTIVES_H))
    c.text((x0 + 8, y0 + 6), "Principle of Balance", 13, bold=True, width=w - 16)
    bal = view.balance
    c.text((x0 + 8, y0 + 26), bal.reparation or "Reparation face down", 12, width=w - 16)
    c.text((x0 + 8, y0 + 42), f"{bal.pile} in the pile", 11, fill=FAINT)
    c.draw.line((x0 + 6, y0 + 60, x0 + w - 6, y0 + 60), fill=RULE)
    c.text((x0 + 8, y0 + 68), "Key", 12, bold=True)
    c.draw.rectangle((x0 + 8, y0 + 88, x0 + 30, y0 + 108), fill=HIGHLIGHT, outline=INK)
    c.text((x0 + 19, y0 + 98), "5", 12, bold=True, anchor="mm")
    c.text((x0 + 36, y0 + 98), "face up", 11, anchor="lm")
    c.draw.rectangle((x0 + 8, y0 + 114, x0 + 30, y0 + 134), fill=BACK, outline=INK)
    c.text((x0 + 19, y0 + 124), "?", 12, bold=True, fill=HIGHLIGHT, anchor="mm")
    c.text((x0 + 36, y0 + 124), "face down", 11, anchor="lm")
    c.text((x0 + 8, y0 + 146), "FM: Foreign Minister", 11, width=w - 16)
    c.text((x0 + 8, y0 + 162), "Head: Delegation Head", 11, width=w - 16)
    c.text((x0 + 8, y0 + 178), "+1: Plot marker", 11, width=w - 16)
    if view.waiting:
        c.text((x0 + 8, y0 + 206), "Waiting for", 12, bold=True)
        for i, nation in enumerate(view.waiting[:5]):
            c.text((x0 + 8, y0 + 224 + i * 17), nation, 12, width=w - 16)


def _players(c: Canvas, view: SchonbrunnView) -> None:
    names = _names(view)
    seats = list(view.players)
    cols = 3 if len(seats) > 4 else 2
    rows = (len(seats) + cols - 1) // cols
    gap = 6
    w = (WIDTH - 2 * MARGIN - (cols - 1) * gap) // cols
    h = (HEIGHT - MARGIN - PLAYERS_TOP - (rows - 1) * gap) // max(rows, 1)
    final = view.final
    for i, seat in enumerate(seats):
        p = view.players[seat]
        nation = names[seat]
        row, col = divmod(i, cols)
        x0, y0 = MARGIN + col * (w + gap), PLAYERS_TOP + row * (h + gap)
        colour = _colour(nation)
        c.panel((x0, y0, x0 + w, y0 + h), fill=HIGHLIGHT, outline=INK)
        c.draw.rounded_rectangle((x0, y0, x0 + w, y0 + 26), radius=8, fill=colour, outline=INK)
        c.text((x0 + 8, y0 + 13), nation, 14, bold=True, fill=ink_on(colour), anchor="lm", width=w - 130)
        prestige = final.get(nation, p.prestige) if final else p.prestige
        c.text(
            (x0 + w - 8, y0 + 13),
            f"{'Final ' if final else ''}Prestige {prestige}",
            14,
            bold=True,
            fill=ink_on(colour),
            anchor="rm",
        )
        facts = [f"Screen {p.behind_screen}", f"Supply {p.supply}"]
        if p.under_nation_card:
            facts.append(f"Allies {p.under_nation_card}")
        if p.ally_markers:
            facts.append("markers " + "+".join(map(str, p.ally_markers)))
        if p.receptions is not None:
            facts.append(f"Receptions {p.receptions}")
        if p.committed:
            facts.append("committed")
        if p.bid is not None:
            facts.append(f"bid {p.bid}")
        c.text((x0 + 8, y0 + 32), " · ".join(facts), 12, width=w - 16)
        signed = ", ".join(p.signed) if p.signed else "no Treaties signed"
        c.text((x0 + 8, y0 + 50), signed, 12, fill=FAINT if not p.signed else INK, width=w - 16)


def describe(view: SchonbrunnView) -> str:
    names = _names(view)
    parts = [f"Schönbrunn board, round {view.round} of {view.rounds}, {view.phase}."]
    if view.hierarchy:
        parts.append(
            "Hierarchy: " + ", ".join(view.hierarchy) + f"; Master of Ceremonies {view.master}."
        )
    for o, info in view.objectives.items():
        bits = []
        for nation, pc in info.pieces.items():
            d = [str(v) for v in pc.face_up]
            if pc.face_down:
                d.append(f"{pc.face_down} face down")
            if pc.minister:
                d.append("Foreign Minister")
            if pc.head:
                d.append("Delegation Head")
            if pc.total is not None:
                d.append(f"total {pc.total}")
            bits.append(f"{nation} " + " ".join(d))
        rep = info.reparation or "face down"
        parts.append(f"Objective {o} ({rep}): " + ("; ".join(bits) or "no Delegates") + ".")
    parts.append(
        "Prestige: " + ", ".join(f"{names[s]} {p.prestige}" for s, p in view.players.items()) + "."
    )
    if view.final:
        parts.append("Final: " + ", ".join(f"{n} {v}" for n, v in view.final.items()) + ".")
    return clip_description(" ".join(parts))


def draw_private(view: SchonbrunnView, canvas: type[Canvas] = Canvas) -> Picture | None:
    """What is behind the owner's screen: Receptions, the Delegates in supply, the cards,
    the committed Delegate and their own face-down Delegates; from the owner's own view."""
    me = view.me
    if me is None:
        return None
    known = {n.name for n in nations().values()}
    nation = me.nation if me.nation in known else "Your seat"
    colour = _colour(nation)
    c = canvas(WIDTH, 300)
    c.draw.rounded_rectangle((MARGIN, 8, WIDTH - MARGIN, 44), radius=8, fill=colour, outline=INK)
    c.text(
        (MARGIN + 10, 26),
        f"{nation}: behind your screen (only you see this)",
        18,
        bold=True,
        fill=ink_on(colour),
        anchor="lm",
        width=WIDTH - 40,
    )
    c.text((MARGIN, 56), f"Receptions: {me.receptions}", 18, bold=True)
    if me.bid is not None:
        c.text((MARGIN + 260, 58), f"Your bid: {me.bid}", 15)
    if me.committed is not None:
        c.text((MARGIN + 460, 58), f"Committed Delegate: {me.committed}", 15)
    c.text((MARGIN, 92), "Delegates in supply", 14, bold=True, fill=FAINT)
    x = MARGIN
    for value in me.supply:
        c.draw.rectangle((x, 112, x + 30, 140), fill=HIGHLIGHT, outline=INK, width=2)
        c.text((x + 15, 126), str(value), 15, bold=True, anchor="mm")
        x += 36
    if not me.supply:
        c.text((MARGIN, 116), "none", 14, fill=FAINT)
    c.text((MARGIN, 152), "Cards behind your screen", 14, bold=True, fill=FAINT)
    c.text((MARGIN, 172), ", ".join(me.screen) or "none", 15, width=WIDTH - 2 * MARGIN)
    if me.aids_shown:
        c.text((MARGIN, 196), "Aids shown: " + ", ".join(me.aids_shown), 14, width=WIDTH - 2 * MARGIN)
    down = me.face_down or ()
    c.text((MARGIN, 224), "Your face-down Delegates", 14, bold=True, fill=FAINT)
    c.text(
        (MARGIN, 244),
        ", ".join(f"{v} in Objective {o}" for o, v in down) or "none",
        15,
        width=WIDTH - 2 * MARGIN,
    )
    text = (
        f"{nation}, behind your screen: {counted(me.receptions, 'Reception')}; Delegates in supply "
        + (", ".join(map(str, me.supply)) or "none")
        + "; cards "
        + (", ".join(me.screen) or "none")
        + (("; face down " + ", ".join(f"{v} in {o}" for o, v in down)) if down else "")
        + "."
    )
    return c.picture(clip_description(text), "screen.png")


SCORE_NAME = "Prestige"


def period(view: SchonbrunnView) -> str:
    return "Auction" if view.round < 1 else f"Round {view.round}"


def scores(view: SchonbrunnView) -> dict[str, int]:
    names = _names(view)
    final = view.final
    return {
        names[s]: final.get(names[s], p.prestige) if final else p.prestige
        for s, p in view.players.items()
    }


def chart_colours(view: SchonbrunnView) -> dict[str, RGB]:
    return {name: _colour(name) for name in _names(view).values()}


def holders(view: SchonbrunnView) -> dict[str, str]:
    """Which seat holds each name scored on the chart."""
    return {name: seat for seat, name in _names(view).items()}

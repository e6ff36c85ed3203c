"""The board picture of Crisis: 1914 (docs/architecture.md §6).

What the players see on the table for this count: the Score Track with each nation's two
Score markers (the second hollow), the Initiative Track with the Will Move boxes and the
Momentum markers, the Week and Round, each City Box with its Tension dice per box, the
Belligerence level and Prestige, and each nation's Tableau as a row of cards in their
type's colour with their DP. Nations wear their cube colours (green, white, black, blue,
red) in Okabe and Ito's shades, always with the nation's code. Reads only a view.
"""

from __future__ import annotations

from engine.crisis1914.content import TYPE_NAMES, load_content
from engine.crisis1914.view_types import CrisisView

from .layout import Canvas, Picture, clip_description
from .palette import (
    BLACK,
    BLUE,
    BLUISH_GREEN,
    FAINT,
    HIGHLIGHT,
    INK,
    NEUTRAL,
    RGB,
    RULE,
    SKY_BLUE,
    VERMILLION,
    YELLOW,
    ink_on,
)

WIDTH, HEIGHT = 1000, 800
MARGIN = 10

# The nations' cube colours (rulebook, Components) in Okabe and Ito's shades.
NATION_COLOURS = {"green": BLUISH_GREEN, "white": HIGHLIGHT, "black": BLACK, "blue": BLUE, "red": VERMILLION}

# The card types' printed colours (rulebook, Card Types): red, blue, green, yellow,
# blue-green and none, in Okabe and Ito's shades; every card also names its type.
TYPE_COLOURS: dict[str, RGB] = {
    "assertion": VERMILLION,
    "consensus": BLUE,
    "national_interests": BLUISH_GREEN,
    "caution": YELLOW,
    "back_channel": SKY_BLUE,
    "other": (225, 225, 225),
}
TYPE_SHORT = {
    "assertion": "Assert.",
    "consensus": "Consens.",
    "national_interests": "Nat. Int.",
    "caution": "Caution",
    "back_channel": "Back-ch.",
    "other": "Other",
}
PHASES = {  # each step of the Week (engine/crisis1914/state.py) in short words
    "first_draw": "First Draw",
    "play": "Play",
    "score": "Score",
    "congress_invite": "Congress: the invitation",
    "congress_answer": "Congress: answer the invitation",
    "end_check": "End of the Week",
    "refresh": "Refresh",
    "over": "Game over",
}


def _when(view: CrisisView, sep: str) -> str:
    """`Week 1 of 6 · Round 3 · Play`: Rounds are counted in the Play Step only."""
    parts = [f"Week {view.week} of 6"]
    if view.phase == "play":
        parts.append(f"Round {view.round}")
    if view.phase in PHASES:
        parts.append(PHASES[view.phase])
    return sep.join(parts)

TRACK_TOP = 44
TRACK_H = 230
MIDDLE_TOP = TRACK_TOP + TRACK_H + 8
MIDDLE_H = 190
TABLEAU_TOP = MIDDLE_TOP + MIDDLE_H + 8


def _colour(nation: str) -> RGB:
    return NATION_COLOURS.get(load_content().nations[nation].color, NEUTRAL)


def draw(view: CrisisView, canvas: type[Canvas] = Canvas) -> Picture:
    c = canvas(WIDTH, HEIGHT)
    nations = load_content().nations
    title = f"Crisis: 1914 · {_when(view, ' · ')}"
    if view.actor:
        title += f" · Turn {view.turn}: {nations[view.actor].statesman}"
    c.text((MARGIN, 12), title, 20, bold=True, width=WIDTH - 2 * MARGIN)
    _score_track(c, view)
    _initiative(c, view, (MARGIN, MIDDLE_TOP, MARGIN + 230, MIDDLE_TOP + MIDDLE_H))
    _city_boxes(c, view, MARGIN + 238, MIDDLE_TOP)
    _tableaux(c, view)
    if view.result:
        c.panel((MARGIN, HEIGHT - 40, WIDTH - MARGIN, HEIGHT - 8), fill=INK, outline=INK)
        c.text(
            (WIDTH / 2, HEIGHT - 24),
            view.result,
            16,
            bold=True,
            fill=HIGHLIGHT,
            anchor="mm",
            width=WIDTH - 40,
        )
    return c.picture(describe(view), "crisis1914.png")


def _score_track(c: Canvas, view: CrisisView) -> None:
    content = load_content()
    spaces = content.board.score_track
    top, bottom = TRACK_TOP, TRACK_TOP + TRACK_H
    c.panel((MARGIN, top, WIDTH - MARGIN, bottom))
    c.text(
        (MARGIN + 8, top + 6),
        "Score Track (DP; +N: Tension at the Score Step; hollow: second marker)",
        14,
        bold=True,
    )
    w = (WIDTH - 2 * MARGIN - 12) / len(spaces)
    row = top + 108  # the track itself; first markers stack above it, second markers below
    last = max(s.space for s in spaces)
    firsts: dict[int, list[str]] = {}
    seconds: dict[int, list[str]] = {}
    for nation, p in view.players.items():
        if p.lost:
            continue
        firsts.setdefault(min(p.score, last), []).append(nation)
        if p.second is not None:
            seconds.setdefault(min(p.second, last), []).append(nation)
    for i, space in enumerate(spaces):
        x = MARGIN + 6 + i * w
        tension = space.tension
        shade = (255, 255 - 22 * tension, 255 - 40 * tension) if tension else HIGHLIGHT
        c.draw.rectangle((x, row, x + w - 2, row + 40), fill=shade, outline=RULE)
        c.text((x + w / 2 - 1, row + 13), str(space.space), 13, bold=True, anchor="mm")
        if tension:
            c.text((x + w / 2 - 1, row + 30), f"+{tension}", 11, anchor="mm")
        for j, nation in enumerate(firsts.get(space.space, [])):
            y = row - 22 - j * 19
            c.chip(int(x), int(y), nation, _colour(nation), size=11, height=18, width=int(w - 2))
        for j, nation in enumerate(seconds.get(space.space, [])):
            y = row + 44 + j * 19
            c.draw.rounded_rectangle(
                (x, y, x + w - 2, y + 18),
                radius=5,
                fill=HIGHLIGHT,
                outline=_colour(nation) if _colour(nation) != HIGHLIGHT else INK,
                width=3,
            )
            c.text((x + w / 2 - 1, y + 9), nation, 11, bold=True, anchor="mm")


def _initiative(c: Canvas, view: CrisisView, box: tuple[int, int, int, int]) -> None:
    nations = load_content().nations
    x0, y0, x1, y1 = box
    c.panel(box)
    c.text((x0 + 8, y0 + 6), "Initiative Track", 15, bold=True)
    for i, nation in enumerate(view.initiative):
        y = y0 + 28 + i * 24
        acting = view.turn == i + 1 and nation is not None and nation == view.actor
        c.text((x0 + 8, y + 10), f"{i + 1}.", 13, bold=acting, fill=INK if acting else FAINT, anchor="lm")
        if nation is None:
            c.text((x0 + 30, y + 10), "(empty)", 13, fill=FAINT, anchor="lm")
            continue
        p = view.players[nation]
        c.chip(x0 + 28, y, nation, _colour(nation), size=12, height=20, width=40, strong=acting)
        flags = [
            f
            for f, on in (("passed", p.passed), ("Momentum", p.momentum), ("delib.", p.deliberated))
            if on
        ]
        label = nations[nation].statesman + (f" ({', '.join(flags)})" if flags else "")
        c.text((x0 + 74, y + 10), label, 13, bold=acting, anchor="lm", width=x1 - x0 - 80)
    moving = [("Will Move Top", view.will_move_top), ("Will Move Bottom", view.will_move_bottom)]
    y = y0 + 28 + max(len(view.initiative), 1) * 24 + 4
    for label, pile in moving:
        if pile:
            c.text((x0 + 8, y), f"{label}: {', '.join(pile)}", 12, width=x1 - x0 - 16)
            y += 17


def _city_boxes(c: Canvas, view: CrisisView, left: int, top: int) -> None:
    nations = load_content().nations
    players = list(view.players)
    n = max(len(players), 1)
    gap = 6
    w = (WIDTH - MARGIN - left - (n - 1) * gap) // n
    for i, nation in enumerate(players):
        p = view.players[nation]
        x0 = left + i * (w + gap)
        box = (x0, top, x0 + w, top + MIDDLE_H)
        colour = _colour(nation)
        c.panel(box, fill=HIGHLIGHT, outline=INK, width=1)
        c.draw.rounded_rectangle((x0, top, x0 + w, top + 26), radius=8, fill=colour, outline=INK)
        c.text(
            (x0 + 6, top + 13),
            f"{nation} · {nations[nation].city}",
            14,
            bold=True,
            fill=ink_on(colour),
            anchor="lm",
            width=w - 12,
        )
        c.text((x0 + 6, top + 32), p.statesman, 13, width=w - 12)
        c.text((x0 + 6, top + 54), "Tension", 12, bold=True, fill=FAINT)
        for j, (target, die) in enumerate(view.tension.get(nation, {}).items()):
            y = top + 70 + j * 26
            c.chip(x0 + 6, y, target, _colour(target), size=11, height=22, width=36)
            c.draw.rounded_rectangle(
                (x0 + 48, y, x0 + 70, y + 22), radius=4, fill=HIGHLIGHT, outline=INK, width=2
            )
            c.text((x0 + 59, y + 11), str(die), 14, bold=True, anchor="mm")
            if j == 0:
                c.text((x0 + 76, y + 11), "target", 11, fill=FAINT, anchor="lm")
        if p.lost:
            c.text((x0 + 6, top + MIDDLE_H - 72), f"Lost: {p.lost}", 12, bold=True, width=w - 12)
        # the Belligerence Track, 0-5, the current level filled
        y = top + MIDDLE_H - 50
        c.text((x0 + 6, y), "Belligerence", 12, bold=True, fill=FAINT)
        cell = min(22, (w - 12) // 6)
        for level in range(6):
            bx = x0 + 6 + level * cell
            on = level == p.belligerence
            c.draw.rectangle(
                (bx, y + 16, bx + cell - 2, y + 16 + cell - 4), fill=INK if on else HIGHLIGHT, outline=RULE
            )
            c.text(
                (bx + (cell - 2) / 2, y + 16 + (cell - 4) / 2),
                str(level),
                11,
                bold=on,
                fill=HIGHLIGHT if on else FAINT,
                anchor="mm",
            )
        c.text((x0 + w - 6, top + 54), f"Prestige {p.prestige}", 13, bold=True, anchor="ra")


def _tableaux(c: Canvas, view: CrisisView) -> None:
    players = list(view.players)
    bottom = HEIGHT - (48 if view.result else 8)
    row_h = min(66, (bottom - TABLEAU_TOP) // max(len(players), 1))
    for i, nation in enumerate(players):
        p = view.players[nation]
        y = TABLEAU_TOP + i * row_h
        c.panel((MARGIN, y, WIDTH - MARGIN, y + row_h - 4))
        c.chip(MARGIN + 6, y + 6, nation, _colour(nation), size=13, height=22, width=44)
        dp = f"{p.score}" + (f" & {p.second}" if p.second is not None else "")
        c.text((MARGIN + 6, y + 32), f"{dp} DP", 12, bold=True, width=92)
        c.text((MARGIN + 6, y + 46), f"{len(p.tableau)}/{p.limit} cards", 11, fill=FAINT, width=92)
        cards = p.tableau
        left = MARGIN + 100
        space = WIDTH - MARGIN - 6 - left
        cw = min(78, space // max(len(cards), 1))
        ch = row_h - 12
        for j, card in enumerate(cards):
            x = left + j * cw
            fill = TYPE_COLOURS.get(card.type, NEUTRAL)
            ink = ink_on(fill)
            c.draw.rounded_rectangle(
                (x, y + 4, x + cw - 4, y + 4 + ch),
                radius=5,
                fill=fill,
                outline=INK,
                width=3 if card.belligerence else 1,
            )
            c.text((x + 5, y + 6), str(card.dp), 16, bold=True, fill=ink)
            c.text(
                (x + cw - 8, y + 8),
                TYPE_SHORT.get(card.type, ""),
                10,
                fill=ink,
                anchor="ra",
                width=cw - 30,
            )
            c.text((x + 5, y + ch - 14), card.name, 10, fill=ink, width=cw - 12)
            if card.belligerence:
                c.text((x + 5, y + 26), "Bellig.", 10, bold=True, fill=ink)
        if not cards:
            c.text((left, y + row_h / 2 - 2), "no cards on the Tableau", 13, fill=FAINT, anchor="lm")


def describe(view: CrisisView) -> str:
    nations = load_content().nations
    parts = [
        f"Crisis: 1914 board, {_when(view, ', ')}."
    ]
    if view.actor:
        parts.append(f"{nations[view.actor].statesman} of {nations[view.actor].name} to act.")
    order = [nations[n].statesman for n in view.initiative if n]
    parts.append("Initiative: " + ", ".join(order) + ".")
    for nation, p in view.players.items():
        dp = f"{p.score}" + (f" and {p.second}" if p.second is not None else "")
        tension = ", ".join(f"{nations[t].name} {d}" for t, d in view.tension.get(nation, {}).items())
        cards = ", ".join(
            f"{c.name} {c.dp} ({TYPE_NAMES.get(c.type, c.type)})" for c in p.tableau
        )
        parts.append(
            f"{p.nation}: {dp} DP, Prestige {p.prestige}, Belligerence {p.belligerence}, Tension {tension}"
            + (f"; Tableau {cards}" if cards else "")
            + (f"; lost: {p.lost}" if p.lost else "")
            + "."
        )
    if view.result:
        parts.append(view.result)
    return clip_description(" ".join(parts))


def draw_private(view: CrisisView, canvas: type[Canvas] = Canvas) -> Picture | None:
    """The owner's Hand, the known top of their Draw Pile and the cards they are looking
    at, as cards; from the owner's own view."""
    you = view.you
    if you is None:
        return None
    nations = load_content().nations
    nation = you.nation
    rows = [("Your Hand", you.hand), ("Top of your Draw Pile", you.known_top)]
    if you.looking_at:
        rows.append(("You are looking at", you.looking_at))
    c = canvas(WIDTH, 60 + 112 * len(rows))
    c.chip(MARGIN, 12, nation, _colour(nation), size=14, height=26, width=50)
    c.text(
        (MARGIN + 60, 14),
        f"{nations[nation].statesman} of {nations[nation].name}: only you see this",
        18,
        bold=True,
        width=WIDTH - 80,
    )
    for i, (label, cards) in enumerate(rows):
        y = 52 + i * 112
        c.panel((MARGIN, y, WIDTH - MARGIN, y + 104))
        c.text((MARGIN + 8, y + 6), f"{label} ({len(cards)})", 14, bold=True)
        if not cards:
            c.text((MARGIN + 8, y + 50), "none", 14, fill=FAINT)
        cw = min(120, (WIDTH - 2 * MARGIN - 16) // max(len(cards), 1))
        for j, card in enumerate(cards):
            x = MARGIN + 8 + j * cw
            fill = TYPE_COLOURS.get(card.type, NEUTRAL)
            ink = ink_on(fill)
            c.draw.rounded_rectangle((x, y + 26, x + cw - 6, y + 98), radius=6, fill=fill, outline=INK)
            c.text((x + 6, y + 30), str(card.dp), 20, bold=True, fill=ink)
            c.text(
                (x + cw - 12, y + 34),
                TYPE_SHORT.get(card.type, ""),
                11,
                fill=ink,
                anchor="ra",
                width=cw - 40,
            )
            c.text((x + 6, y + 78), card.name, 12, fill=ink, width=cw - 16)
    text = "; ".join(
        f"{label}: "
        + (
            ", ".join(f"{k.name} ({k.dp} DP, {TYPE_NAMES.get(k.type, k.type)})" for k in cards)
            or "none"
        )
        for label, cards in rows
    )
    return c.picture(clip_description(f"Your cards as {nations[nation].statesman}. {text}."), "hand.png")


SCORE_NAME = "Prestige"


def period(view: CrisisView) -> str:
    return f"Week {view.week}"


def scores(view: CrisisView) -> dict[str, int]:
    return {nation: p.prestige for nation, p in view.players.items()}


def chart_colours(view: CrisisView) -> dict[str, RGB]:
    return {nation: _colour(nation) for nation in view.players}


def holders(view: CrisisView) -> dict[str, str]:
    """Which seat holds each nation scored on the chart."""
    return {code: p.seat for code, p in view.players.items()}

"""What a seat of Origins of World War I may see and how it reads: who owes a decision
(`prompts`), the view of a seat or of the public (`view`: the typed records of
view_types.py, docs/architecture.md §2), its short Markdown (`describe`) and the public view
laid out for a phone's status card (`layout`, engine/core/layout.py)."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from engine.core import Layout, Panel, Prompt
from engine.core.words import counted

from . import attacks, content, placement, scoring, texts
from .state import OriginsState, Sheet
from .view_types import Attacking, Bidding, Caps, Country, OpenAttack, OriginsView, You


def prompts(state: OriginsState) -> list[Prompt]:
    """Who owes a decision now: the bidder of Phase 3, every seat still writing its secret
    sheets (Phase 4, all at once), the country attacking (Phase 5), every seat not yet ready
    in diplomacy (Phase 6)."""
    label = content.board().turns[state.turn].label
    names = content.names()
    if state.phase == "bidding" and state.bidder:
        return [
            Prompt(
                seat=state.bidder,
                kind="bid",
                text=(
                    f"Attack order {' > '.join(names[c] for c in state.order)}: bid at least "
                    f"{counted(state.high_bid + 1, 'political factor')} (PF) to move one card with `/origins bid`, "
                    "or `/origins pass`."
                ),
                phase=f"{label}/bidding/{state.step}",
            )
        ]
    if state.phase == "placement":
        return [
            Prompt(
                seat=seat,
                kind="sheet",
                text=(
                    f"Write your secret sheet, at most {placement.cap(state)} political factors (PFs) per embassy "
                    "(e.g. `/origins sheet line:SER 5, ROM 3, FE 2`), then `/origins submit`."
                ),
                phase=f"{label}/placement",
                mode="simultaneous",
            )
            for seat in state.seats
            if seat not in state.submitted
        ]
    if state.phase == "attacks":
        country = state.order[state.attacker]
        left = attacks.allowed(state) - state.attacks_made
        where = ", ".join(names.get(e, e) for e in attacks.attack_embassies(state, country))
        return [
            Prompt(
                seat=state.holders[country],
                kind="attack",
                text=f"{names[country]}: attack in {where} ({left} left) with `/origins attack`, "
                "or `/origins done`.",
                phase=f"{label}/attacks/{country}",
            )
        ]
    if state.phase == "diplomacy":
        return [
            Prompt(
                seat=seat,
                kind="ready",
                text="Diplomacy: negotiate, then say `/origins ready`.",
                phase=f"{label}/diplomacy",
                thread=f"Diplomacy {label}",
                deadline_setting="diplomacy_minutes",
            )
            for seat in state.seats
            if seat not in state.ready
        ]
    return []


def view(state: OriginsState, seat: str | None) -> OriginsView:
    """What `seat` may know (`None`: the public view): the turn, the attack order, every
    embassy's PFs and treaty rights, each country's income and VPs, the phase's own facts,
    and for a seat its own countries (`you`). One line a fact of the view, which is why it
    runs past sixty lines."""
    names = content.names()
    phase = state.phase
    return OriginsView(
        turn=content.board().turns[state.turn].label,
        turn_index=state.turn,
        last_turn=state.last_turn,
        end_roll=state.end_roll,
        phase=phase,
        countries={c: _country(names[c], s) for c, s in state.holders.items()},
        order=tuple(state.order),
        board=_board(state, names),
        treaties={e: tuple(v) for e, v in state.treaties.items()},
        unplaced={c: state.unplaced.get(c, 0) for c in state.holders},
        vps=dict(state.provisional),
        vps_when=state.provisional_when,
        vps_parts={c: tuple(p) for c, p in state.provisional_parts.items()},
        final=dict(state.final) if state.final is not None else None,
        doubled=tuple(sorted(scoring.doubled_seats(state))),
        caps=Caps(per_embassy=placement.cap(state), attacks=attacks.allowed(state)),
        bidding=Bidding(high_bid=state.high_bid, bidder=state.bidder) if phase == "bidding" else None,
        submitted=(
            tuple(c for c, s in state.holders.items() if s in state.submitted)
            if phase == "placement"
            else None
        ),
        attacking=(
            Attacking(
                country=state.order[state.attacker],
                left=attacks.allowed(state) - state.attacks_made,
                embassies_used=tuple(state.embassies_used),
            )
            if phase == "attacks"
            else None
        ),
        ready=tuple(state.ready) if phase == "diplomacy" else None,
        last_sheets=(
            {c: placement.sheet_line(s) for c, s in state.last_sheets.items()} if state.last_sheets else None
        ),
        you=_you(state, seat) if seat is not None and seat in state.seats else None,
    )


def _board(state: OriginsState, embassies: Mapping[str, str]) -> dict[str, dict[str, int]]:
    """Every embassy with PFs, in board order: each country's PFs there, in the order the
    countries were dealt. Read straight from `pfs` (not `state.at`): every view draws it."""
    board = {}
    for e in embassies:
        here = state.pfs.get(e)
        if here:
            board[e] = {c: n for c in state.holders if (n := here.get(c, 0))}
    return board


@functools.lru_cache(maxsize=256)
def _country(name: str, seat: str) -> Country:
    """A country in play, made once for a game and shown in every view (a record is frozen)."""
    return Country(name=name, seat=seat)


def _you(state: OriginsState, seat: str) -> You:
    """What only `seat` sees: its countries and their funds, in Phase 5 the attacks open to
    its attacking country, in Phase 4 its secret sheets."""
    mine = state.countries_of(seat)
    attacker = state.order[state.attacker] if state.phase == "attacks" else None
    placing = state.phase == "placement"
    return You(
        seat=seat,
        countries=tuple(mine),
        funds={c: placement.funds(state, c) for c in mine},
        attacks=tuple(_open_attacks(state, attacker)) if attacker is not None and attacker in mine else None,
        sheets=(
            {c: placement.sheet_line(state.drafts[c]) if c in state.drafts else "(empty)" for c in mine}
            if placing
            else None
        ),
        unplaced=(
            {c: placement.unplaced_note(state, c, state.drafts.get(c, Sheet())) for c in mine}
            if placing
            else None
        ),
        handed_in=seat in state.submitted if placing else None,
    )


def _open_attacks(state: OriginsState, attacker: str) -> list[OpenAttack]:
    """Each attack open to `attacker` with the odds and chances, before it commits."""
    out = []
    for e in attacks.attack_embassies(state, attacker):
        for t in attacks.targets(state, attacker, e):
            mine, theirs = state.at(e, attacker), state.at(e, t)
            col = attacks.column(mine, theirs)
            label = content.attack_table().columns[col].label
            out.append(
                OpenAttack(
                    embassy=e, target=t, mine=mine, theirs=theirs, column=label, odds=texts.odds_text(col)
                )
            )
    return out


ATTACKS_SHOWN = 8  # the rest as /origins attack's target list shows them: the status stays one message
STATUS_LIMIT = 1900  # characters: one chat message (2,000 on Discord), with room for the front end
MORE_ATTACKS = "…and {} more: `/origins attack` shows each target's odds as you pick it."
HANDED_IN = "Your sheets are handed in."


PHASES = {
    "bidding": "Phase 3, bidding for the attack order",
    "placement": "Phase 4, secret placement",
    "attacks": "Phase 5, diplomatic attacks",
    "diplomacy": "Phase 6, diplomacy",
    "over": "Game over",
}


def _scores(v: OriginsView) -> tuple[str, Mapping[str, int]]:
    """The VPs to show and their heading: the final ones, else the dated provisional ones."""
    title = "Final VPs" if v.final is not None else "Provisional VPs"
    when = f" ({v.vps_when})" if v.vps_when else ""
    return f"{title}{when}", v.scores()


def describe(v: OriginsView) -> str:
    """A view as short Markdown for a phone, within one chat message: the turn, the attack
    order, the board, the VPs, the attacks open and a seat's own sheets (`_yours`)."""
    names = v.names()
    everywhere = content.names()  # the embassies no player holds too
    lines = [f"**Origins of World War I: {v.turn}**"]
    if v.last_turn:
        lines[0] += f" (last turn: {v.caps.per_embassy} PFs per embassy, {v.caps.attacks} attacks)"
    lines.append(PHASES[v.phase])
    if v.order:
        lines.append("Attack order: " + " > ".join(names[c] for c in v.order))
    if v.bidding is not None:
        lines.append(f"Highest bid {v.bidding.high_bid} PF")
    if v.attacking is not None:
        lines.append(f"Attacking: {names[v.attacking.country]} ({v.attacking.left} left)")
    if v.submitted is not None:
        lines.append("Sheets in: " + (", ".join(names[c] for c in v.submitted) or "none"))
    if v.board:
        lines.append("**Embassies** (★ treaty rights)")
        for embassy, here in v.board.items():
            held = v.treaties.get(embassy, ())
            cells = ", ".join(f"{names[c]} {n}{'★' if c in held else ''}" for c, n in here.items())
            lines.append(f"{everywhere[embassy]}: {cells}")
    unplaced = {c: n for c, n in v.unplaced.items() if n}
    if unplaced:
        lines.append("To place: " + ", ".join(f"{names[c]} {n}" for c, n in unplaced.items()))
    title, scores = _scores(v)
    if scores:
        lines.append(f"{title}: " + ", ".join(f"{names[c]} {n}" for c, n in scores.items()))
        mine = v.you.countries if v.you is not None else ()
        # where the player's own VPs came from (the provisional scoring's post breaks
        # every country down)
        lines += [
            "  " + scoring.country_detail(names[c], list(p)) for c, p in v.vps_parts.items() if c in mine
        ]
    if v.you is not None:
        lines += _yours(v, v.you, names, lines)
    return texts.explain_pfs("\n".join(lines))


def _yours(v: OriginsView, you: You, names: Mapping[str, str], above: list[str]) -> list[str]:
    """The seat's own lines of the status: its countries, their funds and sheets while
    bidding or placing, the attacks open to it (as many as fit one message below the
    lines `above`), and whether its sheets are in."""
    lines = ["**You**: " + ", ".join(names[c] for c in you.countries)]
    if v.phase in ("bidding", "placement"):
        for c in you.countries:
            line = f"{names[c]}: {you.funds[c]} PFs to bid or place"
            if you.sheets is not None:
                line += f"; sheet: {placement.sheet_words(you.sheets[c])}"
                if you.unplaced and you.unplaced.get(c):
                    line += f" ({you.unplaced[c]})"
            lines.append(line)
    if you.attacks:
        lines.append("Your attacks now (all your PFs in that embassy):")
        attacks = [
            f"• {names[x.target]} in {content.names()[x.embassy]}: {x.mine} vs {x.theirs}, {x.column}: {x.odds}"
            for x in you.attacks
        ]
        # as many as fit one message beside the rest of the status (a late board is long),
        # keeping room for the line counting the others and the last line
        room = STATUS_LIMIT - len("\n".join(above + lines))
        room -= len(MORE_ATTACKS.format(len(attacks))) + len(HANDED_IN) + 2
        shown = 0
        for line in attacks[:ATTACKS_SHOWN]:
            room -= len(line) + 1
            if room < 0:
                break
            shown += 1
        lines += attacks[:shown]
        if len(attacks) > shown:
            lines.append(MORE_ATTACKS.format(len(attacks) - shown))
    if you.handed_in:
        lines.append(HANDED_IN)
    return lines


def layout(v: OriginsView) -> Layout:
    """The public view for a phone's status card (engine/core/layout.py): the turn and phase,
    then one panel per country in the attack order with its VPs, the PFs it has to place,
    and the embassies where it holds treaty rights. Every embassy's
    PFs are in `describe` and the picture."""
    names = v.names()
    everywhere = content.names()
    lines = []
    if v.last_turn:
        lines.append(f"The last turn: {v.caps.per_embassy} PFs per embassy, {v.caps.attacks} attacks.")
    if v.bidding is not None:
        lines.append(f"Highest bid: {v.bidding.high_bid} PF.")
    if v.attacking is not None:
        lines.append(f"Attacking: {names[v.attacking.country]} ({v.attacking.left} left).")
    title, scores = _scores(v)
    lines.append("★ treaty rights · PFs: political factors" + (f" · {title}" if scores else ""))
    order = [c for c in v.order if c in names] + [c for c in names if c not in v.order]
    rights: dict[str, list[str]] = {c: [] for c in names}
    for embassy in everywhere:  # in board order
        for c in v.treaties.get(embassy, ()):
            if c in rights:
                rights[c].append(everywhere[embassy])
    panels = []
    for i, c in enumerate(order, 1):
        first = [f"**{scores.get(c, 0)} VPs**"] if scores else []
        if v.unplaced.get(c):
            first.append(f"{v.unplaced[c]} PFs to place")
        rows = [" · ".join(first)] if first else []
        if rights[c]:
            rows.append("★ " + ", ".join(rights[c]))
        panels.append(
            Panel(name=f"{i}. {names[c]}", lines=rows or ["no treaty rights"], seat=v.countries[c].seat)
        )
    return Layout(title=f"Origins of World War I · {v.turn} · {PHASES[v.phase]}", lines=lines, panels=panels)

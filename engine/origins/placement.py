"""Phase 4: the Political Factors Simultaneous Placement Sheets (§4, §6 Phase 4)."""

from __future__ import annotations

import re

from engine.core import Event, IllegalAction, match_name
from engine.core.words import counted

from . import content
from .state import OriginsState, Sheet

ELIMINATE_CAP = 5  # own PFs a country may eliminate in one embassy per turn (Phase 4)


def cap(state: OriginsState) -> int:
    """New PFs per embassy per turn, and new PFs home: 5, or 10 in the last turn (Phase 2, 4)."""
    return 10 if state.last_turn else 5


# Common names players type for the countries, after the code and the
# board's name: "Austria", "A-H", "Rumania", "Britain", "England", "Ottoman Empire".
ALIASES = {
    "UK": ("gb", "britain", "great britain", "england", "british empire"),
    "AH": (
        "austria",
        "a-h",
        "a/h",
        "austria hungary",
        "austria–hungary",
        "austro-hungary",
        "austro-hungarian empire",
    ),
    "TUR": ("ottoman empire", "ottomans", "ottoman", "turkiye"),
    "ROM": ("rumania", "roumania"),
    "GER": ("german empire", "prussia"),
    "RUS": ("russian empire",),
    "FE": ("far-east",),
}


def embassy_code(text: str) -> str:
    """An embassy from its code, name or a common name (ALIASES), as players type names
    (engine/core/names.py: accents, quotes, case, spaces and hyphens ignored; a unique prefix
    or word enough); the error lists the codes, or the candidates of an ambiguous name."""
    names = content.names()
    if text in names:  # a code, as the rules and the automatic players give it
        return text
    candidates = [(code, name, *ALIASES.get(code, ())) for code, name in names.items()]
    codes = ", ".join(names)
    return match_name(text, candidates, unknown=f"No embassy called {text.strip()!r}.", listed=f"Embassies: {codes}.")


_ITEM = re.compile(r"^(?P<minus>[-−])?\s*(?P<where>.*?)\s*:?\s*(?P<sign>[-−])?(?P<n>\d+)$")


def parse_sheet(text: str) -> Sheet:
    """The one-line form: "SER 5, ROM 3, FE 2" places; "-GER 2" eliminates 2 own PFs in Germany."""
    sheet = Sheet()
    for raw in re.split(r"[,;\n]", text):
        item = raw.strip()
        if not item:
            continue
        match = _ITEM.match(item)
        if not match or not match["where"]:
            raise IllegalAction(
                f"{item!r}: write an embassy and a number, like 'SER 5' (or '-SER 2' to eliminate 2)."
            )
        where = embassy_code(match["where"])
        target = sheet.remove if (match["minus"] or match["sign"]) else sheet.place
        if where in target:
            raise IllegalAction(f"{item!r}: {where} is written twice; write each embassy once.")
        target[where] = int(match["n"])
    return sheet


def sheet_line(sheet: Sheet) -> str:
    """The sheet in the one-line form (the inverse of parse_sheet)."""
    parts = [f"{e} {n}" for e, n in sheet.place.items() if n]
    parts += [f"-{e} {n}" for e, n in sheet.remove.items() if n]
    return ", ".join(parts) or "(empty)"


def sheet_words(line: str) -> str:
    """A sheet's one-line form ("SER 5, -GER 2") with every embassy's full name, as a
    person reads it: "Serbia 5, remove 2 in Germany"."""
    names = content.names()
    words = []
    for part in line.split(", "):
        code, _, amount = part.partition(" ")
        if code.startswith("-") and code[1:] in names:
            words.append(f"remove {amount} in {names[code[1:]]}")
        else:
            words.append(f"{names.get(code, code)} {amount}".strip())
    return ", ".join(words)


def funds(state: OriginsState, country: str) -> int:
    """PFs the country may place this turn: unplaced income plus its own embassy."""
    return state.unplaced.get(country, 0) + state.at(country, country)


def check_sheet(state: OriginsState, country: str, sheet: Sheet) -> None:
    """Refuse a sheet the rules do not allow, saying exactly why."""
    name = content.names()[country]
    limit = cap(state)
    known = content.names()
    for embassy, n in sheet.place.items():
        if embassy not in known:
            raise IllegalAction(f"No embassy called {embassy!r}.")
        if n < 0:
            raise IllegalAction(f"{name} cannot place a negative number of PFs in {known[embassy]}.")
        if n > limit:
            # Refused when written rather than sent home at the reveal (docs/rulings.md,
            # Origins 12): the same sheet written at the cap has the rulebook's effect.
            raise IllegalAction(
                f"{name} may place at most {limit} PFs in each embassy this turn, not {n} in "
                f"{known[embassy]}. Write {limit} or less there: PFs left unplaced go home (up to {limit} "
                "this turn, the rest is eliminated), as the rulebook does with PFs written over the cap."
            )
    for embassy, n in sheet.remove.items():
        if embassy not in known:
            raise IllegalAction(f"No embassy called {embassy!r}.")
        there = state.at(embassy, country)
        if n < 0:
            raise IllegalAction(f"{name} cannot eliminate a negative number of PFs.")
        if n > min(ELIMINATE_CAP, there):
            raise IllegalAction(
                f"{name} may eliminate at most {min(ELIMINATE_CAP, there)} of its PFs in "
                f"{known[embassy]} (it has {there} there; at most {ELIMINATE_CAP} per embassy), not {n}."
            )
    abroad = sum(n for e, n in sheet.place.items() if e != country)
    income = state.unplaced.get(country, 0)
    home = state.at(country, country) - sheet.remove.get(country, 0)
    if abroad > income + home:
        raise IllegalAction(
            f"{name} has {income + home} PFs to place ({income} of this turn's income and {home} in "
            f"its own embassy), but the sheet places {abroad} abroad."
        )


def leftover(state: OriginsState, country: str, sheet: Sheet) -> tuple[int, int, int]:
    """This turn's income the sheet leaves unplaced: (unplaced, going home, eliminated).
    Home takes it up to the cap; the rest is eliminated (Phase 4)."""
    abroad = sum(n for e, n in sheet.place.items() if e != country)
    income = state.unplaced.get(country, 0)
    unplaced = income - min(abroad, income)
    home = min(unplaced, cap(state))
    return unplaced, home, unplaced - home


def unplaced_note(state: OriginsState, country: str, sheet: Sheet) -> str:
    """The warning a sheet's echo carries: "5 PFs not placed: 5 go home, 0 eliminated"."""
    unplaced, home, lost = leftover(state, country, sheet)
    if not unplaced:
        return ""
    goes = "goes" if home == 1 else "go"
    return f"{counted(unplaced, 'PF')} not placed: {home} {goes} home, {lost} eliminated."


def apply_sheet(state: OriginsState, country: str, sheet: Sheet) -> int:
    """Carry out one revealed sheet: eliminations, then placements paid from income first,
    then from the own embassy; leftover income goes home up to the cap, the rest is lost."""
    for embassy, n in sheet.remove.items():
        if n:
            state.add(embassy, country, -n)
            state.book(country, eliminated=n)
    abroad = sum(n for e, n in sheet.place.items() if e != country)
    income = state.unplaced.get(country, 0)
    from_income = min(abroad, income)
    if abroad > from_income:
        state.add(country, country, -(abroad - from_income))
    for embassy, n in sheet.place.items():
        if n and embassy != country:
            state.add(embassy, country, n)
    leftover = income - from_income
    home = min(leftover, cap(state))
    if home:
        state.add(country, country, home)
    state.book(country, eliminated=leftover - home)
    state.unplaced[country] = 0
    return leftover - home


def reveal(state: OriginsState) -> Event:
    """All sheets are in: carry them out together and show them (Phase 4)."""
    sheets = {c: state.drafts.get(c, Sheet()) for c in state.order}
    lost = {country: apply_sheet(state, country, sheet) for country, sheet in sheets.items()}
    state.last_sheets = sheets
    state.drafts = {}
    state.submitted = []
    names = content.names()
    lines = [f"{names[c]}: {sheet_words(sheet_line(s))}" for c, s in sheets.items()]
    lines += [
        f"{names[c]} loses {n} unplaced PFs over the home cap of {cap(state)}: eliminated."
        for c, n in lost.items()
        if n
    ]
    return Event(
        kind="sheets_revealed",
        text="Placement sheets revealed:\n" + "\n".join(lines),
        reveals=True,
        data={"sheets": {c: s.model_dump() for c, s in sheets.items()}},
    )

"""The player commands: `/origins bid|pass|place|remove|sheet|submit|attack|done|ready`.

Autocomplete (`suggest`) offers only what is legal for the caller right now.
"""

from __future__ import annotations

import re
from typing import Any

from engine.core import Choice, Command, IllegalAction, Option, parse_int

from . import attacks, content, placement, texts
from .actions import Attack, Bid, Done, Pass, Place, Ready, Remove, Submit, WriteSheet
from .state import OriginsState, Sheet


def nation_alternatives() -> dict[str, tuple[str, ...]]:
    """The common names of the countries (placement.ALIASES: England, Austria, Ottoman
    Empire) by the board's name, which a seat's label ("Germany & Austria-Hungary") shows."""
    names = content.names()
    return {names[code]: aliases for code, aliases in placement.ALIASES.items() if code in names}


def _choices(codes: list[str]) -> list[Choice]:
    names = content.names()
    return [Choice(f"{c} ({names[c]})", c) for c in codes]


def _numbers(values: range | list[int]) -> list[Choice]:
    return [Choice(str(n), str(n)) for n in values]


def _country(state: OriginsState, seat: str, opts: dict[str, Any], key: str = "country") -> str:
    """The caller's country: named, or implied when the caller holds only one."""
    mine = state.countries_of(seat)
    if opts.get(key):
        code = placement.embassy_code(str(opts[key]))
        if code not in mine:
            raise IllegalAction(f"You do not hold {content.names()[code]}. Yours: {', '.join(mine)}.")
        return code
    if len(mine) == 1:
        return mine[0]
    raise IllegalAction(f"You hold {', '.join(mine)}: say which with {key}:.")


def _typed_country(state: OriginsState, seat: str, opts: dict[str, Any], key: str = "country") -> str | None:
    try:
        return _country(state, seat, opts, key)
    except IllegalAction:
        return None


def _typed_code(typed: dict[str, Any], key: str) -> str | None:
    """A code from what the player typed so far ('ser', 'Serbia'), or None."""
    try:
        return placement.embassy_code(str(typed[key])) if typed.get(key) else None
    except IllegalAction:
        return None


# -- suggestions ---------------------------------------------------------------------------
def _own_countries(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return _choices(state.countries_of(seat))


def _cards(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return _choices(list(state.order)) if state.phase == "bidding" else []


def _positions(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    if state.phase != "bidding":
        return []
    card = _typed_code(typed, "card")
    current = state.order.index(card) + 1 if card in state.order else None
    return _numbers([p for p in range(1, len(state.order) + 1) if p != current])


def _payers(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return _choices([c for c in state.countries_of(seat) if placement.funds(state, c) > state.high_bid])


def _bid_amounts(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    if state.phase != "bidding":
        return []
    payer = _typed_country(state, seat, typed, "payer")
    payers = [payer] if payer else state.countries_of(seat)
    most = max((placement.funds(state, c) for c in payers), default=0)
    return _numbers(range(state.high_bid + 1, min(most, state.high_bid + 10) + 1))


def _embassies(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return _choices(content.embassies()) if state.phase == "placement" else []


def _place_amounts(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    country = _typed_country(state, seat, typed)
    if state.phase != "placement" or country is None:
        return []
    return _numbers(range(0, min(placement.cap(state), placement.funds(state, country)) + 1))


def _own_embassies(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    country = _typed_country(state, seat, typed)
    if state.phase != "placement" or country is None:
        return []
    return _choices([e for e in content.embassies() if state.at(e, country) > 0])


def _remove_amounts(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    country = _typed_country(state, seat, typed)
    embassy = _typed_code(typed, "embassy")
    if state.phase != "placement" or country is None or embassy not in content.names():
        return []
    return _numbers(range(0, min(placement.ELIMINATE_CAP, state.at(embassy, country)) + 1))


def _attacker(state: OriginsState, seat: str) -> str | None:
    if state.phase != "attacks":
        return None
    country = state.order[state.attacker]
    return country if state.holders[country] == seat else None


def _attack_embassies(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    country = _attacker(state, seat)
    return _choices(attacks.attack_embassies(state, country)) if country else []


def _attack_targets(state: OriginsState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    country = _attacker(state, seat)
    embassy = _typed_code(typed, "embassy")
    if country is None or embassy not in content.names():
        return []
    # with all one's PFs there against theirs: the odds and chances before committing
    mine, names = state.at(embassy, country), content.names()
    out = []
    for c in attacks.targets(state, country, embassy):
        col = attacks.column(mine, state.at(embassy, c))
        label = content.attack_table().columns[col].label
        odds = f"{mine} vs {state.at(embassy, c)}, {label}: {texts.odds_text(col)}"
        out.append(Choice(f"{c} ({names[c]}) {odds}", c))
    return out


# -- builders ------------------------------------------------------------------------------
def _build_bid(state: OriginsState, seat: str, opts: dict[str, Any]) -> Bid:
    card = placement.embassy_code(str(opts["card"]))
    if opts.get("payer"):
        payer = _country(state, seat, opts, "payer")
    elif card in state.countries_of(seat):
        payer = card
    else:
        payer = _country(state, seat, opts, "payer")
    return Bid(
        payer=payer,
        card=card,
        position=parse_int(opts["position"], "position"),
        amount=parse_int(opts["amount"], "amount"),
    )


def _build_place(state: OriginsState, seat: str, opts: dict[str, Any]) -> Place:
    return Place(
        country=_country(state, seat, opts),
        embassy=placement.embassy_code(str(opts["embassy"])),
        amount=parse_int(opts["amount"], "amount"),
    )


def _build_remove(state: OriginsState, seat: str, opts: dict[str, Any]) -> Remove:
    return Remove(
        country=_country(state, seat, opts),
        embassy=placement.embassy_code(str(opts["embassy"])),
        amount=parse_int(opts["amount"], "amount"),
    )


def _build_sheet(state: OriginsState, seat: str, opts: dict[str, Any]) -> WriteSheet | None:
    if opts.get("line") is None:
        return None  # a query: show the caller's sheets
    line = str(opts["line"])
    placement.parse_sheet(line)  # precise errors before anything is sent
    return WriteSheet(country=_country(state, seat, opts), text=line)


def parse_split(text: str) -> dict[str, int]:
    """ "GER 4, RUS 3" -> {"GER": 4, "RUS": 3}."""
    out: dict[str, int] = {}
    for item in (p.strip() for p in re.split(r"[,;]", text)):
        if not item:
            continue
        match = re.match(r"^(.*?)\s*:?\s*(\d+)$", item)
        if not match or not match[1]:
            raise IllegalAction(f"{item!r}: write a country and PFs, like 'GER 4, RUS 3'.")
        code = placement.embassy_code(match[1])
        if code in out:
            raise IllegalAction(f"{code} is named twice; attacks in one embassy go to different countries.")
        out[code] = int(match[2])
    return out


def _build_attack(state: OriginsState, seat: str, opts: dict[str, Any]) -> Attack:
    embassy = placement.embassy_code(str(opts["embassy"]))
    if opts.get("split"):
        return Attack(embassy=embassy, split=parse_split(str(opts["split"])))
    if not opts.get("target"):
        raise IllegalAction("Name the country to attack with target: (or split: 'GER 4, RUS 3').")
    target = placement.embassy_code(str(opts["target"]))
    country = _attacker(state, seat)
    mine = state.at(embassy, country) if country else 0
    return Attack(embassy=embassy, split={target: mine})


def _submit(state: OriginsState, seat: str, opts: dict[str, Any]) -> Submit:
    """An empty sheet is handed in only when the player says so (`empty:yes`): its unplaced
    PFs go home up to the cap and the rest are eliminated (Phase 4), which is easy to miss."""
    if str(opts.get("empty", "")).strip().casefold() not in ("yes", "true", "1", "on"):
        names = content.names()
        for country in state.countries_of(seat):
            sheet = state.drafts.get(country)
            if (sheet is None or placement.sheet_line(sheet) == "(empty)") and state.unplaced.get(country, 0):
                note = placement.unplaced_note(state, country, sheet or Sheet())
                raise IllegalAction(
                    f"Your sheet for {names[country]} is empty: {note} Hand it in as it is with "
                    "`/origins submit empty:yes`, or write it first (`/origins place`, `/origins sheet`)."
                )
    return Submit()


_COUNTRY = Option(
    "country", "Which of your countries (if you hold several)", required=False, suggest=_own_countries
)

COMMANDS: tuple[Command, ...] = (
    Command(
        "bid",
        "Phase 3: pay PFs to move one card of the attack order",
        _build_bid,
        (
            Option("card", "The country card to move", suggest=_cards),
            Option(
                "position",
                "Its new place (1 = attacks first)",
                "int",
                suggest=_positions,
                min_value=1,
                max_value=7,
            ),
            Option(
                "amount",
                "PFs to bid (more than the last bid; lost either way)",
                "int",
                suggest=_bid_amounts,
                min_value=1,
            ),
            Option("payer", "Which of your countries pays", required=False, suggest=_payers),
        ),
    ),
    Command("pass", "Phase 3: pass in the bidding (you may bid again later)", lambda s, seat, o: Pass()),
    Command(
        "place",
        "Phase 4: write new PFs for an embassy on your secret sheet (0 clears)",
        _build_place,
        (
            Option("embassy", "Where", suggest=_embassies),
            Option(
                "amount",
                "How many (at most 5, 10 in the last turn)",
                "int",
                suggest=_place_amounts,
                min_value=0,
            ),
            _COUNTRY,
        ),
        private=True,
    ),
    Command(
        "remove",
        "Phase 4: write own PFs to eliminate in an embassy (up to 5; 0 clears)",
        _build_remove,
        (
            Option("embassy", "Where", suggest=_own_embassies),
            Option("amount", "How many to eliminate", "int", suggest=_remove_amounts, min_value=0),
            _COUNTRY,
        ),
        private=True,
    ),
    Command(
        "sheet",
        "Phase 4: show your sheet, or write it in one line: SER 5, ROM 3, FE 2, -GER 2",
        _build_sheet,
        (
            Option(
                "line", "The whole sheet, e.g. 'SER 5, ROM 3, FE 2' ('-GER 2' eliminates)", required=False
            ),
            _COUNTRY,
        ),
        private=True,
    ),
    Command(
        "submit",
        "Phase 4: hand in your sheets (revealed when all are in)",
        lambda s, seat, o: _submit(s, seat, o),
        (Option("empty", "yes: hand in an empty sheet as it is", "bool", required=False),),
        private=True,
    ),
    Command(
        "attack",
        "Phase 5: attack in an embassy with all your PFs there",
        _build_attack,
        (
            Option("embassy", "Where both of you have PFs", suggest=_attack_embassies),
            Option("target", "The country to attack", required=False, suggest=_attack_targets),
            Option("split", "Several attacks here: 'GER 4, RUS 3' (uses all your PFs)", required=False),
        ),
    ),
    Command("done", "Phase 5: no more attacks for this country this turn", lambda s, seat, o: Done()),
    Command("ready", "Phase 6: you are finished with diplomacy", lambda s, seat, o: Ready()),
)

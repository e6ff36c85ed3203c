"""`/schonbrunn <command>`: every decision of the game, with autocomplete from the caller's
own supply and the legal targets only (the Discord adapter and the console read these)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import (
    Choice,
    Command,
    IllegalAction,
    Option,
    find_name,
    fold,
    match_choice,
    match_name,
    parse_int,
)

from . import actions as A
from .content import card, nations
from .pieces import (
    activatable,
    aids_held,
    face_up_of,
    head_targets,
    minister_objectives,
    move_destinations,
    nation_candidates,
    plot_targets,
    spend_limit,
    supply_values,
    unshown_aids,
)
from .state import SchonbrunnState
from .texts import card_text

NONE = "none"


# Other ways to name an Objective than the board's numeral: its number written otherwise, and
# its name ("Indemnities (I), Allies (II), Aids (III), Treaties (IIII) and Legitimacy (V)",
# rules: Setup 1).
OBJECTIVE_NAMES = {
    "I": ("1", "Indemnities"),
    "II": ("2", "Allies"),
    "III": ("3", "Aids"),
    "IIII": ("IV", "4", "Treaties"),
    "V": ("5", "Legitimacy"),
}


def _objective_names(objectives: list[str]) -> list[tuple[str, ...]]:
    """The Objectives for the name matcher: `ii`, `Objective II`, `Objective 2`, `IV`, `Allies`."""
    out = []
    for o in objectives:
        alike = OBJECTIVE_NAMES.get(o, ())
        out.append((o, f"Objective {o}", *alike, *(f"Objective {a}" for a in alike)))
    return out


def _objective(state: SchonbrunnState, value: Any) -> str:
    """An Objective as typed (`ii`, `Objective II`, `IV`); text that names none goes to the
    rules as typed, which refuse it in their words."""
    text = str(value).strip()
    found = find_name(text, _objective_names(state.objectives))
    return found if found is not None else text.upper()


def _nation(state: SchonbrunnState, value: Any, among: list[str] | None = None) -> str:
    """A Nation's code from its code, name or common name as typed (`england`, `Prussia`,
    `Espana`), among `among` (else every Nation in play); text that names none goes to the
    rules as typed, which refuse it in their words."""
    text = str(value).strip()
    if among is None:
        among = [p.nation for p in state.players.values() if p.nation]
    found = find_name(text, nation_candidates(among))
    return found if found is not None else text


def _none(value: Any) -> bool:
    return fold(value) == NONE


def _with_text(name: str, text: str) -> str:
    """`name — text` within an autocomplete line's 100 characters: the card is read where
    it is chosen."""
    label = f"{name} — {text}"
    return label if len(label) <= 100 else label[:99].rsplit(" ", 1)[0] + "…"


def _cards(ids: Sequence[str]) -> list[Choice]:
    return [Choice(_with_text(card(c).name, card_text(card(c))), c) for c in ids]


def _supply(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice(f"Influence {v}", str(v)) for v in sorted(set(supply_values(state, seat)))]


def _objectives(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice(f"Objective {o}", o) for o in state.objectives]


def _nation_choice(state: SchonbrunnState, seat: str) -> Choice:
    nat = state.players[seat].nation
    return Choice(nations()[nat].name, nat)


def _tied(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    group = next((g for g in state.tie_groups if len(g) > 1), [])
    return [
        Choice(
            " > ".join(nations()[state.players[s].nation].name for s in group),
            ",".join(state.players[s].nation for s in group),
        )
    ] + [_nation_choice(state, s) for s in group]


def _unsigned(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    held = [c for c in state.players[seat].screen if card(c).type == "treaty"]
    return [Choice("none", NONE), *_cards(held)] + ([Choice("all", ",".join(held))] if len(held) > 1 else [])


def _spendable(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice(str(n), str(n)) for n in range(spend_limit(state, seat) + 1)]


def _hidden_favours(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice(f"Objective {o}", o) for o in state.objectives if o not in state.favours_up]


def _heads(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    out = [Choice("keep it behind the screen", NONE)]
    for t in head_targets(state, seat):
        out.append(
            Choice(f"Objective {t} (1 Reception)", t)
            if t in state.objectives
            else Choice(f"before {nations()[t].name}'s screen", t)
        )
    return out


def _plot_nations(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    seen = dict.fromkeys(t[0] for t in plot_targets(state, seat))
    return [_nation_choice(state, s) for s in seen]


def _plot_objectives(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    try:
        nation = _nation(state, typed["nation"]) if typed.get("nation") else ""
    except IllegalAction:  # a name that could be several: offer them all
        nation = ""
    objs = dict.fromkeys(
        o for s, o, _ in plot_targets(state, seat) if not nation or state.players[s].nation == nation
    )
    return [Choice(f"Objective {o}", o) for o in objs]


def _plot_receptions(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice(str(n), str(n)) for n in range(1, min(4, state.players[seat].receptions) + 1)]


def _move_pieces(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    target = state.players[seat].head
    if target not in state.players:
        return []
    return [Choice(f"{d.value} in {d.place}", f"{d.place}:{d.value}") for d in face_up_of(state, target)]


def _move_to(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    target = state.players[seat].head
    if target not in state.players:
        return []
    origin = str(typed.get("delegate", "")).split(":")[0]
    dests = move_destinations(state, target, origin)
    return [Choice(f"Objective {o}", o) for o in dests] or [Choice("remove it", NONE)]


def _ministers(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice("keep it", NONE)] + [Choice(f"Objective {o}", o) for o in minister_objectives(state, seat)]


def _activatable(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    timing = "congress" if state.stage == "activate" else "assignments"
    return _cards(activatable(state, seat, timing))


def _payments(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    out = _cards(unshown_aids(state, seat))
    if state.players[seat].minister is None:
        out.append(Choice("the Foreign Minister", "minister"))
    return out


def _signed(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice("none", NONE), *_cards(state.players[seat].signed)]


def _aids(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice("none", NONE), *_cards(aids_held(state, seat))]


def _nations_left(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice(_with_text(nations()[n].name, nations()[n].ability_text), n) for n in state.nations_left]


def _bids(state: SchonbrunnState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice(str(n), str(n)) for n in range(1, state.players[seat].receptions + 1)]


def _list(value: Any) -> list[str]:
    text = str(value or "").strip()
    if not text or _none(text):
        return []
    return [x.strip() for x in text.split(",") if x.strip()]


def _card_ids(values: list[str], pool: Sequence[str], what: str) -> list[str]:
    return [match_choice(v, _cards(pool), what) for v in values]


def _build_tiebreak(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.TieBreak:
    return A.TieBreak(order=[_nation(state, n) for n in _list(o["order"])])


def _build_sign(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.Sign:
    held = [c for c in state.players[seat].screen if card(c).type == "treaty"]
    return A.Sign(treaties=_card_ids(_list(o.get("treaties")), held, "Treaty"))


def _build_head(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.Head:
    target = str(o.get("target") or NONE).strip()
    if _none(target):
        return A.Head(target=None)
    in_play = [p.nation for p in state.players.values() if p.nation]
    places = _objective_names(state.objectives) + nation_candidates(in_play)
    found = find_name(target, places)
    return A.Head(target=found if found is not None else target)


def _build_assign(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.Assign:
    face = fold(o.get("face") or "").removeprefix("face ")
    if face and state.stage == "assign":
        due = "up" if state.assign_step == "up" else "down"
        if face != due:
            raise IllegalAction(
                f"This Delegate goes face {due} now (the order is 2 down, head, 3 up, 1 down)."
            )
    objective = match_name(o["objective"], _objective_names(state.objectives), "Objective")
    return A.Assign(delegate=parse_int(o["delegate"], "delegate"), objective=objective)


def _build_plot(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.Plot:
    return A.Plot(
        nation=_nation(state, o["nation"]),
        objective=_objective(state, o["objective"]),
        receptions=parse_int(o["receptions"], "receptions"),
        index=parse_int(o.get("index") or 1, "index"),
    )


def _build_move(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.Move:
    origin, _, value = str(o["delegate"]).partition(":")
    to = str(o.get("to") or NONE)
    return A.Move(
        objective=_objective(state, origin),
        delegate=parse_int(value, "delegate"),
        to=None if _none(to) else _objective(state, to),
    )


def _build_minister(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.Minister:
    target = str(o.get("objective") or NONE)
    return A.Minister(objective=None if _none(target) else _objective(state, target))


def _build_activate(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.Activate:
    p = state.players[seat]
    treaty = match_choice(o["treaty"], _cards(p.signed), "signed Treaty")
    pay = str(o["pay"])
    if fold(pay) not in ("minister", "foreign minister", "the foreign minister"):
        pay = match_choice(pay, _cards(aids_held(state, seat)), "Aid")
    else:
        pay = "minister"
    targets = []
    for t in _list(o.get("targets")):
        nation, _, at = t.partition(":")
        targets.append(A.Target(nation=_nation(state, nation), objective=_objective(state, at)))
    objective = o.get("objective")
    return A.Activate(
        treaty=treaty, pay=pay, objective=_objective(state, objective) if objective else None, targets=targets
    )


def _build_keep(state: SchonbrunnState, seat: str, o: dict[str, Any]) -> A.Keep:
    p = state.players[seat]
    return A.Keep(
        treaties=_card_ids(_list(o.get("treaties")), p.signed, "signed Treaty"),
        aids=_card_ids(_list(o.get("aids")), aids_held(state, seat), "Aid"),
    )


COMMANDS: tuple[Command, ...] = (
    Command(
        "bid",
        "Auction: hide Receptions in hand for a Nation (secret)",
        lambda s, seat, o: A.Bid(receptions=parse_int(o["receptions"], "receptions")),
        (Option("receptions", "Receptions (at least 1)", "int", suggest=_bids, min_value=1),),
        private=True,
    ),
    Command(
        "choose",
        "Auction: choose your Nation",
        lambda s, seat, o: A.Choose(nation=_nation(s, o["nation"], s.nations_left)),
        (Option("nation", "a Nation still free", suggest=_nations_left),),
    ),
    Command(
        "commit",
        "Hierarchy: commit one Delegate face down (secret)",
        lambda s, seat, o: A.Commit(delegate=parse_int(o["delegate"], "delegate")),
        (Option("delegate", "its Influence", "int", suggest=_supply, min_value=0),),
        private=True,
    ),
    Command(
        "tiebreak",
        "Hierarchy: order the tied nations, best position first",
        _build_tiebreak,
        (Option("order", "nations separated by commas", suggest=_tied),),
        private=True,
    ),
    Command(
        "sign",
        "Hierarchy: sign Treaties (comma-separated, or none)",
        _build_sign,
        (Option("treaties", "Treaties to sign", required=False, suggest=_unsigned),),
    ),
    Command(
        "receptions",
        "Hierarchy: spend Receptions for Prestige",
        lambda s, seat, o: A.Spend(receptions=parse_int(o["amount"], "amount")),
        (
            Option(
                "amount", "up to your Hierarchy Delegate's Influence", "int", suggest=_spendable, min_value=0
            ),
        ),
    ),
    Command(
        "favour",
        "Assignments: reveal a Political Favour (Master of Ceremonies)",
        lambda s, seat, o: A.Favour(objective=_objective(s, o["objective"])),
        (Option("objective", "a face-down Favour", suggest=_hidden_favours),),
    ),
    Command(
        "assign",
        "Assignments: assign a Delegate to an Objective",
        _build_assign,
        (
            Option("delegate", "its Influence", "int", suggest=_supply, min_value=0),
            Option("objective", "I to V", suggest=_objectives),
            Option(
                "face",
                "up or down (the step decides; checked if given)",
                required=False,
                suggest=lambda s, seat, o: [Choice("face down", "down"), Choice("face up", "up")],
            ),
        ),
    ),
    Command(
        "head",
        "Assignments: assign your Delegation Head (or none)",
        _build_head,
        (Option("target", "an Objective or a nation's screen", required=False, suggest=_heads),),
    ),
    Command(
        "plot",
        "Plot: spend Receptions against an opposing face-down Delegate",
        _build_plot,
        (
            Option("nation", "whose Delegate", suggest=_plot_nations),
            Option("objective", "where", suggest=_plot_objectives),
            Option("receptions", "1 to 4", "int", suggest=_plot_receptions, min_value=1, max_value=4),
            Option(
                "index",
                "which of their face-down Delegates there, in placement order",
                "int",
                required=False,
                min_value=1,
            ),
        ),
    ),
    Command("pass", "Plot or Treaty: decline", lambda s, seat, o: A.Pass()),
    Command(
        "move",
        "Chancellery: move a face-up Delegate of the nation your head faces",
        _build_move,
        (
            Option("delegate", "the face-up Delegate", suggest=_move_pieces),
            Option(
                "to",
                "another Objective where they have Delegates (or none)",
                required=False,
                suggest=_move_to,
            ),
        ),
    ),
    Command(
        "minister",
        "Chancellery: assign your Foreign Minister (+2)",
        _build_minister,
        (Option("objective", "where you still have a Delegate", required=False, suggest=_ministers),),
    ),
    Command(
        "activate",
        "Activate a signed Treaty by revealing an Aid or with the Foreign Minister",
        _build_activate,
        (
            Option("treaty", "a signed Treaty", suggest=_activatable),
            Option("pay", "an Aid or the minister", suggest=_payments),
            Option("objective", "for a marker Treaty", required=False, suggest=_objectives),
            Option("targets", "for '-1' markers: NATION:OBJECTIVE, comma-separated", required=False),
        ),
    ),
    Command(
        "keep",
        "Recovery: keep Treaties, discarding one Aid each",
        _build_keep,
        (
            Option("treaties", "signed Treaties to keep", required=False, suggest=_signed),
            Option("aids", "Aids to discard", required=False, suggest=_aids),
        ),
    ),
    Command("screen", "Show what is behind your screen", lambda s, seat, o: None, private=True),
)

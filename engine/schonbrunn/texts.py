"""Schönbrunn's nations, Delegation Heads, Reparation cards and tables in words: for the
screen, the board, the player aid and `/game card` (docs/architecture.md §2)."""

from __future__ import annotations

from typing import Any

from engine.core import Entry, Layout, Panel

from .content import OBJECTIVES, Card, Nation, card, cards, nations, tables
from .state import SchonbrunnState

__all__ = ["card_text", "nation_text", "head_text", "entries", "layout", "TYPE_NAMES"]

TYPE_NAMES = {"indemnity": "Indemnity", "ally": "Ally", "aid": "Aid", "treaty": "Treaty"}
TIMINGS = {"assignments": "Assignments", "congress": "Congress", "end": "End of the game"}


def card_text(c: Card) -> str:
    """A Reparation card as printed: type, its text, and a Treaty's timing and priority."""
    kind = TYPE_NAMES[c.type]
    bits = [] if c.text.startswith(kind) else [f"{kind}."]
    if c.type == "treaty":
        bits.append(f"Activated in {TIMINGS.get(c.timing, c.timing)}, priority {c.priority}.")
    bits.append(c.text)
    if c.min_players > 3:
        bits.append(f"(In play with {c.min_players} or more players.)")
    return " ".join(bits)


def nation_text(n: Nation) -> str:
    values = ", ".join(str(v) for v in n.delegates)
    return (
        f"{n.name} ({n.colour}, in play with {n.min_players} or more players). Delegates: {values}; "
        f"assigns {n.face_down_first} face down first. Ability: {n.ability_text} "
        f"Delegation Head: {n.head}: {n.head_text}"
    )


def head_text(n: Nation) -> str:
    return f"{n.name}'s Delegation Head. {n.head_text}"


def entries() -> list[Entry]:
    out: list[Entry] = []
    for n in nations().values():
        out.append(Entry(name=n.name, kind="Nation", text=nation_text(n), provenance=n.provenance))
        out.append(
            Entry(
                name=f"{n.name} ability",
                kind="Nation ability",
                text=f"{n.name}: {n.ability_text}",
                provenance=n.provenance,
            )
        )
        out.append(Entry(name=n.head, kind="Delegation Head", text=head_text(n), provenance=n.provenance))
    for c in cards().values():
        out.append(Entry(name=c.name, kind=TYPE_NAMES[c.type], text=card_text(c), provenance=c.provenance))
    t = tables()
    rounds = t.rounds.values
    assert isinstance(rounds, dict)
    out.append(
        Entry(
            name="Rounds",
            kind="Table",
            text="Rounds played: " + ", ".join(f"{n} players {r}" for n, r in rounds.items()) + ".",
            provenance=t.rounds.provenance,
        )
    )
    thresholds = t.plot.thresholds or {}
    out.append(
        Entry(
            name="Plot thresholds",
            kind="Table",
            text="A Plot removes an opposing face-down Delegate of Influence up to: "
            + ", ".join(f"{r} Reception{'s' if r != '1' else ''} {v}" for r, v in thresholds.items())
            + ".",
            provenance=t.plot.provenance,
        )
    )
    favours = t.favours.values
    assert isinstance(favours, list)
    out.append(
        Entry(
            name="Political Favours",
            kind="Table",
            text=f"{len(favours)} Political Favour tokens, one per Objective ({', '.join(OBJECTIVES)}), "
            f"values {', '.join(map(str, favours))}, face down until the Master of Ceremonies reveals them.",
            provenance=t.favours.provenance,
        )
    )
    out.append(
        Entry(
            name="Receptions",
            kind="Table",
            text=f"Each nation starts with {t.receptions.start} Receptions.",
            provenance=t.receptions.provenance,
        )
    )
    out.append(
        Entry(
            name="Foreign Minister",
            kind="Table",
            text=f"The Foreign Minister adds +{t.minister.bonus} Influence in the Objective where he stands.",
            provenance=t.minister.provenance,
        )
    )
    out.append(
        Entry(
            name="Aid sets",
            kind="Table",
            text=f"End of the game: {t.aid_sets.different} Prestige for 3 Aids with different symbols; "
            f"{t.aid_sets.matching} Prestige for each Aid beyond the first with a matching symbol "
            "(Aids stacked under the Nation card do not count).",
            provenance=t.aid_sets.provenance,
        )
    )
    return out


ROUND = (
    "1. Hierarchy: commit a Delegate face down; the order of Influence is the Hierarchy; sign Treaties; "
    "spend Receptions for Prestige.",
    "2. Assignments: the Master of Ceremonies reveals a Political Favour; Delegates assigned face down, "
    "then Delegation Heads, then face up.",
    "3. Plot: spend Receptions to remove an opposing face-down Delegate.",
    "4. Chancellery: move a Delegate of the nation your head faces; assign the Foreign Minister.",
    "5. Congress: each Objective goes to the highest Influence (ties: reverse Hierarchy); Treaties activate.",
    "6. Recovery: keep Treaties by discarding an Aid each; Allies give markers.",
)


def aid(state: SchonbrunnState | None, seat: str | None) -> str:
    """The player aid: the round, the Plot thresholds, the Favour values and, at a table, the
    Favours revealed so far, the Objective piles' top cards with their texts, who holds the
    Master of Ceremonies token and where the Delegation Heads stand. All of it public."""
    t = tables()
    lines = ["**Schönbrunn, player aid**", "**A round**"]
    lines += [f"• {line}" for line in ROUND]
    thresholds = t.plot.thresholds or {}
    lines.append(
        "**Plot**: Receptions spent → highest Influence removed: "
        + ", ".join(f"{r} → {v}" for r, v in thresholds.items())
        + "."
    )
    favours = t.favours.values
    assert isinstance(favours, list)
    lines.append(f"**Political Favours**: {len(favours)} tokens, values {', '.join(map(str, favours))}.")
    lines.append(f"**Foreign Minister**: +{t.minister.bonus} Influence where he stands.")
    rounds = t.rounds.values
    assert isinstance(rounds, dict)
    lines.append("**Rounds**: " + ", ".join(f"{r} with {n} players" for n, r in rounds.items()) + ".")
    if state is None:
        return "\n".join(lines)
    s = state
    names = {seat_: (nations()[p.nation].name if p.nation else "a player") for seat_, p in s.players.items()}
    up = [f"{o} {s.favours[o]}" for o in s.objectives if o in s.favours_up and o in s.favours]
    lines.append("Favours revealed so far: " + (", ".join(up) if up else "none") + ".")
    if s.master in s.players:
        lines.append(f"**Master of Ceremonies**: {names[s.master]}.")
    heads = []
    for seat_, p in s.players.items():
        if p.nation and p.head:
            where = f"before {names[p.head]}'s screen" if p.head in s.players else f"at Objective {p.head}"
            heads.append(f"{nations()[p.nation].head} ({names[seat_]}) {where}")
    lines.append("**Delegation Heads**: " + ("; ".join(heads) if heads else "none assigned") + ".")
    lines.append("**Objective piles**")
    for o in [*s.objectives, "PoB"]:
        pile = s.piles.get(o, [])
        label = "Balance of Power" if o == "PoB" else f"Objective {o}"
        if pile and s.tops_revealed:
            top = card(pile[0])
            lines.append(f"• {label} ({len(pile)} cards): **{top.name}**: {card_text(top)}")
        else:
            lines.append(f"• {label}: {len(pile)} cards, the top not yet revealed.")
    return "\n".join(lines)


def layout(view: dict[str, Any]) -> Layout:
    """The public view for a phone's status card (engine/core/layout.py): the round and phase,
    the Master of Ceremonies, then one panel per nation in Hierarchy order with its Prestige,
    Ally markers, the Delegates in its supply, its Hierarchy Delegate once revealed and its
    signed Treaties. Each Objective's Delegates are in `describe` and the picture."""
    if view["round"]:
        title = f"Schönbrunn · Round {view['round']} of {view['rounds']} · {view['phase']}"
    else:  # the auction variant's bidding for the Nations comes before Round 1
        title = f"Schönbrunn · {view['phase']}, before Round 1 of {view['rounds']}"
    if view["simplified"]:
        title += " · simplified"
    lines = [f"Master of Ceremonies: {view['master']}"] if view["hierarchy"] else []
    players = list(view["players"].items())
    rank = {n: i for i, n in enumerate(view["hierarchy"])}
    players.sort(key=lambda item: rank.get(item[1]["nation"], len(rank)))
    panels = []
    for i, (seat, p) in enumerate(players, 1):
        final = view["final"].get(p["nation"])
        score = f"**{final} Prestige** (final)" if final is not None else f"**{p['prestige']} Prestige**"
        first = [score]
        if "receptions" in p:
            first.append(f"{p['receptions']} Reception{'' if p['receptions'] == 1 else 's'}")
        if p["ally_markers"]:
            first.append("Allies " + " + ".join(map(str, p["ally_markers"])))
        second = [f"{p['supply']} Delegate{'' if p['supply'] == 1 else 's'} in supply"]
        if p["committed"] is not None:
            second.append(f"Hierarchy Delegate: {p['committed']}")
        rows = [" · ".join(first), " · ".join(second)]
        if p["signed"]:
            rows.append("Signed: " + ", ".join(p["signed"]))
        name = f"{i}. {p['nation']}" if view["hierarchy"] else p["nation"]
        panels.append(Panel(name=name, lines=rows, seat=seat))
    name = f"Round {view['round']}" if view["round"] else "The auction for the Nations"
    return Layout(title=title, round=name, lines=lines, panels=panels)

"""Schönbrunn's nations, Delegation Heads, Reparation cards and tables in words: for the
screen, the board, the player aid and `/game card` (docs/architecture.md §2)."""

from __future__ import annotations

from engine.core import Entry

from .content import OBJECTIVES, Card, Nation, cards, nations, tables

__all__ = ["card_text", "nation_text", "head_text", "entries", "TYPE_NAMES"]

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

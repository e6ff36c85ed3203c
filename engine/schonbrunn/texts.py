"""Schönbrunn's nations, Delegation Heads, Reparation cards and tables in words: for the
screen, the board, the player aid and `/game card` (docs/architecture.md §2); what each
stage asks of the seat that owes it, the past tense of the turn buttons, where the final
Prestige came from, and how a round goes (`HOW_TO`, for `/game help`)."""

from __future__ import annotations

from functools import cache

from engine.core import Entry
from engine.core.words import counted

from .content import OBJECTIVES, Card, Nation, card, cards, nations, tables
from .pieces import name, prestige_breakdown
from .state import SchonbrunnState

__all__ = [
    "HOW_TO",
    "PAST",
    "STAGE_TEXT",
    "TYPE_NAMES",
    "assign_words",
    "card_text",
    "entries",
    "head_text",
    "nation_text",
    "outcome_detail",
    "tiebreak_text",
]

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
    """Everything `/game card` can show for Schönbrunn: Nations, Reparations, Objectives,
    tables and the Setup piles (long because it lists each kind in turn)."""
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
            text=f"Each nation starts with {t.receptions.start} Receptions"
            + "".join(
                f", {n.name} {t.receptions.start + n.extra_receptions}" for n in nations().values() if n.extra_receptions
            )
            + ".",
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
        pile = s.piles.get(o, ())
        label = "Principle of Balance" if o == "PoB" else f"Objective {o}"
        if pile and s.tops_revealed:
            top = card(pile[0])
            lines.append(f"• {label} ({counted(len(pile), 'card')}): **{top.name}**: {card_text(top)}")
        else:
            lines.append(f"• {label}: {counted(len(pile), 'card')}, the top not yet revealed.")
    return "\n".join(lines)


# What each stage asks of the seat that owes it (the prompts, views.py).
STAGE_TEXT = {
    "bid": "Auction: hide Receptions in hand (at least 1) with `/schonbrunn bid`.",
    "choose": "Auction: choose your Nation with `/schonbrunn choose`.",
    "commit": "Hierarchy: commit one Delegate face down with `/schonbrunn commit`.",
    "tiebreak": "Hierarchy: order the tied nations with `/schonbrunn tiebreak`.",
    "sign": "Hierarchy: sign any Treaties with `/schonbrunn sign` (or sign none).",
    "receptions": "Hierarchy: spend Receptions for Prestige with `/schonbrunn receptions`, up to your Delegate's Influence.",
    "favour": "Assignments: reveal one face-down Political Favour with `/schonbrunn favour`.",
    "plot": "Plot: spend 1-4 Receptions against a face-down Delegate with `/schonbrunn plot`, or `/schonbrunn pass`.",
    "move": "Chancellery: move a face-up Delegate of the nation your Delegation Head faces with `/schonbrunn move`.",
    "minister": "Chancellery: assign your Foreign Minister with `/schonbrunn minister` (or keep it).",
    "activate": "Congress: activate your Treaty with `/schonbrunn activate`, or `/schonbrunn pass`.",
    "keep": "Recovery: keep Treaties by discarding one Aid each with `/schonbrunn keep`.",
}


def tiebreak_text(state: SchonbrunnState, seat: str) -> str:
    """Which nations are tied, at what Influence, and why this player orders them (§Hierarchy)."""
    group = next(g for g in state.tie_groups if len(g) > 1)
    tied = " and ".join(name(state, s) for s in group)
    value = state.players[group[0]].committed
    if state.players[seat].nation and seat in group and seat != state.master:
        why = "Austria's ability: it breaks every Hierarchy tie it is part of"
    else:
        why = "you hold the Master of Ceremonies token"
    return (
        f"Hierarchy: {tied} are tied with Influence {value}. You order them ({why}): "
        "`/schonbrunn tiebreak order:` the tied nations, best position first."
    )


@cache
def assign_words(step: str, left: int) -> str:
    """Made once for each step and count: half of all prompts are Assignments."""
    if step == "head":
        return "Assignments: assign your Delegation Head with `/schonbrunn head` (an Objective for 1 Reception, or a nation's screen), or keep it."
    face = {"down": "face down", "up": "face up", "last": "face down (your last)"}[step]
    return f"Assignments: assign {counted(left, 'more Delegate', 'more Delegates')} {face} with `/schonbrunn assign`."


# The verbs of the turn buttons (legal.label) in the past tense, for confirmations.
PAST = {
    "Bid": "bid", "Take": "took", "Commit": "committed", "Sign": "signed", "Spend": "spent",
    "Reveal": "revealed", "Assign": "assigned", "Keep": "kept", "Plot": "plotted", "Remove": "removed",
    "Move": "moved", "Activate": "activated", "Pass": "passed",
}  # fmt: skip


def outcome_detail(state: SchonbrunnState, seat: str) -> str:
    """Where the Prestige came from, and the tie-break where it decided the rank (End of the Game)."""
    text = prestige_breakdown(state, seat)
    tied = [s for s in state.seats if s != seat and state.players[s].prestige == state.players[seat].prestige]
    if tied:
        text += " (tie broken by the last Hierarchy: the later position ranks higher)"
    return text


# How a turn of the game goes here, step by step, with the commands that play it: what
# `/game help game:schonbrunn` shows above the list of every command (the Game's `how_to`).
HOW_TO = (
    "**Schönbrunn: a round, phase by phase** (4 or 5 rounds; most Prestige wins)\n"
    "• Auction (with `auction=yes`): `/schonbrunn bid receptions:3` secretly, then `/schonbrunn choose nation:Austria`.\n"
    "• Phase 1, Hierarchy: `/schonbrunn commit delegate:4` secretly; a tie is ordered with "
    "`/schonbrunn tiebreak order:…`; then `/schonbrunn sign treaties:Treaty of Kalisz` (or `none`) "
    "and `/schonbrunn receptions amount:2` for Prestige.\n"
    "• Phase 2, Assignments: the Master of Ceremonies reveals a Favour, `/schonbrunn favour objective:II`; "
    "`/schonbrunn assign delegate:3 objective:II` (`face:up` or `down` when asked); "
    "`/schonbrunn head target:III` (an Objective or a nation's screen).\n"
    "• Phase 3, Plot: `/schonbrunn plot nation:France objective:III receptions:2`, or `/schonbrunn pass`.\n"
    "• Phase 4, Chancellery: `/schonbrunn move delegate:2 to:IIII` (the nation your head faces), "
    "`/schonbrunn minister objective:II`.\n"
    "• Phase 5, Congress: the bot reveals and awards each Objective; signed Treaties: "
    "`/schonbrunn activate treaty:… pay:…`.\n"
    "• Phase 6, Recovery: `/schonbrunn keep treaties:… aids:…`.\n"
    "`/schonbrunn screen` shows what is behind your screen, each card with its text."
)

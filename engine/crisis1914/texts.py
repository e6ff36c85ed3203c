"""Crisis: 1914's cards, player boards and tables in words, as the printed pieces show them:
for a player's Hand, the turn menus, the player aid and `/game card` (docs/architecture.md §2)."""

from __future__ import annotations

from typing import Any

from engine.core import Entry, Provenance

from . import content as ct
from .state import CrisisState

__all__ = [
    "card_text",
    "card_summary",
    "effect_text",
    "board_text",
    "entries",
    "PRESTIGE_TABLE",
    "TYPE_RULES",
    "PHASE_NAMES",
    "week_words",
    "alternative_short",
    "HOW_TO",
]

# The Week's steps as the rulebook names them, for the status line.
PHASE_NAMES = {
    "first_draw": "First Draw Step",
    "play": "Play Step",
    "score": "Score Step",
    "congress_invite": "Congress Step: the invitation",
    "congress_answer": "Congress Step: attend or refuse",
    "end_check": "End of the Week",
    "refresh": "Refresh Step",
    "over": "game over",
}


def week_words(week: int, round: int, phase: str) -> str:
    """Where the game is, as the rulebook counts it: Rounds are counted in the Play Step only
    (`Week 1 of 6, Round 3 (Play Step)`), any other step is named alone (`Week 1 of 6,
    Congress Step: the invitation`)."""
    step = PHASE_NAMES.get(phase, "")
    if phase == "play":
        return f"Week {week} of 6, Round {round} ({step})"
    return f"Week {week} of 6, {step}" if step else f"Week {week} of 6"

# What each card type does on a Tableau (rules: Cards).
TYPE_RULES = {
    "assertion": "4 or more Assertions on your Tableau double your Prestige at the Score Step",
    "consensus": "each pair of Consensus cards on your Tableau lets you play 1 card over the limit of 7",
    "national_interests": "lets you play 1 card over the limit of 7",
    "caution": "",
    "back_channel": "",
    "other": "",
}

# The Score Step's Prestige awards (rules: 3. Score Step, Scoring Prestige).
PRESTIGE_TABLE = (
    "+1 Prestige: highest on the Initiative Track (with 14+ DP)",
    "+3 Prestige: most DP on the Score Track (with 14+ DP)",
    "+2 Prestige: second most DP (with 14+ DP; 3-5 players only)",
    "+1 Prestige: neither most nor second most DP but 14+ DP (with 2 players: second with 14+ DP)",
    "+1 Prestige: most DP and at least 1 Belligerence action this Week",
    "-1 Prestige: at least 1 Belligerence action this Week but not the most DP (before doubling)",
    "x2 Prestige: 4 or more Assertions on your Tableau",
    "-1 Tension: 13 DP or fewer, on one Tension die of your City Box (not below your Belligerence)",
    "Ties in DP go to the higher on the Initiative Track; with two Score markers the higher counts for Prestige, the lower for Tension.",
)
PRESTIGE_SOURCE = "Crisis: 1914 rulebook, 3. Score Step, Scoring Prestige"


def _counter(name: str) -> str:
    return name.replace("_", " ").capitalize()


def effect_text(e: ct.Effect) -> str:
    """One effect as the card would print it."""
    cards = ct.load_content().cards
    match e.kind:
        case "back_channel":
            when = f" (from Week {e.from_week})" if e.from_week > 1 else ""
            return (
                f"Diplomatic Back-Channel{when}: your second Score marker goes 1 DP ahead of the first, "
                "or 1 DP further up if it is already on the track"
            )
        case "draw":
            n = "the top card" if e.count == 1 else f"the top {e.count} cards"
            return f"take {n} of your Draw Pile into your Hand"
        case "reclaim_assertion":
            return "take an Assertion card on your Tableau back into your Hand (your DP drops by its value)"
        case "reduce_tension":
            return f"reduce Tension by {e.amount} in one box of your City Box (never below your Belligerence)"
        case "discard":
            n = "1 card" if e.count == 1 else f"{e.count} cards"
            if e.who == "target":
                return f"the player of your Target Nation discards {n} from their Hand"
            return f"discard {n} from your Hand"
        case "advance_counter":
            return f"move your {_counter(e.counter)} marker up {e.by}"
        case "prestige":
            return f"gain {e.amount} Prestige at once (never doubled at the Score Step)"
        case "bring_in":
            name = cards[e.card].name if e.card in cards else e.card
            return f"{name} enters your Draw Pile (shuffled in)"
        case "mobilize":
            return "General Mobilization: you lose, and the game ends with this Week"
    return e.kind  # pragma: no cover - every kind is matched above


def _dp(c: ct.Card, dp: int | None) -> str:
    if c.dp_by_week is not None:
        weeks = "/".join(str(v) for v in c.dp_by_week)
        now = f"{dp} DP now; " if dp is not None else ""
        return f"{now}DP by Week 1-6: {weeks}"
    if c.dp_counter is not None:
        now = f"{dp} DP now; " if dp is not None else ""
        return f"{now}DP equal to your {_counter(c.dp_counter)} marker"
    return f"{c.dp if dp is None else dp} DP"


def _discard(c: ct.Card) -> str:
    pile = {"recycled": "Recycled", "return": "Return", "permanent": "Permanent"}[c.discard]
    if c.permanent_if == "played":
        return f"Discard: Permanent once played to a Tableau, otherwise {pile}."
    if c.permanent_if == "belligerence":
        return f"Discard: Permanent if played with Belligerence, otherwise {pile}."
    return f"Discard: {pile}."


def card_text(c: ct.Card, dp: int | None = None) -> str:
    """Everything the card says: DP, type, effects top-down, the alternative, Momentum,
    forced Belligerence, discard pile and when its Permanent icon applies. `dp` is the
    card's DP now (some change with the Week or a player-board marker)."""
    nation = ct.load_content().nations[c.nation].name if c.nation else ""
    rule = TYPE_RULES[c.type]
    parts = [f"{_dp(c, dp)}, {ct.TYPE_NAMES[c.type]}" + (f" ({rule})" if rule else "") + "."]
    if c.text:
        parts.append(f"{c.text}.")
    if c.effects:
        parts.append("When played: " + "; then ".join(effect_text(e) for e in c.effects) + ".")
    if c.alternative is not None:
        alt = "; then ".join(effect_text(e) for e in c.alternative) or "nothing"
        parts.append(f"Or instead: {alt}.")
    if c.momentum:
        parts.append(
            "Momentum: with 3 or more Momentum cards on your Tableau, your opposing nations may not "
            "Deliberate or Reorganize for the rest of the Week."
        )
    if c.forced_belligerence:
        parts.append("Always played with Belligerence.")
    parts.append(_discard(c))
    if nation:
        parts.append(f"{nation}'s deck.")
    return " ".join(parts)


def _short(e: ct.Effect) -> str:
    cards = ct.load_content().cards
    match e.kind:
        case "back_channel":
            return "Back-Channel" + (f" from Week {e.from_week}" if e.from_week > 1 else "")
        case "draw":
            return f"draw {e.count}"
        case "reclaim_assertion":
            return "reclaim an Assertion"
        case "reduce_tension":
            return f"-{e.amount} Tension"
        case "discard":
            return f"Target discards {e.count}" if e.who == "target" else f"discard {e.count}"
        case "advance_counter":
            return f"{_counter(e.counter)} +{e.by}"
        case "prestige":
            return f"+{e.amount} Prestige"
        case "bring_in":
            return f"brings in {cards[e.card].name if e.card in cards else e.card}"
        case "mobilize":
            return "General Mobilization: you lose"
    return e.kind  # pragma: no cover


def alternative_short(c: ct.Card) -> str:
    """What the card's alternative effect does, in a few words (`reclaim an Assertion`)."""
    return ", ".join(_short(e) for e in c.alternative or []) or "nothing"


def card_summary(c: ct.Card, dp: int | None = None) -> str:
    """The card in a few words, for a menu line of 100 characters: DP, type, effects,
    the alternative, Momentum, forced Belligerence and where it is discarded."""
    bits = [f"{c.dp if dp is None else dp} DP {ct.TYPE_NAMES[c.type]}"]
    bits += [_short(e) for e in c.effects]
    if c.alternative is not None:
        bits.append("or " + alternative_short(c))
    if c.momentum:
        bits.append("Momentum")
    if c.forced_belligerence:
        bits.append("always Belligerence")
    pile = {"recycled": "Recycled", "return": "Return", "permanent": "Permanent"}[c.discard]
    if c.permanent_if == "played":
        pile = "Permanent once played"
    elif c.permanent_if == "belligerence":
        pile = f"Permanent with Belligerence, else {pile}"
    bits.append(pile)
    return " · ".join(bits)


def _condition(cond: ct.Condition) -> str:
    cards = ct.load_content().cards
    match cond.kind:
        case "in_permanent":
            return " and ".join(cards[x].name for x in cond.cards) + " are in your Permanent Discards"
        case "belligerence_at_least":
            return f"your Belligerence is {cond.level} or more"
        case "week_at_least":
            return f"it is Week {cond.week} or later"
        case "tension_at_least":
            return f"a Tension die in your City Box shows {cond.level} or more"
    return cond.kind  # pragma: no cover


def choice_group(action: Any) -> str:
    """A turn choice's group in long menus: "Play with Belligerence", "Seize the Initiative";
    "" where the label's first word says it (Draw, Pass, Discard)."""
    verb = {"play": "Play", "deliberate": "Deliberate", "reorganize": "Reorganize"}.get(action.kind, "")
    if action.kind == "resolve":
        verb = "Place" if action.card is None else "Choose"
    if action.kind in ("play", "resolve"):
        ways = (("Belligerence", action.belligerence), ("the alternative effect", action.alternative))
        how = [words for words, chosen in ways if chosen]
        return f"{verb} with {' and '.join(how)}" if how else verb
    return {"seize": "Seize the Initiative", "reorder": "Reorder"}.get(action.kind, verb)


def board_text(n: ct.Nation) -> str:
    """A player board: City Box, cards set aside and when they enter, its tracks."""
    content = ct.load_content()
    boxes = [content.nations[b].name for b in n.boxes]
    city = f"{n.city} City Box: Tension boxes {', '.join(boxes)} ({boxes[0]} is the Target Nation)."
    parts = [city]
    for aside in n.set_aside:
        when = " and ".join(_condition(c) for c in aside.enters_when) or "never"
        solo = " (solitaire only)" if aside.solo_only else ""
        parts.append(
            f"Set aside at setup{solo}: {content.cards[aside.card].name}; it enters your Draw Pile at a "
            f"Refresh Step once {when}."
        )
    for name, counter in n.counters.items():
        parts.append(f"{_counter(name)} track: starts at {counter.start}, up to {counter.max}.")
    if not n.counters:
        parts.append("No tracks.")
    return " ".join(parts)


def entries() -> list[Entry]:
    content = ct.load_content()
    out = [
        Entry(name=c.name, kind=f"{ct.TYPE_NAMES[c.type]} card", text=card_text(c), provenance=c.provenance)
        for c in content.cards.values()
    ]
    out += [
        Entry(
            name=f"{n.statesman}'s player board",
            kind=f"Player board ({n.name})",
            text=board_text(n),
            provenance=n.provenance,
        )
        for n in content.board.nations
    ]
    out += [
        Entry(
            name=f"Score Track {s.space}",
            kind="Score Track space",
            text=f"A lowest Score marker on {s.space} DP at the Score Step adds {s.tension} Tension to your Target Nation's box.",
            provenance=s.provenance,
        )
        for s in sorted(content.board.score_track, key=lambda s: s.space)
    ]
    out.append(
        Entry(
            name="Prestige table",
            kind="Score Step",
            text="\n".join(PRESTIGE_TABLE),
            provenance=Provenance(kind="rulebook", source=PRESTIGE_SOURCE),
        )
    )
    return out


def _track_bands(tension_at: list[int]) -> str:
    """The Score Track's "+" numbers as bands: "0-17 DP none, 18-21 DP +1, …"."""
    bands: list[tuple[int, int, int]] = []
    for space, t in enumerate(tension_at):
        if bands and bands[-1][2] == t:
            bands[-1] = (bands[-1][0], space, t)
        else:
            bands.append((space, space, t))
    added = {t: f"+{t}" if t else "none" for _, _, t in bands}
    return ", ".join(f"{a}-{b} DP {added[t]}" if a != b else f"{a} DP {added[t]}" for a, b, t in bands)


def aid(state: CrisisState | None, seat: str | None) -> str:
    """The player aid: the Score Track's Tension, the Target Nation, the player board and the
    Prestige table. With a table and a seat, the Tension that seat's DP would add now (the
    Score Track is public) and its own board first."""
    content = ct.load_content()
    lines = ["**Crisis: 1914, player aid**"]
    last = len(content.tension_at) - 1
    lines.append(
        f"Score Track, Tension added to your Target Nation at the Score Step by your lowest Score marker: "
        f"{_track_bands(content.tension_at)} (the track ends at {last})."
    )
    me = state.player_of(seat) if state is not None and seat is not None else None
    if me is not None:
        n = content.nations[me.nation]
        target = content.nations[n.boxes[0]].name
        adds = content.tension_at[min(me.score, last)]
        lines.append(
            f"You ({n.statesman}): Target Nation {target}, the top box of {n.city}. Your lowest Score marker "
            f"is on {me.score} DP: as it stands it adds {adds} Tension to {target}"
            + (" (13 DP or fewer: you may also lower one Tension die by 1)." if me.score <= 13 else ".")
        )
    lines.append("**Prestige table** (Score Step)")
    lines += [f"• {line}" for line in PRESTIGE_TABLE]
    lines.append("**Player boards**")
    nations = list(content.board.nations)
    if me is not None:
        nations.sort(key=lambda n: n.id != me.nation)
    in_play = set(state.players) if state is not None else None
    for n in nations:
        if in_play is None or n.id in in_play:
            lines.append(f"• {n.statesman}'s player board ({n.name}): {board_text(n)}")
    return "\n".join(lines)


# How a turn of the game goes here, step by step, with the commands that play it: what
# `/game help game:crisis1914` shows above the list of every command (the Game's `how_to`).
HOW_TO = (
    "**Crisis: 1914: a Week, step by step** (6 Weeks; Prestige wins, 6 Tension is war)\n"
    "• First Draw Step: the top card of each Draw Pile goes to its Tableau. When the bot asks, "
    "`/crisis place` (add `belligerence:yes` or `alternative:yes`).\n"
    "• Play Step, in Initiative order, one action a turn:\n"
    "  `/crisis play card:Conrad` (options `belligerence:yes`, `alternative:yes`, `box:`, `reclaim:`) plays from your Hand;\n"
    "  `/crisis draw` plays the top of your Draw Pile (then `/crisis place`);\n"
    "  `/crisis deliberate discard:Tisza` draws 3, then `/crisis choose card:…` plays one (once a Week);\n"
    "  `/crisis reorganize discard:Tisza` shows the top 3, then `/crisis reorder first:… second:… third:…`;\n"
    "  `/crisis seize first:… second:… third:…` discards 3 to Seize the Initiative;\n"
    "  `/crisis pass` plays no more cards this Week. `/crisis discard card:…` when a card makes you discard.\n"
    "• Score Step (the bot): Prestige and Tension from the Score Track (`/game help aid:True` shows both).\n"
    "• Congress Step (unless `congress=no`): the last on the Initiative Track may invite, "
    "`/crisis congress answer:invite` (or `answer:no`); then each answers `answer:attend` or `answer:refuse`.\n"
    "• Refresh Step, secretly and all at once: `/crisis refresh discards:Conrad, Tisza` (or `none`), "
    "keeping at most 6 cards.\n"
    "`/crisis hand` shows your Hand with every card's text."
)

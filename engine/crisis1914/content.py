"""The content of Crisis: 1914 as data: cards, their effects, player boards, the Score Track.

A card's effects are a small vocabulary (a discriminated union on `kind`), so a group with
the printed cards can type their deck into TOML without touching code.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from engine.core import ContentError, Model, Sourced, load_toml
from engine.core import content as core_content
from engine.core.content import content_path

GAME_ID = "crisis1914"

CardType = Literal["assertion", "consensus", "national_interests", "caution", "back_channel", "other"]
Pile = Literal["permanent", "recycled", "return"]

TYPE_NAMES: dict[str, str] = {
    "assertion": "Assertion",
    "consensus": "Consensus",
    "national_interests": "National Interests",
    "caution": "Caution",
    "back_channel": "Diplomatic Back-Channel",
    "other": "Other",
}


# -- effects, carried out top-down when the card is played to a Tableau ----------------------
class BackChannel(Model):
    """Second Score marker 1 DP ahead of the first, or the second marker 1 DP further up."""

    kind: Literal["back_channel"] = "back_channel"
    from_week: int = 1  # some cards change with the calendar (Stürgkh)


class DrawToHand(Model):
    kind: Literal["draw"] = "draw"
    count: int = 1


class ReclaimAssertion(Model):
    """Take an Assertion card already on your Tableau into your Hand (DP drops by its value)."""

    kind: Literal["reclaim_assertion"] = "reclaim_assertion"


class ReduceTension(Model):
    """Lower one Tension box of your own City Box, never below its Belligerence level."""

    kind: Literal["reduce_tension"] = "reduce_tension"
    amount: int = 1


class DiscardFromHand(Model):
    """`self`: you discard; `target`: the player of your Target Nation discards."""

    kind: Literal["discard"] = "discard"
    count: int = 1
    who: Literal["self", "target"] = "self"


class AdvanceCounter(Model):
    """Move a marker on your player board (the card's DP may read from it)."""

    kind: Literal["advance_counter"] = "advance_counter"
    counter: str
    by: int = 1


class ImmediatePrestige(Model):
    """Prestige awarded at once, never doubled at the Score Step."""

    kind: Literal["prestige"] = "prestige"
    amount: int


class BringIn(Model):
    """A card set aside on your player board enters your Draw Pile (shuffled in)."""

    kind: Literal["bring_in"] = "bring_in"
    card: str


class Mobilize(Model):
    """General Mobilization: you lose; the game ends with this Week."""

    kind: Literal["mobilize"] = "mobilize"


Effect = Annotated[
    BackChannel
    | DrawToHand
    | ReclaimAssertion
    | ReduceTension
    | DiscardFromHand
    | AdvanceCounter
    | ImmediatePrestige
    | BringIn
    | Mobilize,
    Field(discriminator="kind"),
]


class Card(Sourced):
    id: str
    name: str
    nation: str = ""  # filled from the deck
    type: CardType = "other"
    dp: int = 0
    dp_by_week: list[int] | None = None  # six values, Week 1..6
    dp_counter: str | None = None  # DP read from a player-board counter
    momentum: bool = False
    forced_belligerence: bool = False  # Ultimatum, Maskirovka
    effects: list[Effect] = Field(default_factory=list)
    alternative: list[Effect] | None = None  # "or" effects, chosen when played
    discard: Pile = "recycled"
    permanent_if: Literal["played", "belligerence"] | None = None  # the second icon's condition
    text: str = ""


# -- conditions on player boards --------------------------------------------------------------
class InPermanent(Model):
    kind: Literal["in_permanent"] = "in_permanent"
    cards: list[str]


class BelligerenceAtLeast(Model):
    kind: Literal["belligerence_at_least"] = "belligerence_at_least"
    level: int


class WeekAtLeast(Model):
    kind: Literal["week_at_least"] = "week_at_least"
    week: int


class TensionAtLeast(Model):
    """The highest Tension die in your own City Box."""

    kind: Literal["tension_at_least"] = "tension_at_least"
    level: int


Condition = Annotated[
    InPermanent | BelligerenceAtLeast | WeekAtLeast | TensionAtLeast, Field(discriminator="kind")
]


class SetAside(Model):
    """A card removed at setup; it enters the Draw Pile at a Refresh Step once all hold."""

    card: str
    enters_when: list[Condition] = Field(default_factory=list)
    solo_only: bool = False


class Counter(Model):
    start: int
    max: int


class Deck(Sourced):
    nation: str
    cards: list[Card]


class Nation(Sourced):
    id: str  # AH, RU, DE, FR, GB
    name: str
    statesman: str
    city: str
    color: str
    boxes: list[str]  # Tension boxes in the City Box, top (the Target Nation) first
    set_aside: list[SetAside] = Field(default_factory=list)
    counters: dict[str, Counter] = Field(default_factory=dict)
    board_text: str = ""


class ScoreSpace(Sourced):
    space: int
    tension: int


class Board(Model):
    nations: list[Nation]
    score_track: list[ScoreSpace]
    opposing: dict[str, list[str]]


class Content(Model):
    board: Board
    decks: dict[str, Deck]
    cards: dict[str, Card]  # every card by id, across the decks
    nations: dict[str, Nation]
    tension_at: list[int]  # Score Track space -> its small "+" Tension number
    deck_ids: dict[str, frozenset[str]]  # for the every-step deck check
    mobilization: frozenset[str]  # the General Mobilization cards


DECK_FILES = {
    "AH": "austria-hungary.toml",
    "RU": "russia.toml",
    "DE": "germany.toml",
    "FR": "france.toml",
    "GB": "britain.toml",
}


_loaded: tuple[object, Content] | None = None


def load_content() -> Content:
    """The content in use; a group's own files (content_dir) replace the built-in ones.

    Called on every card look-up, so it only rebuilds when `set_content_dir` has changed
    the folder."""
    global _loaded
    folder = core_content.content_dir()
    if _loaded is None or _loaded[0] != folder:
        paths = tuple(str(content_path(GAME_ID, name)) for name in ("board.toml", *DECK_FILES.values()))
        _loaded = (folder, _load(paths))
    return _loaded[1]


def _check_references(
    board: Board, decks: dict[str, Deck], cards: dict[str, Card], paths: dict[str, str]
) -> None:
    """Every name one entry gives another exists: counters on the nation's own board,
    cards in some deck, nations on the board. The error names file, entry and field."""
    nations = {n.id: n for n in board.nations}
    board_file = paths["board.toml"]
    for nid in DECK_FILES:
        if nid not in nations:
            raise ContentError(f"{board_file}: nations: no entry for {nid}, whose deck is {DECK_FILES[nid]}")
    for n, nation in enumerate(board.nations):
        for b, box in enumerate(nation.boxes):
            if box not in nations:
                raise ContentError(f"{board_file}: nations.{n} ({nation.id}).boxes.{b}: no nation {box!r}")
        for a, aside in enumerate(nation.set_aside):
            for c, cond in enumerate(aside.enters_when):
                for ref in getattr(cond, "cards", ()):
                    if ref not in cards:
                        raise ContentError(
                            f"{board_file}: nations.{n} ({nation.id}).set_aside.{a}.enters_when.{c}.cards: "
                            f"no card {ref!r}"
                        )
    for key, opposed in board.opposing.items():
        for ref in (key, *opposed):
            if ref not in nations:
                raise ContentError(f"{board_file}: opposing.{key}: no nation {ref!r}")
    for nid, deck in decks.items():
        counters = nations[nid].counters
        for i, card in enumerate(deck.cards):
            where = f"{paths[nid]}: cards.{i} ({card.id})"
            if card.dp_counter is not None and card.dp_counter not in counters:
                raise ContentError(
                    f"{where}.dp_counter: {nid} has no counter {card.dp_counter!r} "
                    f"(its counters: {', '.join(counters) or 'none'})"
                )
            for field, effects in (("effects", card.effects), ("alternative", card.alternative or [])):
                for e, effect in enumerate(effects):
                    counter = getattr(effect, "counter", None)
                    if counter is not None and counter not in counters:
                        raise ContentError(
                            f"{where}.{field}.{e}.counter: {nid} has no counter {counter!r} "
                            f"(its counters: {', '.join(counters) or 'none'})"
                        )
                    ref = getattr(effect, "card", None)
                    if isinstance(ref, str) and ref not in cards:
                        raise ContentError(f"{where}.{field}.{e}.card: no card {ref!r} in any deck")


def _load(paths: tuple[str, ...]) -> Content:
    board = load_toml(GAME_ID, "board.toml", Board)
    decks: dict[str, Deck] = {}
    for nid, name in DECK_FILES.items():
        deck = load_toml(GAME_ID, name, Deck)
        for card in deck.cards:
            card.nation = nid
        decks[nid] = deck
    cards = {c.id: c for d in decks.values() for c in d.cards}
    for c in cards.values():
        if (
            c.type == "back_channel"
            and c.alternative is None
            and any(e.kind == "back_channel" for e in c.effects)
        ):
            # the type's second paragraph, laid out as the Caution type's: "Take an Assertion
            # card already in your Tableau into your Hand" instead of the second marker
            c.alternative = [ReclaimAssertion() if e.kind == "back_channel" else e for e in c.effects]
    track = sorted(board.score_track, key=lambda s: s.space)
    if [s.space for s in track] != list(range(len(track))):
        raise ContentError(f"{paths[0]}: score_track must list every space from 0 up, once each")
    for nation in board.nations:
        for aside in nation.set_aside:
            if aside.card not in {c.id for c in decks[nation.id].cards}:
                raise ContentError(
                    f"{paths[0]}: {nation.id} sets aside {aside.card!r}, not a card of its deck"
                )
    _check_references(board, decks, cards, dict(zip(("board.toml", *DECK_FILES), paths, strict=True)))
    return Content(
        board=board,
        decks=decks,
        cards=cards,
        nations={n.id: n for n in board.nations},
        tension_at=[s.tension for s in track],
        deck_ids={nid: frozenset(c.id for c in d.cards) for nid, d in decks.items()},
        mobilization=frozenset(c.id for c in cards.values() if any(e.kind == "mobilize" for e in c.effects)),
    )

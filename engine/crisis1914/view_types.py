"""The view of Crisis: 1914 as typed records (docs/architecture.md §2): what a seat or the
public may know, read by attribute by the status texts (views.py), the pictures and the
replay page. The plain JSON an export keeps, key for key in the order of the fields, and
reading it back are derived from the fields (engine/core/plain.py, through
`Game.view_dict` and `view_from_dict`).

Frozen, and sequences are tuples: a view is a value, compared with `==` (the replay page
draws a picture again only when its view changed). Mappings stay dicts in the order the
game keeps them (the statesmen in setup order), typed read-only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .content import CardType
from .state import PendingKind, Phase

__all__ = ["CardView", "CrisisView", "PendingView", "PlayedView", "StatesmanView", "YourView"]


@dataclass(frozen=True, slots=True)
class PlayedView:
    """A card on a Tableau, face up for everyone."""

    card: str  # the card's id
    name: str
    dp: int  # the DP it counts (doubled when played with Belligerence)
    type: CardType
    belligerence: bool  # played with Belligerence


@dataclass(frozen=True, slots=True)
class CardView:
    """One of the seat's own cards (Hand, known top of the Draw Pile, looked at), with
    its DP for that statesman now and its full text."""

    card: str  # the card's id
    name: str
    dp: int
    type: CardType
    text: str  # everything the card says (texts.card_text)


@dataclass(frozen=True, slots=True)
class StatesmanView:
    """One nation's player board and Tableau as everyone sees them: counts of the hidden
    piles, never their cards."""

    seat: str
    statesman: str  # "Berchtold"
    nation: str  # the nation's name, "Austria-Hungary"
    city: str  # the City Box's name, "Vienna"
    tableau: tuple[PlayedView, ...]  # in the order played
    score: int  # the lower (or only) Score marker, in DP
    second: int | None  # the Diplomatic Back-Channel's second Score marker, if placed
    prestige: int
    belligerence: int  # the Belligerence Level Track, 0 to 5
    hand_size: int
    draw_size: int  # cards in the Draw Pile
    known_top: int  # how many top cards of the Draw Pile its owner has seen (Reorganize)
    recycled: tuple[str, ...]  # the Recycled Discards pile, card ids
    returned: tuple[str, ...]  # the Return Discards pile, card ids
    permanent: tuple[str, ...]  # the Permanent Discards pile, card ids
    set_aside: tuple[str, ...]  # cards set aside on the player board
    counters: Mapping[str, int]  # the player board's markers, by counter name
    limit: int  # the Tableau's card limit
    assertions: int  # Assertion cards on the Tableau
    deliberated: bool  # Deliberated this Week
    passed: bool  # passed this round
    momentum: bool  # holds Momentum
    lost: str | None  # why this statesman lost ("General Mobilization", ...)


@dataclass(frozen=True, slots=True)
class PendingView:
    """A decision owed inside a turn (state.Pending): which cards only when they are
    face up on a Tableau (`resolve`); the cards drawn by Deliberating or looked at by
    Reorganizing stay with their owner (`YourView.looking_at`)."""

    kind: PendingKind  # resolve, choose, reorder, discard or reduce
    nation: str  # the nation id that owes it
    count: int  # cards to discard (`discard`)
    cards: tuple[str, ...]  # the revealed card being placed (`resolve`), else empty


@dataclass(frozen=True, slots=True)
class YourView:
    """What only the seat itself sees: its own cards, each with its full text."""

    nation: str  # the seat's nation id
    hand: tuple[CardView, ...]
    known_top: tuple[CardView, ...]  # the top of its Draw Pile it has seen, top first
    looking_at: tuple[CardView, ...] | None = None  # drawn by Deliberating or Reorganizing, if any
    refresh_discards: tuple[str, ...] | None = None  # its Refresh choice, once made


@dataclass(frozen=True, slots=True)
class CrisisView:
    """What a seat may know, or the public (`you` None): the Week, the Initiative Track,
    the Tension, every statesman's board and Tableau, what is pending."""

    game: str  # "crisis1914"
    week: int
    round: int  # the round of the Play Step
    phase: Phase  # the step of the Week
    solo: bool  # the solitaire game
    initiative: tuple[str | None, ...]  # the Current Round column, top first; None: an empty space
    will_move_top: tuple[str, ...]  # the Will Move Top box, top first
    will_move_bottom: tuple[str, ...]  # the Will Move Bottom box, top first
    turn: int  # the Turn Track, from 1: the space of `initiative` whose statesman acts
    actor: str | None  # the nation whose turn is running
    tension: Mapping[str, Mapping[str, int]]  # City Box nation -> Tension box nation -> die
    players: Mapping[str, StatesmanView]  # by nation id, in setup order
    pending: tuple[PendingView, ...]
    congress_inviter: str | None  # who may invite to a Congress now
    congress_yes: tuple[str, ...]  # the nations attending the Congress
    refresh_done: tuple[str, ...]  # the nations whose Refresh choice is in, sorted
    last_week: Mapping[str, Mapping[str, int]]  # the last Score Step by nation: prestige, dp, tension
    result: str | None  # how the game ended
    you: YourView | None = None  # the seat's own cards; None in the public view

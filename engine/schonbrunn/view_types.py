"""The view of Schönbrunn as typed records (docs/architecture.md §2): what a seat, or the
public, may know of a game, read by attribute by the texts (views.py), the pictures
(bot/render/pictures/schonbrunn.py) and the replay page.

Each record is frozen, its sequences tuples, so two views compare with ==. Its fields are
the keys of the plain JSON a public record keeps, in the same order; writing that JSON
and reading it back are derived from the fields (engine/core/plain.py, through
`Game.view_dict` and `view_from_dict`): a key that may be missing has a default of None
and is left out while its field is None. Mappings stay dicts (by Objective, by nation, by seat), in the order the
board shows them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import Stage

__all__ = ["Balance", "Delegation", "ObjectiveView", "PlayerView", "PrivateView", "SchonbrunnView"]


@dataclass(frozen=True, slots=True)
class Delegation:
    """One nation's pieces at one Objective, as the viewer sees them."""

    face_up: tuple[int, ...]  # the Influence printed on each face-up Delegate, lowest first
    face_down: int  # how many Delegates lie face down
    minister: bool  # its Foreign Minister is here
    head: bool  # its Delegation Head is here
    markers: tuple[int, ...]  # Plot markers (+1 / -1) it put here
    total: int | None = None  # the delegation's Influence, only in Congress (all face up)


@dataclass(frozen=True, slots=True)
class ObjectiveView:
    """An Objective: its Reparation pile, its Political Favour and the delegations there."""

    reparation: str | None  # the top Reparation's name, None while the tops are face down
    reparation_text: str | None  # that card's text
    pile: int  # Reparations left in its pile
    favour: int | None  # its Political Favour once revealed
    pieces: dict[str, Delegation]  # by nation, in Hierarchy order


@dataclass(frozen=True, slots=True)
class Balance:
    """The Principle of Balance's pile."""

    reparation: str | None  # its top Reparation's name, None while the tops are face down
    reparation_text: str | None
    pile: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What anyone sees of a nation: its Prestige, what stands in front of its screen and
    how many pieces lie behind it."""

    nation: str  # its Nation's name, or "Player N" before the Auction deals one
    prestige: int
    signed: tuple[str, ...]  # the names of its signed Treaties
    behind_screen: int  # cards behind its screen
    under_nation_card: int  # Allies stacked under its Nation card
    ally_markers: tuple[int, ...]
    supply: int  # Delegates in its supply
    committed: int | None  # its Hierarchy Delegate's Influence, once revealed
    head: str | None  # where its Delegation Head stands: an Objective or a nation's screen
    bid: int | None  # its auction bid, shown while the nations are chosen
    receptions: int | None = None  # shown in the simplified game and at the end only


@dataclass(frozen=True, slots=True)
class PrivateView:
    """What only one seat knows: its Receptions, the values of its Delegates, what is
    behind its screen and the texts of its own cards (no printed card to read)."""

    seat: str
    nation: str
    receptions: int
    supply: tuple[int, ...]  # the Influence of each Delegate in its supply, lowest first
    screen: tuple[str, ...]  # the names of the cards behind its screen
    screen_texts: tuple[str, ...]  # their texts, in the same order
    signed_texts: dict[str, str]  # each signed Treaty's text, by name
    nation_text: str | None  # its Nation card's text, once it has one
    aids_shown: tuple[str, ...]  # Aids it revealed this round
    bid: int | None  # its own auction bid
    committed: int | None  # its Hierarchy Delegate, committed and not yet revealed
    # its own face-down Delegates as (Objective, Influence), with the table option to look
    face_down: tuple[tuple[str, int], ...] | None = None


@dataclass(frozen=True, slots=True)
class SchonbrunnView:
    """What a seat may know of the game (`me` is None in the public view)."""

    round: int  # 0 during the auction variant's bidding for the Nations
    rounds: int
    stage: Stage  # the step of the round the game waits in (state.py)
    phase: str  # the rulebook's name of the Phase that stage belongs to
    simplified: bool  # the simplified game: Receptions are public
    hierarchy: tuple[str, ...]  # nations, position 1 first; empty before the first Hierarchy
    master: str  # the Master of Ceremonies' nation
    objectives: dict[str, ObjectiveView]  # by Objective numeral, in board order
    balance: Balance
    players: dict[str, PlayerView]  # by seat, in table order
    waiting: tuple[str, ...]  # the nations the game waits for
    last_awards: tuple[str, ...]  # the texts of the last Congress's awards
    final: dict[str, int]  # each nation's final Prestige, once the game is over
    me: PrivateView | None = None

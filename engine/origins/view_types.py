"""The view of Origins of World War I as typed records (docs/architecture.md §2): what one
seat, or the public, may know, read by attribute by the status (views.py), the pictures
(bot/render/pictures/origins.py) and the replay page.

Frozen, with tuples for sequences and read-only mappings, so two views compare with ==
(the replay page draws a picture again only for a view that changed). The plain JSON an
export keeps, key for key in the order the view has always been written, and reading it
back are derived from the fields (engine/core/plain.py, through `Game.view_dict` and
`view_from_dict`): a field whose default is None is left out while the phase lacks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .state import Phase


@dataclass(frozen=True, slots=True)
class Country:
    """A country in play (a power with a player) and the seat that holds it."""

    name: str  # "Germany"
    seat: str


@dataclass(frozen=True, slots=True)
class Caps:
    """This turn's limits; the last turn's are higher (Phase 2)."""

    per_embassy: int  # new PFs a sheet may write for one embassy (Phase 4)
    attacks: int  # diplomatic attacks each country may make (Phase 5)


@dataclass(frozen=True, slots=True)
class Bidding:
    """Phase 3, bidding for the attack order."""

    high_bid: int  # the highest bid so far, in PFs
    bidder: str | None  # the seat whose turn it is to bid or pass


@dataclass(frozen=True, slots=True)
class Attacking:
    """Phase 5: the country whose order card is up."""

    country: str
    left: int  # the attacks it may still make this turn
    embassies_used: tuple[str, ...]  # the embassies it has attacked in this turn


@dataclass(frozen=True, slots=True)
class OpenAttack:
    """An attack open to the seat's attacking country, with its odds, before it commits."""

    embassy: str
    target: str  # the country whose PFs there are attacked
    mine: int  # the attacker's PFs in that embassy (an attack commits them all)
    theirs: int  # the target's PFs there
    column: str  # the Diplomatic Attack Table's odds column, "3:2"
    odds: str  # that column's chances, "AE 28%, EX 56%, DE 17%"


@dataclass(frozen=True, slots=True)
class You:
    """What only the seat itself sees: its countries, their funds, in Phase 5 the attacks
    open to it and in Phase 4 its secret sheets. A field is None where the phase has none."""

    seat: str
    countries: tuple[str, ...]  # the seat's countries, in the order they were dealt
    funds: Mapping[str, int]  # country -> PFs it may bid or place (unplaced income and its home PFs)
    attacks: tuple[OpenAttack, ...] | None = None  # while one of its countries attacks
    sheets: Mapping[str, str] | None = None  # Phase 4: country -> its sheet as written so far
    unplaced: Mapping[str, str] | None = None  # Phase 4: country -> its warning on PFs left unplaced
    handed_in: bool | None = None  # Phase 4: whether its sheets are in


@dataclass(frozen=True, slots=True)
class OriginsView:
    """What a seat (or the public) may know: the turn, the attack order, every embassy's
    PFs and treaty rights, each country's income and VPs, the phase's own facts, and in a
    seat's view its own countries (`you`). Countries and embassies are named by code ("GER")."""

    turn: str  # the month on the turn track, "October 1913"
    turn_index: int  # its place on the turn track (0: October 1913)
    last_turn: bool  # decided in Phase 2
    end_roll: int | None  # this turn's Phase 2 die, if rolled
    phase: Phase
    countries: Mapping[str, Country]  # the countries in play, in the order they were dealt
    order: tuple[str, ...]  # the attack order, the top card (first to attack) first
    board: Mapping[str, Mapping[str, int]]  # embassy -> country -> its PFs there; embassies with PFs only
    treaties: Mapping[str, tuple[str, ...]]  # embassy -> the countries holding treaty rights there (10+ PFs)
    unplaced: Mapping[str, int]  # country -> this turn's income not yet placed
    vps: Mapping[str, int]  # country -> the provisional VPs last posted
    # the month they were posted ("" before any; a public record kept before they were
    # dated and itemised has neither this nor the next)
    vps_when: str = field(default="", kw_only=True)
    # country -> where its provisional VPs came from
    vps_parts: Mapping[str, tuple[tuple[str, int], ...]] = field(default_factory=dict, kw_only=True)
    final: Mapping[str, int] | None  # country -> its final VPs, once the game is over
    doubled: tuple[str, ...]  # seats holding one country while another holds two (§9)
    caps: Caps
    bidding: Bidding | None = None  # Phase 3 only
    submitted: tuple[str, ...] | None = None  # Phase 4 only: the countries whose sheets are in
    attacking: Attacking | None = None  # Phase 5 only
    ready: tuple[str, ...] | None = None  # Phase 6 only: the seats done with diplomacy
    last_sheets: Mapping[str, str] | None = None  # country -> its sheet last revealed, once there is one
    you: You | None = None  # in the seat's own view only

    def scores(self) -> Mapping[str, int]:
        """The VPs to show: the final ones once there are, else the provisional ones."""
        return self.final if self.final is not None else self.vps

    def names(self) -> dict[str, str]:
        """Each country in play's name by its code."""
        return {code: country.name for code, country in self.countries.items()}

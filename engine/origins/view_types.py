"""The view of Origins of World War I as typed records (docs/architecture.md §2): what one
seat, or the public, may know, read by attribute by the status (views.py), the pictures
(bot/render/pictures/origins.py) and the replay page.

Frozen, with tuples for sequences and read-only mappings, so two views compare with ==
(the replay page draws a picture again only for a view that changed). `as_dict` is the
plain JSON an export keeps, key for key and in the order the view has always been
written, so exports and the public record stay as they were; `from_dict` reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "countries": list(self.countries),
            "funds": dict(self.funds),
        }
        if self.attacks is not None:
            out["attacks"] = [
                {
                    "embassy": a.embassy,
                    "target": a.target,
                    "mine": a.mine,
                    "theirs": a.theirs,
                    "column": a.column,
                    "odds": a.odds,
                }
                for a in self.attacks
            ]
        if self.sheets is not None:
            out["sheets"] = dict(self.sheets)
        if self.unplaced is not None:
            out["unplaced"] = dict(self.unplaced)
        if self.handed_in is not None:
            out["handed_in"] = self.handed_in
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> You:
        attacks = d.get("attacks")
        sheets, unplaced = d.get("sheets"), d.get("unplaced")
        return cls(
            seat=d["seat"],
            countries=tuple(d["countries"]),
            funds=dict(d["funds"]),
            attacks=None if attacks is None else tuple(OpenAttack(**a) for a in attacks),
            sheets=None if sheets is None else dict(sheets),
            unplaced=None if unplaced is None else dict(unplaced),
            handed_in=d.get("handed_in"),
        )


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
    vps_when: str  # the month they were posted ("" before any)
    vps_parts: Mapping[str, tuple[tuple[str, int], ...]]  # country -> where its provisional VPs came from
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

    def as_dict(self) -> dict[str, Any]:
        """The view as plain JSON data, key for key as it has always been written."""
        out: dict[str, Any] = {
            "turn": self.turn,
            "turn_index": self.turn_index,
            "last_turn": self.last_turn,
            "end_roll": self.end_roll,
            "phase": self.phase,
            "countries": {c: {"name": x.name, "seat": x.seat} for c, x in self.countries.items()},
            "order": list(self.order),
            "board": {e: dict(here) for e, here in self.board.items()},
            "treaties": {e: list(v) for e, v in self.treaties.items()},
            "unplaced": dict(self.unplaced),
            "vps": dict(self.vps),
            "vps_when": self.vps_when,
            "vps_parts": {c: list(p) for c, p in self.vps_parts.items()},
            "final": None if self.final is None else dict(self.final),
            "doubled": list(self.doubled),
            "caps": {"per_embassy": self.caps.per_embassy, "attacks": self.caps.attacks},
        }
        if self.bidding is not None:
            out["bidding"] = {"high_bid": self.bidding.high_bid, "bidder": self.bidding.bidder}
        if self.submitted is not None:
            out["submitted"] = list(self.submitted)
        if self.attacking is not None:
            a = self.attacking
            out["attacking"] = {
                "country": a.country,
                "left": a.left,
                "embassies_used": list(a.embassies_used),
            }
        if self.ready is not None:
            out["ready"] = list(self.ready)
        if self.last_sheets is not None:
            out["last_sheets"] = dict(self.last_sheets)
        if self.you is not None:
            out["you"] = self.you.as_dict()
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> OriginsView:
        """The view `as_dict` wrote, read back (from JSON: lists where it keeps tuples), or
        one kept by an earlier version of the game (a public record)."""
        final, bidding, attacking = d["final"], d.get("bidding"), d.get("attacking")
        submitted, ready, sheets, you = d.get("submitted"), d.get("ready"), d.get("last_sheets"), d.get("you")
        return cls(
            turn=d["turn"],
            turn_index=d["turn_index"],
            last_turn=d["last_turn"],
            end_roll=d["end_roll"],
            phase=d["phase"],
            countries={c: Country(**x) for c, x in d["countries"].items()},
            order=tuple(d["order"]),
            board={e: dict(here) for e, here in d["board"].items()},
            treaties={e: tuple(v) for e, v in d["treaties"].items()},
            unplaced=dict(d["unplaced"]),
            vps=dict(d["vps"]),
            # a view kept before the provisional VPs were dated and itemised has neither
            vps_when=d.get("vps_when", ""),
            vps_parts={c: tuple((what, n) for what, n in p) for c, p in d.get("vps_parts", {}).items()},
            final=None if final is None else dict(final),
            doubled=tuple(d["doubled"]),
            caps=Caps(**d["caps"]),
            bidding=None if bidding is None else Bidding(**bidding),
            submitted=None if submitted is None else tuple(submitted),
            attacking=None
            if attacking is None
            else Attacking(attacking["country"], attacking["left"], tuple(attacking["embassies_used"])),
            ready=None if ready is None else tuple(ready),
            last_sheets=None if sheets is None else dict(sheets),
            you=None if you is None else You.from_dict(you),
        )

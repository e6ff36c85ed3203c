"""The view of Schönbrunn as typed records (docs/architecture.md §2): what a seat, or the
public, may know of a game, read by attribute by the texts (views.py), the pictures
(bot/render/pictures/schonbrunn.py) and the replay page.

Each record is frozen, its sequences tuples, so two views compare with ==. Its fields are
the keys of the plain JSON a public record keeps, in the same order: `as_dict` writes that
JSON data (a key that may be missing is left out while its field is None) and `from_dict`
reads it back. Mappings stay dicts (by Objective, by nation, by seat), in the order the
board shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

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

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "face_up": list(self.face_up),
            "face_down": self.face_down,
            "minister": self.minister,
            "head": self.head,
            "markers": list(self.markers),
        }
        if self.total is not None:
            out["total"] = self.total
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Delegation:
        return cls(
            face_up=tuple(d["face_up"]),
            face_down=d["face_down"],
            minister=d["minister"],
            head=d["head"],
            markers=tuple(d["markers"]),
            total=d.get("total"),
        )


@dataclass(frozen=True, slots=True)
class ObjectiveView:
    """An Objective: its Reparation pile, its Political Favour and the delegations there."""

    reparation: str | None  # the top Reparation's name, None while the tops are face down
    reparation_text: str | None  # that card's text
    pile: int  # Reparations left in its pile
    favour: int | None  # its Political Favour once revealed
    pieces: dict[str, Delegation]  # by nation, in Hierarchy order

    def as_dict(self) -> dict[str, Any]:
        return {
            "reparation": self.reparation,
            "reparation_text": self.reparation_text,
            "pile": self.pile,
            "favour": self.favour,
            "pieces": {n: pc.as_dict() for n, pc in self.pieces.items()},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ObjectiveView:
        return cls(
            reparation=d["reparation"],
            reparation_text=d["reparation_text"],
            pile=d["pile"],
            favour=d["favour"],
            pieces={n: Delegation.from_dict(pc) for n, pc in d["pieces"].items()},
        )


@dataclass(frozen=True, slots=True)
class Balance:
    """The Principle of Balance's pile."""

    reparation: str | None  # its top Reparation's name, None while the tops are face down
    reparation_text: str | None
    pile: int

    def as_dict(self) -> dict[str, Any]:
        return {"reparation": self.reparation, "reparation_text": self.reparation_text, "pile": self.pile}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Balance:
        return cls(reparation=d["reparation"], reparation_text=d["reparation_text"], pile=d["pile"])


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

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "nation": self.nation,
            "prestige": self.prestige,
            "signed": list(self.signed),
            "behind_screen": self.behind_screen,
            "under_nation_card": self.under_nation_card,
            "ally_markers": list(self.ally_markers),
            "supply": self.supply,
            "committed": self.committed,
            "head": self.head,
            "bid": self.bid,
        }
        if self.receptions is not None:
            out["receptions"] = self.receptions
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PlayerView:
        return cls(
            nation=d["nation"],
            prestige=d["prestige"],
            signed=tuple(d["signed"]),
            behind_screen=d["behind_screen"],
            under_nation_card=d["under_nation_card"],
            ally_markers=tuple(d["ally_markers"]),
            supply=d["supply"],
            committed=d["committed"],
            head=d["head"],
            bid=d["bid"],
            receptions=d.get("receptions"),
        )


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

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "nation": self.nation,
            "receptions": self.receptions,
            "supply": list(self.supply),
            "screen": list(self.screen),
            "screen_texts": list(self.screen_texts),
            "signed_texts": dict(self.signed_texts),
            "nation_text": self.nation_text,
            "aids_shown": list(self.aids_shown),
            "bid": self.bid,
            "committed": self.committed,
        }
        if self.face_down is not None:
            out["face_down"] = list(self.face_down)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PrivateView:
        down = d.get("face_down")
        return cls(
            seat=d["seat"],
            nation=d["nation"],
            receptions=d["receptions"],
            supply=tuple(d["supply"]),
            screen=tuple(d["screen"]),
            screen_texts=tuple(d["screen_texts"]),
            signed_texts=dict(d["signed_texts"]),
            nation_text=d["nation_text"],
            aids_shown=tuple(d["aids_shown"]),
            bid=d["bid"],
            committed=d["committed"],
            face_down=None if down is None else tuple((o, v) for o, v in down),
        )


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

    def as_dict(self) -> dict[str, Any]:
        """The view as plain JSON data (an export's public view), key for key."""
        out: dict[str, Any] = {
            "round": self.round,
            "rounds": self.rounds,
            "stage": self.stage,
            "phase": self.phase,
            "simplified": self.simplified,
            "hierarchy": list(self.hierarchy),
            "master": self.master,
            "objectives": {o: info.as_dict() for o, info in self.objectives.items()},
            "balance": self.balance.as_dict(),
            "players": {s: p.as_dict() for s, p in self.players.items()},
            "waiting": list(self.waiting),
            "last_awards": list(self.last_awards),
            "final": dict(self.final),
        }
        if self.me is not None:
            out["me"] = self.me.as_dict()
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SchonbrunnView:
        """The view `as_dict` wrote (a public record read back)."""
        me = d.get("me")
        return cls(
            round=d["round"],
            rounds=d["rounds"],
            stage=cast(Stage, d["stage"]),
            phase=d["phase"],
            simplified=d["simplified"],
            hierarchy=tuple(d["hierarchy"]),
            master=d["master"],
            objectives={o: ObjectiveView.from_dict(info) for o, info in d["objectives"].items()},
            balance=Balance.from_dict(d["balance"]),
            players={s: PlayerView.from_dict(p) for s, p in d["players"].items()},
            waiting=tuple(d["waiting"]),
            last_awards=tuple(d["last_awards"]),
            final=dict(d["final"]),
            me=None if me is None else PrivateView.from_dict(me),
        )

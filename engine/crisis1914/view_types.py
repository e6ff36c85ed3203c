"""The view of Crisis: 1914 as typed records (docs/architecture.md §2): what a seat or the
public may know, read by attribute by the status texts (views.py), the pictures and the
replay page. `CrisisView.as_dict` is the plain JSON data an export keeps, key for key and
in the same order as before the view was typed, and `CrisisView.from_dict` reads it back.

Frozen, and sequences are tuples: a view is a value, compared with `==` (the replay page
draws a picture again only when its view changed). Mappings stay dicts in the order the
game keeps them (the statesmen in setup order), typed read-only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from .content import CardType
from .state import PendingKind, Phase

__all__ = ["CardView", "CrisisView", "PendingView", "PlayedView", "StatesmanView", "YourView"]


def _strs(values: Any) -> tuple[str, ...]:
    return tuple(values)


@dataclass(frozen=True, slots=True)
class PlayedView:
    """A card on a Tableau, face up for everyone."""

    card: str  # the card's id
    name: str
    dp: int  # the DP it counts (doubled when played with Belligerence)
    type: CardType
    belligerence: bool  # played with Belligerence

    def as_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "name": self.name,
            "dp": self.dp,
            "type": self.type,
            "belligerence": self.belligerence,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PlayedView:
        return cls(card=d["card"], name=d["name"], dp=d["dp"], type=d["type"], belligerence=d["belligerence"])


@dataclass(frozen=True, slots=True)
class CardView:
    """One of the seat's own cards (Hand, known top of the Draw Pile, looked at), with
    its DP for that statesman now and its full text."""

    card: str  # the card's id
    name: str
    dp: int
    type: CardType
    text: str  # everything the card says (texts.card_text)

    def as_dict(self) -> dict[str, Any]:
        return {"card": self.card, "name": self.name, "dp": self.dp, "type": self.type, "text": self.text}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CardView:
        return cls(card=d["card"], name=d["name"], dp=d["dp"], type=d["type"], text=d["text"])


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

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "statesman": self.statesman,
            "nation": self.nation,
            "city": self.city,
            "tableau": [t.as_dict() for t in self.tableau],
            "score": self.score,
            "second": self.second,
            "prestige": self.prestige,
            "belligerence": self.belligerence,
            "hand_size": self.hand_size,
            "draw_size": self.draw_size,
            "known_top": self.known_top,
            "recycled": list(self.recycled),
            "returned": list(self.returned),
            "permanent": list(self.permanent),
            "set_aside": list(self.set_aside),
            "counters": dict(self.counters),
            "limit": self.limit,
            "assertions": self.assertions,
            "deliberated": self.deliberated,
            "passed": self.passed,
            "momentum": self.momentum,
            "lost": self.lost,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> StatesmanView:
        return cls(
            seat=d["seat"],
            statesman=d["statesman"],
            nation=d["nation"],
            city=d["city"],
            tableau=tuple(PlayedView.from_dict(t) for t in d["tableau"]),
            score=d["score"],
            second=d["second"],
            prestige=d["prestige"],
            belligerence=d["belligerence"],
            hand_size=d["hand_size"],
            draw_size=d["draw_size"],
            known_top=d["known_top"],
            recycled=_strs(d["recycled"]),
            returned=_strs(d["returned"]),
            permanent=_strs(d["permanent"]),
            set_aside=_strs(d["set_aside"]),
            counters=dict(d["counters"]),
            limit=d["limit"],
            assertions=d["assertions"],
            deliberated=d["deliberated"],
            passed=d["passed"],
            momentum=d["momentum"],
            lost=d["lost"],
        )


@dataclass(frozen=True, slots=True)
class PendingView:
    """A decision owed inside a turn (state.Pending): which cards only when they are
    face up on a Tableau (`resolve`); the cards drawn by Deliberating or looked at by
    Reorganizing stay with their owner (`YourView.looking_at`)."""

    kind: PendingKind  # resolve, choose, reorder, discard or reduce
    nation: str  # the nation id that owes it
    count: int  # cards to discard (`discard`)
    cards: tuple[str, ...]  # the revealed card being placed (`resolve`), else empty

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "nation": self.nation, "count": self.count, "cards": list(self.cards)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PendingView:
        return cls(kind=d["kind"], nation=d["nation"], count=d["count"], cards=_strs(d["cards"]))


@dataclass(frozen=True, slots=True)
class YourView:
    """What only the seat itself sees: its own cards, each with its full text."""

    nation: str  # the seat's nation id
    hand: tuple[CardView, ...]
    known_top: tuple[CardView, ...]  # the top of its Draw Pile it has seen, top first
    looking_at: tuple[CardView, ...] | None = None  # drawn by Deliberating or Reorganizing, if any
    refresh_discards: tuple[str, ...] | None = None  # its Refresh choice, once made

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "nation": self.nation,
            "hand": [c.as_dict() for c in self.hand],
            "known_top": [c.as_dict() for c in self.known_top],
        }
        if self.looking_at is not None:
            out["looking_at"] = [c.as_dict() for c in self.looking_at]
        if self.refresh_discards is not None:
            out["refresh_discards"] = list(self.refresh_discards)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> YourView:
        looking = d.get("looking_at")
        discards = d.get("refresh_discards")
        return cls(
            nation=d["nation"],
            hand=tuple(CardView.from_dict(c) for c in d["hand"]),
            known_top=tuple(CardView.from_dict(c) for c in d["known_top"]),
            looking_at=None if looking is None else tuple(CardView.from_dict(c) for c in looking),
            refresh_discards=None if discards is None else _strs(discards),
        )


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

    def as_dict(self) -> dict[str, Any]:
        """The plain JSON data of this view, key for key as the view was before it was typed."""
        out: dict[str, Any] = {
            "game": self.game,
            "week": self.week,
            "round": self.round,
            "phase": self.phase,
            "solo": self.solo,
            "initiative": list(self.initiative),
            "will_move_top": list(self.will_move_top),
            "will_move_bottom": list(self.will_move_bottom),
            "turn": self.turn,
            "actor": self.actor,
            "tension": {k: dict(v) for k, v in self.tension.items()},
            "players": {k: p.as_dict() for k, p in self.players.items()},
            "pending": [x.as_dict() for x in self.pending],
            "congress_inviter": self.congress_inviter,
            "congress_yes": list(self.congress_yes),
            "refresh_done": list(self.refresh_done),
            "last_week": {k: dict(v) for k, v in self.last_week.items()},
            "result": self.result,
        }
        if self.you is not None:
            out["you"] = self.you.as_dict()
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CrisisView:
        """The view `as_dict` wrote (a public record read back)."""
        you = d.get("you")
        return cls(
            game=d["game"],
            week=d["week"],
            round=d["round"],
            phase=cast("Phase", d["phase"]),
            solo=d["solo"],
            initiative=tuple(d["initiative"]),
            will_move_top=_strs(d["will_move_top"]),
            will_move_bottom=_strs(d["will_move_bottom"]),
            turn=d["turn"],
            actor=d["actor"],
            tension={k: dict(v) for k, v in d["tension"].items()},
            players={k: StatesmanView.from_dict(p) for k, p in d["players"].items()},
            pending=tuple(PendingView.from_dict(x) for x in d["pending"]),
            congress_inviter=d["congress_inviter"],
            congress_yes=_strs(d["congress_yes"]),
            refresh_done=_strs(d["refresh_done"]),
            last_week={k: dict(v) for k, v in d["last_week"].items()},
            result=d["result"],
            you=None if you is None else YourView.from_dict(you),
        )

"""Diplomacy as the table allows it: showing one's own hidden things with the referee's word,
and pacts on record (docs/architecture.md §3; the `/diplomacy` commands).

`Diplomacy` is a part of the table service, reached as `service.diplomacy`. Every change
runs under the table's lock through `TableAccess.with_table` and saves in one transaction.

- **Showing.** A seated player shows one of their own hidden things (what the game's
  `Game.showable` lists for their seat) to seated players they name. A showing is stored
  as events in the table's log: one public line, "anna showed something to boris", and one
  private event per recipient (and one for the shower) holding what was shown, with that
  seat as its audience. The log's one rule of who reads an event then keeps it: the public
  log, the round summary and the public record (an export before the end) carry only the
  public line; `/game publish` and the full record, after the end, carry every private
  line. Tables from before showings simply have none.
- **Pacts** (`pacts.py`): proposed to seated players, confirmed or declined by each,
  ended by the table passing their `until` or renounced; kept in the table's meta, private
  to their parties until the game ends.

It plays no action and never expires a deadline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.core import Showable, did_you_mean, fold

from ..render import escape
from ..render.rich import Rich, Text, member
from ..store import EventRow, SeatRow
from .errors import NOT_SEATED, NOT_STARTED, OVER, TableError
from .outbox import Outbox, Post, seat_post
from .pacts import (
    PACT_CHARS,
    PACTS,
    PRIVACY,
    pact_line,
    pacts_of,
    parse_until,
    parties_text,
)

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess

__all__ = ["Diplomacy", "SHOWN", "Member", "diplomacy_record", "pacts_published"]

# The kinds of a showing's events: the public line, what a recipient was shown, the shower's own line
SHOWING, SHOWN, SHOWED = "showing", "shown", "showed"
Member = tuple[int, str]  # a member named in a command: their user id and display name
SHOWN_LISTED = 5  # showings received that /diplomacy pacts recalls, newest last
IN_PLAY = ("running", "paused")  # a paused game is still in play: its players still talk


class Diplomacy:
    """Showing with the referee's word, and pacts on record."""

    def __init__(self, access: TableAccess, clock: Callable[[], float]) -> None:
        self.access = access
        self.clock = clock

    # -- showing -----------------------------------------------------------------------------
    async def showable(self, channel_id: int, user_id: int) -> list[Showable]:
        """What the caller may show now (for autocomplete): their own seat's only; [] when
        they hold no seat or the game is not in play."""
        t = await self.access.load(channel_id)
        me = t.seat_of(user_id)
        if t.state is None or t.row.status not in IN_PLAY or me is None or me.seat is None:
            return []
        return [s for s in t.game.showable(t.state, me.seat) if not s.refused]

    async def show(self, channel_id: int, user_id: int, item: str, to: list[Member]) -> Outbox:
        """Show `item` to the members `to`: each receives it privately, with the referee's
        word; the channel learns only that something was shown, and to whom."""

        async def run(t: LoadedTable) -> Outbox:
            me = _in_play_seat(t, user_id)
            seats = _named_seats(t, me, to, "show something to")
            found = _find_item(t, me, item)
            assert me.seat is not None
            when = _when(t)
            shower, names = t.who_as(me.seat), parties_text(t, seats)
            text = (
                f"**{t.game.title}**: shown by {shower}, checked by the referee ({when}): "
                f"{t.who(me.seat)} holds {_named_item(found)}, as it stood when shown. {found.text}"
            )
            public = f"{t.who(me.seat)} showed something to " + _plain_names(t, seats) + "."
            now = self.clock()
            events = [EventRow(channel_id, None, None, SHOWING, public, now)]
            events += [EventRow(channel_id, None, seat, SHOWN, text, now) for seat in seats]
            mine = f"You showed {_named_item(found)} to {names} ({when})."
            events.append(EventRow(channel_id, None, me.seat, SHOWED, mine, now))
            out = Outbox(channel_id=channel_id, reply=mine + " Nobody else learns what it was.")
            out.posts.append(Post(to="channel", kind="event", text=public))
            for seat in seats:
                seat_post(t, out, seat, text, kind="notice", dm=True, public=_closed_dms(t, seat, me.seat))
            await self.access.save(t, events=events, outbox=out)
            return out

        return await self.access.with_table(channel_id, run)

    # -- pacts --------------------------------------------------------------------------------
    async def pact(
        self,
        channel_id: int,
        user_id: int,
        *,
        text: str | None = None,
        parties: list[Member] | None = None,
        until: str | None = None,
        confirm: int | None = None,
        decline: int | None = None,
        renounce: int | None = None,
    ) -> Outbox:
        """/diplomacy pact, whichever of its uses the options ask for: propose (text: and
        with:), confirm:, decline: or renounce: a pact by its number; refused, in words,
        for options that mix them."""
        given = [(k, n) for k, n in (("confirm", confirm), ("decline", decline), ("renounce", renounce)) if n is not None]
        if len(given) > 1 or (given and (text or parties or until)):
            raise TableError(
                "Give one thing at a time: text: and with: to propose a pact, or confirm:, decline: "
                "or renounce: with a pact's number (/diplomacy pacts lists yours)."
            )
        if not given:
            return await self.propose(channel_id, user_id, text or "", parties or [], until)
        kind, number = given[0]
        if kind == "renounce":
            return await self.renounce(channel_id, user_id, number)
        return await self.answer(channel_id, user_id, number, kind == "confirm")

    async def propose(
        self, channel_id: int, user_id: int, text: str, parties: list[Member], until: str | None = None
    ) -> Outbox:
        """A pact proposed to the named seated players; each is asked privately to confirm
        or decline it (posts of kind "pact", which the Discord adapter sends with buttons)."""

        async def run(t: LoadedTable) -> Outbox:
            me = _in_play_seat(t, user_id)
            words = " ".join(text.split())
            if not words:
                raise TableError("Write what the pact says in text:.")
            if len(words) > PACT_CHARS:
                raise TableError(
                    f"A pact's text holds at most {PACT_CHARS} characters; yours has {len(words)}. Say it shorter."
                )
            seats = _named_seats(t, me, parties, "make a pact with")
            assert t.state is not None and me.seat is not None
            period = t.game.period(t.state)
            number = parse_until(period, until) if until and until.strip() else None
            pacts = pacts_of(t.row.meta)
            pact: dict[str, Any] = {
                "n": len(pacts) + 1,
                "by": me.seat,
                "parties": [me.seat, *seats],
                "confirmed": [me.seat],
                "text": words,
                "until": number,
                "until_label": period.label(number) if period is not None and number is not None else None,
                "status": "proposed",
                "when": _when(t),
                "at": self.clock(),
            }
            row = replace(t.row, meta={**t.row.meta, PACTS: [*pacts, pact]})
            t = await self.access.save(t, row=row)
            out = Outbox(
                channel_id=channel_id,
                reply=f"Proposed: {pact_line(t, pact, me.seat)} It becomes active when every party confirms. {PRIVACY}",
            )
            for seat in seats:
                seat_post(
                    t,
                    out,
                    seat,
                    f"**{t.game.title}**: {t.who_as(me.seat)} proposes a pact. {pact_line(t, pact, seat)} "
                    f"{PRIVACY} A pact binds nobody: "
                    "the referee records it and reminds you of it, never enforces it.",
                    kind="pact",
                    dm=True,
                    public=_closed_dms(t, seat),  # naming no one: a pact is private to its parties
                )
            return out

        return await self.access.with_table(channel_id, run)

    async def answer(self, channel_id: int, user_id: int, number: int, confirm: bool) -> Outbox:
        """The caller confirms or declines pact `number`: active once every party confirmed,
        declined as soon as one declines. The other parties are told privately."""

        async def run(t: LoadedTable) -> Outbox:
            me, pacts, pact = _my_pact(t, user_id, number)
            assert me.seat is not None
            if pact["status"] != "proposed":
                raise TableError(f"Pact {number} is {pact['status']}; there is nothing to answer.")
            if me.seat in pact["confirmed"]:
                raise TableError(f"You have already confirmed pact {number}.")
            if t.row.status not in IN_PLAY:
                raise TableError(OVER)
            if confirm:
                pact["confirmed"] = [*pact["confirmed"], me.seat]
                if set(pact["confirmed"]) >= set(pact["parties"]):
                    pact["status"] = "active"
                    news = f"every party confirmed pact {number}: it is active now."
                else:
                    news = f"{t.who_as(me.seat)} confirmed pact {number}."
            else:
                pact["status"], pact["ended"] = "declined", f"declined by {t.who(me.seat)}, {_when(t)}"
                news = f"{t.who_as(me.seat)} declined pact {number}; it will not become active."
            t = await self.access.save(t, row=replace(t.row, meta={**t.row.meta, PACTS: pacts}))
            out = Outbox(channel_id=channel_id, reply=f"Noted: {pact_line(t, pact, me.seat)}")
            for seat in pact["parties"]:
                if seat != me.seat:
                    seat_post(t, out, seat, f"**{t.game.title}**: {news} {pact_line(t, pact, seat)}", kind="notice", dm=True)
            return out

        return await self.access.with_table(channel_id, run)

    async def renounce(self, channel_id: int, user_id: int, number: int) -> Outbox:
        """The caller ends active pact `number`; the other parties are told privately."""

        async def run(t: LoadedTable) -> Outbox:
            me, pacts, pact = _my_pact(t, user_id, number)
            assert me.seat is not None
            if pact["status"] != "active":
                raise TableError(f"Only an active pact can be renounced; pact {number} is {pact['status']}.")
            if t.row.status not in IN_PLAY:
                raise TableError(OVER)
            pact["status"], pact["ended"] = "renounced", f"renounced by {t.who(me.seat)}, {_when(t)}"
            t = await self.access.save(t, row=replace(t.row, meta={**t.row.meta, PACTS: pacts}))
            out = Outbox(channel_id=channel_id, reply=f"You renounced pact {number}. {pact_line(t, pact, me.seat)}")
            for seat in pact["parties"]:
                if seat != me.seat:
                    seat_post(
                        t,
                        out,
                        seat,
                        f"**{t.game.title}**: {t.who_as(me.seat)} renounced your pact. {pact_line(t, pact, seat)}",
                        kind="notice",
                        dm=True,
                    )
            return out

        return await self.access.with_table(channel_id, run)

    async def pacts(self, channel_id: int, user_id: int) -> str:
        """The table's pacts the caller is party to, numbered per table (a private reply)."""
        t = await self.access.load(channel_id)
        me = t.seat_of(user_id)
        if me is None or me.seat is None:
            raise TableError(NOT_SEATED if me is None else NOT_STARTED)
        mine = [p for p in pacts_of(t.row.meta) if me.seat in p["parties"]]
        if not mine:
            lines = [
                "You are party to no pact at this table. Propose one with "
                "/diplomacy pact text:<what it says> with:<player>. " + PRIVACY
            ]
        else:
            lines = [f"**{t.game.title}**: your pacts ({PRIVACY})", *(pact_line(t, p, me.seat) for p in mine)]
        shown = [e.text for e in await self.access.store.get_all_events(channel_id) if e.kind == SHOWN and e.audience == me.seat]
        if shown:
            lines.append(f"Shown to you (the last {SHOWN_LISTED} at most):")
            lines += shown[-SHOWN_LISTED:]
        return "\n".join(lines)


# -- the record, after the end ----------------------------------------------------------------
def diplomacy_record(t: LoadedTable, events: list[EventRow]) -> dict[str, Any]:
    """Every showing (who showed what to whom, when) and every pact of a finished game, for
    its full record and replay page. Only after the end: `History` asks for it then."""
    showings: dict[tuple[float, str], list[str]] = {}
    for e in events:
        if e.kind == SHOWN and e.audience is not None:
            showings.setdefault((e.at, e.text), []).append(t.label(e.audience))
    pacts = [
        {
            "number": p["n"],
            "parties": [t.label(s) for s in p["parties"]],
            "players": [t.who(s) for s in p["parties"]],
            "text": p["text"],
            "until": p.get("until_label"),
            "status": p["status"],
            "proposed": p.get("when"),
            "ended": p.get("ended"),
        }
        for p in pacts_of(t.row.meta)
    ]
    return {"showings": [{"to": to, "text": text, "at": at} for (at, text), to in showings.items()], "pacts": pacts}


def pacts_published(t: LoadedTable) -> list[str]:
    """Every pact of a finished game as `/game publish` lists them, after the log."""
    pacts = pacts_of(t.row.meta)
    if not pacts:
        return []
    return ["**Pacts** (private to their parties during the game):", *(pact_line(t, p) for p in pacts)]


# -- who and what ---------------------------------------------------------------------------
def _in_play_seat(t: LoadedTable, user_id: int) -> SeatRow:
    """The caller's seat at a game in play (refused, in words, otherwise)."""
    if t.row.status == "lobby" or t.state is None:
        raise TableError(NOT_STARTED)
    if t.row.status not in IN_PLAY:
        raise TableError(OVER)
    me = t.seat_of(user_id)
    if me is None or me.seat is None:
        raise TableError(NOT_SEATED)
    return me


def _named_seats(t: LoadedTable, me: SeatRow, named: list[Member], doing: str) -> list[str]:
    """The seats of the members named, each seated and played by a person, none the caller."""
    seats: list[str] = []
    for user_id, name in named:
        if user_id == me.user_id:
            raise TableError(f"You cannot {doing} yourself; name another player at the table.")
        row = t.seat_of(user_id)
        if row is None or row.seat is None:
            raise TableError(f"{escape(name)} is not seated at this table; you can {doing} seated players only.")
        if row.automatic:
            raise TableError(f"{t.label(row.seat)} is played automatically; there is no one to {doing}.")
        if row.seat not in seats:
            seats.append(row.seat)
    if not seats:
        raise TableError(f"Name at least one other seated player to {doing}.")
    return seats


def _my_pact(t: LoadedTable, user_id: int, number: int) -> tuple[SeatRow, list[dict[str, Any]], dict[str, Any]]:
    """The caller's seat, the table's pacts and pact `number`, which the caller is party to."""
    me = t.seat_of(user_id)
    if me is None or me.seat is None:
        raise TableError(NOT_SEATED if me is None else NOT_STARTED)
    pacts = pacts_of(t.row.meta)
    pact = next((p for p in pacts if p["n"] == number), None)
    if pact is None or me.seat not in pact["parties"]:
        mine = [str(p["n"]) for p in pacts if me.seat in p["parties"]]
        listed = f"Yours: {', '.join(mine)} (/diplomacy pacts lists them)." if mine else "You are party to no pact here."
        raise TableError(f"You are party to no pact {number} at this table. {listed}")
    return me, pacts, pact


def _find_item(t: LoadedTable, me: SeatRow, item: str) -> Showable:
    """The caller's hidden thing `item` names; refused, to the caller alone, naming what
    they may show instead, or why the rules keep it hidden even from them."""
    assert t.state is not None and me.seat is not None
    items = t.game.showable(t.state, me.seat)
    typed = fold(item)  # case, accents and spacing aside: "szapary" is Szapáry
    found = next((s for s in items if fold(s.name) == typed), None)
    if found is not None and found.refused:
        raise TableError(f"You cannot show {found.name}: {found.refused}.")
    if found is not None:
        return found
    may = [s for s in items if not s.refused]
    shown = escape(item.strip()[:40])
    if not may:
        raise TableError(f"You do not hold {shown}: you hold nothing hidden that you can show now.")
    hint = did_you_mean(item, [s.name for s in may])
    kinds = {s.kind for s in may}
    listing = ", ".join(s.name for s in may)
    what = f"your {next(iter(kinds)).removeprefix('card in ')} is {listing}" if kinds == {"card in Hand"} else f"you can show {listing}"
    raise TableError(f"You do not hold {shown}: {what}." + (f" {hint}" if hint else ""))


def _closed_dms(t: LoadedTable, seat: str, shower: str | None = None) -> Text | None:
    """The mention, naming no secret, that reaches a recipient whose DMs are closed: who
    showed them something (the channel knows that already), or only that a private line
    waits (a pact's very existence is its parties' own)."""
    holder = t.human(seat)
    if holder is None:
        return None
    what = f"{t.who(shower)} showed you something privately" if shower else "a private line about this game waits for you"
    return Rich.of(member(holder.user_id), f", {what}; /diplomacy pacts here shows it.")


def _named_item(item: Showable) -> str:
    """"**Conrad** (card in Hand)"; the kind left out where it says the name again ("Receptions")."""
    return f"**{item.name}**" + (f" ({item.kind})" if item.kind.casefold() != item.name.casefold() else "")


def _when(t: LoadedTable) -> str:
    """Where the game is, in its words ("Week 2"), for a showing's or a pact's record."""
    assert t.state is not None
    period = t.game.period(t.state)
    label = period.label() if period is not None else t.game.round_label(t.state)
    return label or "before the first round"


def _plain_names(t: LoadedTable, seats: list[str]) -> str:
    """The recipients by name only, as the public line names them."""
    names = [t.who(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

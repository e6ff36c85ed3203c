"""The gallery: members who are not seated follow a table some rounds behind it
(docs/architecture.md §3).

A member who is not seated becomes a spectator of a table with `/diplomacy spectate` in
its channel; spectators are kept in the table's meta (`GALLERY`, with how many rounds each
has been sent), so a restart keeps them. The table's `spectator_delay` says how far
behind, in whole rounds. A round is a part of the round summary as bot/render/summary.py
cuts the public log: a new one at each event of the game's `round_event` kind (Crisis:
1914's Weeks, Origins' turns, Schönbrunn's rounds), the part before the first being the
game's opening round. A spectator never reads the round in play: with a delay of d, they
read the public record up to the end of the round d rounds before the last one finished
(0: every finished round). When a round ends, each spectator is sent by DM the rounds
that have just become old enough (`catch_up`, which `Play` calls inside the step's
transaction), with the board as they may see it; when the game ends (or is abandoned),
everything still held back and the final standings. The Discord adapter sends them only
to a member who can still open the table's channel (docs/rulings.md 47).

`Gallery.read` is the one rule of what a member may read of a table. Every read path of
the service (the status, the pictures, `/game me`, the player aid, suggestions, turn
buttons, the log, exports) takes its table from it, and for a spectator of a game in play
it says where their view stops: the public log before the cut, and the state replayed
from the record up to the move that began the first round held back.
tests/architecture/test_gallery_gate.py checks that no read path loads a table another way.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.core import GameState

from ..render.rich import Text
from ..render.summary import round_name
from ..render.text import escape, seat_list
from ..store import EventRow, TableRow
from .errors import NO_TABLE, TableError
from .loaded import started_seed, started_state
from .outbox import Outbox, Post

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess

GALLERY = "gallery"  # the table's meta: {member id (text): rounds already sent to them}
IN_PLAY = ("running", "paused")  # a game whose spectators read it behind
STATES_KEPT = 16  # replayed states kept (a spectator's status, picture and export read one)
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five")
NOT_HERE = (
    "There is no table in this channel: use /diplomacy spectate in the channel of the table you want to watch."
)
PLAYS_HERE = "You play at this table: you see it as it happens, and your own hand with /game me."
NOT_WATCHING = "You are not watching this table."
# What the host is told when the delay matters (docs/rulings.md: the gallery and the channel).
CHANNEL_SHOWS_ALL = (
    "Members who can read this channel still see the live status here; for a gallery that cannot "
    "coach, let only the players read this channel and have watchers use /diplomacy spectate."
)


def rounds_behind(delay: int) -> str:
    """What a spectator sees, in words: "each round once one more round is over"."""
    if delay == 0:
        return "each round once it is over"
    word = NUMBER_WORDS[delay] if delay < len(NUMBER_WORDS) else str(delay)
    return f"each round once {word} more round is over" if delay == 1 else f"each round once {word} more rounds are over"


def setup_options(t: LoadedTable) -> dict[str, Any]:
    """The options `start` gave setup (plus seat preferences, for a game that takes them)."""
    options = dict(t.row.options)
    if "preferences" in t.game.Options.model_fields and "preferences" not in options:
        options["preferences"] = {s.seat: s.preference for s in t.seats if s.seat and s.preference}
    return options


def setup_again(t: LoadedTable) -> GameState:
    """The table's game set up again from its seed, as `start` set it up."""
    g = t.game
    return g.setup(list(started_state(t).seats), g.Options.model_validate(setup_options(t)), started_seed(t))


@dataclass(frozen=True, slots=True)
class Rounds:
    """A table's public log cut into rounds as the round summary cuts it: `opens[k]` is
    where round k begins (round 0, the opening, at the first event); the last is in play."""

    events: list[EventRow]
    opens: list[int]

    @classmethod
    def of(cls, events: list[EventRow], round_event: str) -> Rounds:
        later = [i for i, e in enumerate(events) if i > 0 and round_event and e.kind == round_event]
        return cls(events, [0, *later])

    def __len__(self) -> int:
        return len(self.opens)

    def end(self, k: int) -> int:
        """Where round k ends: the next one's opening, or the end of the log."""
        return self.opens[k + 1] if k + 1 < len(self.opens) else len(self.events)

    def lines(self, k: int) -> list[str]:
        return [e.text for e in self.events[self.opens[k] : self.end(k)]]

    def name(self, k: int, opening: Callable[[], str]) -> str:
        """Round k's name: its opening line's ("Week 2"); the opening round's is `opening()`."""
        first = self.events[self.opens[k]] if self.opens[k] < len(self.events) else None
        if k > 0 and first is not None:
            return round_name(first.text)
        return opening() or "the opening"

    def shown(self, delay: int) -> int:
        """How many rounds a spectator `delay` rounds behind may read: the finished rounds
        but the last `delay` (never the one in play)."""
        return max(0, len(self) - 1 - delay)


@dataclass(frozen=True, slots=True)
class Behind:
    """Where a spectator's view of a game in play stops: `shown` rounds, the first `cut`
    events of the public log."""

    delay: int
    rounds: Rounds
    shown: int
    cut: int


@dataclass(frozen=True, slots=True)
class Reading:
    """What one member may read of a table now: the table as loaded, and `behind` (None:
    they read it as it is)."""

    table: LoadedTable
    behind: Behind | None = None


def watching(t: LoadedTable, user_id: int | None) -> bool:
    """`user_id` is a spectator of table `t` (and not seated: a seat sees its own table live)."""
    return user_id is not None and str(user_id) in t.row.meta.get(GALLERY, {}) and t.seat_of(user_id) is None


class Gallery:
    """Spectators of a table, what they are sent, and what any member may read."""

    def __init__(self, access: TableAccess, clock: Callable[[], float]) -> None:
        self.access = access
        self.store = access.store
        self.clock = clock
        self._states: OrderedDict[tuple[int, int, int], GameState] = OrderedDict()

    # -- the one rule of reading -----------------------------------------------------------
    async def read(self, channel_id: int, reader: int | None) -> Reading:
        """The table in `channel_id` as member `reader` may read it (None: the channel's
        own view, what anyone who opens it sees). Every read path of the service starts
        here."""
        return await self.reading(await self.access.load(channel_id), reader)

    async def reading(self, t: LoadedTable, reader: int | None) -> Reading:
        if t.state is None or t.row.status not in IN_PLAY or not watching(t, reader):
            return Reading(t)
        delay = t.settings.spectator_delay
        rounds = await self._rounds(t)
        shown = rounds.shown(delay)
        return Reading(t, Behind(delay, rounds, shown, rounds.opens[shown]))

    async def state_at(self, r: Reading) -> GameState | None:
        """The state the reader may see: the live one, or, behind, the state replayed from
        the record up to the move that began the first round held back (None: nothing shown
        yet)."""
        t, b = r.table, r.behind
        if b is None:
            return t.state
        if b.shown == 0:
            return None
        upto = b.rounds.events[b.cut].action_idx
        if upto is None:  # an opening event of the game: nothing was played before it
            return setup_again(t)
        key = (t.row.channel_id, started_seed(t), upto)
        if key not in self._states:
            actions = (await self.store.get_actions(t.row.channel_id))[:upto]
            self._states[key] = await asyncio.to_thread(_replayed, t, [(a.seat, a.action) for a in actions])
            while len(self._states) > STATES_KEPT:
                self._states.popitem(last=False)
        self._states.move_to_end(key)
        return self._states[key]

    def played(self, r: Reading) -> int | None:
        """How many actions the reader's view has seen (None: all of them, live)."""
        b = r.behind
        if b is None:
            return None
        return (b.rounds.events[b.cut].action_idx or 0) if b.shown else 0

    async def seated_then(self, r: Reading) -> dict[str, str]:
        """Who held each seat where the reader's view stops, in table order: a later
        substitute is news of a round held back."""
        t, played = r.table, self.played(r)
        names: dict[str, str] = {}
        for h in await self.store.get_seat_history(t.row.channel_id):  # in the order they sat down
            if played is None or h.from_step <= played:
                names[h.seat] = h.name
        return {seat: names[seat] for seat in started_state(t).seats if seat in names}

    def round_name(self, t: LoadedTable, rounds: Rounds, k: int) -> str:
        return rounds.name(k, lambda: t.game.layout(t.game.view(setup_again(t), None)).round)

    async def status(self, r: Reading) -> str:
        """A spectator's `/game status`: the table as it stood where their view stops."""
        t, b = r.table, r.behind
        assert b is not None
        g = t.game
        head = f"**{g.title}**: you watch this table and see {rounds_behind(b.delay)}"
        state = await self.state_at(r)
        if state is None:
            return f"{head}. Nothing of the game is shown to you yet."
        last = self.round_name(t, b.rounds, b.shown - 1)
        seats = seat_list([(escape(name), t.label(seat)) for seat, name in (await self.seated_then(r)).items()])
        return f"{head}: the table as {last} ended.\n{g.describe(g.view(state, None))}\n{seats}"

    def note(self, r: Reading) -> str:
        """One line that says where a spectator's log or export stops."""
        b = r.behind
        assert b is not None
        see = f"You watch this table and see {rounds_behind(b.delay)}"
        if b.shown == 0:
            return f"{see}: nothing of the game is shown to you yet."
        last = self.round_name(r.table, b.rounds, b.shown - 1)
        return f"{see}: the record up to the end of {last}."

    # -- becoming a spectator --------------------------------------------------------------
    async def spectate(self, channel_id: int, user_id: int, *, stop: bool = False) -> Outbox:
        """`/diplomacy spectate` (`stop`: `stop:yes`) by `user_id` in the table's channel.
        The front end checks that they may open the channel: the command comes from it."""

        async def run(t: LoadedTable) -> Outbox:
            gallery: dict[str, int] = dict(t.row.meta.get(GALLERY, {}))
            key = str(user_id)
            if stop:
                if key not in gallery:
                    raise TableError(NOT_WATCHING)
                del gallery[key]
                await self.access.save(t, row=replace(t.row, meta={**t.row.meta, GALLERY: gallery}))
                return Outbox(channel_id, reply="You no longer watch this table; nothing more of it comes to you.")
            if t.seat_of(user_id) is not None:
                raise TableError(PLAYS_HERE)
            if t.row.status not in ("lobby", *IN_PLAY):
                raise TableError("The game is over: /game log and /game export show all of it.")
            delay = t.settings.spectator_delay
            if key in gallery:
                raise TableError(
                    "You already watch this table; /diplomacy spectate stop:yes ends it."
                )
            gallery[key] = (await self._rounds(t)).shown(delay) if t.state is not None else 0
            await self.access.save(t, row=replace(t.row, meta={**t.row.meta, GALLERY: gallery}))
            return Outbox(channel_id, reply=_welcome(t.game.title, delay))

        try:
            return await self.access.with_table(channel_id, run)
        except TableError as exc:
            if str(exc) == NO_TABLE:
                raise TableError(NOT_HERE) from None
            raise

    # -- what spectators are sent ----------------------------------------------------------
    async def catch_up(
        self, t: LoadedTable, events: list[Any], out: Outbox, row: TableRow | None = None
    ) -> TableRow:
        """After a step of table `t` (as it will be saved, with this step's `events` not yet
        stored): each spectator's rounds that have just become old enough go in `out` by
        DM, and, once the game is over, everything held back with the final standings.
        Returns `row` (by default `t`'s) with how many rounds each has been sent. Costs
        nothing unless the table has spectators and a round began or the game ended."""
        row = t.row if row is None else row
        gallery: dict[str, int] = row.meta.get(GALLERY) or {}
        over = row.status in ("finished", "abandoned")
        g = t.game
        if not gallery or t.state is None:
            return row
        if not over and not any(e.audience is None and e.kind == g.round_event for e in events):
            return row
        new = [EventRow(t.row.channel_id, None, None, e.kind, e.text, 0.0) for e in events if e.audience is None]
        rounds = Rounds.of(await self._public(t.row.channel_id) + new, g.round_event)
        delay = t.settings.spectator_delay
        due = len(rounds) if over else rounds.shown(delay)
        ending: list[Text] = [p.text for p in out.posts if p.to == "channel" and p.kind == "standings"]
        if row.status == "abandoned":
            ending = ["The game was abandoned."]
        sent = dict(gallery)
        for key, done in gallery.items():
            user_id = int(key)
            if t.seat_of(user_id) is not None:
                continue  # seated since (a substitute): they read the table as it is
            texts: list[Text] = [self._round_text(t, rounds, k, over) for k in range(done, due)]
            texts += ending if over else []
            for text in texts:
                out.posts.append(Post(to="seat", user_id=user_id, text=text, kind="gallery", dm=True))
            sent[key] = max(done, due)
        return replace(row, meta={**row.meta, GALLERY: sent})

    def _round_text(self, t: LoadedTable, rounds: Rounds, k: int, over: bool) -> str:
        when = " (the game is over)" if over else ""
        head = f"**{t.game.title}**, {self.round_name(t, rounds, k)}{when}:"
        return "\n".join([head, *rounds.lines(k)])

    # -- reading the log -------------------------------------------------------------------
    async def _rounds(self, t: LoadedTable) -> Rounds:
        return Rounds.of(await self._public(t.row.channel_id), t.game.round_event)

    async def _public(self, channel_id: int) -> list[EventRow]:
        return [e for e in await self.store.get_all_events(channel_id) if e.audience is None]


def _welcome(title: str, delay: int) -> str:
    return (
        f"You now watch **{title}**: you see {rounds_behind(delay)}, by DM, and everything else when "
        "the game ends. While you watch, /game status, /game log and /game export show you the table "
        "only as far as that. /diplomacy spectate stop:yes ends it."
    )


def replayed(t: LoadedTable, actions: Iterable[tuple[str, str]]) -> Iterator[GameState]:
    """The table's game set up again from its seed, then its state after each of `actions`
    (stored actions, in order): the record's replay, the same seed giving every draw again."""
    g = t.game
    state = setup_again(t)
    yield state
    for seat, action in actions:
        state, _ = g.apply(state, seat, g.parse_action(json.loads(action)))
        yield state


def _replayed(t: LoadedTable, actions: list[tuple[str, str]]) -> GameState:
    """The table's state after the first of its stored actions, `actions`."""
    return deque(replayed(t, actions), maxlen=1)[0]

"""History: the public log, JSON export and import of a game, publishing a finished game.

`History` owns the log pages, exports (public, full, the operator's, and the replay page:
one HTML file of the game, bot/render/replay_page), importing a record
into a new table, and publishing a finished game's history. It reads tables through
`TableAccess` and saves only the "published" mark; it plays no action. A record is
bot/store/records.py's chancellery-record/1; an export adds who played each seat when
(`seats_over_time`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from engine import games
from engine.core import PUBLIC, GameError, seed_commitment

from ..render.replay_page import ReplayPageError, replay_page
from ..render.text import escape, split_message
from ..store import ActionRow, EventRow, TableExists, TableRow
from ..store.forgetting import FORGOTTEN
from ..store.records import (
    PUBLIC_FORMAT,
    Record,
    ReplayError,
    check_format,
    options_problem,
    record_from_store,
    replay,
)
from .diplomacy import diplomacy_record, pacts_published
from .errors import OVER, TableError, first_error, host_only
from .limits import LOG_PAGE
from .loaded import started_seed, started_state
from .outbox import Outbox, Post
from .reviews import finished_reviews
from .saved import note_saved
from .settings import Settings

if TYPE_CHECKING:
    from .gallery import Gallery, Reading
    from .loaded import LoadedTable, TableAccess
    from .posts import Posts

POST_CHARS = 1900  # a Discord message holds 2000
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1  # what the store's 64-bit INTEGER column holds


class History:
    """The log, exports, imports and publishing of a table's history."""

    def __init__(
        self,
        access: TableAccess,
        posts: Posts,
        clock: Callable[[], float],
        default_settings: Settings,
        gallery: Gallery,
    ) -> None:
        self.access = access
        self.store = access.store
        self.posts = posts
        self.gallery = gallery  # what a member may read of a table (a spectator: some rounds behind)
        self.clock = clock
        self.default_settings = default_settings

    async def log(self, channel_id: int, page: int = 1, reader: int | None = None) -> str:
        """A page of the public log, as member `reader` may read it: a spectator's ends
        where their view of the game stops (bot/service/gallery.py)."""
        r = await self.gallery.read(channel_id, reader)
        t = r.table
        total = await self.store.count_events(channel_id)
        shown = total if r.behind is None else r.behind.cut
        note = "" if r.behind is None else self.gallery.note(r) + "\n"
        pages = max(1, -(-shown // LOG_PAGE))
        page = min(max(1, page), pages)
        # newest first: the events a spectator may not read yet are the newest
        offset = (total - shown) + (page - 1) * LOG_PAGE
        rows = await self.store.get_events(channel_id, offset=offset, limit=min(LOG_PAGE, shown)) if shown else []
        if not rows:
            return f"{note}**{t.game.title}** log: nothing has happened yet."
        body = "\n".join(r.text for r in reversed(rows))
        return f"{note}**{t.game.title}** log, page {page} of {pages} (page 1 is the newest):\n{body}"

    # -- export and import -----------------------------------------------------------------
    async def export(self, channel_id: int, reader: int | None = None) -> dict:
        """The game's record for member `reader`. After the end, the full record (seed, every
        action, every secret order), which `replay` checks. Before the end, and for ever
        for an abandoned game, the public record only: nobody, host included, gets the seed
        or a hidden action from a game still in play (docs/rulings.md, Platform 23); a
        spectator's ends where their view of the game stops (bot/service/gallery.py)."""
        r = await self.gallery.read(channel_id, reader)
        t = r.table
        if t.state is None:
            raise TableError("The game has not started; there is nothing to export yet.")
        if r.behind is not None:
            return await self._spectators_record(r)
        if t.row.status != "finished":
            return await self._public_record(t)
        return await self._full_record(t)

    async def operator_export(self, channel_id: int) -> dict:
        """The full record at any moment, secrets included, for the operator's command line
        (`chancellery export`): whoever runs the bot holds the database anyway. No front
        end calls this."""
        t = await self.access.load(channel_id)
        if t.state is None:
            raise TableError("The game has not started; there is nothing to export yet.")
        return await self._full_record(t)

    async def export_html(self, channel_id: int, reader: int | None = None) -> bytes:
        """The game's replay page (one HTML file, bot/render/replay_page), made from what
        `export` gives the same caller: after the end the whole game, every hand included;
        for an abandoned game only what was public. Refused while the game is in play. The
        page takes a second or two to make, in a worker thread so the table keeps answering."""
        record = await self.export(channel_id, reader)
        if record.get("format") == PUBLIC_FORMAT and record.get("status") != "abandoned":
            raise TableError(
                "The replay page comes when the game ends: until then it would show the seed and "
                "every secret order. /game export gives the public record so far."
            )
        try:
            return await asyncio.to_thread(replay_page, record)
        except ReplayPageError as exc:
            raise TableError(f"This game's replay page cannot be made: {exc}") from None

    async def _full_record(self, t: LoadedTable) -> dict:
        channel_id = t.row.channel_id
        try:
            record = await record_from_store(self.store, channel_id)
        except ReplayError as exc:
            raise TableError(f"This game cannot be exported: {exc}") from None
        data = record.model_dump(mode="json")
        data["secret"] = t.row.status != "finished"  # an operator's export of a game in play
        data["seed_commitment"] = seed_commitment(started_seed(t))
        data["seats_over_time"] = await self._seats_over_time(t)
        data["status"] = t.row.status
        if t.row.status == "finished":  # showings and pacts: private to their players until the end
            data["diplomacy"] = diplomacy_record(t, await self.store.get_all_events(channel_id))
        reviews = await finished_reviews(self.access, t)  # each seat's, once computed (reviews.py)
        if reviews:
            data["reviews"] = reviews
        return data

    async def _public_record(self, t: LoadedTable) -> dict:
        """What anyone watching the channel saw: the public log, the public view of the
        table now, who sat where, and the seed's commitment. No seed, no actions (a secret
        order is an action), no private line: it cannot be replayed or continued."""
        channel_id, g, state = t.row.channel_id, t.game, started_state(t)
        events = [e for e in await self.store.get_all_events(channel_id) if e.audience is None]
        return await self._public_dict(t, events, g.view(state, PUBLIC), self._public_note(t))

    async def _spectators_record(self, r: Reading) -> dict:
        """A spectator's public record: the public log and view as far as they may see the
        game (bot/service/gallery.py), no further."""
        assert r.behind is not None
        t = r.table
        state = await self.gallery.state_at(r)
        view = None if state is None else t.game.view(state, PUBLIC)
        note = f"{self.gallery.note(r)} {self._public_note(t)}"
        data = await self._public_dict(t, r.behind.rounds.events[: r.behind.cut], view, note)
        # who sat where as far as they may see: a later substitute is news of a later round
        played = self.gallery.played(r) or 0
        data["seats_over_time"] = [h for h in data["seats_over_time"] if h["from_action"] <= played + 1]
        data["names"] = await self.gallery.seated_then(r)
        return data

    @staticmethod
    def _public_note(t: LoadedTable) -> str:
        if t.row.status == "abandoned":
            return (
                "The public record of an abandoned game. An abandoned game's secrets stay secret: "
                "it holds no seed and no secret orders, so it cannot be replayed or continued."
            )
        return (
            "The public record of a game still in play: no seed and no secret orders, so it "
            "cannot be replayed or continued. The full record can be exported when the game ends."
        )

    async def _public_dict(self, t: LoadedTable, events: list[EventRow], view: Any, note: str) -> dict:
        g, state = t.game, started_state(t)
        return {
            "format": PUBLIC_FORMAT,
            "note": note,
            "game": g.id,
            "title": g.title,
            "status": t.row.status,
            "options": dict(t.row.options),
            "seats": list(state.seats),
            "labels": {seat: t.label(seat) for seat in state.seats},
            "names": {s.seat: s.name for s in t.seats if s.seat},
            "seed_commitment": seed_commitment(started_seed(t)),
            "seats_over_time": await self._seats_over_time(t),
            "public_log": [
                {"action": e.action_idx + 1 if e.action_idx is not None else None, "text": e.text}
                for e in events
            ],
            "public_view": None if view is None else g.view_dict(view),
        }

    async def _seats_over_time(self, t: LoadedTable) -> list[dict]:
        """Who played each seat from which action; no id of a member who was forgotten (their
        seat stays theirs to play while the game runs, under "a former member")."""
        forgotten = set(t.row.meta.get(FORGOTTEN, ()))
        return [
            {
                "seat": h.seat,
                "name": h.name,
                "user_id": h.user_id if h.user_id > 0 and h.user_id not in forgotten else None,
                "automatic": h.automatic,
                "from_action": h.from_step + 1,
                "at": h.at,
                "reason": h.reason,
            }
            for h in await self.store.get_seat_history(t.row.channel_id)
        ]

    async def import_record(
        self, channel_id: int, guild_id: int | None, user_id: int, name: str, record: dict
    ) -> Outbox:
        """A new table here continues an exported game: the record is replayed and checked,
        the importer becomes host, and the game waits (paused) until every seat is filled."""
        try:
            check_format(record)
        except ReplayError as exc:
            raise TableError(f"That file cannot be imported: {exc}") from None
        if record.get("status") == "abandoned":
            raise TableError(
                "That record is of an abandoned game; an abandoned game cannot be continued "
                "(its secrets stay secret)."
            )
        try:
            rec = Record.model_validate(record)
        except ValidationError as exc:
            raise TableError(f"That file is not a game record: {first_error(exc)}") from None
        if not SEED_MIN <= rec.seed <= SEED_MAX:
            raise TableError(
                "That record's seed is out of range: a table's seed is a whole number "
                f"from {SEED_MIN} to {SEED_MAX}."
            )
        names = record.get("names", {})
        if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
            raise TableError("That file is not a game record: names must map each seat to a player's name.")
        try:
            g = games.get(rec.game)
        except GameError as exc:
            raise TableError(str(exc)) from None
        wrong = options_problem(g, rec.options)
        if wrong is not None:
            raise TableError(wrong)
        checked = replay(g, rec)
        if not checked.ok:
            raise TableError(f"That record does not replay: {checked.message}")
        now = self.clock()
        state = g.setup(list(rec.seats), g.Options.model_validate(rec.options), rec.seed)
        action_rows, event_rows = [], []
        for i, entry in enumerate(rec.actions):
            applied = g.step(state, entry.seat, g.parse_action(entry.action))
            action_rows.append(
                ActionRow(channel_id, i, entry.seat, None, json.dumps(entry.action), now, applied.undoable)
            )
            event_rows += [EventRow(channel_id, i, e.audience, e.kind, e.text, now) for e in applied.events]
            state = applied.state
        if (over := g.outcome(state)) is not None:
            raise TableError(f"That game is over ({over.reason}); there is nothing to continue.")
        row = TableRow(
            channel_id=channel_id,
            guild_id=guild_id,
            game=g.id,
            host_id=user_id,
            status="paused",
            options=dict(rec.options),
            settings=self.default_settings.to_json(),
            state=state.model_dump_json(),
            seed=rec.seed,
            created_at=now,
            updated_at=now,
            meta={"imported": True},
        )
        async with self.access.lock(channel_id):
            try:
                # one transaction; who played before the export stays in the record
                await self.store.create_table(row, [], actions=action_rows, events=event_rows)
            except TableExists:
                raise TableError("This channel already has a table. Import into another channel.") from None
            note_saved(channel_id)
            t = await self.access.load(channel_id, fresh=True)
        labels = ", ".join(
            f"{t.label(s)}" + (f" (was {escape(names[s])})" if s in names else "") for s in started_state(t).seats
        )
        out = Outbox(channel_id=channel_id, status=self.posts.status(t))
        out.posts.append(
            Post(
                to="channel",
                kind="notice",
                text=f"{escape(name)} imported a game of **{g.title}** ({len(action_rows)} actions, checked by replay). "
                f"Seats to fill: {labels}. Take one with /game join (preference: the nation); "
                "the host can /game substitute or /game bot, then /game resume.",
            )
        )
        out.reply = "Imported; you are the host."
        return out

    # -- publishing ------------------------------------------------------------------------
    async def publish(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        """After the end, the whole history including every private event (hands, secret
        orders) goes to the channel. Refused before the end."""

        async def run(t: LoadedTable) -> Outbox:
            host_only(t, user_id, admin, "publish the history")
            if t.row.status != "finished":
                raise TableError(
                    "The full history, with hands and secret orders, can be published only after the game ends."
                    if t.row.status != "abandoned"
                    else OVER + " An abandoned game's secrets stay secret."
                )
            events = await self.store.get_all_events(channel_id)
            lines = [f"**{t.game.title}**: the full history (every private line included)"]
            for e in events:
                to = f"[to {t.label(e.audience)}] " if e.audience else ""
                lines.append(f"{to}{e.text}")
            lines += pacts_published(t)  # every pact, after the log (bot/service/diplomacy.py)
            out = Outbox(channel_id=channel_id, reply="Published.")
            for chunk in split_message("\n".join(lines), POST_CHARS):
                out.posts.append(Post(to="channel", kind="history", text=chunk))
            # stored with its outbox: the final board and chart it carries are drawn from the row
            await self.access.save(t, row=replace(t.row, meta={**t.row.meta, "published": True}), outbox=out)
            return out

        return await self.access.with_table(channel_id, run)


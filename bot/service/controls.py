"""Controls for long games: pause and resume, substitutes, automatic seats, standing
orders, undo, talks.

`Controls` owns who may change how a running table is played and the table `meta` those
changes keep (votes, substitute requests, standing orders). Every public method
runs under the table's lock through `TableAccess.with_table` and saves in one
transaction. It plays actions only through `Play` (the automatic moves a change calls
for) and never expires a deadline (`Deadlines`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from engine.core import Game, GameError, GameState
from engine.core.words import counted

from ..process.logsafe import log_game_failure
from ..render import escape, seat_list
from ..render.rich import Rich, Text
from ..store import SeatHistoryRow, SeatRow
from .errors import NOT_SEATED, OVER, TableError, host_only
from .gallery import setup_again
from .loaded import started_state
from .outbox import Outbox, Post
from .phases import deadlines_after, phase_seconds, reminder_times
from .play import automatic_row, order_text

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess
    from .play import Play
    from .posts import Posts

log = logging.getLogger(__name__)

BRIEFING_EVENTS = 8  # public events a substitute's briefing recalls


def _shown(text: str, limit: int = 40) -> str:
    """What a refusal echoes of a member's text: enough to recognise, never a wall; escaped."""
    return escape(text if len(text) <= limit else text[:limit]) + ("…" if len(text) > limit else "")


class Controls:
    """Pause, resume, substitutes, automatic seats, standing orders, undo, talks."""

    def __init__(self, access: TableAccess, play: Play, posts: Posts, clock: Callable[[], float]) -> None:
        self.access = access
        self.store = access.store
        self.play = play
        self.posts = posts
        self.clock = clock

    # -- pause and resume ------------------------------------------------------------------
    async def pause(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        """The host or a manager pauses at once; a seated player's call is a vote, and a
        majority of the seated members pauses. Running deadlines freeze their time left."""

        async def run(t: LoadedTable) -> Outbox:
            if t.row.status != "running":
                raise TableError(
                    "Only a running game can be paused."
                    if t.row.status != "paused"
                    else "The game is already paused."
                )
            now_ok, voter = self._vote(t, user_id, admin, "pause_votes")
            if not now_ok:
                return await self._vote_counted(t, user_id, "pause", voter)
            meta = {k: v for k, v in t.row.meta.items() if k not in ("pause_votes", "resume_votes")}
            meta["paused_at"] = self.clock()
            row = replace(t.row, status="paused", meta=meta)
            text = f"{self._caller_name(t, user_id)} paused the game; the deadlines are frozen. /game resume continues it."
            # written from the table as it will be saved, and saved with it
            out = self._tell_everyone(t.replaced(row=row), text, reply="The game is paused.")
            await self.access.save(t, row=row, outbox=out)
            return out

        return await self.access.with_table(channel_id, run)

    async def resume(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        """Un-pause (host, manager, or a majority of seated members). A game paused with
        /game pause gets back exactly the time its deadlines had left; one paused because
        time ran out gets fresh full deadlines."""

        async def run(t: LoadedTable) -> Outbox:
            if t.row.status != "paused":
                raise TableError("The game is not paused.")
            empty = t.free_seats()
            if empty:
                raise TableError(
                    "Seats still empty: "
                    + ", ".join(t.label(s) for s in empty)
                    + ". Fill them with /game join, /game substitute or /game bot first."
                )
            now_ok, voter = self._vote(t, user_id, admin, "resume_votes")
            if not now_ok:
                return await self._vote_counted(t, user_id, "resume", voter)
            now = self.clock()
            settings, prompts = t.settings, t.prompts
            paused_at = t.row.meta.get("paused_at")
            deadlines = []
            for d in t.deadlines:
                if paused_at is not None:  # frozen by /game pause: the same time left
                    frozen = now - paused_at
                    deadlines.append(
                        replace(d, due_at=d.due_at + frozen, reminders=[r + frozen for r in d.reminders])
                    )
                    continue
                length = phase_seconds(settings, prompts, d.phase)
                deadlines.append(
                    replace(
                        d,
                        due_at=now + length,
                        reminders=reminder_times(settings, now, now + length),
                        reminders_sent=[],
                        extended=False,
                    )
                )
            meta = {
                k: v
                for k, v in t.row.meta.items()
                if k not in ("paused_at", "pause_votes", "resume_votes", "deferred")
            }
            # phases with no deadline yet (an imported game) get one now
            deadlines, opened, _ = deadlines_after(t.replaced(deadlines=deadlines), prompts, now)
            row = replace(t.row, status="running", meta=meta)
            saving = t.replaced(row=row, deadlines=deadlines)  # what it says is saved with it
            resumes = Rich.of("The game resumes.", self.posts.due_text(saving))
            out = self._tell_everyone(saving, resumes, reply="The game resumes.")
            self.posts.thread_changes(out, opened, [])
            t = await self.access.save(t, row=row, deadlines=deadlines, outbox=out)
            t = await self.play.autoplay(t, out)
            out.status = self.posts.status(t)
            return out

        return await self.access.with_table(channel_id, run)

    async def _vote_counted(self, t: LoadedTable, user_id: int, verb: str, voter: list[int]) -> Outbox:
        """Record a member's vote to pause or resume that is not yet a majority, and say so."""
        t = await self.access.save(t, row=replace(t.row, meta={**t.row.meta, f"{verb}_votes": voter}))
        need = _majority(t) - len(voter)
        out = Outbox(
            channel_id=t.row.channel_id, reply=f"Your vote to {verb} is counted; {need} more needed."
        )
        out.posts.append(
            Post(
                to="channel",
                kind="notice",
                text=f"{self._caller_name(t, user_id)} asks to {verb} the game "
                f"({len(voter)} of {_majority(t)} votes needed; /game {verb} to agree).",
            )
        )
        return out

    def _vote(self, t: LoadedTable, user_id: int, admin: bool, key: str) -> tuple[bool, list[int]]:
        """(act now?, the votes so far). The host and managers act at once."""
        if user_id == t.row.host_id or admin:
            return True, []
        me = t.seat_of(user_id)
        if me is None or me.automatic:
            raise TableError(
                f"Only the host ({self.posts.host_name(t)}), a server manager or a seated player can do that."
            )
        votes = sorted({*t.row.meta.get(key, []), user_id})
        return len(votes) >= _majority(t), votes

    def _tell_everyone(self, t: LoadedTable, text: Text, *, reply: str) -> Outbox:
        """A notice in the channel and to each seated member privately."""
        out = Outbox(channel_id=t.row.channel_id, reply=reply)
        out.posts.append(Post(to="channel", kind="notice", text=text))
        for s in t.seats:
            if s.automatic or s.user_id <= 0:
                continue
            out.posts.append(
                Post(
                    to="seat",
                    seat=s.seat,
                    user_id=s.user_id,
                    dm=True,
                    kind="notice",
                    text=Rich.of(f"**{t.game.title}**: ", text),
                )
            )
        out.status = self.posts.status(t)
        return out

    def _caller_name(self, t: LoadedTable, user_id: int) -> str:
        me = t.seat_of(user_id)
        return escape(me.name) if me else "A server manager"

    # -- substitutes -----------------------------------------------------------------------
    async def substitute(
        self,
        channel_id: int,
        user_id: int,
        seat: str,
        new_user_id: int,
        new_name: str,
        *,
        admin: bool = False,
    ) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
            host_only(t, user_id, admin, "hand a seat to someone else")
            step = self._started(t).step
            target = self._resolve_seat(t, seat)
            if any(s.user_id == new_user_id for s in t.seats):
                raise TableError(f"{escape(new_name)} already holds a seat at this table.")
            old = t.holder(target)
            now = self.clock()
            new = SeatRow(
                channel_id,
                new_user_id,
                new_name,
                position=old.position if old else max((s.position for s in t.seats), default=0) + 1,
                seat=target,
                joined_at=now,
            )
            seats = sorted([s for s in t.seats if s.seat != target] + [new], key=lambda s: s.position)
            meta = dict(t.row.meta)
            meta["substitute_requests"] = [
                u for u in meta.get("substitute_requests", []) if old is None or u != old.user_id
            ]
            history = [
                SeatHistoryRow(
                    channel_id, target, new_user_id, new_name, step, now, False, "substitute"
                )
            ]
            t = await self.access.save(t, row=replace(t.row, meta=meta), seats=seats, history=history)
            await self.access.preferences.load(t.seats)
            label = t.label(target)
            before = (
                f" from {escape(old.name)}"
                if old and not old.automatic
                else (" from automatic play" if old else "")
            )
            out = Outbox(channel_id=channel_id, reply=f"{escape(new_name)} now plays {label}.")
            out.posts.append(
                Post(
                    to="channel",
                    kind="notice",
                    text=f"{escape(new_name)} takes over {label}{before} (from action {step + 1} on).",
                )
            )
            recent = await self.store.get_events(channel_id, limit=BRIEFING_EVENTS)
            lines: list[Text] = [f"**{t.game.title}**: you now play **{label}**{before}.", self.posts.private_text(t, target)]
            if recent:
                lines.append("Latest public events:\n" + "\n".join(e.text for e in reversed(recent)))
            out.posts.append(
                Post(
                    to="seat",
                    seat=target,
                    user_id=new_user_id,
                    dm=True,
                    kind="briefing",
                    text=Rich.join("\n", lines),
                )
            )
            out.status = self.posts.status(t)
            return out

        return await self.access.with_table(channel_id, run)

    async def request_substitute(self, channel_id: int, user_id: int) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
            self._started(t)
            me = t.seat_of(user_id)
            if me is None or me.seat is None:
                raise TableError(NOT_SEATED)
            meta = dict(t.row.meta)
            meta["substitute_requests"] = sorted({*meta.get("substitute_requests", []), user_id})
            t = await self.access.save(t, row=replace(t.row, meta=meta))
            out = Outbox(channel_id=channel_id, reply="The host is asked to find someone to take your seat.")
            text = (
                f"{escape(me.name)} asks to be replaced as {t.label(me.seat)}. The host can "
                "/game substitute (or /game bot for automatic play)."
            )
            out.posts.append(Post(to="channel", kind="notice", text=text))
            host = t.seat_of(t.row.host_id)
            if host is not None and host.seat is not None and host.user_id != user_id:
                out.posts.append(
                    Post(to="seat", seat=host.seat, user_id=host.user_id, dm=True, kind="notice", text=text)
                )
            return out

        return await self.access.with_table(channel_id, run)

    # -- automatic seats ---------------------------------------------------------------------
    async def set_automatic(
        self, channel_id: int, user_id: int, seat: str | None, on: bool, *, admin: bool = False
    ) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
            host_only(t, user_id, admin, "set automatic seats")
            if t.row.status in ("finished", "abandoned"):
                raise TableError(OVER)
            out = Outbox(channel_id=channel_id)
            if t.row.status == "lobby":
                return await self._lobby_automatic(t, seat, on, out)
            if seat is None:
                raise TableError("Name the seat to play automatically (its nation or its player).")
            target = self._resolve_seat(t, seat)
            holder = t.holder(target)
            now, step = self.clock(), started_state(t).step
            label = t.label(target)
            if on:
                if holder is not None and holder.automatic:
                    raise TableError(f"{label} is already played automatically.")
                row = replace(holder, automatic=True) if holder else automatic_row(t, t.seats, target, self.clock())
                seats = [s for s in t.seats if s.seat != target] + [row]
                text = (
                    f"{label} is now played automatically until a member takes it over with /game substitute."
                )
            else:
                if holder is None or not holder.automatic:
                    raise TableError(f"{label} is not played automatically.")
                if holder.user_id <= 0:
                    raise TableError(f"No member holds {label}; hand it to one with /game substitute.")
                row = replace(holder, automatic=False)
                seats = [s if s.seat != target else row for s in t.seats]
                text = f"{escape(holder.name)} plays {label} again."
            seats.sort(key=lambda s: s.position)
            history = [
                SeatHistoryRow(
                    channel_id, target, row.user_id, row.name, step, now, on, "automatic" if on else "back"
                )
            ]
            t = await self.access.save(t, seats=seats, history=history)
            out.posts.append(Post(to="channel", kind="notice", text=text))
            out.reply = text
            t = await self.play.autoplay(t, out)
            out.status = self.posts.status(t)
            return out

        return await self.access.with_table(channel_id, run)

    async def _lobby_automatic(self, t: LoadedTable, seat: str | None, on: bool, out: Outbox) -> Outbox:
        if on:
            if seat is not None:
                raise TableError(
                    "In the lobby, /game bot adds an automatic player to an empty seat; name no seat."
                )
            if len(t.seats) >= t.game.max_players:
                raise TableError(f"The table is full ({t.game.max_players} players).")
            row = automatic_row(t, t.seats, None, self.clock())
            t = await self.access.save(t, seats=[*t.seats, row])
            text = f"{escape(row.name)} (automatic) takes a seat. ({len(t.seats)} seated)"
        else:
            wanted = (seat or "").strip().casefold()
            leaving = next(
                (s for s in t.seats if s.automatic and (not wanted or s.name.casefold() == wanted)), None
            )
            if leaving is None:
                raise TableError("There is no such automatic player in the lobby.")
            t = await self.access.save(t, seats=[s for s in t.seats if s.user_id != leaving.user_id])
            text = f"{escape(leaving.name)} (automatic) leaves the table."
        out.posts.append(Post(to="channel", kind="notice", text=text))
        out.reply = text
        out.status = self.posts.status(t)
        out.lobby_changed = True  # a seat taken or freed: the lobby channel's entry shows it
        return out

    # -- standing orders ----------------------------------------------------------------------
    async def standing(
        self, channel_id: int, user_id: int, order: str | None = None, withdraw: bool = False
    ) -> Outbox:
        """List, give or withdraw the caller's standing orders; every reply is private."""

        async def run(t: LoadedTable) -> Outbox:
            me = t.seat_of(user_id)
            if me is None or me.seat is None or t.state is None:
                raise TableError(NOT_SEATED if me is None else "The game has not started yet.")
            g, seat = t.game, me.seat
            if not g.standing_orders:
                raise TableError(f"{g.title} has no standing orders.")
            out = Outbox(channel_id=channel_id)
            everyone = dict(t.row.meta.get("standing") or {})
            mine = {
                name: scope
                for name, scope in (everyone.get(seat) or {}).items()
                if g.standing_scope(t.state, seat, name) == scope
            }
            if order is None or not order.strip():
                out.reply = _standing_text(g, mine)
                return out
            word, _, arg = order.strip().partition(" ")
            word = word.lower().replace("-", "_")
            if word in {o.name for o in g.standing_orders if o.takes_text}:
                name = f"{word} {arg.strip()}".strip()  # an order that carries the player's words
            else:
                name = order.strip().lower().replace(" ", "_").replace("-", "_")
            if name.split(" ")[0] not in {o.name for o in g.standing_orders}:
                names = ", ".join(f"`{o.name}` ({o.text})" for o in g.standing_orders)
                raise TableError(
                    f"{g.title} has no standing order '{_shown(order.strip())}'. Standing orders: {names}."
                )
            if withdraw:
                name = next((n for n in mine if n.split(" ")[0] == name.split(" ")[0]), name)
                if name not in mine:
                    raise TableError(f"You have no standing order to {order_text(g, name)}.")
                del mine[name]
                reply = f"Withdrawn: {order_text(g, name)}."
            else:
                scope = g.standing_scope(t.state, seat, name)
                if scope is None:
                    raise TableError(f"A standing order to {order_text(g, name)} cannot be given now.")
                mine = {n: v for n, v in mine.items() if n.split(" ")[0] != name.split(" ")[0] or n == name}
                mine[name] = scope
                reply = (
                    f"Standing order noted (only you see it): {order_text(g, name)}. It is applied the moment "
                    f"the decision comes to you; withdraw it with /game standing order:{name.split(' ')[0]} "
                    "withdraw:True."
                )
            everyone[seat] = mine
            t = await self.access.save(t, row=replace(t.row, meta={**t.row.meta, "standing": everyone}))
            if t.row.status == "running":
                t = await self.play.autoplay(t, out)
            out.reply = reply
            out.status = self.posts.status(t)
            return out

        return await self.access.with_table(channel_id, run)

    # -- undo ------------------------------------------------------------------------------
    async def undo(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        """Take back the last action (with the automatic moves that followed it) if none
        of them used randomness or revealed anything. Rebuilt by replaying the log."""

        async def run(t: LoadedTable) -> Outbox:
            host_only(t, user_id, admin, "undo")
            if t.row.status in ("finished", "abandoned"):
                raise TableError("The game is over (and its seed revealed); nothing can be taken back.")
            current = self._started(t)
            actions = await self.store.get_actions(channel_id)
            if not actions:
                raise TableError("There is nothing to undo.")
            auto = {s.seat for s in t.seats if s.automatic}
            k = len(actions) - 1
            while k > 0 and actions[k].seat in auto:
                k -= 1
            g = t.game
            try:
                before, state = self._replay_for_undo(t, actions, k)
            except (GameError, ValidationError):
                # the game's words may name another seat's hidden facts: the host sees none
                log_game_failure(log, "undo: the action log of channel %s does not replay", channel_id)
                raise TableError(
                    "Cannot undo: the action log does not replay; the details are in the bot's log."
                ) from None
            last = actions[k]
            if state.model_dump_json() != current.model_dump_json():
                raise TableError("Cannot undo: the action log does not rebuild the current state.")
            now = self.clock()
            prompts = g.prompts(before)
            deadlines, opened, closed = deadlines_after(t.replaced(state=before), prompts, now)
            t2 = await self.access.save(
                t,
                state=before,
                deadlines=deadlines,
                prompts=prompts,
                truncate_from=last.idx,
            )
            extra = f" and {counted(len(actions) - k - 1, 'automatic move')} after it" if len(actions) - k > 1 else ""
            text = f"{self._caller_name(t2, user_id)} took back {t2.who_as(last.seat)}'s last action{extra}."
            out = Outbox(channel_id=channel_id, reply="Undone.")
            out.posts.append(Post(to="channel", kind="notice", text=text))
            self.posts.prompt_posts(t2, out, [], [p for p in prompts if p.seat == last.seat])
            self.posts.thread_changes(out, opened, closed)
            out.status = self.posts.status(t2)
            return out

        return await self.access.with_table(channel_id, run)

    def _replay_for_undo(self, t: LoadedTable, actions: list, k: int) -> tuple[Any, Any]:
        """(the state before action k, the state after the last), from setup; TableError
        if any action from k on used chance or revealed something."""
        g = t.game
        state = setup_again(t)
        for a in actions[:k]:
            state = g.step(state, a.seat, g.parse_action(_json(a.action))).state
        before = state
        for a in actions[k:]:
            applied = g.step(state, a.seat, g.parse_action(_json(a.action)))
            who = (
                "the last action" if a is actions[k] else f"the automatic move for {t.label(a.seat)} after it"
            )
            if applied.used_randomness:
                raise TableError(f"Cannot undo: {who} used chance (it rolled dice or drew a card).")
            if applied.revealed:
                raise TableError(f"Cannot undo: {who} revealed hidden information.")
            state = applied.state
        return before, state

    # -- talks -----------------------------------------------------------------------------
    async def talk(self, channel_id: int, user_id: int, names: list[str]) -> list[int]:
        """The members to add to a private negotiation thread: the caller and the seated
        players named (by name, mention or nation)."""
        t = await self.access.load(channel_id)
        if t.row.status in ("finished", "abandoned"):
            raise TableError(OVER)
        me = t.seat_of(user_id)
        if me is None or me.automatic:
            raise TableError(NOT_SEATED)
        chosen: list[int] = [user_id]
        for name in names:
            name = name.strip()
            if not name:
                continue
            row = self._resolve_member(t, name)
            if row.automatic:
                raise TableError(f"{escape(row.name)} is played automatically; there is no one to talk to.")
            if row.user_id not in chosen:
                chosen.append(row.user_id)
        if len(chosen) < 2:
            raise TableError("Name at least one other seated player to talk with.")
        return chosen

    # -- finding seats and checking who may ------------------------------------------------
    def _resolve_member(self, t: LoadedTable, text: str) -> SeatRow:
        digits = text  # a member picked in Discord comes as their id (bot/discord/markup.py)
        if digits.isascii() and digits.isdigit():
            if len(digits) > 20:  # a Discord id has at most 20 digits
                raise TableError(f"No seated player has the id {_shown(digits)}.")
            uid = int(digits)
            row = t.seat_of(uid)
            if row is None:
                raise TableError("That member is not seated at this table.")
            return row
        want = text.casefold()
        row = next((s for s in t.seats if s.name.casefold() == want), None)
        if row is None and t.state is not None:
            seat = next((s.seat for s in t.seats if s.seat and want in t.label(s.seat).casefold()), None)
            row = t.holder(seat) if seat else None
        if row is None:
            raise TableError(
                f"No seated player is called '{_shown(text)}'. Seated: {', '.join(escape(s.name) for s in t.seats)}."
            )
        return row

    def _resolve_seat(self, t: LoadedTable, text: str) -> str:
        """An engine seat from its id, its label (nation) or its holder's name or member id."""
        text = text.strip()
        seats = list(started_state(t).seats)
        if text in seats:
            return text
        want = text.casefold()
        exact = [s for s in seats if t.label(s).casefold() == want]
        if exact:
            return exact[0]
        held = next(
            (
                s.seat
                for s in t.seats
                if s.seat and (s.name.casefold() == want or text == str(s.user_id))
            ),
            None,
        )
        if held is not None:
            return held
        partial = [s for s in seats if want and want in t.label(s).casefold()]
        if len(partial) == 1:
            return partial[0]
        listing = seat_list([(t.who(s) if t.holder(s) else "(empty)", t.label(s)) for s in seats])
        raise TableError(f"Which seat is '{_shown(text)}'? Seats:\n{listing}")

    @staticmethod
    def _started(t: LoadedTable) -> GameState:
        """The state of a game that has started and is not over (else refused)."""
        state = started_state(t)
        if t.row.status in ("finished", "abandoned"):
            raise TableError(OVER)
        return state


def _majority(t: LoadedTable) -> int:
    members = sum(1 for s in t.seats if not s.automatic and s.user_id > 0)
    return members // 2 + 1


def _json(text: str) -> dict[str, Any]:
    return json.loads(text)


def _standing_text(game: Game, mine: dict[str, str]) -> str:
    given = "; ".join(order_text(game, n) for n in mine) or "none"
    offered = "\n".join(
        f"- `/game standing order:{o.name}`: {o.text}" + (f" (e.g. `{o.example}`)" if o.example else "")
        for o in game.standing_orders
    )
    return f"Your standing orders: {given}.\nYou can give:\n{offered}"

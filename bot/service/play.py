"""Playing actions: one step under the table's lock, and the decisions taken without
waiting for anyone (automatic seats, decisions with no real choice, standing orders).

`Play` owns the path of one action (parse, step, save, outbox, confirm) and the
automatic-seat loop (`autoplay`). It reaches tables through `TableAccess` and writes
texts through `Posts`; it does not decide when a phase expires (`Deadlines`) or who may
pause, substitute or undo (`Controls`).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from engine.core import Event, Game, GameState, IllegalAction, Prompt, rng_for

from ..process import metrics
from ..process.logsafe import log_game_failure
from ..render.rich import searchable
from ..store import ActionRow, EventRow, SeatRow, StaleWrite, StorageFull, StoreError
from .archive import archive_finished
from .automatic import AutomaticPlayers
from .errors import ENGINE_FAILED, NOT_SEATED, NOT_THIS_PHASE, OVER, PAUSED, TableError
from .limits import AUTO_CAP
from .loaded import LoadedTable, started_state
from .outbox import Outbox, Post, seat_post
from .pacts import pacts_passed
from .phases import deadlines_after, standing_in_order

if TYPE_CHECKING:
    from .gallery import Gallery
    from .loaded import TableAccess
    from .posts import Posts
    from .reviews import Reviews

log = logging.getLogger(__name__)

STALE_RELOADS = 3  # times `autoplay` reads the table afresh after another process saved it


class Play:
    """One action at a time, and the automatic moves that follow it."""

    reviews: Reviews | None = None  # told when a game ends (reviews.py); set by TableService

    def __init__(
        self,
        access: TableAccess,
        posts: Posts,
        automatic: AutomaticPlayers,
        clock: Callable[[], float],
        gallery: Gallery,
    ) -> None:
        self.access = access
        self.posts = posts
        self.automatic = automatic
        self.clock = clock
        self.gallery = gallery  # a step sends the table's spectators what is now old enough
        # tables whose automatic moves another process's saves cut short (`autoplay`)
        self.unsettled: set[int] = set()

    @staticmethod
    def acting_seat(t: LoadedTable, me: SeatRow | None) -> str:
        """The seat of the caller whose seat row is `me` (None: not seated), if they may act
        now; else the refusal a player understands. The one check of the turn on the way
        down (the engine's `step` keeps its own guard, for any caller)."""
        if t.row.status == "lobby":
            if me is None:
                raise TableError(NOT_SEATED)
            raise TableError("The game has not started yet; the host starts it with /game start.")
        if t.row.status in ("finished", "abandoned"):
            raise TableError(OVER)
        if me is None or me.seat is None:
            raise TableError(NOT_SEATED)
        if t.row.status == "paused":
            raise TableError(PAUSED + " The host can /game resume it.")
        prompts = t.prompts
        if not any(p.seat == me.seat for p in prompts):
            owing = "; ".join(f"{t.who(p.seat)} owes {t.game.owed(p)}" for p in prompts)
            reason = t.game.waiting_reason(t.state, me.seat) if t.state is not None and owing else ""
            if reason:  # the true reason: a secret choice already made, say
                raise TableError(f"{reason} Still to choose: {owing}.")
            raise TableError(f"It is not your turn: {owing}." if owing else OVER)
        return me.seat

    async def apply(self, t: LoadedTable, seat: str, user_id: int | None, action: Any) -> Outbox:
        """A member's action, then whatever automatic seats owe because of it."""
        t, out = await self.step(t, seat, user_id, action)
        await self.autoplay(t, out)
        return out

    # -- one step --------------------------------------------------------------------------
    async def step(
        self, t: LoadedTable, seat: str, user_id: int | None, action: Any, said: str = "", *, order: str | None = None
    ) -> tuple[LoadedTable, Outbox]:
        """Apply one action and save it with its events and deadlines in one transaction.
        `said`: the public line a decision without a real choice is taken with, logged first.
        `order`: the standing order the action applies; withdrawn in the same transaction
        if the seat still owes a decision of that phase (used up: a draft's next pick), so
        a stale later save can never leave it to be applied again.

        The action is played on a copy of the cached state (`Game.step`), so the table
        loaded stays as it was: if anything fails before the save succeeds, it is still the
        table as stored. Every step is timed for the operator's metrics, a refusal counted
        as one."""
        start = time.perf_counter()
        try:
            stepped = await self._step(t, seat, user_id, action, said, order)
        except TableError:
            metrics.observe_action(t.game.id, time.perf_counter() - start, refused=True)
            raise
        except StoreError:
            metrics.database_error("action")
            raise
        metrics.observe_action(t.game.id, time.perf_counter() - start, refused=False)
        return stepped

    async def _step(
        self, t: LoadedTable, seat: str, user_id: int | None, action: Any, said: str, order: str | None
    ) -> tuple[LoadedTable, Outbox]:
        g = t.game
        before = t.state  # the step plays on a copy: this stays the state before the action
        action, action_json = _parsed(g, action, t.prompts, seat)
        t, out, changes = await self._played_and_saved(t, seat, user_id, action, action_json, said, order)
        if changes["outcome"] is not None:  # the game is over: the server's archive and ratings learn it
            await archive_finished(self.access.store, t, self.clock())
            if self.reviews is not None:
                await self.reviews.begin(t)
        out.status = functools.partial(self.posts.status, t)  # written only if a front end reads it
        out.reply = g.confirm(before, seat, action, changes["applied_events"])
        return t, out

    async def _played_and_saved(
        self,
        t: LoadedTable,
        seat: str,
        user_id: int | None,
        action: Any,
        action_json: str,
        said: str,
        order: str | None = None,
    ) -> tuple[LoadedTable, Outbox, dict[str, Any]]:
        """The step on a copy of the state, saved with what it says (its outbox, stored in
        the same transaction)."""
        g, state = t.game, started_state(t)
        before, idx = t.prompts, state.step
        try:
            applied = g.step(state, seat, action, prompts=before)
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        state = applied.state
        events = [Event(kind="forced", text=said), *applied.events] if said else applied.events
        now = self.clock()
        after = g.prompts(state)
        outcome = g.outcome(state)
        deadlines, opened, closed = deadlines_after(t, after, now)
        channel_id = t.row.channel_id
        action_row = ActionRow(channel_id, idx, seat, user_id, action_json, now, applied.undoable)
        event_rows = [EventRow(channel_id, idx, e.audience, e.kind, e.text, now) for e in events]
        row, old_round, new_round = _row_after(t, state, outcome, deadlines)
        owed = {p.phase for p in before if p.seat == seat}
        if order is not None and any(p.seat == seat and p.phase in owed for p in after):
            row = replace(row, meta=_without_order(row.meta, seat, order))  # used up
        changes = {
            "after": after,
            "outcome": outcome,
            "opened": opened,
            "closed": closed,
            "old_round": old_round,
            "new_round": new_round,
            "applied_events": applied.events,
            # the game is over: a phase thread Discord opened is archived (the front end's row)
            "thread_open": outcome is not None and (await self.posts.front.of(t)).thread_id is not None,
        }
        # what the step says, read from the table as it will be saved, saved with it
        saving = LoadedTable(
            row, t.seats, deadlines, g, state,
            prompts=after, settings=t.known_settings(), holders=t.known_holders(),
        )
        out = self._step_outbox(saving, before, events, changes)
        row = await self.gallery.catch_up(saving, events, out, row)  # what each spectator is sent
        row = pacts_passed(saving, out, row)  # pacts whose `until` the step passed: ended, parties reminded
        t = await self.access.save(
            t,
            row=row,
            state=state,
            deadlines=deadlines,
            actions=[action_row],
            events=event_rows,
            prompts=after,
            outbox=out,
        )
        return t, out, changes

    def _step_outbox(
        self, t: LoadedTable, before: list[Prompt], events: list[Event], changes: dict[str, Any]
    ) -> Outbox:
        """What a saved step says: its events, new turn notices, thread changes, the end."""
        posts = self.posts
        out = Outbox(channel_id=t.row.channel_id)
        posts.event_posts(t, out, events)
        posts.prompt_posts(t, out, before, changes["after"])
        posts.thread_changes(out, changes["opened"], changes["closed"])
        old_round, new_round = changes["old_round"], changes["new_round"]
        if t.settings.round_threads and new_round != old_round:
            # a new Week or round: archive the last one's diplomacy thread, open the next
            out.close_thread = out.close_thread or old_round is not None
            if new_round:
                out.open_thread, out.open_thread_due = new_round, None  # a round has no one deadline
        outcome = changes["outcome"]
        if outcome is not None:
            # the game is over: its last thread is archived and no new one opens
            out.open_thread = out.open_thread_due = None
            out.close_thread = out.close_thread or changes["thread_open"]
            text = posts.standings(t, outcome)
            text += (
                f"\n\nSeed: `{t.row.seed}`. Every shuffle and roll came from it, and it matches the "
                "seed commitment posted when the game began: /game export gives the record that shows it."
            )
            out.posts.append(Post(to="channel", kind="standings", text=text))
        out.status = ""  # changed: the status the front end shows is set once the step is saved
        return out

    async def pause_for(self, t: LoadedTable, out: Outbox, why: str) -> LoadedTable:
        """Pause the table because play cannot go on by itself, saying why."""
        out.posts.append(
            Post(
                to="channel", kind="notice", text=f"{why}; the game is paused. The host can /game resume it."
            )
        )
        return await self.access.save(t, row=replace(t.row, status="paused"), outbox=out)

    # -- decisions taken without waiting ---------------------------------------------------
    async def autoplay(self, t: LoadedTable, out: Outbox) -> LoadedTable:
        """Decisions nobody need wait for, taken at once until a member owes a real one or
        the game ends: automatic seats play the table's automatic player (bot/service/automatic.py,
        seeded from the table seed and the step), and a decision with no real choice
        (`Game.forced_action`) is taken and said in one public line.

        Each move is its own save, after the change that called it was saved. Where other
        processes save the table too, one may save it between two of these moves: the
        moves already saved stand, with what they say, and the rest is worked out again
        from the stored table, read afresh (`STALE_RELOADS` times at most). What is owed
        is always read from the table, so nothing is played twice, and the caller's own
        change is never played again. If the table keeps changing under it, or the disk
        is full, it stops: the caller's answer stands, and the table waits in `unsettled`
        for the deadline loop's next tick (`settle`). Returns the table as last saved or read."""
        channel_id = t.row.channel_id
        taken: list[Prompt] = []  # decisions taken for their seat: no turn notice for them
        for reloads in range(STALE_RELOADS + 1):
            try:
                t = await self._autoplay(t, out, taken)
                break
            except StaleWrite:  # another process saved the table between two moves
                if reloads == STALE_RELOADS:
                    log.warning("automatic moves in channel %s left for the next tick: the table kept changing", channel_id)
                    self.unsettled.add(channel_id)
                t = await self.access.reload(channel_id)
            except StorageFull:
                log.error("the disk holding the database is full; automatic moves in channel %s wait", channel_id)
                self.unsettled.add(channel_id)
                t = await self.access.reload(channel_id)
                break
        if taken:
            _drop_stale_notices(t, out, taken)
        return t

    async def _autoplay(self, t: LoadedTable, out: Outbox, taken: list[Prompt]) -> LoadedTable:
        """The loop of `autoplay`, from the table `t` as loaded."""
        automatic = any(s.automatic for s in t.seats)
        for _ in range(AUTO_CAP):
            if t.row.status != "running" or t.state is None:
                break
            prompt, action, said, private, order = self._next_automatic(t, automatic)
            if prompt is None:
                break
            seat = prompt.seat
            if order is not None:
                t = await self._standing_order(t, out, prompt, action, private, order, taken)
                continue
            try:
                if action is None:
                    state = started_state(t)
                    action = await self.automatic.choose(
                        t.game, state, seat, rng_for(state.seed, state.step, "auto"),
                        t.settings.automatic_player,
                    )
                holder = t.holder(seat)
                by = holder.user_id if holder is not None and not said else None  # a forced one: nobody's
                t, step = await self.step(t, seat, by, action, said)  # `said` is logged with it
            except StoreError:
                raise
            except Exception:  # an engine whose automatic player fails must not lose the human's move
                log_game_failure(log, "automatic move failed in channel %s", t.row.channel_id)
                return await self.pause_for(
                    t, out, f"The automatic move for {t.who_as(seat)} failed ({ENGINE_FAILED})"
                )
            if private:
                seat_post(t, out, seat, private, kind="notice", dm=False)
            if said or private:
                taken.append(prompt)
            out.merge(step)
        return t

    async def settle(self) -> list[Outbox]:
        """The automatic moves `autoplay` left for later (`unsettled`), played now, each
        table under its lock from the stored table; what they say, per table."""
        outs = []
        for channel_id in list(self.unsettled):
            self.unsettled.discard(channel_id)
            out = Outbox(channel_id=channel_id)

            async def run(t: LoadedTable, out: Outbox = out) -> None:
                before = t.row.version
                t = await self.autoplay(t, out)
                if t.row.version != before:
                    out.status = functools.partial(self.posts.status, t)

            try:
                await self.access.with_table(channel_id, run)
            except TableError:  # the table is gone, or its database: nothing is owed here
                continue
            except Exception:  # one broken table must not stop the others' deadlines
                log.exception("automatic moves left for later failed in channel %s", channel_id)
                continue
            if out.posts or out.status_source is not None:
                outs.append(out)
        return outs

    async def _standing_order(
        self,
        t: LoadedTable,
        out: Outbox,
        prompt: Prompt,
        action: Any,
        private: str,
        order: str,
        taken: list[Prompt],
    ) -> LoadedTable:
        """A standing order applied the moment its decision comes; withdrawn once used up
        or if it is no longer legal."""
        seat = prompt.seat
        holder = t.holder(seat)
        try:
            t, step = await self.step(t, seat, holder.user_id if holder else None, action, order=order)
        except TableError as exc:  # no longer legal (a sheet the bidding made too dear)
            t = await self._drop_order(t, seat, order)
            seat_post(
                t,
                out,
                seat,
                f"Your standing order could not be applied ({exc}); it is withdrawn.",
                kind="notice",
                dm=False,
            )
            return t
        seat_post(t, out, seat, private, kind="notice", dm=False)
        taken.append(prompt)
        out.merge(step)
        return t

    def _next_automatic(
        self, t: LoadedTable, automatic: bool
    ) -> tuple[Prompt | None, Any, str, str, str | None]:
        """The next decision taken without waiting: (its prompt, the action or None for the
        automatic player's choice, the public line, the private line, the standing order
        used), or (None, None, "", "", None). A standing order is applied the moment its
        decision comes."""
        g, state = t.game, t.state
        standing = t.row.meta.get("standing") or {}
        for p in t.prompts:
            if automatic and (holder := t.holder(p.seat)) is not None and holder.automatic:
                return p, None, "", "", None
            forced = g.forced_action(state, p.seat)
            if forced is not None:
                return p, forced.action, forced.said, "", None
            orders = standing.get(p.seat)
            if not orders:  # most seats give none
                continue
            for name, scope in standing_in_order(g, orders):
                if g.standing_scope(state, p.seat, name) != scope:
                    continue  # lapsed: it was for an earlier turn or Week
                action = g.standing_action(state, p.seat, name)
                if action is not None:
                    return p, action, "", f"Your standing order was applied: {order_text(g, name)}.", name
        return None, None, "", "", None

    async def _drop_order(self, t: LoadedTable, seat: str, name: str) -> LoadedTable:
        return await self.access.save(t, row=replace(t.row, meta=_without_order(t.row.meta, seat, name)))


def _without_order(meta: dict[str, Any], seat: str, name: str) -> dict[str, Any]:
    """The table's meta with the seat's standing order `name` withdrawn."""
    everyone = dict(meta.get("standing") or {})
    everyone[seat] = {n: scope for n, scope in (everyone.get(seat) or {}).items() if n != name}
    return {**meta, "standing": everyone}


def automatic_row(t: LoadedTable, seats: list[SeatRow], seat: str | None, now: float) -> SeatRow:
    """A seat row no member holds: a negative user id, so it can never be a member's."""
    uid = min([0, *(s.user_id for s in seats)]) - 1
    return SeatRow(
        t.row.channel_id,
        uid,
        f"Automatic {-uid}",
        position=max((s.position for s in seats), default=0) + 1,
        seat=seat,
        joined_at=now,
        automatic=True,
    )


def order_text(game: Game, name: str) -> str:
    """A standing order in the game's words, with the player's own words if it carries any."""
    word, _, arg = name.partition(" ")
    text = next((o.text for o in game.standing_orders if o.name == word), word)
    return f"{text}: {arg}" if arg else text


def _parsed(g: Game, action: Any, before: list[Prompt], seat: str) -> tuple[Any, str]:
    """The action as a model, and its JSON as the action log stores it."""
    try:
        if isinstance(action, dict):
            action = g.parse_action(action)
        return action, action.model_dump_json()  # a quarter of the union's dump_json
    except ValidationError:
        owed = "; ".join(p.text for p in before if p.seat == seat)
        raise TableError(f"{NOT_THIS_PHASE} You owe: {owed}" if owed else NOT_THIS_PHASE) from None


def _row_after(t: LoadedTable, state: GameState, outcome: Any, deadlines: list) -> tuple[Any, Any, Any]:
    """The table row after a step: finished at the end, the round it is in (for round
    threads), reminders held back for quiet hours dropped with their phase. Returns (row,
    the round before, the round now)."""
    g = t.game
    row = replace(t.row, status="finished") if outcome is not None else t.row
    old_round, new_round = t.row.meta.get("round"), None
    if t.settings.round_threads:
        new_round = g.round_label(state) if outcome is None else None
        if new_round != old_round:
            row = replace(row, meta={**row.meta, "round": new_round})
    deferred = row.meta.get("deferred")
    if deferred and any(phase not in {d.phase for d in deadlines} for phase in deferred):
        # reminders held back for quiet hours die with their phase
        kept = {phase: v for phase, v in deferred.items() if any(d.phase == phase for d in deadlines)}
        row = replace(row, meta={**row.meta, "deferred": kept})
    return row, old_round, new_round


def _drop_stale_notices(t: LoadedTable, out: Outbox, taken: list[Prompt]) -> None:
    """Turn notices, in the same outbox, of decisions already taken for their seat."""

    def stale(post: Post) -> bool:
        if post.kind != "prompt":
            return False
        for p in taken:
            holder = t.holder(p.seat)
            mine = post.seat == p.seat or (
                holder is not None and post.seat is None and post.user_id == holder.user_id
            )
            said = searchable(post.text)
            if mine and (p.text in said or said.endswith(f": {p.kind}") or f": {p.kind} " in said):
                return True
        return False

    out.posts[:] = [post for post in out.posts if not stale(post)]

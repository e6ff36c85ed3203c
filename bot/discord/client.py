"""The Discord bot: commands registered and synced, the buttons re-attached, deadlines driven.

`create_bot(config, service)` builds it over any table service (tests hand it one over a
temporary database); `run_discord(config)` builds the store and service and connects.

This is the top of the adapter: it imports the command modules, the buttons and the
delivery, and none of them imports it. Their handlers see the bot only as a `host.Host`:
the service, the delivery, the ticker's poke and the channel lookups.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.process import metrics
from bot.process.runtime import CannotStart
from bot.service.scheduler import Scheduler
from bot.service.tables import TableService
from bot.store import open_store
from engine import games

from .announcements import Announcements
from .community_commands import CommunityGroup
from .delivery import Delivery
from .diplomacy_commands import DiplomacyGroup, PactAnswer
from .interact import APOLOGY_UNKNOWN, say
from .join_view import JoinAs, JoinTable
from .long_commands import TOP_LEVEL
from .play_commands import build_game_group
from .sheet_writer import SheetAmount, SheetDone, SheetEmbassy, WriteSheet
from .table_commands import GameGroup
from .views import ActBack, ActChoice, ActMenu, ActPick, FullStatus, LogPage, ShowMine

__all__ = ["ChancelleryBot", "Ticker", "create_bot", "run_discord", "stop_on_signals"]

log = logging.getLogger(__name__)

HEARTBEAT = 60.0  # seconds between heartbeats: the downtime after a crash is known to a minute
# discord.py's names of the tasks that run a command or a button: what is in flight
IN_FLIGHT = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-")
STOPPING = "The bot is restarting and takes no new commands for a moment; please try again in a minute."


class Ticker:
    """Drives `bot.service.scheduler.Scheduler` in Discord: tick and deliver, send the turn notices
    whose grace is over, sleep until the next of either.

    The sleep is a plain `asyncio.sleep` cut short by `poke` after every action (an action
    may set an earlier deadline), rather than the Scheduler's own capped wait on an Event:
    a sleep to the exact due time is what SimCord's `advance_time` can drive.
    """

    IDLE = 3600.0  # seconds between checks when nothing is scheduled; a safety net only
    RETRY = 60.0  # after a failed pass

    def __init__(self, service: Any, delivery: Delivery, clock: Callable[[], float]) -> None:
        self.scheduler = Scheduler(service, max_sleep=self.IDLE)
        self.delivery = delivery
        self.clock = clock
        self._sleep: asyncio.Future[None] | None = None
        self._poked = False
        self._stopping = False

    def stop(self) -> None:
        """End the loop after the pass under way (its deadlines delivered), or now if asleep."""
        self._stopping = True
        self.poke()

    async def run(self) -> None:
        while not self._stopping:
            self._poked = False
            delay = await self.run_due()
            notice = self.delivery.next_notice()
            if notice is not None:
                delay = min(delay, max(notice - self.clock(), 0.0))
            if self._poked or self._stopping:  # an action landed meanwhile: read again (or stop)
                continue
            self._sleep = asyncio.ensure_future(asyncio.sleep(delay))
            try:
                await self._sleep
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the bot is closing
            finally:
                self._sleep = None

    async def run_due(self) -> float:
        """Everything due now, including deadlines that passed while the bot was down;
        returns the seconds until the next deadline or reminder."""
        try:
            delay = await self.scheduler.run_once(self.delivery.deliver)
        except Exception:
            log.exception("deadline processing failed")
            delay = self.RETRY
        try:
            await self.delivery.send_notices(self.clock())
        except Exception:
            log.exception("could not send turn notices")
        try:  # posts Discord did not take before (or a run of the bot that died left)
            waiting = await self.delivery.pending.run_due()
        except Exception:
            log.exception("could not deliver the posts that wait")
            waiting = self.RETRY
        return delay if waiting is None else min(delay, waiting)

    def poke(self) -> None:
        self._poked = True
        if self._sleep is not None and not self._sleep.done():
            self._sleep.cancel()


class _Tree(app_commands.CommandTree["ChancelleryBot"]):
    """The bot's slash commands: their failures and its stopping are the bot's to answer."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await self.client._on_tree_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await self.client._accepting(interaction)


class ChancelleryBot(commands.Bot):
    """The bot over one table service; what its handlers use of it is `host.Host`."""

    def __init__(
        self, config: Any, service: TableService, *, clock: Callable[[], float] | None = None, **options: Any
    ) -> None:
        # No reply may ping @everyone, a role or a member unless a send names that member
        # (a mention-mode turn notice): replies echo what members typed.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), tree_cls=_Tree, **options
        )
        self.config = config
        self.service = service
        clock = clock or getattr(service, "clock", None) or time.time
        self.delivery = Delivery(self, service, clock)
        self.delivery.announce = Announcements(self, service, self.delivery).refresh  # the lobby channel
        self.ticker = Ticker(service, self.delivery, clock)
        self.delivery.pending.poke = self.poke  # posts released behind a channel's waiting ones
        self._ticker_task: asyncio.Task[None] | None = None
        self._heartbeat_task: asyncio.Task[None] | None = None
        self.heartbeat_seconds = float(getattr(config, "heartbeat_seconds", None) or HEARTBEAT)
        self.stopping = False
        self.connected = False  # the gateway, for /healthz
        self._count_api_errors()

    # -- health and shutdown hooks ---------------------------------------------------------
    async def on_ready(self) -> None:
        self.connected = True

    async def on_resumed(self) -> None:
        self.connected = True

    async def on_disconnect(self) -> None:
        self.connected = False

    def gateway_up(self) -> bool:
        return self.connected and not self.is_closed()

    def _count_api_errors(self) -> None:
        """Every Discord API call that fails is counted by its HTTP status (the metrics)."""
        request = self.http.request

        async def counted(*args: Any, **kwargs: Any) -> Any:
            try:
                return await request(*args, **kwargs)
            except discord.HTTPException as exc:
                metrics.discord_error(exc.status)
                raise

        self.http.request = counted  # type: ignore[method-assign]

    async def _accepting(self, interaction: discord.Interaction) -> bool:
        """While stopping, a new command is answered and not run."""
        if not self.stopping:
            return True
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, STOPPING)
        return False

    async def shutdown(self, grace: float) -> None:
        """Stop cleanly (SIGTERM, SIGINT): take no new commands, let the commands and the
        deadline pass under way finish and deliver, within `grace` seconds, then close
        (the turn notices still in their grace stay in the database for the next start)."""
        if self.stopping:
            return
        self.stopping = True
        log.info("stopping: finishing what is in flight (at most %.0f s)", grace)
        self.ticker.stop()
        current = asyncio.current_task()
        busy = [
            t
            for t in asyncio.all_tasks()
            if t is not current and not t.done() and t.get_name().startswith(IN_FLIGHT)
        ]
        if self._ticker_task is not None:
            busy.append(self._ticker_task)
        if busy:
            _, late = await asyncio.wait(busy, timeout=grace)
            if late:
                log.warning("stopping: %d commands or deliveries still running after %.0f s", len(late), grace)
        await self.close()

    def poke(self) -> None:
        """Wake the deadline ticker: the action just taken may have set an earlier deadline."""
        self.ticker.poke()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ShowMine, FullStatus, LogPage, ActChoice, ActPick, ActMenu, ActBack)
        self.add_dynamic_items(JoinTable, JoinAs)  # the Join buttons (join_view.py)
        self.add_dynamic_items(WriteSheet, SheetEmbassy, SheetAmount, SheetDone)  # sheet_writer.py
        self.tree.add_command(GameGroup())
        self.tree.add_command(CommunityGroup())  # the server's archive, ratings and directory
        self.tree.add_command(DiplomacyGroup())  # showing with the referee's word, pacts on record
        self.add_dynamic_items(PactAnswer)  # a proposed pact's Confirm and Decline, in DMs
        for command in TOP_LEVEL:
            self.tree.add_command(command)
        for game in games.all():
            if game.commands:  # a game still without commands has nothing to offer yet
                self.tree.add_command(build_game_group(game))
        guild_id = getattr(self.config, "dev_guild_id", None)
        if guild_id:
            guild = discord.Object(int(guild_id))
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        # Only the outage is measured before connecting (it reads the last heartbeat before
        # a new one overwrites it); its work, one notice and deadline shift per running table,
        # runs once connected, and the deadline loop starts only after it, so no deadline
        # the outage would expire at once fires before it is shifted.
        outage = await self.outage()
        self._heartbeat_task = asyncio.create_task(self.heartbeat(), name="chancellery-heartbeat")
        self._ticker_task = asyncio.create_task(self._recover_then_tick(outage), name="chancellery-deadlines")

    async def outage(self) -> Any:
        find = getattr(getattr(self.service, "deadlines", None), "outage", None)
        if find is None:
            return None
        try:
            return await find()
        except Exception:
            log.exception("could not read the last heartbeat after the restart")
            return None

    async def _recover_then_tick(self, outage: Any) -> None:
        await self.catch_up(outage)
        await self.ticker.run()

    async def catch_up(self, outage: Any) -> None:
        """What the last run left, once connected: its unsaid posts first, then the downtime
        notices, then the reviews of finished games it stopped before computing (they wait
        behind live decisions, so they may be queued at once)."""
        try:
            await self.delivery.pending.run_due()
        except Exception:
            log.exception("could not deliver the posts the last run left")
        if outage is not None:
            await self.recover(outage)
        reviews = getattr(self.service, "reviews", None)
        if reviews is not None:
            try:
                await reviews.resume()
            except Exception:
                log.exception("could not queue the reviews the last run left pending")

    async def recover(self, outage: Any = None) -> None:
        """Tell every running table how long the bot was down."""
        recover = getattr(getattr(self.service, "deadlines", None), "recover", None)
        if recover is None:
            return
        try:
            outboxes = await recover(outage)
        except Exception:
            log.exception("could not recover after the restart")
            return
        for outbox in outboxes:
            try:
                await self.delivery.deliver(outbox)
            except Exception:
                log.exception("could not post the downtime at table %s", outbox.channel_id)

    async def heartbeat(self) -> None:
        """Record that the bot is up, every minute: a restart measures its downtime from it."""
        beat = getattr(getattr(self.service, "deadlines", None), "heartbeat", None)
        if beat is None:
            return
        while True:
            try:
                await beat()
            except Exception:
                log.exception("could not record the heartbeat")
            await asyncio.sleep(self.heartbeat_seconds)

    async def close(self) -> None:
        for task in (self._ticker_task, self._heartbeat_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        # turn notices still in their grace are kept in the database: the next start sends
        # them when their grace is over (the player may have acted by then)
        await super().close()

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandInvokeError):
            log.error("command failed", exc_info=error.original)
        else:
            # not the error's text: a transformer's quotes what was typed (a secret order)
            log.warning("command refused: %s", type(error).__name__)
        text = (
            str(error)
            if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError)
            else APOLOGY_UNKNOWN  # raised outside run_refusable: whether a save came first is unknown
        )
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, text)


class ShardedChancelleryBot(ChancelleryBot, commands.AutoShardedBot):
    """The bot on some of Discord's shards (`shard_count`, `shard_ids`): one of several
    processes sharing one PostgreSQL database (README, "Running at scale")."""


def create_bot(config: Any, service: TableService) -> ChancelleryBot:
    count = getattr(config, "shard_count", None)
    if count is None:
        return ChancelleryBot(config, service)
    ids = list(getattr(config, "shard_ids", None) or range(count))
    return ShardedChancelleryBot(config, service, shard_count=count, shard_ids=ids)


def stop_on_signals(bot: ChancelleryBot, grace: float) -> None:
    """SIGTERM and SIGINT (`systemctl stop`, `docker stop`, Ctrl-C) stop `bot` cleanly with
    `ChancelleryBot.shutdown`, from the running event loop. Shared by `run_discord` and the
    test that signals a child bot (tests/operations/test_shutdown_discord.py)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.shutdown(grace)))


def run_discord(config: Any) -> None:
    """Open the database, build the table service and connect; returns when the bot stops."""

    async def main() -> None:
        from bot.tools.backup import ScheduledBackups

        store = await open_store(config.database)
        server = backups = service = None
        health = metrics.Health(metrics.database_probe(config.database), store=store, deadline_loop=True)
        try:
            defaults = config.table_defaults() if hasattr(config, "table_defaults") else None
            service = TableService(
                store,
                default_settings=defaults,
                shards=config.shards(),
                cache_size=config.table_cache,
                automatic_workers=config.automatic_workers,
            )
            async with create_bot(config, service) as bot:
                health.front_end = bot.gateway_up
                server = metrics.serve(config, health)
                backups = ScheduledBackups.from_config(config, config.database)
                stop_on_signals(bot, float(getattr(config, "shutdown_grace_seconds", 10.0)))
                await bot.start(config.token)
        except discord.LoginFailure:
            raise CannotStart(
                "Discord refused the token (DISCORD_TOKEN or `token` in config.toml); copy a fresh "
                "one from the Bot page at https://discord.com/developers/applications"
            ) from None
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            raise CannotStart(f"cannot reach Discord ({type(exc).__name__}: {str(exc) or 'timed out'})") from None
        finally:
            health.store_closing()
            if backups is not None:
                backups.stop(float(getattr(config, "shutdown_grace_seconds", 10.0)))
            if service is not None:
                service.close()  # the automatic players' worker processes
            if server is not None:
                server.close()
            await store.close()

    asyncio.run(main())

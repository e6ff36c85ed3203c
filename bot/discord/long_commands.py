"""`/game …` for long games: pause, substitutes, automatic seats, undo, the record,
notifications, publishing and private talks; and `/deadline`, the host's tools.

Each command is a thin parse over the table service (bot/service/tables.py); the service
decides who may do what and words the refusals. Added to `GameGroup` by
table_commands.py, and `TOP_LEVEL` to the command tree by the bot (client.py).
"""

from __future__ import annotations

import io
import json
import logging
import zoneinfo
from datetime import UTC, datetime
from functools import cache
from typing import Any, Literal

import discord
from discord import app_commands

from bot.service import verbs
from bot.service.community import file_name, game_title
from bot.service.errors import TableError
from bot.store.records import FORMAT, ReplayError, parse_json
from engine.core.words import counted

from .context import is_admin, table_channel_id
from .host import host
from .interact import answer_file, answer_outbox, answer_private, run_refusable, say
from .markup import typed_member

__all__ = ["COMMANDS", "ANYWHERE", "TOP_LEVEL"]

log = logging.getLogger(__name__)

# Commands about the caller or the games rather than a table: they also work in a DM with the bot.
ANYWHERE = frozenset({"mine", "notify", "card", "help"})
# /deadline hours:'s range, from the description both front ends read (bot/service/verbs.py)
DeadlineHours = app_commands.Range[float, verbs.DEADLINE_HOURS.min_value, verbs.DEADLINE_HOURS.max_value]
RECORD_LIMIT = 8 * 1024 * 1024  # bytes; a record is a few hundred KB even for a long game


async def _seat_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The table's seats as "France: alice" -> the engine seat id."""
    info = await host(interaction).service.table_info(await table_channel_id(interaction))
    if info is None:
        return []
    typed = current.casefold()
    out = []
    for s in info.seats:
        if s.seat is None:
            continue
        shown = f"{s.label or s.seat}: {s.name}"
        if typed in shown.casefold() or typed in s.seat.casefold():
            out.append(app_commands.Choice(name=shown[:100], value=s.seat))
    return out[:25]


@cache
def _zones() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


async def _zone_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.casefold().replace(" ", "_")
    found = [z for z in _zones() if typed in z.casefold()]
    found.sort(
        key=lambda z: (
            not z.casefold().startswith(typed),
            not z.split("/")[-1].casefold().startswith(typed),
            z,
        )
    )
    return [app_commands.Choice(name=z, value=z) for z in found[:25]]


# ---------------------------------------------------------------------- pausing


@app_commands.command(name="pause", description="Pause the game (host, Manage Server, or a majority vote)")
async def pause(interaction: discord.Interaction) -> None:
    channel_id = await table_channel_id(interaction)
    service = host(interaction).service
    await answer_outbox(
        interaction, service.controls.pause(channel_id, interaction.user.id, admin=is_admin(interaction))
    )


@app_commands.command(
    name="resume", description="Resume a paused game (host, Manage Server, or a majority vote)"
)
async def resume(interaction: discord.Interaction) -> None:
    channel_id = await table_channel_id(interaction)
    service = host(interaction).service
    await answer_outbox(
        interaction, service.controls.resume(channel_id, interaction.user.id, admin=is_admin(interaction))
    )


# ---------------------------------------------------------------------- the host's tools


@app_commands.command(
    name="deadline",
    description="Host: move the current deadline, end the phase now, or nudge who still owes",
)
@app_commands.describe(
    hours="Move the deadline to this many hours from now, e.g. 12 or 0.5",
    end_now="End the phase now: the expiry setting applies to who still owes",
    nudge="Mention each player who still owes a decision, once",
)
async def deadline(
    interaction: discord.Interaction,
    hours: DeadlineHours | None = None,
    end_now: bool = False,
    nudge: bool = False,
) -> None:
    # Discord allows 25 commands in a group and /game has them, so the three host tools
    # share one command of its own, /deadline (docs/rulings.md, Platform 35).
    channel_id = await table_channel_id(interaction)
    service = host(interaction).service
    who, admin = interaction.user.id, is_admin(interaction)
    try:
        verbs.one_deadline_tool(hours, end_now, nudge)
    except TableError as exc:
        await say(interaction, str(exc))
        return
    if hours is not None:  # exactly one of the three was given (one_deadline_tool)
        work = service.deadlines.set_deadline(channel_id, who, hours, admin=admin)
    elif end_now:
        work = service.deadlines.end_phase(channel_id, who, admin=admin)
    else:
        work = service.deadlines.nudge(channel_id, who, admin=admin)
    await answer_outbox(interaction, work)


# ---------------------------------------------------------------------- seats


@app_commands.command(
    name="substitute",
    description="Hand a seat to another member (host), or ask to be replaced yourself (no options)",
)
@app_commands.describe(member="Who takes the seat over", seat="The seat to hand over")
@app_commands.autocomplete(seat=_seat_choices)
async def substitute(
    interaction: discord.Interaction, member: discord.Member | None = None, seat: str | None = None
) -> None:
    channel_id = await table_channel_id(interaction)
    service = host(interaction).service
    try:
        hand_over = verbs.substitute_asked(member is not None, seat is not None)
    except TableError as exc:
        await say(interaction, str(exc))
        return
    if not hand_over:
        await answer_outbox(interaction, service.controls.request_substitute(channel_id, interaction.user.id))
        return
    assert member is not None and seat is not None
    if member.bot:
        await say(interaction, "A bot cannot take a seat; use `/game bot` for an automatic seat.")
        return
    work = service.controls.substitute(
        channel_id, interaction.user.id, typed_member(seat), member.id, member.display_name, admin=is_admin(interaction)
    )
    await answer_outbox(interaction, work)


@app_commands.command(
    name="bot", description="Let the game's automatic player take a seat, or give it back (host)"
)
@app_commands.describe(
    on="On: the seat plays itself until a human substitutes; off: it waits for its player",
    seat="The seat (leave empty in the lobby to add an automatic player)",
)
@app_commands.autocomplete(seat=_seat_choices)
async def bot_seat(interaction: discord.Interaction, on: bool = True, seat: str | None = None) -> None:
    channel_id = await table_channel_id(interaction)
    work = host(interaction).service.controls.set_automatic(
        channel_id, interaction.user.id, typed_member(seat) if seat is not None else None, on, admin=is_admin(interaction)
    )
    await answer_outbox(interaction, work)


@app_commands.command(name="undo", description="Take back the last action if it revealed nothing (host)")
async def undo(interaction: discord.Interaction) -> None:
    channel_id = await table_channel_id(interaction)
    service = host(interaction).service
    await answer_outbox(
        interaction, service.controls.undo(channel_id, interaction.user.id, admin=is_admin(interaction))
    )


# ---------------------------------------------------------------------- the record


@app_commands.command(
    name="export",
    description="The game's record: JSON (the full record after the end), or html (a replay page)",
)
@app_commands.describe(
    format="json: the record (the public one before the end); html: a page replaying the finished game"
)
async def export(interaction: discord.Interaction, format: Literal["json", "html"] = "json") -> None:
    channel_id = await table_channel_id(interaction)
    service = host(interaction).service
    info = await service.table_info(channel_id)
    if info is None:
        await say(interaction, "There is no table in this channel.")
        return
    if format == "html":
        await _export_html(interaction, service, channel_id, info.game)
        return
    # The service gives the seed and the secret orders only once the game is finished;
    # before that (and for an abandoned game) anyone may have the public record.
    ok, record = await run_refusable(interaction, service.history.export(channel_id, interaction.user.id))
    if not ok:
        return
    data = json.dumps(record, indent=1, sort_keys=True).encode()
    finished = record.get("format") == FORMAT
    if finished:
        note = "The game's record, with the seed and every secret order. Check it with `chancellery replay FILE`."
    elif record.get("status") == "abandoned":
        note = "The public record of this abandoned game. Its secrets stay secret: no seed, no secret orders."
    else:
        note = (
            "The public record so far: what the channel saw, without the seed or any secret order. "
            "The full record, which `chancellery replay` checks, comes when the game ends."
        )
    await answer_file(interaction, note, data, _file_name(interaction, info.game, "json"), ephemeral=not finished)


async def _export_html(interaction: discord.Interaction, service: Any, channel_id: int, game_id: str) -> None:
    """The replay page, for everyone in the channel once the game is over (the service
    refuses it before the end, and keeps an abandoned game's secrets out of it)."""
    ok, page = await run_refusable(interaction, service.history.export_html(channel_id, interaction.user.id))
    if not ok:
        return
    note = (
        "The game replayed, step by step: open the file in any browser, on a phone too; it needs "
        "no network. Every hand, sheet and screen is behind a toggle per player."
    )
    filename = _file_name(interaction, game_id, "html")
    if not interaction.response.is_done():
        await answer_file(interaction, note, page, filename, ephemeral=False)
        return
    # the page took long enough that the answer was deferred, privately: the page still
    # goes to the channel, and the caller is told where it is
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):  # a command's channel takes messages
        await say(interaction, "The replay page cannot be posted in this channel.")
        return
    await channel.send(note, file=discord.File(io.BytesIO(page), filename=filename))
    await say(interaction, "The replay page is posted in the channel.")


def _file_name(interaction: discord.Interaction, game_id: str, ext: str) -> str:
    """An export's file named for people: game, channel, date ("Crisis-1914 #balkans 2026-12-06.html")."""
    name = getattr(interaction.channel, "name", "") or ""
    return file_name(game_title(game_id), name, interaction.created_at.timestamp(), ext)


@app_commands.command(
    name="import", description="Continue a game from its full record at a new table in this channel"
)
@app_commands.describe(record="A running game's full record (`chancellery export`, by whoever runs the bot)")
async def import_(interaction: discord.Interaction, record: discord.Attachment) -> None:
    if record.size > RECORD_LIMIT:
        await say(interaction, "That file is too large to be a game record.")
        return
    try:
        parsed = parse_json(await record.read())
    except ReplayError:  # not UTF-8, not JSON, or nested deeper than any record
        await say(interaction, "That file is not a JSON game record from `/game export`.")
        return
    except discord.HTTPException:
        await say(interaction, "That file could not be read from Discord; please try again.")
        return
    if not isinstance(parsed, dict):
        await say(interaction, "That file is not a JSON game record from `/game export`.")
        return
    work = host(interaction).service.history.import_record(
        interaction.channel_id or 0,  # a command always has its channel (as context.py reads it)
        interaction.guild_id,
        interaction.user.id,
        interaction.user.display_name,
        parsed,
    )
    await answer_outbox(interaction, work, new_status=True)


@app_commands.command(
    name="publish",
    description="Post the full history, hands and secret orders included (host, after the end)",
)
async def publish(interaction: discord.Interaction) -> None:
    channel_id = await table_channel_id(interaction)
    service = host(interaction).service
    await answer_outbox(
        interaction, service.history.publish(channel_id, interaction.user.id, admin=is_admin(interaction))
    )


# ---------------------------------------------------------------------- the player


@app_commands.command(
    name="notify", description="How you hear of your turns: DM or mention, time zone, quiet hours, a daily digest"
)
@app_commands.describe(
    mode="dm: a direct message; mention: a ping in the table's channel",
    timezone="Your time zone, e.g. Europe/Vienna",
    quiet_hours="Hours without reminders in your time zone, e.g. 22-07 (none to clear)",
    digest="One DM a day at this time in your time zone, e.g. 08:00, for all your tables (off to stop)",
)
@app_commands.autocomplete(timezone=_zone_choices)
async def notify(
    interaction: discord.Interaction,
    mode: Literal["dm", "mention"] | None = None,
    timezone: str | None = None,
    quiet_hours: str | None = None,
    digest: str | None = None,
) -> None:
    bot = host(interaction)

    async def work() -> str:
        said = await bot.service.notifications.set_notify(
            interaction.user.id, mode=mode, timezone=timezone, quiet_hours=quiet_hours, digest=digest
        )
        if mode == "dm":
            bot.delivery.reopened(interaction.user.id)
        if digest is not None:
            bot.poke()  # the digest may fall due before the deadline loop's next look
        return said

    await answer_private(interaction, work())


@app_commands.command(
    name="standing", description="Answer a decision before it reaches you (private; withdrawable until used)"
)
@app_commands.describe(
    order="The standing order, e.g. pass, no_attacks, keep (none: list yours and the game's)",
    withdraw="Withdraw this standing order instead of giving it",
)
async def standing(
    interaction: discord.Interaction, order: str | None = None, withdraw: bool = False
) -> None:
    channel_id = await table_channel_id(interaction)
    work = host(interaction).service.controls.standing(channel_id, interaction.user.id, order, withdraw)
    await answer_outbox(interaction, work)


@app_commands.command(
    name="session", description="List the table's live sessions, or schedule a weekly one (host)"
)
@app_commands.describe(
    day="Weekday of the session, e.g. Monday",
    time="Start time, 24-hour, e.g. 19:30",
    hours="How long it lasts (default 2)",
    timezone="Your time zone, e.g. Europe/Vienna (default UTC)",
    remove="Remove the session on that day and time instead",
)
async def session(
    interaction: discord.Interaction,
    day: str | None = None,
    time: str | None = None,
    hours: float = 2.0,
    timezone: str = "UTC",
    remove: bool = False,
) -> None:
    channel_id = await table_channel_id(interaction)
    work = host(interaction).service.sessions.session(
        channel_id,
        interaction.user.id,
        day,
        time,
        hours,
        timezone,
        remove=remove,
        admin=is_admin(interaction),
    )
    ok, result = await run_refusable(interaction, work)
    if not ok:
        return
    reply, upcoming = result
    if upcoming:
        made = await schedule_events(interaction.guild, interaction.channel, upcoming)
        if made:
            reply += f"\nDiscord will remind members: {counted(made, 'scheduled event')} created for the next weeks."
        else:
            reply += "\nI could not create Discord scheduled events here (do I have Manage Events?)."
    await say(interaction, reply)


async def schedule_events(guild: Any, channel: Any, upcoming: list[tuple[str, float, float]]) -> int:
    """Announce sessions as Discord scheduled events (external, naming the channel): the
    number created. A guild that refuses (no Manage Events) gets none, and the log says why."""
    if guild is None:
        return 0
    made = 0
    for name, begin, end in upcoming:
        try:
            await guild.create_scheduled_event(
                name=name[:100],
                start_time=datetime.fromtimestamp(begin, UTC),
                end_time=datetime.fromtimestamp(end, UTC),
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=f"#{getattr(channel, 'name', 'the game channel')}"[:100],
                description=f"A live session of the game in #{getattr(channel, 'name', '')}.",
            )
        except discord.HTTPException:
            log.warning("could not create a scheduled event in guild %s", guild.id, exc_info=True)
            break
        made += 1
    return made


@app_commands.command(name="mine", description="Every table you sit at: what you owe and when it is due")
async def mine(interaction: discord.Interaction) -> None:
    await answer_private(interaction, host(interaction).service.notifications.mine(interaction.user.id))


# ---------------------------------------------------------------------- talks


@app_commands.command(name="talk", description="A private thread with the seated players you name")
@app_commands.describe(player1="A seated player", player2="Another", player3="Another", player4="Another")
async def talk(
    interaction: discord.Interaction,
    player1: discord.Member,
    player2: discord.Member | None = None,
    player3: discord.Member | None = None,
    player4: discord.Member | None = None,
) -> None:
    channel_id = await table_channel_id(interaction)
    bot = host(interaction)
    named = [m for m in (player1, player2, player3, player4) if m is not None]
    if any(m.id == interaction.user.id for m in named):
        await say(interaction, "Name the other players; you are in the talk anyway.")
        return
    ok, user_ids = await run_refusable(
        interaction, bot.service.controls.talk(channel_id, interaction.user.id, [str(m.id) for m in named])
    )
    if not ok:
        return
    channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
    if not isinstance(channel, discord.TextChannel):  # a table's channel is one
        await say(interaction, "A private talk opens only from a table in a text channel.")
        return
    members = {m.id: m.display_name for m in named}
    title = "Talk: " + ", ".join(
        [
            interaction.user.display_name,
            *(members.get(u, str(u)) for u in user_ids if u != interaction.user.id),
        ]
    )
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)  # several calls follow
    try:
        thread = await channel.create_thread(
            name=title[:100], type=discord.ChannelType.private_thread, invitable=False
        )
        # Only these members: adding them is what lets them read a private thread.
        for user_id in dict.fromkeys([interaction.user.id, *user_ids]):
            await thread.add_user(discord.Object(user_id))
    except discord.HTTPException:
        log.warning("could not open a talk at table %s", channel_id, exc_info=True)
        await say(interaction, "I could not open a private thread here (do I have Create Private Threads?).")
        return
    await say(interaction, f"Your private talk: {thread.mention}. Only the players named there can read it.")


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    pause,
    resume,
    substitute,
    bot_seat,
    undo,
    export,
    import_,
    publish,
    notify,
    standing,
    session,
    mine,
    talk,
)

# Commands of their own, beside the /game group (which holds Discord's 25).
TOP_LEVEL: tuple[app_commands.Command[Any, ..., None], ...] = (deadline,)

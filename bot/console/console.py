"""The table service in a terminal (docs/architecture.md §6): `python -m bot console [--script FILE]`.

A line is `as <name> /<command> <option>:<value> …`, the grammar of the slash commands
(`as alice /game new game:origins`, `as bob /origins bid country:GER amount:3`); a value
with spaces is quoted. `wait <minutes>` moves the console clock and runs due deadlines;
`auto [n|all]` lets automatic players make the next decisions; `# …` is a comment. Public output is printed plain; everything private is labelled
`[private to <name>]`, line by line, so a transcript shows who saw what.
"""

from __future__ import annotations

import json
import math
import shlex
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from engine.core import did_you_mean

from ..render.pictures import Picture
from ..render.rich import Text
from ..service import reference
from ..service.outbox import Outbox
from ..service.shown import Shown
from ..service.tables import TableError, TableService
from ..service.verbs import one_deadline_tool, substitute_asked
from .community import LOBBY_CHANNEL, CommunityLines
from .diplomacy import DiplomacyLines
from .grammar import (
    COMMUNITY_VERBS,
    DIPLOMACY_VERBS,
    GAME_VERBS,
    HELP,
    ConsoleError,
    aliases,
    line_options,
    read_command_options,
    read_options,
    user_id_for,
)
from .words import Words

__all__ = ["run_console", "Console", "CHANNEL", "LOBBY_CHANNEL", "user_id_for"]

CHANNEL = 1  # the console's one table lives in "channel" 1
AUTO_CAP = 100_000  # `auto all` stops here even if a game never ends
MAX_WAIT_MINUTES = 10 * 365 * 24 * 60  # `wait` moves the clock at most ten years


class Console:
    def __init__(
        self, service: TableService, out: TextIO, as_user: str = "you", pictures: Path | None = None
    ):
        self.service = service
        self.out = out
        self.user = as_user
        self.pictures = pictures  # where the board pictures go (None: none are written)
        self._pictured: bytes | None = None
        self.names: dict[int, str] = {}
        self.offset = 0.0  # seconds `wait` has moved the clock
        self._last_status: Text | None = None
        base = service.clock
        service.set_clock(lambda: base() + self.offset)
        # the service's texts as printed: members by name, moments in words
        self.words = Words(lambda: service.clock(), self.names, {CHANNEL: "table", LOBBY_CHANNEL: "lobby"})
        self._game_verbs = {  # `/game <verb>`: the method that does it
            "new": self._new_table,
            "join": self._join,
            "leave": self._leave,
            "start": self._start,
            "status": self._status,
            "me": self._me,
            "log": self._log,
            "rules": self._rules,
            "card": self._card,
            "help": self._help_for,
            "settings": self._settings,
            "abandon": self._abandon,
            "pause": self._pause,
            "resume": self._resume,
            "deadline": self._deadline,
            "substitute": self._substitute,
            "bot": self._bot,
            "undo": self._undo,
            "export": self._export,
            "publish": self._publish,
            "notify": self._notify,
            "standing": self._standing,
            "session": self._session,
            "mine": self._mine,
        }
        assert set(self._game_verbs) == set(GAME_VERBS)
        self.community = CommunityLines(service, self.say, self.names, CHANNEL)
        self.diplomacy = DiplomacyLines(service, self.show, self.private, CHANNEL)

    # -- output ----------------------------------------------------------------------------
    def say(self, text: Text, label: str | None = None) -> None:
        for line in self.words(text).splitlines() or [""]:
            self.out.write(f"[{label}] {line}\n" if label else f"{line}\n")

    def private(self, name: str, text: Text) -> None:
        self.say(text, f"private to {name}")

    async def show(self, out: Outbox, caller: str | None = None) -> None:
        """Print an answer's outbox; stored first and deleted once printed, so what a
        console killed before printing it would have said is printed at its next start."""
        deliveries = self.service.deliveries
        await deliveries.keep(out)
        await self._print(out, caller)
        self.out.flush()  # written before it counts as said: a kill after `done` loses nothing
        await deliveries.done(out.kept_ids)

    async def said_late(self) -> None:
        """What the last run left unsaid (it stopped between a save and its print)."""
        for waiting in await self.service.deliveries.due(everything=True):
            for ids, outbox in waiting.parts:
                if outbox.status == "":  # the status changed: shown as the table is now
                    try:
                        outbox.status = await self.service.status(outbox.channel_id, None)  # the channel's own
                    except TableError:
                        outbox.status = None
                await self._print(outbox, None)
                self.out.flush()
                await self.service.deliveries.done(ids)

    async def _print(self, out: Outbox, caller: str | None) -> None:
        for post in out.posts:
            if post.to == "seat":
                who = self.names.get(post.user_id or -1) or await self._name_of(post.user_id, post.seat)
                self.private(who, post.text)
            elif post.to == "thread":
                self.say(post.text, "thread")
            else:
                self.say(post.text)
        if out.close_thread:
            self.say("(the phase thread is archived)")
        if out.open_thread:
            self.say(f"(thread opened: {out.open_thread})")
        if out.status and out.status != self._last_status:
            self._last_status = out.status
            self.say(out.status)
            await self.show_picture(shown=out.shown)
        if self.pictures is not None and any(p.kind == "standings" for p in out.posts):
            for picture in await self.service.final_pictures_of(CHANNEL, out.shown):
                self._write_picture(picture)
        if out.reply and caller:
            self.private(caller, out.reply)
        if out.lobby_changed:  # the lobby channel's entry and the watchers (bot/service/signups.py)
            await self.community.lobby_entry(out.channel_id)

    async def show_picture(self, reader: int | None = None, shown: Shown | None = None) -> None:
        """Write the board picture beside the status, once per picture, and say where: drawn
        from the board an action's save stored (`shown`), as the Discord adapter draws it,
        with no table read; else read for `reader` (as that member may see it, a spectator
        some rounds behind)."""
        if self.pictures is None or (shown is not None and shown.board is None):
            return
        try:
            if shown is not None:
                picture = await self.service.stored_board(shown)
            else:
                picture = await self.service.picture(CHANNEL, reader)
        except TableError:
            return
        if picture is None or picture.png == self._pictured:
            return
        self._pictured = picture.png
        self._write_picture(picture)

    def _write_picture(self, picture: Picture) -> None:
        assert self.pictures is not None
        self.pictures.mkdir(parents=True, exist_ok=True)
        stem = picture.filename.removesuffix(".png")
        number = 1
        while (path := self.pictures / f"{stem}-{number:03d}.png").exists():
            number += 1
        path.write_bytes(picture.png)
        self.say(f"(picture: {path})")

    async def _name_of(self, user_id: int | None, seat: str | None) -> str:
        info = await self.service.table_info(CHANNEL)
        for s in info.seats if info else []:
            self.names[s.user_id] = s.name
        return self.names.get(user_id or -1, seat or "?")

    # -- input -----------------------------------------------------------------------------
    async def line(self, raw: str) -> bool:
        """Run one line; False if it could not be read (the reason is printed)."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return True
        try:
            words = shlex.split(text)
        except ValueError as exc:
            self.say(f"! cannot read {text!r}: {exc}")
            return False
        if words[0] == "wait":
            return await self._wait(words[1:])
        if words[0] == "auto":
            return await self._auto(words[1:])
        if words[0] == "help":
            return self._help(words[1:])
        user = self.user
        if words[0] == "as":
            if len(words) < 2:
                self.say("! `as` needs a name: as <name> /<command> …")
                return False
            user, words = words[1], words[2:]
            if not words:  # `as bob` alone: later lines without `as` are bob's
                self.user = user
                return True
        self.names[user_id_for(user)] = user
        try:
            await self._command(user, words)
        except ConsoleError as exc:
            self.say(f"! {exc} (type help)")
            return False
        except TableError as exc:
            self.private(user, f"Refused: {exc}")
        return True

    def _help(self, args: list[str]) -> bool:
        """`help`: how a table works and the console's lines; `help crisis`: a game's turn."""
        try:
            self.say(reference.help_text(args[0] if args else None))
        except TableError as exc:
            self.say(f"! {exc}")
            return False
        if not args:
            self.say(HELP)
        return True

    async def _wait(self, args: list[str]) -> bool:
        try:
            minutes = float(args[0])
        except (IndexError, ValueError):
            minutes = math.nan
        if not 0 <= minutes <= MAX_WAIT_MINUTES:  # nan fails this too
            self.say(f"! wait takes minutes from 0 to {MAX_WAIT_MINUTES:,} (ten years), e.g. wait 30")
            return False
        self.offset += minutes * 60
        await self.tick()
        return True

    async def _auto(self, args: list[str]) -> bool:
        """`auto [n|all]`: automatic players make the next n decisions (default 1)."""
        word = args[0] if args else "1"
        if word != "all" and not (word.isascii() and word.isdigit() and len(word) <= 9):
            self.say("! auto takes a number of moves or all, e.g. auto 10")
            return False
        count = AUTO_CAP if word == "all" else min(int(word), AUTO_CAP)
        for _ in range(count):
            try:
                out = await self.service.auto(CHANNEL)
            except TableError as exc:
                self.say(f"Refused: {exc}")
                return True
            if out is None:
                break
            await self.show(out)
        return True

    async def tick(self) -> None:
        for out in await self.service.deadlines.tick():
            await self.show(out)
        for out in await self.service.digest.tick():  # the daily digests due (bot/service/digest.py)
            await self.show(out)

    async def _command(self, user: str, words: list[str]) -> None:
        if not words or not words[0].startswith("/"):
            raise ConsoleError(f"expected /<command>, got {' '.join(words) or 'nothing'!r}")
        group = words[0][1:].lower()
        if group == "community":  # the archive, ratings and profiles (bot/service/community.py)
            if len(words) < 2 or words[1].lower() not in COMMUNITY_VERBS:
                raise ConsoleError(_unknown_verb("community", words[1:2], COMMUNITY_VERBS))
            verb = words[1].lower()
            await self.community.run(user, verb, read_options(f"community {verb}", line_options(words[2:])))
            return
        if group == "diplomacy":  # showing and pacts (bot/service/diplomacy.py)
            if len(words) < 2 or words[1].lower() not in DIPLOMACY_VERBS:
                raise ConsoleError(_unknown_verb("diplomacy", words[1:2], DIPLOMACY_VERBS))
            verb = words[1].lower()
            await self.diplomacy.run(user, verb, read_options(f"diplomacy {verb}", line_options(words[2:])))
            return
        if group == "deadline":  # Discord's /deadline; `/game deadline` is the console's older form
            words = ["/game", "deadline", *words[1:]]
        elif group != "game":
            await self._game_command(user, group, words)
            return
        if len(words) < 2 or words[1].lower() not in GAME_VERBS:
            raise ConsoleError(_unknown_verb("game", words[1:2], GAME_VERBS))
        verb = words[1].lower()
        # the options checked and typed as Discord sends them (bot/service/verbs.py)
        options = read_options("deadline" if verb == "deadline" else f"game {verb}", line_options(words[2:]))
        await self._game_verbs[verb](user, user_id_for(user), options)

    async def _game_command(self, user: str, group: str, words: list[str]) -> None:
        """`/<game> <command> …`: a move in the game the table plays."""
        if len(words) < 2:
            raise ConsoleError(f"/{group} needs a command")
        verb, typed = words[1].lower(), line_options(words[2:])
        uid = user_id_for(user)
        info = await self.service.table_info(CHANNEL)
        if info is not None and group not in (info.game, *aliases(info.game)):
            raise TableError(f"This table plays {info.game}; its commands are /{info.game} ….")
        if info is None:
            raise TableError("There is no table in this channel.")
        options = read_command_options(info.game, verb, typed)
        await self.show(await self.service.command(CHANNEL, uid, verb, options), user)

    # -- /game verbs: each takes (user, uid, options) ---------------------------------------
    async def _new_table(self, user: str, uid: int, options: dict[str, Any]) -> None:
        game = options.pop("game")  # the rest are the game's options, which the service checks
        out = await self.service.lobby.create(CHANNEL, None, game, uid, user, options or None)
        await self.show(out, user)

    async def _join(self, user: str, uid: int, options: dict[str, Any]) -> None:
        pref = options.get("nation") or options.get("preference")
        await self.show(await self.service.lobby.join(CHANNEL, uid, user, pref), user)

    async def _leave(self, user: str, uid: int, options: dict[str, Any]) -> None:
        await self.show(await self.service.lobby.leave(CHANNEL, uid), user)

    async def _start(self, user: str, uid: int, options: dict[str, Any]) -> None:
        await self.show(await self.service.lobby.start(CHANNEL, uid, options.get("seed")), user)

    async def _status(self, user: str, uid: int, options: dict[str, Any]) -> None:
        self._last_status = await self.service.status(CHANNEL, uid)
        self.say(self._last_status)
        await self.show_picture(uid)

    async def _me(self, user: str, uid: int, options: dict[str, Any]) -> None:
        self.private(user, await self.service.me(CHANNEL, uid))

    async def _log(self, user: str, uid: int, options: dict[str, Any]) -> None:
        self.say(await self.service.history.log(CHANNEL, options.get("page", 1), uid))

    async def _rules(self, user: str, uid: int, options: dict[str, Any]) -> None:
        self.say(self.service.rules(options["game"]))

    async def _card(self, user: str, uid: int, options: dict[str, Any]) -> None:
        info = await self.service.table_info(CHANNEL)
        self.private(user, reference.lookup(options["name"], options.get("game") or (info.game if info else None)))

    async def _help_for(self, user: str, uid: int, options: dict[str, Any]) -> None:
        """`/game help`: a game's turn, or with aid:yes the player aid for the caller's seat."""
        if options.get("aid", False):
            self.private(user, await self.service.aid(CHANNEL, uid, options.get("game")))
        else:
            info = await self.service.table_info(CHANNEL)
            self.private(user, reference.help_text(options.get("game") or (info.game if info else None)))

    async def _settings(self, user: str, uid: int, options: dict[str, Any]) -> None:
        await self.show(await self.service.settings(CHANNEL, uid, options), user)

    async def _abandon(self, user: str, uid: int, options: dict[str, Any]) -> None:
        await self.show(await self.service.abandon(CHANNEL, uid), user)

    async def _pause(self, user: str, uid: int, options: dict[str, Any]) -> None:
        await self.show(await self.service.controls.pause(CHANNEL, uid), user)

    async def _resume(self, user: str, uid: int, options: dict[str, Any]) -> None:
        await self.show(await self.service.controls.resume(CHANNEL, uid), user)

    async def _deadline(self, user: str, uid: int, options: dict[str, Any]) -> None:
        deadlines, hours = self.service.deadlines, options.get("hours")
        end_now, nudge = options.get("end_now", False), options.get("nudge", False)
        one_deadline_tool(hours, end_now, nudge)  # the rule Discord's /deadline says in the same words
        if hours is not None:
            await self.show(await deadlines.set_deadline(CHANNEL, uid, hours), user)
        elif end_now:
            await self.show(await deadlines.end_phase(CHANNEL, uid), user)
        else:
            await self.show(await deadlines.nudge(CHANNEL, uid), user)

    async def _substitute(self, user: str, uid: int, options: dict[str, Any]) -> None:
        controls = self.service.controls
        if not substitute_asked("member" in options, "seat" in options):  # as Discord: no options asks for one
            await self.show(await controls.request_substitute(CHANNEL, uid), user)
            return
        member = options["member"]
        await self.show(
            await controls.substitute(CHANNEL, uid, options["seat"], user_id_for(member), member), user
        )

    async def _bot(self, user: str, uid: int, options: dict[str, Any]) -> None:
        # Discord's `on:no`, or the console's older `off:yes`
        on = options.get("on", True) and not options.get("off", False)
        out = await self.service.controls.set_automatic(CHANNEL, uid, options.get("seat"), on)
        await self.show(out, user)

    async def _undo(self, user: str, uid: int, options: dict[str, Any]) -> None:
        await self.show(await self.service.controls.undo(CHANNEL, uid), user)

    async def _export(self, user: str, uid: int, options: dict[str, Any]) -> None:
        if options.get("format") == "html":  # the replay page, after the end: it needs a file to go to
            if not options.get("file"):
                raise ConsoleError("/game export format:html needs file:<path> (the page is a file to open)")
            page = await self.service.history.export_html(CHANNEL, uid)
            try:
                Path(options["file"]).write_bytes(page)
            except OSError as exc:
                raise ConsoleError(f"cannot write {options['file']}: {exc.strerror}") from None
            self.private(user, f"The replay page is in {options['file']}: open it in a browser.")
            return
        record = json.dumps(await self.service.history.export(CHANNEL, uid), indent=1)
        if options.get("file"):
            try:
                Path(options["file"]).write_text(record, encoding="utf-8")
            except OSError as exc:
                raise ConsoleError(f"cannot write {options['file']}: {exc.strerror}") from None
            self.private(user, f"Exported to {options['file']}.")
        else:
            self.private(user, record)  # the service gives the public record before the end

    async def _publish(self, user: str, uid: int, options: dict[str, Any]) -> None:
        await self.show(await self.service.history.publish(CHANNEL, uid), user)

    async def _notify(self, user: str, uid: int, options: dict[str, Any]) -> None:
        prefs = {k: options[k] for k in ("mode", "timezone", "quiet_hours", "digest") if k in options}
        self.private(user, await self.service.notifications.set_notify(uid, **prefs))

    async def _standing(self, user: str, uid: int, options: dict[str, Any]) -> None:
        withdraw = options.get("withdraw", False)
        await self.show(
            await self.service.controls.standing(CHANNEL, uid, options.get("order"), withdraw), user
        )

    async def _session(self, user: str, uid: int, options: dict[str, Any]) -> None:
        reply, _ = await self.service.sessions.session(
            CHANNEL,
            uid,
            options.get("day"),
            options.get("time"),
            options.get("hours", 2.0),  # Discord's defaults
            options.get("timezone", "UTC"),
            remove=options.get("remove", False),
        )
        self.private(user, reply)

    async def _mine(self, user: str, uid: int, options: dict[str, Any]) -> None:
        self.private(user, await self.service.notifications.mine(uid))


async def run_console(
    service: TableService,
    *,
    script: Path | None = None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    as_user: str = "you",
    pictures: Path | None = None,
    stopping: Callable[[], bool] | None = None,
) -> int:
    """Run a script (echoing each line) or an interactive session. Returns the exit code:
    1 if a script had lines the console could not read; refusals are ordinary output.
    With `pictures`, each new board picture is written there and its path printed.
    `stopping`: the caller handles SIGTERM and SIGINT itself (`python -m bot`), and says
    here once one came; the line being run is finished and no other is run. Without it,
    Ctrl-C ends an interactive session at once."""
    console = Console(service, stdout, as_user, pictures)
    await console.said_late()  # what the last run saved but did not get to print
    await console.tick()  # deadlines that passed while nobody was here
    if script is not None:
        return await _run_script(console, script, stdout, stopping or _never)
    return await _run_interactive(console, stdin, stdout, as_user, stopping)


def _never() -> bool:
    return False


def _unknown_verb(group: str, typed: list[str], verbs: tuple[str, ...]) -> str:
    """`/game statsu`: "There is no /game statsu. Did you mean /game status or /game start?"
    and the verbs; with no verb at all, the verbs alone."""
    listed = f"/{group} takes one of: {', '.join(verbs)}"
    if not typed:
        return listed
    near = did_you_mean(typed[0], [(f"/{group} {v}", v) for v in verbs])
    return " ".join(p for p in (f"There is no /{group} {typed[0][:40]}.", near, listed) if p)


async def _run_script(console: Console, script: Path, stdout: TextIO, stopping: Callable[[], bool]) -> int:
    """Each line of the script, echoed; 2 if it cannot be read, 1 if a line could not."""
    try:
        lines = Path(script).read_bytes().decode("utf-8").splitlines()
    except OSError as exc:
        stdout.write(f"! cannot read the script {script}: {exc.strerror}\n")
        return 2
    except UnicodeDecodeError:
        stdout.write(f"! cannot read the script {script}: it is not UTF-8 text\n")
        return 2
    failed = 0
    for number, raw in enumerate(lines, 1):
        if stopping():
            return 0
        if raw.strip() and not raw.strip().startswith("#"):
            stdout.write(f"> {raw.strip()}\n")
        if not await console.line(raw):
            stdout.write(f"! line {number} of {script}\n")
            failed += 1
    return 1 if failed else 0


async def _run_interactive(
    console: Console, stdin: TextIO, stdout: TextIO, as_user: str, stopping: Callable[[], bool] | None
) -> int:
    """Prompt for lines until quit, Ctrl-C or the end of input."""
    stdout.write(f"Chancellery console. You are {as_user}; `as <name>` switches; `help` lists the lines.\n")
    # At a terminal, the standard library's readline gives line editing and history.
    terminal = stdin is sys.stdin and stdout is sys.stdout and stdin.isatty()
    if terminal:
        try:
            import readline  # noqa: F401 - importing it is what makes input() edit lines
        except ImportError:  # not on every platform (Windows): plain lines then
            pass
    # asyncio.run turns Ctrl-C into a cancellation that waits for the prompt to return; at
    # the prompt Ctrl-C ends the console at once instead (unless the caller stops it).
    previous = None
    if stopping is None:
        try:
            previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        except ValueError:  # not the main thread: leave Ctrl-C as it is
            pass
    try:
        while True:
            try:
                if terminal:
                    raw = input(f"{console.user}> ") + "\n"
                else:
                    stdout.write(f"{console.user}> ")
                    stdout.flush()
                    raw = stdin.readline()
            except (KeyboardInterrupt, EOFError):
                stdout.write("\n")
                return 0
            # a line read after a stop came is not run (typed ahead at a terminal, the
            # prompt returns it at once, with no wait for the signal to interrupt)
            if not raw or raw.strip() in ("quit", "exit") or (stopping is not None and stopping()):
                return 0
            await console.tick()  # real time passed while the prompt waited
            await console.line(raw)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


# The code of the console's own loops (between two lines of a script, at the interactive
# prompt): the only places where `python -m bot` lets a SIGTERM or SIGINT stop the console,
# so that a line in flight is always finished first.
LOOP_CODES = (_run_script.__code__, _run_interactive.__code__)

"""`python -m bot` (installed as `chancellery`): run, console, simulate, balance, pacing, replay, export,
migrate, ratings, render, backup, restore (docs/architecture.md §6).

The front ends (Discord, console) and the store are imported only by the subcommands
that need them, so `simulate` and `replay` work without a database or discord.py setup.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import TextIO

from bot.process.config import Config, ConfigError, load_config
from bot.process.runtime import CannotStart

__all__ = ["main", "CONNECT_HELP"]

# Printed by `run` when no token is configured; the README says the same at more length.
CONNECT_HELP = """\
No Discord token is configured, so Chancellery opens the local console instead,
over the same database ({database}).

To connect to Discord:
  1. Create an application at https://discord.com/developers/applications
     and add a Bot to it (no privileged intents are needed).
  2. Copy the bot's token into the DISCORD_TOKEN environment variable,
     or into `token = "..."` in config.toml (see config.example.toml).
  3. Invite the bot: OAuth2 > URL Generator, scopes `bot` and
     `applications.commands`, with the permissions listed in README.md.
  4. Run the same command again.
"""



def _parser() -> argparse.ArgumentParser:
    """Every subcommand and its options, declared in one place (long because it is a list of
    declarations; each subcommand's work is a function of its own below)."""
    config_help = "config file (default: $CHANCELLERY_CONFIG or ./config.toml)"
    parser = argparse.ArgumentParser(
        prog="chancellery",
        description="A Discord referee for Crisis: 1914, Origins of World War I and Schönbrunn.",
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help=config_help)
    # accepted after the subcommand too; SUPPRESS keeps a subparser from erasing the earlier value
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", type=Path, metavar="FILE", default=argparse.SUPPRESS, help=config_help)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser(
        "run", parents=[common], help="connect to Discord (with no token: open the local console)"
    )
    run.add_argument("--db", type=_database, metavar="PATH", help=DB_HELP)

    console = sub.add_parser("console", parents=[common], help="play tables in this terminal")
    console.add_argument("--script", type=Path, metavar="FILE", help="run `as <name> /<command> ...` lines")
    console.add_argument("--db", type=_database, metavar="PATH", help=DB_HELP)
    console.add_argument(
        "--as", dest="as_user", default="you", metavar="NAME", help="who types (default: you)"
    )

    sim = sub.add_parser("simulate", parents=[common], help="play many games between automatic players")
    sim.add_argument("game", help="game id, e.g. crisis1914, origins, schonbrunn")
    sim.add_argument("--players", type=int, metavar="N", help="player count (default: every count)")
    sim.add_argument(
        "--games", type=int, default=100, metavar="K", help="games per player count (default 100)"
    )
    sim.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the run (default 1)")
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    sim.add_argument("--report", type=Path, metavar="FILE", help="also write the results as Markdown")
    sim.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="worker processes (default 1; 0: one per CPU)"
    )
    sim.add_argument(
        "--lineup",
        metavar="NAMES",
        help="the automatic player of each seat, comma-separated, the last filling the rest"
        " (e.g. strong,basic: one strong player among basic ones; default: basic everywhere)",
    )
    sim.add_argument("--progress", action="store_true", help="say on standard error as games finish")

    bal = sub.add_parser(
        "balance", parents=[common], help="seat balance: play a stored part, or regenerate docs/balance/GAME.md"
    )
    bal_sub = bal.add_subparsers(dest="balance_command", required=True, metavar="ACTION")
    bal_run = bal_sub.add_parser("run", help="play K games and store them in docs/balance/results/")
    bal_run.add_argument("game", help="game id, e.g. crisis1914, origins, schonbrunn")
    bal_run.add_argument("--players", type=int, required=True, metavar="N", help="player count")
    bal_run.add_argument("--games", type=int, required=True, metavar="K", help="games in this part")
    bal_run.add_argument("--seed", type=int, required=True, metavar="S", help="seed of the run")
    bal_run.add_argument("--start", type=int, default=0, metavar="I", help="index of the part's first game (default 0)")
    bal_run.add_argument("--lineup", metavar="NAME", help="the automatic player of every seat (default: the game's goal)")
    bal_run.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    bal_run.add_argument("--progress", action="store_true", help="say on standard error as games finish")
    bal_report = bal_sub.add_parser("report", help="merge the stored parts into docs/balance/GAME.md")
    bal_report.add_argument("game", help="game id, e.g. crisis1914, origins, schonbrunn")

    pacing = sub.add_parser(
        "pacing", parents=[common], help="how many calendar days games take under the visit model"
    )
    pacing.add_argument("game", help="game id, e.g. crisis1914, origins, schonbrunn")
    pacing.add_argument("--players", type=int, metavar="N", help="player count (default: every count)")
    pacing.add_argument(
        "--games", type=int, default=20, metavar="K", help="games per player count (default 20)"
    )
    pacing.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the run (default 1)")
    pacing.add_argument(
        "--sessions-per-week", type=int, default=0, metavar="W", help="live sessions a week (default 0)"
    )
    pacing.add_argument(
        "--session-hours", type=float, default=2.0, metavar="H", help="hours a session (default 2)"
    )
    pacing.add_argument(
        "--between-sessions",
        choices=("continue", "wait"),
        default="continue",
        help="single-player steps between live sessions: go on as usual, or wait for the next session",
    )
    pacing.add_argument(
        "--by-kind",
        action="store_true",
        help="also say where the days go: decisions, hand-offs and days by kind of decision",
    )

    rep = sub.add_parser("replay", parents=[common], help="re-run an exported game record and check it")
    rep.add_argument("file", type=Path, metavar="FILE", help="a JSON game record (see bot/store/records.py)")
    rep.add_argument(
        "--html",
        type=Path,
        metavar="OUT",
        help="also write the finished game's replay page (one HTML file that needs no network) to OUT",
    )

    exp = sub.add_parser(
        "export",
        parents=[common],
        help="the operator's full record of a table, secrets included, even mid-game (to move it)",
    )
    exp.add_argument("--channel", type=int, required=True, metavar="ID", help="the table's channel id")
    exp.add_argument("--db", type=_database, metavar="PATH", help=DB_HELP)
    exp.add_argument("file", type=Path, nargs="?", metavar="FILE", help="where to write the JSON record")
    exp.add_argument(
        "--html",
        type=Path,
        metavar="FILE",
        help="write the replay page (one HTML file) of a finished game instead (an abandoned one's shows only what was public)",
    )
    ren = sub.add_parser("render", parents=[common], help="draw the board of a seeded game as a PNG picture")
    ren.add_argument("game", help="game id, e.g. crisis1914, origins, schonbrunn")
    ren.add_argument(
        "--players", type=int, metavar="N", help="player count (default: the most the game takes)"
    )
    ren.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the game (default 1)")
    ren.add_argument(
        "--step", type=int, metavar="K", help="draw the board after K actions (default: the end of the game)"
    )
    ren.add_argument("--out", type=Path, required=True, metavar="FILE", help="the PNG file to write")

    mig = sub.add_parser(
        "migrate", parents=[common], help="copy an SQLite database to PostgreSQL and check the copy"
    )
    mig.add_argument(
        "--from", dest="source", type=Path, required=True, metavar="PATH", help="the SQLite file"
    )
    mig.add_argument("--to", dest="target", required=True, metavar="URL", help="a postgresql:// URL")
    mig.add_argument("--replace", action="store_true", help="empty a target that already holds tables")

    bak = sub.add_parser(
        "backup", parents=[common], help="copy the SQLite database while the bot runs, and check the copy"
    )
    bak.add_argument("--to", dest="target", type=Path, required=True, metavar="FILE", help="the backup file")
    bak.add_argument("--db", type=_database, metavar="PATH", help=DB_HELP)
    res = sub.add_parser(
        "restore", parents=[common], help="replace the stopped bot's SQLite database with a checked backup"
    )
    res.add_argument("source", type=Path, metavar="FILE", help="a backup written by `backup`")
    res.add_argument("--db", type=_database, metavar="PATH", help=DB_HELP)
    rat = sub.add_parser("ratings", parents=[common], help="the servers' ratings: --rebuild recomputes them")
    rat.add_argument(
        "--rebuild", action="store_true", required=True, help="recompute every rating from the finished games"
    )
    rat.add_argument("--db", type=_database, metavar="PATH", help=DB_HELP)
    return parser


DB_HELP = "SQLite file or postgresql:// URL (default: from the config)"


def _database(text: str) -> Path | str:
    from bot.store import is_postgres_url

    return text if is_postgres_url(text) else Path(text)


def shown_database(database: Path | str) -> str:
    """The database as it may be printed: a URL's password is never shown."""
    from urllib.parse import urlsplit, urlunsplit

    text = str(database)
    parts = urlsplit(text)
    if parts.password is None:
        return text
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _cmd_run(args: argparse.Namespace, config: Config, stdin: TextIO, stdout: TextIO) -> int:
    if args.db is not None:
        config = config.model_copy(update={"database": args.db})
    if config.token:
        from bot.discord import run_discord

        run_discord(config)
        return 0
    from bot.console.session import Stopped, run_console_process

    stdout.write(CONNECT_HELP.format(database=shown_database(config.database)) + "\n")
    stdout.flush()
    try:
        return asyncio.run(run_console_process(config, config.database, None, "you", stdin, stdout))
    except Stopped:  # stopped past the grace period, outside the console's own loop
        return 0


def _cmd_console(args: argparse.Namespace, config: Config, stdin: TextIO, stdout: TextIO) -> int:
    from bot.console.session import Stopped, run_console_process

    db = args.db if args.db is not None else config.database
    try:
        return asyncio.run(run_console_process(config, db, args.script, args.as_user, stdin, stdout))
    except Stopped:  # stopped past the grace period, outside the console's own loop
        return 0


def _cmd_simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    from bot.tools.simulate import parse_options, player_counts, simulate
    from engine import games
    from engine.core import GameError

    try:
        game = games.get(args.game)
        options = parse_options(game, args.option)
        counts = player_counts(game, args.players)
    except (GameError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("simulate: --games must be at least 1", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    lineup = tuple(name.strip() for name in args.lineup.split(",") if name.strip()) if args.lineup else ()
    try:
        results = [
            simulate(game, n, args.games, args.seed, options, jobs=jobs, lineup=lineup, progress=args.progress)
            for n in counts
        ]
    except ValueError as exc:  # an unknown player name
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    stdout.write("\n\n".join(r.text() for r in results) + "\n")
    if args.report is not None:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        lined = f" --lineup {','.join(lineup)}" if lineup else ""
        head = f"# Simulation: {game.title}\n\n`python -m bot simulate {game.id} --games {args.games} --seed {args.seed}{lined}`"
        if args.option:
            head += " with options " + ", ".join(f"`{o}`" for o in args.option)
        args.report.write_text(
            head + "\n\n" + "\n\n".join(r.markdown() for r in results) + "\n", encoding="utf-8"
        )
    return 0


def _cmd_balance(args: argparse.Namespace, stdout: TextIO) -> int:
    from bot.tools import balance
    from engine import games
    from engine.core import GameError

    try:
        game = games.get(args.game)
        if args.balance_command == "report":
            stdout.write(f"Wrote {balance.write_report(game)}\n")
            return 0
        lineup = args.lineup or balance.goal_for(game).lineup
        path = balance.results_file(game.id, lineup)
        balance.check_free(path, game, args.players, args.seed, args.start, args.games)
        commit = balance.commit_of(game)
        part = balance.run_part(
            game, args.players, args.games, args.seed, args.start, lineup, args.jobs, commit, args.progress
        )
        if not balance.unchanged_since(game, commit) or balance.content_key(game) != part.content:
            raise balance.BalanceError("The game's content or engine changed while the part was played: not stored.")
        balance.store(path, part)
    except (GameError, ValueError, balance.BalanceError) as exc:
        print(f"balance: {exc}", file=sys.stderr)
        return 2
    stdout.write("\n".join(balance.summary(part)) + f"\nStored in {path}.\n")
    return 0


def _cmd_pacing(args: argparse.Namespace, stdout: TextIO) -> int:
    from bot.tools.pacing import VisitModel, pace
    from bot.tools.simulate import player_counts
    from engine import games
    from engine.core import GameError

    try:
        game = games.get(args.game)
        counts = player_counts(game, args.players)
    except (GameError, ValueError) as exc:
        print(f"pacing: {exc}", file=sys.stderr)
        return 2
    if args.games < 1 or args.sessions_per_week < 0 or args.session_hours <= 0:
        print(
            "pacing: --games must be at least 1, sessions at least 0 and hours more than 0", file=sys.stderr
        )
        return 2
    from bot.service.settings import Settings

    model = VisitModel(sessions_per_week=args.sessions_per_week, session_hours=args.session_hours)
    settings = Settings(between_sessions=args.between_sessions)
    results = [pace(game, n, args.games, args.seed, model, settings) for n in counts]
    stdout.write("\n\n".join(r.text(by_kind=args.by_kind) for r in results) + "\n")
    return 0


def _cmd_replay(args: argparse.Namespace, stdout: TextIO) -> int:
    from bot.store.records import ReplayError, load_record, replay
    from engine import games
    from engine.core import GameError

    try:
        record = load_record(args.file)
        game = games.get(record.game)
    except (ReplayError, GameError) as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    result = replay(game, record)
    stdout.write(f"{result}\n")
    if not result.ok:
        return 1
    if args.html is not None:
        return _write_page(args.html, record.model_dump(mode="json"), "replay", stdout)
    return 0


def _write_page(path: Path, record: dict, command: str, stdout: TextIO) -> int:
    """Write a record's replay page (bot/render/replay_page) to `path`."""
    from bot.render.replay_page import ReplayPageError, replay_page

    try:
        page = replay_page(record)
    except ReplayPageError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 2
    try:
        path.write_bytes(page)
    except OSError as exc:
        print(f"{command}: cannot write {path}: {exc.strerror}", file=sys.stderr)
        return 2
    stdout.write(f"Wrote the replay page to {path} ({len(page) / 1_000_000:.1f} MB).\n")
    return 0


def _cmd_export(args: argparse.Namespace, config: Config, stdout: TextIO) -> int:
    """Whoever runs the bot holds the database and every secret in it already; a table's
    players never get a running game's record (docs/rulings.md, Platform 23)."""
    import json

    from bot.service.tables import TableError, TableService
    from bot.store import open_store

    async def run() -> dict:
        store = await open_store(args.db if args.db is not None else config.database)
        try:
            return await TableService(store).history.operator_export(args.channel)
        finally:
            await store.close()

    if (args.file is None) == (args.html is None):
        print("export: give FILE for the JSON record or --html FILE for the replay page", file=sys.stderr)
        return 2
    try:
        record = asyncio.run(run())
    except TableError as exc:
        print(f"export: channel {args.channel}: {exc}", file=sys.stderr)
        return 2
    if args.html is not None:
        return _write_page(args.html, record, "export", stdout)
    try:
        args.file.write_text(json.dumps(record, indent=1), encoding="utf-8")
    except OSError as exc:
        print(f"export: cannot write {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    secret = (
        " It holds the seed and every secret order: keep it from the players." if record["secret"] else ""
    )
    stdout.write(f"Exported channel {args.channel}'s {record['game']} game to {args.file}.{secret}\n")
    return 0


def _cmd_render(args: argparse.Namespace, stdout: TextIO) -> int:
    from bot.render.pictures import draw, has_pictures
    from bot.render.pictures.sample import sample_state
    from engine import games
    from engine.core import GameError

    try:
        game = games.get(args.game)
    except GameError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    players = args.players if args.players is not None else game.max_players
    if not has_pictures(game.id):
        print(f"render: {game.title} has no board picture yet", file=sys.stderr)
        return 2
    if not game.min_players <= players <= game.max_players:
        print(f"render: {game.title} takes {game.min_players} to {game.max_players} players", file=sys.stderr)
        return 2
    if args.step is not None and args.step < 0:
        print("render: --step must be 0 or more", file=sys.stderr)
        return 2
    state = sample_state(game, players, args.seed, args.step)
    picture = draw(game.id, game.view(state, None))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(picture.png)
    stdout.write(f"{args.out} ({len(picture.png) // 1024} KB, after {state.step} actions)\n")
    return 0


def _cmd_migrate(args: argparse.Namespace, stdout: TextIO) -> int:
    from bot.store import is_postgres_url
    from bot.tools.migrate import MigrationError, MigrationRefused, migrate

    if not is_postgres_url(args.target):
        print(
            f"migrate: --to must be a postgresql:// URL, not {shown_database(args.target)!r}", file=sys.stderr
        )
        return 2

    def progress(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    try:
        result = asyncio.run(migrate(args.source, args.target, replace=args.replace, progress=progress))
    except MigrationError as exc:
        print(f"migrate: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, MigrationRefused) else 1
    stdout.write(f"{result}\n")
    return 0


def _cmd_backup(args: argparse.Namespace, config: Config, stdout: TextIO) -> int:
    from bot.tools.backup import BackupError, BackupRefused, backup, pg_dump_command

    db = args.db if args.db is not None else config.database
    if not isinstance(db, Path):
        print(
            "backup: the database is PostgreSQL: back it up with pg_dump, which copies a running "
            "database consistently (the password from PGPASSWORD or ~/.pgpass):\n  "
            + pg_dump_command(db, args.target),
            file=sys.stderr,
        )
        return 2
    try:
        checked = backup(db, args.target)
    except BackupError as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, BackupRefused) else 1
    stdout.write(f"Backed up {db} to {checked}.\n")
    return 0


def _cmd_restore(args: argparse.Namespace, config: Config, stdout: TextIO) -> int:
    from bot.tools.backup import BackupError, BackupRefused, restore

    db = args.db if args.db is not None else config.database
    if not isinstance(db, Path):
        print(
            "restore: the database is PostgreSQL: restore a pg_dump file with "
            f"pg_restore --clean --if-exists --dbname=URL {args.source}",
            file=sys.stderr,
        )
        return 2
    try:
        checked, kept = restore(db, args.source)
    except BackupError as exc:
        print(f"restore: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, BackupRefused) else 1
    before = f" The database it replaced is kept as {kept}." if kept is not None else ""
    stdout.write(f"Restored {db} from {checked}.{before}\n")
    return 0


def _content_problem(folder: Path) -> str | None:
    """A group's own content is checked whole before anything runs (every file, entry and
    reference of every game), so a mistake stops the start with its file, entry and field
    rather than failing the first `/game start` of that game."""
    from engine import games
    from engine.core import ContentError

    if not folder.is_dir():
        return f"content_dir {folder}: no such folder"
    known = {g.id for g in games.all()}
    strays = sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name not in known)
    if strays:
        return f"content_dir {folder}: {', '.join(strays)} is not a game here (games: {', '.join(sorted(known))})"
    for game in games.all():
        try:
            game.check_content()
        except ContentError as exc:
            return f"content_dir {folder}: {exc}"
    return None


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = _parser().parse_args(argv)
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"chancellery: {exc}", file=sys.stderr)
        return 2
    from bot.process.logsafe import configure

    configure(config.log_level)  # no seed, Hand or secret order in the log at any level
    if config.content_dir is not None:
        from engine.core import set_content_dir

        set_content_dir(config.content_dir)
        problem = _content_problem(config.content_dir)
        if problem is not None:
            print(f"chancellery: cannot start: {problem}", file=sys.stderr)
            return 2
    if args.command in ("run", "console"):  # the long-running processes
        from bot.process.runtime import tune_gc

        tune_gc()
    try:
        if args.command == "run":
            return _cmd_run(args, config, stdin, stdout)
        if args.command == "console":
            return _cmd_console(args, config, stdin, stdout)
        if args.command == "simulate":
            return _cmd_simulate(args, stdout)
        if args.command == "balance":
            return _cmd_balance(args, stdout)
        if args.command == "export":
            return _cmd_export(args, config, stdout)
        if args.command == "render":
            return _cmd_render(args, stdout)
        if args.command == "pacing":
            return _cmd_pacing(args, stdout)
        if args.command == "migrate":
            return _cmd_migrate(args, stdout)
        if args.command == "backup":
            return _cmd_backup(args, config, stdout)
        if args.command == "restore":
            return _cmd_restore(args, config, stdout)
        if args.command == "ratings":
            from bot.tools.ratings import rebuild_ratings

            return asyncio.run(rebuild_ratings(args.db if args.db is not None else config.database, stdout))
        return _cmd_replay(args, stdout)
    except KeyboardInterrupt:
        return 130
    except CannotStart as exc:  # one line a supervisor's log shows, and a non-zero exit
        print(f"chancellery: cannot start: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

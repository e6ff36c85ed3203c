"""What a running bot tells its operator: Prometheus metrics and a health answer.

Off unless `metrics_port` is set. Then one small HTTP server, on a thread of its own,
answers `/metrics` (Prometheus' text format, from this module's registry) and `/healthz`
(200 while the bot can serve, 503 with the reasons otherwise). It runs on a thread, not
on the event loop, because the console holds its event loop while it waits at its
prompt: the endpoint answers the same in both front ends.

The rest of the bot reports through the small functions here (`observe_action`,
`deadline_fired`, `discord_error`, ...), so no other module touches prometheus_client.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    make_wsgi_app,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import ThreadingWSGIServer

__all__ = [
    "REGISTRY",
    "Health",
    "MetricsServer",
    "observe_action",
    "observe_decision",
    "deadline_fired",
    "deadline_loop_ran",
    "discord_error",
    "database_error",
    "set_undelivered",
    "backup_made",
    "database_probe",
    "serve",
]

log = logging.getLogger(__name__)

# The bot's own registry (with the process' CPU, memory and file descriptors), so a test
# or a second bot in one process never meets metrics registered twice.
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

_FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

ACTIONS = Counter("chancellery_actions", "Actions played and saved, by game", ["game"], registry=REGISTRY)
REFUSALS = Counter(
    "chancellery_refusals", "Actions refused by the rules (nothing saved), by game", ["game"], registry=REGISTRY
)
ACTION_SECONDS = Histogram(
    "chancellery_action_seconds",
    "Time to apply and save one action, by game",
    ["game"],
    buckets=_FAST,
    registry=REGISTRY,
)
DEADLINE_LAG = Histogram(
    "chancellery_deadline_lag_seconds",
    "How late a deadline or reminder was handled after it fell due",
    buckets=(0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3600.0, 21600.0, 86400.0),
    registry=REGISTRY,
)
DEADLINE_LOOP = Gauge(
    "chancellery_deadline_loop_last_run_timestamp_seconds",
    "When the deadline loop last finished a pass (Unix time)",
    registry=REGISTRY,
)
UNDELIVERED = Gauge(
    "chancellery_undelivered_posts", "Posts saved but not yet delivered to Discord", registry=REGISTRY
)
UNDELIVERED_AGE = Gauge(
    "chancellery_undelivered_oldest_seconds",
    "Age of the oldest post not yet delivered (0: none)",
    registry=REGISTRY,
)
DISCORD_ERRORS = Counter(
    "chancellery_discord_api_errors", "Discord API calls that failed, by HTTP status", ["status"], registry=REGISTRY
)
DECISION_SECONDS = Histogram(
    "chancellery_automatic_decision_seconds",
    "Time an automatic player took to decide, by game and player",
    ["game", "player"],
    buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0),
    registry=REGISTRY,
)
DATABASE_ERRORS = Counter(
    "chancellery_database_errors",
    "Database errors, by what was being done (action, health, backup)",
    ["during"],
    registry=REGISTRY,
)
BACKUPS = Counter(
    "chancellery_backups", "Scheduled backups, by result (ok, failed)", ["result"], registry=REGISTRY
)
LAST_BACKUP = Gauge(
    "chancellery_last_backup_timestamp_seconds", "When the last checked backup was written", registry=REGISTRY
)
# Set by the pass over the posts that wait (bot/discord/pending.py); 0 until it first runs.
UNDELIVERED.set(0)
UNDELIVERED_AGE.set(0)


def observe_action(game: str, seconds: float, refused: bool) -> None:
    """One action of `game` that took `seconds`: saved, or refused by the rules."""
    (REFUSALS if refused else ACTIONS).labels(game).inc()
    ACTION_SECONDS.labels(game).observe(seconds)


def observe_decision(game: str, player: str, seconds: float) -> None:
    DECISION_SECONDS.labels(game, player).observe(seconds)


def deadline_fired(lag_seconds: float) -> None:
    DEADLINE_LAG.observe(max(lag_seconds, 0.0))


# (monotonic time of the last pass, seconds until the pass after it is due)
_loop_beat: tuple[float, float] | None = None


def deadline_loop_ran(next_in: float) -> None:
    """The deadline loop finished a pass and means to run again within `next_in` seconds."""
    global _loop_beat
    _loop_beat = (time.monotonic(), next_in)
    DEADLINE_LOOP.set(time.time())


def discord_error(status: int) -> None:
    DISCORD_ERRORS.labels(str(status)).inc()


def database_error(during: str) -> None:
    DATABASE_ERRORS.labels(during).inc()


def set_undelivered(count: int, oldest_seconds: float) -> None:
    UNDELIVERED.set(count)
    UNDELIVERED_AGE.set(oldest_seconds if count else 0)


def backup_made(ok: bool) -> None:
    BACKUPS.labels("ok" if ok else "failed").inc()
    if ok:
        LAST_BACKUP.set(time.time())


# -- the database probe -------------------------------------------------------------------


def database_probe(database: Path | str, timeout: float = 2.0) -> Callable[[], dict[str, int]]:
    """A function that asks the database, on a connection of its own, how many tables it
    holds by status; it raises if the database does not answer within `timeout`."""
    if isinstance(database, Path):
        uri = database.resolve().as_uri() + "?mode=rw"  # never creates a file that went missing

        def sqlite_counts() -> dict[str, int]:
            conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
            try:
                return dict(conn.execute("SELECT status, COUNT(*) FROM tables GROUP BY status").fetchall())
            finally:
                conn.close()

        return sqlite_counts

    async def postgres_counts() -> dict[str, int]:
        import asyncpg

        conn = await asyncpg.connect(database, timeout=timeout)
        try:
            rows = await conn.fetch("SELECT status, COUNT(*) FROM tables GROUP BY status", timeout=timeout)
        finally:
            await conn.close()
        return {r[0]: r[1] for r in rows}

    return lambda: asyncio.run(postgres_counts())


# -- health --------------------------------------------------------------------------------

LOOP_SLACK = 60.0  # seconds a deadline pass may be late before the bot counts as unhealthy


class Health:
    """Whether the bot can serve: the database answers (and is still open), the front end
    is up (the gateway connected, or the console running) and, where a deadline loop runs
    in the background (Discord), it has run within the interval it set itself."""

    def __init__(
        self,
        probe: Callable[[], dict[str, int]],
        *,
        front_end: Callable[[], bool] = lambda: True,
        deadline_loop: bool = False,
        store: Any = None,
    ) -> None:
        self.probe = probe
        self.front_end = front_end
        self.deadline_loop = deadline_loop
        self.store = store
        self.database_open = True

    def store_closing(self) -> None:
        """The bot is closing its database: from now on it is not healthy."""
        self.database_open = False

    def tables(self) -> dict[str, int] | None:
        """Tables by status, or None when the database does not answer."""
        if not self.database_open or getattr(self.store, "lost", False):
            return None
        try:
            return self.probe()
        except Exception:
            database_error("health")
            return None

    def check(self) -> list[str]:
        """What is wrong, in words; [] when healthy."""
        problems = []
        if self.tables() is None:
            problems.append("the database does not answer")
        try:
            up = self.front_end()
        except Exception:
            up = False
        if not up:
            problems.append("not connected to Discord")
        if self.deadline_loop:
            beat = _loop_beat
            if beat is None:
                problems.append("the deadline loop has not run yet")
            elif time.monotonic() > beat[0] + beat[1] + LOOP_SLACK:
                late = time.monotonic() - beat[0] - beat[1]
                problems.append(f"the deadline loop is {late:.0f} s late")
        return problems


class _TablesCollector:
    """`chancellery_tables{status}`, counted when Prometheus asks."""

    def __init__(self, health: Health) -> None:
        self.health = health

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily("chancellery_tables", "Tables by status", labels=["status"])
        for status, count in sorted((self.health.tables() or {}).items()):
            family.add_metric([status], count)
        yield family


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # a scrape every 15 s is not news
        pass


class MetricsServer:
    """`/metrics` and `/healthz` on `host:port`, served from a daemon thread."""

    def __init__(self, health: Health, port: int, host: str = "127.0.0.1") -> None:
        self.health = health
        self._collector = _TablesCollector(health)
        REGISTRY.register(self._collector)
        metrics = make_wsgi_app(REGISTRY)

        def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
            path = environ.get("PATH_INFO", "")
            if path == "/metrics":
                return metrics(environ, start_response)
            if path == "/healthz":
                problems = health.check()
                status = "503 Service Unavailable" if problems else "200 OK"
                body = ("; ".join(problems) if problems else "ok").encode() + b"\n"
            else:
                status, body = "404 Not Found", b"/metrics or /healthz\n"
            start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))])
            return [body]

        try:
            self._server = make_server(host, port, app, ThreadingWSGIServer, handler_class=_Quiet)
        except BaseException:
            REGISTRY.unregister(self._collector)
            raise
        self.port = self._server.server_port
        self._thread = threading.Thread(target=self._server.serve_forever, name="chancellery-metrics", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        REGISTRY.unregister(self._collector)


def serve(config: Any, health: Health) -> MetricsServer | None:
    """The endpoint on `metrics_port`, or None when it is not set."""
    port = getattr(config, "metrics_port", None)
    if port is None:
        return None
    host = getattr(config, "metrics_host", "127.0.0.1")
    try:
        server = MetricsServer(health, port, host)
    except OSError as exc:
        from .runtime import CannotStart

        raise CannotStart(f"metrics_port {port}: cannot listen on {host}:{port} ({exc.strerror})") from None
    log.info("metrics at http://%s:%d/metrics, health at /healthz", host, server.port)
    return server

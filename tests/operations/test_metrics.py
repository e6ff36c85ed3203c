"""The metrics endpoint: Prometheus metrics at /metrics, and /healthz answering 200 only
while the database answers, the front end is up and the deadline loop keeps its time."""

from __future__ import annotations

import io
import urllib.error
import urllib.request

import pytest

from bot.console.console import Console
from bot.process import metrics
from bot.service.scheduler import Scheduler
from bot.service.tables import TableService
from bot.store import open_store

from .conftest import SETUP

pytestmark = pytest.mark.processes


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _sample(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise AssertionError(f"{name} not in the metrics")


async def _played(db) -> tuple[object, TableService]:
    store = await open_store(db)
    service = TableService(store)
    console = Console(service, io.StringIO())
    for line in [*SETUP, "auto 3"]:
        assert await console.line(line)
    return store, service


async def test_metrics_and_health_are_served_then_503_once_the_database_is_closed(clean_env):
    db = clean_env / "tables.sqlite3"
    before = metrics.REGISTRY.get_sample_value("chancellery_actions_total", {"game": "crisis1914"}) or 0
    store, _ = await _played(db)
    health = metrics.Health(metrics.database_probe(db), store=store)
    server = metrics.MetricsServer(health, 0)  # port 0: a free port
    try:
        status, text = _get(server.port, "/metrics")
        assert status == 200
        assert _sample(text, 'chancellery_actions_total{game="crisis1914"}') == before + 3
        assert _sample(text, 'chancellery_action_seconds_count{game="crisis1914"}') >= 3
        assert _sample(text, 'chancellery_tables{status="running"}') == 1
        assert _sample(text, "chancellery_undelivered_posts") == 0
        assert "chancellery_deadline_lag_seconds_bucket" in text
        assert "# TYPE chancellery_database_errors_total counter" in text
        assert _get(server.port, "/healthz") == (200, "ok\n")
        health.store_closing()  # what the bot does as it closes the database
        await store.close()
        status, text = _get(server.port, "/healthz")
        assert status == 503 and "database" in text
    finally:
        server.close()


async def test_health_is_503_when_the_database_file_is_gone(clean_env):
    db = clean_env / "tables.sqlite3"
    store, _ = await _played(db)
    server = metrics.MetricsServer(metrics.Health(metrics.database_probe(db), store=store), 0)
    try:
        assert _get(server.port, "/healthz")[0] == 200
        db.rename(clean_env / "elsewhere.sqlite3")
        status, text = _get(server.port, "/healthz")
        assert status == 503 and "the database does not answer" in text
    finally:
        server.close()
        await store.close()


async def test_health_needs_the_gateway_and_a_deadline_loop_that_keeps_its_time(clean_env, monkeypatch):
    db = clean_env / "tables.sqlite3"
    store, service = await _played(db)
    connected = [False]
    health = metrics.Health(
        metrics.database_probe(db), store=store, front_end=lambda: connected[0], deadline_loop=True
    )
    server = metrics.MetricsServer(health, 0)
    try:
        monkeypatch.setattr(metrics, "_loop_beat", None)
        status, text = _get(server.port, "/healthz")
        assert status == 503 and "not connected to Discord" in text and "has not run yet" in text
        connected[0] = True
        await Scheduler(service).run_once(lambda out: _nothing())
        assert _get(server.port, "/healthz") == (200, "ok\n")
        # a loop that meant to run again within its interval and did not: unhealthy
        when, interval = metrics._loop_beat
        monkeypatch.setattr(metrics, "_loop_beat", (when - interval - metrics.LOOP_SLACK - 5, interval))
        status, text = _get(server.port, "/healthz")
        assert status == 503 and "deadline loop is" in text
    finally:
        server.close()
        await store.close()


async def _nothing() -> None:
    return None


def test_an_unknown_path_is_404_and_the_port_in_use_stops_the_start(clean_env):
    import pytest

    from bot.process.runtime import CannotStart

    health = metrics.Health(lambda: {})
    server = metrics.MetricsServer(health, 0)
    try:
        assert _get(server.port, "/")[0] == 404

        class Busy:
            metrics_port = server.port
            metrics_host = "127.0.0.1"

        with pytest.raises(CannotStart, match=f"metrics_port {server.port}"):
            metrics.serve(Busy(), health)
    finally:
        server.close()

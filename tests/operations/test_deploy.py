"""The deployment files run the commands this suite tests: the container and the systemd
unit start `python -m bot run`, the container's health check is a request to the
configured metrics port's /healthz that fails on 503, and the stop timeouts stay above
the grace period. No container engine runs here, so the files are read and their
commands run."""

from __future__ import annotations

import configparser
import json
import os
import shlex
import subprocess
import sys

import pytest

from bot.process import metrics
from bot.process.config import Config, load_config

from .conftest import ROOT

pytestmark = pytest.mark.processes


def _dockerfile() -> dict[str, list[str]]:
    """Each instruction's arguments (the last of each kind wins, as in Docker); exec form."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        found[word.upper()] = [rest.strip()]
    return found


def _exec_form(text: str) -> list[str]:
    return json.loads(text)


def test_the_container_runs_the_bot_as_a_non_root_user_with_the_data_as_a_volume():
    docker = _dockerfile()
    assert docker["FROM"] == ["python:3.11-slim"]
    command = _exec_form(docker["ENTRYPOINT"][0]) + _exec_form(docker["CMD"][0])
    assert command == ["python", "-m", "bot", "run"]
    assert docker["USER"] != ["root"]
    assert _exec_form(docker["VOLUME"][0]) == ["/srv/chancellery/data"]
    assert docker["WORKDIR"] == ["/srv/chancellery"]  # so data/chancellery.sqlite3 is in the volume
    assert docker["STOPSIGNAL"] == ["SIGTERM"]


def _container_env() -> dict[str, str]:
    (line,) = _dockerfile()["ENV"]
    return dict(pair.split("=", 1) for pair in shlex.split(line))


def test_the_health_check_asks_the_configured_port_and_fails_on_503(monkeypatch):
    env = _container_env()
    for key, value in env.items():
        if key.startswith("CHANCELLERY_"):
            monkeypatch.setenv(key, value)
    config = load_config(None)  # the container's settings are valid configuration
    assert config.metrics_port == int(env["CHANCELLERY_METRICS_PORT"]) and config.metrics_host == "0.0.0.0"
    options, _, exec_form = _dockerfile()["HEALTHCHECK"][0].partition(" CMD ")
    check = _exec_form(exec_form)
    assert check[0] == "python"
    healthy = [True]
    server = metrics.MetricsServer(metrics.Health(lambda: {}, front_end=lambda: healthy[0]), 0)
    try:
        run_env = os.environ | {"CHANCELLERY_METRICS_PORT": str(server.port)}

        def run() -> int:
            return subprocess.run([sys.executable, *check[1:]], env=run_env, timeout=30, capture_output=True).returncode

        assert run() == 0
        healthy[0] = False  # /healthz answers 503
        assert run() != 0
    finally:
        server.close()
    assert "--timeout=5s" in options


def test_the_systemd_unit_runs_the_same_command_and_outwaits_the_grace_period():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(ROOT / "deploy" / "chancellery.service", encoding="utf-8")
    service = unit["Service"]
    command = shlex.split(service["ExecStart"])
    assert os.path.basename(command[0]) == "python" and command[1:] == ["-m", "bot", "run"]
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"
    assert float(service["TimeoutStopSec"]) > Config().shutdown_grace_seconds
    assert service["RestartPreventExitStatus"] == "2"  # cannot start: a restart would not help


def test_compose_builds_this_image_on_postgres_and_outwaits_the_grace_period():
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "image: postgres:" in text and "build: ." in text
    assert "CHANCELLERY_DATABASE: postgresql://" in text
    (grace,) = [line.split(":")[1].strip() for line in text.splitlines() if "stop_grace_period" in line]
    assert grace.endswith("s") and float(grace[:-1]) > Config().shutdown_grace_seconds

"""Fixtures of the reliability suite (docs/reliability.md): the tiny test game registered,
a clean environment, and a way to run a command on a file system of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

import tests.tinygame

PYTHON = sys.executable


@pytest.fixture
def registry(monkeypatch):
    """The real games plus the test game, for this test only."""
    return tests.tinygame.registered(monkeypatch)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path):
    for key in list(os.environ):
        if key == "DISCORD_TOKEN" or key.startswith("CHANCELLERY_"):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def namespace_reason() -> str | None:
    """Why a private mount namespace is unavailable (None: it is). Tests that need a
    read-only or a tiny file system mount one there, so they need no root on the host."""
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return "needs Linux with `unshare` to mount a private file system"
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs tmpfs /tmp"], capture_output=True, timeout=20
    )
    if probe.returncode != 0:
        return "user namespaces are not allowed here, so no private tmpfs can be mounted: " + (
            probe.stderr.decode(errors="replace").strip()
        )
    return None


def in_namespace(script: str, *, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run a shell script as root of a private user and mount namespace."""
    return subprocess.run(
        ["unshare", "-rm", "sh", "-ec", script], capture_output=True, text=True, timeout=timeout
    )

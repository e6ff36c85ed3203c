"""A throwaway PostgreSQL server for the tests, started from the machine's binaries.

Each test process (each xdist worker) starts one in a temporary directory, on a free
port on 127.0.0.1, and stops it at the end; each test gets a database of its own
(`new_database`). PostgreSQL refuses to run as root, so when the tests run as root the
server runs as an unprivileged user (`postgres` if the machine has one, else `nobody`).
It is tuned for tests only (no fsync): nothing here is a durable server.

The binaries are found on PATH (`initdb`, `pg_ctl`) or under /usr/lib/postgresql/*/bin.
`./scripts/test` installs them when it can (scripts/_env.sh, `ensure_postgres`); without
them the PostgreSQL tests fail with a message that says how to install them; they are
never silently skipped.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

__all__ = ["PostgresServer", "find_bindir", "MISSING"]

MISSING = (
    "The PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found. Install them "
    "(Debian/Ubuntu: apt-get install postgresql) or run ./scripts/test as root, which installs them."
)


def find_bindir() -> Path | None:
    initdb = shutil.which("initdb")
    if initdb:
        return Path(os.path.realpath(initdb)).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_user() -> pwd.struct_passwd | None:
    """Whom the server runs as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise RuntimeError("running as root, and neither a 'postgres' nor a 'nobody' user exists")


class PostgresServer:
    def __init__(self) -> None:
        bindir = find_bindir()
        if bindir is None:
            raise RuntimeError(MISSING)
        self.bindir = bindir
        self.user = _server_user()
        self.base = Path(tempfile.mkdtemp(prefix="chancellery-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        self._names = itertools.count(1)
        if self.user is not None:
            os.chown(self.base, self.user.pw_uid, self.user.pw_gid)

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        kwargs: dict = {}
        if self.user is not None:
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        return subprocess.run(
            args, cwd=self.base, capture_output=True, text=True, check=True, timeout=60, **kwargs
        )

    def start(self) -> PostgresServer:
        self._run(
            str(self.bindir / "initdb"),
            "-D", str(self.data),
            "-U", "chancellery",
            "--auth=trust",
            "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip
        options = (
            f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.base / "server.log"), "-w", "start",
        )  # fmt: skip
        return self

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.base, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://chancellery@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database; its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        self._run(str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "chancellery",
                  "-d", "postgres", "-q", "-c", f"CREATE DATABASE {name}")  # fmt: skip
        return self.url(name)

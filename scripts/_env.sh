# Sourced by scripts/run and scripts/test: make .venv and install the project into it,
# but only when pyproject.toml changed since the last install (a stamp holds its hash),
# so a second run starts at once.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.11 python3.12 python3.13 python3 python; do
        [ -n "$candidate" ] || continue
        command -v "$candidate" >/dev/null 2>&1 || continue
        if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
            echo "$candidate"
            return 0
        fi
    done
    echo "Chancellery needs Python 3.11 or newer; none found (set PYTHON=/path/to/python3.11)." >&2
    return 1
}

# ensure_env EXTRA: EXTRA is "" for the bot alone or "test" for the bot and its tests.
ensure_env() {
    local extra="$1" spec="." stamp want
    [ -n "$extra" ] && spec=".[$extra]"
    if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c '' >/dev/null 2>&1; then
        local python
        python="$(find_python)" || return 1
        echo "Creating $VENV with $python ..." >&2
        rm -rf "$VENV"
        if ! "$python" -m venv "$VENV"; then
            echo "Could not create $VENV (on Debian or Ubuntu: apt install python3.11-venv)." >&2
            rm -rf "$VENV"
            return 1
        fi
    fi
    want="$("$VENV/bin/python" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$ROOT/pyproject.toml")"
    stamp="$VENV/.installed-${extra:-base}"
    # the test install is a superset of the plain one
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] || { [ -z "$extra" ] && [ "$(cat "$VENV/.installed-test" 2>/dev/null)" = "$want" ]; }; then
        return 0
    fi
    echo "Installing chancellery$([ -n "$extra" ] && echo "[$extra]") into $VENV ..." >&2
    (cd "$ROOT" && "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -e "$spec") || return 1
    echo "$want" >"$stamp"
}

# apt_install PACKAGE WHY: install a Debian package the tests need when we may (root with
# apt-get), updating the package lists once if the first attempt fails.
apt_install() {
    local package="$1" why="$2"
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
    echo "Installing $why (apt-get install $package) ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$package" >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "$package" >/dev/null 2>&1; }
}

# ensure_postgres: the tests start PostgreSQL servers of their own (tests/pgserver.py) from
# the machine's server binaries; install them when missing.
ensure_postgres() {
    if command -v initdb >/dev/null 2>&1 || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
        return 0
    fi
    apt_install postgresql "the PostgreSQL server binaries for the tests" && return 0
    echo "The tests need the PostgreSQL server binaries (initdb, pg_ctl): apt-get install postgresql." >&2
    return 1
}

# ensure_chromium: the replay page's tests open it in Debian's headless chromium
# (/usr/bin/chromium, driven by Playwright); install it when missing, so those tests run
# everywhere the suite runs and are never skipped.
ensure_chromium() {
    if [ -x /usr/bin/chromium ]; then
        return 0
    fi
    apt_install chromium "chromium for the replay page's browser tests" && return 0
    echo "The tests need Debian's chromium at /usr/bin/chromium: apt-get install chromium." >&2
    return 1
}

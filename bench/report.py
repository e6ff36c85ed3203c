"""Regenerate bench/README.md: run each quick benchmark, parse what it prints, and write
its section (what it measures, the command, a table of the figures) between generated
markers.

    .venv/bin/python bench/report.py                          # every section, a few minutes on 2 cores
    .venv/bin/python bench/report.py --only engine,startup    # only these sections
    .venv/bin/python bench/report.py --save-output DIR        # also keep each benchmark's output in DIR
    .venv/bin/python bench/report.py --from-output DIR        # no benchmark run: parse DIR's outputs

Each benchmark runs with settings short enough for the whole report to fit a few minutes
on a 2-core machine; the long runs (reliability, PostgreSQL, the simulations) are run by
hand and listed in the README outside the generated sections. A benchmark that fails or
prints something the parser does not recognise leaves its section as it was, is named on
stderr, and makes the exit status 1. Sections not run keep their figures and their own
"measured" line, so the README always says which commit, date and machine each table is
from.

This file runs the benchmarks, says where and when, and writes the README's generated
blocks; what each section measures and which commands it runs are in
bench/report_sections.py, and how each benchmark's output becomes its tables in
bench/report_figures.py.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.report_figures import Unparsed, prose  # noqa: E402
from bench.report_sections import SECTIONS, Run, Section  # noqa: E402

README = ROOT / "bench" / "README.md"
BY_NAME = {s.name: s for s in SECTIONS}


# -- where and when -------------------------------------------------------------------------
def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def commit() -> str:
    head = _git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return head + ("-dirty" if dirty else "")


def interpreter() -> str:
    """The Python the benchmarks run with: the project's virtual environment when there is one."""
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def machine() -> dict[str, str]:
    try:
        version = subprocess.run(
            [interpreter(), "-c", "import platform; print(platform.python_version())"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        version = platform.python_version()
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = " ".join(line.split(":", 1)[1].split())
                break
    except OSError:
        pass
    return {"cpus": str(os.cpu_count() or "?"), "python": version, "cpu_model": model}


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def load() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "?"


# -- the README's generated blocks ----------------------------------------------------------
def markers(name: str) -> tuple[str, str]:
    return (
        f"<!-- generated:{name} begin (python bench/report.py; do not edit by hand) -->",
        f"<!-- generated:{name} end -->",
    )


def block(text: str, name: str) -> str | None:
    begin, end = markers(name)
    if begin not in text or end not in text:
        return None
    return text.split(begin, 1)[1].split(end, 1)[0].strip("\n")


def replace_block(text: str, name: str, body: str) -> str:
    begin, end = markers(name)
    before, rest = text.split(begin, 1)
    after = rest.split(end, 1)[1]
    return f"{before}{begin}\n{body}\n{end}{after}"


SKELETON_TOP = """\
# Benchmarks

Not tests: the figures depend on the machine and on what else it is doing.
`.venv/bin/python bench/report.py` runs the quick benchmarks below and rewrites each
section between its generated markers (`--only engine,startup` for some of them); the
text outside the markers is written by hand.
"""


def skeleton() -> str:
    """A README with every generated block empty, for when bench/README.md has none yet."""
    parts = [SKELETON_TOP]
    for name in ("header", *BY_NAME):
        begin, end = markers(name)
        parts.append(f"{begin}\n{end}\n")
    return "\n".join(parts)


def section_text(section: Section, outputs: dict[str, str], when: dict[str, str]) -> str:
    """A section's whole block: heading, what it measures, the command, the figures."""
    commands = "\n".join(run.command for run in section.runs)
    measured = prose(
        f"Measured at `{when['commit']}` on {when['date']}: {when['cpus']} CPUs, Python {when['python']}, "
        f"load average {when['load']} at the start."
    )
    return (
        f"## {section.heading}\n\n{section.about}\n\n```sh\n{commands}\n```\n\n{measured}\n\n"
        f"{section.figures(outputs)}"
    )


def header_text(meta: dict[str, str], names: list[str], seconds: float | None) -> str:
    ran = (
        "every section"
        if set(names) == set(BY_NAME)
        else "the sections " + ", ".join(f"`{n}`" for n in names)
    )
    took = f" in {seconds / 60:.1f} minutes" if seconds is not None else ""
    cpu = f" ({meta['cpu_model']})" if meta.get("cpu_model") else ""
    return prose(
        f"Last run: {ran}{took}, at `{meta['commit']}` on {meta['date']}; {meta['cpus']} CPUs{cpu}, "
        f"Python {meta['python']}, load average {meta['load']} at the start. Each section below "
        "names the commit, date and load it was measured at."
    )


# -- running ---------------------------------------------------------------------------------
def run_one(run: Run) -> str:
    """The benchmark's output (stdout, then stderr); Unparsed if it failed."""
    done = subprocess.run(
        [interpreter(), str(ROOT / "bench" / run.script), *run.args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode not in run.codes:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
        raise Unparsed(f"`{run.command}` exited with {done.returncode}:\n{tail}")
    return done.stdout + done.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated sections: " + ",".join(BY_NAME))
    parser.add_argument("--from-output", type=Path, help="parse the outputs kept in DIR instead of running")
    parser.add_argument("--save-output", type=Path, help="keep each benchmark's output in DIR")
    parser.add_argument(
        "--readme", type=Path, default=README, help="the file to write (default bench/README.md)"
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",")] if args.only else list(BY_NAME)
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        parser.error(f"no section {', '.join(unknown)}; the sections are {', '.join(BY_NAME)}")

    start = time.perf_counter()
    kept = args.from_output / "meta.json" if args.from_output else None
    meta = json.loads(kept.read_text()) if kept and kept.exists() else {}
    # a run measures here and now; kept output says where and when it was measured, or
    # is taken as measured here and now
    meta = {"commit": commit(), "date": now(), "load": load(), **machine(), "runs": {}, **meta}
    if args.save_output:
        args.save_output.mkdir(parents=True, exist_ok=True)

    text = args.readme.read_text(encoding="utf-8") if args.readme.exists() else ""
    if any(block(text, n) is None for n in ("header", *BY_NAME)):
        old = text
        text = skeleton()
        for name in BY_NAME:  # keep whatever sections the old file already had
            if (kept_block := block(old, name)) is not None:
                text = replace_block(text, name, kept_block)

    failed = []
    for name in names:
        section = BY_NAME[name]
        outputs: dict[str, str] = {}
        when = {k: meta[k] for k in ("commit", "date", "cpus", "python")}
        try:
            for i, run in enumerate(section.runs):
                if args.from_output:
                    outputs[run.id] = (args.from_output / f"{run.id}.txt").read_text(encoding="utf-8")
                    started = meta["runs"].get(run.id, {})
                else:
                    started = {"date": now(), "load": load()}
                    print(f"{run.command}", file=sys.stderr, flush=True)
                    outputs[run.id] = run_one(run)
                    meta["runs"][run.id] = started
                    if args.save_output:
                        (args.save_output / f"{run.id}.txt").write_text(outputs[run.id], encoding="utf-8")
                if i == 0:
                    when["date"] = started.get("date", meta["date"])
                    when["load"] = started.get("load", meta["load"])
            body = section_text(section, outputs, when)
        except (Unparsed, OSError) as error:
            failed.append(name)
            print(f"{name}: not updated: {error}", file=sys.stderr)
            continue
        text = replace_block(text, name, body)
        args.readme.write_text(text, encoding="utf-8")  # each section as soon as it is measured

    if not args.from_output:
        meta["seconds"] = time.perf_counter() - start
    seconds = meta.get("seconds")
    text = replace_block(text, "header", header_text(meta, names, seconds))
    args.readme.write_text(text, encoding="utf-8")
    if args.save_output:
        (args.save_output / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    if failed:
        print(f"not updated: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"wrote {args.readme} ({', '.join(n for n in names if n not in failed)})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

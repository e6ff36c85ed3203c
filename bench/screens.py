"""The bot's messages as the Discord client shows them, photographed.

    .venv/bin/python bench/screens.py [--out DIR] [--width 1280,400] [--only crisis1914,...]

For each title (Crisis: 1914 at 3 players, Origins of World War I at 4, Schönbrunn at 4) a
seeded game is played through SimCord (bench/discord_screens.py says how), and these are
captured at each width by SimCord's Preview in headless Chromium: the table's entry in the
server's lobby channel, the table's status message, a turn notice by DM, the answer to
`/game me`, and the final standings. Each is written as a PNG with a `.txt` beside it (what
was captured) into the out folder (default docs/screens/). Printed per capture: its
characters and its height in pixels at each width; per game: the new channel messages per
round and the DMs per decision seen while the members played (every player away, so every
turn notice goes out), and the most taps from a notice to the decision it asks for.
Deterministic: fixed seeds, SimCord's virtual clock.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.discord_screens import PHONE_SCREEN, TITLES, Figures, capture_game, chromium, waiting_block  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def report(figures: Figures, widths: tuple[int, ...]) -> list[str]:
    t = figures.title
    lines = [f"{t.game_id}, {t.players} players, seed {t.seed}:"]
    by_name: dict[str, dict[int, tuple[int, int]]] = {}
    for c in figures.captures:
        by_name.setdefault(c.name, {})[c.width] = (c.characters, c.height)
        for d in c.diagnostics:
            lines.append(f"  ! {c.name} at {c.width} px: {d}")
    for name, at in by_name.items():
        chars = next(iter(at.values()))[0]
        heights = ", ".join(f"{at[w][1]} px at {w}" for w in widths if w in at)
        lines.append(f"  {name:<10} {chars:>5} characters; {heights}")
    for c in figures.captures:
        if c.name == "status":
            found = waiting_block(c, figures.awaited)
            where = f"ends {found.block_bottom:.0f} px down" if found else "is not found"
            lines.append(
                f"  at {c.width} px the line saying who is awaited ({', '.join(figures.awaited)}) {where} "
                f"the status message (a phone's first screen: {PHONE_SCREEN} px)"
            )
    rounds, decisions = max(figures.rounds, 1), max(figures.decisions, 1)
    taps = max(figures.taps, default=0)
    lines.append(
        f"  {figures.channel_messages} new channel messages in {figures.rounds} round{'' if figures.rounds == 1 else 's'} "
        f"({figures.channel_messages / rounds:.1f} a round); {figures.dms} DMs for {figures.decisions} "
        f"decisions ({figures.dms / decisions:.2f} a decision)"
    )
    lines.append(
        f"  taps from a notice to its decision: at most {taps} (of the {figures.played} decisions the members "
        f"took, {len(figures.taps)} from their notice's buttons or menus, {figures.not_from_notice} after a "
        "notice that did not offer them, the rest while the member was still at the table)"
    )
    return lines


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    parser.add_argument("--width", default="1280,400", help="comma-separated widths in px")
    parser.add_argument("--only", default="", help="comma-separated game ids")
    args = parser.parse_args(argv)
    widths = tuple(int(w) for w in args.width.split(","))
    only = {g for g in args.only.split(",") if g}
    args.out.mkdir(parents=True, exist_ok=True)
    async with chromium() as shared:
        for title in TITLES:
            if only and title.game_id not in only:
                continue
            figures = await capture_game(shared, title, args.out, widths)
            print("\n".join(report(figures, widths)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

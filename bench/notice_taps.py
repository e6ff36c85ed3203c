"""The most taps from a turn notice to its decision, per title and per kind of decision.

    .venv/bin/python bench/notice_taps.py [--only crisis1914,...] [--most 400]

Each title's seeded game (bench/discord_screens.py's `TITLES`: Crisis: 1914 at 3 players,
Origins at 4, Schönbrunn at 4) is played through SimCord by the basic automatic player's
choices, every player away so that every turn notice goes out, each decision made from
its notice as `discord_screens.decide` makes it; nothing is photographed. A tap is each
press: a button one, a menu two (open it, choose), a group's menu two more. Printed per
title: the most taps of a decision taken from its notice, and the most any choice of
those notices would have taken, per kind of decision. Deterministic: fixed seeds,
SimCord's virtual clock. The whole run takes about three minutes on two idle cores.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.discord_screens import TITLES, Figures, Title, decide, seated, world  # noqa: E402
from bot.discord.private import NOTICE_GRACE  # noqa: E402


async def count_taps(title: Title, most: int = 400) -> Figures:
    """`title`'s seeded game played from the members' notices, every player away, nothing
    photographed: every decision (at most `most`) counted as in `capture_game`."""
    figures = Figures(title)
    rng = random.Random(title.seed)
    async with world(title) as table:
        table.service.draw_pictures = False
        table.service.play.reviews = None  # the finished game's review (a search) is not measured here
        names = list(table.members)
        await table.slash(names[0], "game new", game=table.game.id)
        for name in names[1:]:
            await table.slash(name, "game join")
        await table.slash(names[0], "game start")
        await seated(table)
        while figures.played < most:
            state = await table.state()
            owing = table.owing(state)
            if not owing or table.game.outcome(state) is not None:
                break
            await table.env.advance_time(NOTICE_GRACE + 1)
            await decide(table, owing[0], figures, rng)
            figures.played += 1
    return figures


def tap_lines(figures: Figures) -> list[str]:
    """The most taps from a notice to a decision: the decisions taken, and any choice of
    their notices, per kind of decision."""
    t = figures.title
    taken = max(figures.taps, default=0)
    worst = max(figures.worst.values(), default=0)
    lines = [
        f"{t.game_id}, {t.players} players, seed {t.seed}: {figures.played} decisions, "
        f"{len(figures.taps)} from their notice ({figures.not_from_notice} not offered there); "
        f"most taps from a notice: {taken} for the decision taken, {worst} for any of its choices"
    ]
    for kind in sorted(figures.worst):
        lines.append(f"  {kind:<12} taken {figures.kinds.get(kind, '-')!s:>2}, any choice {figures.worst[kind]}")
    return lines


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The most taps from a turn notice to its decision, per title.")
    parser.add_argument("--only", default="", help="comma-separated game ids")
    parser.add_argument("--most", type=int, default=400, help="decisions played at most per title")
    args = parser.parse_args(argv)
    only = {g for g in args.only.split(",") if g}
    for title in TITLES:
        if not only or title.game_id in only:
            print("\n".join(tap_lines(await count_taps(title, args.most))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

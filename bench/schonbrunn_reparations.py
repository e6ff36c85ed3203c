"""What each type of Reparation is worth in Schönbrunn games between automatic players
(a balance question: "the content makes Indemnities far more valuable than the other
Reparations"). For every seat of every game: the Reparations it collected by type, the
Prestige that came straight from them, and its share of the win (shared first places split).

    python bench/schonbrunn_reparations.py --players 4 --games 200 --seed 1 --lineup basic

Prints, per type: cards collected per seat-game, the Prestige a card brought directly (its
collection, activation and End of the Game points; an Ally's marker and an Aid's help with a
Treaty are indirect and not counted), and the win share of seats by how many of that type they
collected, with a least-squares fit of win share on the four counts (the extra win share one
more card of the type brings, the others held equal).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.tools.simulate import game_seed, seat_players  # noqa: E402
from engine.core.players import player  # noqa: E402
from engine.core.playout import play_out  # noqa: E402
from engine.schonbrunn.content import card, cards  # noqa: E402
from engine.schonbrunn.game import Schonbrunn  # noqa: E402

TYPES = ("indemnity", "ally", "aid", "treaty")
NAMES = {c.name: c for c in cards().values()}


def direct_points(items: tuple[tuple[str, int], ...]) -> dict[str, float]:
    """Prestige from the cards themselves, by type, out of a player's `prestige_items`."""
    out: dict[str, float] = defaultdict(float)
    for label, points in items:
        m = re.search(r": (.+) (collected|activated)$", label)
        if m and m.group(1) in NAMES:
            out[NAMES[m.group(1)].type] += points
            continue
        if label.startswith("end of the game"):
            for part in re.findall(r"([^(,]+?) \+(\d+)", label.split("(", 1)[1]):
                name, n = part[0].strip(), int(part[1])
                if name == "Aids":
                    out["aid"] += n
                elif name in NAMES:
                    out[NAMES[name].type] += n
    return out


def _inverse(a: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small symmetric positive matrix."""
    m = len(a)
    w = [row[:] + [float(i == j) for j in range(m)] for i, row in enumerate(a)]
    for c in range(m):
        p = max(range(c, m), key=lambda r: abs(w[r][c]))
        w[c], w[p] = w[p], w[c]
        d = w[c][c]
        w[c] = [v / d for v in w[c]]
        for r in range(m):
            if r != c:
                f = w[r][c]
                w[r] = [v - f * u for v, u in zip(w[r], w[c], strict=True)]
    return [row[m:] for row in w]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lineup", default="basic")
    args = ap.parse_args()
    game = Schonbrunn()
    lineup = tuple(args.lineup.split(","))
    rows = []  # (counts per type, direct points per type, win share, prestige)
    for index in range(args.games):
        names = seat_players(lineup, args.players, index)
        policies = {f"s{i + 1}": player(game, name) for i, name in enumerate(names)}
        collected: dict[str, set[str]] = defaultdict(set)

        def watch(_old, _seat, _action, new, _events, collected=collected) -> None:
            for seat, p in new.players.items():
                collected[seat].update(p.screen, p.signed, p.under)

        out = play_out(game, args.players, game_seed(args.seed, index), seat_policies=policies, on_step=watch)
        winners = out.outcome.winners
        for seat, p in out.state.players.items():
            counts = [sum(1 for c in collected[seat] if card(c).type == t) for t in TYPES]
            pts = direct_points(p.prestige_items)
            share = 1 / len(winners) if seat in winners else 0.0
            rows.append((counts, [pts.get(t, 0.0) for t in TYPES], share, p.prestige))
    n = len(rows)
    print(f"Schönbrunn, {args.players} players, {args.games} games, seed {args.seed}, lineup {args.lineup}")
    print(f"{'type':10} {'cards/seat':>10} {'direct P/card':>14}   win share by cards held (seat-games)")
    for k, t in enumerate(TYPES):
        held = sum(r[0][k] for r in rows)
        pts = sum(r[1][k] for r in rows)
        by: dict[int, list[float]] = defaultdict(list)
        for r in rows:
            by[min(r[0][k], 4)].append(r[2])
        spread = ", ".join(
            f"{c}{'+' if c == 4 else ''}: {sum(v) / len(v):.1%} ({len(v)})" for c, v in sorted(by.items())
        )
        print(f"{t:10} {held / n:10.2f} {pts / max(held, 1):14.2f}   {spread}")
    # least squares: share ~ a + sum b_t * count_t (normal equations, no numpy here)
    x = [[1.0, *map(float, r[0])] for r in rows]
    y = [r[2] for r in rows]
    m = len(x[0])
    xtx = [[sum(a[i] * a[j] for a in x) for j in range(m)] for i in range(m)]
    inv = _inverse(xtx)
    xty = [sum(a[i] * b for a, b in zip(x, y, strict=True)) for i in range(m)]
    coef = [sum(inv[i][j] * xty[j] for j in range(m)) for i in range(m)]
    resid = [b - sum(c * v for c, v in zip(coef, a, strict=True)) for a, b in zip(x, y, strict=True)]
    sigma2 = sum(e * e for e in resid) / (n - m)
    se = [math.sqrt(max(inv[i][i] * sigma2, 0.0)) for i in range(m)]
    fit = ", ".join(f"{t} {coef[k + 1]:+.3f} ±{1.96 * se[k + 1]:.3f}" for k, t in enumerate(TYPES))
    print(f"win share per card held (least squares, 95%): {fit}")


if __name__ == "__main__":
    main()

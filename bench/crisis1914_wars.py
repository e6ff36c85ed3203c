"""Crisis: 1914: who loses the wars, seat by seat, in the very games of
`python -m bot simulate crisis1914 --players N --games K --seed S --lineup L`.

    python bench/crisis1914_wars.py --players 3 --games 20 --seed 16 --lineup defaults,quick

The simulate report names the statesman who lost but not the automatic player in that seat;
this replays the same games (`bot.tools.simulate.game_seed`, `seat_players`) and prints, for each
loser, its player, why it lost, the Week, the City Box at that Week's start and its plays in
it; then each player's losses, war share and wins against its fair share (95% Wilson).
`--first` starts at another game number (to extend a run).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.crisis1914_solitaire import wilson  # noqa: E402
from bot.tools.simulate import game_seed, seat_players  # noqa: E402
from engine.core.players import player  # noqa: E402
from engine.core.playout import play_out  # noqa: E402
from engine.crisis1914 import GAME  # noqa: E402
from engine.crisis1914.cards import card  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--lineup", default="defaults,quick")
    ap.add_argument("--first", type=int, default=0)
    args = ap.parse_args()
    lineup = tuple(args.lineup.split(","))
    losses: Counter[tuple[str, str]] = Counter()
    wins: defaultdict[str, float] = defaultdict(float)
    seated: Counter[str] = Counter()
    wars = 0
    for index in range(args.first, args.first + args.games):
        names = seat_players(lineup, args.players, index)
        name_of = {f"s{i + 1}": name for i, name in enumerate(names)}
        policies = {seat: player(GAME, name) for seat, name in name_of.items()}
        turns: defaultdict[str, list] = defaultdict(list)

        def on_step(before, seat, action, after, events, turns=turns):
            p = before.player_of(seat)
            if p is not None:
                turns[p.nation].append((before.week, action, p.score, dict(before.tension[p.nation])))

        result = play_out(GAME, args.players, game_seed(args.seed, index), seat_policies=policies, on_step=on_step)
        state = result.state
        for seat in result.outcome.winners:
            wins[name_of[seat]] += 1 / len(result.outcome.winners)
        seated.update(names)
        lost = [p for p in state.players.values() if p.lost]
        wars += bool(lost)
        for p in lost:
            losses[(name_of[p.seat], p.lost)] += 1
            week = [t for t in turns[p.nation] if t[0] == state.week]
            plays = [
                f"{type(x).__name__}{'(' + card(x.card).name + ')' if getattr(x, 'card', None) else ''}"
                f"{' with Belligerence' if getattr(x, 'belligerence', False) else ''} at {score}"
                for _, x, score, _ in week
                if type(x).__name__ in ("Play", "Resolve", "Draw", "Deliberate", "Pass")
            ]
            start = week[0][3] if week else "(no turn)"
            print(
                f"game {index}: {name_of[p.seat]} {GAME.seat_label(state, p.seat)} lost ({p.lost}) in Week "
                f"{state.week}; Tension at its start {start}, Belligerence {p.belligerence}; "
                f"{', '.join(plays) or 'no play'}"
            )
    n = args.games
    lo, hi = wilson(wars, n)
    print(f"war in {wars} of {n} games ({wars / n:.0%}, 95% {lo:.0%}-{hi:.0%})")
    for (name, why), k in sorted(losses.items()):
        print(f"  {name} lost {k}: {why}")
    for name in sorted(seated):
        share = wins[name] / seated[name]
        lo, hi = wilson(round(wins[name]), seated[name])
        fair = 1 / args.players
        print(
            f"  {name}: {share:.1%} of {seated[name]} seat-games, {share / fair:.2f}x fair "
            f"(95% {lo / fair:.2f}-{hi / fair:.2f})"
        )


if __name__ == "__main__":
    main()

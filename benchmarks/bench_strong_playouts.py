"""Do bots/strong's random playouts tell a won position from a lost one?

Where nothing is proven, the bot's tree search judges a position by the mean result of random
playouts from it (README of bots/strong, "A move, in order").  This takes positions from a
tournament's records (every ``--every``-th ply of every game), values each with ``arena solve``'s
engine within ``--solve`` seconds, and runs the engine's ``--playouts COUNT`` on the ones it
settles as won or lost for the player to move.  Per band of live (paintable) numbers it prints
how many were settled and won, the playouts' mean result on the won ones and on the lost ones
(a guide tells them apart: the two means differ), and how often "won when the mean is above
one half" is right, beside how often "always won" is.

    python benchmarks/bench_strong_playouts.py results/NAME/games.jsonl --every 1 --solve 2
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench_solve_reach import built_engine, record_positions, records_file

from players.paint import engine_lines
from players.paint import position as position_of
from referees.paint import PaintState, board_text, outcome

BANDS = ((1, 5), (6, 10), (11, 15), (16, 20), (21, 30), (31, 10**6))


def judge(args: tuple[str, PaintState, float, int]) -> tuple[int, str, float] | None:
    """(live numbers, "win" or "loss" for the player to move, the playouts' mean) of one position,
    or None where the solver does not settle it as won or lost."""
    binary, state, seconds, count = args
    lines = engine_lines(state, seconds, Path(binary))  # (the binary built once, not engine()'s hash per position)
    word = lines[0].split()[1] if lines else "unknown"
    if word not in ("win", "loss"):
        return None
    run = subprocess.run([binary, "--playouts", str(count)], input=board_text(state), capture_output=True,
                         text=True, check=True)
    return position_of(state).numbers, word, float(run.stdout.split()[3])  # playouts COUNT mean M


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=records_file, help="a tournament's games.jsonl (painting games)")
    parser.add_argument("--every", type=int, default=1, help="take every N-th ply of each game (default 1)")
    parser.add_argument("--solve", type=float, default=2.0, help="solver seconds per position (default 2)")
    parser.add_argument("--playouts", type=int, default=300, help="playouts per position (default 300)")
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    if min(args.every, args.playouts, args.parallel) < 1 or args.solve <= 0:
        parser.error("--every, --playouts and --parallel take a number of at least 1, --solve seconds above 0")
    built = built_engine("bench_strong_playouts")
    if built is None:
        return 2
    states = [state for _, state in record_positions(args.records, 0, args.every) if outcome(state) is None]
    tally: dict[tuple[int, int], Counter] = defaultdict(Counter)
    means: dict[tuple[int, int], dict[str, float]] = defaultdict(lambda: {"win": 0.0, "loss": 0.0})
    with ProcessPoolExecutor(args.parallel) as pool:
        jobs = [(str(built), state, args.solve, args.playouts) for state in states]
        unsettled = 0
        for judged in pool.map(judge, jobs):
            if judged is None:
                unsettled += 1
                continue
            live, value, mean = judged
            band = next(b for b in BANDS if b[0] <= live <= b[1])
            t = tally[band]
            t["settled"] += 1
            t["won"] += value == "win"
            t["playouts right"] += (mean > 0.5) == (value == "win")
            means[band][value] += mean
    print(f"{len(states)} positions; solver {args.solve:g} s, {args.playouts} playouts each")
    for band in BANDS:
        if band not in tally:
            continue
        t, m = tally[band], means[band]
        won, lost = t["won"], t["settled"] - t["won"]
        on_won = f"{m['win'] / won:.3f}" if won else "-"
        on_lost = f"{m['loss'] / lost:.3f}" if lost else "-"
        print(f"{band[0]}-{band[1] if band[1] < 10**6 else ''} live: settled {t['settled']}, won {won}; "
              f"playouts' mean on won {on_won}, on lost {on_lost}; "
              f"right by the mean {t['playouts right']}, by \"always won\" {won}")
    print(f"not settled as won or lost: {unsettled} (drawn, or beyond the solver's {args.solve:g} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

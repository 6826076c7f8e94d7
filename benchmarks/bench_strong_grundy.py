"""How good are bots/strong's Grundy estimates, the ranking's guide where nothing can be proven?

The ranking values each candidate move by the Grundy value of what it leaves (README of
bots/strong, "A move, in order"); a part too big for the exact search within a few thousand steps
gets an estimate.  This takes positions from a tournament's records (every ``--every``-th ply of
every game) and runs the engine's ``--grundy-check EXACT MODEL`` on each: for the parts of 2 to
16 numbers the ranking meets (the position's own, and those after every candidate move; at most
40 per position), the Grundy value by the exact search within ``--exact`` steps, by the model
(candidate regions only) within ``--model`` steps, and the parity of the part's numbers.  Where
the exact search settles, it is the reference: how often does each estimate give the same value,
and how often does it tell whether the value is 0 (what the ranking asks: a move that leaves the
opponent a Grundy value of 0 wins)?  Where the exact search does not settle a part, it can still
show the model's 0 wrong by finding a winning move there within ``--exact`` steps ("model 0 not
settled", of them "shown not 0"; a 0 it does not refute is not shown right).

    python benchmarks/bench_strong_grundy.py results/NAME/games.jsonl --every 2

Prints one line per size of part, then the totals.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor

from bench_solve_reach import built_engine, record_positions, records_file

from referees.paint import board_text

SIZES = ((2, 4), (5, 8), (9, 12), (13, 16))


def check(args: tuple[str, str, int, int]) -> list[tuple[int, int, int, int, int]]:
    """(numbers, exact, model, parity, refuted) for each part the engine looked at (-1: not settled;
    refuted: 1 where the model's 0 was shown wrong, 0 where not, -1 where not asked)."""
    binary, board, exact, model = args
    run = subprocess.run([binary, "--grundy-check", str(exact), str(model)], input=board, capture_output=True,
                         text=True, check=True)
    rows = []
    for line in run.stdout.splitlines():
        words = line.split()  # part N numbers: exact E model M parity P refuted F
        rows.append((int(words[1]), int(words[4]), int(words[6]), int(words[8]), int(words[10])))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=records_file, help="a tournament's games.jsonl (painting games)")
    parser.add_argument("--every", type=int, default=2, help="take every N-th ply of each game (default 2)")
    parser.add_argument("--exact", type=int, default=100_000, help="the exact search's steps per part (default 100000)")
    parser.add_argument("--model", type=int, default=20_000, help="the model's steps per part (default 20000)")
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    if min(args.every, args.exact, args.model, args.parallel) < 1:
        parser.error("--every, --exact, --model and --parallel take a number of at least 1")
    built = built_engine("bench_strong_grundy")
    if built is None:
        return 2
    boards = [board_text(state) for _, state in record_positions(args.records, 0, args.every)]
    tally: dict[tuple[int, int], Counter] = defaultdict(Counter)
    with ProcessPoolExecutor(args.parallel) as pool:
        for rows in pool.map(check, [(str(built), board, args.exact, args.model) for board in boards]):
            for numbers, exact, model, parity, refuted in rows:
                size = next(s for s in SIZES if s[0] <= numbers <= s[1])
                t = tally[size]
                t["parts"] += 1
                t["model settled"] += model >= 0
                if exact < 0:
                    if model == 0:
                        t["model 0 not settled"] += 1
                        t["shown not 0"] += refuted == 1
                    continue
                t["exact settled"] += 1
                t["parity right"] += parity == exact
                t["parity right on 0"] += (parity == 0) == (exact == 0)
                if model >= 0:
                    t["model right"] += model == exact
                    t["model right on 0"] += (model == 0) == (exact == 0)
    print(f"{len(boards)} positions; exact search {args.exact} steps, model {args.model} steps per part")
    total = Counter()
    for size in SIZES:
        if size in tally:
            total.update(tally[size])
            print(f"parts of {size[0]}-{size[1]} numbers: " + ", ".join(f"{k} {v}" for k, v in tally[size].items()))
    print("all parts: " + ", ".join(f"{k} {v}" for k, v in total.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How big a painting-game board does ``arena solve`` settle within a time limit?

For each size n, fresh boards shaped like the source's groups (n×n, max(1, n // 5) centers,
numbers from max(1, n // 3) to max(2, 2n // 3): n = 15 is group 2, n = 30 group 3) are solved
from their start by the C++ engine (bots/strong --solve) and by the Python solver
(ARENA_SOLVER=python), each within ``--seconds`` of CPU.  A size is settled when every board
of it is.  The engines must agree wherever they settle (exits 1 if not).  ``cpp-depth-first``
is the C++ engine with its root searched depth first (STRONG_ROUNDS=0), as it was before the
root was searched by rounds: the baseline for that change, measured in the same run.

    python benchmarks/bench_solve_reach.py --seconds 10 --sizes 5 6 7 8 9 10 11 12
    python benchmarks/bench_solve_reach.py --seconds 60 --sizes 10 11 12 13 --engines cpp
    python benchmarks/bench_solve_reach.py --seconds 60 --sizes 10 11 12 --engines cpp cpp-depth-first
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from generator.paint import generate_board
from players.paint import engine_lines, python_solve_lines


def shape(n: int) -> tuple[int, int, int, int]:
    return n, max(1, n // 5), max(1, n // 3), max(2, 2 * n // 3)


def solve(args: tuple[str, int, int, float]) -> tuple[str, int, int, str, float]:
    engine, n, seed, seconds = args
    state = generate_board(*shape(n), seed)
    start = time.perf_counter()
    if engine.startswith("cpp"):
        if engine == "cpp-depth-first":  # the engine's root searched depth first, as before rounds
            os.environ["STRONG_ROUNDS"] = "0"
        try:
            lines = engine_lines(state, seconds) or ["value: unknown (no C++ engine)"]
        finally:  # (the worker process solves the next board as asked)
            os.environ.pop("STRONG_ROUNDS", None)
    else:
        lines = python_solve_lines(state, seconds)
    return engine, n, seed, lines[0].split()[1], time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 6, 7, 8, 9, 10, 11, 12])
    parser.add_argument("--boards", type=int, default=4, help="boards per size (seeds 1..)")
    parser.add_argument("--engines", nargs="+", default=["python", "cpp"], choices=["python", "cpp", "cpp-depth-first"])
    parser.add_argument("--parallel", type=int, default=1, help="solves at once (1: timings undisturbed)")
    args = parser.parse_args()
    os.environ.pop("ARENA_SOLVER", None)
    jobs = [(e, n, seed, args.seconds) for n in args.sizes for e in args.engines for seed in range(1, args.boards + 1)]
    found: dict[tuple[str, int], list[tuple[int, str, float]]] = {}
    with ProcessPoolExecutor(args.parallel) as pool:
        for engine, n, seed, value, wall in pool.map(solve, jobs):
            found.setdefault((engine, n), []).append((seed, value, wall))
            print(f"{engine:15} n={n:2} seed {seed}: {value:7} {wall:6.1f} s", flush=True)
    bad = 0
    print(f"\nsettled within {args.seconds:g} s (boards of {args.boards} seeds per size):")
    for engine in args.engines:
        sizes = [n for n in args.sizes if all(v != "unknown" for _, v, _ in found[(engine, n)])]
        counts = " ".join(f"{n}:{sum(v != 'unknown' for _, v, _ in found[(engine, n)])}" for n in args.sizes)
        print(f"  {engine}: every board of sizes {sizes or 'none'}; largest {max(sizes) if sizes else '-'}"
              f" (boards settled per size {counts})")
    for n in args.sizes:
        for seed in range(1, args.boards + 1):
            values = {e: v for e in args.engines for s, v, _ in found[(e, n)] if s == seed and v != "unknown"}
            if len(set(values.values())) > 1:
                print(f"DISAGREE n={n} seed {seed}: {values}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""How big a painting-game board does ``arena solve`` settle within a time limit?

For each size n, fresh boards shaped like the source's groups (n×n, max(1, n // 5) centers,
numbers from max(1, n // 3) to max(2, 2n // 3): n = 15 is group 2, n = 30 group 3) are solved
from their start by the C++ engine (bots/strong --solve) and by the Python solver
(ARENA_SOLVER=python), each within ``--seconds`` of CPU.  A size is settled when every board
of it is.  The engines must agree wherever they settle (exits 1 if not).  ``cpp-depth-first``
is the C++ engine with its root searched depth first (STRONG_ROUNDS=0), as it was before the
root was searched by rounds: the baseline for that change, measured in the same run.
``--baseline REV`` adds the engine as of a git revision (``cpp@REV``, bots/strong/main.cpp of
that commit, compiled and cached as ``arena solve``'s engine) as a baseline.

``--positions GAMES.jsonl`` solves, instead of fresh boards, every position of the games in an
arena tournament's records (before each move; ``--from-ply`` skips the first moves, ``--every K``
keeps every K-th of the rest) and prints,
per engine, how many it settled and the time spent on those every engine settled.

    python benchmarks/bench_solve_reach.py --seconds 10 --sizes 5 6 7 8 9 10 11 12
    python benchmarks/bench_solve_reach.py --seconds 60 --sizes 10 11 12 13 --engines cpp
    python benchmarks/bench_solve_reach.py --seconds 60 --sizes 10 11 12 --engines cpp cpp-depth-first
    python benchmarks/bench_solve_reach.py --seconds 10 --positions results/NAME/games.jsonl --from-ply 12 --engines cpp --baseline HEAD~1
    python benchmarks/bench_solve_reach.py --seconds 3 --positions results/NAME/games.jsonl --from-ply 10 --every 8 --engines cpp --baseline HEAD~1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from arena.errors import ArenaError
from arena.replay import recorded_board
from arena.store import Store
from generator.paint import generate_board
from players.paint import engine, engine_lines, python_solve_lines
from referees.paint import PaintReferee, PaintState, apply_move, parse_move

ROOT = Path(__file__).resolve().parent.parent


def shape(n: int) -> tuple[int, int, int, int]:
    return n, max(1, n // 5), max(1, n // 3), max(2, 2 * n // 3)


def build(revision: str) -> Path:
    """bots/strong/main.cpp as of a git revision, compiled (and cached) as ``arena solve``'s engine."""
    shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:bots/strong/main.cpp"],
                           capture_output=True, check=False)
    binary = engine(shown.stdout) if shown.returncode == 0 else None
    if binary is None:
        why = shown.stderr.decode(errors="replace").strip() or "it does not compile, or there is no C++ compiler"
        print(f"bench_solve_reach: --baseline {revision}: no engine: {why}", file=sys.stderr)
        sys.exit(2)
    return binary


def records_file(text: str) -> Path:
    """argparse type: a tournament's records file (games.jsonl) that exists."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text}: no such file (a tournament's records: RESULTS/NAME/games.jsonl)")
    return path


def built_engine(script: str) -> Path | None:
    """bots/strong compiled (``arena solve``'s engine), or None after saying on standard error why
    ``script`` cannot run without it (its caller then exits with status 2)."""
    built = engine()
    if built is None:
        print(f"{script}: no C++ compiler (or ARENA_SOLVER=python): bots/strong cannot be built", file=sys.stderr)
    return built


def initial_state(record: dict, records: Path) -> PaintState:
    """The board a recorded game started from, found as ``arena replay`` finds it (relative to the
    working folder, else to the folder above ``results/``) and checked against its recorded hash."""
    try:
        return recorded_board(PaintReferee(), Store(records.parent), record)[1]
    except ArenaError as error:  # (a user's error, as for a bad option: exit status 2)
        print(f"{Path(sys.argv[0]).name}: {records}: {error}", file=sys.stderr)
        sys.exit(2)


def record_positions(path: Path, from_ply: int, every: int = 1,
                     to_ply: int | None = None) -> list[tuple[str, PaintState]]:
    """(name, position) before every `every`-th move from `from_ply` on (to `to_ply`, when given),
    of the games in a records file."""
    found = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        state = initial_state(record, path)
        for ply, move in enumerate(record["moves"]):
            if to_ply is not None and ply > to_ply:
                break
            if ply >= from_ply and (ply - from_ply) % every == 0:
                found.append((f"{record['id']} ply {ply}", state))
            state = apply_move(state, parse_move(move["output"]))
    return found


#: engine name -> its binary, for the ``cpp@REV`` baselines (set before the workers start)
BUILT: dict[str, Path] = {}


def solve(args: tuple) -> tuple[str, int, int, str, float]:
    """(engine, n, seed, value, wall seconds) of one board: n x n of that seed, or a given position."""
    engine, n, seed, seconds = args[:4]
    state = args[4] if len(args) > 4 else generate_board(*shape(n), seed)
    start = time.perf_counter()
    if engine in BUILT:
        lines = engine_lines(state, seconds, BUILT[engine]) or ["value: unknown (failed)"]
    elif engine.startswith("cpp"):
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
    parser.add_argument("--baseline", metavar="REV", help="also the C++ engine as of this git revision")
    parser.add_argument("--positions", type=records_file, metavar="GAMES.jsonl",
                        help="solve the positions of these games' records instead of fresh boards")
    parser.add_argument("--from-ply", type=int, default=0, help="with --positions: skip the moves before this one")
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="with --positions: only every K-th position of a game from --from-ply on (a sample)")
    args = parser.parse_args()
    os.environ.pop("ARENA_SOLVER", None)
    if any(e.startswith("cpp") for e in args.engines):
        engine()  # compiled (and cached) before any solve is timed
    if args.baseline:
        BUILT[f"cpp@{args.baseline}"] = build(args.baseline)
        args.engines.append(f"cpp@{args.baseline}")
    return positions(args) if args.positions else boards(args)


def positions(args: argparse.Namespace) -> int:
    if args.every < 1:
        print(f"bench_solve_reach: --every {args.every}: must be 1 or more", file=sys.stderr)
        return 2
    cases = record_positions(args.positions, args.from_ply, args.every)
    jobs = [(e, 0, i, args.seconds, state) for i, (_, state) in enumerate(cases) for e in args.engines]
    found: dict[int, dict[str, tuple[str, float]]] = {}
    with ProcessPoolExecutor(args.parallel) as pool:
        for engine, _, i, value, wall in pool.map(solve, jobs):
            found.setdefault(i, {})[engine] = (value, wall)
            if len(found[i]) == len(args.engines):
                print(f"{cases[i][0]}: " + ", ".join(f"{e} {v} {w:.1f} s" for e, (v, w) in found[i].items()), flush=True)
    names = args.engines
    both = [i for i in found if all(found[i][e][0] != "unknown" for e in names)]
    print(f"\n{len(cases)} positions, {args.seconds:g} s each:")
    for e in names:
        settled = sum(found[i][e][0] != "unknown" for i in found)
        print(f"  {e}: settled {settled}; {sum(found[i][e][1] for i in both):.1f} s on the {len(both)} every engine settled")
    bad = [i for i in found if len({v for v, _ in found[i].values() if v != "unknown"}) > 1]
    for i in bad:
        print(f"DISAGREE {cases[i][0]}: {found[i]}")
    return 1 if bad else 0


def boards(args: argparse.Namespace) -> int:
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

"""How well does bots/strong choose at a given ply, where nothing can be proven within a move?

Self-play games of bots/strong on fresh boards of a group are played up to ``--ply`` (0: the
first move); at that ply the bot, in each variant (environment settings of main.cpp's knobs,
e.g. ``STRONG_MODEL=0``), moves once, and ``arena solve``'s engine values the position after its
move within ``--solve`` seconds: *secured* when the opponent is lost there, *thrown* when the
opponent wins, else *draw* or *unknown*.  Variants are compared on the same positions; the union
of the positions any variant secured is a lower bound on the won ones.

On group 2, ply 2 (the first player's second move) is the first the solver settles after a
move within seconds; plies 0 and 1 decide most games but are out of its reach.  Group 3 games
differ more in length: ``--live N`` takes instead the first position of each game with at most N
live (paintable) numbers.

    python benchmarks/bench_strong_ply.py --group 2 --ply 2 --count 100 --variants "" STRONG_MODEL=0
    python benchmarks/bench_strong_ply.py --group 3 --live 20 --count 40 --variants "" STRONG_EXACT_MID=0.85

The bot runs as a plain process (no sandbox: the variants need its environment); it stops by its
own CPU clock as in a game.  Prints one summary line per variant.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench_solve_reach import built_engine

from generator.paint import GROUPS, generate_board
from players.paint import engine_lines
from players.paint import position as position_of
from referees.paint import apply_move, board_text, outcome, parse_board, parse_move

VERDICTS = {"loss": "secured", "win": "thrown", "draw": "draw"}


def bot_move(binary: str, board: str, env: dict[str, str], folder: Path) -> tuple[str, str]:
    """(game.out, how the bot chose: the last line of its STRONG_VERBOSE report)."""
    (folder / "game.in").write_text(board)
    run = subprocess.run([binary], cwd=folder, capture_output=True, text=True, timeout=30, check=False,
                         env={**os.environ, **env, "STRONG_VERBOSE": "1"})
    lines = run.stderr.strip().splitlines()
    return (folder / "game.out").read_text(), (lines[-1].split(",")[0] if lines else "?")


def position(args: tuple[str, int, int, int, int | None]) -> str | None:
    """The board at `ply` of a self-play game on the group's board of `seed` (or its first with at
    most `live` live numbers), or None if the game is over by then."""
    binary, group, seed, ply, live = args
    state = generate_board(*GROUPS[group], seed)
    with tempfile.TemporaryDirectory(prefix="bench-ply-") as tmp:
        folders = [Path(tmp) / "first", Path(tmp) / "second"]
        for folder in folders:
            folder.mkdir()
        for _ in range(10**6 if live is not None else ply):
            if outcome(state) is not None:
                return None
            if live is not None and position_of(state).numbers <= live:
                break
            text, _ = bot_move(binary, board_text(state), {}, folders[state.seat])
            state = apply_move(state, parse_move(text))
    return None if outcome(state) is not None else board_text(state)


def judge(args: tuple[str, dict[str, str], int, str, float]) -> tuple[int, str, str]:
    """(seed, verdict, how) of the variant's move from one position."""
    binary, env, seed, board, seconds = args
    with tempfile.TemporaryDirectory(prefix="bench-ply-") as tmp:
        text, how = bot_move(binary, board, env, Path(tmp))
    lines = engine_lines(apply_move(parse_board(board), parse_move(text)), seconds)
    word = lines[0].split()[1] if lines else "unknown"
    return seed, VERDICTS.get(word, "unknown"), how


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--group", type=int, default=2, choices=sorted(GROUPS))
    parser.add_argument("--ply", type=int, default=2, help="moves played before the one judged (default 2)")
    parser.add_argument("--live", type=int, metavar="N",
                        help="instead of --ply: the first position with at most N live numbers")
    parser.add_argument("--count", type=int, default=100, help="boards (default 100)")
    parser.add_argument("--seed", type=int, default=201, help="the first board's seed (default 201)")
    parser.add_argument("--solve", type=float, default=20.0, help="solver seconds after each move (default 20)")
    parser.add_argument("--variants", nargs="+", default=[""],
                        help='settings such as "STRONG_MODEL=0,STRONG_ROUNDS=0" ("" for the bot as shipped)')
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    built = built_engine("bench_strong_ply")  # compiled once and cached: the bot and the solver are one binary
    if built is None:
        return 2
    binary = str(built)
    seeds = range(args.seed, args.seed + args.count)
    with ProcessPoolExecutor(args.parallel) as pool:
        boards = pool.map(position, [(binary, args.group, seed, args.ply, args.live) for seed in seeds])
        cases = [(seed, board) for seed, board in zip(seeds, boards) if board is not None]
        where = f"with at most {args.live} live numbers" if args.live is not None else f"at ply {args.ply}"
        print(f"{len(cases)} positions {where} of group {args.group} games (seeds {seeds.start}-{seeds.stop - 1})",
              flush=True)
        union: set[int] = set()
        for variant in args.variants:
            env = dict(item.split("=", 1) for item in variant.split(",") if item)
            counts: dict[str, int] = {}
            hows: dict[str, int] = {}
            jobs = [(binary, env, seed, board, args.solve) for seed, board in cases]
            for seed, verdict, how in pool.map(judge, jobs):
                counts[verdict] = counts.get(verdict, 0) + 1
                if verdict == "secured":
                    union.add(seed)
                    hows[how] = hows.get(how, 0) + 1
            by = " (secured by: " + ", ".join(f"{k} {v}" for k, v in sorted(hows.items())) + ")" if hows else ""
            print(f"variant {variant or 'shipped'!r}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                  + by, flush=True)
        print(f"secured by some variant: {len(union)} of {len(cases)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

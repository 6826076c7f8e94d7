"""CPU time per move of the strong painting-game bot, measured the arena's way.

Plays the strong bot (bots/strong, compiled here as the arena compiles it; or
``--bot`` another, e.g. bots/search.py) against an opponent (greedy by default) on each board,
in both seat orders, every bot invocation a real process run by
``arena.sandbox.process.run_bot`` under the 1 s CPU limit, with ``--parallel`` games
at once (default 2: another game runs beside it, as in a tournament on this
2-core machine).  Prints the strong bot's CPU time per move (median, 90th
percentile, max) and the games' results; exits 1 if the max reaches
``--max`` (default 0.9 s) or any invocation of either bot was not ``ok``.

    python benchmarks/bench_strong.py                 # boards/group3
    python benchmarks/bench_strong.py boards/group2 --opponent bots/random.py
    python benchmarks/bench_strong.py --generate 3 --count 20 --opponent bots/mcts   # fresh 30x30 boards
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from arena.boards import find_boards
from arena.sandbox import Limits, run_bot
from referees.paint import PaintReferee, apply_move, check_move, outcome, parse_board

ROOT = Path(__file__).resolve().parent.parent
STRONG = ROOT / "bots" / "strong"


def command(bot: str, build: Path) -> list[str]:
    """How to run a bot: a .py file with this Python; a C++ file or a folder with main.cpp
    compiled (as the arena does: g++ -O2 -std=c++17) into ``build``; else the file itself."""
    path = Path(bot)
    if path.suffix == ".py":
        return [sys.executable, "-P", str(path)]
    source = path / "main.cpp" if path.is_dir() else path
    if source.suffix == ".cpp":
        binary = build / f"{path.stem}.bin"
        if not binary.exists():
            compiler = shutil.which("g++") or shutil.which("c++") or "g++"
            subprocess.run([compiler, "-O2", "-std=c++17", "-o", str(binary), str(source)], check=True)
        return [str(binary)]
    return [str(path)]


def play(board: str, bots: tuple[list[str], list[str]], strong_seat: int) -> tuple[str, list[float], list[str]]:
    """One game; (board name and result, strong's CPU per move, faults)."""
    referee, limits = PaintReferee(), Limits(cpu=1.0)
    state = parse_board(Path(board).read_text())
    times: list[float] = []
    faults: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-strong-") as tmp:
        while (end := outcome(state)) is None:
            seat = state.seat
            run = run_bot(bots[seat], Path(tmp) / str(seat), referee.render(state, seat), limits)
            if seat == strong_seat:
                times.append(run.cpu)
            if run.verdict != "ok":
                faults.append(f"{'strong' if seat == strong_seat else 'opponent'}: {run.verdict} {run.message}")
                break
            move = referee.parse(state, run.output)
            check_move(state, move)
            state = apply_move(state, move)
    if faults:
        result = "fault"
    else:
        result = "draw" if end.winner is None else ("strong" if end.winner == strong_seat else "opponent") + " wins"
    name = f"{Path(board).parent.name}/{Path(board).stem}"
    return f"{name}, strong {'first' if strong_seat == 0 else 'second'}: {result}", times, faults


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", default=[])
    parser.add_argument("--bot", default=str(STRONG), help="the bot measured (default bots/strong)")
    parser.add_argument("--opponent", default=str(ROOT / "bots" / "greedy.py"))
    parser.add_argument("--generate", type=int, metavar="GROUP", help="play fresh boards of this group instead")
    parser.add_argument("--count", type=int, default=10, help="how many fresh boards (default 10)")
    parser.add_argument("--seed", type=int, default=1000, help="the first fresh board's seed (default 1000)")
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--max", type=float, default=0.9, help="fail if a move takes this much CPU or more")
    args = parser.parse_args()
    build = Path(tempfile.mkdtemp(prefix="bench-strong-build-"))
    boards = [str(b) for b in find_boards(args.boards or ([] if args.generate else [str(ROOT / "boards" / "group3")]))]
    if args.generate:
        from generator.paint import GROUPS, generate_board
        from referees.paint import board_text
        for k in range(args.count):
            path = build / f"seed{args.seed + k}.in"
            path.write_text(board_text(generate_board(*GROUPS[args.generate], args.seed + k)))
            boards.append(str(path))
    strong = command(str(Path(args.bot).resolve()), build)
    opponent = command(str(Path(args.opponent).resolve()), build)  # bots run in their own folders
    games = [(b, (strong, opponent) if seat == 0 else (opponent, strong), seat) for b in boards for seat in (0, 1)]
    times: list[float] = []
    faults: list[str] = []
    with ProcessPoolExecutor(args.parallel) as pool:
        for line, cpu, bad in pool.map(play, *zip(*games)):
            print(line, flush=True)
            times += cpu
            faults += bad
    times.sort()
    print(f"strong: {len(times)} moves, CPU per move median {statistics.median(times):.3f} s, "
          f"90% {times[int(0.9 * (len(times) - 1))]:.3f} s, max {times[-1]:.3f} s (limit 1 s)")
    for fault in faults:
        print("fault:", fault)
    return 1 if faults or times[-1] >= args.max else 0


if __name__ == "__main__":
    sys.exit(main())

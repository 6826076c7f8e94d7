"""Speed-up of ``arena run --jobs 2`` over ``--jobs 1``, and whether parallel games stay fair.

Each bot burns CPU until its process has used between 0.8 and 0.9 s (drawn per
position, so both modes play the very same games), interpreter start-up
included, then plays a random legal paint move: close to the 1 s limit, so
that parallel games that inflate a move's measured CPU time (two games on two
cores share caches, memory bandwidth and, on SMT machines, cores) push moves
over the limit.  Limits are on CPU time, not wall time, precisely so that
``--jobs`` does not change verdicts; this is where that is checked.

The two modes are alternated over ``--runs`` rounds (1, 2, 2, 1, 1, 2, ...: each
mode goes first as often as the other), so that a change in the machine's
load hits both; the script prints every run, the median ratio of wall times
(target >= 1.7 on 2 free cores), the largest CPU time of a move in each mode,
and the fairness check: every run of either mode must give exactly the same
verdicts, with no time-limit at all.  Exit status 1 when that check fails.

    .venv/bin/python benchmarks/bench_jobs.py [--runs 3] [--low 0.8] [--high 0.9] [--boards boards/group1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 1.0  # the default CPU seconds per move of a two-player game

BOT = """
    import random, time
    from referees.paint import PaintReferee
    text = open("game.in").read()
    rng = random.Random(text)  # seeded by the position: both modes play the very same games
    burn = rng.uniform({low}, {high})
    while time.process_time() < burn:  # process time counts the interpreter's start-up too
        pass
    referee = PaintReferee()
    state = referee.load(text)
    open("game.out", "w").write(referee.move_text(referee.random_move(state, rng)))
"""


def run(folder: Path, jobs: int, boards: list[str], name: str) -> tuple[float, Counter, float]:
    """One tournament: its wall time, its verdicts and its largest CPU time of a move."""
    command = [sys.executable, "-m", "arena.cli", "run", "--bots", *map(str, sorted((folder / "bots").iterdir())),
               "--boards", *boards, "--name", name, "--results", str(folder / "results"), "--jobs", str(jobs)]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    seconds = time.perf_counter() - start
    verdicts: Counter = Counter()
    cpu = 0.0
    for line in (folder / "results" / name / "games.jsonl").read_text().splitlines():
        for move in json.loads(line)["moves"]:
            verdicts[_verdict(move)] += 1
            cpu = max(cpu, move["cpu"])
    return seconds, verdicts, cpu


def _verdict(move: dict) -> str:
    """A move's verdict; a time-limit with less than a second of CPU was the wall-clock cap
    (a machine so loaded that the bot did not get its CPU second within three)."""
    if move["verdict"] == "time-limit" and move["cpu"] < LIMIT:
        return "time-limit (wall clock)"
    return move["verdict"]


def schedule(runs: int) -> list[int]:
    """The order of the modes: 1, 2, 2, 1, 1, 2, ... (each mode first in half the rounds)."""
    order: list[int] = []
    for k in range(runs):
        order += [1, 2] if k % 2 == 0 else [2, 1]
    return order


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="rounds, each one tournament per mode (default 3)")
    parser.add_argument("--low", type=float, default=0.8, help="least CPU seconds a move uses (default 0.8)")
    parser.add_argument("--high", type=float, default=0.9, help="most CPU seconds a move uses (default 0.9)")
    parser.add_argument("--bots", type=int, default=2, help="how many bots (default 2)")
    parser.add_argument("--boards", nargs="+", default=[str(ROOT / "boards" / "group1")])
    args = parser.parse_args()
    times: dict[int, list[float]] = {1: [], 2: []}
    verdicts: list[tuple[int, Counter]] = []
    peak = {1: 0.0, 2: 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "bots").mkdir()
        for k in range(args.bots):
            (folder / "bots" / f"bot{k}.py").write_text(textwrap.dedent(BOT.format(low=args.low, high=args.high)))
        for n, jobs in enumerate(schedule(args.runs)):
            seconds, counts, cpu = run(folder, jobs, args.boards, f"run{n}-jobs{jobs}")
            times[jobs].append(seconds)
            verdicts.append((jobs, counts))
            peak[jobs] = max(peak[jobs], cpu)
            print(f"run {n + 1}: --jobs {jobs}: {seconds:6.1f} s   verdicts {dict(counts)}   largest move {cpu:.3f} s",
                  flush=True)
    ratios = [one / two for one, two in zip(times[1], times[2])]
    print(f"speed-up of --jobs 2: median {statistics.median(ratios):.2f}x over {len(ratios)} rounds "
          f"({', '.join(f'{r:.2f}' for r in ratios)}; target >= 1.7 on 2 free cores)")
    print(f"largest CPU time of a move: {peak[1]:.3f} s with --jobs 1, {peak[2]:.3f} s with --jobs 2 (limit 1 s)")
    return 0 if fair(verdicts) else 1


def fair(verdicts: list[tuple[int, Counter]]) -> bool:
    """Every run gave the same verdicts, none of them a time-limit; says which runs did not."""
    timed_out = [(n, jobs, counts) for n, (jobs, counts) in enumerate(verdicts, start=1)
                 if any(verdict.startswith("time-limit") for verdict in counts)]
    for n, jobs, counts in timed_out:
        print(f"UNFAIR: run {n} (--jobs {jobs}) gave {dict(counts)}: no move of these bots should reach the limit")
    disagree = len({tuple(sorted(counts.items())) for _, counts in verdicts}) > 1
    if disagree:
        print("UNFAIR: the runs disagree on the very same games: "
              + "; ".join(f"run {n} (--jobs {jobs}) {dict(counts)}" for n, (jobs, counts) in enumerate(verdicts, 1)))
    if not timed_out and not disagree:
        print("fair: every run of both modes gave the same verdicts, none a time-limit")
    return not timed_out and not disagree


if __name__ == "__main__":
    sys.exit(main())

"""Speed-up of ``arena run --jobs 2`` over ``--jobs 1`` with CPU-bound bots.

Each bot burns a fixed amount of CPU per move (well under the 1 s limit)
and then plays a random legal paint move.  The same tournament is run with
one job and with two; the script prints both wall times, the ratio
(target >= 1.7 on 2 cores) and whether the two runs gave the same
verdicts: parallel games must not cause time-limit verdicts that a single
job would not give, since limits are on CPU time, not wall time.

    python benchmarks/bench_jobs.py [--burn 0.25] [--boards boards/group1]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BOT = """
    import random, time
    from referees.paint import PaintReferee
    end = time.process_time() + {burn}
    while time.process_time() < end:
        pass
    referee = PaintReferee()
    text = open("game.in").read()
    state = referee.load(text)
    # seeded by the position, so both runs play the very same games
    open("game.out", "w").write(referee.move_text(referee.random_move(state, random.Random(text))))
"""


def run(folder: Path, jobs: int, boards: list[str]) -> tuple[float, Counter]:
    command = [sys.executable, "-m", "arena.cli", "run", "--bots", *map(str, sorted((folder / "bots").iterdir())),
               "--boards", *boards, "--name", f"jobs{jobs}", "--results", str(folder / "results"),
               "--jobs", str(jobs)]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    seconds = time.perf_counter() - start
    verdicts: Counter = Counter()
    for line in (folder / "results" / f"jobs{jobs}" / "games.jsonl").read_text().splitlines():
        verdicts.update(move["verdict"] for move in json.loads(line)["moves"])
    return seconds, verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--burn", type=float, default=0.25, help="CPU seconds each bot burns per move")
    parser.add_argument("--boards", nargs="+", default=[str(ROOT / "boards" / "group1")])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "bots").mkdir()
        for name in ("a", "b", "c"):
            (folder / "bots" / f"{name}.py").write_text(textwrap.dedent(BOT.format(burn=args.burn)))
        one, v1 = run(folder, 1, args.boards)
        two, v2 = run(folder, 2, args.boards)
    print(f"--jobs 1: {one:.1f} s   verdicts {dict(v1)}")
    print(f"--jobs 2: {two:.1f} s   verdicts {dict(v2)}")
    print(f"speed-up: {one / two:.2f}x (target >= 1.7 on 2 cores)")
    extra = v2["time-limit"] - v1["time-limit"]
    print(f"time-limit verdicts with 2 jobs beyond those with 1: {max(extra, 0)}")


if __name__ == "__main__":
    main()

"""Same results on a busy machine: a tournament of CPU-bound bots, idle and loaded.

Three painting-game bots burn 0.80, 0.84 and 0.88 s of CPU (by their own
clock, interpreter start-up included) before every move, then play a fixed
legal move, so every game has one right result.  The tournament is played
twice on the shipped group1 boards:

* idle: ``--jobs 1``, nothing else running;
* loaded: ``--jobs 4`` with four busy loops beside it (on 2 cores, each bot
  gets about a quarter of a core: 0.9 s of CPU takes over 3 s of wall time,
  past the 3 s wall-clock cap, unless the time spent waiting for a core is
  left out of it).

Prints, for each, the wall time, the verdicts, the faults and the largest
time a move waited for a core, and whether the two runs agree game for game
(same verdicts and outcomes).  ``tests/test_load.py`` runs the same check.
Usage: python benchmarks/bench_load.py [BOARD ...]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGETS = {"burn80": 0.80, "burn84": 0.84, "burn88": 0.88}
BURNER = """\
import time
from referees.paint import parse_board, playable_numbers, regions

while time.process_time() < {target}:  # CPU since the process started, start-up included
    pass
state = parse_board(open("game.in").read())
cells = next(regions(state, playable_numbers(state)[0]))
lines = [str(len(cells))] + [f"{{i // state.n}} {{i % state.n}}" for i in sorted(cells)]
open("game.out", "w").write("\\n".join(lines) + "\\n")
"""
BUSY = "while True: pass"


def write_burners(folder: Path) -> list[Path]:
    """The three bots, written into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, target in TARGETS.items():
        path = folder / f"{name}.py"
        path.write_text(BURNER.format(target=target))
        paths.append(path)
    return paths


def play(bots: list[Path], boards: list[str], results: Path, name: str, jobs: int, busy: int) -> dict:
    """Run the tournament with ``busy`` busy loops beside it; its records by game id and its wall time."""
    loops = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(busy)]
    try:
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "arena.cli", "run", "--bots", *map(str, bots), "--boards", *boards,
                        "--results", str(results), "--name", name, "--jobs", str(jobs)],
                       check=True, capture_output=True, text=True, cwd=REPO)
        seconds = time.monotonic() - started
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    records = [json.loads(line) for line in (results / name / "games.jsonl").read_text().splitlines()]
    return {"seconds": seconds, "records": {r["id"]: r for r in records}}


def summary(run: dict) -> str:
    moves = [m for r in run["records"].values() for m in r["moves"]]
    verdicts = Counter(m["verdict"] for m in moves)
    waited = max((m.get("wait", 0.0) for m in moves), default=0.0)
    walls = max((m["wall"] for m in moves), default=0.0)
    faults = [f"{m['verdict']}: {m.get('message')} (cpu {m['cpu']} s, wall {m['wall']} s, wait {m.get('wait')} s)"
              for m in moves if m["verdict"] != "ok"]
    return (f"{len(run['records'])} games, {len(moves)} moves in {run['seconds']:.1f} s; verdicts {dict(verdicts)}; "
            f"longest move {walls:.2f} s of wall time, longest wait for a core {waited:.2f} s"
            + "".join(f"\n    {fault}" for fault in faults))


def outcomes(run: dict) -> dict:
    """Game id -> (every move's verdict, the outcome)."""
    return {gid: ([m["verdict"] for m in r["moves"]], r["outcome"]["winner"]) for gid, r in run["records"].items()}


def compare(boards: list[str], folder: Path) -> tuple[dict, dict]:
    bots = write_burners(folder / "bots")
    idle = play(bots, boards, folder / "results", "idle", jobs=1, busy=0)
    loaded = play(bots, boards, folder / "results", "loaded", jobs=4, busy=4)
    return idle, loaded


def main(boards: list[str]) -> int:
    print(f"{os.cpu_count()} cores; boards: {' '.join(boards)}")
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        idle, loaded = compare(boards, Path(tmp))
    print(f"  idle   (--jobs 1):                 {summary(idle)}")
    print(f"  loaded (--jobs 4, 4 busy loops):   {summary(loaded)}")
    same = outcomes(idle) == outcomes(loaded)
    print(f"  same verdicts and results game for game: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or [str(REPO / "boards" / "group1")]))

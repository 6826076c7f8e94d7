"""What ``arena run --report`` (the live report) costs a tournament, against the same tournament without it.

The worst case for it: games that cost next to nothing, so that writing each
game's replay page and rewriting the index weigh most.  Two trivial C bots
(``bench_throughput.BOT``) play a round-robin of the painting game on
generated group-1 boards (5x5; ``--boards`` of them, 2 games a board),
sandboxed (the default), ``--jobs 2``, once without and once with ``--report``,
the two taking turns ``--repeat`` times (a drift of a shared machine weighs on
both); the medians are compared.  Measured, for each run:

* wall time of the ``arena run`` process, start to end;
* all CPU of the run (``RUSAGE_CHILDREN``: the arena, its workers, the sandboxes, the bots);
* the parent's own CPU (``RUSAGE_SELF`` of the arena's main process, where the report is written);
* with the report: the slowest and the last write of the index (``arena.log``'s debug lines).

The ratio printed is with / without.  The live report writes each game's page
once and the index at most every ``RELOAD`` seconds and at most ``LIVE_SHARE``
of the time, so the ratio should stay near 1 however big the tournament.

Measured on 2026-11-25 on a 2-core machine shared with other work, the
default (1,000 games): wall ratio 1.34 and 1.52 in two runs, the report's
1.1 to 1.5 ms a game in the parent; ``--shipped`` (50 and 100 games): 1.09 and
0.95 (noise).  Where that goes: about half replaying the game through the
referee and its view, a quarter making the page, a fifth writing it.

Since the live report runs in a process of its own (niced) that follows
``games.jsonl``, the parent's CPU ratio is 0.99 (it was 2.37 on the same 500
games, measured the same day, one after the other); the wall ratio stayed
1.31 (1.33 before): on two cores saturated by two workers and games of 3 ms,
the pages' CPU has to come from somewhere.  With real bots (``--shipped``) it
is noise.

Usage: python benchmarks/bench_live.py [--boards N] [--repeat N] [--shipped]
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_throughput import BOT, REPO, WRAPPER, boards  # (the same bots, boards and wrapper)


def run(folder: Path, bots: list[str], board_folder: Path, name: str, live: bool) -> dict[str, float]:
    """One ``arena run``: wall seconds, all CPU, the parent's CPU, the index writes."""
    own = folder / f"{name}.self"
    options = ["--report"] if live else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", WRAPPER, str(own), "run", "--bots", *bots, "--boards", str(board_folder),
                    "--results", str(folder / "results"), "--name", name, "--jobs", "2", *options],
                   check=True, capture_output=True, cwd=folder)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    results = folder / "results" / name
    writes = [float(t) for t in re.findall(r"index of \d+ games written in ([0-9.]+) s",
                                           (results / "arena.log").read_text())]
    games = sum(1 for _ in (results / "games.jsonl").open())
    pages = len(list((results / "report" / "games").iterdir())) if live else 0
    if live and pages != games:
        sys.exit(f"bench_live: {games} games but {pages} replay pages")
    shutil.rmtree(results)
    return {"wall": wall, "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "parent": float(own.read_text()), "games": games, "writes": len(writes),
            "slowest": max(writes, default=0.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=500, help="boards (default 500: 1000 games)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each kind; the median is taken (default 3)")
    parser.add_argument("--shipped", action="store_true",
                        help="the shipped Python bots (bots/random.py, bots/greedy.py) instead: games as a real "
                        "tournament's, a Python start-up a move")
    args = parser.parse_args()
    if shutil.which("cc") is None and not args.shipped:
        sys.exit("bench_live: no C compiler (cc)")
    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        folder = Path(tmp)
        bots = [str(REPO / "bots" / "random.py"), str(REPO / "bots" / "greedy.py")] if args.shipped else []
        for name in () if args.shipped else ("a", "b"):
            (folder / f"{name}.c").write_text("#include <stdlib.h>\n" + BOT)
            bots.append(str(folder / f"{name}.c"))
        board_folder = boards(folder, args.boards)
        run(folder, bots, boards(folder, 2), "warm-up", False)  # compiles the bots into results/.bots
        runs: dict[bool, list[dict[str, float]]] = {False: [], True: []}
        for i in range(args.repeat):
            for live in (False, True):
                runs[live].append(run(folder, bots, board_folder, f"{'live' if live else 'plain'}-{i}", live))
        med = {live: {key: statistics.median(r[key] for r in done) for key in done[0]} for live, done in runs.items()}
        plain, live = med[False], med[True]
        kind = "the shipped random and greedy Python bots" if args.shipped else "two trivial C bots"
        print(f"{int(plain['games'])} games of {kind} on 5x5 boards, sandboxed, --jobs 2; "
              f"median of {args.repeat} runs each, taking turns")
        for key, what in (("wall", "wall time"), ("cpu", "all CPU"), ("parent", "the parent's CPU")):
            print(f"  {what:>17}: without {plain[key]:7.2f} s, with --report {live[key]:7.2f} s, "
                  f"ratio {live[key] / plain[key]:.3f}")
        per_game = (live["parent"] - plain["parent"]) / plain["games"] * 1000
        print(f"  the report's cost in the parent: {per_game:.2f} ms a game; the index written "
              f"{live['writes']:.0f} times, the slowest write {live['slowest'] * 1000:.0f} ms")


if __name__ == "__main__":
    main()

"""The arena's own CPU per game and per move, beside its bots' CPU: fixed start-up and marginal cost.

Two trivial C bots (``BOT`` below, under two names: it paints the first number
it can, like ``bots/template-cpp.cpp``) play round-robins of the painting
game on generated group-1 boards (5x5), sandboxed (the default) and with
``--no-sandbox``, as ``arena run`` processes with ``--jobs 2``.  Each mode is
played at two sizes, ``--small`` and ``--large`` boards (5 and 500: 10 and
1000 games, 2 a board), with the same bots: the difference between the two,
divided by the extra games (and moves), is the **marginal** cost of a game
(of a move); what is left of the small run once its games' marginal cost is
taken away is the **fixed** cost of a run (interpreter start-up and
imports, copying the bots, checking for bubblewrap and cgroups, starting the
pool's workers and each worker's sandboxes, writing the tables).  Each size
is played ``--repeat`` times (5) and the median taken (a shared machine is
noisy: the per-game figures of two runs differ by up to 0.03 ms).

What is counted:

* **All CPU** of a run: ``RUSAGE_CHILDREN`` of this process around the
  ``arena run`` process, i.e. user + system CPU of every process the run
  started and reaped: the arena's parent process, its pool workers, the
  ``bwrap`` processes and the supervisors inside them (sandboxed), and the
  bots themselves.
* **The bots' CPU**: the sum of ``cpu`` over the recorded moves, i.e. what
  the arena charges the bots, exactly what the records say.  Sandboxed with
  cgroup accounting that is the sandbox's cgroup's CPU over the move, less
  what the supervisor (which is in that cgroup) reports as its own CPU over
  the move: the bot's processes' CPU, and the kernel's work on their behalf
  (exec, page faults, exit).  (Compare the bots' CPU per move sandboxed and
  with --no-sandbox, where it is the bot's processes' own rusage.)
* **The arena's own CPU** = all CPU - the bots' CPU: the parent, the workers,
  and (sandboxed) bubblewrap and the supervisors.
* **The parent's own CPU** (a part of the arena's): ``RUSAGE_SELF`` of the
  arena's main process, written at its exit by the small wrapper below
  (``arena.cli.main`` run in-process; it is the same code as ``arena run``).

The target (issue 11) is at most 1 ms of the arena's own CPU a game,
sandboxed.  Measured on 2026-11-24 on an idle 2-core machine, three runs:
0.96, 0.96 and 0.96 ms a game (1.43 moves), the bots' own 1.06 ms;
with ``--no-sandbox`` 1.16 to 1.25 ms.  (Before this work: 1.94 ms.)
Where it goes (per move, found with cProfile and per-section CPU clocks): in
the sandbox's supervisor about 0.2 ms, of which starting and reaping the bot
(posix_spawn's clone, wait4) is about 50 us of kernel work; in the worker
about 0.15 ms for the move's messages and cgroup counters, 0.06 ms judging it
and 0.03 ms logging it; in the parent 0.16 ms a game (receiving, writing and
logging the record).  What was cut to get there: an fsync per game (now every
half second), a second message each way per bot per game (emptying a kept
sandbox is part of the next game's first move), the console's progress line
going through multiprocessing-logging's queue and threads.

A C compiler (``cc``) is needed; compilation happens once, in a warm-up run
whose results folder the measured runs share (``results/.bots``), so no
measured run compiles.

Usage: python benchmarks/bench_throughput.py [--small N] [--large N] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: ms of the arena's own CPU per game of two trivial C bots (issue 11)
TARGET = 1.0

#: A trivial painting-game bot in C: the first number it can paint, with the
#: cells a breadth-first walk from it reaches first.
BOT = r"""
#include <stdio.h>
int main(void) {
    FILE *in = fopen("game.in", "r");
    int n, cell[64 * 64], free_[64 * 64], order[64 * 64], seen[64 * 64];
    char token[16];
    if (!in || fscanf(in, "%d", &n) != 1 || n > 64) return 1;
    for (int i = 0; i < n * n; ++i) {
        if (fscanf(in, "%15s", token) != 1) return 1;
        cell[i] = token[0] == '#' ? 0 : token[0] == 'B' ? -1 : atoi(token);
    }
    for (int i = 0; i < n * n; ++i) {
        int x = i / n, y = i % n;
        free_[i] = cell[i] != -1 && !(x > 0 && cell[i - n] == -1) && !(x + 1 < n && cell[i + n] == -1)
                   && !(y > 0 && cell[i - 1] == -1) && !(y + 1 < n && cell[i + 1] == -1);
    }
    for (int start = 0; start < n * n; ++start) {
        if (cell[start] <= 0 || !free_[start]) continue;
        int size = 1, want = cell[start];
        for (int i = 0; i < n * n; ++i) seen[i] = 0;
        order[0] = start, seen[start] = 1;
        for (int head = 0; head < size && size < want; ++head) {
            int i = order[head], x = i / n, y = i % n, next[4], k = 0;
            if (x > 0) next[k++] = i - n;
            if (x + 1 < n) next[k++] = i + n;
            if (y > 0) next[k++] = i - 1;
            if (y + 1 < n) next[k++] = i + 1;
            for (int j = 0; j < k && size < want; ++j)
                if (!seen[next[j]] && cell[next[j]] == 0 && free_[next[j]]) seen[next[j]] = 1, order[size++] = next[j];
        }
        if (size < want) continue;
        FILE *out = fopen("game.out", "w");
        fprintf(out, "%d\n", want);
        for (int i = 0; i < want; ++i) fprintf(out, "%d %d\n", order[i] / n, order[i] % n);
        return fclose(out) != 0;
    }
    return 1;
}
"""
#: Runs ``arena.cli.main`` and writes the process's own CPU (RUSAGE_SELF) to the file in argv[1].
WRAPPER = """
import resource, sys
from arena.cli import main
where = sys.argv.pop(1)
try:
    status = main(sys.argv[1:])
finally:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    open(where, "w").write(repr(usage.ru_utime + usage.ru_stime))
sys.exit(status)
"""


def boards(folder: Path, count: int) -> Path:
    """``count`` generated group-1 boards (5x5) in ``folder/boards-COUNT``."""
    out = folder / f"boards-{count}"
    if not out.exists():
        subprocess.run([sys.executable, "-m", "arena.cli", "generate", "paint", "--group", "1", "--seed", "1",
                        "--count", str(count), "--out", str(out)], check=True, capture_output=True, cwd=REPO)
    return out


class Run:
    """One ``arena run``: its CPU in all, the bots', the parent's, its games and moves."""

    def __init__(self, folder: Path, bots: list[str], board_folder: Path, name: str, *options: str):
        own = folder / f"{name}.self"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", WRAPPER, str(own), "run", "--bots", *bots, "--boards",
                        str(board_folder), "--results", str(folder / "results"), "--name", name, "--jobs", "2",
                        *options], check=True, capture_output=True, cwd=folder)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        self.parent = float(own.read_text())
        lines = (folder / "results" / name / "games.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        self.games = len(records)
        self.moves = sum(len(record["moves"]) for record in records)
        self.bots = sum(move["cpu"] for record in records for move in record["moves"])
        if any(record["fault"] for record in records):
            sys.exit(f"bench_throughput: a bot faulted in {name}: {records[0]['fault']}")
        shutil.rmtree(folder / "results" / name)

    @property
    def arena(self) -> float:
        return self.total - self.bots


def median_runs(folder: Path, bots: list[str], sizes: dict[str, Path], repeat: int, *options: str) -> dict:
    """Each size played ``repeat`` times, the sizes taking turns (so that a slow drift of the
    machine weighs on both alike); the median of each figure, per size."""
    runs: dict[str, list[Run]] = {size: [] for size in sizes}
    for i in range(repeat):
        for size, board_folder in sizes.items():
            runs[size].append(Run(folder, bots, board_folder, f"{size}-{i}", *options))
    return {size: {"games": done[0].games, "moves": done[0].moves,
                   **{key: statistics.median(getattr(run, key) for run in done)
                      for key in ("total", "bots", "parent", "arena")}}
            for size, done in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=5, help="boards of the small run (default 5: 10 games)")
    parser.add_argument("--large", type=int, default=500, help="boards of the large run (default 500: 1000 games)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each size; the median is taken (default 5)")
    parser.add_argument("--only", choices=("sandboxed", "no-sandbox"), help="one mode only")
    args = parser.parse_args()
    if shutil.which("cc") is None:
        sys.exit("bench_throughput: no C compiler (cc)")
    with tempfile.TemporaryDirectory(prefix="bench-throughput-") as tmp:
        folder = Path(tmp)
        bots = []
        for name in ("a", "b"):
            (folder / f"{name}.c").write_text("#include <stdlib.h>\n" + BOT)
            bots.append(str(folder / f"{name}.c"))
        small, large = boards(folder, args.small), boards(folder, args.large)
        Run(folder, bots, small, "warm-up")  # compiles the bots into results/.bots, reused below
        modes = (("sandboxed", ()), ("no-sandbox", ("--no-sandbox",)))
        for label, options in modes:
            if args.only and label != args.only:
                continue
            medians = median_runs(folder, bots, {f"{label}-small": small, f"{label}-large": large}, args.repeat,
                                  *options)
            s, g = medians[f"{label}-small"], medians[f"{label}-large"]
            games, moves = g["games"] - s["games"], g["moves"] - s["moves"]
            per_game = {key: (g[key] - s[key]) / games * 1000 for key in ("total", "bots", "parent", "arena")}
            per_move = {key: (g[key] - s[key]) / moves * 1000 for key in ("total", "bots", "parent", "arena")}
            fixed = {key: s[key] - per_game[key] / 1000 * s["games"] for key in ("arena", "parent")}
            print(f"{label}: {s['games']} and {g['games']} games ({s['moves']} and {g['moves']} moves; "
                  f"{moves / games:.2f} moves a game), median of {args.repeat}")
            print(f"  per extra game: arena {per_game['arena']:.2f} ms (parent {per_game['parent']:.2f} ms), "
                  f"bots {per_game['bots']:.2f} ms, all {per_game['total']:.2f} ms; "
                  f"arena / bots {per_game['arena'] / per_game['bots']:.2f}; "
                  f"target arena <= {TARGET:g} ms: {'met' if per_game['arena'] <= TARGET else 'NOT met'}")
            print(f"  per extra move: arena {per_move['arena']:.3f} ms (parent {per_move['parent']:.3f} ms), "
                  f"bots {per_move['bots']:.3f} ms")
            print(f"  fixed cost of a run: arena {fixed['arena'] * 1000:.0f} ms (parent {fixed['parent'] * 1000:.0f} ms)")
            print(f"  small run: all {s['total']:.3f} s, bots {s['bots']:.3f} s; "
                  f"large run: all {g['total']:.3f} s, bots {g['bots']:.3f} s", flush=True)


if __name__ == "__main__":
    main()

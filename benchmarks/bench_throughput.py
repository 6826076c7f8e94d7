"""The arena's own CPU per game, beside its bots' CPU.

Plays a round-robin of trivial C++ bots (the shipped template, under three
names) on the group1 boards, sandboxed (the default) and with --no-sandbox,
as ``arena run`` processes, and measures the CPU of everything the run
started (``RUSAGE_CHILDREN``: the arena, its workers, the sandboxes and the
bots).  The bots' own CPU is the sum over the recorded moves; the rest is the
arena's overhead: the parent and its workers, and, when sandboxed, bubblewrap
and the supervisor of each sandbox (one per bot per game).  Compilation is
done (and timed) once before, outside the measured runs.
Usage: python benchmarks/bench_throughput.py
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(folder: Path, bots: list[str], name: str, *options: str) -> tuple[float, float, int]:
    """(CPU of the whole run, CPU of the bots, games) for one ``arena run``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "arena.cli", "run", "--bots", *bots, "--boards", str(REPO / "boards" / "group1"),
                    "--results", str(folder / "results"), "--name", name, "--jobs", "2", *options],
                   check=True, capture_output=True, cwd=folder)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    records = [json.loads(line) for line in (folder / "results" / name / "games.jsonl").read_text().splitlines()]
    bots_cpu = sum(move["cpu"] for record in records for move in record["moves"])
    return total, bots_cpu, len(records)


def main() -> None:
    if shutil.which("c++") is None:
        sys.exit("bench_throughput: no C++ compiler")
    with tempfile.TemporaryDirectory(prefix="bench-throughput-") as tmp:
        folder = Path(tmp)
        bots = []
        for name in ("a", "b", "c"):
            shutil.copy(REPO / "bots" / "template-cpp.cpp", folder / f"{name}.cpp")
            bots.append(str(folder / f"{name}.cpp"))
        run(folder, bots, "warm-up")  # compiles the bots into results/.bots, reused below
        for label, options in (("sandboxed", ()), ("--no-sandbox", ("--no-sandbox",))):
            total, bots_cpu, games = run(folder, bots, label.strip("-"), *options)
            print(f"{label:13} {games} games: {total:.2f} s CPU in all, {bots_cpu:.2f} s of it the bots'; "
                  f"the arena's own: {(total - bots_cpu) / games * 1000:.1f} ms a game")


if __name__ == "__main__":
    main()

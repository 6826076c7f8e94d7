"""Per-move cost of ``run_bot`` against a bare ``subprocess.run`` loop.

Compiles a trivial C bot (reads game.in, writes game.out) into a temporary
folder and runs it N times each way, interleaved so that both see the same
machine load:

* bare: remove game.out, write game.in, ``subprocess.run([bot], cwd=folder,
  capture_output=True)``, read game.out -- the least any runner must do (the
  arena removes game.out before each move too: on ext4 truncating an existing
  file forces a flush, so a baseline that truncates would be handicapped);
* sandbox: a move in the bot's sandbox (``arena.sandbox.Session``, set up
  once per game, as the arena does: the supervisor inside writes the files,
  starts the bot with its rlimits, kills what it left, reads game.out), with
  the default limits and accounting (a cgroup where one can be made);
* unsandboxed: ``run_bot`` (``--no-sandbox``) with the default limits;
* strict: ``run_bot`` with ``Limits(strict=True)``, for comparison.

Prints the median and mean milliseconds per move of each and the ratios to
bare (target for the sandbox, the default: median ratio <= 1.25), and the
one-off cost of setting a sandbox up.  Usage: python benchmarks/bench_process.py [N]
"""

from __future__ import annotations

import dataclasses
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.sandbox import Limits, Session, configure, run_bot

BOT = r"""
#include <stdio.h>
int main(void) {
    int a = 0, b = 0;
    FILE *in = fopen("game.in", "r");
    if (!in || fscanf(in, "%d %d", &a, &b) != 2) return 1;
    fclose(in);
    FILE *out = fopen("game.out", "w");
    fprintf(out, "%d\n", a + b);
    return fclose(out) != 0;
}
"""
TEXT = "20 22\n"


def compile_bot(folder: Path) -> Path:
    """The trivial bot, compiled with the system C compiler."""
    source, binary = folder / "bot.c", folder / "bot"
    source.write_text(BOT)
    subprocess.run(["cc", "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def bare(binary: Path, folder: Path) -> float:
    """One move the bare way; its wall time in seconds."""
    start = time.perf_counter()
    (folder / "game.out").unlink(missing_ok=True)
    (folder / "game.in").write_text(TEXT)
    subprocess.run([str(binary)], cwd=folder, capture_output=True, check=True)
    answer = (folder / "game.out").read_text()
    elapsed = time.perf_counter() - start
    assert answer == "42\n", answer
    return elapsed


def arena(binary: Path, folder: Path, limits: Limits | None = None) -> float:
    """One move through ``run_bot``; its wall time in seconds."""
    start = time.perf_counter()
    result = run_bot([str(binary)], folder, {"game.in": TEXT}, limits or Limits())
    elapsed = time.perf_counter() - start
    assert result.verdict == "ok" and result.output == "42\n", result
    return elapsed


def sandboxed(binary: Path, session: Session) -> float:
    """One move in the bot's sandbox; its wall time in seconds."""
    start = time.perf_counter()
    result = session.run([str(binary)], {"game.in": TEXT})
    elapsed = time.perf_counter() - start
    assert result.verdict == "ok" and result.output == "42\n", result
    return elapsed


def main(count: int = 200) -> float:
    if shutil.which("cc") is None:
        sys.exit("bench_process: no C compiler (cc) on PATH")
    with tempfile.TemporaryDirectory(prefix="bench-process-") as tmp:
        root = Path(tmp)
        binary = compile_bot(root)
        (root / "bare").mkdir()
        root.chmod(0o755)
        sandbox = configure()
        print(sandbox.describe())
        started = time.perf_counter()
        session = Session(sandbox, [str(root)], Limits())
        session.start()
        print(f"setting a sandbox up: {(time.perf_counter() - started) * 1000:.1f} ms (once per bot per worker: it is emptied and reused between games)")
        unfiltered = Session(dataclasses.replace(sandbox, seccomp=False), [str(root)], Limits())
        ways = {
            "bare": lambda: bare(binary, root / "bare"),
            "sandbox": lambda: sandboxed(binary, session),
            "no filter": lambda: sandboxed(binary, unfiltered),
            "unsandboxed": lambda: arena(binary, root / "arena"),
            "strict": lambda: arena(binary, root / "strict", Limits(strict=True)),
        }
        times: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(10):  # warm up caches and the page cache
            for move in ways.values():
                move()
        for _ in range(count):
            for way, move in ways.items():
                times[way].append(move())
        session.close()
        unfiltered.close()
    medians = {k: statistics.median(v) * 1000 for k, v in times.items()}
    means = {k: statistics.fmean(v) * 1000 for k, v in times.items()}
    print(f"{count} moves each, trivial C bot")
    for way in times:
        ratios = f"ratio to bare: median {medians[way] / medians['bare']:.2f}, mean {means[way] / means['bare']:.2f}"
        print(f"  {way:11}: median {medians[way]:.3f} ms, mean {means[way]:.3f} ms per move; {ratios}")
    ratio = medians["sandbox"] / medians["bare"]
    print(f"  sandbox/bare median ratio {ratio:.2f} (target <= 1.25)")
    return ratio


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)

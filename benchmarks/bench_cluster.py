"""Games per second on a local 2-worker Dask cluster against ``--jobs 2`` locally.

Fast C++ bots (copies of ``bots/template-cpp.cpp``: first number, first
region) play a paint round-robin, once with ``arena run --jobs 2`` and once
with ``arena run --cluster`` on a scheduler and ``arena worker --nworkers 2``
started here.  Games per second are the games over the time from the first
game's start to the last one's end (from the records), so compiling and
connecting are left out (the workers compile the bots in a small warm-up
tournament first); the whole commands' wall times are printed too.
The ratio cluster / local is the cost of the cluster path on one machine
(target >= 0.8), as the median of rounds that alternate the two (the
machine's load varies).

    python benchmarks/bench_cluster.py [--bots 4] [--rounds 3] [--boards boards/group2 boards/group3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rate(folder: Path, name: str, extra: list[str], boards: list[str]) -> tuple[float, float, int]:
    """Games per second of one run, its wall time and its number of games."""
    command = [sys.executable, "-m", "arena.cli", "run", "--bots", *map(str, sorted((folder / "bots").iterdir())),
               "--boards", *boards, "--name", name, "--results", str(folder / "results"), *extra]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    records = [json.loads(line) for line in (folder / "results" / name / "games.jsonl").read_text().splitlines()]
    span = max(r["started"] + r["seconds"] for r in records) - min(r["started"] for r in records)
    return len(records) / span, wall, len(records)


def start_cluster(folder: Path) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and one ``arena worker`` with two worker processes, on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    with open(folder / "cluster.log", "wb") as log:  # the children keep their own descriptors
        procs = [subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True) for command in (
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
             "--no-dashboard"],
            [sys.executable, "-m", "arena.cli", "worker", address, "--nworkers", "2", "--cache", str(folder / "cache")],
        )]
    from distributed import Client

    with Client(address, timeout=30) as client:
        client.wait_for_workers(2, timeout=60)
    return address, procs


def stop(procs: list[subprocess.Popen]) -> None:
    for proc in reversed(procs):
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=4, help="number of bots (default 4)")
    parser.add_argument("--boards", nargs="+", default=[str(ROOT / "boards" / "group2"), str(ROOT / "boards" / "group3")])
    parser.add_argument("--rounds", type=int, default=3, help="local and cluster runs, alternated (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "bots").mkdir()
        for number in range(args.bots):
            shutil.copy(ROOT / "bots" / "template-cpp.cpp", folder / "bots" / f"c{number}.cpp")
        address, procs = start_cluster(folder)
        try:
            # as locally, where they are compiled before the first game: the workers compile the bots
            # (once per machine) in a first, small tournament
            rate(folder, "warm-up", ["--cluster", address], [str(ROOT / "boards" / "group1" / "board1.in")])
            ratios = []
            for round_ in range(1, args.rounds + 1):
                local, local_wall, games = rate(folder, f"local{round_}", ["--jobs", "2"], args.boards)
                remote, remote_wall, _ = rate(folder, f"cluster{round_}", ["--cluster", address, "--jobs", "2"],
                                              args.boards)
                ratios.append(remote / local)
                print(f"round {round_}: {games} games; --jobs 2 locally {local:5.1f} games/s (whole command "
                      f"{local_wall:.1f} s); --cluster with 2 workers here {remote:5.1f} games/s (whole command "
                      f"{remote_wall:.1f} s); ratio {remote / local:.2f}", flush=True)
        finally:
            stop(procs)
    print(f"ratio cluster / local, median of {args.rounds} rounds: {statistics.median(ratios):.2f} (target >= 0.8)")


if __name__ == "__main__":
    main()

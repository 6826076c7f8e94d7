"""A contest at the scale of a real one, on this machine: the contest server under load.

For each database (SQLite in the folder, and PostgreSQL when ARENA_TEST_POSTGRES names a server), a
contest is made and served (``arena contest new``, ``arena serve``: gunicorn and the runner) and
CONTESTANTS contestants register. Then:

* baseline, unloaded: the dashboard and an upload, one request at a time (the same pages);
* load: CLIENTS concurrent clients, each a contestant who opens the dashboard and uploads a bot,
  in bursts (every client starts its uploads at once), until every contestant has uploaded UPLOADS
  bots; the median and the 95th percentile of the dashboard's and the upload's response times,
  each beside its unloaded baseline;
* the checks: every upload is checked by the runner (first-move on the contest's sample boards);
  their throughput (checks a minute), their wait in the queue (from upload to the runner taking it:
  median and 95th percentile), and the runner's time per check beside the baseline of the same
  check run by ``arena check --contest`` alone (its wall and CPU time).

Usage: python benchmarks/bench_contest.py [--contestants 200] [--clients 50] [--uploads 1]
(about 10 minutes for both databases with the defaults on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from contest_site import Client, Database, Site

BOT = (ROOT / "bots" / "random.py").read_bytes()
PASSWORD = "contestant-password-1"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return f"median {1000 * statistics.median(values):7.1f} ms, p95 {1000 * percentile(values, 0.95):7.1f} ms"


def timed(call) -> tuple[float, object]:
    started = time.perf_counter()
    answer = call()
    return time.perf_counter() - started, answer


def register(site: Site, count: int) -> list[Client]:
    """``count`` contestants, registered over HTTP by 4 threads (each password hashed by Django)."""
    clients: list[Client | None] = [None] * count

    def work(start: int) -> None:
        for n in range(start, count, 4):
            client = site.client()
            answer = client.register(f"c{n:03d}", PASSWORD)
            assert answer.status == 200, answer.text[:500]
            clients[n] = client

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [client for client in clients if client is not None]


def baseline(site: Site, client: Client, rounds: int = 20) -> tuple[list[float], list[float]]:
    dashboard = [timed(lambda: client.get("/"))[0] for _ in range(rounds)]
    uploads = []
    for n in range(5):
        seconds, answer = timed(lambda n=n: client.upload(f"base{n}.py", BOT + f"# base {n}\n".encode()))
        assert "/submissions/" in answer.url, answer.text[:500]
        uploads.append(seconds)
    return dashboard, uploads


def load(clients: list[Client], workers: int, uploads: int) -> tuple[list[float], list[float], float]:
    """Every contestant opens the dashboard and uploads, ``workers`` at a time; (dashboard times, upload
    times, seconds the whole burst took)."""
    dashboard: list[float] = []
    upload: list[float] = []
    lock = threading.Lock()
    queue = [(client, k) for k in range(uploads) for client in clients]
    started = time.perf_counter()

    def work() -> None:
        while True:
            with lock:
                if not queue:
                    return
                client, k = queue.pop()
            seen, _ = timed(lambda client=client: client.get("/"))
            sent, answer = timed(lambda client=client, k=k: client.upload(f"bot{k}.py", BOT + f"# {k}\n".encode()))
            assert "/submissions/" in answer.url, answer.text[:500]
            with lock:
                dashboard.append(seen)
                upload.append(sent)

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return dashboard, upload, time.perf_counter() - started


def checks(site: Site, expected: int, timeout: float) -> tuple[list[float], list[float], float]:
    """Wait until ``expected`` checks are done; (queue waits, run times, checks a minute) from the jobs' rows."""
    from django.db import connections

    from arena.contest import setup

    setup(site.folder, site.database.url)
    from arena.contest.models import Job, JobState

    deadline = time.monotonic() + timeout
    while Job.objects.filter(kind="check", state=JobState.DONE).count() < expected:
        if time.monotonic() > deadline:
            raise SystemExit(f"only {Job.objects.filter(state=JobState.DONE).count()} of {expected} checks done "
                             f"in {timeout:.0f} s")
        time.sleep(1)
    jobs = list(Job.objects.filter(kind="check", state=JobState.DONE))
    waits = [(job.started - job.created).total_seconds() for job in jobs]
    runs = [(job.finished - job.started).total_seconds() for job in jobs]
    span = (max(job.finished for job in jobs) - min(job.created for job in jobs)).total_seconds()
    connections.close_all()
    return waits, runs, 60 * len(jobs) / span


def check_alone(folder: Path) -> tuple[float, float]:
    """``arena check --contest`` of the same bot, alone: (wall seconds, CPU seconds of its processes)."""
    with tempfile.TemporaryDirectory() as scratch:
        bot = Path(scratch) / "alone.py"
        bot.write_bytes(BOT)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds, done = timed(lambda: subprocess.run([sys.executable, "-m", "arena.cli", "check", str(bot),
                                                      "--contest", str(folder)], capture_output=True, check=False))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(kind: str, args: argparse.Namespace) -> None:
    database = Database(kind)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "contest"
        site = Site(folder, database)
        toml = folder / "contest.toml"
        toml.write_text(toml.read_text().replace("per_hour = 10", "per_hour = 1000").replace("per_day = 50",
                                                                                           "per_day = 1000"))
        site.start("--web-workers", str(args.web_workers))
        try:
            started = time.perf_counter()
            clients = register(site, args.contestants)
            print(f"[{kind}] {len(clients)} contestants registered in {time.perf_counter() - started:.1f} s")
            quiet_dashboard, quiet_upload = baseline(site, clients[0])
            # (the baseline's own checks are let through first, so that the load starts on an empty queue)
            checks(site, 5, args.timeout)
            dashboard, upload, burst = load(clients, args.clients, args.uploads)
            print(f"[{kind}] {len(upload)} uploads by {args.clients} concurrent clients in {burst:.1f} s")
            print(f"[{kind}] dashboard unloaded: {ms(quiet_dashboard)}")
            print(f"[{kind}] dashboard, {args.clients} clients: {ms(dashboard)}  "
                  f"(x{statistics.median(dashboard) / statistics.median(quiet_dashboard):.1f} the unloaded median)")
            print(f"[{kind}] upload unloaded:    {ms(quiet_upload)}")
            print(f"[{kind}] upload, {args.clients} clients:    {ms(upload)}  "
                  f"(x{statistics.median(upload) / statistics.median(quiet_upload):.1f} the unloaded median)")
            waits, runs, rate = checks(site, 5 + len(upload), args.timeout)
            alone_wall, alone_cpu = check_alone(folder)
            print(f"[{kind}] checks: {rate:.1f} a minute; queue wait median {statistics.median(waits):.1f} s, "
                  f"p95 {percentile(waits, 0.95):.1f} s; runner's time per check median "
                  f"{statistics.median(runs):.2f} s")
            print(f"[{kind}] the same check by arena check alone: {alone_wall:.2f} s wall, {alone_cpu:.2f} s CPU "
                  f"(the runner's median x{statistics.median(runs) / alone_wall:.2f} of that wall time: the runner "
                  "compiles nothing again and keeps its sandbox, arena check starts afresh)")
        finally:
            site.stop()
            database.drop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contestants", type=int, default=200)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--uploads", type=int, default=1, help="uploads per contestant")
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args()
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    if "postgresql" in kinds and not os.environ.get("ARENA_TEST_POSTGRES"):
        print("(no ARENA_TEST_POSTGRES: PostgreSQL is left out)")
        kinds.remove("postgresql")
    if len(kinds) == 1:
        run(kinds[0], args)
        return 0
    for kind in kinds:  # (one process each: Django's settings, the database among them, are made once a process)
        argv = [sys.executable, __file__, *sys.argv[1:], "--database", kind]
        if subprocess.run(argv, check=False).returncode:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

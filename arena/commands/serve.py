"""``arena serve``: a contest's web site (gunicorn) and its runner, until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from arena.commands import positive_int
from arena.errors import ArenaError

#: Seconds the site and the runner are given to stop before they are killed.
STOP_GRACE = 10.0
#: Seconds a new server waits for the lock (a server that was just killed needs a moment to let go of it).
LOCK_WAIT = 3.0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "serve", help="run a contest's web site and runner (arena contest new makes the contest)",
        description="Serve the contest in DIR: its web site (gunicorn, a production server) on --host:--port, "
        "and its runner, the one process that compiles, checks and plays bots (in the sandbox). Ctrl-C or "
        "SIGTERM stops both; started again, it re-runs the checks that were running and resumes the final. "
        "For a site on the internet, put it behind a reverse proxy with TLS (README, 'Running a contest').")
    parser.add_argument("folder", metavar="DIR", help="the contest's folder")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    parser.add_argument("--web-workers", type=positive_int, default=2, metavar="N",
                        help="gunicorn's worker processes (default 2)")
    parser.add_argument("--database", metavar="URL",
                        help="a PostgreSQL database (postgresql://USER:PASSWORD@HOST:PORT/NAME); default: the one "
                        "'arena contest new --database' kept, else SQLite in the folder")
    parser.add_argument("--no-runner", action="store_true",
                        help="serve the site only (a runner of this contest runs elsewhere)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from arena.contest import config, database_of, environment, missing_django, site

    if problem := missing_django():
        raise ArenaError(problem)
    folder = Path(args.folder).absolute()
    contest = config.load(folder)
    lock = _lock(folder / site.LOCK)
    env = {**os.environ, **environment(folder, database_of(folder, args.database))}
    _migrate(env)
    web = [sys.executable, "-m", "gunicorn", "arena.contest.wsgi:application", "--bind", f"{args.host}:{args.port}",
           "--workers", str(args.web_workers), "--timeout", "60", "--graceful-timeout", "5",
           "--error-logfile", "-", "--log-level", "warning"]
    from arena.contest import dying_with_parent

    # (each child dies with this process however it ends, and the runner holds the lock too: a server
    # killed with SIGKILL leaves no runner behind to run jobs beside the next one's)
    children = {"site": subprocess.Popen(dying_with_parent(web), env=env, stdin=subprocess.DEVNULL)}
    if not args.no_runner:
        children["runner"] = subprocess.Popen(dying_with_parent([sys.executable, "-m", "arena.contest.runner"]),
                                              env=env, stdin=subprocess.DEVNULL, pass_fds=(lock,))
    print(f"arena: serving {contest.title!r} at http://{args.host}:{args.port}/ (site pid "
          f"{children['site'].pid}" + (f", runner pid {children['runner'].pid}" if "runner" in children else "")
          + "); Ctrl-C stops", file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        while True:
            for name, child in children.items():
                if child.poll() is not None:
                    raise ArenaError(f"the contest's {name} stopped (status {child.returncode}); "
                                     f"see its messages above. Start it again with: arena serve {args.folder}")
            time.sleep(0.5)
    except KeyboardInterrupt:
        print("arena: stopping", file=sys.stderr)
        return 0
    finally:
        _stop(children)
        os.close(lock)


def _lock(path: Path) -> int:
    """Hold the contest's serve lock, or refuse: two servers of one contest would run each job twice."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() < deadline:
                time.sleep(0.1)
                continue
            holder = os.read(fd, 100).decode(errors="replace").strip()
            os.close(fd)
            raise ArenaError(f"another arena serve ({holder or 'a process'}) is serving this contest "
                             f"({path.parent}); stop it first") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"pid {os.getpid()}\n".encode())
    return fd


def _migrate(env: dict[str, str]) -> None:
    """The database's tables brought up to date (in a child: this process stays free of Django)."""
    done = subprocess.run([sys.executable, "-m", "django", "migrate", "--verbosity", "0", "--no-input"], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ArenaError(f"cannot prepare the contest's database: {done.stderr.strip()[-2000:]}")


def _stop(children: dict[str, subprocess.Popen]) -> None:
    for child in children.values():
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for child in children.values():
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()

"""``arena worker``: serve a Dask scheduler's tournaments from this machine."""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from arena.commands import add_tls_options, positive_int, tls_of
from arena.errors import ArenaError


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "worker",
        help="play the games of 'arena run --cluster' on this machine",
        description="Join this machine to a Dask scheduler (started with 'dask scheduler') as a worker for "
        "'arena run --cluster ADDRESS'. It starts 'dask worker' with N worker processes of one thread each, "
        "each offering one game slot: a machine plays N games, so runs N bots, at once, one per process and "
        "per core, as 'arena run --jobs N' does locally. The bots and boards come from the arena that runs "
        "the tournament; this machine needs only the arena installed (the same version) and, for C / C++ "
        "bots, a compiler. Stop it with Ctrl-C; its games are played again by the other workers.",
    )
    parser.add_argument("scheduler", metavar="ADDRESS", help="the scheduler's address, e.g. tcp://10.0.0.1:8786")
    parser.add_argument("--nworkers", type=positive_int, default=os.cpu_count() or 1, metavar="N",
                        help="games played at once (default: the number of cores, %(default)s here)")
    parser.add_argument("--cache", metavar="DIR",
                        help="where the bots sent to this machine, and the binaries compiled from them, are kept "
                        "(default ~/.cache/arena-worker)")
    parser.add_argument("--name", help="the worker's name on the dashboard (default: its address)")
    network = parser.add_argument_group(
        "network", "Where the worker listens (by default on every interface, on ports of the system's choosing): "
        "give the address other machines reach it at, and fixed ports to open in a firewall.")
    network.add_argument("--host", help="the address (or interface's) to listen on, e.g. 10.0.0.2")
    network.add_argument("--listen-address", metavar="ADDRESS", help="the full address to listen on, e.g. "
                         "tls://0.0.0.0:9000 (with --contact-address when that is not how others reach it)")
    network.add_argument("--contact-address", metavar="ADDRESS", help="the address the others use to reach it")
    network.add_argument("--worker-port", metavar="PORT", help="the worker processes' port, or a range such as "
                         "9000:9010 for several")
    network.add_argument("--nanny-port", metavar="PORT", help="their nannies' port or range")
    network.add_argument("--dashboard-address", metavar="ADDRESS",
                         help="where the worker's HTTP server (health, metrics, status page) listens (default "
                         "127.0.0.1:0: on this machine only, a free port)")
    add_tls_options(parser)
    parser.add_argument("--dry-run", action="store_true", help="print the dask worker command instead of running it")
    parser.set_defaults(func=main)


#: Dask settings for arena's workers: no statistical profiler (its thread samples every 10 ms and
#: takes the interpreter lock from the referee between moves); worker processes that are not
#: daemons, as only those may start the game process each plays its games in.
WORKER_CONFIG = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False", "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}


def command(args: argparse.Namespace) -> list[str]:
    """The ``dask worker`` command line that ``arena worker`` runs."""
    from arena.cluster import RESOURCE

    line = [sys.executable, "-m", "distributed.cli.dask_worker", args.scheduler,
            "--nworkers", str(args.nworkers), "--nthreads", "1", "--resources", f"{RESOURCE}=1"]
    if args.name:
        line += ["--name", args.name]
    for option in ("host", "listen_address", "contact_address", "worker_port", "nanny_port"):
        if getattr(args, option):
            line += [f"--{option.replace('_', '-')}", getattr(args, option)]
    # A worker serves HTTP (its health and metrics, and a status page with bokeh) even with --no-dashboard,
    # on every interface by default: on this machine only, unless asked.
    line += ["--dashboard-address", args.dashboard_address or "127.0.0.1:0"]
    tls = tls_of(args, args.scheduler, role="worker")
    if tls:
        line += ["--tls-ca-file", tls.ca, "--tls-cert", tls.cert, *(["--tls-key", tls.key] if tls.key else [])]
    return line


def main(args: argparse.Namespace) -> int:
    from arena.cluster import CACHE_ENV, missing_dask

    if problem := missing_dask():
        raise ArenaError(problem)
    line = command(args)
    env = {**os.environ, **WORKER_CONFIG}
    if args.cache:
        env[CACHE_ENV] = os.path.abspath(args.cache)
    if args.dry_run:
        settings = {**WORKER_CONFIG, **({CACHE_ENV: env[CACHE_ENV]} if args.cache else {})}
        print(" ".join(f"{name}={shlex.quote(value)}" for name, value in settings.items()), shlex.join(line))
        return 0
    sys.stdout.flush()
    os.execve(line[0], line, env)  # the worker takes this process's place: Ctrl-C and signals go to it

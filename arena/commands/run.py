"""``arena run``: validate the inputs, play the tournament (a round-robin, or ``--system``), print the tables."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import shlex
import signal
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import multiprocessing_logging
from tabulate import tabulate_formats

from arena import languages, report, tables, tournament
from arena.boards import Board, find_boards, load_board
from arena.bots import Bot, Compilers
from arena.commands import (
    add_bot_options,
    add_limit_options,
    add_tls_options,
    compilers_of,
    game_of_boards,
    get_referee,
    limits_of,
    positive_float,
    positive_int,
    prepare_from_options,
    tls_of,
)
from arena.commands.systems import add_system_options, announce, check_options, with_system
from arena.errors import ArenaError
from arena.sandbox import Limits, Runner, Sandbox
from arena.store import LOG, Store
from arena.text import SafeFormatter, display, name_problem
from referees.base import Referee

log = logging.getLogger("arena")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "run",
        help="run a round-robin tournament",
        description="Run a round-robin tournament: for a two-player game every pair of bots plays every "
        "board twice (once in each seat order; win 3, draw 1.5, loss or fault 0); for a single-player game "
        "every bot plays every board once and its score is recorded. Results go to RESULTS/NAME: "
        "tournament.json, games.jsonl (one line per game, written as it finishes), arena.log and tables.txt. "
        "Running the same command with the same --name resumes an interrupted tournament.",
    )
    parser.add_argument("--game", metavar="GAME",
                        help="the game (arena games lists them); by default the one the boards' manifest.json "
                        "names (arena generate writes one)")
    parser.add_argument("--bots", nargs="+", required=True, metavar="BOT",
                        help="bot files and folders: a source of one of the languages of 'arena languages' "
                        "(.py, .c, .cpp/.cc/.cxx, .java, .rs, .go, .js, .cs; compiled once per tournament where "
                        "the language is compiled), any executable, or a folder holding a language's main file "
                        "(main.py, main.c, Main.java, ...) or an executable 'run'; other folders, and names "
                        "starting with '_' or '.', are skipped")
    parser.add_argument("--boards", nargs="+", required=True, metavar="BOARD",
                        help="board files, or folders whose *.in files are boards (not those of their "
                        "subfolders, unless --recursive)")
    parser.add_argument("--recursive", action="store_true",
                        help="also take the *.in files of the board folders' subfolders, at any depth "
                        "(e.g. boards/match3/large with --boards boards/match3)")
    add_run_options(parser)
    add_system_options(parser)
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="play the games on the workers of a running Dask scheduler, e.g. tcp://10.0.0.1:8786 "
                        "(start workers with 'arena worker ADDRESS'; see the README's section on clusters); the "
                        "records, tables and resume are the same as locally, and --jobs is then the least number "
                        "of games kept queued")
    parser.add_argument("--cluster-timeout", type=positive_float, default=30, metavar="SECONDS",
                        help="how long to wait for the --cluster scheduler to answer (default %(default)s)")
    parser.add_argument("--scale-cpu", action="store_true",
                        help="with --cluster: give each machine the CPU limit over its speed, measured on a fixed "
                        "workload as it joins (a machine half as fast as the reference gets twice the CPU), so "
                        "machines of different speeds are fair; each record says the limit it had")
    add_tls_options(parser)
    parser.set_defaults(func=main)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options of playing and recording games (also ``arena match``'s)."""
    parser.add_argument("--name", type=tournament_name,
                        help="the tournament's name, its folder under --results (default: the game and a "
                        "timestamp); an existing name with the same configuration resumes it")
    parser.add_argument("--results", default="results", metavar="DIR", help="where results folders go (default results)")
    parser.add_argument("--overwrite", action="store_true",
                        help="discard an existing tournament of this name whose configuration differs")
    parser.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1,
                        help="games played in parallel (default: the number of cores, %(default)s here)")
    add_limit_options(parser)
    add_bot_options(parser)
    parser.add_argument("--report", nargs="?", const="", metavar="DIR",
                        help="keep the HTML report (as arena report writes it) up to date while the games are "
                        "played: each game's replay as it is recorded, the index (running, progress, time left) "
                        "every few seconds, reloading itself; final when the run ends (default DIR: "
                        "RESULTS/NAME/report)")
    parser.add_argument("--format", default="simple", choices=tabulate_formats, metavar="FORMAT",
                        help="table format: plain, simple, github, html, latex, ... (default simple)")


def tournament_name(text: str) -> str:
    """argparse type: a tournament's name is one folder under --results (not a path) and plain text."""
    if text in (".", "..") or "/" in text or "\0" in text:
        raise argparse.ArgumentTypeError(f"'{display(text)}' is not a name: a tournament's name is one folder "
                                         "under --results (no '/', not '.' or '..'); use --results for where it goes")
    if problem := name_problem(text):
        raise argparse.ArgumentTypeError(f"'{display(text)}' {problem}: a tournament's name is shown in messages")
    return text


def main(args: argparse.Namespace) -> int:
    check_options(args)
    referee = get_referee(game_of_boards(args.game, args.boards, recursive=args.recursive))
    boards = tuple(load_board(referee, path) for path in find_boards(args.boards, recursive=args.recursive))
    _check_unique_names(board for board, _ in boards)
    name = args.name or time.strftime(f"{referee.name}-%Y%m%d-%H%M%S")
    store = Store(Path(args.results) / name)
    game = with_system(args, tournament_of(args, referee, boards))
    if game.system.name != "round-robin":
        print(announce(game), file=sys.stderr)
    return _play(game, store, args, name, _play_all(args))


def tournament_of(args: argparse.Namespace, referee: Referee,
                  boards: tuple[tuple[Board, Any], ...]) -> tournament.Tournament:
    """The bots (copied, compiled, sandboxed) and the limits the options
    name (``add_run_options``), as a tournament on ``boards``; limits that
    would fault every move are refused first."""
    limits = limits_of(referee, args.cpu, args.wall, args.memory)
    bots, excluded, sandbox, compilers = prepare_from_options(args, Path(args.results))
    for bad in excluded:
        print(f"arena: bot {str(bad.path)!r} is excluded: {display(bad.reason, multiline=True)}", file=sys.stderr)
    if len(bots) < referee.players:
        raise ArenaError(f"{referee.name} is a {referee.players}-player game: it needs at least "
                         f"{referee.players} bots, got {len(bots)}")
    check_startup(bots, compilers, limits, sandbox)
    languages = compilers.describe(bots, sandboxed=sandbox is not None)
    return tournament.Tournament(referee, tuple(bots), boards, limits, sandbox, languages, tuple(excluded))


def check_startup(bots: Iterable[Bot], compilers: Compilers, limits: Limits, sandbox: Sandbox | None) -> None:
    """Refuse a CPU limit below what starting a bot's runtime costs (its language's ``startup``
    command, run once here as a move is: every move would time out)."""
    for name in sorted({bot.language for bot in bots if bot.language}):
        row = compilers.languages.get(name)
        if not row.startup:
            continue
        variables = compilers.variables()
        command = languages.locate(languages.expand(row.startup, variables), row, sandboxed=sandbox is not None)
        if isinstance(command, str):
            continue  # (its bots were excluded already, with this reason)
        trial = dataclasses.replace(limits, cpu=max(10.0, limits.cpu), wall=None, data=not row.resident)
        env = {key: languages.with_limits((value,), limits.memory)[0] for key, value in row.env}
        command = languages.with_limits(command, limits.memory)
        with tempfile.TemporaryDirectory(prefix="arena-startup-") as folder:
            runner = Runner(sandbox, row.existing_binds(), None if sandbox else Path(folder), trial, name, env)
            try:
                started = runner.run(command, {})
            finally:
                runner.close(keep=False)
        if started.cpu > limits.cpu:
            raise ArenaError(f"--cpu {limits.cpu:g} is below what starting a {name} bot costs here: "
                             f"{started.cpu:.3f} s of CPU ({' '.join(command)}, just now); every move of such a "
                             f"bot would time out: give --cpu {max(0.1, round(3 * started.cpu, 1)):g} or more")


def _check_unique_names(boards: Iterable[Board]) -> None:
    """Board names (``folder/stem``) identify games in the records, so they must differ."""
    seen: dict[str, Path] = {}
    for board in boards:
        if board.name in seen:
            raise ArenaError(f"two boards are named {board.name!r}: {str(seen[board.name])!r} and "
                             f"{str(board.path)!r} (a board's name is its folder and file name; list each once)")
        seen[board.name] = board.path


def _play_all(args: argparse.Namespace) -> tournament.PlayAll | None:
    """Where the games are played: the local pool (None), or a Dask cluster."""
    if not args.cluster:
        if args.scale_cpu:
            raise ArenaError("--scale-cpu is for --cluster (machines of different speeds); locally every game "
                             "is played on this machine")
        return None
    from arena import cluster  # Dask is imported only for a cluster

    if problem := cluster.missing_dask():
        raise ArenaError(f"--cluster: {problem}")
    return cluster.Cluster(args.cluster, args.cluster_timeout, compilers_of(args), tls_of(args, args.cluster),
                           args.scale_cpu).play_all


def _play(game: tournament.Tournament, store: Store, args: argparse.Namespace, name: str,
          play_all: tournament.PlayAll | None) -> int:
    store.start(game.config(), overwrite=args.overwrite)
    _setup_logging(store.folder / LOG)
    resume = shlex.join(["arena", *sys.argv[1:]] + ([] if args.name else ["--name", name]))
    log.info("results in %s (to resume if interrupted: %s)", store.folder, resume)
    for bad in game.excluded:  # (the console said so already; the log keeps it whole)
        log.debug("bot %r (%s) is excluded: %s", bad.name, bad.path, bad.reason)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop as cleanly as on Ctrl-C
    live = report.live(args.report, store)
    try:
        tournament.run(game, store, jobs=args.jobs, play_all=play_all, on_record=live and live.add)
    except ArenaError as exc:
        if live:
            live.finish(f"stopped: {exc}")
        if not args.cluster and not isinstance(exc, tournament.WorkerLost):
            raise
        raise resumable(exc, store, resume) from None
    except KeyboardInterrupt:
        if live:
            live.finish(f"interrupted; resume it with: {resume}")
        played = store.count()
        print(f"\narena: interrupted; {played} games are recorded in {store.folder}. "
              f"Resume with: {resume}", file=sys.stderr)
        return 130
    if live:
        live.finish()
    # The tables are drawn from the records on disk, read as a stream (no record was kept in memory).
    try:
        tally = tables.Tally.of(game.config(), store.summaries())
    except KeyboardInterrupt:  # a million records take seconds to add up: every game is on disk already
        print(f"\narena: interrupted while adding up the tables; every game is recorded in {store.folder}. "
              f"Print the tables with: arena show {store.folder}", file=sys.stderr)
        return 130
    store.write_tables(tables.render(game.config(), tally))  # saved first: a closed pipe loses nothing
    print(tables.render(game.config(), tally, args.format), end="")
    print(f"\nRecords: {store.games_path}; print the tables again with: arena show {store.folder}")
    return 0


def resumable(exc: Exception, store: Store, resume: str) -> ArenaError:
    """A run stopped by ``exc`` (a lost worker, a lost cluster): what it says, what is recorded
    and the command that resumes."""
    return ArenaError(f"{exc}\n{store.count()} games are recorded in {store.folder}. Resume with: {resume}")


class _Console(multiprocessing_logging.MultiProcessingHandler):
    """multiprocessing-logging's handler, except that the process that made it
    prints its own records itself: only the forked workers' go through the
    queue.  (Through the queue, the progress line of each game cost this
    process about 0.1 ms of CPU: a feeder thread pickles it into a pipe, the
    receiving thread takes it out.)  A line is one write to the stream,
    whichever thread prints it, so lines stay whole."""

    def __init__(self, name: str, sub_handler: logging.Handler):
        super().__init__(name, sub_handler=sub_handler)
        self.owner = os.getpid()

    def emit(self, record: logging.LogRecord) -> None:
        if os.getpid() == self.owner:
            self.sub_handler.handle(record)
        else:
            super().emit(record)


def _setup_logging(path: Path) -> None:
    """Games are logged to the console and to arena.log, from every worker
    process.  The workers are forked and inherit both handlers.  The console's
    records (INFO and above: the progress, warnings) go through
    multiprocessing-logging's queue to this process, which prints them
    (``_Console``: this process's own are printed at once).  The
    log file's (a DEBUG line for every move, the bulk) are written by each
    process itself: the file handler flushes every record, so a record goes
    out in one write to a file opened to append, and the lines of several
    processes land whole.  (Sending every move's line through the queue cost
    this process about 0.1 ms of CPU a record: bench_throughput.)"""
    root = logging.getLogger("arena")
    root.setLevel(logging.DEBUG)
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.INFO)
    console.setFormatter(SafeFormatter("%(message)s"))  # every line one line of text
    file = logging.FileHandler(path, encoding="utf-8")
    file.setLevel(logging.DEBUG)
    file.setFormatter(SafeFormatter("%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s"))
    root.addHandler(_Console("arena-console", sub_handler=console))
    root.addHandler(file)
    root.propagate = False
    # What the lines do not show is not gathered (the logging HOWTO's "Optimization"): the caller's
    # file and line, the thread, the process id.  A few microseconds of each line, a line a move.
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = False

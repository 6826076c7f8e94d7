"""``arena run``: validate the inputs, then play and print the tables."""

from __future__ import annotations

import argparse
import logging
import shlex
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import multiprocessing_logging

import referees
from arena import tables, tournament
from arena.boards import find_boards, load_board
from arena.bots import prepare_bots
from arena.errors import ArenaError
from arena.process import Limits
from arena.store import LOG, Store

log = logging.getLogger("arena")


def run_command(args: argparse.Namespace) -> int:
    try:
        referee = referees.get(args.game)
    except LookupError as exc:
        raise ArenaError(str(exc)) from None
    boards = tuple(load_board(referee, path) for path in find_boards(args.boards))
    name = args.name or time.strftime(f"{referee.name}-%Y%m%d-%H%M%S")
    store = Store(Path(args.results) / name)
    build = Path(tempfile.mkdtemp(prefix="arena-build-"))
    try:
        bots, excluded = prepare_bots(args.bots, build, log=lambda text: print(f"arena: {text}", file=sys.stderr))
        for bad in excluded:
            print(f"arena: bot {str(bad.path)!r} is excluded: {bad.reason}", file=sys.stderr)
        if len(bots) < referee.players:
            raise ArenaError(f"{referee.name} is a {referee.players}-player game: it needs at least "
                             f"{referee.players} bots, got {len(bots)}")
        limits = Limits(cpu=args.cpu or referee.cpu_limit, wall=args.wall, memory=args.memory * 2**20)
        game = tournament.Tournament(referee, tuple(bots), boards, limits)
        return _play(game, store, args, name)
    finally:
        shutil.rmtree(build, ignore_errors=True)


def _play(game: tournament.Tournament, store: Store, args: argparse.Namespace, name: str) -> int:
    records = store.start(game.config(), overwrite=args.overwrite)
    _setup_logging(store.folder / LOG)
    resume = shlex.join(["arena", *sys.argv[1:]] + ([] if args.name else ["--name", name]))
    log.info("results in %s (to resume if interrupted: %s)", store.folder, resume)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop as cleanly as on Ctrl-C
    try:
        records = tournament.run(game, store, records, jobs=args.jobs)
    except KeyboardInterrupt:
        played = len(store.records())
        print(f"\narena: interrupted; {played} games are recorded in {store.folder}. "
              f"Resume with: {resume}", file=sys.stderr)
        return 130
    text = tables.render(game.config(), records, args.format)
    print(text, end="")
    store.write_tables(tables.render(game.config(), records))
    print(f"\nRecords: {store.games_path}; print the tables again with: arena show {store.folder}")
    return 0


def _setup_logging(path: Path) -> None:
    """Games are logged to the console and to arena.log, from every worker
    process (multiprocessing-logging forwards the workers' records)."""
    root = logging.getLogger("arena")
    root.setLevel(logging.DEBUG)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.INFO)
    console.setFormatter(logging.Formatter("%(message)s"))
    file = logging.FileHandler(path, encoding="utf-8")
    file.setLevel(logging.DEBUG)
    file.setFormatter(logging.Formatter("%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s"))
    root.addHandler(console)
    root.addHandler(file)
    root.propagate = False
    multiprocessing_logging.install_mp_handler(root)

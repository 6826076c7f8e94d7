"""Argument parsers of ``arena run``, ``arena show`` and ``arena solve``."""

from __future__ import annotations

import argparse
import os
from importlib import import_module
from pathlib import Path

from tabulate import tabulate_formats

import referees
from arena.errors import ArenaError

# game -> module with solve_lines(referee, state, max_seconds) -> list[str]
_SOLVERS = {"paint": "players.paint"}


def add_run(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "run",
        help="run a round-robin tournament",
        description="Run a round-robin tournament: for a two-player game every pair of bots plays every "
        "board twice (once in each seat order; win 3, draw 1.5, loss or fault 0); for a single-player game "
        "every bot plays every board once and its score is recorded. Results go to RESULTS/NAME: "
        "tournament.json, games.jsonl (one line per game, written as it finishes), arena.log and tables.txt. "
        "Running the same command with the same --name resumes an interrupted tournament.",
    )
    parser.add_argument("--game", default="paint", metavar="GAME",
                        help=f"the game (default paint); one of: {', '.join(referees.names())}")
    parser.add_argument("--bots", nargs="+", required=True, metavar="BOT",
                        help="bot files: .py (run with this Python), .c/.cpp (compiled once with -O2), or any "
                        "executable; folders and names starting with '_' or '.' are skipped")
    parser.add_argument("--boards", nargs="+", required=True, metavar="BOARD",
                        help="board files, or folders whose *.in files are boards")
    parser.add_argument("--name", help="the tournament's name (default: the game and a timestamp); "
                        "an existing name with the same configuration resumes it")
    parser.add_argument("--results", default="results", metavar="DIR", help="where results folders go (default results)")
    parser.add_argument("--overwrite", action="store_true",
                        help="discard an existing tournament of this name whose configuration differs")
    parser.add_argument("--jobs", type=_positive_int, default=os.cpu_count() or 1,
                        help="games played in parallel (default: the number of cores, %(default)s here)")
    parser.add_argument("--cpu", type=_positive_float, metavar="SECONDS",
                        help="CPU time per invocation, whole process tree (default: the game's, 1 s per move, "
                        "10 s for one-shot games)")
    parser.add_argument("--wall", type=_positive_float, metavar="SECONDS",
                        help="wall-clock cap per invocation (default 3 x the CPU limit)")
    parser.add_argument("--memory", type=_positive_int, default=256, metavar="MIB",
                        help="memory per invocation in MiB (default 256)")
    parser.add_argument("--format", default="simple", choices=tabulate_formats, metavar="FORMAT",
                        help="table format: plain, simple, github, html, latex, ... (default simple)")
    parser.set_defaults(func=cmd_run)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
    return value


def cmd_run(args: argparse.Namespace) -> int:
    from arena.run import run_command

    return run_command(args)


def add_show(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "show",
        help="print the tables of a finished or interrupted tournament",
        description="Print the tables of a tournament from its records (finished or interrupted).",
    )
    parser.add_argument("folder", metavar="RESULTS", help="a results folder (results/NAME), or just NAME")
    parser.add_argument("--format", default="simple", choices=tabulate_formats, metavar="FORMAT",
                        help="table format: plain, simple, github, html, latex, ... (default simple)")
    parser.set_defaults(func=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    from arena import tables
    from arena.store import Store

    folder = Path(args.folder)
    if not folder.exists() and not folder.is_absolute() and (Path("results") / folder).exists():
        folder = Path("results") / folder
    store = Store.open_existing(folder)
    print(tables.render(store.config(), store.records(), args.format), end="")
    return 0


def add_solve(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "solve",
        help="solve a small position exactly",
        description="Print the game-theoretic value of a position for the player to move "
        "(win / draw / loss) and one best move, or say that the position is too big.",
    )
    parser.add_argument("game", choices=sorted(_SOLVERS), metavar="GAME", help="one of: " + ", ".join(_SOLVERS))
    parser.add_argument("board", metavar="BOARD", help="the position, in board-file format")
    parser.add_argument("--max-seconds", type=float, default=10.0, help="give up after this long (default 10)")
    parser.set_defaults(func=cmd_solve)


def cmd_solve(args: argparse.Namespace) -> int:
    from arena.boards import load_board

    referee = referees.get(args.game)
    _, state = load_board(referee, Path(args.board))
    solver = import_module(_SOLVERS[args.game])
    lines = solver.solve_lines(referee, state, args.max_seconds)
    for line in lines:
        print(line)
    # A position too big to solve in time is reported as "value: unknown": exit status 1.
    return 1 if any(line.startswith("value: unknown") for line in lines) else 0

"""Argument parsers of ``arena run``, ``arena show`` and ``arena solve``."""

from __future__ import annotations

import argparse
from importlib import import_module

import referees
from arena.errors import ArenaError

# game -> module with solve_lines(referee, state, max_seconds) -> list[str]
_SOLVERS = {"paint": "players.paint"}


def add_run(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("run", help="run a tournament", description="Run a tournament.")
    parser.set_defaults(func=lambda args: _not_yet("run"))


def add_show(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("show", help="print the tables of a tournament", description="Show tables.")
    parser.set_defaults(func=lambda args: _not_yet("show"))


def _not_yet(what: str) -> int:
    raise ArenaError(f"arena {what} is not built yet")


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
    from pathlib import Path

    from arena.boards import load_board

    referee = referees.get(args.game)
    _, state = load_board(referee, Path(args.board))
    solver = import_module(_SOLVERS[args.game])
    for line in solver.solve_lines(referee, state, args.max_seconds):
        print(line)
    return 0

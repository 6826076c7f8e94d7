"""``arena solve``: the exact value of a small position and a best move."""

from __future__ import annotations

import argparse
from pathlib import Path

from arena import games
from arena.boards import load_board
from arena.commands import get_referee, positive_float


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "solve",
        help="solve a small position exactly",
        description="Print the game-theoretic value of a position for the player to move "
        "(win / draw / loss) and one best move, or say that the position is too big.",
    )
    solvers = games.solvable()
    parser.add_argument("game", choices=solvers, metavar="GAME", help="one of: " + ", ".join(solvers))
    parser.add_argument("board", metavar="BOARD", help="the position, in board-file format")
    parser.add_argument("--max-seconds", type=positive_float, default=10.0, help="give up after this long (default 10)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    referee = get_referee(args.game)
    _, state = load_board(referee, Path(args.board))
    solver = games.get(args.game).solver()
    lines = solver.solve_lines(referee, state, args.max_seconds)
    for line in lines:
        print(line)
    # A position too big to solve in time is reported as "value: unknown": exit status 1.
    return 1 if any(line.startswith("value: unknown") for line in lines) else 0

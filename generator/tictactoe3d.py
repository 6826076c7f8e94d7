"""Board generator of 3D tic-tac-toe: an n×n×n board and a random opening.

Each board is ``n m`` plus a few opening moves drawn from ``random.Random(seed)``:
each move uniformly among the columns that are not full and do not end the
game; an opening after which the player to move can win at once is drawn again
from the same stream.  With several ``--size`` options, the seed chooses the
size (``sizes[seed % len(sizes)]``), so consecutive seeds cycle through them
and one board is remade from its manifest entry by ``--size n:m --moves K
--seed S`` alone.
"""

from __future__ import annotations

import argparse
import random

from generator import BadParameters, GeneratedBoard
from referees.tictactoe3d import MAX_N, MIN_N, TicTacToe3DState, drop, legal_drops, outcome, winning_drops

GAME = "tictactoe3d"
HELP = "Boards of 3D tic-tac-toe (docs/rules.md, tictactoe3d): n x n x n, lines of m, and a seeded random opening."
ATTEMPTS = 1000


def parse_size(text: str) -> tuple[int, int]:
    """``N:M`` (board size N, line length M) with 3 <= M <= N <= 7."""
    try:
        n, m = (int(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N:M such as 4:4, found {text!r}") from None
    if not (MIN_N <= m <= n <= MAX_N):
        raise argparse.ArgumentTypeError(f"expected {MIN_N} <= M <= N <= {MAX_N} in N:M, found {text!r}")
    return n, m


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=parse_size, action="append", metavar="N:M",
                        help="board size N and line length M (default 4:4, Score Four); repeat it to "
                        "cycle through several sizes (the seed chooses: sizes[seed %% count])")
    parser.add_argument("--moves", type=int, default=2, metavar="K",
                        help="opening moves already played (default 2)")


def opening(n: int, m: int, moves: int, seed: int) -> TicTacToe3DState:
    """The opening ``seed`` gives: ``moves`` random moves, no line, and no
    immediate win for the player to move."""
    if moves < 0 or moves > n ** 3 - 1:
        raise BadParameters(f"--moves must be from 0 to {n ** 3 - 1} on a {n}x{n}x{n} board, got {moves}")
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        state = _random_opening(TicTacToe3DState.empty(n, m), moves, rng)
        if state is not None and not winning_drops(state, state.colour_to_move):
            return state
    raise BadParameters(f"found no opening of {moves} moves on {n}:{m} in {ATTEMPTS} attempts")


def _random_opening(state: TicTacToe3DState, moves: int, rng: random.Random) -> TicTacToe3DState | None:
    """``moves`` random moves that leave the game open, or None if stuck."""
    for _ in range(moves):
        choices = [d for d in legal_drops(state) if outcome(drop(state, d)) is None]
        if not choices:
            return None
        state = drop(state, rng.choice(choices))
    return state


def board_text(state: TicTacToe3DState) -> str:
    """A board file: ``n m`` and the opening moves, one ``x y`` per line."""
    return f"{state.n} {state.m}\n" + "".join(d.to_text() for d in state.moves)


def generate(args: argparse.Namespace, seed: int) -> GeneratedBoard:
    sizes = args.size or [(4, 4)]
    n, m = sizes[seed % len(sizes)]
    state = opening(n, m, args.moves, seed)
    return GeneratedBoard(board_text(state), {"n": n, "m": m, "moves": args.moves})


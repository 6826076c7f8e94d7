"""Seeded Connect Four boards: ``arena generate connect4 --seed 1 --count 6 --out DIR``.

A board's sizes are drawn from the given ranges (default the classic 6 rows × 7 columns, K = 4),
then a few random opening moves, an even number of them so that the first seat plays X, each
refused if it would leave a line or an immediate win for the player to move: the game stays open
and neither side starts a move away from winning.  Deterministic: one ``random.Random(seed)``.
"""

from __future__ import annotations

import argparse
import random

from generator import BadParameters, GeneratedBoard

from connect4.rules import MAX_SIZE, MIN_K, MIN_SIZE, State, board_text, drop, legal_columns, winning_columns

GAME = "connect4"
HELP = "Connect Four: R rows × C columns (default 6×7), lines of K (default 4), a few random opening moves"
#: Small boards for the conformance checks' quick games.
EXAMPLE = ["--rows", "5", "6", "--cols", "5", "7"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, nargs=2, default=[6, 6], metavar=("MIN", "MAX"),
                        help=f"the range of the number of rows R ({MIN_SIZE} to {MAX_SIZE}; default 6 6)")
    parser.add_argument("--cols", type=int, nargs=2, default=[7, 7], metavar=("MIN", "MAX"),
                        help=f"the range of the number of columns C ({MIN_SIZE} to {MAX_SIZE}; default 7 7)")
    parser.add_argument("--k", type=int, default=4, help=f"the line length K ({MIN_K} to max(R, C); default 4)")
    parser.add_argument("--opening", type=int, nargs=2, default=[0, 4], metavar=("MIN", "MAX"),
                        help="the range of the number of opening moves, rounded down to an even number "
                             "(default 0 4)")


def _range(name: str, values: list[int], lo: int, hi: int) -> tuple[int, int]:
    low, high = values
    if not lo <= low <= high <= hi:
        raise BadParameters(f"--{name} {low} {high}: expected {lo} <= MIN <= MAX <= {hi}")
    return low, high


def generate(args: argparse.Namespace, seed: int) -> GeneratedBoard:
    rows_lo, rows_hi = _range("rows", args.rows, MIN_SIZE, MAX_SIZE)
    cols_lo, cols_hi = _range("cols", args.cols, MIN_SIZE, MAX_SIZE)
    if not MIN_K <= args.k <= max(rows_lo, cols_lo):
        raise BadParameters(f"--k {args.k}: expected {MIN_K} to {max(rows_lo, cols_lo)} (the smallest board's "
                            "longer side)")
    open_lo, open_hi = _range("opening", args.opening, 0, MIN_SIZE * MIN_SIZE // 2)
    rng = random.Random(seed)
    rows, cols = rng.randint(rows_lo, rows_hi), rng.randint(cols_lo, cols_hi)
    count = rng.randint(open_lo, open_hi) // 2 * 2
    state = State.empty(rows, cols, args.k)
    for _ in range(count):
        # A move that wins, or hands the opponent a win at once, is not an opening move.
        safe = [col for col in legal_columns(state)
                if not winning_columns(state, state.disc_to_move)
                and not winning_columns(drop(state, col), drop(state, col).disc_to_move)]
        if not safe:
            break
        state = drop(state, rng.choice(safe))
    opening = list(state.moves)
    if len(opening) % 2:
        opening.pop()
    return GeneratedBoard(board_text(rows, cols, args.k, opening),
                          {"rows": rows, "cols": cols, "k": args.k, "opening": [c + 1 for c in opening]})

"""Board generator of Threes with magnets (docs/rules.md, threes).

A seeded board: an N×M grid with some obstacles, magnets (random
directions) and starting symbols on distinct random cells, the insertion
sequences S1 and S2 (equal with ``--same-sequence``), and the pointer
coefficients.  One ``random.Random(seed)`` makes everything, in the order the
code below draws it, so a seed and the parameters fix the board.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import asdict, dataclass

from generator import BadParameters, GeneratedBoard
from referees.threes import MAGNETS, MAX_CELLS, Rules, ThreesState, board_text, code_of

GAME = "threes"
HELP = ("Boards of Threes with magnets: obstacles, magnets and starting symbols on random cells, random "
        "insertion sequences and pointer coefficients (docs/rules.md, threes).")

#: The symbols sequences and starting cells draw from, with their weights for digits
#: 0..max-digit: letters are common, like the ones and twos of the original game.
LETTER_WEIGHT = 3


@dataclass(frozen=True)
class ThreesParams:
    """The generator's parameters (see ``add_arguments``)."""

    rows: int
    cols: int
    obstacles: int
    magnets: int
    symbols: int
    length: int
    max_digit: int
    max_coefficient: int
    same_sequence: bool

    def validate(self) -> ThreesParams:
        """Raise ``BadParameters`` for parameters that make no board."""
        cells = self.rows * self.cols
        checks = (
            (self.rows >= 1 and self.cols >= 1, f"the grid must be at least 1x1, got {self.rows}x{self.cols}"),
            (cells <= MAX_CELLS,
             f"the grid may have at most {MAX_CELLS} cells in arena play, got {self.rows}x{self.cols}"),
            (min(self.obstacles, self.magnets, self.symbols) >= 0, ("counts of obstacles, magnets and symbols "
             f"must not be negative, got {self.obstacles}, {self.magnets}, {self.symbols}")),
            (self.obstacles + self.magnets + self.symbols < cells,
             (f"{self.obstacles} obstacles + {self.magnets} magnets + {self.symbols} symbols leave no empty cell "
             f"on a {self.rows}x{self.cols} grid")),
            (self.length >= 1, f"the sequence length must be at least 1, got {self.length}"),
            (0 <= self.max_digit <= 9, f"the largest digit must be from 0 to 9, got {self.max_digit}"),
            (self.max_coefficient >= 0, f"the largest coefficient must not be negative, got {self.max_coefficient}"),
        )
        for ok, message in checks:
            if not ok:
                raise BadParameters(message)
        return self


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, default=6, help=f"rows N (default 6; N x M at most {MAX_CELLS})")
    parser.add_argument("--cols", type=int, default=6, help=f"columns M (default 6; N x M at most {MAX_CELLS})")
    parser.add_argument("--obstacles", type=int, default=3, help="obstacles '@' (default 3)")
    parser.add_argument("--magnets", type=int, default=2, help="magnets, each of a random direction (default 2)")
    parser.add_argument("--symbols", type=int, default=4, help="starting symbols A, B, digits (default 4)")
    parser.add_argument("--length", type=int, default=8, help="length of each insertion sequence (default 8)")
    parser.add_argument("--max-digit", type=int, default=1,
                        help="largest digit in sequences and starting symbols (default 1)")
    parser.add_argument("--max-coefficient", type=int, default=5,
                        help="pointer coefficients A, B, C are drawn from 0..this (default 5)")
    parser.add_argument("--same-sequence", action="store_true", help="S1 = S2 (the board file's R = 1)")


def params_of(args: argparse.Namespace) -> ThreesParams:
    return ThreesParams(args.rows, args.cols, args.obstacles, args.magnets, args.symbols, args.length,
                        args.max_digit, args.max_coefficient, args.same_sequence).validate()


def generate(args: argparse.Namespace, seed: int) -> GeneratedBoard:
    """One board from one seed."""
    params = params_of(args)
    return GeneratedBoard(board_text(make_board(params, seed)), asdict(params))


def make_board(params: ThreesParams, seed: int) -> ThreesState:
    """The board of ``params`` and ``seed`` (the random calls in this order:
    cells, magnet directions, starting symbols, S1, S2, X, then Y)."""
    rng = random.Random(seed)
    n, m = params.rows, params.cols
    cells = [code_of(".")] * (n * m)
    spots = rng.sample(range(n * m), params.obstacles + params.magnets + params.symbols)
    obstacles = spots[:params.obstacles]
    magnets = spots[params.obstacles:params.obstacles + params.magnets]
    symbols = spots[params.obstacles + params.magnets:]
    for i in obstacles:
        cells[i] = code_of("@")
    for i in magnets:
        cells[i] = code_of(rng.choice(sorted(MAGNETS)))
    for i in symbols:
        cells[i] = code_of(_symbol(rng, params.max_digit))
    s1 = "".join(_symbol(rng, params.max_digit) for _ in range(params.length))
    s2 = s1 if params.same_sequence else "".join(_symbol(rng, params.max_digit) for _ in range(params.length))
    x, ax, bx, cx = rng.randrange(n), *(rng.randint(0, params.max_coefficient) for _ in range(3))
    y, ay, by, cy = rng.randrange(m), *(rng.randint(0, params.max_coefficient) for _ in range(3))
    rules = Rules(n, m, s1, s2, ax, bx, cx, ay, by, cy)
    return ThreesState(rules, tuple(cells), x, y)


def _symbol(rng: random.Random, max_digit: int) -> str:
    """A random movable symbol: A or B (weight 3 each) or a digit (weight 1)."""
    choices = ["A", "B", *(str(d) for d in range(max_digit + 1))]
    weights = [LETTER_WEIGHT, LETTER_WEIGHT, *([1] * (max_digit + 1))]
    return rng.choices(choices, weights)[0]



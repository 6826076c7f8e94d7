"""Board generator of Texas match-3: random colours with no initial run.

One ``random.Random(seed)`` fills the board row-major.  Each cell tries the
colours 1..k in a random order (one ``shuffle`` per cell) and takes the first
that makes no run of three with the two cells to its left or the two above;
when none fits, the search backs up to the previous cell's next colour (with
k >= 3 this never happens; with k = 2 rarely).  Then, row-major, each cell is
special with probability ``--specials`` (one ``random()``), of a type drawn
uniformly from 1..6 (one ``randint``).
"""

from __future__ import annotations

import argparse
import random

from generator import BadParameters, GeneratedBoard
from referees.match3 import KINDS, Match3State, board_text

GAME = "match3"
HELP = "Boards of Texas match-3 (docs/rules.md, match3): n x m colours with no initial run, some special pieces."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, default=10, metavar="N", help="rows n (default 10; the source: <= 50)")
    parser.add_argument("--cols", type=int, default=10, metavar="M", help="columns m (default 10; the source: <= 50)")
    parser.add_argument("--colours", type=int, default=5, metavar="K", help="colours k (default 5)")
    parser.add_argument("--swaps", type=int, default=20, metavar="Q", help="swaps q the bot makes (default 20)")
    parser.add_argument("--specials", type=float, default=0.01, metavar="P",
                        help="chance that a piece is special (default 0.01, like the source's data)")


def colours(n: int, m: int, k: int, rng: random.Random) -> list[int]:
    """Row-major colours 1..k with no run of three in a row or column."""
    cells: list[int] = []
    options: list[list[int]] = []  # per placed cell, the colours still to try
    while len(cells) < n * m:
        if len(options) == len(cells):
            order = list(range(1, k + 1))
            rng.shuffle(order)
            options.append(order)
        fits = [c for c in options[-1] if not _makes_run(cells, m, len(cells), c)]
        if fits:
            options[-1] = options[-1][options[-1].index(fits[0]) + 1:]
            cells.append(fits[0])
        else:
            options.pop()
            if not cells:
                raise BadParameters(f"no {n}x{m} board with {k} colours avoids a run of three")
            cells.pop()
    return cells


def _makes_run(cells: list[int], m: int, i: int, c: int) -> bool:
    """Whether colour c at cell i completes a run with the two cells to the
    left or the two above (the cells placed before it)."""
    y = i % m
    if y >= 2 and cells[i - 1] == c and cells[i - 2] == c:
        return True
    return i >= 2 * m and cells[i - m] == c and cells[i - 2 * m] == c


def specials(n: int, m: int, chance: float, rng: random.Random) -> list[int]:
    """Row-major special types: 0, or 1..6 with probability ``chance``."""
    return [rng.randint(1, KINDS) if rng.random() < chance else 0 for _ in range(n * m)]


def generate_board(n: int, m: int, k: int, q: int, chance: float, seed: int) -> Match3State:
    """The board ``seed`` gives for these parameters."""
    checks = (
        (n >= 1 and m >= 1, f"--rows and --cols must be at least 1, got {n} and {m}"),
        (k >= 1, f"--colours must be at least 1, got {k}"),
        (q >= 1, f"--swaps must be at least 1, got {q}"),
        (0 <= chance <= 1, f"--specials is a probability from 0 to 1, got {chance}"),
    )
    for ok, message in checks:
        if not ok:
            raise BadParameters(message)
    rng = random.Random(seed)
    cells = colours(n, m, k, rng)
    return Match3State(n, m, k, q, tuple(cells), tuple(specials(n, m, chance, rng)))


def generate(args: argparse.Namespace, seed: int) -> GeneratedBoard:
    state = generate_board(args.rows, args.cols, args.colours, args.swaps, args.specials, seed)
    params = {"rows": args.rows, "cols": args.cols, "colours": args.colours, "swaps": args.swaps,
              "specials": args.specials}
    return GeneratedBoard(board_text(state), params)

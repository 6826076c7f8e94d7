"""Board generator of the painting game: the source's pseudocode, pinned
(docs/rules.md, paint).

Numbers cluster around S random centers: a cell at Manhattan distance d from
the nearest center gets a number with probability f(d), a normal-distribution
bell.  The random calls are pinned so that anyone can regenerate a board from
its seed: one ``random.Random(seed)``; each center's row then column with
``randrange(0, N - 1)`` (C#'s ``Next(0, N - 1)``: centers lie in [0, N-2]);
then, row-major, one ``random()`` per cell and one ``randrange(a, b + 1)``
only for a cell that gets a number.

*Decision (docs/rules.md, paint): N = 1 is allowed.  ``randrange(0, 0)`` is
empty; like C#'s ``Next(0, 0)``, which returns 0, the center is (0, 0), and
no random call is made for it.*
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass
from typing import Any

from generator import BadParameters, GeneratedBoard
from referees.paint import EMPTY, PaintState, board_text

GAME = "paint"
HELP = ("Boards of the painting game: numbers clustered around random centers, as the source's "
        "generator makes them (docs/rules.md, paint).")

SIGMA = 0.3
PEAK = 0.6  # the source's B

#: group -> (N, S, a, b), the source's three test groups (docs/rules.md, paint).
GROUPS: dict[int, tuple[int, int, int, int]] = {
    1: (5, 1, 1, 5),
    2: (15, 3, 5, 10),
    3: (30, 5, 10, 20),
}
_FIELDS = ("size", "centers", "min", "max")  # argparse dests, in GROUPS order


@dataclass(frozen=True)
class PaintParams:
    """The generator's parameters: board size n, number of centers, numbers
    in [lo, hi], and the group they came from (if any)."""

    n: int
    centers: int
    lo: int
    hi: int
    group: int | None = None

    def validate(self) -> PaintParams:
        """Raise ``BadParameters`` for parameters that make no board."""
        checks = (
            (self.n >= 1, f"the board size N must be at least 1, got {self.n}"),
            (self.centers >= 1, f"the number of centers S must be at least 1, got {self.centers}"),
            (self.lo >= 1, (f"the smallest number A must be at least 1 (a 0 can never be painted), "
                           f"got {self.lo}")),
            (self.lo <= self.hi, (f"the smallest number A must not exceed the largest B, "
                                 f"got A={self.lo} > B={self.hi}")),
        )
        for ok, message in checks:
            if not ok:
                raise BadParameters(message)
        return self

    def record(self) -> dict[str, Any]:
        """The parameters as the manifest records them."""
        out: dict[str, Any] = {"n": self.n, "centers": self.centers, "min": self.lo, "max": self.hi}
        if self.group is not None:
            out["group"] = self.group
        return out


# ---------------------------------------------------------------- the pseudocode
def density(d: int, n: int) -> float:
    """f(d): the chance that a cell at distance d from the nearest center gets
    a number, computed in floating point exactly as docs/rules.md writes it."""
    a = n * n
    return PEAK * math.pow(math.e, -d / (2 * math.sqrt(a) * SIGMA * SIGMA)) / (math.sqrt(2 * math.pi) * SIGMA)


def _rand(rng: random.Random, lo: int, hi: int) -> int:
    """C#'s ``Next(lo, hi)``: lo <= r < hi, and lo itself when the range is empty."""
    return rng.randrange(lo, hi) if hi > lo else lo


def place_centers(rng: random.Random, n: int, count: int) -> list[tuple[int, int]]:
    """The centers, each (row, column), drawn row then column."""
    return [(_rand(rng, 0, n - 1), _rand(rng, 0, n - 1)) for _ in range(count)]


def distances(n: int, centers: list[tuple[int, int]]) -> list[int]:
    """Row-major, each cell's Manhattan distance to the nearest center."""
    return [min(abs(i - cx) + abs(j - cy) for cx, cy in centers) for i in range(n) for j in range(n)]


def generate_board(n: int, centers: int, lo: int, hi: int, seed: int) -> PaintState:
    """The board that ``seed`` gives for size n, ``centers`` centers and numbers in [lo, hi]."""
    PaintParams(n, centers, lo, hi).validate()
    rng = random.Random(seed)
    chance = [density(d, n) for d in range(2 * n)]  # the largest distance is 2(n-1)
    cells = []
    for d in distances(n, place_centers(rng, n, centers)):
        cells.append(rng.randrange(lo, hi + 1) if rng.random() < chance[d] else EMPTY)
    return PaintState(n, tuple(cells))


# ---------------------------------------------------------------- the command
#: A small board's parameters, for the conformance checks (the defaults make none: a group is needed).
EXAMPLE = ["--group", "1"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--group`` or the four explicit parameters."""
    board = parser.add_argument_group(
        "board parameters: --group G, or all four of --size, --centers, --min, --max")
    board.add_argument("--group", type=int, choices=sorted(GROUPS), metavar="G",
                       help="one of the source's groups: "
                       + "; ".join(f"{g}: N={n}, S={s}, numbers in [{a}, {b}]"
                                   for g, (n, s, a, b) in GROUPS.items()))
    board.add_argument("--size", type=int, metavar="N", help="board size: N x N cells, N >= 1")
    board.add_argument("--centers", type=int, metavar="S", help="number of centers S >= 1")
    board.add_argument("--min", type=int, metavar="A", help="smallest number A >= 1")
    board.add_argument("--max", type=int, metavar="B", help="largest number B >= A")


def params_from_args(args: argparse.Namespace) -> PaintParams:
    """The parameters the command line asks for; explicit ones that
    contradict ``--group``, or missing ones, are ``BadParameters``."""
    given = {name: getattr(args, name, None) for name in _FIELDS}
    group = getattr(args, "group", None)
    if group is not None:
        wanted = dict(zip(_FIELDS, GROUPS[group]))
        clash = [f"--{k} {v} (group {group} has {wanted[k]})" for k, v in given.items()
                 if v is not None and v != wanted[k]]
        if clash:
            raise BadParameters("--group contradicts " + ", ".join(clash))
        return PaintParams(*GROUPS[group], group=group)
    missing = [f"--{k}" for k, v in given.items() if v is None]
    if missing:
        raise BadParameters("give --group {1,2,3}, or all of --size, --centers, --min and --max "
                            f"(missing: {', '.join(missing)})")
    return PaintParams(*(given[k] for k in _FIELDS)).validate()


def generate(args: argparse.Namespace, seed: int) -> GeneratedBoard:
    """One board from one seed, with the parameters the manifest records."""
    params = params_from_args(args)
    state = generate_board(params.n, params.centers, params.lo, params.hi, seed)
    return GeneratedBoard(board_text(state), params.record())

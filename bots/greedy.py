"""Painting-game bot: one ply of lookahead.

Among a few candidate regions per paintable number (``players.paint``), it
plays the one that leaves the opponent the fewest paintable numbers: a move
that leaves none wins at once.  Ties go to the move that takes the most cells
from the other numbers' room.
"""

from __future__ import annotations

import os
import sys

if sys.path and os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)):
    del sys.path[0]  # this folder's random.py must not shadow the standard library's random

from pathlib import Path

from players.paint import greedy_region, position, to_move
from referees.paint import parse_board

#: Stop comparing moves at this much CPU time (interpreter start included).
DEADLINE = 0.6


def main() -> None:
    pos = position(parse_board(Path("game.in").read_text()))
    Path("game.out").write_text(to_move(pos.grid, greedy_region(pos, DEADLINE)).to_text())


if __name__ == "__main__":
    main()

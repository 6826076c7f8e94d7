"""Painting-game bot: a random legal move.

A number is drawn uniformly among those that can still be painted; its
region is grown from it one random free neighbouring cell at a time (the
referee's own ``random_move``).  Every legal region can come out, though not
all with the same chance: drawing uniformly among regions would mean
enumerating them, and a 20 on an open board has millions.
"""

from __future__ import annotations

import os
import sys

if sys.path and os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)):
    del sys.path[0]  # this folder's random.py must not shadow the standard library's random

import random
from pathlib import Path

from referees.paint import PaintReferee, parse_board


def main() -> None:
    referee = PaintReferee()
    state = parse_board(Path("game.in").read_text())
    Path("game.out").write_text(referee.move_text(referee.random_move(state, random.Random())))


if __name__ == "__main__":
    main()

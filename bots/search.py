"""Painting-game bot: exact play when it can, search in a model of the game when not.

Its own clock is the process's CPU time (``time.process_time`` counts the
interpreter's start, about 0.1 s), and it answers by ``DEADLINE`` seconds,
with room to spare under the 1 s limit.  Within that time
(``players.paint.strong_region``):

1. the candidate moves (a few regions per number), ranked by a parity
   heuristic: leave the opponent an even number of paintable numbers;
2. a short exact search of the position, split into independent parts and
   valued by Sprague-Grundy once no draw is possible; when it finishes it
   plays a winning move (or a drawing one) whenever one exists, and in a
   lost position the move that leaves the opponent most ways to go wrong;
3. else, in ranking order, the first move that wins in a model of the game
   where every number has only its candidate regions, unless the exact
   search (keeping what it learnt) proves the model wrong;
4. else the exact search again until the deadline; else the best-ranked move.

What the searches learnt is saved in the bot's folder (``MEMORY``) after the
move is written, and read back at its next move of the same game.
"""

from __future__ import annotations

import os
import sys

if sys.path and os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)):
    del sys.path[0]  # this folder's random.py must not shadow the standard library's random

from pathlib import Path

from players.paint import load_memory, position, save_memory, strong_region, to_move
from referees.paint import parse_board

#: CPU seconds, counted from the start of the process, by which the move is chosen.
DEADLINE = 0.72
#: Where the bot keeps what it learnt between its moves of one game.
MEMORY = Path("search.memory")


def main() -> None:
    pos = position(parse_board(Path("game.in").read_text()))
    memory = load_memory(MEMORY)
    Path("game.out").write_text(to_move(pos.grid, strong_region(pos, DEADLINE, memory)).to_text())
    save_memory(MEMORY, memory)


if __name__ == "__main__":
    main()

"""Crossword bot, PVE and PVP: random legal actions (the referee's own).

The mode comes from ``game.in``: PVP adds a last line
``actions_left my_score their_score``.  PVE: a random plan; PVP: one random
action, or a pass when none is found.
"""

from __future__ import annotations

import random
from pathlib import Path

from referees.crossword import CrosswordPVEReferee, CrosswordPVPReferee, parse_board, parse_words


def main() -> None:
    dictionary = parse_words(Path("words.txt").read_text())
    state, pvp = parse_board(Path("game.in").read_text(), dictionary)
    referee = CrosswordPVPReferee() if pvp else CrosswordPVEReferee()
    move = referee.random_move(state, random.Random())
    Path("game.out").write_text(referee.move_text(move))


if __name__ == "__main__":
    main()

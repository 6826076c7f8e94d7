"""3D tic-tac-toe bot: a random column that is not full (the referee's own
random move)."""

from __future__ import annotations

import random
from pathlib import Path

from referees.tictactoe3d import TicTacToe3DReferee, parse_game_in


def main() -> None:
    referee = TicTacToe3DReferee()
    state = parse_game_in(Path("game.in").read_text())
    Path("game.out").write_text(referee.move_text(referee.random_move(state, random.Random())))


if __name__ == "__main__":
    main()

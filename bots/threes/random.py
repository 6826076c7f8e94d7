"""Threes bot: a random line of moves (the referee's own random plan)."""

from __future__ import annotations

import random
from pathlib import Path

from referees.threes import ThreesReferee


def main() -> None:
    referee = ThreesReferee()
    state = referee.load(Path("game.in").read_text())
    plan = referee.random_move(state, random.Random())
    Path("game.out").write_text(referee.move_text(plan))


if __name__ == "__main__":
    main()

"""Match-3 bot: q random swaps of neighbouring cells (the referee's own random
plan; most of them are invalid and skipped)."""

from __future__ import annotations

import random
from pathlib import Path

from referees.match3 import Match3Referee


def main() -> None:
    referee = Match3Referee()
    state = referee.load(Path("game.in").read_text())
    Path("game.out").write_text(referee.move_text(referee.random_move(state, random.Random())))


if __name__ == "__main__":
    main()

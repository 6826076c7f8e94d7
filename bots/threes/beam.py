"""Threes bot: beam search over move strings.

Each round extends every kept line of moves by W, A, S and D, drops
positions seen before, and keeps the ``WIDTH`` best by value plus a bonus for
empty cells (room to move).  The answer is the best prefix met anywhere:
stopping early is allowed, so a plan never has to end on a worse position.
Stops at ``BUDGET`` CPU seconds (the one-shot limit is 10 s).
"""

from __future__ import annotations

import time
from pathlib import Path

from referees.threes import Game, parse_board

BUDGET = 3.0
WIDTH = 64
MAX_DEPTH = 5000
EMPTY_BONUS = 2


def rank(game: Game) -> int:
    """The beam's ordering: value, plus a little for every empty cell."""
    return game.value() + EMPTY_BONUS * game.empty_cells()


def search(start: Game, budget: float = BUDGET) -> str:
    """The best line of moves found within ``budget`` CPU seconds."""
    deadline = time.process_time() + budget
    best_value, best_moves = start.value(), ""
    beam: list[tuple[Game, str]] = [(start, "")]
    seen = {start.key()}
    for _ in range(MAX_DEPTH):
        children: list[tuple[int, Game, str]] = []
        for game, moves in beam:
            for move in "WASD":
                child = game.copy()
                child.play(move)
                key = child.key()
                if key in seen:
                    continue
                seen.add(key)
                worth = child.value()
                if worth > best_value:
                    best_value, best_moves = worth, moves + move
                if not child.over:
                    children.append((rank(child), child, moves + move))
        if not children or time.process_time() > deadline:
            break
        children.sort(key=lambda item: item[0], reverse=True)
        beam = [(game, moves) for _, game, moves in children[:WIDTH]]
    return best_moves


def main() -> None:
    start = Game(parse_board(Path("game.in").read_text()))
    Path("game.out").write_text(search(start) + "\n")


if __name__ == "__main__":
    main()

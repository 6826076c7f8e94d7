"""3D tic-tac-toe bot: win at once if it can, else block the opponent's win,
else a shallow alpha-beta search.

The search scores a position by the segments of m cells a line can still
fill (``windows`` from the referee): each segment holding only one player's
balls is worth 4^count to that player.  Counts are kept per segment and
updated as balls are dropped and taken back, so a node costs only the
segments through one cell.  Iterative deepening stops at ``BUDGET`` CPU
seconds (interpreter start included), far under the 1 s limit.
"""

from __future__ import annotations

import time
from pathlib import Path

from referees.tictactoe3d import (
    BLACK,
    WHITE,
    Drop,
    TicTacToe3DState,
    legal_drops,
    parse_game_in,
    windows,
    winning_drops,
)

BUDGET = 0.15
MAX_DEPTH = 6
WIN = 10 ** 9


class OutOfTime(Exception):
    pass


class Search:
    """The position as segment counts, for a fast negamax."""

    def __init__(self, state: TicTacToe3DState, deadline: float):
        n, self.m, self.deadline = state.n, state.m, deadline
        self.heights = {(x, y): state.height(x, y) for x in range(1, n + 1) for y in range(1, n + 1)}
        self.n = n
        segments = windows(n, state.m)
        self.through: dict[tuple[int, int, int], list[int]] = {}
        for s, cells in enumerate(segments):
            for cell in cells:
                self.through.setdefault(cell, []).append(s)
        self.counts = [[0, 0] for _ in segments]  # per segment: balls of player 0, of player 1
        self.score = [0, 0]  # sum over segments owned by one player of 4^count
        me = state.colour_to_move
        for (x, y), h in self.heights.items():
            for z in range(1, h + 1):
                self._add((x, y, z), 0 if state.ball(x, y, z) == me else 1)
        self.centre = (n + 1) / 2

    def _add(self, cell: tuple[int, int, int], p: int) -> bool:
        """Put player p's ball at cell; whether it completes a segment."""
        won = False
        for s in self.through[cell]:
            c = self.counts[s]
            if c[1 - p] == 0:
                if c[p]:
                    self.score[p] -= 4 ** c[p]
                c[p] += 1
                self.score[p] += 4 ** c[p]
                won = won or c[p] == self.m
            elif c[p] == 0:
                self.score[1 - p] -= 4 ** c[1 - p]  # the segment is dead now
                c[p] += 1
            else:
                c[p] += 1
        return won

    def _remove(self, cell: tuple[int, int, int], p: int) -> None:
        for s in self.through[cell]:
            c = self.counts[s]
            c[p] -= 1
            if c[1 - p] == 0:
                self.score[p] -= 4 ** (c[p] + 1)
                if c[p]:
                    self.score[p] += 4 ** c[p]
            elif c[p] == 0:
                self.score[1 - p] += 4 ** c[1 - p]

    def moves(self) -> list[tuple[int, int]]:
        """Open columns, central ones first."""
        return sorted((col for col, h in self.heights.items() if h < self.n),
                      key=lambda c: abs(c[0] - self.centre) + abs(c[1] - self.centre))

    def negamax(self, p: int, depth: int, alpha: float, beta: float) -> float:
        if time.process_time() > self.deadline:
            raise OutOfTime
        options = self.moves()
        if depth == 0 or not options:
            return self.score[p] - self.score[1 - p]
        best = -WIN * 2
        for col in options:
            value = self.play(col, p, depth)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best

    def play(self, col: tuple[int, int], p: int, depth: int, alpha: float = -WIN * 2, beta: float = WIN * 2) -> float:
        """The value for p of dropping into col, searched ``depth - 1`` further."""
        self.heights[col] += 1
        cell = (*col, self.heights[col])
        if self._add(cell, p):
            value = WIN + depth  # sooner wins are better
        else:
            value = -self.negamax(1 - p, depth - 1, -beta, -alpha)
        self._remove(cell, p)
        self.heights[col] -= 1
        return value

    def best(self, candidates: list[tuple[int, int]]) -> tuple[int, int]:
        """The best candidate at the deepest depth finished in time."""
        choice = candidates[0]
        for depth in range(1, MAX_DEPTH + 1):
            try:
                values = {col: self.play(col, 0, depth) for col in candidates}
            except OutOfTime:
                break
            choice = max(candidates, key=lambda col: values[col])
            if values[choice] >= WIN:
                break
        return choice


def choose(state: TicTacToe3DState, budget: float = BUDGET) -> Drop:
    """Win, block, or search."""
    me = state.colour_to_move
    wins = winning_drops(state, me)
    if wins:
        return wins[0]
    threats = winning_drops(state, WHITE if me == BLACK else BLACK)
    if threats:
        return threats[0]
    search = Search(state, time.process_time() + budget)
    allowed = {(d.x, d.y) for d in legal_drops(state)}
    col = search.best([c for c in search.moves() if c in allowed])
    return Drop(*col)


def main() -> None:
    state = parse_game_in(Path("game.in").read_text())
    Path("game.out").write_text(choose(state).to_text())


if __name__ == "__main__":
    main()

"""Match-3 bot: greedy, each swap the valid one with the best immediate score
(removal + chain + combo of that swap, every round played out).

The valid swaps are tracked incrementally: after a swap only the pairs near
cells whose colour changed can change validity.  Each is ranked by a cheap
estimate (its first round alone); the best-ranked are played out in full on a
copy for as long as the step's share of the CPU budget lasts, so on small
boards every valid swap is tried and on 50x50 boards the most promising ones.
With no valid swap left the plan ends (the missing swaps are invalid anyway,
and an invalid swap leaves the board as it is).
"""

from __future__ import annotations

import time
from pathlib import Path

from referees.match3 import Game, Match3Referee, Plan

BUDGET = 6.0  # CPU seconds for the whole plan (the one-shot limit is 10 s)
MIN_TRIED = 3  # swaps played out in full per step, whatever the budget


class ValidSwaps:
    """The valid swaps of a game and their first-round estimates."""

    def __init__(self, game: Game):
        self.game = game
        self.estimate: dict[tuple[int, int], int] = {}
        for pair in game.adjacent_pairs():
            self._recheck(pair)

    def _recheck(self, pair: tuple[int, int]) -> None:
        if self.game.swap_is_valid(*pair):
            self.estimate[pair] = self.game.first_round(*pair)
        else:
            self.estimate.pop(pair, None)

    def update(self, before: list[int]) -> None:
        """Recheck the pairs within reach of the cells whose colour changed
        (a swap's validity depends on the cells up to two steps along a row
        or column from either of its cells)."""
        game, m, size = self.game, self.game.m, self.game.n * self.game.m
        changed = [i for i, (old, new) in enumerate(zip(before, game.colours)) if old != new]
        near: set[int] = set()
        for i in changed:
            y = i % m
            near.update(j for j in (i - 2 * m, i - m, i, i + m, i + 2 * m) if 0 <= j < size)
            near.update(i + d for d in (-2, -1, 1, 2) if 0 <= y + d < m)
        pairs = set()
        for i in near:
            if (i + 1) % m:
                pairs.add((i, i + 1))
            if i % m:
                pairs.add((i - 1, i))
            if i + m < size:
                pairs.add((i, i + m))
            if i >= m:
                pairs.add((i - m, i))
        for pair in pairs:
            self._recheck(pair)

    def ranked(self) -> list[tuple[int, int]]:
        return sorted(self.estimate, key=lambda p: (-self.estimate[p], p))


def best_swap(game: Game, ranked: list[tuple[int, int]], deadline: float) -> tuple[int, int]:
    """The ranked swap with the best immediate score among those tried
    before ``deadline`` (at least ``MIN_TRIED``)."""
    best, best_points = ranked[0], -1
    for tried, pair in enumerate(ranked):
        if tried >= MIN_TRIED and time.process_time() > deadline:
            break
        turn = game.copy().play(*pair)
        if turn is not None and turn.points > best_points:
            best, best_points = pair, turn.points
    return best


def plan(game: Game, q: int, budget: float = BUDGET) -> Plan:
    """Up to q greedy swaps within ``budget`` CPU seconds."""
    end = time.process_time() + budget
    valid, swaps = ValidSwaps(game), []
    for step in range(q):
        ranked = valid.ranked()
        if not ranked or time.process_time() > end:
            break
        now = time.process_time()
        pair = best_swap(game, ranked, now + (end - now) / (q - step))
        before = game.colours[:]
        game.play(*pair)
        swaps.append(game.swap_of(*pair))
        valid.update(before)
    return Plan(tuple(swaps))


def main() -> None:
    referee = Match3Referee()
    state = referee.load(Path("game.in").read_text())
    Path("game.out").write_text(referee.move_text(plan(Game.of(state), state.q)))


if __name__ == "__main__":
    main()

"""A strong Connect Four bot: alpha-beta (negamax) with iterative deepening on bitboards.

* The position is two Python integers, one bit per cell, column after column with one empty
  guard bit above each column (so no line wraps from one column into the next): ``mine`` and
  ``mask`` (every disc).  A line of K is found by K - 1 shifts and ands per direction.
* Before searching: win at once if it can; block the opponent's immediate win; never drop a disc
  that lets the opponent win on the cell above it unless nothing else is left.
* Search: negamax with alpha-beta; moves ordered by the transposition table's best move, then
  centre first; a transposition table keyed by (mine, mask) keeps bounds and best moves between the
  iterations; leaves scored by the open windows of K cells (4^count for each window only one
  side holds), wins scored by how soon they come.
* Iterative deepening stops at ``BUDGET`` seconds of process CPU (``time.process_time``,
  interpreter start included), well under the 1 s limit, and plays the best move of the deepest
  search it finished (or a proven win as soon as it has one).

It reads ``game.in`` with the game's own rules module (``connect4.rules``), as a bot may.
"""

from __future__ import annotations

import time
from pathlib import Path

from connect4.rules import X, parse_game_in

BUDGET = 0.6  # CPU seconds of this process, from its start
WIN = 1_000_000
EXACT, LOWER, UPPER = 0, 1, 2


class OutOfTime(Exception):
    pass


class Search:
    def __init__(self, rows: int, cols: int, k: int, columns: tuple[tuple[int, ...], ...], me: int,
                 deadline: float):
        self.rows, self.cols, self.k, self.deadline = rows, cols, k, deadline
        self.h = h = rows + 1
        self.bottom = [c * h for c in range(cols)]
        self.top = [1 << (c * h + rows - 1) for c in range(cols)]
        self.full = sum(((1 << rows) - 1) << (c * h) for c in range(cols))
        self.shifts = (1, h, h + 1, h - 1)
        centre = (cols - 1) / 2
        self.order = sorted(range(cols), key=lambda c: (abs(c - centre), c))
        self.mine = self.mask = 0
        for c, column in enumerate(columns):
            for r, disc in enumerate(column):
                bit = 1 << (c * h + r)
                self.mask |= bit
                if disc == me:
                    self.mine |= bit
        self.windows = self._windows()
        self.weights = [0] + [4 ** n for n in range(1, k)] + [WIN]
        self.table: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self.nodes = 0

    def _windows(self) -> list[int]:
        """Every segment of K cells a line can fill, as a bit mask."""
        found = []
        for dr, dc in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            for c in range(self.cols):
                for r in range(self.rows):
                    end_r, end_c = r + (self.k - 1) * dr, c + (self.k - 1) * dc
                    if 0 <= end_r < self.rows and end_c < self.cols:
                        found.append(sum(1 << ((c + i * dc) * self.h + r + i * dr) for i in range(self.k)))
        return found

    def won(self, bits: int) -> bool:
        for s in self.shifts:
            m = bits
            for _ in range(self.k - 1):
                m &= m >> s
                if not m:
                    break
            if m:
                return True
        return False

    def cell(self, mask: int, c: int) -> int:
        """The bit a disc dropped into column c lands on (0 when the column is full)."""
        if mask & self.top[c]:
            return 0
        return (mask + (1 << self.bottom[c])) & (((1 << self.rows) - 1) << self.bottom[c])

    def wins_for(self, bits: int, mask: int) -> list[int]:
        """The columns where the owner of ``bits`` wins at once."""
        return [c for c in self.order if (b := self.cell(mask, c)) and self.won(bits | b)]

    def evaluate(self, mine: int, theirs: int) -> int:
        score = 0
        weights = self.weights
        for w in self.windows:
            a, b = w & mine, w & theirs
            if not b:
                if a:
                    score += weights[a.bit_count()]
            elif not a:
                score -= weights[b.bit_count()]
        return score

    def negamax(self, mine: int, mask: int, depth: int, ply: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 255 and time.process_time() > self.deadline:
            raise OutOfTime
        theirs = mask ^ mine
        if mask == self.full:
            return 0
        if depth == 0:
            return self.evaluate(mine, theirs)
        key = (mine, mask)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            e_depth, value, flag, first = entry
            if e_depth >= depth:
                if flag == EXACT:
                    return value
                if flag == LOWER and value >= beta:
                    return value
                if flag == UPPER and value <= alpha:
                    return value
        moves = [first] + [c for c in self.order if c != first] if first >= 0 else self.order
        alpha0 = alpha
        best, best_move = -WIN * 2, -1
        for c in moves:
            bit = self.cell(mask, c)
            if not bit:
                continue
            if self.won(mine | bit):
                value = WIN - ply - 1
            else:
                value = -self.negamax(theirs, mask | bit, depth - 1, ply + 1, -beta, -alpha)
            if value > best:
                best, best_move = value, c
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[key] = (depth, best, flag, best_move)
        return best

    def choose(self) -> int:
        mine, mask = self.mine, self.mask
        theirs = mask ^ mine
        legal = [c for c in self.order if self.cell(mask, c)]
        wins = self.wins_for(mine, mask)
        if wins:
            return wins[0]
        threats = self.wins_for(theirs, mask)
        if threats:
            return threats[0]  # (two threats: lost anyway; block one)
        # Drops that do not hand the opponent a win on the cell above.
        safe = [c for c in legal if not self.wins_for(theirs, mask | self.cell(mask, c))]
        candidates = safe or legal
        if len(candidates) == 1:
            return candidates[0]
        choice = candidates[0]
        empty = (self.full ^ mask).bit_count()
        for depth in range(1, empty + 1):
            try:
                values = {}
                alpha = -WIN * 2
                ordered = [choice] + [c for c in candidates if c != choice]
                for c in ordered:
                    bit = self.cell(mask, c)
                    values[c] = -self.negamax(theirs, mask | bit, depth - 1, 1, -WIN * 2, -alpha)
                    alpha = max(alpha, values[c])
            except OutOfTime:
                break
            choice = max(ordered, key=lambda c: values[c])
            if abs(values[choice]) >= WIN - self.rows * self.cols:
                break  # a proven win (or every move loses: the longest defence is chosen)
        return choice


def choose(text: str, budget: float = BUDGET) -> int:
    """The column (0-based) to play in the position of ``game.in``'s text."""
    state = parse_game_in(text)
    me = state.disc_to_move
    search = Search(state.rows, state.cols, state.k, state.columns, me, budget)
    assert me in (X, 3 - X)
    return search.choose()


def main() -> None:
    column = choose(Path("game.in").read_text())
    Path("game.out").write_text(f"{column + 1}\n")


if __name__ == "__main__":
    main()

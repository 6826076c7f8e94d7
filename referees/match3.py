"""Texas match-3 (docs/rules.md, match3; source 003, THUPC 2022 final "德州消消乐").

An n×m board of coloured pieces (colours 1..k, 0 = empty), some of them
special (types 1..6).  A swap of two adjacent pieces is valid when it makes a
run of at least three of one colour in a row or column; invalid swaps are
skipped.  A valid swap starts rounds: every run is removed together with what
the special pieces it reaches remove (chained within the round), then the
pieces fall; the next round removes the runs the fall made, and so on.

Score: removal (round i: i × the colours removed), chain 80(x-1)² for x rounds,
combo 50(s-3)² for each same-colour 4-connected block of size s among a round's
run cells, a poker hand over the main colours of every five valid swaps, and
the end bonuses (1000 when all q swaps are valid, 10000 for an empty board).

Cells are kept row-major in flat lists: index ``r * m + c`` for 0-based row r
and column c; swaps and files use 1-based (row, column) like the source.
``Game`` is the mutable simulator the referee, the judge and the bots share.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import product

from referees.base import BadInput, BadOutput, IllegalMove, Outcome, Referee, TokenReader, number_text

KINDS = 6  # special types 1..6; 0 is an ordinary piece
ROW, COLUMN, CROSS, SQUARE3, SQUARE5, SAME_COLOUR = 1, 2, 3, 4, 5, 6
HAND_EVERY = 5  # a poker hand is scored after every 5 valid swaps
ALL_VALID_BONUS = 1000
CLEARED_BONUS = 10000


# ---------------------------------------------------------------- values
@dataclass(frozen=True)
class Swap:
    """One swap of ``game.out``: (x1, y1) with (x2, y2), 1-based, as written."""

    x1: int
    y1: int
    x2: int
    y2: int

    def to_text(self) -> str:
        return f"{self.x1} {self.y1} {self.x2} {self.y2}\n"


@dataclass(frozen=True)
class Plan:
    """A bot's whole ``game.out``: up to q swaps (missing ones are invalid)."""

    swaps: tuple[Swap, ...]

    def to_text(self) -> str:
        return "".join(s.to_text() for s in self.swaps)


@dataclass(frozen=True)
class Scores:
    """The five kinds of bonus of a finished game, and its summary."""

    removal: int = 0
    chain: int = 0
    combo: int = 0
    hands: int = 0
    end: int = 0
    valid: int = 0
    cleared: bool = False

    @property
    def total(self) -> int:
        return self.removal + self.chain + self.combo + self.hands + self.end


@dataclass(frozen=True)
class Match3State:
    """A board: sizes, colours and special types (row-major), the number of
    swaps q, and once the plan is played, its ``scores`` (the board is then
    the final one)."""

    n: int
    m: int
    k: int
    q: int
    colours: tuple[int, ...]
    kinds: tuple[int, ...]
    scores: Scores | None = None


@dataclass(frozen=True)
class Turn:
    """What one valid swap scored: removal, chain and combo points, its number
    of rounds and its main colours (the colours its own runs removed)."""

    removal: int
    chain: int
    combo: int
    rounds: int
    main: tuple[int, ...]

    @property
    def points(self) -> int:
        return self.removal + self.chain + self.combo


# ---------------------------------------------------------------- simulator
@dataclass
class Game:
    """The mutable board the rules run on (colours 0 = empty, kinds 0..6)."""

    n: int
    m: int
    colours: list[int]
    kinds: list[int]
    _size: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._size = self.n * self.m

    @classmethod
    def of(cls, state: Match3State) -> Game:
        return cls(state.n, state.m, list(state.colours), list(state.kinds))

    def copy(self) -> Game:
        return Game(self.n, self.m, self.colours[:], self.kinds[:])

    def index(self, x: int, y: int) -> int | None:
        """The flat index of 1-based (x, y), or None off the board."""
        if 1 <= x <= self.n and 1 <= y <= self.m:
            return (x - 1) * self.m + (y - 1)
        return None

    def swap_of(self, a: int, b: int) -> Swap:
        """The 1-based ``Swap`` of flat indices a and b."""
        (x1, y1), (x2, y2) = divmod(a, self.m), divmod(b, self.m)
        return Swap(x1 + 1, y1 + 1, x2 + 1, y2 + 1)

    def cleared(self) -> bool:
        return not any(self.colours)

    # ------------------------------------------------------------ runs
    def in_run(self, i: int) -> bool:
        """Whether the piece at i is part of a row or column run of >= 3."""
        col, m, c = self.colours, self.m, self.colours[i]
        if not c:
            return False
        y = i % m
        left = 1 if y >= 1 and col[i - 1] == c else 0
        if left and y >= 2 and col[i - 2] == c:
            return True
        right = 1 if y + 1 < m and col[i + 1] == c else 0
        if right and (left or (y + 2 < m and col[i + 2] == c)):
            return True
        up = 1 if i >= m and col[i - m] == c else 0
        if up and i >= 2 * m and col[i - 2 * m] == c:
            return True
        down = 1 if i + m < self._size and col[i + m] == c else 0
        return bool(down and (up or (i + 2 * m < self._size and col[i + 2 * m] == c)))

    def runs_through(self, cells: Sequence[int] | set[int]) -> set[int]:
        """Every cell of the runs (>= 3 in a row or column) through ``cells``."""
        col, m, size = self.colours, self.m, self._size
        found: set[int] = set()
        for i in cells:
            c = col[i]
            if not c:
                continue
            start = i - i % m
            lo = hi = i
            while lo > start and col[lo - 1] == c:
                lo -= 1
            while hi < start + m - 1 and col[hi + 1] == c:
                hi += 1
            if hi - lo >= 2:
                found.update(range(lo, hi + 1))
            lo = hi = i
            while lo >= m and col[lo - m] == c:
                lo -= m
            while hi + m < size and col[hi + m] == c:
                hi += m
            if hi - lo >= 2 * m:
                found.update(range(lo, hi + 1, m))
        return found

    def combo(self, run_cells: set[int]) -> int:
        """50(s-3)² for each same-colour 4-connected block of run cells."""
        col, m, points, seen = self.colours, self.m, 0, set()
        for start in run_cells:
            if start in seen:
                continue
            seen.add(start)
            stack, size, c = [start], 0, col[start]
            while stack:
                i = stack.pop()
                size += 1
                y = i % m
                for j in (i - m, i + m, i - 1 if y else -1, i + 1 if y + 1 < m else -1):
                    if j in run_cells and j not in seen and col[j] == c:
                        seen.add(j)
                        stack.append(j)
            points += 50 * (size - 3) ** 2
        return points

    # ------------------------------------------------------------ specials
    def _reach(self, i: int, done: set[tuple[int, int]]) -> list[int]:
        """The cells the special piece at i removes.  ``done`` remembers
        whole rows, columns and colours already swept this round."""
        n, m, kind = self.n, self.m, self.kinds[i]
        x, y = divmod(i, m)
        cells: list[int] = []
        if kind in (ROW, CROSS) and (ROW, x) not in done:
            done.add((ROW, x))
            cells.extend(range(x * m, x * m + m))
        if kind in (COLUMN, CROSS) and (COLUMN, y) not in done:
            done.add((COLUMN, y))
            cells.extend(range(y, n * m, m))
        if kind in (SQUARE3, SQUARE5):
            r = 1 if kind == SQUARE3 else 2
            for a in range(max(0, x - r), min(n, x + r + 1)):
                cells.extend(range(a * m + max(0, y - r), a * m + min(m, y + r + 1)))
        if kind == SAME_COLOUR and (SAME_COLOUR, self.colours[i]) not in done:
            c = self.colours[i]
            done.add((SAME_COLOUR, c))
            cells += [j for j, v in enumerate(self.colours) if v == c]
        return cells

    def removed_with_specials(self, run_cells: set[int]) -> set[int]:
        """The run cells plus everything their special pieces remove, each
        special piece triggering once, chains included (one round, no fall)."""
        col, kinds = self.colours, self.kinds
        removed = set(run_cells)
        queue = [i for i in run_cells if kinds[i]]
        done: set[tuple[int, int]] = set()
        while queue:
            fresh = {j for j in self._reach(queue.pop(), done) if col[j]} - removed
            removed |= fresh
            queue.extend(j for j in fresh if kinds[j])
        return removed

    # ------------------------------------------------------------ gravity
    def fall(self, removed: set[int]) -> list[int]:
        """Empty the removed cells and let pieces fall; the cells that received
        a piece (the only places a new run can pass through)."""
        col, kinds, m = self.colours, self.kinds, self.m
        lowest: dict[int, int] = {}  # column -> its lowest removed cell
        for i in removed:
            col[i] = kinds[i] = 0
            y = i % m
            if i > lowest.get(y, -1):
                lowest[y] = i
        moved: list[int] = []
        for write in lowest.values():
            for read in range(write - m, -1, -m):
                if col[read]:
                    col[write], kinds[write] = col[read], kinds[read]
                    col[read] = kinds[read] = 0
                    moved.append(write)
                    write -= m
        return moved

    # ------------------------------------------------------------ swaps
    def swap_is_valid(self, a: int, b: int) -> bool:
        """Whether swapping the pieces at flat indices a and b is valid:
        adjacent, both pieces present, and a run forms (board unchanged)."""
        if not self._adjacent(a, b) or not self.colours[a] or not self.colours[b]:
            return False
        self.exchange(a, b)
        valid = self.in_run(a) or self.in_run(b)
        self.exchange(a, b)
        return valid

    def _adjacent(self, a: int, b: int) -> bool:
        lo, hi = min(a, b), max(a, b)
        return hi - lo == self.m or (hi - lo == 1 and hi % self.m != 0)

    def exchange(self, a: int, b: int) -> None:
        """Exchange the pieces at a and b (no rule checked: see ``play``)."""
        col, kinds = self.colours, self.kinds
        col[a], col[b] = col[b], col[a]
        kinds[a], kinds[b] = kinds[b], kinds[a]

    def play(self, a: int, b: int, cleared: list[set[int]] | None = None) -> Turn | None:
        """Play the swap of a and b: None (board unchanged) when invalid, else
        the rounds it sets off, played to the end.  ``cleared``, when given,
        receives the cells each round removed (for replays)."""
        if not self.swap_is_valid(a, b):
            return None
        self.exchange(a, b)
        changed: Sequence[int] = (a, b)
        rounds = removal = combo = 0
        main: tuple[int, ...] = ()
        while True:
            runs = self.runs_through(changed)
            if not runs:
                break
            rounds += 1
            if rounds == 1:
                main = tuple(sorted({self.colours[i] for i in runs}))
            combo += self.combo(runs)
            removed = self.removed_with_specials(runs)
            if cleared is not None:
                cleared.append(removed)
            removal += rounds * sum(map(self.colours.__getitem__, removed))
            changed = self.fall(removed)
        return Turn(removal, 80 * (rounds - 1) ** 2, combo, rounds, main)

    def first_round(self, a: int, b: int) -> int:
        """The removal and combo points of a valid swap's first round alone
        (no fall, no later rounds): a cheap estimate for bots."""
        self.exchange(a, b)
        runs = self.runs_through((a, b))
        points = sum(map(self.colours.__getitem__, self.removed_with_specials(runs))) + self.combo(runs)
        self.exchange(a, b)
        return points

    def adjacent_pairs(self) -> Iterator[tuple[int, int]]:
        """Every pair of horizontally or vertically adjacent cells."""
        m, size = self.m, self._size
        for i in range(size):
            if (i + 1) % m:
                yield i, i + 1
            if i + m < size:
                yield i, i + m


# ---------------------------------------------------------------- poker
def hand_bonus(cards: Sequence[int]) -> int:
    """The poker bonus of five main colours."""
    counts = sorted(Counter(cards).items(), key=lambda cv: (-cv[1], -cv[0]))
    shape = tuple(count for _, count in counts)
    top = counts[0][0]
    if shape == (5,):
        return 1000 + 10 * top
    if shape == (4, 1):
        return 750 + 5 * top
    if shape == (3, 2):
        return 500 + 3 * top + counts[1][0]
    if shape == (3, 1, 1):
        return 300 + 3 * top
    if shape == (2, 2, 1):
        return 200 + 2 * top + counts[1][0]  # pairs sorted high first
    if shape == (2, 1, 1, 1):
        return 100 + 2 * top
    if shape == (1, 1, 1, 1, 1):
        return 50 + max(cards)
    raise ValueError(f"a hand needs five cards, got {list(cards)!r}")


def best_hand(mains: Sequence[tuple[int, ...]]) -> int:
    """The best hand bonus choosing one main colour of each of five swaps."""
    return max(hand_bonus(cards) for cards in product(*mains))


# ---------------------------------------------------------------- whole game
def play_swaps(state: Match3State, swaps: Sequence[Swap]) -> tuple[Game, Scores]:
    """Play ``swaps`` (invalid ones skipped; fewer than q: the rest invalid)
    and score the game with all five bonuses."""
    game = Game.of(state)
    removal = chain = combo = hands = valid = 0
    mains: list[tuple[int, ...]] = []
    for swap in swaps:
        a, b = game.index(swap.x1, swap.y1), game.index(swap.x2, swap.y2)
        turn = game.play(a, b) if a is not None and b is not None else None
        if turn is None:
            continue
        valid += 1
        removal, chain, combo = removal + turn.removal, chain + turn.chain, combo + turn.combo
        mains.append(turn.main)
        if len(mains) == HAND_EVERY:
            hands += best_hand(mains)
            mains.clear()
    cleared = game.cleared()
    end = (ALL_VALID_BONUS if valid == state.q else 0) + (CLEARED_BONUS if cleared else 0)
    return game, Scores(removal, chain, combo, hands, end, valid, cleared)


# ---------------------------------------------------------------- text
def parse_board(reader: TokenReader) -> Match3State:
    """Read ``n m k q``, n rows of colours (1..k) and n rows of types (0..6)."""
    n = reader.int("the number of rows n", 1)
    m = reader.int("the number of columns m", 1)
    k = reader.int("the number of colours k", 1)
    q = reader.int("the number of swaps q", 0)
    colours = tuple(
        reader.int(f"the colour of ({x}, {y}) (row {x} of the colours)", 1, k)
        for x in range(1, n + 1) for y in range(1, m + 1)
    )
    kinds = tuple(
        reader.int(f"the special type of ({x}, {y}) (row {x} of the types)", 0, KINDS)
        for x in range(1, n + 1) for y in range(1, m + 1)
    )
    state = Match3State(n, m, k, q, colours, kinds)
    run = Game.of(state).runs_through(range(n * m))
    if run:
        x, y = divmod(min(run), m)
        raise BadInput(f"the board has a run of three or more at ({x + 1}, {y + 1}) before any swap; "
                       "boards must start without one (as the source guarantees)")
    return state


def board_text(state: Match3State) -> str:
    """The board file / ``game.in``: the source's input without the swaps."""
    def rows(values: tuple[int, ...]) -> str:
        return "".join(" ".join(map(str, values[r * state.m:(r + 1) * state.m])) + "\n" for r in range(state.n))

    return f"{state.n} {state.m} {state.k} {state.q}\n" + rows(state.colours) + rows(state.kinds)


def read_swaps(reader: TokenReader, limit: int | None, what: str = "swap") -> tuple[Swap, ...]:
    """Swaps ``x1 y1 x2 y2`` until the input ends (at most ``limit``)."""
    swaps = []
    while not reader.at_end():
        number = len(swaps) + 1
        if limit is not None and number > limit:
            reader.end(f"the end of the output after {limit} swaps (q = {limit})")
        x1, y1, x2, y2 = (reader.int(f"{part} of {what} {number}") for part in ("x1", "y1", "x2", "y2"))
        swaps.append(Swap(x1, y1, x2, y2))
    return tuple(swaps)


def describe(scores: Scores, q: int) -> str:
    """The reason shown in tables: what made the score."""
    parts = [f"{scores.valid} of {q} swaps valid"]
    if scores.cleared:
        parts.append("board cleared")
    return ", ".join(parts)


# ---------------------------------------------------------------- referee
class Match3Referee(Referee):
    name = "match3"
    players = 1
    protocol = "one-shot"
    cpu_limit = 10.0
    judge_inputs = ("FILE",)
    judge_help = ("FILE: the source problem's input (n m k q, colours, types, q swaps); "
                  "print the total score.")

    def load(self, text: str, extras: Mapping[str, str] | None = None) -> Match3State:
        reader = TokenReader(text, BadInput)
        state = parse_board(reader)
        reader.end("the end of the board after the rows of types (a board file has no swaps)")
        return state

    def to_move(self, state: Match3State) -> int:
        return 0

    def render(self, state: Match3State, seat: int) -> dict[str, str]:
        return {"game.in": board_text(state)}

    def parse(self, state: Match3State, text: str) -> Plan:
        return Plan(read_swaps(TokenReader(text, BadOutput), state.q))

    def check(self, state: Match3State, move: Plan) -> None:
        if state.scores is not None:
            raise IllegalMove("game-over", "the plan has been played already")
        if len(move.swaps) > state.q:
            raise IllegalMove("too-many-swaps", f"the plan has {len(move.swaps)} swaps; q is {state.q}")

    def apply(self, state: Match3State, move: Plan) -> Match3State:
        game, scores = play_swaps(state, move.swaps)
        return replace(state, colours=tuple(game.colours), kinds=tuple(game.kinds), scores=scores)

    def outcome(self, state: Match3State) -> Outcome | None:
        if state.scores is None:
            return None
        return Outcome.scored(state.scores.total, describe(state.scores, state.q))

    def move_text(self, move: Plan) -> str:
        return move.to_text()

    def random_move(self, state: Match3State, rng: random.Random) -> Plan:
        return Plan(tuple(random_swap(state, rng) for _ in range(state.q)))

    def judge_case(self, board: str, extras: Mapping[str, str], moves: list[str],
                   outcome: Outcome) -> tuple[list[str], str]:
        return [board.rstrip("\n") + "\n" + moves[0]], number_text(outcome.score)

    def judge(self, texts: list[str], extras: Mapping[str, str]) -> Iterator[str]:
        reader = TokenReader(texts[0], BadInput)
        state = parse_board(reader)
        swaps = tuple(
            Swap(*(reader.int(f"{part} of swap {s}") for part in ("x1", "y1", "x2", "y2")))
            for s in range(1, state.q + 1)
        )
        reader.end(f"the end of the input after {state.q} swaps")
        yield str(play_swaps(state, swaps)[1].total)


def random_swap(state: Match3State, rng: random.Random) -> Swap:
    """A swap of a random cell with a random neighbour on the board (it may
    well be invalid); on a 1×1 board, the cell with itself."""
    x, y = rng.randint(1, state.n), rng.randint(1, state.m)
    steps = [(dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
             if 1 <= x + dx <= state.n and 1 <= y + dy <= state.m] or [(0, 0)]
    dx, dy = rng.choice(steps)
    return Swap(x, y, x + dx, y + dy)

"""3D tic-tac-toe with gravity (docs/rules.md, tictactoe3d; source 001).

An n×n×n board: a move names a column (x, y), 1 <= x, y <= n, and the ball
drops to the lowest free height z (1-based, z = 1 at the bottom).  Black moves
first.  The mover wins on making a line of at least m of its balls along any of
the 13 directions; a full board without a line is a draw.

The board is kept as one tuple of balls per column, bottom first, so that judge
mode can drop balls above height n as the source's reference program does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache

from referees.base import BadInput, BadOutput, IllegalMove, Outcome, Referee, TokenReader

BLACK, WHITE = 1, 2
COLOUR_NAMES = {BLACK: "Black", WHITE: "White"}
MIN_N, MAX_N = 3, 7  # docs/rules.md, tictactoe3d: 3 <= n <= 7, 3 <= m <= n

# The 13 directions, one per line through a point (the opposite sense is the
# same line): 3 axes, 6 face diagonals, 4 space diagonals.
DIRECTIONS: tuple[tuple[int, int, int], ...] = (
    (1, 0, 0), (0, 1, 0), (0, 0, 1),
    (1, 1, 0), (1, -1, 0), (1, 0, 1), (1, 0, -1), (0, 1, 1), (0, 1, -1),
    (1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1),
)


@dataclass(frozen=True)
class Drop:
    """A move: drop a ball into column (x, y), 1-based, as the bot wrote it."""

    x: int
    y: int

    def to_text(self) -> str:
        return f"{self.x} {self.y}\n"


@dataclass(frozen=True)
class Line:
    """A winning line: its colour, length and two end points (x, y, z)."""

    colour: int
    length: int
    start: tuple[int, int, int]
    end: tuple[int, int, int]


@dataclass(frozen=True)
class TicTacToe3DState:
    """A position: sizes, the balls of each column (index (x-1)*n + (y-1),
    bottom first), every move so far, how many of them the board file's
    opening played, and the winning line once there is one."""

    n: int
    m: int
    columns: tuple[tuple[int, ...], ...]
    moves: tuple[Drop, ...] = ()
    opening: int = 0
    line: Line | None = None

    @classmethod
    def empty(cls, n: int, m: int) -> TicTacToe3DState:
        return cls(n, m, ((),) * (n * n))

    @property
    def colour_to_move(self) -> int:
        return BLACK if len(self.moves) % 2 == 0 else WHITE

    def height(self, x: int, y: int) -> int:
        return len(self.columns[(x - 1) * self.n + (y - 1)])

    def ball(self, x: int, y: int, z: int) -> int:
        """The colour at (x, y, z), 0 when empty or off the board."""
        if 1 <= x <= self.n and 1 <= y <= self.n and z >= 1:
            column = self.columns[(x - 1) * self.n + (y - 1)]
            return column[z - 1] if z <= len(column) else 0
        return 0

    def full(self) -> bool:
        return all(len(c) >= self.n for c in self.columns)


# ---------------------------------------------------------------- rules
def line_through(state: TicTacToe3DState, x: int, y: int, z: int, colour: int) -> Line | None:
    """The longest line of ``colour`` through (x, y, z) if it reaches m."""
    best: Line | None = None
    for dx, dy, dz in DIRECTIONS:
        ahead = _run(state, x, y, z, dx, dy, dz, colour)
        behind = _run(state, x, y, z, -dx, -dy, -dz, colour)
        length = 1 + ahead + behind
        if length >= state.m and (best is None or length > best.length):
            best = Line(colour, length, (x - behind * dx, y - behind * dy, z - behind * dz),
                        (x + ahead * dx, y + ahead * dy, z + ahead * dz))
    return best


def _run(state: TicTacToe3DState, x: int, y: int, z: int, dx: int, dy: int, dz: int, colour: int) -> int:
    """How many balls of ``colour`` follow (x, y, z) in direction (dx, dy, dz)."""
    count = 0
    while state.ball(x + (count + 1) * dx, y + (count + 1) * dy, z + (count + 1) * dz) == colour:
        count += 1
    return count


def drop(state: TicTacToe3DState, move: Drop) -> TicTacToe3DState:
    """The position after dropping the mover's ball (no height cap: callers check)."""
    index = (move.x - 1) * state.n + (move.y - 1)
    colour = state.colour_to_move
    column = state.columns[index] + (colour,)
    columns = state.columns[:index] + (column,) + state.columns[index + 1:]
    after = replace(state, columns=columns, moves=state.moves + (move,))
    return replace(after, line=line_through(after, move.x, move.y, len(column), colour))


def check_drop(state: TicTacToe3DState, move: Drop) -> None:
    """Raise ``IllegalMove`` for a column off the board or a full column."""
    n = state.n
    if not (1 <= move.x <= n and 1 <= move.y <= n):
        raise IllegalMove("off-board", f"column ({move.x}, {move.y}) is off the board: x and y run from 1 to {n}")
    if state.height(move.x, move.y) >= n:
        raise IllegalMove("full-column", f"column ({move.x}, {move.y}) is full ({n} balls)")


def legal_drops(state: TicTacToe3DState) -> list[Drop]:
    """Every column that is not full."""
    n = state.n
    return [Drop(x, y) for x in range(1, n + 1) for y in range(1, n + 1) if state.height(x, y) < n]


def winning_drops(state: TicTacToe3DState, colour: int) -> list[Drop]:
    """The legal drops that would give ``colour`` a line at once."""
    return [d for d in legal_drops(state)
            if line_through(state, d.x, d.y, state.height(d.x, d.y) + 1, colour) is not None]


def outcome(state: TicTacToe3DState) -> Outcome | None:
    """A line wins for the colour that made it; a full board draws."""
    if state.line is not None:
        line = state.line
        seat = (line.colour - BLACK - state.opening) % 2
        return Outcome.win(seat, f"{COLOUR_NAMES[line.colour]} made a line of {line.length} "
                                 f"from {line.start} to {line.end} on move {len(state.moves)}")
    if state.full():
        return Outcome.draw("the board is full with no line")
    return None


@cache
def windows(n: int, m: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Every segment of m cells (x, y, z), 1-based, on an n×n×n board along
    the 13 directions: the places a winning line can be (for bots)."""
    found = []
    cells = range(1, n + 1)
    for dx, dy, dz in DIRECTIONS:
        for x in cells:
            for y in cells:
                for z in cells:
                    last = (x + (m - 1) * dx, y + (m - 1) * dy, z + (m - 1) * dz)
                    if all(1 <= v <= n for v in last):
                        found.append(tuple((x + i * dx, y + i * dy, z + i * dz) for i in range(m)))
    return tuple(found)


# ---------------------------------------------------------------- text
def parse_board(text: str) -> TicTacToe3DState:
    """A board file: ``n m``, then opening moves ``x y`` (legal, no line)."""
    reader = TokenReader(text, BadInput)
    n = reader.int("the board size n", MIN_N, MAX_N)
    m = reader.int("the line length m", MIN_N, n)
    state = TicTacToe3DState.empty(n, m)
    while not reader.at_end():
        line = reader.line
        move = Drop(reader.int(f"x of opening move {len(state.moves) + 1}"),
                    reader.int(f"y of opening move {len(state.moves) + 1}"))
        state = _opening_drop(state, move, line)
    return replace(state, opening=len(state.moves))


def _opening_drop(state: TicTacToe3DState, move: Drop, line: int) -> TicTacToe3DState:
    """Play one opening move of a board file; it must leave the game open."""
    try:
        check_drop(state, move)
    except IllegalMove as exc:
        raise BadInput(f"opening move {len(state.moves) + 1} is illegal: {exc.message}", line=line) from None
    state = drop(state, move)
    if outcome(state) is not None:
        raise BadInput(f"opening move {len(state.moves)} ({move.x}, {move.y}) ends the game; "
                       "an opening must leave the game open", line=line)
    return state


def game_in(state: TicTacToe3DState) -> str:
    """``game.in``: ``n m``, the number of moves k, then the k moves."""
    return f"{state.n} {state.m}\n{len(state.moves)}\n" + "".join(m.to_text() for m in state.moves)


def parse_game_in(text: str) -> TicTacToe3DState:
    """Read ``game.in`` back into a position (for bots)."""
    reader = TokenReader(text, BadInput)
    n = reader.int("the board size n", MIN_N, MAX_N)
    m = reader.int("the line length m", MIN_N, n)
    k = reader.int("the number of moves k", 0, n ** 3)
    state = TicTacToe3DState.empty(n, m)
    for i in range(1, k + 1):
        state = drop(state, Drop(reader.int(f"x of move {i}", 1, n), reader.int(f"y of move {i}", 1, n)))
    reader.end(f"the end of game.in after {k} moves")
    return state


def parse_drop(text: str) -> Drop:
    """``game.out``: two integers ``x y``."""
    reader = TokenReader(text, BadOutput)
    move = Drop(reader.int("the column's x"), reader.int("the column's y"))
    reader.end("the end of the move after 'x y'")
    return move


# ---------------------------------------------------------------- judge
def judge_cases(text: str) -> Iterator[str]:
    """The source problem: cases ``n m p`` + p moves until ``0 0 0``; per case
    ``Black t``, ``White t`` (the winning move, later moves ignored) or ``Draw``.
    Like the reference program, no column height cap."""
    reader = TokenReader(text, BadInput)
    case = 0
    while not reader.at_end():
        case += 1
        n, m, p = (reader.int(f"{what} of case {case}") for what in ("n", "m", "p"))
        if (n, m, p) == (0, 0, 0):
            return
        if n < 1 or m < 1 or p < 0:
            raise reader.fail(f"case {case}: expected n >= 1, m >= 1 and p >= 0, found {n} {m} {p}")
        yield _judge_case(reader, case, TicTacToe3DState.empty(n, m), p)


class _Columns:
    """A board that changes in place, for judge mode: a case may hold many
    thousands of moves, and copying the position at each one (as ``drop`` does
    for the arena's immutable states) would cost time quadratic in them.  It
    answers ``ball`` and ``m`` like a state, so ``line_through`` reads it."""

    def __init__(self, n: int, m: int):
        self.n, self.m = n, m
        self.columns: list[list[int]] = [[] for _ in range(n * n)]

    def ball(self, x: int, y: int, z: int) -> int:
        if 1 <= x <= self.n and 1 <= y <= self.n and z >= 1:
            column = self.columns[(x - 1) * self.n + (y - 1)]
            return column[z - 1] if z <= len(column) else 0
        return 0

    def drop(self, move: Drop, colour: int) -> Line | None:
        column = self.columns[(move.x - 1) * self.n + (move.y - 1)]
        column.append(colour)
        return line_through(self, move.x, move.y, len(column), colour)  # type: ignore[arg-type]


def _judge_case(reader: TokenReader, case: int, state: TicTacToe3DState, p: int) -> str:
    """Every move is read (a bad token is an error even after the game is won);
    the first line of m decides.  Linear in p."""
    verdict = "Draw"
    board = _Columns(state.n, state.m)
    won = False
    for t in range(1, p + 1):
        move = Drop(reader.int(f"x of move {t} of case {case}", 1, state.n),
                    reader.int(f"y of move {t} of case {case}", 1, state.n))
        if not won:
            line = board.drop(move, BLACK if t % 2 == 1 else WHITE)
            if line is not None:
                won, verdict = True, f"{COLOUR_NAMES[line.colour]} {t}"
    return verdict


# ---------------------------------------------------------------- referee
class TicTacToe3DReferee(Referee):
    name = "tictactoe3d"
    players = 2
    protocol = "per-move"
    judge_inputs = ("FILE",)
    judge_help = ("FILE: the source problem's input (cases 'n m p' + p moves 'x y', ended by '0 0 0'); "
                  "print 'Black t', 'White t' or 'Draw' per case.")

    def load(self, text: str, extras: Mapping[str, str] | None = None) -> TicTacToe3DState:
        return parse_board(text)

    def to_move(self, state: TicTacToe3DState) -> int:
        return (len(state.moves) - state.opening) % 2

    def render(self, state: TicTacToe3DState, seat: int) -> dict[str, str]:
        return {"game.in": game_in(state)}

    def parse(self, state: TicTacToe3DState, text: str) -> Drop:
        return parse_drop(text)

    def check(self, state: TicTacToe3DState, move: Drop) -> None:
        check_drop(state, move)

    def apply(self, state: TicTacToe3DState, move: Drop) -> TicTacToe3DState:
        return drop(state, move)

    def outcome(self, state: TicTacToe3DState) -> Outcome | None:
        return outcome(state)

    def move_text(self, move: Drop) -> str:
        return move.to_text()

    def random_move(self, state: TicTacToe3DState, rng: random.Random) -> Drop:
        return rng.choice(legal_drops(state))

    def judge_case(self, board: str, extras: Mapping[str, str], moves: list[str],
                   outcome: Outcome) -> tuple[list[str], str]:
        """One case of the source's input: the board's opening, then the moves played; the
        result in its words, from the winner's seat (its colour follows the opening's length)."""
        state = parse_board(board)
        drops = [*state.moves, *(parse_drop(text) for text in moves)]
        case = f"{state.n} {state.m} {len(drops)}\n" + "".join(f"{d.x} {d.y}\n" for d in drops) + "0 0 0\n"
        if outcome.winner is None:
            return [case], "Draw"
        first = BLACK if state.opening % 2 == 0 else WHITE  # the colour seat 0 plays
        second = WHITE if first == BLACK else BLACK
        return [case], f"{COLOUR_NAMES[first if outcome.winner == 0 else second]} {len(drops)}"

    def judge(self, texts: list[str], extras: Mapping[str, str]) -> Iterator[str]:
        yield from judge_cases(texts[0])

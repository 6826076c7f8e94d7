"""The rules of Connect Four, the one place they are written: the referee, and what bots may import.

A board of R rows and C columns stands upright; the players take turns dropping a disc into a
column that is not full, where it falls to the lowest free row.  Whoever first has K of their
discs in a row, a column or a diagonal wins; a full board with no such line is a draw.  X drops
the first disc of a board (an opening's first one), O the second, and so on.

* Board file: ``R C K`` (4 <= R, C <= 10; 3 <= K <= max(R, C)), then optionally the opening's
  moves, column numbers from 1 to C, separated by spaces or newlines; they must leave the game open.
* ``game.in``: ``R C K``; your disc (``X`` or ``O``); the R rows of the grid, top row first, C
  characters each (``.`` empty, ``X``, ``O``); then ``k`` and the k columns played so far.
* ``game.out``: one integer, the column to drop into, from 1 (left) to C (right).

Columns count from 1 everywhere: board files, ``game.in``, ``game.out``, the judge and the
replay's labels.  Rows are counted from 1 at the top, as ``game.in`` lists them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from referees import base
from referees.base import BadInput, BadOutput, IllegalMove, Outcome, TokenReader

NAME = "connect4"
EMPTY, X, O = 0, 1, 2
SYMBOLS = {EMPTY: ".", X: "X", O: "O"}
DISCS = {"X": X, "O": O}
MIN_SIZE, MAX_SIZE = 4, 10
MIN_K = 3
#: The four directions of a line (row step, column step), rows counted upwards here.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True)
class Line:
    """A winning line: the disc that made it and its cells, ``(row, column)`` 0-based from the
    bottom left, in order along the line."""

    disc: int
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class State:
    """A position: the sizes, each column's discs bottom first, every move so far (0-based
    columns), how many of them the board file's opening played, and the winning line if any."""

    rows: int
    cols: int
    k: int
    columns: tuple[tuple[int, ...], ...]
    moves: tuple[int, ...] = ()
    opening: int = 0
    line: Line | None = None

    @classmethod
    def empty(cls, rows: int = 6, cols: int = 7, k: int = 4) -> State:
        return cls(rows, cols, k, ((),) * cols)

    @property
    def disc_to_move(self) -> int:
        """X when an even number of discs is down, else O."""
        return X if len(self.moves) % 2 == 0 else O

    def height(self, col: int) -> int:
        """How many discs column ``col`` (0-based) holds."""
        return len(self.columns[col])

    def disc(self, row: int, col: int) -> int:
        """The disc at ``(row, col)``, 0-based from the bottom left; EMPTY when none or off the board."""
        if 0 <= col < self.cols and 0 <= row < self.rows:
            column = self.columns[col]
            return column[row] if row < len(column) else EMPTY
        return EMPTY

    def full(self) -> bool:
        return all(len(column) >= self.rows for column in self.columns)


def other(disc: int) -> int:
    return O if disc == X else X


# ---------------------------------------------------------------- rules
def line_through(state: State, row: int, col: int, disc: int) -> Line | None:
    """The longest line of ``disc`` through ``(row, col)`` if it has at least K cells."""
    best: Line | None = None
    for dr, dc in DIRECTIONS:
        behind = 0
        while state.disc(row - (behind + 1) * dr, col - (behind + 1) * dc) == disc:
            behind += 1
        ahead = 0
        while state.disc(row + (ahead + 1) * dr, col + (ahead + 1) * dc) == disc:
            ahead += 1
        length = behind + 1 + ahead
        if length >= state.k and (best is None or length > len(best.cells)):
            cells = tuple((row + i * dr, col + i * dc) for i in range(-behind, ahead + 1))
            best = Line(disc, cells)
    return best


def check_drop(state: State, col: int) -> None:
    """Raise ``IllegalMove`` for a column off the board or a full one (``col`` 0-based)."""
    if not 0 <= col < state.cols:
        raise IllegalMove("off-board", f"column {col + 1} is off the board: columns run from 1 to {state.cols}")
    if state.height(col) >= state.rows:
        raise IllegalMove("full-column", f"column {col + 1} is full ({state.rows} discs)")


def drop(state: State, col: int) -> State:
    """The position after the mover drops a disc into column ``col`` (0-based, checked)."""
    disc = state.disc_to_move
    column = state.columns[col] + (disc,)
    after = replace(state, columns=state.columns[:col] + (column,) + state.columns[col + 1:],
                    moves=state.moves + (col,))
    return replace(after, line=line_through(after, len(column) - 1, col, disc))


def legal_columns(state: State) -> list[int]:
    """The columns (0-based) that are not full."""
    return [col for col in range(state.cols) if state.height(col) < state.rows]


def winning_columns(state: State, disc: int) -> list[int]:
    """The legal columns where ``disc`` would make a line at once."""
    return [col for col in legal_columns(state) if line_through(state, state.height(col), col, disc) is not None]


def seat_of(state: State, disc: int) -> int:
    """The seat playing ``disc``: seat 0 plays the disc to move after the opening."""
    return (disc - X - state.opening) % 2


def disc_of(state: State, seat: int) -> int:
    return X if (seat + state.opening) % 2 == 0 else O


def outcome(state: State) -> Outcome | None:
    """A line wins for the seat that made it; a full board is a draw."""
    if state.line is not None:
        line = state.line
        (r0, c0), (r1, c1) = line.cells[0], line.cells[-1]
        return Outcome.win(seat_of(state, line.disc),
                           f"{SYMBOLS[line.disc]} connected {len(line.cells)} from {cell_name(state, r0, c0)} "
                           f"to {cell_name(state, r1, c1)} on move {len(state.moves)}")
    if state.full():
        return Outcome.draw("the board is full with no line")
    return None


def cell_name(state: State, row: int, col: int) -> str:
    """A cell as the replay labels it: ``row r, column c``, rows from 1 at the top."""
    return f"(row {state.rows - row}, column {col + 1})"


# ---------------------------------------------------------------- text
def _sizes(reader: TokenReader) -> tuple[int, int, int]:
    """``R C K``, all three on the first line."""
    first = reader.line

    def on_first_line(what: str) -> None:
        if not reader.at_end() and reader.line != first:
            raise reader.fail(f"expected {what} on line {first}, after the numbers before it ('R C K' is one "
                              "line)", first)

    rows = reader.int("the number of rows R", MIN_SIZE, MAX_SIZE)
    on_first_line("the number of columns C")
    cols = reader.int("the number of columns C", MIN_SIZE, MAX_SIZE)
    on_first_line("the line length K")
    k = reader.int("the line length K", MIN_K, max(rows, cols))
    return rows, cols, k


def parse_board(text: str) -> State:
    """A board file: ``R C K`` on the first line, then the opening's columns (1-based), if any."""
    reader = TokenReader(text, BadInput)
    if reader.at_end():
        raise BadInput("expected 'R C K' (rows, columns, line length), found an empty board file", line=1)
    first = reader.line
    rows, cols, k = _sizes(reader)
    if not reader.at_end() and reader.line == first:
        raise reader.fail("expected the end of the first line after 'R C K'; the opening's columns follow "
                          "on the next lines")
    state = State.empty(rows, cols, k)
    while not reader.at_end():
        line = reader.line
        number = len(state.moves) + 1
        col = reader.int(f"the column of opening move {number}", 1, cols) - 1
        try:
            check_drop(state, col)
        except IllegalMove as exc:
            raise BadInput(f"opening move {number} is illegal: {exc.message}", line=line) from None
        state = drop(state, col)
        if outcome(state) is not None:
            raise BadInput(f"opening move {number} (column {col + 1}) ends the game; an opening must leave "
                           "the game open", line=line)
    return replace(state, opening=len(state.moves))


def board_text(rows: int, cols: int, k: int, opening: list[int] | tuple[int, ...]) -> str:
    """A board file's text (``opening``: 0-based columns)."""
    return f"{rows} {cols} {k}\n" + (" ".join(str(c + 1) for c in opening) + "\n" if opening else "")


def grid_rows(state: State) -> list[str]:
    """The grid, top row first: ``.``, ``X``, ``O``."""
    return ["".join(SYMBOLS[state.disc(row, col)] for col in range(state.cols))
            for row in range(state.rows - 1, -1, -1)]


def game_in(state: State) -> str:
    """What the bot to move reads: sizes, its disc, the grid and the moves so far."""
    moves = " ".join(str(c + 1) for c in state.moves)
    return (f"{state.rows} {state.cols} {state.k}\n{SYMBOLS[state.disc_to_move]}\n"
            + "".join(row + "\n" for row in grid_rows(state))
            + f"{len(state.moves)}{' ' + moves if moves else ''}\n")


def parse_game_in(text: str) -> State:
    """``game.in`` read back into a position (bots import this); the moves rebuild it and the
    grid must agree with them."""
    reader = TokenReader(text, BadInput)
    rows, cols, k = _sizes(reader)
    line = reader.line
    disc = reader.word("your disc, X or O")
    if disc not in DISCS:
        raise reader.fail(f"expected your disc, X or O, found {disc!r}", line)
    grid = []
    for i in range(rows):
        line = reader.line
        row = reader.word(f"row {i + 1} of the grid")
        if len(row) != cols or set(row) - set(".XO"):
            raise reader.fail(f"expected row {i + 1} of the grid: {cols} characters of '.', 'X' or 'O', "
                              f"found {row!r}", line)
        grid.append(row)
    count = reader.int("the number of moves so far k", 0, rows * cols)
    state = State.empty(rows, cols, k)
    for i in range(count):
        line = reader.line
        col = reader.int(f"the column of move {i + 1}", 1, cols) - 1
        if state.height(col) >= rows:
            raise reader.fail(f"move {i + 1}: column {col + 1} is full", line)
        state = drop(state, col)
    reader.end(f"the end of game.in after {count} moves")
    if grid_rows(state) != grid:
        raise BadInput("the grid does not match the moves so far")
    if SYMBOLS[state.disc_to_move] != disc:
        raise BadInput(f"the disc to move after {count} moves is {SYMBOLS[state.disc_to_move]}, not {disc}")
    return state


def parse_move(text: str) -> int:
    """``game.out``: one integer, the column from 1; returned 0-based."""
    reader = TokenReader(text, BadOutput)
    col = reader.int("the column to drop into (an integer from 1)")
    reader.end("the end of the output after the column")
    return col - 1


def move_text(col: int) -> str:
    return f"{col + 1}\n"


# ---------------------------------------------------------------- judge
def judge_lines(board: str, moves: str) -> Iterator[str]:
    """Judge mode: the moves (columns from 1) played on the board after its opening: ``ok`` or
    ``illegal: RULE: ...`` per move (an illegal move loses), ``ignored`` for moves after the end,
    then ``result: first wins|second wins|draw|unfinished`` (first: who moves first after the
    opening)."""
    try:
        state = parse_board(board)
    except BadInput as exc:
        raise BadInput(exc.message, line=exc.line, where="BOARD") from None
    reader = TokenReader(moves, BadInput)
    columns: list[tuple[int, int]] = []
    while not reader.at_end():
        line = reader.line
        try:
            columns.append((reader.int(f"the column of move {len(columns) + 1}"), line))
        except BadInput as exc:
            raise BadInput(exc.message, line=exc.line, where="MOVES") from None
    result = ""
    for number, (col, _) in enumerate(columns, start=1):
        if result:
            yield f"ignored: move {number}: the game is over"
            continue
        seat = (len(state.moves) - state.opening) % 2
        try:
            check_drop(state, col - 1)
        except IllegalMove as exc:
            yield f"illegal: {exc}"
            result = f"result: {'second' if seat == 0 else 'first'} wins"
            continue
        yield "ok"
        state = drop(state, col - 1)
        end = outcome(state)
        if end is not None:
            result = result_line(end)
    yield result or "result: unfinished"


def result_line(end: Outcome | None) -> str:
    if end is None:
        return "result: unfinished"
    if end.winner is None:
        return "result: draw"
    return f"result: {'first' if end.winner == 0 else 'second'} wins"


# ---------------------------------------------------------------- referee
class Connect4Referee(base.Referee):
    name = NAME
    players = 2
    protocol = "per-move"
    judge_inputs = ("BOARD", "MOVES")
    judge_help = ("BOARD MOVES: play MOVES (columns from 1) on BOARD after its opening; print 'ok' or "
                  "'illegal: ...' per move, then 'result: first wins|second wins|draw|unfinished'.")

    def load(self, text: str, extras: Mapping[str, str] | None = None) -> State:
        return parse_board(text)

    def to_move(self, state: State) -> int:
        return (len(state.moves) - state.opening) % 2

    def render(self, state: State, seat: int) -> dict[str, str]:
        return {"game.in": game_in(state)}

    def parse(self, state: State, text: str) -> int:
        return parse_move(text)

    def check(self, state: State, move: int) -> None:
        check_drop(state, move)

    def apply(self, state: State, move: int) -> State:
        return drop(state, move)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state)

    def move_text(self, move: int) -> str:
        return move_text(move)

    def random_move(self, state: State, rng: random.Random) -> int:
        return rng.choice(legal_columns(state))

    def judge(self, texts: list[str], extras: Mapping[str, str]) -> Iterator[str]:
        yield from judge_lines(texts[0], texts[1])

    def judge_case(self, board: str, extras: Mapping[str, str], moves: list[str],
                   outcome: Outcome) -> tuple[list[str], str]:
        return [board, "".join(moves)], result_line(outcome)

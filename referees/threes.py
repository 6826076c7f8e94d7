"""Threes with magnets (docs/rules.md, threes; source 000, "名为 Threes的游戏").

An N×M grid of empty cells, obstacles ``@``, magnets ``^ v < >`` and movable
symbols ``A``, ``B`` and numbers.  A move (``W`` up, ``A`` left, ``S`` down,
``D`` right) slides every movable symbol, nearest to the edge first, merging
``A``+``B`` into ``0`` and ``n``+``n`` into ``n+1`` and sliding on after a
merge.  A magnet pins, for moves in the direction it points, the contiguous
run of symbols next to it on that side; otherwise it is an obstacle.  After
the move one symbol is inserted on the far edge, at the first empty cell from
a quadratic pointer (with wrap-around); a full edge ends the game.  The value
of a position is the sum of 3^(n+1) over the numbers n, minus one per ``A``.

One-shot and single-player: ``game.out`` is one line of ``WASD``, played
until it ends or the game ends; in arena play a line of more than
``MAX_PLAN`` (100,000) moves is bad output and a board has at most
``MAX_CELLS`` (36) cells, so that judging a plan stays under a second; in
judge mode any length and size go.  A ``ThreesState`` keeps its cells
row-major in a flat tuple (index ``r * m + c``), as small integers (see
``EMPTY`` ... ``LETTER_B``); a ``Game``, the simulation, keeps them as one
string and slides lines through tables (see "simulation" below).  The rules
as written, one cell at a time, are ``slide_step_by_step``: the reference.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from referees.base import BadInput, BadOutput, IllegalMove, Outcome, Referee, TokenReader, number_text

# Cell codes: numbers are themselves (0, 1, 2, ...); everything else is negative.
EMPTY, OBSTACLE = -1, -2
LETTER_A, LETTER_B = -10, -11
#: magnet symbol -> the move (direction) in which it pins its run
MAGNETS = {"^": "W", "v": "S", "<": "A", ">": "D"}
MAGNET_CODES = {"^": -3, "v": -4, "<": -5, ">": -6}
#: move -> the code of the magnets that pin in that move
_MAGNET_OF_MOVE = {move: MAGNET_CODES[symbol] for symbol, move in MAGNETS.items()}
_CODE = {".": EMPTY, "@": OBSTACLE, "A": LETTER_A, "B": LETTER_B, **MAGNET_CODES}
_SYMBOL = {code: symbol for symbol, code in _CODE.items()}
#: move -> (row step, column step)
STEPS = {"W": (-1, 0), "A": (0, -1), "S": (1, 0), "D": (0, 1)}
MOVES = "WASD"
SEQUENCE_SYMBOLS = frozenset("AB0123456789")
#: The longest plan a bot may write in arena play (judge mode has no cap), so
#: that judging one plan stays cheap.
MAX_PLAN = 100_000
#: The most cells (N x M) a board may have in arena play (judge mode has no
#: cap): a move costs about its cells, and beyond this a plan of ``MAX_PLAN``
#: moves can cost more than the second judging one may take
#: (``benchmarks/bench_threes.py``).
MAX_CELLS = 36


def code_of(ch: str) -> int:
    """The cell code of a board or sequence character."""
    return int(ch) if ch.isdigit() else _CODE[ch]


def movable(code: int) -> bool:
    """Letters and numbers move; empty cells, obstacles and magnets do not."""
    return code >= 0 or code <= LETTER_A


def merged(a: int, b: int) -> int | None:
    """The symbol two symbols merge into (A+B -> 0, n+n -> n+1), or None."""
    if a == b and a >= 0:
        return a + 1
    if {a, b} == {LETTER_A, LETTER_B}:
        return 0
    return None


def value(code: int) -> int:
    """A cell's value: 3^(n+1) for a number n, -1 for A, 0 otherwise."""
    if code >= 0:
        return 3 ** (code + 1)
    return -1 if code == LETTER_A else 0


# ---------------------------------------------------------------- values
@dataclass(frozen=True)
class Rules:
    """The fixed part of a board: size, insertion sequences and pointer
    coefficients (``ax, bx, cx`` for the row pointer X of horizontal moves,
    ``ay, by, cy`` for the column pointer Y of vertical moves)."""

    n: int
    m: int
    s1: str
    s2: str
    ax: int
    bx: int
    cx: int
    ay: int
    by: int
    cy: int


@dataclass(frozen=True)
class ThreesState:
    """A position: cells, the two pointers, how many horizontal and vertical
    moves were made, and how the game stands (``over``: an edge was full;
    ``played``: the plan has been applied, so the game is finished)."""

    rules: Rules
    cells: tuple[int, ...]
    x: int
    y: int
    horizontal: int = 0
    vertical: int = 0
    moves: int = 0
    over: bool = False
    played: bool = False


@dataclass(frozen=True)
class ThreesPlan:
    """A bot's ``game.out``: the moves, a string over ``WASD``."""

    moves: str

    def to_text(self) -> str:
        return self.moves + "\n"


# ---------------------------------------------------------------- board text
def parse_board(text: str) -> ThreesState:
    """Parse a board file / ``game.in`` (the source's ``threes.in``)."""
    reader = TokenReader(text, BadInput)
    n = reader.int("the number of rows N", 1)
    m = reader.int("the number of columns M", 1)
    cells: list[int] = []
    for r in range(n):
        cells.extend(_row(reader, r, m))
    count = reader.int("the number of sequences R (1 or 2)", 1, 2)
    s1 = _sequence(reader, "the insertion sequence S1" if count == 2 else "the insertion sequence S1 = S2")
    s2 = _sequence(reader, "the insertion sequence S2") if count == 2 else s1
    x0, ax, bx, cx = (reader.int(what) for what in ("X0", "Ax", "Bx", "Cx"))
    y0, ay, by, cy = (reader.int(what) for what in ("Y0", "Ay", "By", "Cy"))
    reader.end("the end of the board after the Y coefficients")
    rules = Rules(n, m, s1, s2, ax, bx, cx, ay, by, cy)
    return ThreesState(rules, tuple(cells), x0, y0)


def _row(reader: TokenReader, r: int, m: int) -> list[int]:
    line = reader.line
    row = reader.word(f"row {r} of the grid")
    if len(row) != m:
        raise reader.fail(f"row {r} must have {m} symbols without spaces, found {row!r}", line)
    bad = [ch for ch in row if ch not in _CODE and not ch.isdigit()]
    if bad:
        raise reader.fail(f"unknown symbol {bad[0]!r} in row {r} {row!r}; expected one of . @ ^ v < > A B 0-9",
                          line)
    return [code_of(ch) for ch in row]


def _sequence(reader: TokenReader, what: str) -> str:
    line = reader.line
    seq = reader.word(what)
    if not set(seq) <= SEQUENCE_SYMBOLS:
        raise reader.fail(f"{what} must consist of A, B and digits, found {seq!r}", line)
    return seq


def board_text(state: ThreesState) -> str:
    """The position in board-file / ``game.in`` format (numbers above 9,
    which only merges make, have no symbol in this format)."""
    rules = state.rules
    if any(code > 9 for code in state.cells):
        raise ValueError("a number above 9 cannot be written in the threes.in format")
    rows = ["".join(symbol(code) for code in state.cells[r * rules.m:(r + 1) * rules.m]) for r in range(rules.n)]
    sequences = ["1", rules.s1] if rules.s1 == rules.s2 else ["2", rules.s1, rules.s2]
    return "\n".join([
        f"{rules.n} {rules.m}", *rows, *sequences,
        f"{state.x} {rules.ax} {rules.bx} {rules.cx}",
        f"{state.y} {rules.ay} {rules.by} {rules.cy}",
    ]) + "\n"


def symbol(code: int) -> str:
    """The character of a cell code (numbers above 9 as their decimal text)."""
    return str(code) if code >= 0 else _SYMBOL[code]


def grid_lines(state: ThreesState) -> list[str]:
    """The grid as rows of space-separated symbols, for messages and tests."""
    m = state.rules.m
    return [" ".join(symbol(c) for c in state.cells[r:r + m]) for r in range(0, len(state.cells), m)]


def parse_plan(text: str, most: int | None = None) -> ThreesPlan:
    """Parse ``game.out``: one line of ``W``, ``A``, ``S``, ``D`` (possibly
    empty: stopping at once is allowed), of at most ``most`` moves if given."""
    reader = TokenReader(text, BadOutput)
    if reader.at_end():
        return ThreesPlan("")
    line = reader.line
    moves = reader.word("a line of moves")
    if most is not None and len(moves) > most:
        raise BadOutput(f"the plan has {len(moves):,} moves; at most {most:,} are allowed in arena play",
                        line=line)
    bad = next((i for i, ch in enumerate(moves) if ch not in MOVES), None)
    if bad is not None:
        raise BadOutput(f"move {bad + 1} is {moves[bad]!r}; expected one of W (up), A (left), S (down), D (right)"
                        f" in upper case", line=line)
    reader.end("the end of the output after the line of moves")
    return ThreesPlan(moves)


# ---------------------------------------------------------------- geometry
@cache
def lines(n: int, m: int, move: str) -> tuple[tuple[int, ...], ...]:
    """The rows or columns a move slides, each ordered from the edge the
    symbols move towards (the order in which they are processed)."""
    if move in "WS":
        result = [tuple(r * m + c for r in range(n)) for c in range(m)]
    else:
        result = [tuple(r * m + c for c in range(m)) for r in range(n)]
    return tuple(line[::-1] if move in "SD" else line for line in result)


@cache
def insertion_edge(n: int, m: int, move: str) -> tuple[int, ...]:
    """The far edge after a move, indexed by the pointer (row number for
    horizontal moves, column number for vertical ones)."""
    return {
        "A": tuple(r * m + m - 1 for r in range(n)),
        "D": tuple(r * m for r in range(n)),
        "W": tuple((n - 1) * m + c for c in range(m)),
        "S": tuple(c for c in range(m)),
    }[move]


def pinned(cells: list[int] | tuple[int, ...], n: int, m: int, move: str) -> set[int]:
    """The cells that magnets pointing in ``move``'s direction hold in place:
    for each, the contiguous run of movable symbols next to it on its side."""
    code = _MAGNET_OF_MOVE[move]
    return _held(cells, m, move, [i for i, v in enumerate(cells) if v == code])


def _held(cells: list[int] | tuple[int, ...], m: int, move: str, magnets: Iterable[int]) -> set[int]:
    """``pinned`` for magnets at known places (all pointing in ``move``'s direction)."""
    n = len(cells) // m
    dr, dc = STEPS[move]
    held: set[int] = set()
    for i in magnets:
        r, c = divmod(i, m)
        r, c = r + dr, c + dc
        while 0 <= r < n and 0 <= c < m and movable(cells[r * m + c]):
            held.add(r * m + c)
            r, c = r + dr, c + dc
    return held


# ---------------------------------------------------------------- simulation
# In simulation a position is a string of one character per cell (the
# character of cell code c is chr(c + _BIAS)), so that reading every row or
# column of the grid is one C-level slice each, a line is a compact dict key,
# and copying a position is free.  The string is row-major (index r * m + c)
# or, after a vertical move, column-major (index c * n + r): each move reads
# its lines in whatever order the last move left them and writes them back
# joined, so no move ever transposes the grid.
_BIAS = 16
_E = chr(EMPTY + _BIAS)
_ZERO = chr(0 + _BIAS)
_AB = frozenset({chr(LETTER_A + _BIAS) + chr(LETTER_B + _BIAS),
                 chr(LETTER_B + _BIAS) + chr(LETTER_A + _BIAS)})
#: Entries a slide table keeps before it starts afresh (about 8 MB: bounds the
#: memory of a long-lived process; a 100,000-move workload needs up to 96,000).
_TABLE_CAP = 1 << 16


def _char(code: int) -> str:
    return chr(code + _BIAS)


class _Chars(dict):
    """Cell code -> character."""

    def __missing__(self, code: int) -> str:
        ch = self[code] = _char(code)
        return ch


_CHARS = _Chars()
_CODE_OF_BYTE = [byte - _BIAS for byte in range(128)]


_MAGNET_CHARS = frozenset(_char(code) for code in MAGNET_CODES.values())
# Two symbols side by side that merge: equal numbers (characters from _ZERO
# up; a class of all of them would take 2 ms to compile), or A and B.
_MERGE_NEXT = f"([^\x00-{_E}])\\1|{_char(LETTER_A)}{_char(LETTER_B)}|{_char(LETTER_B)}{_char(LETTER_A)}"
#: Found in a run of symbols (no empty cell, no wall) where two merge.
_MERGES = re.compile(_MERGE_NEXT)
#: Found in every run of cells without walls that a move towards its start
#: changes: an empty cell just before a symbol, or two symbols that merge.
_MOVES_SOME = re.compile(f"{_E}[^{_E}]|{_MERGE_NEXT}")
#: The same, for a move towards its end: a symbol just before an empty cell.
_MOVES_SOME_BACK = re.compile(f"[^{_E}]{_E}|{_MERGE_NEXT}")


def _reduce(symbols: str) -> str:
    """Symbols packed at the start of a segment, from the start on, each
    merging into the one before it as long as it can (the rules' merges:
    a mover steps into the last symbol that stopped, merges, goes on)."""
    if _MERGES.search(symbols) is None:
        return symbols
    out: list[str] = []
    for v in symbols:
        while out:
            under = out[-1]
            if under == v:
                if v < _ZERO:  # A + A, B + B
                    break
                v = chr(ord(v) + 1)
            elif under + v in _AB:
                v = _ZERO
            else:
                break
            out.pop()
        out.append(v)
    return "".join(out)


class _TowardStart(dict):
    """The table of ``W`` and ``A``: piece of a line (as characters, in grid
    order) -> the piece slid towards its start, computed when first met.

    A piece (see ``_pieces``) is a lone wall, or a run of cells without walls,
    perhaps followed by the magnet that pins that run's end in this move.
    Its symbols are packed towards the start, each merging into the one
    before it as long as it can (``_reduce``), but for a run a magnet holds:
    the symbols after the last empty cell stay.  Nothing can reach them (the
    magnet shields them), so the rest slides on its own."""

    def __missing__(self, piece: str) -> str:
        if len(self) >= _TABLE_CAP:
            self.clear()
        if piece[-1] in _MAGNET_CHARS:
            free = piece.rfind(_E) + 1
            slid = self[piece[:free]] + piece[free:] if free else piece
        elif _MOVES_SOME.search(piece) is None:
            slid = piece
        else:
            slid = _reduce(piece.replace(_E, "")).ljust(len(piece), _E)
        self[piece] = slid
        return slid


class _TowardEnd(dict):
    """The table of ``S`` and ``D``: the mirror image of ``_TowardStart`` (a
    magnet that pins comes first in its piece, the run it holds after it)."""

    def __missing__(self, piece: str) -> str:
        if len(self) >= _TABLE_CAP:
            self.clear()
        if piece[0] in _MAGNET_CHARS:
            free = piece.find(_E)
            slid = piece if free < 0 else piece[:free] + self[piece[free:]]
        elif _MOVES_SOME_BACK.search(piece) is None:
            slid = piece
        else:
            slid = _reduce(piece.replace(_E, "")[::-1])[::-1].rjust(len(piece), _E)
        self[piece] = slid
        return slid


class _Same(dict):
    """The table of pieces of one cell, which no move changes (the cell is a
    wall, or a wall or the edge is next to it on the edge's side)."""

    def __missing__(self, piece: str) -> str:
        self[piece] = piece
        return piece


_TOWARD_START, _TOWARD_END, _SAME = _TowardStart(), _TowardEnd(), _Same()
_SLIDES = {"W": _TOWARD_START, "A": _TOWARD_START, "S": _TOWARD_END, "D": _TOWARD_END}


def clear_tables() -> None:
    """Empty the slide tables, as a fresh process has them (for benchmarks)."""
    _TOWARD_START.clear()
    _TOWARD_END.clear()


@cache
def _pieces(n: int, m: int, walls: tuple[tuple[int, int], ...]) -> dict[tuple[bool, str], tuple]:
    """For each (transposed, move): a function giving the pieces of lines the
    move slides (in order, each in grid order), and the table that slides
    each.  Joined, the pieces are the lines one after another: row-major after
    a horizontal move, column-major after a vertical one.

    Obstacles and magnets (``walls``: row-major index, code) never move and
    no symbol passes them, so a line is cut at each: a wall is a piece of
    its own, except a magnet that pins in this move, which goes with the run
    it holds, on the edge's side.  Short keys, far fewer distinct ones."""
    code_at = dict(walls)
    pieces = {}
    for transposed in (False, True):
        for move in MOVES:
            # Each line as (row-major index, index in the string the move reads).
            if move in "WS":  # the columns, top to bottom
                lines = [[(r * m + c, c * n + r if transposed else r * m + c) for r in range(n)]
                         for c in range(m)]
            else:  # the rows, left to right
                lines = [[(r * m + c, c * n + r if transposed else r * m + c) for c in range(m)]
                         for r in range(n)]
            forward = move in "WA"
            cuts: list[list[int]] = []
            for line in lines:
                piece: list[int] = []
                for cell, index in line:
                    if cell not in code_at:
                        piece.append(index)
                        continue
                    pin = code_at[cell] == _MAGNET_OF_MOVE[move]
                    if pin and forward:  # the magnet ends the run it holds
                        cuts.append([*piece, index])
                        piece = []
                        continue
                    if piece:
                        cuts.append(piece)
                    if pin:  # the magnet starts the run it holds
                        piece = [index]
                    else:
                        cuts.append([index])
                        piece = []
                if piece:
                    cuts.append(piece)
            slices = [_as_slice(piece) for piece in cuts]
            getter = itemgetter(*slices) if len(slices) > 1 else (lambda text, cut=slices[0]: (text[cut],))
            tables = tuple(_SAME if len(piece) == 1 else _SLIDES[move] for piece in cuts)
            pieces[transposed, move] = (getter, tables)
    return pieces


def _as_slice(indices: list[int]) -> slice:
    """The slice picking ``indices`` (an arithmetic progression) from a string."""
    step = indices[1] - indices[0] if len(indices) > 1 else 1
    return slice(indices[0], indices[-1] + 1, step)


@cache
def _edges(rules: Rules) -> dict[str, tuple[slice, int, int, int, str]]:
    """For each move, the far edge where a symbol is inserted after it (a row
    for vertical moves, indexed by column; a column for horizontal ones,
    indexed by row): a slice of the string the move leaves (row-major after
    a horizontal move, column-major after a vertical one), its first index,
    step and length; and the sequence the symbol comes from, as characters."""
    n, m = rules.n, rules.m
    edges = {}
    for move in MOVES:
        size, stride = (m, n) if move in "WS" else (n, m)
        first = {"W": n - 1, "S": 0, "A": m - 1, "D": 0}[move]
        seq = "".join(_char(code_of(ch)) for ch in (rules.s1 if move in "WS" else rules.s2))
        edges[move] = (slice(first, first + (size - 1) * stride + 1, stride), first, stride, size, seq)
    return edges


class _Values(dict):
    """Character -> value of the cell (numbers can grow without bound)."""

    def __missing__(self, ch: str) -> int:
        worth = self[ch] = value(ord(ch) - _BIAS)
        return worth


_VALUES = _Values()


class Game:
    """A mutable position for fast simulation (the referee, the judge and
    the bots share it); ``ThreesState`` is its frozen twin.  The position is
    ``board``, a string (see ``_BIAS``), column-major when ``transposed``."""

    __slots__ = ("board", "edges", "horizontal", "moves", "over", "pieces", "rules", "transposed", "vertical",
                 "x", "y")

    def __init__(self, state: ThreesState):
        rules = self.rules = state.rules
        walls = tuple((i, code) for i, code in enumerate(state.cells) if code < EMPTY and not movable(code))
        self.pieces = _pieces(rules.n, rules.m, walls)
        self.edges = _edges(rules)
        self.board = "".join(map(_CHARS.__getitem__, state.cells))
        self.transposed = False
        self.x, self.y = state.x, state.y
        self.horizontal, self.vertical = state.horizontal, state.vertical
        self.moves, self.over = state.moves, state.over

    @property
    def cells(self) -> list[int]:
        """The cell codes, row-major (a new list: changing it changes the
        game only when assigned back)."""
        board = self.row_major()
        if board.isascii():
            return list(map(_CODE_OF_BYTE.__getitem__, board.encode("ascii")))
        return [ord(ch) - _BIAS for ch in board]

    @cells.setter
    def cells(self, cells: Iterable[int]) -> None:
        self.board = "".join(map(_CHARS.__getitem__, cells))
        self.transposed = False

    def row_major(self) -> str:
        """The position string, row-major."""
        if not self.transposed:
            return self.board
        n = self.rules.n
        return "".join([self.board[r::n] for r in range(n)])

    def copy(self) -> Game:
        twin = Game.__new__(Game)
        twin.rules, twin.pieces, twin.edges = self.rules, self.pieces, self.edges
        twin.board, twin.transposed = self.board, self.transposed
        twin.x, twin.y, twin.horizontal, twin.vertical = self.x, self.y, self.horizontal, self.vertical
        twin.moves, twin.over = self.moves, self.over
        return twin

    def freeze(self, played: bool = False) -> ThreesState:
        return ThreesState(self.rules, tuple(self.cells), self.x, self.y, self.horizontal, self.vertical,
                           self.moves, self.over, played)

    def value(self) -> int:
        return sum(map(_VALUES.__getitem__, self.board))

    def empty_cells(self) -> int:
        return self.board.count(_E)

    def key(self) -> tuple:
        """What decides the future of this position (for de-duplication)."""
        rules = self.rules
        return (self.row_major(), self.x % rules.n, self.y % rules.m,
                self.horizontal % len(rules.s2), self.vertical % len(rules.s1), self.over)

    def play(self, move: str) -> None:
        """One move: slide, then insert (or end the game: the edge is full)."""
        self.moves += 1
        self.slide(move)
        self.insert(move)

    def slide(self, move: str) -> None:
        """Slide every movable symbol in ``move``'s direction, merging: each
        piece of a row or column (``_pieces``) through its table."""
        getter, tables = self.pieces[self.transposed, move]
        self.board = "".join(map(dict.__getitem__, tables, getter(self.board)))
        self.transposed = move in "WS"

    def insert(self, move: str) -> None:
        """Insert the next symbol on the far edge, from the pointer on, with
        wrap-around; no empty cell there ends the game."""
        horizontal = move in "AD"
        if self.transposed == horizontal:  # not as a slide in this direction leaves it
            m = self.rules.m
            self.board, self.transposed = self.row_major(), False
            if not horizontal:
                self.board, self.transposed = "".join([self.board[c::m] for c in range(m)]), True
        edge, first, stride, size, seq = self.edges[move]
        if horizontal:
            self.horizontal += 1
            start, count = self.x, self.horizontal
        else:
            self.vertical += 1
            start, count = self.y, self.vertical
        board = self.board
        cells = board[edge]
        k = cells.find(_E, start % size)
        if k < 0:
            k = cells.find(_E)
            if k < 0:
                self.over = True
                return
        spot = first + k * stride
        self.board = board[:spot] + seq[(count - 1) % len(seq)] + board[spot + 1:]
        rules = self.rules
        if horizontal:
            self.x = (rules.ax * start * start + rules.bx * start + rules.cx) % rules.n
        else:
            self.y = (rules.ay * start * start + rules.by * start + rules.cy) % rules.m


def slide_step_by_step(cells: list[int], n: int, m: int, move: str) -> None:
    """The rules of a slide as written, on row-major cell codes: the magnets'
    runs are pinned, then every line slid one cell at a time
    (``_slide_line_held``).  The reference the fast slide is tested and
    benchmarked against."""
    held = pinned(cells, n, m, move)
    for line in lines(n, m, move):
        _slide_line_held(cells, line, held)


def _slide_line_held(cells: list[int], line: tuple[int, ...], held: set[int]) -> None:
    """Slide one line in which magnets pin some symbols, step by step."""
    for k in range(1, len(line)):
        v = cells[line[k]]
        if not movable(v) or line[k] in held:
            continue
        pos = k
        while pos > 0:
            target = cells[line[pos - 1]]
            if target != EMPTY:
                joined = merged(v, target) if movable(target) else None
                if joined is None:
                    break
                v = joined
            cells[line[pos]] = EMPTY
            pos -= 1
            cells[line[pos]] = v


def play_plan(state: ThreesState, moves: str) -> ThreesState:
    """The finished position after a plan: its moves in order, stopping
    early when the game ends (later moves are ignored)."""
    game = Game(state)
    for move in moves:
        if game.over:
            break
        game.play(move)
    return game.freeze(played=True)


def score(state: ThreesState) -> int:
    """The value of a position: the sum of its cells' values."""
    return sum(value(code) for code in state.cells)


def outcome(state: ThreesState) -> Outcome | None:
    """None before the plan; afterwards the score and why the game ended."""
    if not state.played:
        return None
    if state.over:
        return Outcome.scored(score(state), f"game over at move {state.moves}: no empty cell on the insertion edge")
    return Outcome.scored(score(state), f"the plan ended after {state.moves} move{'s' * (state.moves != 1)}")


# ---------------------------------------------------------------- referee
class ThreesReferee(Referee):
    name = "threes"
    players = 1
    protocol = "one-shot"
    cpu_limit = 10.0
    judge_inputs = ("BOARD", "OUTPUT")
    judge_help = "BOARD OUTPUT: play the line of WASD moves in OUTPUT on BOARD (threes.in format); print the score."

    def load(self, text: str, extras: Mapping[str, str] | None = None) -> ThreesState:
        state = parse_board(text)
        if state.rules.n * state.rules.m > MAX_CELLS:
            n, m = state.rules.n, state.rules.m
            raise BadInput(f"the grid is {n}x{m}, {n * m} cells; arena play allows at most {MAX_CELLS} "
                           f"(judge mode has no cap)", line=1)
        return state

    def to_move(self, state: ThreesState) -> int:
        return 0

    def render(self, state: ThreesState, seat: int) -> dict[str, str]:
        return {"game.in": board_text(state)}

    def parse(self, state: ThreesState, text: str) -> ThreesPlan:
        return parse_plan(text, most=MAX_PLAN)

    def check(self, state: ThreesState, move: ThreesPlan) -> None:
        if state.played:
            raise IllegalMove("game-over", "the plan has been played already; the game is over")

    def apply(self, state: ThreesState, move: ThreesPlan) -> ThreesState:
        return play_plan(state, move.moves)

    def outcome(self, state: ThreesState) -> Outcome | None:
        return outcome(state)

    def move_text(self, move: ThreesPlan) -> str:
        return move.to_text()

    def random_move(self, state: ThreesState, rng: random.Random) -> ThreesPlan:
        return ThreesPlan("".join(rng.choice(MOVES) for _ in range(rng.randint(0, 60))))

    def judge_case(self, board: str, extras: Mapping[str, str], moves: list[str],
                   outcome: Outcome) -> tuple[list[str], str]:
        return [board, moves[0]], number_text(outcome.score)

    def judge(self, texts: list[str], extras: Mapping[str, str]) -> Iterator[str]:
        board, output = texts
        state = parse_board(board)
        try:
            plan = parse_plan(output)
        except BadOutput as exc:
            raise BadInput(exc.message, line=exc.line, where="OUTPUT") from None
        yield str(score(play_plan(state, plan.moves)))

"""The painting game (docs/rules.md, paint; source 004, Round III "Игра").

An N×N board of empty cells, painted cells and numbers.  A move paints a
connected set of cells holding exactly one number v, of size v, touching no
painted cell (sharing a side).  No number left: draw.  No legal move for the
player to move: that player loses.

Cells are kept row-major in a tuple: index ``x * n + y`` for row x, column y.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache, cached_property
from itertools import compress

from referees.base import BadInput, BadOutput, IllegalMove, Outcome, Referee, TokenReader

EMPTY = 0
PAINTED = -1


@dataclass(frozen=True)
class PaintState:
    """A position: board size, cells (EMPTY, PAINTED or a positive number),
    and the seat to move (0: the first player)."""

    n: int
    cells: tuple[int, ...]
    seat: int = 0

    def xy(self, index: int) -> tuple[int, int]:
        return divmod(index, self.n)

    # What every turn of a game asks of its position, worked out once per position, and carried
    # from one position to the next by ``apply_move`` (a move changes a few cells: the rest is
    # copied), so that a turn on a large board costs little more than on a small one.  Neither
    # is a field: equality, hashing, ``repr`` and ``replace`` see only the three above.

    @cached_property
    def free(self) -> tuple[bool, ...]:
        """Whether each cell may still be painted (``free_cells``)."""
        cells, nbrs = self.cells, neighbours(self.n)
        free = [v != PAINTED for v in cells]
        for i, v in enumerate(cells):
            if v == PAINTED:
                for j in nbrs[i]:
                    free[j] = False
        return tuple(free)

    @cached_property
    def rows(self) -> tuple[str, ...]:
        """The board's rows as ``board_text`` writes them."""
        return tuple(_row(self.cells, self.n, x) for x in range(self.n))


@dataclass(frozen=True)
class PaintMove:
    """The cells a move paints, as (x, y) pairs in the order the bot gave."""

    cells: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, state: PaintState, indices: frozenset[int] | list[int]) -> PaintMove:
        return cls(tuple(state.xy(i) for i in sorted(indices)))

    def to_text(self) -> str:
        return f"{len(self.cells)}\n" + "".join(f"{x} {y}\n" for x, y in self.cells)


# ---------------------------------------------------------------- board text
def parse_board(text: str) -> PaintState:
    """Parse a board file / ``game.in``: N alone on a line, then N rows of N
    tokens.  Blank lines are ignored; errors name the line of the file."""
    numbered = enumerate(text.replace("\r", " ").split("\n"), start=1)
    lines = [(number, line.split()) for number, line in numbered if line.strip()]
    if not lines:
        raise BadInput("expected the board size N, found an empty board", line=1)
    n = _size(*lines[0])
    rows = lines[1:n + 1]
    if len(rows) < n:
        after = rows[-1][0] if rows else lines[0][0]
        raise BadInput(f"expected {n} rows of {n} tokens after N, found {len(rows)}", line=after + 1)
    cells: list[int] = []
    for x, (number, row) in enumerate(rows):
        if len(row) != n:
            raise BadInput(f"row {x} must have {n} tokens ('#', 'B' or a positive integer), found {len(row)}",
                           line=number)
        cells.extend(_cell(token, number) for token in row)
    if len(lines) > n + 1:
        number, row = lines[n + 1]
        raise BadInput(f"expected the end of the board after {n} rows, found {' '.join(row)!r}", line=number)
    return PaintState(n, tuple(cells))


def _size(number: int, row: list[str]) -> int:
    if len(row) != 1 or not _positive(row[0]):
        raise BadInput("expected the board size N (a positive integer) alone on its line, "
                       f"found {' '.join(row)!r}", line=number)
    return int(row[0])


def _positive(token: str) -> bool:
    """A positive integer in plain ASCII digits (``int`` alone would take '٣' or '1_0')."""
    return token.isascii() and token.isdigit() and int(token) >= 1


def _cell(token: str, line: int) -> int:
    if token == "#":
        return EMPTY
    if token == "B":
        return PAINTED
    if _positive(token):
        return int(token)
    raise BadInput(f"expected '#', 'B' or a positive integer, found {token!r}", line=line)


def board_text(state: PaintState) -> str:
    """The board in board-file / ``game.in`` format."""
    return f"{state.n}\n" + "\n".join(state.rows) + "\n"


def _row(cells: tuple[int, ...], n: int, x: int) -> str:
    """Row x of the board, as in board text."""
    return " ".join(map(_TOKENS.__getitem__, cells[x * n:(x + 1) * n]))


class _Tokens(dict):
    """A cell's token in board text (``#``, ``B``, or its number), made once per value."""

    def __missing__(self, value: int) -> str:
        token = self[value] = str(value)
        return token


_TOKENS = _Tokens({EMPTY: "#", PAINTED: "B"})


# ---------------------------------------------------------------- geometry
@cache
def neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index of an n×n board, the indices sharing a side."""
    result = []
    for i in range(n * n):
        x, y = divmod(i, n)
        result.append(tuple(
            a * n + b for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if 0 <= a < n and 0 <= b < n
        ))
    return tuple(result)


def free_cells(state: PaintState) -> list[bool]:
    """Whether each cell may still be painted: not painted, no painted neighbour."""
    return list(state.free)


def _components(state: PaintState, free: list[bool]) -> tuple[list[int], list[int]]:
    """Components of free empty cells (numbers block): a label per cell (-1
    for cells outside) and the size of each component."""
    cells, nbrs = state.cells, neighbours(state.n)
    inside = [v == EMPTY and f for v, f in zip(cells, free)]
    label = [-1] * len(cells)
    sizes: list[int] = []
    for start in range(len(cells)):
        if not inside[start] or label[start] >= 0:
            continue
        comp = len(sizes)
        label[start] = comp
        stack, size = [start], 0
        while stack:
            i = stack.pop()
            size += 1
            for j in nbrs[i]:
                if inside[j] and label[j] < 0:
                    label[j] = comp
                    stack.append(j)
        sizes.append(size)
    return label, sizes


def playable_numbers(state: PaintState) -> list[int]:
    """Indices of the numbers that some legal move can paint, in linear time.

    A number v on a free cell can be painted exactly when the cells reachable
    from it through free empty cells number at least v (itself included).
    """
    free = free_cells(state)
    label, sizes = _components(state, free)
    nbrs, result = neighbours(state.n), []
    for i, v in enumerate(state.cells):
        if v > 0 and free[i]:
            reach = 1 + sum(sizes[c] for c in {label[j] for j in nbrs[i]} if c >= 0)
            if reach >= v:
                result.append(i)
    return result


def has_legal_move(state: PaintState) -> bool:
    """Whether some number can be painted: ``bool(playable_numbers(state))``, found sooner.

    The numbers on free cells are tried in order, and the first that can be painted ends the
    search: a 1 at once; a larger v once the free empty cells it reaches number v - 1, the walk
    stopping there.  A component walked to its end is remembered, so no cell is walked to its
    end twice: linear time at worst, as ``playable_numbers``, and most positions are answered
    after a few cells."""
    cells, nbrs, free = state.cells, neighbours(state.n), state.free
    known: dict[int, int] = {}  # a cell of a component walked to its end -> the component's number
    sizes: list[int] = []
    for i in compress(range(len(cells)), free):
        if cells[i] <= 0:
            continue
        need = cells[i] - 1
        near = [j for j in nbrs[i] if free[j] and cells[j] == EMPTY]
        need -= sum(sizes[c] for c in {known[j] for j in near if j in known})
        for j in near:
            if need <= 0:
                break
            if j not in known:
                need -= _walk(cells, free, nbrs, j, need, known, sizes)
        if need <= 0:
            return True
    return False


def _walk(cells: tuple[int, ...], free: tuple[bool, ...], nbrs: tuple[tuple[int, ...], ...], start: int, need: int,
          known: dict[int, int], sizes: list[int]) -> int:
    """The free empty cells connected to ``start``, counted until ``need`` of them are found (then
    ``need``), or to the end of their component (its size; its cells are then ``known``, and the
    size is added to ``sizes``)."""
    seen, stack = {start}, [start]
    while stack and len(seen) < need:
        for j in nbrs[stack.pop()]:
            if free[j] and cells[j] == EMPTY and j not in seen:
                seen.add(j)
                stack.append(j)
    if len(seen) >= need:
        return need
    known.update(dict.fromkeys(seen, len(sizes)))
    sizes.append(len(seen))
    return len(seen)


def numbers_left(state: PaintState) -> int:
    """How many numbers are not painted yet (every cell is EMPTY, PAINTED or a number)."""
    cells = state.cells
    return len(cells) - cells.count(EMPTY) - cells.count(PAINTED)


# ---------------------------------------------------------------- moves
def regions(state: PaintState, index: int, limit: int | None = None) -> Iterator[frozenset[int]]:
    """Every legal move painting the number at ``index``: connected sets of
    exactly v cells, the number plus free empty cells.  Each set is produced
    once (each frontier cell is either taken or banned for good); the count
    can grow exponentially with v, so ``limit`` caps it."""
    v = state.cells[index]
    free = free_cells(state)
    if v <= 0 or not free[index]:
        return
    cells, nbrs = state.cells, neighbours(state.n)

    def allowed(j: int) -> bool:
        return cells[j] == EMPTY and free[j]

    produced = 0

    def grow(chosen: list[int], frontier: list[int], seen: set[int]) -> Iterator[frozenset[int]]:
        nonlocal produced
        if len(chosen) == v:
            produced += 1
            yield frozenset(chosen)
            return
        frontier = list(frontier)
        while frontier:
            if limit is not None and produced >= limit:
                return
            w = frontier.pop()
            added = [j for j in nbrs[w] if j not in seen and allowed(j)]
            chosen.append(w)
            yield from grow(chosen, frontier + added, seen | set(added))
            chosen.pop()
            # w stays in `seen`: banned in the remaining branches.

    yield from grow([index], [j for j in nbrs[index] if allowed(j)],
                    {index} | {j for j in nbrs[index]})


def random_region(state: PaintState, index: int, rng: random.Random) -> frozenset[int]:
    """A random legal region for a playable number, grown one random frontier
    cell at a time (always succeeds: the reachable area is at least v)."""
    v, cells, nbrs = state.cells[index], state.cells, neighbours(state.n)
    free = free_cells(state)
    chosen, frontier = {index}, {j for j in nbrs[index] if cells[j] == EMPTY and free[j]}
    while len(chosen) < v:
        w = rng.choice(sorted(frontier))
        chosen.add(w)
        frontier.discard(w)
        frontier.update(j for j in nbrs[w] if j not in chosen and cells[j] == EMPTY and free[j])
    return frozenset(chosen)


def parse_move(text: str) -> PaintMove:
    """Parse ``game.out``: the count k, then k pairs ``x y``."""
    reader = TokenReader(text, BadOutput)
    k = reader.int("the number of cells k", 0)
    cells = []
    for i in range(k):
        x = reader.int(f"the row x of cell {i + 1} of {k}")
        y = reader.int(f"the column y of cell {i + 1} of {k}")
        cells.append((x, y))
    reader.end(f"the end of the move after {k} cells")
    return PaintMove(tuple(cells))


def check_move(state: PaintState, move: PaintMove) -> None:
    """Raise ``IllegalMove`` naming the first rule of a paint move (docs/rules.md) that the move breaks."""
    n, cells = state.n, state.cells
    if not move.cells:
        raise IllegalMove("empty", "a move must paint at least one cell")
    for x, y in move.cells:
        if not (0 <= x < n and 0 <= y < n):
            raise IllegalMove("off-board", f"cell ({x}, {y}) is off the {n}x{n} board")
    indices = [x * n + y for x, y in move.cells]
    if len(set(indices)) != len(indices):
        seen: set[int] = set()
        for (x, y), i in zip(move.cells, indices):
            if i in seen:
                raise IllegalMove("duplicate", f"cell ({x}, {y}) is listed twice")
            seen.add(i)
    for (x, y), i in zip(move.cells, indices):
        if cells[i] == PAINTED:
            raise IllegalMove("painted", f"cell ({x}, {y}) is already painted")
    numbers = [(c, cells[i]) for c, i in zip(move.cells, indices) if cells[i] > 0]
    if not numbers:
        raise IllegalMove("no-number", "the cells hold no number")
    if len(numbers) > 1:
        shown = ", ".join(f"{v} at {c}" for c, v in numbers)
        raise IllegalMove("two-numbers", f"the cells hold {len(numbers)} numbers ({shown}); exactly one is allowed")
    (where, v), = numbers
    if len(indices) != v:
        raise IllegalMove("wrong-size", f"the move paints {len(indices)} cell{'s' if len(indices) != 1 else ''} but its number at {where} is {v}")
    if not _connected(move.cells):
        raise IllegalMove("not-connected", "the cells are not connected through shared sides")
    nbrs = neighbours(n)
    for (x, y), i in zip(move.cells, indices):
        touching = [j for j in nbrs[i] if cells[j] == PAINTED]
        if touching:
            raise IllegalMove("touches-painted",
                              f"cell ({x}, {y}) shares a side with the painted cell {state.xy(touching[0])}")


def _connected(cells: tuple[tuple[int, int], ...]) -> bool:
    if len(cells) == 1:  # (one cell is connected: no graph to build)
        return True
    import networkx as nx  # imported here: bots import this module and must start fast

    graph = nx.Graph()
    graph.add_nodes_from(cells)
    present = set(cells)
    graph.add_edges_from(((x, y), (x + dx, y + dy)) for x, y in cells for dx, dy in ((1, 0), (0, 1))
                         if (x + dx, y + dy) in present)
    return nx.is_connected(graph)


def apply_move(state: PaintState, move: PaintMove) -> PaintState:
    """The position after a (checked) move: its cells painted, the other seat to move."""
    n, cells = state.n, list(state.cells)
    indices = [x * n + y for x, y in move.cells]
    for i in indices:
        cells[i] = PAINTED
    after = replace(state, cells=tuple(cells), seat=1 - state.seat)
    if all(0 <= i < len(cells) for i in indices):  # (a checked move's are: its cells are on the board)
        _carry(state, after, indices)
    return after


def _carry(before: PaintState, after: PaintState, painted: list[int]) -> None:
    """Give ``after`` what ``before`` had worked out of its position, changed where ``painted`` (the
    cells the move painted) changes it: those cells and their neighbours are no longer free, and the
    rows holding them read anew."""
    known = before.__dict__  # (the cached_property values: set here, as cached_property sets them)
    if "free" in known:
        free, nbrs = list(known["free"]), neighbours(before.n)
        for i in painted:
            free[i] = False
            for j in nbrs[i]:
                free[j] = False
        after.__dict__["free"] = tuple(free)
    if "rows" in known:
        rows = list(known["rows"])
        for x in {i // before.n for i in painted}:
            rows[x] = _row(after.cells, after.n, x)
        after.__dict__["rows"] = tuple(rows)


def outcome(state: PaintState) -> Outcome | None:
    """Draw when no number is left; else the player to move loses without a legal move."""
    if numbers_left(state) == 0:
        return Outcome.draw("every number is painted")
    if not has_legal_move(state):
        return Outcome.win(1 - state.seat, f"{'first' if state.seat == 0 else 'second'} player has no legal move")
    return None


# ---------------------------------------------------------------- referee
class PaintReferee(Referee):
    name = "paint"
    players = 2
    protocol = "per-move"
    judge_inputs = ("BOARD", "MOVES")
    judge_help = ("BOARD MOVES: replay the moves (each in game.out format) on BOARD; print 'ok' or "
                  "'illegal: <reason>' per move, then 'result: first wins|second wins|draw|unfinished'.")

    def load(self, text: str, extras: Mapping[str, str] | None = None) -> PaintState:
        return parse_board(text)

    def to_move(self, state: PaintState) -> int:
        return state.seat

    def render(self, state: PaintState, seat: int) -> dict[str, str]:
        return {"game.in": board_text(state)}

    def parse(self, state: PaintState, text: str) -> PaintMove:
        return parse_move(text)

    def check(self, state: PaintState, move: PaintMove) -> None:
        check_move(state, move)

    def apply(self, state: PaintState, move: PaintMove) -> PaintState:
        return apply_move(state, move)

    def outcome(self, state: PaintState) -> Outcome | None:
        return outcome(state)

    def move_text(self, move: PaintMove) -> str:
        return move.to_text()

    def random_move(self, state: PaintState, rng: random.Random) -> PaintMove:
        index = rng.choice(playable_numbers(state))
        return PaintMove.of(state, random_region(state, index, rng))

    def judge_case(self, board: str, extras: Mapping[str, str], moves: list[str],
                   outcome: Outcome) -> tuple[list[str], str]:
        return _judge_case(board, moves, outcome)

    def judge(self, texts: list[str], extras: Mapping[str, str]) -> Iterator[str]:
        board_text_, moves_text = texts
        state = parse_board(board_text_)
        for move in _read_moves(moves_text):  # all read first: unreadable input prints no verdict
            if outcome(state) is not None:
                break  # like the source judges: moves after the end are ignored
            try:
                check_move(state, move)
            except IllegalMove as exc:
                yield f"illegal: {exc}"
                yield f"result: {'second' if state.seat == 0 else 'first'} wins"
                return
            yield "ok"
            state = apply_move(state, move)
        end = outcome(state)
        if end is None:
            yield "result: unfinished"
        elif end.winner is None:
            yield "result: draw"
        else:
            yield f"result: {'first' if end.winner == 0 else 'second'} wins"


def _judge_case(board: str, moves: list[str], end: Outcome) -> tuple[list[str], str]:
    result = "draw" if end.winner is None else ("first wins" if end.winner == 0 else "second wins")
    return [board, "".join(moves)], f"result: {result}"


def _read_moves(text: str) -> list[PaintMove]:
    """The moves of a judge file, one after another, each in game.out format."""
    reader = TokenReader(text, BadInput)
    moves: list[PaintMove] = []
    try:
        while not reader.at_end():
            number = len(moves) + 1
            k = reader.int(f"the cell count k of move {number}", 0)
            cells = tuple((reader.int(f"row x of move {number}"), reader.int(f"column y of move {number}"))
                          for _ in range(k))
            moves.append(PaintMove(cells))
    except BadInput as exc:
        raise exc.located("MOVES") from None
    return moves

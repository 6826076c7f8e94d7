"""The painting game in a replay: the grid, each player's regions in its
colour with the number they painted, the last move outlined, and numbers
that can no longer be painted greyed out."""

from __future__ import annotations

from typing import Any

from arena.views import SEAT_COLOURS, Cell, Frame, Grid, seat_name
from referees.paint import EMPTY, PAINTED, PaintMove, PaintState, apply_move, board_text, playable_numbers

PRE_PAINTED = "#8a8a8a"
EMPTY_FILL = "#f6f3ea"
#: How the terminal marks the cells each seat painted (the page colours them).
OWNER_MARKS = ("X", "O")


class View:
    """Remembers which seat painted each cell (the state only says "painted")."""

    style = "paint.css"  # the style of its cells' classes, beside this file
    legend = ("regions in the colour of the player who painted them, with their number; grey: painted on the "
              "board already; ringed: the last move; faded numbers can no longer be painted")

    def __init__(self, referee: Any, initial: PaintState, seats: list[str]):
        self.seats = seats
        self.numbers = initial.cells  # the numbers stay visible inside painted regions
        self.owner: dict[int, int] = {}

    def text(self, state: PaintState) -> str:
        return board_text(state)

    def start(self, state: PaintState) -> Frame:
        return self._frame(state, "the board", set(), "")

    def frames(self, state: PaintState, move: PaintMove, seat: int) -> list[tuple[Frame, Any]]:
        after = apply_move(state, move)
        cells = {x * state.n + y for x, y in move.cells}
        self.owner.update(dict.fromkeys(cells, seat))
        where = next((i for i in sorted(cells) if self.numbers[i] > 0), None)
        what = "a region" if where is None else f"the {self.numbers[where]} at {state.xy(where)}"
        label = f"{seat_name(self.seats, seat)} paints {what}"
        return [(self._frame(after, label, cells, ""), after)]

    def fault(self, state: PaintState, move: PaintMove | None, seat: int) -> Frame:
        tried = {x * state.n + y for x, y in move.cells if 0 <= x < state.n and 0 <= y < state.n} if move else set()
        count = len(move.cells) if move else 0
        what = f"tried {count} cell{'s' * (count != 1)} ({_where(move)}), marked in red" if move else "no readable move"
        return self._frame(state, f"{seat_name(self.seats, seat)}: {what}", set(), "", tried)

    def _frame(self, state: PaintState, label: str, new: set[int], note: str, bad: set[int] = frozenset()) -> Frame:
        playable = set(playable_numbers(state))
        cells = tuple(self._cell(state, i, i in new, i in bad, i in playable) for i in range(len(state.cells)))
        grid = Grid(f"{state.n}×{state.n}", state.n, state.n, cells)
        left = sum(1 for v in state.cells if v > 0)
        notes = (f"{left} number{'s' * (left != 1)} left, {len(playable)} still paintable",)
        key = ", ".join(f"{mark}: {seat_name(self.seats, seat)}'s regions" for seat, mark in enumerate(OWNER_MARKS)
                        if seat < len(self.seats))
        key += ", B: painted on the board, .: empty, [ ]: the last move, ! !: the cells of a refused move"
        return Frame(label, (grid,), self.text(state), notes, drawn=True, key=key)

    def _cell(self, state: PaintState, i: int, new: bool, bad: bool, playable: bool) -> Cell:
        value, number = state.cells[i], self.numbers[i]
        classes = " ".join(name for name, on in (("new", new), ("bad", bad)) if on)
        if value == PAINTED:
            seat = self.owner.get(i)
            fill = PRE_PAINTED if seat is None else SEAT_COLOURS[seat]
            return Cell(str(number) if number > 0 else "", fill, f"{classes} painted".strip(), "B",
                        "B" if seat is None else OWNER_MARKS[seat])
        if value == EMPTY:
            return Cell("", EMPTY_FILL, classes, "#", ".")
        return Cell(str(value), EMPTY_FILL, f"{classes} number{'' if playable else ' dead'}".strip())


def _where(move: PaintMove) -> str:
    if not move.cells:
        return "no cells"
    first = move.cells[0]
    more = len(move.cells) - 1
    return f"from ({first[0]}, {first[1]})" + (f" and {more} more cell{'s' * (more != 1)}" if more else "")

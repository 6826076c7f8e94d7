"""Connect Four in a replay (``arena replay``, the report's pages): the upright grid, rows from 1
at the top and columns from 1 at the left (the numbers ``game.out`` uses), each seat's discs in
its colour, the last disc ringed and the winning line marked."""

from __future__ import annotations

from typing import Any

from arena.views import SEAT_COLOURS, Cell, Frame, Grid, seat_name

from connect4.rules import EMPTY, SYMBOLS, State, drop, grid_rows, outcome, seat_of

BOARD_FILL = "#dfe6ef"


class View:
    style = "view.css"  # the style of its cells' classes, beside this file
    legend = ("the upright grid: columns numbered from 1 as game.out names them, rows from 1 at the top; "
              "each player's discs in its colour in the header (X drops the board's first disc; an opening's "
              "discs count for the player of their letter); ringed: the last disc; gold: the winning line")

    def __init__(self, referee: Any, initial: State, seats: list[str]):
        self.seats = seats

    def start(self, state: State) -> Frame:
        opening = f", after an opening of {state.opening} moves" if state.opening else ""
        return self._frame(state, f"the board: {state.rows} rows × {state.cols} columns, "
                                  f"connect {state.k}{opening}", None)

    def frames(self, state: State, move: int, seat: int) -> list[tuple[Frame, State]]:
        after = drop(state, move)
        row = after.height(move) - 1
        label = (f"{seat_name(self.seats, seat)} ({SYMBOLS[state.disc_to_move]}) drops into column {move + 1}; "
                 f"it lands in row {state.rows - row}")
        end = outcome(after)
        if end is not None:
            label += f": {end.reason}"
        return [(self._frame(after, label, (row, move)), after)]

    def fault(self, state: State, move: int | None, seat: int) -> Frame:
        what = f"tried column {move + 1}" if move is not None else "no readable move"
        return self._frame(state, f"{seat_name(self.seats, seat)} ({SYMBOLS[state.disc_to_move]}): {what}", None)

    def text(self, state: State) -> str:
        """The grid, top row first (``.`` empty, ``X``, ``O``; the winning line in lower case), the
        column numbers beneath."""
        line = set(state.line.cells) if state.line else set()
        rows = []
        for r in range(state.rows - 1, -1, -1):
            cells = []
            for c in range(state.cols):
                symbol = SYMBOLS[state.disc(r, c)]
                cells.append(symbol.lower() if (r, c) in line else symbol)
            rows.append(" ".join(cells))
        return "\n".join([*rows, " ".join(str((c + 1) % 10) for c in range(state.cols))]) + "\n"

    def _frame(self, state: State, label: str, last: tuple[int, int] | None) -> Frame:
        line = set(state.line.cells) if state.line else set()
        keys = grid_rows(state)
        cells = []
        for r in range(state.rows - 1, -1, -1):
            for c in range(state.cols):
                disc = state.disc(r, c)
                if disc == EMPTY:
                    cells.append(Cell("", BOARD_FILL, "", "."))
                    continue
                classes = " ".join(name for name, on in (("ball", True), ("new", (r, c) == last),
                                                         ("win", (r, c) in line)) if on)
                cells.append(Cell("", SEAT_COLOURS[seat_of(state, disc)], classes, SYMBOLS[disc]))
        assert len(cells) == sum(map(len, keys))
        notes: tuple[str, ...] = ()
        end = outcome(state)
        if end is not None:
            notes = (end.reason,)
        title = f"{state.rows} × {state.cols}, connect {state.k}"
        return Frame(label, (Grid(title, state.rows, state.cols, tuple(cells), origin=1),), self.text(state), notes)

"""3D tic-tac-toe in a replay: the n layers side by side, bottom first, balls
in their colours, the last ball ringed and the winning line marked."""

from __future__ import annotations

from typing import Any

from arena.views import Cell, Frame, Grid, seat_name
from referees.tictactoe3d import BLACK, COLOUR_NAMES, WHITE, Drop, TicTacToe3DState, drop

BOARD_FILL = "#e9d8b4"
BALL_FILLS = {BLACK: "#1d1d1f", WHITE: "#fbfbf8"}
SYMBOLS = {0: ".", BLACK: "X", WHITE: "O"}


class View:
    style = "tictactoe3d.css"  # the style of its cells' classes, beside this file
    legend = ("layers from the bottom (z = 1) up; rows x, columns y; each player's balls in its colour in the "
              "header (Black moves first; an opening's balls count for the player of their colour); ringed: the "
              "last ball; gold: the winning line; moves are numbered as the rules count them, the opening's first")

    def __init__(self, referee: Any, initial: TicTacToe3DState, seats: list[str]):
        self.seats = seats
        self.opening = initial.opening
        self.moves_before = initial.opening  # the game's move numbers count the opening's moves
        first = initial.colour_to_move  # the first seat plays the colour to move after the opening
        self.seat_colours = tuple(BALL_FILLS[c] for c in ((first, _other(first)) if len(seats) == 2 else (first,)))

    def text(self, state: TicTacToe3DState) -> str:
        """The layers side by side, z = 1 (bottom) first: X Black, O White, . empty."""
        n = state.n
        head = "   ".join(f"z={z}".ljust(2 * n - 1) for z in range(1, n + 1))
        rows = ["   ".join(" ".join(SYMBOLS[state.ball(x, y, z)] for y in range(1, n + 1)) for z in range(1, n + 1))
                for x in range(1, n + 1)]
        return "\n".join([head, *rows]) + "\n"

    def start(self, state: TicTacToe3DState) -> Frame:
        opening = f", after an opening of {state.opening} moves" if state.opening else ""
        return self._frame(state, f"the board ({state.n}×{state.n}×{state.n}, lines of {state.m}){opening}", None)

    def frames(self, state: TicTacToe3DState, move: Drop, seat: int) -> list[tuple[Frame, Any]]:
        after = drop(state, move)
        colour = COLOUR_NAMES[state.colour_to_move]
        label = (f"{seat_name(self.seats, seat)} ({colour}) drops into column ({move.x}, {move.y}); "
                 f"it lands at height {after.height(move.x, move.y)}")
        return [(self._frame(after, label, (move.x, move.y, after.height(move.x, move.y))), after)]

    def fault(self, state: TicTacToe3DState, move: Drop | None, seat: int) -> Frame:
        what = f"tried column ({move.x}, {move.y})" if move else "no readable move"
        colour = COLOUR_NAMES[state.colour_to_move]
        return self._frame(state, f"{seat_name(self.seats, seat)} ({colour}): {what}", None)

    def _frame(self, state: TicTacToe3DState, label: str, last: tuple[int, int, int] | None) -> Frame:
        line = _line_cells(state)
        grids = tuple(self._layer(state, z, last, line) for z in range(1, state.n + 1))
        notes: tuple[str, ...] = ()
        if state.line is not None:
            notes += ((f"{COLOUR_NAMES[state.line.colour]} line of {state.line.length} "
                      f"from {state.line.start} to {state.line.end}"),)
        return Frame(label, grids, self.text(state), notes)

    def _layer(self, state: TicTacToe3DState, z: int, last: tuple[int, int, int] | None,
               line: set[tuple[int, int, int]]) -> Grid:
        cells = []
        for x in range(1, state.n + 1):
            for y in range(1, state.n + 1):
                ball = state.ball(x, y, z)
                classes = " ".join(name for name, on in (
                    ("ball", ball), ("new", (x, y, z) == last), ("win", (x, y, z) in line)) if on)
                cells.append(Cell("", BALL_FILLS.get(ball, BOARD_FILL), classes, SYMBOLS[ball]))
        title = f"z = {z}" + (" (bottom)" if z == 1 else " (top)" if z == state.n else "")
        return Grid(title, state.n, state.n, tuple(cells), origin=1)  # x row, y column, from 1


def _other(colour: int) -> int:
    return WHITE if colour == BLACK else BLACK


def _line_cells(state: TicTacToe3DState) -> set[tuple[int, int, int]]:
    """The cells of the winning line, from its two ends."""
    if state.line is None:
        return set()
    (x, y, z), end = state.line.start, state.line.end
    steps = state.line.length - 1
    dx, dy, dz = ((b - a) // steps for a, b in zip(state.line.start, end)) if steps else (0, 0, 0)
    return {(x + i * dx, y + i * dy, z + i * dz) for i in range(state.line.length)}

"""How __game__ looks in a replay (``arena replay``, the report's pages): one row of TARGET
cells, each filled in the colour of the player who added it."""

from __future__ import annotations

from typing import Any

from __game__.rules import State, apply_move
from arena.views import SEAT_COLOURS, Cell, Frame, Grid, seat_name


class View:
    style = "view.css"  # the style of the classes its cells use ("unit"), a file beside this one
    legend = "each cell of the row is one unit of the total, in the colour of the player who added it"

    def __init__(self, referee: Any, initial: State, seats: list[str]):
        self.seats = seats

    def start(self, state: State) -> Frame:
        return self._frame(state, f"the race to {state.target}, adding 1 to {state.most} a move")

    def frames(self, state: State, move: int, seat: int) -> list[tuple[Frame, State]]:
        after = apply_move(state, move)
        label = f"{seat_name(self.seats, seat)} adds {move}: {after.total} of {after.target}"
        return [(self._frame(after, label, new=move), after)]

    def fault(self, state: State, move: Any, seat: int) -> Frame:
        tried = f" (tried to add {move})" if move is not None else ""
        return self._frame(state, f"{seat_name(self.seats, seat)} faults{tried}")

    def text(self, state: State) -> str:
        return f"{state.total} of {state.target}\n"

    def _frame(self, state: State, label: str, new: int = 0) -> Frame:
        owners: list[int] = []
        for k, amount in enumerate(state.added):
            owners += [k % 2] * amount
        cells = tuple(Cell(str(i + 1), SEAT_COLOURS[owners[i]] if i < len(owners) else "",
                           ("unit new" if i >= len(owners) - new else "unit") if i < len(owners) else "",
                           key=str(owners[i]) if i < len(owners) else ".")
                      for i in range(state.target))
        return Frame(label, (Grid("the total", 1, state.target, cells, origin=1),), self.text(state))

"""Threes in a replay: the grid after each operation of the plan, with the
symbol just inserted ringed and the symbols a magnet held marked."""

from __future__ import annotations

from typing import Any

from arena.views import Cell, Frame, Grid
from referees.threes import (
    EMPTY,
    LETTER_A,
    LETTER_B,
    MAGNET_CODES,
    OBSTACLE,
    Game,
    ThreesPlan,
    ThreesState,
    grid_lines,
    pinned,
    score,
    symbol,
)

NAMES = {"W": "up", "A": "left", "S": "down", "D": "right"}
ARROWS = {MAGNET_CODES["^"]: "↑", MAGNET_CODES["v"]: "↓", MAGNET_CODES["<"]: "←", MAGNET_CODES[">"]: "→"}
#: Number n's colour, light to deep as n grows.
NUMBER_FILLS = ("#fff4c2", "#ffe08a", "#ffc857", "#ffa94d", "#ff8a5c", "#f2665e", "#d9486f", "#b03a83",
                "#7d3c98", "#4b3b8f")
FILLS = {EMPTY: "#f4f1ea", OBSTACLE: "#4a4a4a", LETTER_A: "#bfe3dc", LETTER_B: "#f6c6d8"}


class View:
    style = "threes.css"  # the style of its cells' classes, beside this file
    legend = "↑ ↓ ← →: magnets; dark: obstacles; ringed: the symbol just inserted; dotted: held by a magnet"

    def __init__(self, referee: Any, initial: ThreesState, seats: list[str]):
        self.seats = seats

    def text(self, state: ThreesState) -> str:
        return "\n".join(grid_lines(state)) + "\n"

    def start(self, state: ThreesState) -> Frame:
        return self._frame(state, "the board", set(), set())

    def frames(self, state: ThreesState, plan: ThreesPlan, seat: int) -> list[tuple[Frame, Any]]:
        game, shown = Game(state), []
        for k, move in enumerate(plan.moves, start=1):
            if game.over:
                break
            held = pinned(game.cells, game.rules.n, game.rules.m, move)
            slid = game.copy()
            slid.slide(move)
            game.play(move)
            inserted = {i for i, (a, b) in enumerate(zip(slid.cells, game.cells)) if a == EMPTY and b != EMPTY}
            after = game.freeze()
            label = f"move {k} of {len(plan.moves)}: {move} ({NAMES[move]})"
            if game.over:
                label += "; no empty cell on the insertion edge: the game is over"
            shown.append((self._frame(after, label, inserted, held), after))
        if not shown:
            shown.append((self._frame(state, "the plan has no moves", set(), set()), state))
        return shown

    def fault(self, state: ThreesState, plan: ThreesPlan | None, seat: int) -> Frame:
        return self._frame(state, "the plan was refused", set(), set())

    def _frame(self, state: ThreesState, label: str, inserted: set[int], held: set[int]) -> Frame:
        rules = state.rules
        cells = tuple(_cell(code, i in inserted, i in held) for i, code in enumerate(state.cells))
        notes = (f"value {score(state)}",)
        return Frame(label, (Grid(f"{rules.n}×{rules.m}", rules.n, rules.m, cells),), self.text(state), notes)


def _cell(code: int, inserted: bool, held: bool) -> Cell:
    classes = " ".join(name for name, on in (("new", inserted), ("held", held)) if on)
    key = symbol(code)
    if code in ARROWS:
        return Cell(ARROWS[code], "#d9ccf2", f"{classes} magnet".strip(), key)
    if code >= 0:
        return Cell(key, NUMBER_FILLS[min(code, len(NUMBER_FILLS) - 1)], f"{classes} tile".strip(), key)
    text = "" if code in (EMPTY, OBSTACLE) else key
    return Cell(text, FILLS.get(code, "#ffffff"), f"{classes} tile".strip() if text else classes, key)

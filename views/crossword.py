"""The crossword (PVE and PVP) in a replay: the 20×20 grid after each action,
the letters it filled in the player's colour, the cells of the words it
declared highlighted, and the words and points in the notes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from arena.views import SEAT_COLOURS, SEAT_TINTS, Cell, Frame, Grid, seat_name
from referees.crossword import (
    EMPTY,
    SIZE,
    Action,
    CrosswordState,
    Plan,
    apply_action,
    board_text,
    evaluate,
    fill,
)

EMPTY_FILL = "#eeeae0"
BOARD_FILL = "#ffffff"
WORD_FILL = "#fff0a0"


class View:
    """Remembers which seat filled each cell."""

    style = "crossword.css"  # the style of its cells' classes, beside this file
    controls = "crossword.play.js"  # cells, letters and the words claimed, typed on arena play's page
    legend = ("coloured: the letters each player filled, the last action's in full colour; yellow: the cells of "
              "the words it declared; red: letters of a refused action")

    def __init__(self, referee: Any, initial: CrosswordState, seats: list[str]):
        self.seats = seats
        self.owner: dict[int, int] = {}

    def text(self, state: CrosswordState) -> str:
        """The 20 rows of the referee's board text (the used words follow there)."""
        return "\n".join(board_text(state).split("\n")[:SIZE]) + "\n"

    def start(self, state: CrosswordState) -> Frame:
        used = f"{len(state.used)} used word{'s' * (len(state.used) != 1)}"
        return self._frame(state, f"the board ({used}, {len(state.dictionary.words)} words in the dictionary)",
                           set(), set(), ())

    def frames(self, state: CrosswordState, plan: Plan, seat: int) -> list[tuple[Frame, Any]]:
        who = seat_name(self.seats, seat)
        if not plan.actions:
            after = replace(state, ended=True)
            return [(self._frame(after, f"{who} passes: the game ends", set(), set(), ()), after)]
        shown = []
        for k, action in enumerate(plan.actions, start=1):
            shown.append(self._action(state, action, seat, f"action {state.actions + 1}: {who}"))
            state = shown[-1][1]
        return shown

    def _action(self, state: CrosswordState, action: Action, seat: int, label: str) -> tuple[Frame, Any]:
        filling, points = fill(state, action), evaluate(state, action).score
        after = apply_action(state, action)
        self.owner.update(dict.fromkeys(filling.filled, seat))
        words = set().union(*(filling.found.get(w, set()) for w in action.words))
        letters = "".join(letter for _, _, letter in action.fills)
        notes = (f"declared: {', '.join(action.words)}",
                 f"{'+' if points >= 0 else ''}{points} points; totals "
                 + " - ".join(str(s) for s in after.scores[:len(self.seats)]))
        text = f"{label} fills {letters!r}, {len(action.fills)} letter{'s' * (len(action.fills) != 1)}"
        return self._frame(after, text, set(filling.filled), words, notes), after

    def fault(self, state: CrosswordState, plan: Plan | None, seat: int) -> Frame:
        tried = {x * SIZE + y for a in (plan.actions if plan else ()) for x, y, _ in a.fills
                 if 0 <= x < SIZE and 0 <= y < SIZE}
        what = f"tried {len(plan.actions)} action(s), letters in red" if plan else "no readable output"
        return self._frame(state, f"{seat_name(self.seats, seat)}: {what}", set(), set(), (), tried)

    def _frame(self, state: CrosswordState, label: str, new: set[int], words: set[int],
               notes: tuple[str, ...], bad: set[int] = frozenset()) -> Frame:
        cells = tuple(self._cell(state.cells[i], i, i in new, i in words, i in bad) for i in range(SIZE * SIZE))
        return Frame(label, (Grid("20×20", SIZE, SIZE, cells),), self.text(state), notes)

    def _cell(self, letter: str, i: int, new: bool, word: bool, bad: bool) -> Cell:
        classes = " ".join(name for name, on in (("new", new), ("word", word), ("bad", bad)) if on)
        if letter == EMPTY:
            return Cell("", EMPTY_FILL, classes, EMPTY)
        seat = self.owner.get(i)
        if new:
            fill_colour = SEAT_COLOURS[seat]
        elif word:
            fill_colour = WORD_FILL
        else:
            fill_colour = BOARD_FILL if seat is None else SEAT_TINTS[seat]
        return Cell(letter, fill_colour, f"{classes} letter".strip())

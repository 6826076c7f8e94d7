"""Match-3 in a replay: for each swap of the plan, the board just after the
swap (the two pieces ringed, what the first round clears crossed out) and
the board once every round has fallen; invalid swaps are shown as skipped."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from arena.views import Cell, Frame, Grid
from referees.match3 import Game, Match3State, Plan, board_text

#: Colour c (1..k) of a piece; more colours than these repeat them.
PALETTE = ("#e6194b", "#3cb44b", "#ffd400", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
           "#9acd32", "#8b5a2b")
#: Special types 1..6: row, column, cross, 3×3, 5×5, same colour.
SPECIALS = {1: "↔", 2: "↕", 3: "✚", 4: "▢", 5: "▣", 6: "★"}
EMPTY_FILL = "#f4f1ea"


class View:
    legend = ("specials: ↔ clears its row, ↕ its column, ✚ both, ▢ a 3×3 square, ▣ a 5×5 square, ★ its colour; "
              "ringed: the swapped pieces; ✕: cleared by the first round")

    def __init__(self, referee: Any, initial: Match3State, seats: list[str]):
        self.seats = seats

    def text(self, state: Match3State) -> str:
        return board_text(state)

    def start(self, state: Match3State) -> Frame:
        return Frame(f"the board ({state.n}×{state.m}, {state.k} colours, {state.q} swaps)",
                     (self._grid(state.colours, state.kinds, state.m, "board"),), self.text(state))

    def frames(self, state: Match3State, plan: Plan, seat: int) -> list[tuple[Frame, Any]]:
        game, shown, total = Game.of(state), [], 0
        for k, swap in enumerate(plan.swaps, start=1):
            a, b = game.index(swap.x1, swap.y1), game.index(swap.x2, swap.y2)
            where = f"swap {k} of {len(plan.swaps)}: ({swap.x1}, {swap.y1}) ↔ ({swap.x2}, {swap.y2})"
            swapped, cleared = game.copy(), []
            turn = game.play(a, b, cleared) if a is not None and b is not None else None
            after = replace(state, colours=tuple(game.colours), kinds=tuple(game.kinds))
            marks = {i for i in (a, b) if i is not None}
            if turn is None:
                grid = self._grid(game.colours, game.kinds, game.m, "no run: the swap is skipped", bad=marks)
                shown.append((Frame(f"{where}: invalid, skipped", (grid,), self.text(after)), after))
                continue
            swapped.exchange(a, b)
            total += turn.points
            rounds = ", ".join(f"{len(c)}" for c in cleared)
            notes = ((f"{turn.rounds} round{'s' * (turn.rounds != 1)} clearing {rounds} pieces; "
                     f"+{turn.points} (removal {turn.removal}, chain {turn.chain}, combo {turn.combo}); "
                     f"{total} so far before hands and bonuses"),
                     f"main colour{'s' * (len(turn.main) != 1)}: {', '.join(map(str, turn.main))}")
            grids = (self._grid(swapped.colours, swapped.kinds, game.m, "after the swap: round 1 clears ✕",
                                new=marks, cleared=cleared[0]),
                     self._grid(game.colours, game.kinds, game.m, f"after {turn.rounds} round"
                                f"{'s' * (turn.rounds != 1)}"))
            shown.append((Frame(where, grids, self.text(after), notes), after))
        if not shown:
            shown.append((Frame("the plan has no swaps", (self._grid(state.colours, state.kinds, state.m,
                                                                     "board"),), self.text(state)), state))
        return shown

    def fault(self, state: Match3State, plan: Plan | None, seat: int) -> Frame:
        return Frame("the plan was refused", (self._grid(state.colours, state.kinds, state.m, "board"),),
                     self.text(state))

    def _grid(self, colours: Any, kinds: Any, m: int, title: str, *, new: set[int] = frozenset(),
              bad: set[int] = frozenset(), cleared: set[int] = frozenset()) -> Grid:
        cells = tuple(_cell(c, kinds[i], i in new, i in bad, i in cleared) for i, c in enumerate(colours))
        return Grid(title, len(colours) // m, m, cells, origin=1)  # the rules count from 1


def _cell(colour: int, kind: int, new: bool, bad: bool, cleared: bool) -> Cell:
    classes = " ".join(name for name, on in (("new", new), ("bad", bad), ("cleared", cleared)) if on)
    if not colour:
        return Cell("", EMPTY_FILL, classes, "0")
    text = SPECIALS.get(kind, "")
    return Cell(text, PALETTE[(colour - 1) % len(PALETTE)], f"{classes} piece".strip(), str(colour))

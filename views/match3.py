"""Match-3 in a replay: for each swap of the plan, the board just after the
swap (the two pieces ringed, what the first round clears crossed out) and
the board once every round has fallen; invalid swaps are shown as skipped."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import product
from typing import Any

from arena.views import Cell, Frame, Grid
from referees.match3 import (
    ALL_VALID_BONUS,
    CLEARED_BONUS,
    HAND_EVERY,
    Game,
    Match3State,
    Plan,
    board_text,
    hand_bonus,
    play_swaps,
)

#: Colour c (1..k) of a piece; more colours than these repeat them.
PALETTE = ("#e6194b", "#3cb44b", "#ffd400", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
           "#9acd32", "#8b5a2b")
#: Special types 1..6: row, column, cross, 3×3, 5×5, same colour.
SPECIALS = {1: "↔", 2: "↕", 3: "✚", 4: "▢", 5: "▣", 6: "★"}
EMPTY_FILL = "#f4f1ea"


COLOUR_NAMES = ("red", "green", "yellow", "blue", "orange", "purple", "cyan", "pink", "lime", "brown")


def colour_name(colour: int) -> str:
    """A colour's number as the rules count it and the name of its fill, as the legend lists them."""
    return f"{colour} ({COLOUR_NAMES[(colour - 1) % len(COLOUR_NAMES)]})"


class View:
    style = "match3.css"  # the style of its cells' classes, beside this file
    controls = "match3.play.js"  # a piece clicked, then one beside it, swapped on arena play's page
    legend = ("colours: " + ", ".join(f"{k} {name}" for k, name in enumerate(COLOUR_NAMES[:6], start=1))
              + " (the numbers the rules and the hands use); specials: ↔ clears its row, ↕ its column, ✚ both, "
              "▢ a 3×3 square, ▣ a 5×5 square, ★ its colour; ringed: the swapped pieces; ✕: cleared by that "
              "round; the last step adds up the score: swaps, hands and end bonuses")

    def __init__(self, referee: Any, initial: Match3State, seats: list[str]):
        self.seats = seats

    def text(self, state: Match3State) -> str:
        return board_text(state)

    def start(self, state: Match3State) -> Frame:
        return _frame(f"the board ({state.n}×{state.m}, {state.k} colours, {state.q} swaps)",
                     (self._grid(state.colours, state.kinds, state.m, "board"),), self.text(state))

    def frames(self, state: Match3State, plan: Plan, seat: int) -> list[tuple[Frame, Any]]:
        game, shown, score = Game.of(state), [], _Score()
        for k, swap in enumerate(plan.swaps, start=1):
            a, b = game.index(swap.x1, swap.y1), game.index(swap.x2, swap.y2)
            where = f"swap {k} of {len(plan.swaps)}: ({swap.x1}, {swap.y1}) ↔ ({swap.x2}, {swap.y2})"
            swapped, cleared = game.copy(), []
            turn = game.play(a, b, cleared) if a is not None and b is not None else None
            after = replace(state, colours=tuple(game.colours), kinds=tuple(game.kinds))
            marks = {i for i in (a, b) if i is not None}
            if turn is None:
                grid = self._grid(game.colours, game.kinds, game.m, "no run: the swap is skipped", bad=marks)
                shown.append((_frame(f"{where}: invalid, skipped", (grid,), self.text(after)), after))
                continue
            swapped.exchange(a, b)
            notes = ((f"+{turn.points} = removal {turn.removal} + chain {turn.chain} + combo {turn.combo} "
                     f"({turn.rounds} round{'s' * (turn.rounds != 1)} clearing "
                     f"{', '.join(str(len(c)) for c in cleared)} pieces)"),
                     (f"main colour{'s' * (len(turn.main) != 1)} (its hand's card): "
                     f"{' or '.join(map(colour_name, turn.main))}"),
                     *score.add(turn))
            grids = []
            for r, removed in enumerate(cleared, start=1):  # every round: the board it starts from, ✕ what it clears
                title = "after the swap: round 1 clears ✕" if r == 1 else f"after the fall: round {r} clears ✕"
                grids.append(self._grid(swapped.colours, swapped.kinds, game.m, title,
                                        new=marks if r == 1 else set(), cleared=removed))
                swapped.fall(removed)
            grids.append(self._grid(game.colours, game.kinds, game.m,
                                    f"after {turn.rounds} round{'s' * (turn.rounds != 1)}"))
            shown.append((_frame(where, tuple(grids), self.text(after), notes), after))
        if not shown:
            shown.append((_frame("the plan has no swaps", (self._grid(state.colours, state.kinds, state.m,
                                                                     "board"),), self.text(state)), state))
        final = self._final(state, plan, game, score)
        return [*shown, final]

    def _final(self, state: Match3State, plan: Plan, game: Game, score: _Score) -> tuple[Frame, Any]:
        """The last step: the final board and the score added up, as the referee scores it."""
        after = replace(state, colours=tuple(game.colours), kinds=tuple(game.kinds))
        scores = play_swaps(state, plan.swaps)[1]
        valid = f"{scores.valid} of {state.q} swaps valid"
        notes = ((f"swaps: removal {scores.removal} + chain {scores.chain} + combo {scores.combo} = "
                 f"{scores.removal + scores.chain + scores.combo}"),
                 (f"hands: {scores.hands} ({score.hands} hand{'s' * (score.hands != 1)} of {HAND_EVERY} valid swaps"
                 f"{'; the last ' + str(len(score.mains)) + ' valid swaps make no hand' if score.mains else ''})"),
                 (f"end bonuses: {scores.end} ({valid}: {ALL_VALID_BONUS if scores.valid == state.q else 0} "
                 f"of {ALL_VALID_BONUS} for all valid; board {'emptied' if scores.cleared else 'not emptied'}: "
                 f"{CLEARED_BONUS if scores.cleared else 0} of {CLEARED_BONUS})"),
                 (f"total: {scores.removal + scores.chain + scores.combo} + {scores.hands} + {scores.end} = "
                 f"{scores.total}"))
        grid = self._grid(game.colours, game.kinds, game.m, "the final board")
        return _frame(f"the score: {scores.total}", (grid,), self.text(after), notes, part=True), after

    def fault(self, state: Match3State, plan: Plan | None, seat: int) -> Frame:
        return _frame("the plan was refused", (self._grid(state.colours, state.kinds, state.m, "board"),),
                     self.text(state))

    def _grid(self, colours: Any, kinds: Any, m: int, title: str, *, new: set[int] = frozenset(),
              bad: set[int] = frozenset(), cleared: set[int] = frozenset()) -> Grid:
        cells = tuple(_cell(c, kinds[i], i in new, i in bad, i in cleared) for i, c in enumerate(colours))
        return Grid(title, len(colours) // m, m, cells, origin=1)  # the rules count from 1


#: What the terminal's marks mean (the page draws them).
TERM_KEY = ("each piece: its colour's number and its special's sign; .: empty; [ ]: the swapped pieces; "
            "( ): cleared by that round; ! !: an invalid swap's pieces")


def _frame(label: str, grids: tuple[Grid, ...], text: str, notes: tuple[str, ...] = (), part: bool = False) -> Frame:
    return Frame(label, grids, text, notes, part=part, drawn=True, key=TERM_KEY)


def _cell(colour: int, kind: int, new: bool, bad: bool, cleared: bool) -> Cell:
    classes = " ".join(name for name, on in (("new", new), ("bad", bad), ("cleared", cleared)) if on)
    if not colour:
        return Cell("", EMPTY_FILL, classes, "0", ".")
    text = SPECIALS.get(kind, "")
    return Cell(text, PALETTE[(colour - 1) % len(PALETTE)], f"{classes} piece".strip(), str(colour), f"{colour}{text}")


class _Score:
    """The score so far, swap by swap, with a hand scored after every five valid swaps (as ``play_swaps``)."""

    def __init__(self) -> None:
        self.swaps = self.hand_points = self.hands = 0
        self.mains: list[tuple[int, ...]] = []

    def add(self, turn: Any) -> tuple[str, ...]:
        self.swaps += turn.points
        self.mains.append(turn.main)
        notes = ()
        if len(self.mains) == HAND_EVERY:
            cards = max(product(*self.mains), key=hand_bonus)
            bonus = hand_bonus(cards)
            self.hands += 1
            self.hand_points += bonus
            notes = ((f"hand {self.hands} (these 5 valid swaps' main colours): {' '.join(map(str, cards))} "
                     f"= {hand_name(cards)}, +{bonus}"),)
            self.mains = []
        waiting = f", {len(self.mains)} of {HAND_EVERY} cards of the next hand" if self.mains else ""
        return (*notes, (f"so far: swaps {self.swaps} + hands {self.hand_points} = {self.swaps + self.hand_points}"
                        f"{waiting}; end bonuses come at the end"))


def hand_name(cards: tuple[int, ...]) -> str:
    shape = tuple(sorted(Counter(cards).values(), reverse=True))
    return {(5,): "five of a kind", (4, 1): "four of a kind", (3, 2): "full house", (3, 1, 1): "three of a kind",
            (2, 2, 1): "two pairs", (2, 1, 1, 1): "a pair"}.get(shape, "high card")

"""Benchmark of judging a Threes plan at the arena's caps (100,000 moves, 36 cells).

A plan's cost is in the moves actually played: once the game ends, later
moves are skipped.  So the worst case is a plan that keeps the game alive for
all 100,000 moves.  For each shipped board, and for generated boards of the
most cells arena play allows (``MAX_CELLS``), this script builds such a
workload: games played by a one-ply player (the move that leaves the most
empty cells, ties broken at random, seeded), restarted from the board each
time one ends, until 100,000 moves in all; then it times ``play_plan`` over
them (CPU seconds), which is what the referee does with a bot's plan, with
the slide tables emptied first, as in a fresh process.

The baseline, measured in the same run on the same moves, is the rules
played step by step (each symbol moved one cell at a time, as the rules are
written: ``slide_step_by_step``).  It works on a list of cell codes, so it
pays a round trip between the game's string and a list at every move; that
round trip is timed too and taken out of the ratio.  The script prints
both, their ratio, and exits 1 if the referee takes 1 s or more on any board
(the promise of the rules: judging one plan never costs more than a second).

``--no-tables`` keeps at most one entry in each slide table, so that nearly
every lookup misses: the cost if no piece of a line were ever met twice,
a bound no real plan comes near (it is not held to the limit).

    .venv/bin/python benchmarks/bench_threes.py [--moves 100000] [--no-tables]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from generator.threes import ThreesParams, make_board
from referees import threes
from referees.threes import MAX_CELLS, MAX_PLAN, Game, ThreesState, parse_board, play_plan, slide_step_by_step

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 1.0
#: Generated boards of MAX_CELLS cells: (name, rows, obstacles, magnets, max digit), seed 1.
GENERATED = [
    ("6x6-open", 6, 0, 0, 9),    # no walls: long pieces; digits up to 9: many distinct lines
    ("6x6-walls", 6, 6, 6, 3),
    ("4x9", 4, 3, 2, 1),
    ("3x12", 3, 3, 2, 1),
    ("1x36", 1, 0, 0, 1),
]


class StepByStepGame(Game):
    """The baseline: every line slid one cell at a time, on a list."""

    __slots__ = ()

    def slide(self, move: str) -> None:
        cells = self.cells
        slide_step_by_step(cells, self.rules.n, self.rules.m, move)
        self.cells = cells


class RoundTripGame(Game):
    """The referee's slide plus the baseline's round trip through a list."""

    __slots__ = ()

    def slide(self, move: str) -> None:
        self.cells = self.cells
        super().slide(move)


def one_ply_game(state: ThreesState, rng: random.Random, most: int) -> str:
    """The moves of one game (at most ``most``) that keep it going long."""
    game, moves = Game(state), []
    while len(moves) < most and not game.over:
        options = []
        for move in "WASD":
            child = game.copy()
            child.play(move)
            options.append((0 if child.over else child.empty_cells(), rng.random(), move, child))
        _, _, move, game = max(options)
        moves.append(move)
    return "".join(moves)


def workload(state: ThreesState, total: int, seed: int = 1) -> list[str]:
    """Plans whose games, played one after another, make ``total`` moves."""
    rng, plans, played = random.Random(seed), [], 0
    while played < total:
        plans.append(one_ply_game(state, rng, total - played))
        played += len(plans[-1])
    return plans


def cpu_seconds(state: ThreesState, plans: list[str], game_type: type[Game]) -> float:
    threes.clear_tables()
    start = time.process_time()
    for plan in plans:
        game = game_type(state)
        for move in plan:
            game.play(move)
    return time.process_time() - start


def referee_seconds(state: ThreesState, plans: list[str]) -> float:
    threes.clear_tables()
    start = time.process_time()
    for plan in plans:
        play_plan(state, plan)
    return time.process_time() - start


def boards() -> list[tuple[str, ThreesState]]:
    shipped = [(path.name, parse_board(path.read_text()))
               for path in sorted((ROOT / "boards" / "threes").glob("*.in"))]
    generated = []
    for name, rows, obstacles, magnets, digit in GENERATED:
        params = ThreesParams(rows, MAX_CELLS // rows, obstacles, magnets, 4, 8, digit, 5, same_sequence=False)
        generated.append((name, make_board(params.validate(), seed=1)))
    return shipped + generated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=MAX_PLAN, help=f"moves in all (default {MAX_PLAN:,})")
    parser.add_argument("--no-tables", action="store_true",
                        help="slide tables of one entry: nearly every lookup misses")
    args = parser.parse_args()
    if args.no_tables:
        threes._TABLE_CAP = 1
    worst = 0.0
    for name, state in boards():
        plans = workload(state, args.moves)
        fast = referee_seconds(state, plans)
        slow = cpu_seconds(state, plans, StepByStepGame)
        trips = max(0.0, cpu_seconds(state, plans, RoundTripGame) - fast)
        worst = max(worst, fast)
        print(f"{name:11} {state.rules.n}x{state.rules.m}  {len(plans):5} games  referee {fast:.3f} s  "
              f"step by step {slow:.3f} s (list round trips {trips:.3f} s of it)  "
              f"ratio {(slow - trips) / fast:.1f}x", flush=True)
    print(f"worst: {worst:.3f} CPU s for {args.moves:,} moves (limit {LIMIT:g} s)"
          + ("; tables of one entry (a bound, not held to the limit)" if args.no_tables else ""))
    return 0 if worst < LIMIT or args.no_tables else 1


if __name__ == "__main__":
    sys.exit(main())

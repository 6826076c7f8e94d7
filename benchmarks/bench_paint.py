"""Time one referee step of the painting game on group3 positions.

A step is what the arena does with a bot's move: parse ``game.out``, check the
move, apply it, and test whether the next player has a legal move.  Random
games are played from the shipped group3 boards (30×30); every move is timed.
The baseline, measured in the same run on the same positions, is parsing the
position's ``game.in`` text (a linear pass over the 900 cells).

    python benchmarks/bench_paint.py [--games-per-board 5] [--seed 1]

Target (issue 2): median step <= 2 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from referees.paint import (
    PaintReferee,
    PaintState,
    apply_move,
    board_text,
    check_move,
    has_legal_move,
    outcome,
    parse_board,
    parse_move,
)

BOARDS = Path(__file__).resolve().parent.parent / "boards" / "group3"
REPEAT = 3  # each position is timed this many times; the fastest counts (less scheduler noise)


def step(state: PaintState, text: str) -> bool:
    """The timed work: parse + check + apply + has-a-legal-move."""
    move = parse_move(text)
    check_move(state, move)
    return has_legal_move(apply_move(state, move))


def best_of(func, *args) -> float:
    """The fastest of REPEAT calls, in seconds."""
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        func(*args)
        best = min(best, time.perf_counter() - start)
    return best


def play(start: PaintState, rng: random.Random) -> tuple[list[float], list[float]]:
    """One random game: (step times, baseline times), one of each per move."""
    referee, state = PaintReferee(), start
    steps, baseline = [], []
    while outcome(state) is None:
        text = referee.move_text(referee.random_move(state, rng))
        steps.append(best_of(step, state, text))
        baseline.append(best_of(parse_board, board_text(state)))
        state = apply_move(state, parse_move(text))
    return steps, baseline


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-board", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    check_move(parse_board("1\n1\n"), parse_move("1\n0 0\n"))  # warm up: networkx's import is not a move
    steps: list[float] = []
    baseline: list[float] = []
    boards = sorted(BOARDS.glob("*.in"))
    for path in boards:
        start = parse_board(path.read_text())
        for _ in range(args.games_per_board):
            s, b = play(start, rng)
            steps += s
            baseline += b
    ms = 1000.0
    med, base = statistics.median(steps), statistics.median(baseline)
    print(f"group3: {len(boards)} boards x {args.games_per_board} random games, {len(steps)} moves")
    print(f"step (parse + check + apply + has_legal_move): median {med * ms:.3f} ms, "
          f"p95 {percentile(steps, 0.95) * ms:.3f} ms, max {max(steps) * ms:.3f} ms")
    print(f"baseline (parse_board of the position):        median {base * ms:.3f} ms, "
          f"p95 {percentile(baseline, 0.95) * ms:.3f} ms")
    print(f"ratio step / baseline (medians): {med / base:.2f}; target median <= 2 ms: "
          f"{'met' if med <= 0.002 else 'NOT met'}")


if __name__ == "__main__":
    main()

"""Benchmark of the match-3 judge at the source's limits (n = m = 50, q = 1000).

Builds inputs from seeded boards (generator.match3) and swaps that are valid
as long as the board allows (found by random probing, then by a full scan),
so that every swap sets off rounds; then times ``arena judge match3`` on each
in-process (parsing included) and prints CPU seconds.  Exits 1 if any input
takes 2 s or more.

    /tmp/venv/bin/python benchmarks/bench_match3.py
"""

from __future__ import annotations

import random
import sys
import time

from generator.match3 import generate_board
from referees.base import TokenReader
from referees.match3 import Game, Match3Referee, Swap, board_text, parse_board, play_swaps, read_swaps

LIMIT = 2.0
#: (name, colours k, chance of a special piece, how swaps are chosen)
CASES = (
    ("k=100, 5% special", 100, 0.05, "random"),
    ("k=5, 5% special", 5, 0.05, "random"),
    ("k=3, 30% special", 3, 0.30, "random"),
    ("k=2, no special", 2, 0.0, "random"),
    ("k=5, no special", 5, 0.0, "top"),
    ("k=3, 5% special", 3, 0.05, "top"),
    ("k=9, 2% special", 9, 0.02, "top"),
    ("k=5, invalid swaps", 5, 0.05, "invalid"),
)


def random_valid(game: Game, rng: random.Random, probes: int = 300) -> tuple[int, int] | None:
    """A random valid swap: random adjacent pairs first, then a full scan."""
    size = game.n * game.m
    for _ in range(probes):
        a = rng.randrange(size)
        b = a + rng.choice((1, game.m))
        if b < size and game.swap_is_valid(a, b):
            return a, b
    pairs = [p for p in game.adjacent_pairs() if game.swap_is_valid(*p)]
    return rng.choice(pairs) if pairs else None


def top_valid(game: Game, rng: random.Random) -> tuple[int, int] | None:
    """The first valid swap in row-major order: it clears little and keeps
    the board full, so that many swaps are valid."""
    return next((p for p in game.adjacent_pairs() if game.swap_is_valid(*p)), None)


def build_input(k: int, specials: float, choose: str, seed: int = 1, n: int = 50, q: int = 1000) -> str:
    """The judge input: a 50x50 board and q swaps (valid ones while any exist,
    unless ``choose`` is "invalid")."""
    state = generate_board(n, n, k, q, specials, seed)
    game, rng, swaps = Game.of(state), random.Random(seed), []
    finder = {"random": random_valid, "top": top_valid}.get(choose)
    while finder is not None and len(swaps) < q:
        pair = finder(game, rng)
        if pair is None:
            break  # no valid swap left: the board will not change any more
        game.play(*pair)
        (x1, y1), (x2, y2) = (divmod(i, n) for i in pair)
        swaps.append(Swap(x1 + 1, y1 + 1, x2 + 1, y2 + 1))
    while len(swaps) < q:
        x, y = rng.randint(1, n), rng.randint(1, n - 1)
        swaps.append(Swap(x, y, x, y + 1))
    return board_text(state) + "".join(s.to_text() for s in swaps)


def valid_count(text: str) -> int:
    """How many of the input's swaps are valid (not timed)."""
    reader = TokenReader(text)
    state = parse_board(reader)
    return play_swaps(state, read_swaps(reader, None))[1].valid


def main() -> int:
    referee, worst = Match3Referee(), 0.0
    print(f"{'input (50x50, q=1000)':<24} {'swaps':>6} {'valid':>5} {'CPU s':>7} {'score':>10}")
    for name, k, specials, choose in CASES:
        text = build_input(k, specials, choose)
        start = time.process_time()
        (score,) = referee.judge([text], {})
        seconds = time.process_time() - start
        worst = max(worst, seconds)
        print(f"{name:<24} {choose:>6} {valid_count(text):>5} {seconds:>7.3f} {score:>10}")
    print(f"slowest: {worst:.3f} s (limit {LIMIT} s)")
    return 0 if worst < LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())

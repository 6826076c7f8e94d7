"""How well does a Swiss rank a big field, and how fast is its pairing?  (issue 24)

200 synthetic bots of known strength (Elo drawn from a normal law, sd 200, seeded) play Swiss
tournaments of 4 to 15 rounds on 2 boards (so 4 games a pairing, both seat orders).  The pairing,
standings and tie-breaks are the arena's own (``arena.formats.Swiss``); only the games are
simulated, without processes: a game is won by the first bot with the logistic Elo probability of
its strength over the other's, less a draw chance of 10 %.  For each round count it prints
Spearman's rho between the final Swiss standings and the true order (mean and range over 5 seeds),
beside a round-robin of the same 200 bots on a random sample of pairings with as many games, and
the full round-robin (19,900 pairings).  Then it times the pairing of one round of 1000 bots (the
first round, and one after 5 simulated rounds).

    python benchmarks/bench_swiss.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.formats import Results, Swiss, pair_swiss

BOARDS = ("p", "q")
DRAW = 0.10


def game(first: float, second: float, rng: random.Random) -> list[float]:
    """The points of one simulated game (win 3, draw 1.5)."""
    if rng.random() < DRAW:
        return [1.5, 1.5]
    p = 1 / (1 + 10 ** (-(first - second) / 400))
    return [3.0, 0.0] if rng.random() < p else [0.0, 3.0]


def play(pairs, elo: dict[str, float], results: Results, rng: random.Random) -> None:
    for a, b in pairs:
        for board in BOARDS:
            for seats in ((a, b), (b, a)):
                points = game(elo[seats[0]], elo[seats[1]], rng)
                winner = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
                results.add({"id": "|".join((board, *seats)), "board": {"name": board}, "seats": list(seats),
                             "outcome": {"winner": winner}, "points": points})


def spearman(order: list[str], truth: list[str]) -> float:
    """Spearman's rho of two rankings of the same items (no ties)."""
    where = {bot: k for k, bot in enumerate(truth)}
    n = len(order)
    d2 = sum((k - where[bot]) ** 2 for k, bot in enumerate(order))
    return 1 - 6 * d2 / (n * (n * n - 1))


def field(n: int, seed: int) -> tuple[list[str], dict[str, float], list[str]]:
    """Bots in a seeding order that knows nothing of their strength, their Elo, and the true order."""
    rng = random.Random(seed)
    bots = [f"bot{k:04d}" for k in range(n)]
    elo = {bot: rng.gauss(0, 200) for bot in bots}
    rng.shuffle(bots)
    return bots, elo, sorted(bots, key=lambda bot: -elo[bot])


def swiss_rho(n: int, rounds: int, seed: int) -> tuple[float, int]:
    bots, elo, truth = field(n, seed)
    rng, results = random.Random(seed + 1000), Results()
    system = Swiss(rounds)
    for round_ in system.rounds(bots, BOARDS, results):
        play(round_.pairs, elo, results, rng)
    order = [bot for bot, _ in system.standings(bots, BOARDS, results).ranked()]
    return spearman(order, truth), len(results)


def round_robin_rho(n: int, pairings: int | None, seed: int) -> float:
    """A round-robin on ``pairings`` pairs drawn at random (None: every pair), ranked by points per game."""
    bots, elo, truth = field(n, seed)
    rng = random.Random(seed + 2000)
    every = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]
    chosen = every if pairings is None else rng.sample(every, pairings)
    points = dict.fromkeys(bots, 0.0)
    games = dict.fromkeys(bots, 0)
    for a, b in chosen:
        for _ in BOARDS:
            for x, y in ((a, b), (b, a)):
                px, py = game(elo[x], elo[y], rng)
                points[x] += px
                points[y] += py
                games[x] += 1
                games[y] += 1
    order = sorted(bots, key=lambda bot: (-(points[bot] / games[bot] if games[bot] else 0), bot))
    return spearman(order, truth)


def pairing_time(n: int) -> tuple[float, float]:
    bots, elo, _ = field(n, 7)
    started = time.perf_counter()
    pair_swiss(bots, dict.fromkeys(bots, 0.0), {b: [] for b in bots}, {})
    first = time.perf_counter() - started
    rng, results, system = random.Random(8), Results(), Swiss(6)
    for round_ in system.rounds(bots, BOARDS, results):
        if round_.number == 6:
            break
        play(round_.pairs, elo, results, rng)
    table = Swiss(5).standings(bots, BOARDS, results)
    started = time.perf_counter()
    pair_swiss(table.ranked_for_pairing(), table.points, table.met, table.byes)
    return first, time.perf_counter() - started


def main() -> None:
    n, seeds = 200, range(5)
    print(f"{n} synthetic bots (Elo ~ N(0, 200)), {len(BOARDS)} boards, both seat orders; draws {DRAW:.0%}; "
          f"Spearman's rho against the true order, mean [min, max] over {len(seeds)} seeds")
    print(f"{'rounds':>6}  {'games':>7}  {'Swiss rho':>22}  {'round-robin sample, same games':>32}")
    for rounds in (4, 6, 8, 10, 12, 15):
        swiss = [swiss_rho(n, rounds, seed) for seed in seeds]
        games = swiss[0][1]
        sample = [round_robin_rho(n, games // (2 * len(BOARDS)), seed) for seed in seeds]
        print(f"{rounds:>6}  {games:>7}  {_summary([rho for rho, _ in swiss]):>22}  {_summary(sample):>32}")
    full = [round_robin_rho(n, None, seed) for seed in seeds]
    print(f"{'full round-robin':>16}  {n * (n - 1) * len(BOARDS):>7} games  rho {_summary(full)}")
    first, later = pairing_time(1000)
    print(f"pairing one round of 1000 bots: {first:.3f} s (round 1), {later:.3f} s (round 6)")


def _summary(values: list[float]) -> str:
    return f"{statistics.mean(values):.3f} [{min(values):.3f}, {max(values):.3f}]"


if __name__ == "__main__":
    main()

"""How fast does the contest's ladder settle a field, and how long does a new entry wait?  (issue 63)

A simulated round: 200 contestants of known strength (Elo from a normal law, sd 250) enter in bursts
over its first part, and half of them replace their entry later by a new version (their strength plus
a normal step of mean 60 and sd 80); there are 300 entries in all and 200 current ones at the end.
Games are simulated, without bots or processes: the first seat wins with the logistic Elo probability
of the strengths' difference plus a first-move edge of 35, and a game is a draw one time in ten.
Every game is one of a pair (a board, both seats), as the runner plays them.

Two schedulers play the same round (the same arrivals, strengths and seeds): the ladder's own
matchmaking (``arena.contest.ladder.plan``, replanned every ``BATCH`` pairs as the runner replans
every pair) and one that picks pairs of current entries at random.  The standings are the ladder's
fit (``ladder.estimates``: ``arena.stats.fit_elo`` with the ladder's prior, the centre of the
intervals the ladder page shows) of the current entries' games.  Printed for each scheduler, as the
mean over the seeds:

- the games played after the last arrival until Spearman's rho between the standings and the true
  strengths of the current entries reaches 0.9 and 0.95 (checked every ``EVERY`` games), and rho then;
- how long a new entry waits for its first rated game: pairs played by the ladder between its arrival
  and its first game (the median, the 95th percentile and the worst), and in seconds at a pair's
  2.4 s on this machine (two games of the painting game with the shipped bots, sandboxed);
- the matchmaking's time per planned pair.

    python benchmarks/bench_ladder.py [--seeds 3] [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena import stats
from arena.contest import ladder

CONTESTANTS = 200
REPLACING = 100
BOARDS = ("board1", "board2", "board3")
EDGE = 35.0
DRAW = 0.10
BATCH = 20  # pairs planned at once
EVERY = 200  # games between two looks at rho, once every entry has arrived
SECONDS_PER_PAIR = 2.4
TARGETS = (0.9, 0.95)


@dataclass(frozen=True)
class Arrival:
    at: int  # the game count at which it arrives
    contestant: int
    entry: int
    strength: float


def round_of(seed: int, contestants: int, replacing: int) -> list[Arrival]:
    """The round's arrivals, by game count: a quarter of the first entries at the start, the others in
    bursts of 10 over the next 10 games per contestant, the replacements in bursts of 5 from a fifth
    of that on to its end and a half (faster than the ladder can settle them: the measure is how fast
    it catches up)."""
    rng = random.Random(seed)
    span = 10 * contestants
    strengths = {c: rng.gauss(0, 250) for c in range(contestants)}
    arrivals = []
    for start in range(0, contestants, 10):
        at = 0 if start < contestants // 4 else rng.randrange(span)
        arrivals += [Arrival(at, c, c, strengths[c]) for c in range(start, min(start + 10, contestants))]
    later = rng.sample(range(contestants), replacing)
    for k in range(0, replacing, 5):
        at = rng.randrange(span // 5, span * 3 // 2)
        for c in later[k:k + 5]:
            strengths[c] += rng.gauss(60, 80)
            arrivals.append(Arrival(at, c, contestants + len(arrivals) - contestants, strengths[c]))
    arrivals = sorted(arrivals, key=lambda a: (a.at, a.entry))
    # (an entry number per submission, in order of arrival, as the site numbers them)
    return [Arrival(a.at, a.contestant, k, a.strength) for k, a in enumerate(arrivals)]


def game(first: float, second: float, rng: random.Random) -> float:
    if rng.random() < DRAW:
        return 0.5
    return 1.0 if rng.random() < stats.score_of_elo(first - second + EDGE) else 0.0


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[int]:
        order = sorted(range(len(values)), key=values.__getitem__)
        found = [0] * len(values)
        for rank, k in enumerate(order):
            found[k] = rank
        return found

    a, b = ranks(xs), ranks(ys)
    n = len(xs)
    return 1 - 6 * sum((p - q) ** 2 for p, q in zip(a, b)) / (n * (n * n - 1))


def simulate(arrivals: list[Arrival], smart: bool, seed: int, cap: int) -> dict:
    rng = random.Random(seed * 7919 + smart)
    current: dict[int, Arrival] = {}  # contestant -> their current entry
    strength: dict[int, float] = {}
    arrived_at: dict[int, int] = {}  # entry -> pairs played when it arrived
    first_game: dict[int, int] = {}
    games: list[ladder.Game] = []
    pending = list(arrivals)
    last_arrival = arrivals[-1].at
    reached: dict[float, int] = {}
    planning = 0.0
    planned = 0
    pairs = 0
    rho = 0.0
    next_look = last_arrival
    while len(games) < cap and (pending or len(reached) < len(TARGETS)):
        while pending and pending[0].at <= len(games):
            arrival = pending.pop(0)
            current[arrival.contestant] = arrival
            strength[arrival.entry] = arrival.strength
            arrived_at[arrival.entry] = pairs
        entries = [a.entry for a in current.values()]
        started = time.perf_counter()
        if smart:
            chosen = ladder.plan(entries, games, BOARDS, BATCH, rng)
        else:
            chosen = []
            for _ in range(BATCH):
                a, b = rng.sample(entries, 2)
                chosen.append(ladder.Pairing(a, b, rng.choice(BOARDS)))
        planning += time.perf_counter() - started
        planned += len(chosen)
        for pairing in chosen:
            pairs += 1
            for entry in (pairing.first, pairing.second):
                first_game.setdefault(entry, pairs)
            for a, b in ((pairing.first, pairing.second), (pairing.second, pairing.first)):
                games.append(ladder.Game(pairs, a, b, game(strength[a], strength[b], rng), pairing.board))
        if not pending and len(games) >= next_look:
            next_look = len(games) + EVERY
            known = ladder.estimates(entries, games)
            rho = spearman([strength[e] for e in entries], [known[e].elo for e in entries])
            for target in TARGETS:
                if rho >= target and target not in reached:
                    reached[target] = len(games) - last_arrival
    waits = sorted(first_game[e] - arrived_at[e] for e in first_game if e in arrived_at)
    return {"reached": reached, "rho": rho, "waits": waits, "unplayed": len(arrived_at) - len(waits),
            "per_pair": planning / max(planned, 1), "games": len(games)}


def mean_reached(runs: list[dict], target: float, cap: int) -> str:
    got = [run["reached"].get(target) for run in runs]
    if None in got:
        return f"> {cap} ({got.count(None)} of {len(got)} not)"
    return f"{statistics.mean(got):.0f}"


def percentile(values: list[int], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="50 contestants, 25 replacing (a smoke run)")
    args = parser.parse_args()
    contestants, replacing = (50, 25) if args.quick else (CONTESTANTS, REPLACING)
    cap = 400 * contestants
    print(f"a round of {contestants} contestants, {replacing} of whom replace their entry "
          f"({contestants + replacing} entries), {args.seeds} seeds; games counted after the last arrival")
    header = (f"{'scheduler':<12} {'to rho 0.9':>11} {'to rho 0.95':>12} {'rho at end':>11} "
              f"{'wait p50':>9} {'p95':>6} {'max':>6} {'max s':>7} {'ms/pair':>8}")
    print(header)
    for smart in (True, False):
        runs = [simulate(round_of(seed, contestants, replacing), smart, seed, cap)
                for seed in range(1, args.seeds + 1)]
        waits = sorted(w for run in runs for w in run["waits"])
        worst = max(waits)
        print(f"{'ladder' if smart else 'random':<12} {mean_reached(runs, 0.9, cap):>11} {mean_reached(runs, 0.95, cap):>12} "
              f"{statistics.mean(run['rho'] for run in runs):>11.3f} {percentile(waits, 0.5):>9.0f} "
              f"{percentile(waits, 0.95):>6.0f} {worst:>6} {worst * SECONDS_PER_PAIR:>7.0f} "
              f"{1000 * statistics.mean(run['per_pair'] for run in runs):>8.2f}", flush=True)
    print("(waits in pairs played by the ladder between an entry's arrival and its first game; "
          f"seconds at {SECONDS_PER_PAIR} s a pair)")


if __name__ == "__main__":
    main()

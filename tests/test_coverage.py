"""Do the printed "95 %" intervals hold the truth 95 % of the time?  Simulated
at 1, 3, 10, 30 and 100 pairs of games, for the match's interval (logistic
Elo: normalized Elo is printed without one) and the ratings' interval, over strengths from even to lopsided.
An interval that is shown must cover the true value in at least 90 % of the
samples (the normal approximation fishtest prints covered 0 % at 1 pair and
about 70 % at 3; the bootstrap alone gave [x, x] when every game of a pair
ended alike).  Seeded: the figures are the same at every run."""

from __future__ import annotations

import math
import random
from functools import cache

import numpy as np
import pytest
from test_stats import simulated_round_robin

from arena import stats

PAIRS = (1, 3, 10, 30, 100)
#: A game's (win, draw) probabilities for the first bot: from an even match to one
#: the first bot wins 97 % of the time (+604 Elo).
GAMES = ((0.5, 0.0), (0.4, 0.3), (0.6, 0.1), (0.8, 0.0), (0.9, 0.05), (0.97, 0.0))
FLOOR = 0.90


def _pentanomial(win: float, draw: float) -> np.ndarray:
    """The pair's distribution when its two games are independent."""
    game = np.array([1 - win - draw, draw, win])
    return np.convolve(game, game)


@cache
def _interval(counts: tuple[int, ...]) -> tuple[float, float]:
    est = stats.pentanomial_elo(counts)
    return est.low, est.high


@pytest.mark.parametrize("pairs", PAIRS)
def test_match_interval_covers_the_truth(pairs):
    rng = np.random.default_rng(pairs)
    misses = []
    for win, draw in GAMES:
        probs = _pentanomial(win, draw)
        mu = float(probs @ stats.VALUES)
        truth = stats.elo_of_score(mu)
        samples = rng.multinomial(pairs, probs, size=300)
        covered = np.mean([lo <= truth <= hi for lo, hi in (_interval(tuple(map(int, s))) for s in samples)])
        if covered < FLOOR:
            misses.append(f"Elo {truth:+.0f}: {covered:.0%}")
    assert not misses, f"at {pairs} pairs the 95 % interval covers the truth only in: {', '.join(misses)}"


def test_los_is_not_confident_about_an_even_match():
    """Where a LOS is shown (from LOS_MIN_PAIRS pairs), two equal bots get LOS >= 97.5 % about 2.5 % of the time."""
    rng = np.random.default_rng(7)
    for pairs in (20, 30, 100):
        samples = rng.multinomial(pairs, _pentanomial(0.4, 0.2), size=1000)
        shown = [stats.pentanomial_elo(tuple(map(int, s))).los for s in samples]
        assert all(los is not None for los in shown)
        assert np.mean([los >= 0.975 for los in shown]) < 0.05


def _clusters(truth: list[float], boards: int, rng: random.Random, draw: float) -> list[stats.Cluster]:
    """Every two bots play each board twice; each game drawn from the logistic model."""
    return simulated_round_robin(truth, boards, rng, draw)


@pytest.mark.parametrize("boards", PAIRS)
def test_rating_interval_covers_the_truth(boards):
    misses = []
    for truth, draw in (([0.0, 100.0], 0.1), ([-150.0, -50.0, 50.0, 150.0], 0.1), ([0.0, 400.0], 0.02)):
        rng = random.Random(boards)
        centred = np.array(truth) - np.mean(truth)
        hits = []
        for trial in range(40):
            rated = stats.rate(len(truth), _clusters(truth, boards, rng, draw), replicates=200, seed=trial)
            hits += [r.low <= t <= r.high for r, t in zip(rated, centred)]
        if np.mean(hits) < FLOOR:
            misses.append(f"{truth}: {np.mean(hits):.0%}")
    assert not misses, f"with {boards} boards per pair the ratings' interval covers the truth only in: {misses}"


def test_los_needs_enough_pairs():
    rated = stats.rate(2, _clusters([0.0, 50.0], stats.LOS_MIN_PAIRS - 1, random.Random(1), 0.1), replicates=100)
    assert all(r.los_next is None for r in rated)
    rated = stats.rate(2, _clusters([0.0, 50.0], stats.LOS_MIN_PAIRS, random.Random(1), 0.1), replicates=100)
    assert not math.isnan(max(r.los_next or 0 for r in rated)) and any(r.los_next is not None for r in rated)

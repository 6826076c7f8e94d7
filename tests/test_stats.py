"""arena.stats against values computed independently: by hand, with the
standard library, or by brute-force maximisation with scipy.optimize."""

from __future__ import annotations

import math
import random
import statistics

import numpy as np
import pytest
import scipy.optimize

from arena import stats

VALUES = [k / 4 for k in range(5)]  # per-game score of each pentanomial outcome


def _brute_mle(probs: list[float], mean: float) -> np.ndarray:
    """The maximum-likelihood distribution on VALUES with the given mean, by
    constrained optimisation (no secular equation)."""
    result = scipy.optimize.minimize(
        lambda q: -np.dot(probs, np.log(q)), x0=np.full(5, 0.2), method="SLSQP",
        bounds=[(1e-12, 1)] * 5, options={"ftol": 1e-15, "maxiter": 1000},
        constraints=[{"type": "eq", "fun": lambda q: q.sum() - 1},
                     {"type": "eq", "fun": lambda q: np.dot(q, VALUES) - mean}])
    assert result.success
    return result.x


def _brute_llr(counts: list[int], elo0: float, elo1: float) -> float:
    n = [c if c else 1e-3 for c in counts]  # fishtest's regularisation, as the issue states it
    total = sum(n)
    probs = [c / total for c in n]
    q0, q1 = (_brute_mle(probs, 1 / (1 + 10 ** (-e / 400))) for e in (elo0, elo1))
    return total * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1))


@pytest.mark.parametrize("counts, elo0, elo1", [
    ([1, 2, 3, 4, 5], 0, 10),
    ([10789, 19328, 33806, 19402, 10543], -3, 1),
    ([3, 10, 40, 12, 2], 0, 5),
    ([0, 0, 0, 0, 7], 0, 200),
    ([0, 0, 9, 0, 0], 0, 10),
    ([5, 1, 0, 2, 0], -10, 20),
])
def test_llr_matches_a_brute_force_maximum_likelihood(counts, elo0, elo1):
    assert stats.llr_pentanomial(counts, elo0, elo1) == pytest.approx(_brute_llr(counts, elo0, elo1), rel=1e-4,
                                                                      abs=1e-6)


def test_elo_and_interval_by_hand():
    # 15 pairs; per-game score mu = (0.5 + 1.5 + 3 + 5) / 15 = 2/3, so Elo = 400 log10(2) = 120.41.
    est = stats.pentanomial_elo([1, 2, 3, 4, 5])
    assert est.score == pytest.approx(2 / 3, abs=1e-4)  # zero counts: none here
    assert est.elo == pytest.approx(400 * math.log10(2), abs=0.05)
    # standard library: per-pair variance, se of the per-game mean, normal quantile
    pairs = [k / 2 for k, c in enumerate([1, 2, 3, 4, 5]) for _ in range(c)]
    se = math.sqrt(statistics.pvariance(pairs) / len(pairs)) / 2
    z = statistics.NormalDist().inv_cdf(0.975)

    def elo(s):
        return -400 * math.log10(1 / s - 1)

    assert est.low == pytest.approx(elo(2 / 3 - z * se), abs=0.05)
    assert est.high == pytest.approx(elo(2 / 3 + z * se), abs=0.05)
    assert (est.low, est.high) == pytest.approx((6.2, 268.7), abs=0.1)  # worked out on paper
    assert est.los == pytest.approx(statistics.NormalDist().cdf((2 / 3 - 0.5) / se), abs=1e-9)


def test_elo_of_an_even_match_and_of_a_clean_sweep():
    even = stats.pentanomial_elo([2, 5, 20, 5, 2])
    assert even.elo == pytest.approx(0, abs=1e-9) and even.low == pytest.approx(-even.high)
    sweep = stats.pentanomial_elo([0, 0, 0, 0, 10])
    assert sweep.high == pytest.approx(400 * math.log10(999))  # the clamp at a score of 0.999
    assert 0 < sweep.low < sweep.elo
    assert stats.pentanomial_elo([0, 0, 0, 0, 0]) is None


def test_sprt_bounds_and_decisions():
    sprt = stats.Sprt(elo0=0, elo1=200, alpha=0.05, beta=0.05)
    assert (sprt.lower, sprt.upper) == pytest.approx((math.log(0.05 / 0.95), math.log(19)))
    # a clean sweep is worth ln(s1 / s0) per pair at most: 7 pairs stay below ln 19, 8 cross it
    assert sprt.decision(sprt.llr([0, 0, 0, 0, 7])) is None
    assert sprt.decision(sprt.llr([0, 0, 0, 0, 8])) == "H1"
    assert sprt.decision(sprt.llr([0, 0, 6, 0, 0])) == "H0"
    assert sprt.decision(sprt.llr([0, 0, 2, 0, 0])) is None
    strict = stats.Sprt(elo0=0, elo1=10, alpha=0.01, beta=0.2)
    assert (strict.lower, strict.upper) == pytest.approx((math.log(0.2 / 0.99), math.log(0.8 / 0.01)))
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        stats.Sprt(elo0=5, elo1=5)
    with pytest.raises(ValueError, match="alpha"):
        stats.Sprt(alpha=0.7)


def _brute_fit(scores: np.ndarray, prior: float) -> np.ndarray:
    """The same likelihood (with the same virtual draws) maximised by BFGS."""
    n = len(scores)
    off = 1 - np.eye(n)
    s = scores + prior / 2 * off  # i's score against j, virtual draws included: the games are implied

    def nll(r):
        d = (r[:, None] - r[None, :]) * math.log(10) / 400
        return -(s * -np.logaddexp(0, -d)).sum()

    r = scipy.optimize.minimize(nll, np.zeros(n), method="BFGS", options={"gtol": 1e-10}).x
    return r - r.mean()


def test_fit_matches_a_brute_force_maximisation():
    scores = np.array([[0, 8, 10, 6.5], [2, 0, 6, 3], [0, 4, 0, 5.5], [1.5, 7, 4.5, 0]])
    games = np.array([[0, 10, 10, 8], [10, 0, 10, 10], [10, 10, 0, 10], [8, 10, 10, 0]])
    for prior in (1.0, 0.1):
        assert stats.fit_elo(scores, games, prior) == pytest.approx(_brute_fit(scores, prior), abs=1e-3)
    # a bot that won all 10 games stays finite: with the virtual draw it scored 10.5 of 11,
    # so it is 400 log10(10.5 / 0.5) = 528.9 Elo above, each 264.4 from the mean
    sweep = stats.fit_elo(np.array([[0, 10.0], [0, 0]]), np.array([[0, 10.0], [10, 0]]))
    assert sweep == pytest.approx([200 * math.log10(21), -200 * math.log10(21)])


def _simulate(truth: list[float], boards: int, seed: int) -> list[stats.Cluster]:
    """Round-robin clusters (a board's two games) drawn from the logistic model, 20 % draws."""
    rng = random.Random(seed)
    clusters = []
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            s = stats.score_of_elo(truth[i] - truth[j])
            for _ in range(boards):
                score = 0.0
                for _ in range(2):
                    u = rng.random()
                    score += 1.0 if u < s - 0.1 else 0.5 if u < s + 0.1 else 0.0
                clusters.append(stats.Cluster(i, j, score, 2))
    return clusters


def test_rating_fit_recovers_known_strengths():
    truth = [-150.0, -50.0, 50.0, 150.0]
    rated = stats.rate(4, _simulate(truth, boards=300, seed=7))
    for t, r in zip(truth, rated):
        assert r.elo == pytest.approx(t, abs=25)
        assert r.low < r.elo < r.high and r.high - r.low < 80
        assert r.low - 10 < t < r.high + 10
    assert sum(r.elo for r in rated) == pytest.approx(0, abs=1e-6)
    # 100 Elo apart with 1800 games each: the order is all but certain
    assert [rated[k].los_next for k in (3, 2, 1)] == pytest.approx([1, 1, 1], abs=0.01)
    assert rated[0].los_next is None


def test_intervals_shrink_with_data_and_are_reproducible():
    truth = [0.0, 40.0]
    few, many = (stats.rate(2, _simulate(truth, boards=b, seed=3)) for b in (20, 500))
    assert many[1].high - many[1].low < (few[1].high - few[1].low) / 3
    assert stats.rate(2, _simulate(truth, boards=20, seed=3)) == few  # seeded bootstrap
    assert 0.4 < few[1].los_next <= 1


def test_mean_interval_by_hand():
    m = stats.mean_interval([1, 2, 3, 4])
    # sd = 1.2910, t(0.975, 3) = 3.1824: half width 2.0543
    assert (m.mean, m.low, m.high) == pytest.approx((2.5, 0.4457, 4.5543), abs=1e-4)
    assert stats.mean_interval([7]) == stats.MeanEstimate(7, None, None)

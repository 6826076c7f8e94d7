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


def test_elo_and_los_by_hand():
    # 30 pairs; per-game score mu = (0.5 + 1.5 + 3 + 5) / 15 = 2/3, so Elo = 400 log10(2) = 120.41.
    counts = [2, 4, 6, 8, 10]
    est = stats.pentanomial_elo(counts)
    assert est.score == pytest.approx(2 / 3)  # the raw mean: no zero count here anyway
    assert est.elo == pytest.approx(400 * math.log10(2), abs=0.05)
    # fishtest's LOS: per-pair variance, se of the per-game mean, normal CDF
    pairs = [k / 2 for k, c in enumerate(counts) for _ in range(c)]
    se = math.sqrt(statistics.pvariance(pairs) / len(pairs)) / 2
    assert est.los == pytest.approx(statistics.NormalDist().cdf((2 / 3 - 0.5) / se), abs=1e-9)
    # below LOS_MIN_PAIRS pairs the normal approximation is not trusted: no LOS
    assert stats.pentanomial_elo([1, 2, 3, 4, 5]).los is None


def test_interval_is_where_the_likelihood_ratio_reaches_the_chi2_quantile():
    """Each bound is a mean score whose maximum-likelihood distribution (found here by brute-force
    optimisation) lies 3.84 / 2 below the sample's log-likelihood."""
    for counts in ([1, 2, 3, 4, 5], [0, 0, 1, 2, 4], [3, 10, 40, 12, 2]):
        est = stats.pentanomial_elo(counts)
        n = [c if c else 1e-3 for c in counts]
        probs = [c / sum(n) for c in n]
        for bound in (est.low, est.high):
            q = _brute_mle(probs, stats.score_of_elo(bound))
            assert 2 * sum(n) * sum(p * math.log(p / x) for p, x in zip(probs, q)) == pytest.approx(3.8415, abs=2e-3)
        assert est.low < est.elo < est.high


def test_one_won_pair_is_not_proof():
    """fishtest's normal interval after one won pair was [+408.6, +1199.8] with LOS 100 %: it never holds
    the truth.  The likelihood-ratio interval reaches well below 0 and no LOS is given."""
    est = stats.pentanomial_elo([0, 0, 0, 0, 1])
    assert est.score == 1.0  # the raw mean, not fishtest's regularised 0.9975
    assert est.low < -250 and est.high == pytest.approx(400 * math.log10(999))
    assert est.los is None


def test_normalized_elo_and_sprt_match_fishtest_and_fastchess():
    # fastchess's tests "normalized pentanomial 1 / 2" and "logistic pentanomial 2" (its Stats are
    # LL, LD, WL, DD, WD, WW: WL and DD are both the middle count here)
    assert stats.llr_normalized([365, 16618, 36229, 16974, 390], 0, 2) == pytest.approx(2.25, abs=0.01)
    assert stats.llr_normalized([127, 4883, 10712, 5150, 104], -1.75, 0.25) == pytest.approx(3.01, abs=0.01)
    assert stats.llr_pentanomial([871, 26175, 55983, 26678, 821], 0, 2) == pytest.approx(-4.98, abs=0.01)
    sprt = stats.Sprt(0, 2, model="normalized")
    assert sprt.llr([365, 16618, 36229, 16974, 390]) == pytest.approx(2.25, abs=0.01)
    # nElo = (mu - 1/2) / sqrt(2 var) * 800 / ln 10, var the per-pair variance of the per-game score
    counts = [2, 4, 6, 8, 10]
    pairs = [k / 4 for k, c in enumerate(counts) for _ in range(c)]
    nelo = (2 / 3 - 0.5) / math.sqrt(2 * statistics.pvariance(pairs)) * 800 / math.log(10)
    assert stats.pentanomial_elo(counts).nelo == pytest.approx(nelo)
    with pytest.raises(ValueError, match="model"):
        stats.Sprt(model="bayesian")
    with pytest.raises(ValueError, match="within"):
        stats.Sprt(0, 300, model="normalized")


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


def simulated_round_robin(truth: list[float], boards: int, rng: random.Random, draw: float = 0.1
                          ) -> list[stats.Cluster]:
    """Round-robin clusters (a board's two games) drawn from the logistic model of Elo ``truth``, with
    ``2 * draw`` of the games drawn (also test_coverage's)."""
    clusters = []
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            s = stats.score_of_elo(truth[i] - truth[j])
            for _ in range(boards):
                score = 0.0
                for _ in range(2):
                    u = rng.random()
                    score += 1.0 if u < s - draw else 0.5 if u < s + draw else 0.0
                clusters.append(stats.Cluster(i, j, score, 2))
    return clusters


def _simulate(truth: list[float], boards: int, seed: int) -> list[stats.Cluster]:
    """Round-robin clusters with 20 % draws, seeded."""
    return simulated_round_robin(truth, boards, random.Random(seed))


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


def test_a_pair_that_never_drew_keeps_an_honest_interval():
    """One board, both games won by bot 0: the bootstrap alone gave [+140, +140]."""
    rated = stats.rate(2, [stats.Cluster(0, 1, 2.0, 2)])
    assert rated[0].elo == pytest.approx(200 * math.log10(5))  # 2.5 of 3 with the virtual draw
    assert rated[0].low < 0 < rated[0].elo < rated[0].high
    assert rated[0].los_next is None  # one pair: no likelihood of superiority


def test_profile_interval_matches_a_brute_force_profile():
    scores = np.array([[0, 3, 4], [1, 0, 2.5], [0, 1.5, 0]])
    games = np.array([[0, 4, 4], [4, 0, 4], [4, 4, 0]])
    low, high = stats.profile_intervals(scores, games)
    off = 1 - np.eye(3)
    s = scores + 0.5 * off

    def nll(r):
        d = (r[:, None] - r[None, :]) * math.log(10) / 400
        return -(s * -np.logaddexp(0, -d)).sum()

    top = -nll(stats.fit_elo(scores, games))
    for k in range(3):
        for bound in (low[k], high[k]):
            # maximise over the ratings with r_k - mean(r) = bound: the others free, their sum -bound
            def restricted(x, k=k, bound=bound):
                r = np.insert(x, k, 0.0)
                r = r - r.mean() + 0.0
                r[k] = bound
                others = [j for j in range(3) if j != k]
                r[others] += (-bound - r[others].sum()) / 2
                return nll(r)
            best = scipy.optimize.minimize(restricted, np.zeros(2), method="Nelder-Mead",
                                           options={"xatol": 1e-8, "fatol": 1e-10}).fun
            assert top + best == pytest.approx(3.8415 / 2, abs=1e-3)


def test_mean_interval_by_hand():
    m = stats.mean_interval([1, 2, 3, 4])
    # sd = 1.2910, t(0.975, 3) = 3.1824: half width 2.0543
    assert (m.mean, m.low, m.high) == pytest.approx((2.5, 0.4457, 4.5543), abs=1e-4)
    assert stats.mean_interval([7]) == stats.MeanEstimate(7, None, None)

"""Statistics of game results: Elo from scores, intervals, the pentanomial
GSPRT, and a joint rating fit.  Pure functions of counts; no I/O.

Conventions.  A game scores 1 for a win, 1/2 for a draw, 0 for a loss.
*Logistic Elo* relates an expected score s to an Elo difference d by
``s = 1 / (1 + 10^(-d/400))``.  A *pair* is one board played twice with the
seats swapped; its score (0, 1/2, 1, 3/2 or 2) is the unit of the
*pentanomial* counts ``[n0, n1, n2, n3, n4]`` (``n_k`` pairs scored k/2),
because the two games of a pair are correlated: a board that favours the
first mover gives each bot one win, so counting the games as independent
misstates (here overstates) the variance of the score.

Sources:

- fishtest (official-stockfish/fishtest, ``server/fishtest/stats/``):
  ``stat_util.get_elo`` (the Elo estimate, its 95 % interval and the LOS
  from pentanomial counts) and ``LLRcalc.LLR_logistic`` (the generalised
  SPRT, statistic "expectation"), both with zero counts replaced by 0.001.
- M. Van den Bergh, "support_MLE_multinomial.pdf" (Proposition 1.1), which
  fishtest's ``LLRcalc.MLE_expected`` cites: the maximum-likelihood
  distribution with a given expectation, by the secular equation solved below.
- Bradley & Terry (1952), Elo (1978): the rating model; BayesElo (R. Coulom)
  for the prior of virtual draws that keeps a perfect score's rating finite.
- Efron & Tibshirani, "An Introduction to the Bootstrap" (1993): the
  percentile interval, here resampling whole pairs (a cluster bootstrap).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# numpy and scipy are imported where they are used: every arena command imports
# this module (through the tables), and scipy alone would add a second to each start.

#: The score of a pair for each pentanomial index, and per game (pair / 2).
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
#: fishtest's regularisation: a pentanomial count of 0 counts as this much.
ZERO_COUNT = 1e-3
#: Scores are clamped to [SCORE_CLAMP, 1 - SCORE_CLAMP] before conversion to
#: Elo (fishtest's ``elo``), so a perfect score shows as +-1199.9, not infinity.
SCORE_CLAMP = 1e-3
#: Natural log of 10 over 400: d(Elo) * ELO_SCALE is the logit of the score.
ELO_SCALE = math.log(10) / 400


def score_of_elo(elo: float) -> float:
    """Expected score at an Elo difference: ``1 / (1 + 10^(-elo/400))``."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float:
    """The inverse, ``-400 log10(1/s - 1)``, with ``s`` clamped to
    ``[0.001, 0.999]`` (fishtest's ``stat_util.elo``)."""
    s = min(max(score, SCORE_CLAMP), 1 - SCORE_CLAMP)
    return -400 * math.log10(1 / s - 1)


def _z(confidence: float) -> float:
    """The two-sided normal quantile: 1.96 for 0.95."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


# ------------------------------------------------------------ pentanomial
@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its interval, the mean score per game, and the
    likelihood of superiority (the probability that the difference is > 0)."""

    elo: float
    low: float
    high: float
    score: float
    los: float


def check_pentanomial(counts: Sequence[float]) -> None:
    """Raise ValueError unless ``counts`` is five counts, none negative."""
    if len(counts) != 5 or any(c < 0 for c in counts):
        raise ValueError(f"pentanomial counts must be five numbers >= 0, got {list(counts)!r}")


def _regularized(counts: Sequence[float]) -> list[float]:
    check_pentanomial(counts)
    return [c if c > 0 else ZERO_COUNT for c in counts]


def pentanomial_elo(counts: Sequence[float], confidence: float = 0.95) -> EloEstimate | None:
    """Elo of the first player from pentanomial counts, as fishtest's
    ``get_elo``: with zero counts replaced by 0.001, N pairs, per-game score
    ``mu = sum(n_k k/4) / N`` and per-pair variance
    ``var = sum(n_k (k/2 - 2 mu)^2) / N``, the standard error of ``mu`` is
    ``sqrt(var / N) / 2``; the interval is ``elo(mu -+ z se)`` (z = 1.96 for
    95 %, asymmetric in Elo), and ``LOS = Phi((mu - 1/2) / se)``.  None
    without any pair."""
    if sum(counts) == 0:
        check_pentanomial(counts)
        return None
    n = _regularized(counts)
    pairs = sum(n)
    mu = sum(c * k / 4 for k, c in enumerate(n)) / pairs
    var = sum(c * (k / 2 - 2 * mu) ** 2 for k, c in enumerate(n)) / pairs
    se = math.sqrt(var / pairs) / 2
    z = _z(confidence)
    los = NormalDist().cdf((mu - 0.5) / se)
    return EloEstimate(elo_of_score(mu), elo_of_score(mu - z * se), elo_of_score(mu + z * se), mu, los)


def mle_with_mean(values: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``values`` closest in likelihood to the empirical
    ``probs`` among those with expectation ``mean`` (Van den Bergh,
    Proposition 1.1): ``q_i = p_i / (1 + x (a_i - mean))`` where x solves the
    secular equation ``sum p_i (a_i - mean) / (1 + x (a_i - mean)) = 0`` on
    the interval where every denominator stays positive."""
    import scipy.optimize

    dev = [a - mean for a in values]
    if not min(dev) < 0 < max(dev):
        raise ValueError(f"the mean {mean!r} must lie strictly between {min(values)} and {max(values)}")

    def secular(x: float) -> float:
        return sum(p * d / (1 + x * d) for p, d in zip(probs, dev))

    eps = 1e-9
    x = scipy.optimize.brentq(secular, -1 / max(dev) + eps, -1 / min(dev) - eps)
    return [p / (1 + x * d) for p, d in zip(probs, dev)]


def llr_pentanomial(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of the generalised SPRT of H1 (Elo = elo1)
    against H0 (Elo = elo0), fishtest's ``LLR_logistic`` (statistic
    "expectation"): with zero counts replaced by 0.001, N = their sum,
    ``p_i = n_i / N`` on per-game scores ``a_i = i/4``, and for each
    hypothesis the maximum-likelihood distribution ``q^j`` with mean
    ``score_of_elo(elo_j)`` (``mle_with_mean``),
    ``LLR = N sum_i p_i ln(q1_i / q0_i)``.  0 without any pair."""
    if sum(counts) == 0:
        check_pentanomial(counts)
        return 0.0
    n = _regularized(counts)
    total = sum(n)
    probs = [c / total for c in n]
    values = [k / 4 for k in range(5)]
    q0, q1 = (mle_with_mean(values, probs, score_of_elo(e)) for e in (elo0, elo1))
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, q0, q1))


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = elo0 against
    H1: Elo = elo1 (logistic Elo), with error rates alpha (accepting H1 when
    H0 holds) and beta (accepting H0 when H1 holds).  Wald's bounds on the
    LLR: ``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``.  (fishtest
    also corrects the bounds for overshoot; this does not, so it errs on the
    side of playing slightly longer.)"""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be below elo1, got elo0={self.elo0:g} elo1={self.elo1:g}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ValueError(f"{name} must lie strictly between 0 and 0.5, got {getattr(self, name):g}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        return llr_pentanomial(counts, self.elo0, self.elo1)

    def decision(self, llr: float) -> str | None:
        """"H1" once the LLR is above the upper bound, "H0" once below the
        lower one, else None (play on)."""
        if llr > self.upper:
            return "H1"
        if llr < self.lower:
            return "H0"
        return None


# ------------------------------------------------------------ rating fit
#: Virtual draws added between every two players (BayesElo's prior): they keep
#: the rating of a player that won every game finite and pull unplayed pairs together.
PRIOR_DRAWS = 1.0
#: Bootstrap replicates for the rating intervals.
REPLICATES = 1000
#: Replicates fitted at once: the fit holds several arrays of CHUNK x n x n
#: floats (about 1.3 MB each for 40 players), so memory stays small however
#: many replicates are asked for.
CHUNK = 100


@dataclass(frozen=True)
class Rating:
    """A player's fitted Elo, its interval, and the likelihood of superiority
    over the player ranked next (None for the last)."""

    elo: float
    low: float
    high: float
    los_next: float | None


@dataclass(frozen=True)
class Cluster:
    """The games of one board between players i and j (normally the two
    games of a pair): i's total score and the number of games; ``count``
    clusters alike (the tables count clusters by kind, not one by one)."""

    i: int
    j: int
    score: float
    games: int
    count: int = 1


def fit_elo(scores: np.ndarray, games: np.ndarray, prior: float = PRIOR_DRAWS) -> np.ndarray:
    """Maximum-likelihood Elo ratings, mean 0 (Bradley-Terry on the logistic
    scale, a draw counting as half a win): ``scores[..., i, j]`` is i's total
    score against j, ``games[..., i, j]`` their number of games; ``prior``
    virtual draws are added to every pair.  Maximises
    ``L(r) = sum_{i<j} S_ij ln p_ij + S_ji ln p_ji`` with
    ``p_ij = 1 / (1 + exp(-c (r_i - r_j)))``, ``c = ln 10 / 400``, by Newton's
    method (L is concave; its Hessian is a weighted graph Laplacian, whose
    null space, the constant vector, is removed by the mean-0 anchor).
    Leading axes are batches (bootstrap replicates) fitted at once."""
    import numpy as np

    n = scores.shape[-1]
    off = 1 - np.eye(n)
    s = scores + prior / 2 * off
    g = games + prior * off
    r = np.zeros(scores.shape[:-1])
    ones = np.ones((n, n))
    for _ in range(100):
        p = 1 / (1 + np.exp(-ELO_SCALE * (r[..., :, None] - r[..., None, :])))
        grad = ELO_SCALE * (s - g * p).sum(axis=-1)
        w = ELO_SCALE**2 * g * p * (1 - p)
        laplacian = np.eye(n) * w.sum(axis=-1)[..., None] - w
        step = np.linalg.solve(laplacian + ones / n, grad[..., None])[..., 0]
        step = np.clip(step, -200, 200)  # damped: a far start must not overshoot
        r = r + step
        if np.abs(step).max() < 1e-7:
            break
    return r - r.mean(axis=-1, keepdims=True)


def _tables(n: int, clusters: Sequence[Cluster]) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    scores, games = np.zeros((n, n)), np.zeros((n, n))
    for c in clusters:
        scores[c.i, c.j] += c.count * c.score
        scores[c.j, c.i] += c.count * (c.games - c.score)
        games[c.i, c.j] += c.count * c.games
        games[c.j, c.i] += c.count * c.games
    return scores, games


def _resample(n: int, clusters: Sequence[Cluster], replicates: int, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap tables: for each pair of players, its clusters drawn with
    replacement as many times as it has them (so every pair keeps its weight).
    Clusters alike are drawn together: how many of each kind a replicate
    holds is multinomial, with the kinds' shares as probabilities, which is
    the same law as drawing the clusters one by one."""
    import numpy as np

    scores, games = np.zeros((replicates, n, n)), np.zeros((replicates, n, n))
    by_pair: dict[tuple[int, int], list[Cluster]] = {}
    for c in clusters:
        by_pair.setdefault((c.i, c.j) if c.i < c.j else (c.j, c.i), []).append(c)
    for (i, j), group in sorted(by_pair.items()):
        own = np.array([c.score if c.i == i else c.games - c.score for c in group])
        length = np.array([c.games for c in group], dtype=float)
        weight = np.array([c.count for c in group], dtype=float)
        drawn = rng.multinomial(int(weight.sum()), weight / weight.sum(), size=replicates)
        s, g = drawn @ own, drawn @ length
        scores[:, i, j] += s
        scores[:, j, i] += g - s
        games[:, i, j] += g
        games[:, j, i] += g
    return scores, games


def rate(n: int, clusters: Sequence[Cluster], *, confidence: float = 0.95, replicates: int = REPLICATES,
         seed: int = 1) -> list[Rating]:
    """Ratings of players 0..n-1 from their clusters of games: the joint fit
    (``fit_elo``), a percentile interval from ``replicates`` bootstrap
    resamplings of whole clusters within each pair of players, and the
    likelihood of superiority of each player over the next one in rating
    order: the share of replicates in which it rates higher (ties count
    half).  Seeded, so the same clusters in the same order give the same
    figures."""
    import numpy as np

    scores, games = _tables(n, clusters)
    elo = fit_elo(scores, games)
    rng = np.random.default_rng(seed)
    boot = np.concatenate([fit_elo(*_resample(n, clusters, min(CHUNK, replicates - start), rng))
                           for start in range(0, replicates, CHUNK)])
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
    order = sorted(range(n), key=lambda k: -elo[k])
    los: dict[int, float | None] = {order[-1]: None}
    for a, b in itertools.pairwise(order):
        los[a] = float(np.mean(boot[:, a] > boot[:, b]) + 0.5 * np.mean(boot[:, a] == boot[:, b]))
    return [Rating(float(elo[k]), float(low[k]), float(high[k]), los[k]) for k in range(n)]


# ------------------------------------------------------------ one player
@dataclass(frozen=True)
class MeanEstimate:
    """A mean with its interval (None with fewer than two values)."""

    mean: float
    low: float | None
    high: float | None


@dataclass
class Moments:
    """The count, mean and sum of squared deviations of values seen one at a
    time (Welford's update: no value is kept, and no large sums cancel)."""

    count: int = 0
    mean: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self.squares += delta * (value - self.mean)


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> MeanEstimate:
    """The mean of ``values`` with Student's t interval
    ``mean -+ t_{n-1} s / sqrt(n)`` (s the sample standard deviation)."""
    moments = Moments()
    for value in values:
        moments.add(value)
    return mean_interval_of(moments, confidence)


def mean_interval_of(moments: Moments, confidence: float = 0.95) -> MeanEstimate:
    """``mean_interval`` of the values whose ``Moments`` these are."""
    import scipy.special  # the t quantile; scipy.stats would double the memory of arena show

    n = moments.count
    if not n:
        raise ValueError("no values to average")
    if n < 2:
        return MeanEstimate(moments.mean, None, None)
    sd = math.sqrt(max(moments.squares, 0.0) / (n - 1))
    half = float(scipy.special.stdtrit(n - 1, 0.5 + confidence / 2)) * sd / math.sqrt(n)
    return MeanEstimate(moments.mean, moments.mean - half, moments.mean + half)

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
- A. Owen, "Empirical Likelihood" (2001): the interval of a mean as the values
  a likelihood-ratio test does not reject; here with fishtest's own
  maximum-likelihood distributions (``mle_with_mean``, ``mle_t_value``), so
  the match's interval is the set of Elo values its GSPRT statistic accepts.
- M. Van den Bergh, "normalized_elo_practical.pdf" (fishtest): normalized Elo
  ``nElo = (mu - 1/2) / sigma * 800 / ln 10`` with ``sigma`` the standard
  deviation of a game's score (per pair: ``sqrt(2 var)``), and the t-value
  statistic of ``LLRcalc.LLR_normalized``.

Honest on few games.  Every interval printed covers the truth in at least
about 95 % of simulated samples from 1 pair on (``tests/test_coverage.py``):
the match's interval (of logistic Elo; normalized Elo is given without
one) is a likelihood-ratio interval, not fishtest's normal approximation (which covers 0 % at 1 pair); the ratings' interval is the
union of the bootstrap interval and the profile-likelihood interval of the
joint fit (the bootstrap alone gives ``[x, x]`` when every game of a pair of
bots ended alike).  The likelihood of superiority rests on a normal
approximation (fishtest's) or on the bootstrap: it is given only from
``LOS_MIN_PAIRS`` pairs on, and None before.
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
#: Normalized Elo per unit of t-value (fishtest's ``nelo_divided_by_nt``).
NELO_PER_T = 800 / math.log(10)
#: The Elo models a match can be tested and shown in.
MODELS = ("logistic", "normalized")
#: Pairs (of seat-swapped games) from which a likelihood of superiority is given.
LOS_MIN_PAIRS = 20
#: The likelihood-ratio interval searches a per-game score in [SEARCH, 1 - SEARCH];
#: a bound at the edge means that no pair played rules it out.
SEARCH = 1e-4
#: The largest normalized Elo an SPRT bound may name: fishtest's t-value fit
#: (``mle_t_value``) starts from the uniform distribution and finds none beyond t = 1.
NELO_LIMIT = 200.0


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
    """A logistic Elo difference with its interval, the normalized Elo, the
    raw mean score per game, and the likelihood of superiority (the
    probability that the difference is > 0; None below LOS_MIN_PAIRS pairs)."""

    elo: float
    low: float
    high: float
    score: float
    los: float | None
    nelo: float


def check_pentanomial(counts: Sequence[float]) -> None:
    """Raise ValueError unless ``counts`` is five counts, none negative."""
    if len(counts) != 5 or any(c < 0 for c in counts):
        raise ValueError(f"pentanomial counts must be five numbers >= 0, got {list(counts)!r}")


def _regularized(counts: Sequence[float]) -> list[float]:
    check_pentanomial(counts)
    return [c if c > 0 else ZERO_COUNT for c in counts]


#: The per-game score of each pentanomial outcome.
VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)


def _pdf(counts: Sequence[float]) -> tuple[float, list[float], float, float]:
    """fishtest's ``results_to_pdf`` and ``stats``: the regularised number of
    pairs, the empirical distribution on VALUES, its mean and its variance."""
    n = _regularized(counts)
    total = sum(n)
    probs = [c / total for c in n]
    mu = sum(p * v for p, v in zip(probs, VALUES))
    return total, probs, mu, sum(p * (v - mu) ** 2 for p, v in zip(probs, VALUES))


def normalized_elo(mu: float, var: float) -> float:
    """fishtest's normalized Elo of a per-game mean ``mu`` whose pairs have
    variance ``var``: ``(mu - 1/2) / sqrt(2 var) * 800 / ln 10``."""
    return (mu - 0.5) / math.sqrt(2 * var) * NELO_PER_T


def pentanomial_elo(counts: Sequence[float], confidence: float = 0.95) -> EloEstimate | None:
    """The first player's Elo from pentanomial counts (None without any pair).

    The estimates and the LOS are fishtest's ``get_elo``: with zero counts
    replaced by 0.001, the per-game mean ``mu`` and per-pair variance ``var``,
    Elo ``elo(mu)``, normalized Elo ``normalized_elo(mu, var)``, and
    ``LOS = Phi((mu - 1/2) / se)``, ``se = sqrt(var / N)``; the LOS only from
    LOS_MIN_PAIRS pairs on.  The interval is the likelihood-ratio interval of
    the logistic Elo (``likelihood_interval``); normalized Elo gets none: its
    denominator, the standard deviation, is itself so uncertain on few pairs
    that no interval tried held the truth 90 % of the time (73 % at 100
    pairs, mapping the score's interval at the sample's deviation).
    ``score`` is the raw mean score per game."""
    check_pentanomial(counts)
    pairs = sum(counts)
    if pairs == 0:
        return None
    _, _, mu, var = _pdf(counts)
    los = NormalDist().cdf((mu - 0.5) / math.sqrt(var / sum(_regularized(counts))))
    low, high = likelihood_interval(counts, confidence)
    raw = sum(c * v for c, v in zip(counts, VALUES)) / pairs
    return EloEstimate(elo_of_score(mu), low, high, raw, los if pairs >= LOS_MIN_PAIRS else None,
                       normalized_elo(mu, var))


def likelihood_interval(counts: Sequence[float], confidence: float = 0.95) -> tuple[float, float]:
    """The Elo values that the likelihood-ratio test at level ``1 - confidence``
    does not reject: with fishtest's regularised distribution ``p`` of N pairs
    and ``q_s`` the maximum-likelihood distribution with mean score ``s``
    (``mle_with_mean``, as in the GSPRT), every s with
    ``2 N sum p ln(p / q_s) <= chi2_1(confidence)``, as logistic Elo (capped
    at +-1199.8 by the clamp of ``elo_of_score``).  It stays honest at any number of pairs (one
    won pair: about -300 to the cap), where the normal approximation gives an
    interval that never holds the truth."""
    import scipy.optimize

    total, probs, mu, _ = _pdf(counts)
    limit = _z(confidence) ** 2 / 2

    def excess(s: float) -> float:
        return total * sum(p * math.log(p / q) for p, q in zip(probs, mle_with_mean(VALUES, probs, s))) - limit

    centre = min(max(mu, SEARCH), 1 - SEARCH)
    bounds = []
    for edge in (SEARCH, 1 - SEARCH):
        if edge == centre or excess(edge) <= 0:
            bounds.append(edge)  # no pair played rules out a score this extreme
        else:
            bounds.append(scipy.optimize.brentq(excess, *sorted((centre, edge)), xtol=1e-10))
    return elo_of_score(bounds[0]), elo_of_score(bounds[1])


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


def mle_t_value(values: Sequence[float], probs: Sequence[float], ref: float, t: float) -> list[float]:
    """The distribution on ``values`` closest in likelihood to ``probs`` among
    those with t-value ``(mean - ref) / sd = t`` (fishtest's ``MLE_t_value``,
    "normalized_elo_practical.pdf" section 4.1): from the uniform
    distribution, repeatedly the ``mle_with_mean``-like solution of the
    secular equation with ``a_i = v_i - ref - t sd (1 + ((mu - v_i) / sd)^2) / 2``
    for the current mean ``mu`` and ``sd``, until it stops moving."""
    import scipy.optimize

    q = [1 / len(values)] * len(values)
    for _ in range(100):
        mu = sum(p * v for p, v in zip(q, values))
        sd = math.sqrt(sum(p * (v - mu) ** 2 for p, v in zip(q, values)))
        dev = [v - ref - t * sd * (1 + ((mu - v) / sd) ** 2) / 2 for v in values]
        if not min(dev) < 0 < max(dev):
            raise ValueError(f"no distribution on {list(values)} has the t-value {t!r}")

        def secular(x: float, dev: list[float] = dev) -> float:
            return sum(p * d / (1 + x * d) for p, d in zip(probs, dev))

        eps = 1e-9
        x = scipy.optimize.brentq(secular, -1 / max(dev) + eps, -1 / min(dev) - eps)
        new = [p / (1 + x * d) for p, d in zip(probs, dev)]
        moved = max(abs(a - b) for a, b in zip(new, q))
        q = new
        if moved < 1e-12:
            break
    return q


def llr_normalized(counts: Sequence[float], nelo0: float, nelo1: float) -> float:
    """fishtest's ``LLR_normalized`` for pentanomial counts: as
    ``llr_pentanomial`` with the statistic "t_value", the hypotheses being
    normalized Elo ``nelo0`` and ``nelo1``, i.e. t-values
    ``sqrt 2 nelo / (800 / ln 10)`` of the per-pair score about 1/2."""
    if sum(counts) == 0:
        check_pentanomial(counts)
        return 0.0
    total, probs, _, _ = _pdf(counts)
    q0, q1 = (mle_t_value(VALUES, probs, 0.5, math.sqrt(2) * e / NELO_PER_T) for e in (nelo0, nelo1))
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, q0, q1))


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
    H1: Elo = elo1 (logistic Elo, or normalized Elo with ``model="normalized"``), with error rates alpha (accepting H1 when
    H0 holds) and beta (accepting H0 when H1 holds).  Wald's bounds on the
    LLR: ``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``.  (fishtest
    also corrects the bounds for overshoot; this does not, so it errs on the
    side of playing slightly longer.)"""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, got {self.model!r}")
        if self.model == "normalized" and max(abs(self.elo0), abs(self.elo1)) > NELO_LIMIT:
            raise ValueError(f"normalized Elo bounds must lie within +-{NELO_LIMIT:g} (fishtest's t-value "
                             f"fit reaches no further), got elo0={self.elo0:g} elo1={self.elo1:g}")
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
        if self.model == "normalized":
            return llr_normalized(counts, self.elo0, self.elo1)
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
    over the player ranked next (None for the last, and below LOS_MIN_PAIRS clusters)."""

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


def _log_likelihood(r: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``sum_ij s_ij ln p_ij`` of ratings ``r`` (leading axes: batches)."""
    import numpy as np

    return (s * -np.logaddexp(0, -ELO_SCALE * (r[..., :, None] - r[..., None, :]))).sum(axis=(-1, -2))


def _fit_with_one_fixed(r: np.ndarray, s: np.ndarray, g: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """``fit_elo``'s Newton method for a batch of starts ``r`` (feasible: mean 0),
    each with the rating of player ``fixed[b]`` held where it is: the others
    move with their sum kept (a Newton step projected onto that subspace)."""
    import numpy as np

    n = r.shape[-1]
    free = 1 - np.eye(n)[fixed]
    eye = np.eye(n)
    proj = free[:, :, None] * eye - free[:, :, None] * free[:, None, :] / (n - 1)
    anchor = free[:, :, None] * free[:, None, :] / (n - 1) + eye * (1 - free)[:, None, :]
    for _ in range(100):
        p = 1 / (1 + np.exp(-ELO_SCALE * (r[..., :, None] - r[..., None, :])))
        grad = ELO_SCALE * (s - g * p).sum(axis=-1)
        w = ELO_SCALE**2 * g * p * (1 - p)
        hessian = eye * w.sum(axis=-1)[..., None] - w
        step = np.linalg.solve(proj @ hessian @ proj + anchor, proj @ grad[..., None])[..., 0]
        step = np.clip(step, -200, 200)
        r = r + step
        if np.abs(step).max() < 1e-6:
            break
    return r


def profile_intervals(scores: np.ndarray, games: np.ndarray, confidence: float = 0.95,
                      prior: float = PRIOR_DRAWS) -> tuple[np.ndarray, np.ndarray]:
    """Each player's profile-likelihood interval (``fit_elo``'s likelihood,
    virtual draws included): the ratings r_k (mean 0) at which the likelihood,
    maximised over the other ratings, is within ``chi2_1(confidence) / 2`` of
    its maximum; found by bisection, every player and side at once.  Unlike a
    bootstrap it does not collapse when every game of a pair ended alike (two
    won games: about -330 to +140 from the mean for the loser)."""
    import numpy as np

    n = scores.shape[-1]
    off = 1 - np.eye(n)
    s, g = scores + prior / 2 * off, games + prior * off
    best = fit_elo(scores, games, prior)
    top = _log_likelihood(best, s)
    drop = _z(confidence) ** 2 / 2
    k = np.tile(np.arange(n), 2)  # the player of each problem: first every lower bound, then every upper
    sign = np.repeat([-1.0, 1.0], n)
    rows = np.arange(2 * n)
    near, far = np.zeros(2 * n), np.full(2 * n, 4000.0)  # distance from the estimate: inside, outside
    for _ in range(32):  # 4000 / 2^32: far below a printed digit
        mid = (near + far) / 2
        at = best[k] + sign * mid
        r = np.tile(best, (2 * n, 1)) + ((best[k] - at) / (n - 1))[:, None]
        r[rows, k] = at
        inside = top - _log_likelihood(_fit_with_one_fixed(r, s, g, k), s) <= drop
        near, far = np.where(inside, mid, near), np.where(inside, far, mid)
    return best - near[:n], best + near[n:]


def rate(n: int, clusters: Sequence[Cluster], *, confidence: float = 0.95, replicates: int = REPLICATES,
         seed: int = 1, prior: float = PRIOR_DRAWS) -> list[Rating]:
    """Ratings of players 0..n-1 from their clusters of games: the joint fit
    (``fit_elo``); as interval, the union of a percentile interval from
    ``replicates`` bootstrap resamplings of whole clusters within each pair of
    players (it counts how the games of a board go together) and the
    profile-likelihood interval (``profile_intervals``: it stays honest when
    there are too few clusters to resample); and the likelihood of
    superiority of each player over the next one in rating order: the share
    of replicates in which it rates higher (ties count half), given only when
    both have played LOS_MIN_PAIRS clusters.  Seeded, so the same clusters in
    the same order give the same figures.  ``prior``: the virtual draws added
    to every pair of players (a sparse field, as a ladder's, wants fewer)."""
    import numpy as np

    scores, games = _tables(n, clusters)
    elo = fit_elo(scores, games, prior)
    rng = np.random.default_rng(seed)
    boot = np.concatenate([fit_elo(*_resample(n, clusters, min(CHUNK, replicates - start), rng), prior)
                           for start in range(0, replicates, CHUNK)])
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
    if n > 1:
        plow, phigh = profile_intervals(scores, games, confidence, prior)
        low, high = np.minimum(low, plow), np.maximum(high, phigh)
    played = [0] * n
    for c in clusters:
        played[c.i] += c.count
        played[c.j] += c.count
    order = sorted(range(n), key=lambda k: -elo[k])
    los: dict[int, float | None] = {order[-1]: None}
    for a, b in itertools.pairwise(order):
        share = float(np.mean(boot[:, a] > boot[:, b]) + 0.5 * np.mean(boot[:, a] == boot[:, b]))
        los[a] = share if min(played[a], played[b]) >= LOS_MIN_PAIRS else None
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

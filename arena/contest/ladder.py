"""The ladder's ratings and matchmaking: pure functions of the games played (no Django, no I/O), so
that the runner, the tests and ``benchmarks/bench_ladder.py`` run the same code.

An *entry* is a submission's number; a ``Game`` is one ladder game between two entries.  The runner
plays a board twice with the seats swapped (a *pair*): the unit of the arena's rating fit.

**Ratings** are the arena's joint Elo fit (``arena.stats.rate``, as ``arena show`` computes them: one
fit of every game at once, with its 95 % interval), of the games between the current entries only:
a replaced entry's games leave the fit (they stay in the history).  Each pair is one cluster, and the
clusters are sorted before the fit, so the figures never depend on the order in which games ended.
The fit's virtual draws (its prior) are ``PRIOR`` per entry in all, spread over its possible
opponents: the tables' one draw per pair of bots would, among 200 entries that each meet a few,
outweigh the games themselves.

**Matchmaking** (``plan``) picks, again and again, the entry that needs a game most, then the
opponent against whom a game tells the most:

- *need*: an entry that has not played yet comes first; then the entry's working uncertainty over
  that of its neighbours in the table (a new entry's is wide, so it plays most, until it is as narrow
  as theirs), plus how long it has waited;
- *opponent*: the expected information of the game, largest for close ratings and wide intervals;
  opponents on the side (above or below) it has met less lately are preferred, so that it meets both
  sides of a gap; a pair that played recently is not played again while others wait, and pairs that
  met often count for less; and one pick in ``FAR`` is an opponent drawn at random anywhere in the
  table, so that distant parts of it stay connected.

The working uncertainty is the curvature of the same fit (``estimates``: the information the games
carry about an entry), cheap enough to compute before every pick; the standings shown are ``rate``'s.

**Pausing**: an entry whose bot faulted in each of its last ``pause_after`` games is paused
(``paused``): it plays no more until its author submits another.

**After the deadline** no entry changes, and the ladder plays on until its standings are settled
(``unsettled``): every entry that plays is rated as surely as its neighbours in the table (its
interval at most ``AS_SURE`` times as wide as theirs, so that a late submission is not left with a
wide one), and the places the organiser cares about are separated (the intervals of places k and
k + 1 do not overlap, for each k up to that many places); or until a stated number of games.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena import stats

#: Virtual draws per entry in the fit, spread evenly over its possible opponents.
PRIOR = 2.0
#: The share of picks whose opponent is drawn at random from the whole table.
FAR = 0.1
#: Neighbours above and below an entry whose uncertainty its own is measured against.
NEIGHBOURS = 2
#: An entry's last opponents whose side (above or below it) decides which side it meets next.
SIDES = 4
#: After the deadline: how many times as wide as its neighbours' an entry's interval may be, settled.
AS_SURE = 1.5


@dataclass(frozen=True)
class Game:
    """One ladder game as the ratings and the matchmaking read it."""

    pair: int  # the number of its pair (one board, both seats); pairs are numbered as they are played
    first: int  # the entry in the first seat
    second: int  # the entry in the second seat
    score: float  # the first seat's score: 1 a win, 1/2 a draw, 0 a loss
    board: str = ""
    fault: int | None = None  # the entry whose bot faulted (and so lost the game), if one did
    verdict: str = ""  # that fault's verdict (time-limit, crash, ...)


@dataclass(frozen=True)
class Standing:
    """An entry's line in the standings (``rate``'s figures)."""

    entry: int
    elo: float
    low: float
    high: float
    games: int
    los_next: float | None  # the likelihood that it is stronger than the entry ranked next


@dataclass(frozen=True)
class Estimate:
    """An entry's working rating for the matchmaking: the fit's Elo, and its standard error from the
    fit's curvature (the information its games carry)."""

    elo: float
    sd: float
    games: int


@dataclass(frozen=True)
class Pairing:
    """A pair to play: ``board`` with ``first`` in the first seat, then with the seats swapped."""

    first: int
    second: int
    board: str


def _prior(count: int) -> float:
    return PRIOR / max(1, count - 1)


def _current(entries: Iterable[int], games: Iterable[Game]) -> tuple[list[int], list[Game]]:
    keys = sorted(set(entries))
    known = set(keys)
    return keys, [game for game in games if game.first in known and game.second in known]


def clusters(entries: Sequence[int], games: Iterable[Game]) -> list[stats.Cluster]:
    """The fit's clusters: each pair's games between two of ``entries`` (indices into them), sorted."""
    index = {entry: k for k, entry in enumerate(entries)}
    grouped: dict[tuple[int, int, int], list[float]] = defaultdict(list)  # (pair, i, j) -> i's scores
    for game in games:
        i, j = index.get(game.first), index.get(game.second)
        if i is None or j is None or i == j:
            continue
        if i < j:
            grouped[game.pair, i, j].append(game.score)
        else:
            grouped[game.pair, j, i].append(1 - game.score)
    kinds = Counter((i, j, sum(scores), len(scores)) for (_, i, j), scores in grouped.items())
    return [stats.Cluster(i, j, score, length, count)
            for (i, j, score, length), count in sorted(kinds.items())]


def standings(entries: Iterable[int], games: Iterable[Game], *, replicates: int = stats.REPLICATES
              ) -> list[Standing]:
    """The standings of the entries that have played a game against another of ``entries``: the
    arena's joint fit of those games, best first."""
    keys, kept = _current(entries, games)
    played = Counter()
    for game in kept:
        played[game.first] += 1
        played[game.second] += 1
    rated = [key for key in keys if played[key]]
    if len(rated) < 2:
        return []
    found = clusters(rated, kept)
    ratings = stats.rate(len(rated), found, replicates=replicates, prior=_prior(len(rated)))
    lines = [Standing(key, r.elo, r.low, r.high, played[key], r.los_next) for key, r in zip(rated, ratings)]
    return sorted(lines, key=lambda line: (-line.elo, line.entry))


def estimates(entries: Iterable[int], games: Iterable[Game]) -> dict[int, Estimate]:
    """Every entry's working rating: ``stats.fit_elo`` of the games between ``entries`` (an entry
    without a game sits at the mean), its standard error ``1 / sqrt(I)`` with ``I`` the fit's
    information about it, ``c^2 sum_j g_ij p_ij (1 - p_ij)`` (virtual draws included)."""
    import numpy as np

    keys, kept = _current(entries, games)
    n = len(keys)
    if n == 0:
        return {}
    found = clusters(keys, kept)
    scores, played = stats._tables(n, found)
    prior = _prior(n)
    elo = stats.fit_elo(scores, played, prior) if n > 1 else np.zeros(1)
    p = 1 / (1 + np.exp(-stats.ELO_SCALE * (elo[:, None] - elo[None, :])))
    weights = (played + prior * (1 - np.eye(n))) * p * (1 - p)
    information = stats.ELO_SCALE**2 * weights.sum(axis=1)
    sd = 1 / np.sqrt(np.maximum(information, 1e-12))
    games_of = played.sum(axis=1)
    return {key: Estimate(float(elo[k]), float(sd[k]), int(games_of[k])) for k, key in enumerate(keys)}


def paused(games: Sequence[Game], after: int) -> dict[int, list[str]]:
    """The entries whose bot faulted in each of their last ``after`` games (they are paused), with
    those games' verdicts; ``games`` in the order they were played."""
    last: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        for entry in (game.first, game.second):
            last[entry].append(game)
            if len(last[entry]) > after:
                del last[entry][0]
    return {entry: [game.verdict or "fault" for game in mine] for entry, mine in last.items()
            if len(mine) == after and all(game.fault == entry for game in mine)}


def unsettled(lines: Sequence[Mapping[str, Any]], places: int) -> str:
    """Why the standings ``lines`` (a snapshot's: best first, then those not rated, elo None) are not
    settled yet, in words; "" once they are.  Paused entries play no more, so that no game could settle
    them: they are left out (the places counted are those of the entries that play)."""
    waiting = [line["entry"] for line in lines if line["elo"] is None and not line["paused"]]
    if waiting:
        return f"entry #{waiting[0]} has no rating yet" + (f" (and {len(waiting) - 1} more)" if len(waiting) > 1
                                                            else "")
    rated = [line for line in lines if line["elo"] is not None]
    widths = [line["high"] - line["low"] for line in rated]
    for at, line in enumerate(rated):
        near = sorted(widths[k] for k in range(max(0, at - NEIGHBOURS), min(len(rated), at + NEIGHBOURS + 1))
                      if k != at and not rated[k]["paused"])
        if line["paused"] or not near:
            continue
        reference = near[len(near) // 2]
        if widths[at] > AS_SURE * reference:
            return (f"entry #{line['entry']} is rated less surely than its neighbours (its interval is "
                    f"{widths[at]:.0f} Elo wide, theirs {reference:.0f})")
    playing = [line for line in rated if not line["paused"]]
    for k in range(min(places, len(playing) - 1)):
        if playing[k]["low"] <= playing[k + 1]["high"]:
            return f"places {k + 1} and {k + 2} are not separated yet (their intervals overlap)"
    return ""


def plan(entries: Sequence[int], games: Sequence[Game], boards: Sequence[str], count: int,
         rng: random.Random) -> list[Pairing]:
    """Up to ``count`` pairs to play next among ``entries`` (those not paused), each entry in one at
    most; ``games``: the ladder's games so far, in the order they were played."""
    keys, kept = _current(entries, games)
    if len(keys) < 2 or not boards:
        return []
    known = estimates(keys, kept)
    history = _History(keys, kept)
    needs = history.needs(known)
    chosen: list[Pairing] = []
    busy: set[int] = set()
    for _ in range(count):
        free = [key for key in keys if key not in busy]
        if len(free) < 2:
            break
        entry = max(free, key=lambda key: (needs[key], rng.random()))
        opponent = _opponent(entry, [key for key in free if key != entry], known, history, rng)
        board = min(boards, key=lambda name: (history.boards[frozenset((entry, opponent))][name],
                                              history.board_use[entry][name] + history.board_use[opponent][name],
                                              rng.random()))
        chosen.append(Pairing(*((entry, opponent) if rng.random() < 0.5 else (opponent, entry)), board))
        busy.update((entry, opponent))
    return chosen


class _History:
    """What the matchmaking reads of the games played: who met whom, how often and how lately."""

    def __init__(self, keys: list[int], games: Sequence[Game]):
        self.keys = keys
        self.met: Counter = Counter()  # frozenset pair -> games
        self.boards: dict[frozenset, Counter] = defaultdict(Counter)  # pair -> board -> games
        self.board_use: dict[int, Counter] = defaultdict(Counter)  # entry -> board -> games
        self.last: dict[int, int] = {}  # entry -> the number of its last pair
        self.opponents: dict[int, list[int]] = defaultdict(list)  # entry -> its opponents, latest last
        pairs: list[frozenset] = []
        for game in games:
            both = frozenset((game.first, game.second))
            self.met[both] += 1
            self.boards[both][game.board] += 1
            for entry, other in ((game.first, game.second), (game.second, game.first)):
                self.board_use[entry][game.board] += 1
                if self.last.get(entry) != game.pair:
                    self.opponents[entry].append(other)
                self.last[entry] = game.pair
            if not pairs or pairs[-1] != both:
                pairs.append(both)
        self.now = max(self.last.values(), default=0)
        # a pair played within the last half-round of pairs waits while others can play
        self.recent = set(pairs[-max(1, len(keys) // 2):])

    def needs(self, known: dict[int, Estimate]) -> dict[int, float]:
        """How much each entry needs a game: its uncertainty over the median of its neighbours' in the
        table (those that have played), plus how many pairs it has waited, per half the entries; an
        entry that has not played yet needs it most."""
        ranked = sorted(self.keys, key=lambda key: (known[key].elo, key))
        found = {}
        for at, entry in enumerate(ranked):
            near = sorted(known[key].sd for key in ranked[max(0, at - NEIGHBOURS):at + NEIGHBOURS + 1]
                          if key != entry and known[key].games)
            reference = near[len(near) // 2] if near else known[entry].sd
            if entry not in self.last:
                found[entry] = math.inf  # (its first game comes before anyone's next one)
                continue
            waited = self.now - self.last[entry]
            found[entry] = known[entry].sd / reference + waited / max(1, len(self.keys) / 2)
        return found

    def side(self, entry: int, known: dict[int, Estimate]) -> int:
        """+1 if ``entry`` met more opponents above it than below lately, -1 if fewer, else 0."""
        mine = known[entry].elo
        lately = [other for other in self.opponents[entry][-SIDES:] if other in known]
        balance = sum(1 if known[other].elo > mine else -1 for other in lately)
        return (balance > 0) - (balance < 0)


def _opponent(entry: int, others: list[int], known: dict[int, Estimate], history: _History,
              rng: random.Random) -> int:
    """The opponent of ``entry`` against whom a game tells the most (now and then one at random)."""
    fresh = [other for other in others if frozenset((entry, other)) not in history.recent] or others
    if rng.random() < FAR:
        return rng.choice(fresh)
    side = history.side(entry, known)
    mine = known[entry]

    def value(other: int) -> tuple[float, float]:
        theirs = known[other]
        variance = mine.sd**2 + theirs.sd**2
        # the expected score, averaged over both ratings' uncertainty (MacKay's probit approximation)
        spread = math.sqrt(1 + math.pi * stats.ELO_SCALE**2 * variance / 8)
        p = 1 / (1 + math.exp(-stats.ELO_SCALE * (mine.elo - theirs.elo) / spread))
        worth = p * (1 - p) * variance / (1 + history.met[frozenset((entry, other))] / 2)
        if side and (theirs.elo > mine.elo) == (side > 0):
            worth /= 2  # the side it met more lately
        return worth, rng.random()

    return max(fresh, key=value)

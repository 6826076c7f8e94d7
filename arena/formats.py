"""Tournament formats as schedulers: round-robin, gauntlet, Swiss and knockout.

A format (``System``) is given the bots (in seeding order), the boards and the
games recorded so far (``Results``), and yields the rounds to play one after
another (``System.rounds``): a round is who meets whom (``Round.pairs``); each
pair plays every board twice, once in each seat order.  A round is yielded
only once every game of the round before it is recorded, and its pairing is a
pure function of those records and the seeding: lists in seeding order, never
the order of a set or dict of strings (Python's hash seed differs from process
to process) or the order in which games ended.  So a resumed tournament pairs
exactly as an uninterrupted one, and ``arena show`` and the report rebuild the
rounds (or the bracket) from the records alone.

Nothing here starts a process: the pool, the cluster, the records and the
tables are the same for every format (``arena.tournament.run`` plays the rounds).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.errors import ArenaError
from arena.store import Summary

#: The formats ``arena run --system`` knows.
SYSTEMS = ("round-robin", "gauntlet", "swiss", "knockout")
#: Bots of the ranking paired together at most (score groups larger are cut): the maximum-weight
#: matching is cubic in its bots, so a round of 1000 bots is paired block by block.
BLOCK = 48

Pair = tuple[str, str]


@dataclass(frozen=True)
class Round:
    """One round: its number (from 1), the pairs that meet (None: every pair, the
    round-robin), the bots that sit out with a bye, and a label ("final")."""

    number: int
    pairs: tuple[Pair, ...] | None
    byes: tuple[str, ...] = ()
    label: str = ""
    last: bool = False  # the format's last round (nothing is paired after it)

    def title(self) -> str:
        return self.label or f"round {self.number}"


@dataclass(frozen=True)
class Match:
    """What a pair's games in one round added up to, from the first bot's side and the second's."""

    a: str
    b: str
    points: tuple[float, float]  # game points (win 3, draw 1.5)
    faults: tuple[int, int]
    games: int

    def score(self, bot: str) -> float:
        """The match result for ``bot``: 1 won (more game points), 1/2 drawn, 0 lost."""
        mine, theirs = self.points if bot == self.a else self.points[::-1]
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    def opponent(self, bot: str) -> str:
        return self.b if bot == self.a else self.a


class Results:
    """The games recorded so far, by id (game records or their summaries)."""

    def __init__(self, records: Iterable[dict[str, Any] | Summary] = ()):
        self.games: dict[str, Summary] = {}
        for record in records:
            self.add(record)

    def add(self, record: dict[str, Any] | Summary) -> None:
        game = Summary.of(record)
        self.games[game.id or "|".join([game.board.name, *game.seats])] = game

    def __len__(self) -> int:
        return len(self.games)

    def match(self, a: str, b: str, boards: Sequence[str]) -> Match | None:
        """The games of ``a`` and ``b`` on ``boards`` in both seat orders, or None while one is missing."""
        points, faults = [0.0, 0.0], [0, 0]
        for board in boards:
            for seats in ((a, b), (b, a)):
                game = self.games.get("|".join((board, *seats)))
                if game is None:
                    return None
                for seat, bot in enumerate(seats):
                    side = 0 if bot == a else 1
                    points[side] += game.points[seat] if game.points else 0.0
                    if game.fault and game.fault.seat == seat:
                        faults[side] += 1
        return Match(a, b, (points[0], points[1]), (faults[0], faults[1]), 2 * len(boards))


# ------------------------------------------------------------------ the formats


class System:
    """A tournament format: what it records in ``tournament.json`` and the rounds it plays."""

    name = ""
    #: Whether a round's pairing depends on earlier results (then a resume reads the records' outcomes,
    #: not only their ids).
    paired = False

    def config(self) -> dict[str, Any]:
        return {"name": self.name}

    def rounds(self, bots: Sequence[str], boards: Sequence[str], results: Results) -> Iterator[Round]:
        raise NotImplementedError

    def games(self, bots: int, boards: int) -> int:
        """How many games it plays (at most)."""
        raise NotImplementedError

    def played(self, bots: Sequence[str], boards: Sequence[str], results: Results) -> list[tuple[Round, list[Match]]]:
        """The rounds as far as the records go, each with its matches (the last may lack some)."""
        found: list[tuple[Round, list[Match]]] = []
        for round_ in self.rounds(bots, boards, results):
            pairs = round_.pairs or ()
            found.append((round_, [m for a, b in pairs if (m := results.match(a, b, boards)) is not None]))
        return found


def round_robin_games(bots: int, boards: int) -> int:
    return bots * (bots - 1) * boards


@dataclass(frozen=True)
class RoundRobin(System):
    """Every pair of bots on every board (the one round is ``Round(1, None)``: ``arena.tournament.Schedule``
    holds it as numbers, however many games)."""

    name = "round-robin"

    def rounds(self, bots: Sequence[str], boards: Sequence[str], results: Results) -> Iterator[Round]:
        yield Round(1, None)

    def games(self, bots: int, boards: int) -> int:
        return round_robin_games(bots, boards)


ROUND_ROBIN = RoundRobin()


@dataclass(frozen=True)
class Gauntlet(System):
    """The challengers play every other bot (each other too); the rest of the field does not play itself."""

    challengers: tuple[str, ...]
    name = "gauntlet"

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "challengers": list(self.challengers)}

    def rounds(self, bots: Sequence[str], boards: Sequence[str], results: Results) -> Iterator[Round]:
        chosen = set(self.challengers)
        yield Round(1, tuple((a, b) for a, b in itertools.combinations(bots, 2) if a in chosen or b in chosen))

    def games(self, bots: int, boards: int) -> int:
        c = len(self.challengers)
        return (c * (bots - c) + c * (c - 1) // 2) * 2 * boards


def default_rounds(bots: int) -> int:
    """What separates a field: ceil(log2(bots)) + 2 rounds, at most ``most_rounds``."""
    return min(most_rounds(bots), math.ceil(math.log2(max(bots, 2))) + 2)


def most_rounds(bots: int) -> int:
    """Rounds a Swiss can have without two bots meeting twice: bots - 1 (an odd field: bots, each with one bye)."""
    return bots if bots % 2 else bots - 1


@dataclass(frozen=True)
class Swiss(System):
    """``count`` rounds; each pairs bots of equal or near match points that have not met (``pair_swiss``).
    A match (a pair's games of one round) is won by more game points: 1, drawn 1/2, lost 0; a bye is 1."""

    count: int
    seeding: str = "given"  # where the seeds (the bots' order) came from, in words
    name = "swiss"
    paired = True

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "rounds": self.count, "seeding": self.seeding}

    def games(self, bots: int, boards: int) -> int:
        return self.count * (bots // 2) * 2 * boards

    def rounds(self, bots: Sequence[str], boards: Sequence[str], results: Results) -> Iterator[Round]:
        table = Standings(bots)
        for number in range(1, self.count + 1):
            pairing = pair_swiss(table.ranked_for_pairing(), table.points, table.met, table.byes)
            if pairing is None:
                return  # every pairing left would be a rematch (``most_rounds`` prevents it for small fields)
            pairs, bye = pairing
            round_ = Round(number, pairs, (bye,) if bye else (), last=number == self.count)
            yield round_
            matches = [results.match(a, b, boards) for a, b in pairs]
            if any(m is None for m in matches):
                return  # not finished: the next round cannot be paired yet
            table.add(round_, matches)

    def standings(self, bots: Sequence[str], boards: Sequence[str], results: Results) -> Standings:
        """The standings after the last complete round."""
        table = Standings(bots)
        for round_, matches in self.played(bots, boards, results):
            if len(matches) == len(round_.pairs or ()):
                table.add(round_, matches)
        return table


@dataclass(frozen=True)
class Knockout(System):
    """Single elimination: the seeds (best first) in a bracket of the next power of two, the top seeds
    given the byes; seeds 1 and 2 can meet only in the final.  A tie is won by more game points over its
    games, then by fewer faults, then by the better seed (``tie_winner``)."""

    seeding: str = "given"  # where the seeds (the bots' order) came from, in words
    name = "knockout"
    paired = True

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "seeding": self.seeding}

    def games(self, bots: int, boards: int) -> int:
        return (bots - 1) * 2 * boards

    def rounds(self, bots: Sequence[str], boards: Sequence[str], results: Results) -> Iterator[Round]:
        seed = {bot: k for k, bot in enumerate(bots)}
        slots: list[str | None] = [bots[k] if k < len(bots) else None for k in bracket_order(len(bots))]
        number, total = 1, max(1, math.ceil(math.log2(max(len(bots), 2))))
        while len(slots) > 1:
            pairs = tuple((x, y) if seed[x] < seed[y] else (y, x)
                          for x, y in zip(slots[::2], slots[1::2]) if x is not None and y is not None)
            byes = tuple(x or y for x, y in zip(slots[::2], slots[1::2]) if (x is None) != (y is None))
            round_ = Round(number, pairs, byes, round_label(number, total), last=len(slots) == 2)
            yield round_
            winners: dict[str, str] = {}
            for a, b in pairs:
                match = results.match(a, b, boards)
                if match is None:
                    return
                winners[a] = winners[b] = tie_winner(match, seed)[0]
            slots = [winners.get(x, x) if x is not None else (winners.get(y, y) if y is not None else None)
                     for x, y in zip(slots[::2], slots[1::2])]
            number += 1

    def winner(self, bots: Sequence[str], boards: Sequence[str], results: Results) -> str | None:
        """The champion, once the final is played."""
        played = self.played(bots, boards, results)
        if not played:
            return None
        last, matches = played[-1]
        if len(bots) == 1:
            return bots[0]
        if last.label != "final" or len(matches) != 1:
            return None
        return tie_winner(matches[0], {bot: k for k, bot in enumerate(bots)})[0]


TIE_RULE = ("a tie is won by more game points over its games (win 3, draw 1.5); if they are level, by fewer "
            "faults in them; if those are level too, by the better seed")


def tie_winner(match: Match, seed: dict[str, int]) -> tuple[str, str]:
    """The winner of a knockout tie and how it was decided ("points", "faults" or "seed")."""
    (pa, pb), (fa, fb) = match.points, match.faults
    if pa != pb:
        return (match.a if pa > pb else match.b), "points"
    if fa != fb:
        return (match.a if fa < fb else match.b), "faults"
    return (match.a if seed[match.a] < seed[match.b] else match.b), "seed"


def round_label(number: int, total: int) -> str:
    left = total - number
    return {0: "final", 1: "semi-final", 2: "quarter-final"}.get(left, f"round {number}")


def bracket_order(bots: int) -> list[int]:
    """The seeds (from 0) in bracket order for a bracket of the next power of two: [0, 3, 1, 2] for 4,
    so that seed k meets seed size-1-k first, and the two best only in the final."""
    order = [0]
    while len(order) < bots:
        size = 2 * len(order)
        order = [s for seed in order for s in (seed, size - 1 - seed)]
    return order


def from_config(config: dict[str, Any]) -> System:
    """The format a tournament's configuration names (none: the round-robin)."""
    system = config.get("system") or {"name": "round-robin"}
    name = system.get("name")
    if name == "gauntlet":
        return Gauntlet(tuple(system["challengers"]))
    if name == "swiss":
        return Swiss(int(system["rounds"]), system.get("seeding", "given"))
    if name == "knockout":
        return Knockout(system.get("seeding", "given"))
    if name == "round-robin":
        return RoundRobin()
    raise ArenaError(f"unknown tournament system {name!r} in tournament.json (this arena knows {', '.join(SYSTEMS)})")


# ------------------------------------------------------------------ Swiss standings and pairing


@dataclass
class Standings:
    """A Swiss table after the complete rounds added (``add``): match points, game points, opponents."""

    bots: Sequence[str]
    points: dict[str, float] = field(default_factory=dict)  # match points
    game_points: dict[str, float] = field(default_factory=dict)
    met: dict[str, list[tuple[str, float]]] = field(default_factory=dict)  # (opponent, my match score)
    byes: dict[str, int] = field(default_factory=dict)
    rounds: int = 0

    def __post_init__(self) -> None:
        for bot in self.bots:
            self.points[bot], self.game_points[bot], self.met[bot], self.byes[bot] = 0.0, 0.0, [], 0
        self.seed = {bot: k for k, bot in enumerate(self.bots)}

    def add(self, round_: Round, matches: Iterable[Match]) -> None:
        for match in matches:
            for bot, mine in zip((match.a, match.b), match.points):
                score = match.score(bot)
                self.points[bot] += score
                self.game_points[bot] += mine
                self.met[bot].append((match.opponent(bot), score))
        for bot in round_.byes:
            self.points[bot] += 1.0
            self.byes[bot] += 1
        self.rounds += 1

    def ranked_for_pairing(self) -> list[str]:
        """By match points, then seed (as a Swiss pairs: not by the tie-breaks)."""
        return sorted(self.bots, key=lambda bot: (-self.points[bot], self.seed[bot]))

    def buchholz(self, bot: str) -> float:
        return sum(self.points[other] for other, _ in self.met[bot])

    def sonneborn_berger(self, bot: str) -> float:
        return sum(score * self.points[other] for other, score in self.met[bot])

    def ranked(self) -> list[tuple[str, tuple[float, ...]]]:
        """Bots best first with (match points, Buchholz, Sonneborn-Berger, direct encounter, game points)."""
        first = {bot: (self.points[bot], self.buchholz(bot), self.sonneborn_berger(bot)) for bot in self.bots}
        groups: dict[tuple[float, ...], list[str]] = {}
        for bot in self.bots:
            groups.setdefault(first[bot], []).append(bot)
        keys = {}
        for bot in self.bots:
            keys[bot] = (*first[bot], self.direct(bot, groups[first[bot]]), self.game_points[bot])
        order = sorted(self.bots, key=lambda bot: (tuple(-k for k in keys[bot]), self.seed[bot]))
        return [(bot, keys[bot]) for bot in order]

    def direct(self, bot: str, tied: list[str]) -> float:
        """Match points scored against the bots tied with it, when every two of them have met (else 0)."""
        if len(tied) < 2:
            return 0.0
        mine = [(other, score) for other, score in self.met[bot] if other in tied]
        if any(sum(1 for o, _ in self.met[a] if o in tied) < len(tied) - 1 for a in tied):
            return 0.0
        return sum(score for _, score in mine)


SWISS_RULE = ("Swiss: a match (a pairing's games of one round) is won by more game points: 1 match point, "
              "drawn 1/2, lost 0; a bye (an odd field: the lowest-ranked bot that has not had one) scores 1 and "
              "plays no game. Ranked by match points, then Buchholz (the sum of the opponents' match points), "
              "then Sonneborn-Berger (the match points of the opponents beaten, plus half those of the opponents "
              "drawn with), then direct encounter (the match points scored among the bots still tied, if every "
              "two of them met), then game points, then seed")


def pair_swiss(ranked: list[str], points: dict[str, float], met: dict[str, list[tuple[str, float]]],
               byes: dict[str, int]) -> tuple[tuple[Pair, ...], str | None] | None:
    """One Swiss round: pairs of bots that have not met, as near in match points as can be, and the
    bot with the bye (an odd field: the lowest-ranked that has not had one, and leaves a pairing
    possible).  ``ranked``: the bots by match points, then seed.  Score groups are paired top
    down, each by a maximum-weight matching of its bots (and those floated down to it), blocks of
    ``BLOCK`` at most; within a group the top half meets the bottom half (the Dutch system).  None if
    no pairing without a rematch exists."""
    opponents = {bot: {other for other, _ in met[bot]} for bot in ranked}
    candidates: list[str | None] = [None]
    if len(ranked) % 2:
        candidates = [bot for bot in reversed(ranked) if not byes.get(bot)] or list(reversed(ranked))
    for bye in candidates:
        field_ = [bot for bot in ranked if bot != bye]
        pairs = _pair_blocks(field_, points, opponents)
        if pairs is not None:
            return pairs, bye
    return None


def _pair_blocks(ranked: list[str], points: dict[str, float], opponents: dict[str, set[str]]
                 ) -> tuple[Pair, ...] | None:
    """Pair the ranked bots score group by score group (``_blocks``); when the bottom cannot be
    paired, the last two blocks are joined and paired again, up to the whole field."""
    blocks = _blocks(ranked, points)
    while True:
        pairs: list[Pair] = []
        carried: list[str] = []
        for block in blocks:
            matched, carried = _match(carried + block, points, opponents)
            pairs += matched
        if not carried:
            return tuple(pairs)
        if len(blocks) == 1:
            return None
        blocks = [*blocks[:-2], blocks[-2] + blocks[-1]]


def _blocks(ranked: list[str], points: dict[str, float]) -> list[list[str]]:
    """The score groups in ranking order, each cut into blocks of at most ``BLOCK`` (even sizes)."""
    blocks: list[list[str]] = []
    for _, group in itertools.groupby(ranked, key=lambda bot: points[bot]):
        members = list(group)
        parts = math.ceil(len(members) / BLOCK)
        size = math.ceil(len(members) / parts / 2) * 2
        blocks += [members[k:k + size] for k in range(0, len(members), size)]
    return blocks


def _match(members: list[str], points: dict[str, float], opponents: dict[str, set[str]]
           ) -> tuple[list[Pair], list[str]]:
    """Pair one block (its bots in ranking order) and return the pairs (better-ranked bot first) and
    the bots left to float down.  An odd block floats its lowest-ranked bot whose absence leaves
    the rest pairable; then a maximum-weight matching (``_matching``) pairs the rest."""
    if len(members) % 2:
        for k in reversed(range(len(members))):
            pairs, left = _matching(members[:k] + members[k + 1:], points, opponents)
            if not left:
                return pairs, [members[k]]
    return _matching(members, points, opponents)


def _matching(members: list[str], points: dict[str, float], opponents: dict[str, set[str]]
              ) -> tuple[list[Pair], list[str]]:
    """A maximum-weight matching of bots that have not met: the most pairs; then the smallest
    differences of match points; then the top half against the bottom half (the Dutch system)."""
    import networkx as nx

    size = len(members)
    if size < 2:
        return [], members
    half = size // 2
    dutch = size * size  # more than any difference of the Dutch term
    score = dutch * size  # more than any sum of them
    widest = round(2 * (points[members[0]] - min(points[m] for m in members))) ** 2 + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(size))
    for i, j in itertools.combinations(range(size), 2):
        a, b = members[i], members[j]
        if b in opponents[a]:
            continue
        gap = round(2 * abs(points[a] - points[b]))
        graph.add_edge(i, j, weight=score * (widest - gap * gap) + dutch - (abs(j - i) - half) ** 2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    paired = sorted(tuple(sorted(edge)) for edge in matching)
    taken = {k for edge in paired for k in edge}
    return [(members[i], members[j]) for i, j in paired], [m for k, m in enumerate(members) if k not in taken]

"""The ladder's ratings and matchmaking (``arena.contest.ladder``, no Django), and its configuration."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from arena import stats
from arena.contest import config, ladder
from arena.errors import ArenaError


def _play(strengths: dict[int, float], pairings, rng: random.Random, start: int,
          faulty: frozenset[int] = frozenset()) -> list[ladder.Game]:
    """Both games of each pairing, won as the Elo model says (a faulty entry loses by a crash)."""
    games = []
    for number, pairing in enumerate(pairings, start=start):
        for first, second in ((pairing.first, pairing.second), (pairing.second, pairing.first)):
            fault = first if first in faulty else second if second in faulty else None
            won = rng.random() < stats.score_of_elo(strengths[first] - strengths[second])
            score = (0.0 if fault == first else 1.0) if fault else float(won)
            games.append(ladder.Game(number, first, second, score, pairing.board, fault,
                                     "crash" if fault else ""))
    return games


def _round(strengths, games, rng, pairs, count=1, faulty=frozenset(), entries=None):
    for _ in range(pairs):
        chosen = ladder.plan(list(entries or strengths), games, ["b1", "b2"], count, rng)
        games += _play(strengths, chosen, rng, 1 + max((g.pair for g in games), default=0), faulty)
    return games


def test_the_standings_do_not_depend_on_the_order_games_ended_in():
    rng = random.Random(3)
    strengths = {k: 100.0 * k for k in range(1, 6)}
    games = _round(strengths, [], rng, 30)
    shuffled = games[:]
    random.Random(9).shuffle(shuffled)
    first = ladder.standings(strengths, games, replicates=50)
    assert first == ladder.standings(strengths, shuffled, replicates=50)
    assert [line.entry for line in first][:2] == [5, 4]
    assert all(line.low <= line.elo <= line.high for line in first)


def test_the_standings_are_the_arenas_joint_fit_of_current_entries_pairs():
    games = [ladder.Game(1, 1, 2, 1.0), ladder.Game(1, 2, 1, 0.0), ladder.Game(2, 1, 3, 0.5),
             ladder.Game(2, 3, 1, 1.0), ladder.Game(3, 9, 1, 1.0), ladder.Game(3, 1, 9, 0.0)]
    clusters = ladder.clusters([1, 2, 3], games)
    assert clusters == [stats.Cluster(0, 1, 2.0, 2), stats.Cluster(0, 2, 0.5, 2)]  # (entry 9 is replaced)
    lines = ladder.standings([1, 2, 3], games, replicates=20)
    expected = stats.rate(3, clusters, replicates=20, prior=ladder.PRIOR / 2)
    assert {line.entry: line.elo for line in lines} == {1: expected[0].elo, 2: expected[1].elo, 3: expected[2].elo}
    assert {line.entry: line.games for line in lines} == {1: 4, 2: 2, 3: 2}


def test_a_new_entry_plays_first_and_most_until_it_is_as_sure_as_its_neighbours():
    rng = random.Random(5)
    strengths = {k: 60.0 * k for k in range(12)}
    games = _round(strengths, [], rng, 60, count=3)
    strengths[99] = 330.0
    first = ladder.plan(list(strengths), games, ["b1"], 1, rng)[0]
    assert 99 in (first.first, first.second)
    settled = None
    for rounds in range(1, 60):
        games = _round(strengths, games, rng, 1, count=3)
        known = ladder.estimates(strengths, games)
        if known[99].sd <= max(known[k].sd for k in strengths if k != 99):
            settled = rounds
            break
    mine = [g for g in games if g.pair > 60 * 3 and 99 in (g.first, g.second)]
    assert settled and len(mine) >= 2 * 0.9 * settled  # (a pair in nearly every round: 6 entries of 13 play)
    before = len(games)
    later = _round(strengths, games, rng, 26, count=3)[before:]
    assert 0 < sum(99 in (g.first, g.second) for g in later) < len(later) / 3


def test_the_leader_meets_the_second_and_no_pair_plays_again_while_others_wait():
    rng = random.Random(7)
    strengths = {1: 1000.0, 2: 990.0, **{k: 100.0 + 10 * k for k in range(3, 10)}}
    games = _round(strengths, [], rng, 120)
    pairs = [frozenset((g.first, g.second)) for g in games[::2]]
    assert pairs.count(frozenset((1, 2))) >= 5
    for a, b in itertools.pairwise(pairs):
        assert a != b
    # (and the field stays connected: the leader also met entries far below)
    assert {other for pair in pairs if 1 in pair for other in pair} - {1, 2}


def test_an_entry_that_faults_in_each_of_its_last_games_is_paused():
    rng = random.Random(11)
    strengths = {k: 0.0 for k in range(1, 5)}
    games = _round(strengths, [], rng, 30, count=2, faulty=frozenset({4}))
    assert ladder.paused(games, 6) == {4: ["crash"] * 6}
    assert ladder.paused(games[:3], 6) == {}  # (too few games yet)


def test_the_ladder_configuration_is_read_and_checked(tmp_path: Path):
    data = {"game": "paint", "deadline": "2030-01-01T00:00:00+00:00"}
    assert config.parse(data, tmp_path, "contest.toml").ladder == config.Ladder()
    made = config.parse({**data, "ladder": {"enabled": True, "boards": ["boards/ladder"], "games": 4,
                                            "visible": False}}, tmp_path, "contest.toml")
    assert made.ladder.enabled and not made.ladder.visible and made.ladder.games == 4
    assert made.ladder_boards == [tmp_path / "boards/ladder"]
    for bad, words in (({"enabled": "yes"}, "ladder.enabled is 'yes'; expected true or false"),
                       ({"boards": ["../elsewhere"]}, "under the contest folder"),
                       ({"games": 0}, "ladder.games is 0"), ({"often": 1}, "unknown key ladder.often")):
        with pytest.raises(ArenaError, match=words):
            config.parse({**data, "ladder": bad}, tmp_path, "contest.toml")

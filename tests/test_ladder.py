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


def _line(entry: int, elo: float | None, width: float = 100.0, paused: bool = False) -> dict:
    half = None if elo is None else width / 2
    return {"entry": entry, "elo": elo, "low": None if elo is None else elo - half,
            "high": None if elo is None else elo + half, "games": 10, "los": None, "paused": ["crash"] if paused else []}


def test_after_the_deadline_the_standings_are_settled_when_the_places_are_separated_and_all_as_sure():
    apart = [_line(1, 300), _line(2, 150), _line(3, 0), _line(4, -150), _line(5, -190)]
    assert ladder.unsettled(apart, 3) == ""  # (places 4 and 5 overlap: not among the 3 that matter)
    assert "places 4 and 5 are not separated" in ladder.unsettled(apart, 4)
    close = [_line(1, 300), _line(2, 250), *apart[2:]]
    assert ladder.unsettled(close, 3) == "places 1 and 2 are not separated yet (their intervals overlap)"
    assert ladder.unsettled(close, 0) == ""
    # a late entry with a wide interval is not settled, however the places look
    late = [_line(1, 300), _line(2, 150), _line(9, 0, width=200), _line(4, -150), _line(5, -300)]
    assert ladder.unsettled(late, 1).startswith("entry #9 is rated less surely than its neighbours (its interval "
                                                "is 200 Elo wide, theirs 100)")
    assert ladder.unsettled([*apart, _line(7, None)], 3) == "entry #7 has no rating yet"
    # a paused entry plays no more: neither its interval nor its missing rating holds the ladder up
    assert ladder.unsettled([*apart[:2], _line(9, 0, width=400, paused=True), *apart[3:],
                             _line(8, None, paused=True)], 2) == ""


def test_after_the_deadline_the_ladder_plays_until_the_standings_are_settled():
    """The matchmaking and the fit together: a field whose top three are far apart settles; one of equal
    strengths never separates its places, so only the stated number of games stops it."""
    rng = random.Random(13)
    strengths = {1: 900.0, 2: 600.0, 3: 300.0, **{k: 0.0 for k in range(4, 9)}}

    def lines(games):  # (as a snapshot has them: the entries not rated yet after those rated)
        rated = [{"entry": line.entry, "elo": line.elo, "low": line.low, "high": line.high, "paused": []}
                 for line in ladder.standings(strengths, games, replicates=100)]
        return rated + [_line(entry, None) for entry in strengths if entry not in {line["entry"] for line in rated}]

    games, rounds = [], 0
    while ladder.unsettled(lines(games), 3) and rounds < 80:
        games = _round(strengths, games, rng, 5, count=4)
        rounds += 5
    assert 5 < rounds < 80 and [line["entry"] for line in lines(games)][:3] == [1, 2, 3], rounds
    equal = dict.fromkeys(range(1, 7), 0.0)
    games = _round(equal, [], rng, 40, count=3)
    assert "not separated" in ladder.unsettled(
        [{**line, "paused": []} for line in ({"entry": s.entry, "elo": s.elo, "low": s.low, "high": s.high}
                                             for s in ladder.standings(equal, games, replicates=100))], 3)


def test_the_settling_and_the_final_seeding_are_read_and_checked(tmp_path: Path):
    data = {"game": "paint", "deadline": "2030-01-01T00:00:00+00:00"}
    made = config.parse({**data, "ladder": {"enabled": True, "settle_places": 2, "settle_games": 0},
                         "final": {"system": "knockout", "seeding": "ladder"}}, tmp_path, "contest.toml")
    assert (made.ladder.settle_places, made.ladder.settle_games, made.final.seeding) == (2, 0, "ladder")
    whole = "expected a whole number of at least"
    for bad, words in (({"ladder": {"settle_games": -1}}, f"ladder.settle_games is -1; {whole} 0"),
                       ({"ladder": {"settle_places": 0}}, f"ladder.settle_places is 0; {whole} 1"),
                       ({"final": {"seeding": "elo"}}, "final.seeding is 'elo'; expected one of given, ladder"),
                       ({"ladder": {"enabled": True}, "final": {"seeding": "ladder"}},
                        "a round-robin final is not seeded"),
                       ({"final": {"system": "swiss", "seeding": "ladder"}}, "the ladder is off")):
        with pytest.raises(ArenaError, match=words):
            config.parse({**data, **bad}, tmp_path, "contest.toml")
    # (and the file a new contest gets says so, and reads back as the defaults)
    rendered = config.render("T", "paint", config.dt.datetime(2030, 1, 1, tzinfo=config.dt.UTC), "first-move",
                             "invite")
    assert "settle_games = 2000" in rendered and 'seeding = "given"' in rendered
    parsed = config.parse(config.tomllib.loads(rendered), tmp_path, "contest.toml")
    assert parsed.ladder == config.Ladder() and parsed.final == config.Final()

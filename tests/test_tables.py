from __future__ import annotations

import math

import pytest

from arena import stats, tables


def _two_player_config(bots, boards):
    return {"game": "paint", "players": 2, "bots": [{"name": b} for b in bots], "boards": [{"name": b} for b in boards]}


def _game(board, a, b, winner, fault=None):
    points = [1.5, 1.5] if winner is None else [3.0 * (winner == 0), 3.0 * (winner == 1)]
    return {"board": {"name": board}, "seats": [a, b], "points": points,
            "outcome": {"winner": winner, "score": None, "reason": "r"}, "fault": fault}


def test_standings_crosstable_and_boards():
    config = _two_player_config(["x", "y", "z"], ["g/b1"])
    records = [
        _game("g/b1", "x", "y", 0), _game("g/b1", "y", "x", 1),
        _game("g/b1", "x", "z", None), _game("g/b1", "z", "x", 0, {"seat": 1, "verdict": "time-limit"}),
    ]
    text = tables.render(config, records)
    assert "4 of 6 games played (unfinished" in text
    standings = tables.standings(["x", "y", "z"], records, "plain").splitlines()
    # x: 3 + 3 + 1.5 + 0 = 7.5 from 4 games; z: 1.5 + 3 = 4.5; y: 0
    assert standings[1].split()[:4] == ["1", "x", "7.5", "4"]
    assert "time-limit 1" in standings[1]
    assert standings[2].split()[:3] == ["2", "z", "4.5"]
    assert standings[3].split()[:3] == ["3", "y", "0"]
    cross = tables.crosstable(["x", "y", "z"], records, "plain").splitlines()
    assert cross[1].split() == ["x", "x", "6", "1.5"]
    board = tables.per_board(["x", "y", "z"], ["g/b1"], records, "plain").splitlines()
    assert board[1].split() == ["x", "7.5", "7.5"]


def test_score_table_marks_faults():
    config = {"game": "threes", "players": 1, "bots": [{"name": "a"}, {"name": "b"}],
              "boards": [{"name": "t/1"}, {"name": "t/2"}]}
    records = [
        {"board": {"name": "t/1"}, "seats": ["a"], "outcome": {"winner": None, "score": 24, "reason": ""}, "fault": None},
        {"board": {"name": "t/2"}, "seats": ["a"], "outcome": {"winner": None, "score": None, "reason": ""},
         "fault": {"seat": 0, "verdict": "crash"}},
        {"board": {"name": "t/1"}, "seats": ["b"], "outcome": {"winner": None, "score": 120, "reason": ""}, "fault": None},
    ]
    text = tables.render(config, records, "plain")
    assert "3 of 4 games played" in text
    rows = [line.split() for line in text.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert rows[0][:3] == ["1", "b", "120"]
    assert rows[1][:4] == ["2", "a", "24", "(crash)"]


def test_ratings_table_is_the_joint_fit_and_ignores_record_order():
    records = [_game("g/b1", "x", "y", 0), _game("g/b1", "y", "x", 1),  # x wins both games of b1
               _game("g/b2", "x", "y", 1), _game("g/b2", "y", "x", 1)]  # one win each on b2
    text = tables.ratings(["x", "y"], records, "plain")
    # x scored 3 of 4, plus one virtual draw: 3.5 of 5, 400 log10(3.5 / 1.5) = 147.2 Elo, +-73.6 around 0
    rows = [line.split() for line in text.splitlines()[1:]]
    assert [row[:3] for row in rows] == [["1", "x", "+74"], ["2", "y", "-74"]]
    assert tables.ratings(["x", "y"], records[::-1], "plain") == text
    assert "Ratings" in tables.render(_two_player_config(["x", "y"], ["g/b1", "g/b2"]), records)


def test_mean_scores_with_intervals():
    records = [
        {"board": {"name": "t/1"}, "seats": ["a"], "outcome": {"winner": None, "score": 24, "reason": ""}, "fault": None},
        {"board": {"name": "t/2"}, "seats": ["a"], "outcome": {"winner": None, "score": None, "reason": ""},
         "fault": {"seat": 0, "verdict": "crash"}},
        {"board": {"name": "t/1"}, "seats": ["b"], "outcome": {"winner": None, "score": 120, "reason": ""}, "fault": None},
    ]
    rows = [line.split(maxsplit=3) for line in tables.mean_scores(["a", "b"], records, "plain").splitlines()[1:]]
    # a: 24 and 0 (the fault), mean 12, sd 16.97, t(0.975, 1) = 12.706: 12 +- 152.5
    assert rows == [["b", "1", "120", "-"], ["a", "2", "12", "[-140.5, 164.5]"]]


def test_pentanomial_counts_and_match_line():
    records = [_game("g/b1", "x", "y", 0), _game("g/b1", "y", "x", 1),  # x: 2
               _game("g/b2", "x", "y", None), _game("g/b2", "y", "x", 1),  # x: 1.5
               _game("g/b3", "x", "y", 1)]  # one game only: not a pair yet
    assert tables.pentanomial(records, "x") == [0, 0, 0, 1, 1]
    assert tables.pentanomial(records, "y") == [1, 1, 0, 0, 0]
    line = tables.match_line([0, 0, 0, 1, 1], stats.Sprt(0, 10), "running")
    fields = dict(word.split("=") for word in line.split())
    assert fields["pairs"] == "2" and fields["penta"] == "0,0,0,1,1" and fields["result"] == "running"
    assert float(fields["low"]) < float(fields["elo"]) < float(fields["high"])
    assert float(fields["upper"]) == pytest.approx(math.log(19), abs=1e-3)
    assert "llr" not in tables.match_line([0, 0, 0, 1, 1], None, "running")
    assert fields["score"] == "0.8750" and fields["model"] == "logistic" and fields["los"] == "-"
    normalized = dict(word.split("=") for word in
                      tables.match_line([2, 4, 6, 8, 10], stats.Sprt(0, 5, model="normalized"), "running").split())
    assert normalized["model"] == "normalized" and float(normalized["nelo"]) > 0 and normalized["los"] != "-"


def test_data_formats_give_numbers_and_nulls():
    """``show --format json``: faults 0 (not "-"), percentages and intervals as numbers, null where none."""
    config = _two_player_config(["x", "y", "z"], ["g/b1"])
    records = [_game("g/b1", "x", "y", 0), _game("g/b1", "y", "x", 1)]
    data = tables.data(config, records)["tables"]
    standings = {row[1]: dict(zip(data["standings"]["headers"], row)) for row in data["standings"]["rows"]}
    assert standings["x"]["faults"] == 0 and standings["x"]["score %"] == 100 and standings["x"]["crash"] == 0
    assert standings["z"]["score %"] is None and standings["z"]["games"] == 0
    ratings = {row[1]: dict(zip(data["ratings"]["headers"], row)) for row in data["ratings"]["rows"]}
    assert all(isinstance(ratings["x"][key], (int, float)) for key in ("Elo", "low", "high"))
    assert ratings["x"]["LOS %"] is None  # one pair of games: no likelihood of superiority
    cross = {row[0]: row for row in data["crosstable"]["rows"]}
    assert cross["x"][2] == 6 and cross["x"][3] is None
    csv_text = tables.standings(["x", "y", "z"], records, "csv").splitlines()
    assert csv_text[0].split(",")[7] == "faults" and csv_text[1].split(",")[7] == "0"
    assert "-" not in tables.standings(["x", "y", "z"], records, "plain").split("score %")[1]


def test_an_unfinished_tournament_ranks_by_points_per_game_and_says_so():
    # x: 6 points in 8 games; y: 6 points in 2 games; z: no game yet (5 bots: far from finished)
    config = _two_player_config(["x", "y", "z", "u", "v"], ["g/b1", "g/b2"])
    records = [_game("g/b1", "x", "u", 0)] * 2 + [_game("g/b1", "x", "u", 1)] * 6
    records += [_game("g/b1", "y", "v", 0), _game("g/b1", "v", "y", 1)]
    text = tables.render(config, records, "plain")
    assert "Standings, ranked by points per game played (the tournament is unfinished" in text
    rows = {line.split()[1]: line.split() for line in tables.standings(
        ["x", "y", "z", "u", "v"], records, "plain", by_rate=True).splitlines()[1:]}
    assert rows["y"][:5] == ["1", "y", "6", "2", "3.00"]
    assert rows["u"][:5] == ["2", "u", "18", "8", "2.25"]
    assert rows["x"][:5] == ["3", "x", "6", "8", "0.75"]
    assert rows["z"][:4] == ["5", "z", "0", "0"]  # no game played: last
    # ranked by points (a finished tournament), 6 points in 8 games ties 6 points in 2
    by_points = [line.split() for line in tables.standings(["x", "y", "u"], records, "plain").splitlines()[1:]]
    assert [row[:3] for row in by_points[1:3]] == [["2", "x", "6"], ["2", "y", "6"]]


def test_per_board_leaves_boards_not_yet_played_empty():
    records = [_game("g/b1", "x", "y", None)]
    lines = tables.per_board(["x", "y"], ["g/b1", "g/b2"], records, "github").splitlines()
    assert [cell.strip() for cell in lines[2].split("|")[1:-1]] == ["x", "1.5", "", "1.5"]
    # a board played with 0 points shows 0, not an empty cell
    lines = tables.per_board(["x", "y"], ["g/b1"], [_game("g/b1", "x", "y", 0)], "github").splitlines()
    assert [cell.strip() for cell in lines[3].split("|")[1:-1]] == ["y", "0", "0"]


def test_an_unfinished_single_player_tournament_ranks_by_mean_score():
    config = {"game": "threes", "players": 1, "bots": [{"name": "a"}, {"name": "b"}],
              "boards": [{"name": "t/1"}, {"name": "t/2"}]}
    def rec(bot, board, score):
        return {"board": {"name": board}, "seats": [bot], "outcome": {"winner": None, "score": score, "reason": ""},
                "fault": None}
    records = [rec("a", "t/1", 100), rec("b", "t/1", 60), rec("b", "t/2", 60)]
    text = tables.render(config, records, "plain")
    assert "ranked by the mean score per game played" in text
    rows = [line.split() for line in text.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert rows[0][:4] == ["1", "a", "100", "100"]  # one board played: 100 on t/1, total 100
    assert rows[1][:5] == ["2", "b", "60", "60", "120"]
    finished = tables.render(config, records + [rec("a", "t/2", 0)], "plain")
    assert "Scores\n" in finished and "ranked by" not in finished
    rows = [line.split() for line in finished.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert rows[0][:2] == ["1", "b"]


def _brute_clusters(names, records):
    """The rating clusters restated plainly: every record kept, grouped by board and pair."""
    from collections import Counter, defaultdict

    index = {name: k for k, name in enumerate(names)}
    groups = defaultdict(list)
    for record in records:
        i, j = sorted(index[s] for s in record["seats"])
        own = record["points"][record["seats"].index(names[i])] / 3
        groups[i, j, record["board"]["name"]].append(own)
    found = Counter()
    for (i, j, _), scores in groups.items():
        for start in range(0, len(scores), 2):  # a board's games between two bots, two at a time
            found[i, j, sum(scores[start:start + 2]), len(scores[start:start + 2])] += 1
    return found


def test_the_tally_counts_each_rating_cluster_once_in_any_order_and_for_names_it_was_not_told():
    import random
    from collections import Counter

    rng = random.Random(5)
    bots, boards = ["x", "y", "z"], ["g/b1", "g/b2", "g/b3"]
    everyone, every_board = bots + ["late"], boards + ["g/new"]  # a bot and a board the config does not list
    records = []
    for board in every_board:
        for a in everyone:
            for b in everyone:
                if a != b and rng.random() < 0.8:  # some games not played yet: clusters of one game
                    records.append(_game(board, a, b, rng.choice([0, 1, None])))
    for order in (records, records[::-1], rng.sample(records, len(records))):
        tally = tables.Tally(bots, boards)
        for record in order:
            tally.add(record)
        names, clusters = tally.clusters.clusters()
        assert names == everyone
        counted = Counter()
        for c in clusters:
            counted[c.i, c.j, c.score, c.games] += c.count
        assert counted == _brute_clusters(names, order)
        assert sum(counted.values()) < len(records)  # most boards' two games are one cluster


def test_clusters_alike_counted_together_fit_and_resample_as_the_clusters_one_by_one():
    rng_clusters = [stats.Cluster(0, 1, 1.5, 2), stats.Cluster(0, 1, 0.5, 2), stats.Cluster(1, 2, 2.0, 2),
                    stats.Cluster(0, 2, 1.0, 2), stats.Cluster(0, 1, 1.0, 1)]
    counts = [30, 10, 25, 40, 3]
    one_by_one = [c for c, k in zip(rng_clusters, counts) for _ in range(k)]
    together = [stats.Cluster(c.i, c.j, c.score, c.games, k) for c, k in zip(rng_clusters, counts)]
    a, b = stats.rate(3, one_by_one, replicates=2000), stats.rate(3, together, replicates=2000)
    for x, y in zip(a, b):
        assert x.elo == pytest.approx(y.elo, abs=1e-9)  # the same games: the same fit
        # the same law of resampling, drawn otherwise: intervals agree to the bootstrap's own noise
        assert x.low == pytest.approx(y.low, abs=8) and x.high == pytest.approx(y.high, abs=8)


def test_mean_scores_from_running_moments_match_the_textbook_formulas():
    import statistics

    values = [24, 120, 0, 57.5, 1e6, 1e6 + 3]
    m = stats.Moments()
    for v in values:
        m.add(v)
    assert m.mean == pytest.approx(statistics.fmean(values))
    assert math.sqrt(m.squares / (len(values) - 1)) == pytest.approx(statistics.stdev(values))
    est = stats.mean_interval(values)
    assert est.high - est.mean == pytest.approx(2.5706 * statistics.stdev(values) / math.sqrt(6), rel=1e-4)


def test_the_tables_of_a_stored_tournament_take_memory_in_its_bots_and_boards_not_its_games(tmp_path):
    """Ten times the games (same bots and boards) must not take more memory to show: nothing per game is kept."""
    import json
    import tracemalloc

    from arena.store import Store

    bots, boards = ["x", "y", "z"], [f"g/b{k}" for k in range(4)]
    config = {**_two_player_config(bots, boards), "players": 2}

    def peak(games: int) -> int:
        store = Store(tmp_path / str(games))
        store.start(config, overwrite=False)
        with open(store.games_path, "w") as out:
            for k in range(games):
                a, b = bots[k % 3], bots[(k + 1 + k // 3 % 2) % 3]
                record = {**_game(boards[k % 4], a, b, k % 3 if k % 3 < 2 else None), "id": f"{k}",
                          "moves": [{"seat": 0, "output": "m" * 200}] * 5}
                out.write(json.dumps(record) + "\n")
        tables.render(config, store.summaries())  # imports and caches warmed up
        tracemalloc.start()
        text = tables.render(config, store.summaries())
        used = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert f"{games} of 24 games played" in text
        return used

    small, large = peak(2_000), peak(20_000)
    assert large < 1.5 * small + 200_000, (small, large)  # measured: 129 kB and 120 kB


def test_ratings_are_fitted_once_for_the_games_counted_and_again_after_more(monkeypatch):
    calls = []
    rate = stats.rate
    monkeypatch.setattr(stats, "rate", lambda *args, **kwargs: calls.append(1) or rate(*args, **kwargs))
    config = _two_player_config(["x", "y"], ["g/b1", "g/b2"])
    tally = tables.Tally.of(config, [_game("g/b1", "x", "y", 0), _game("g/b1", "y", "x", 1)])
    text = tables.render(config, tally)
    assert tables.render(config, tally, "github") and tables.data(config, tally) and len(calls) == 1
    tally.add(_game("g/b2", "x", "y", 1))
    assert tables.render(config, tally) != text and len(calls) == 2

from __future__ import annotations

from arena import tables


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

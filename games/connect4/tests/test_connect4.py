"""Tests of Connect Four: the rules, the generator, the judge against the referee, the view, the
bots, and the arena's conformance checks.  Run them with ``python -m pytest games/connect4/tests``
(the package installed: ``pip install -e games/connect4``)."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

import pytest
from arena import conformance, games
from referees.base import BadInput, BadOutput, IllegalMove

from connect4 import generator
from connect4.rules import (
    Connect4Referee,
    O,
    State,
    X,
    check_drop,
    drop,
    game_in,
    judge_lines,
    legal_columns,
    outcome,
    parse_board,
    parse_game_in,
    parse_move,
    winning_columns,
)

BOTS = Path(__file__).resolve().parent.parent / "connect4" / "bots"


def play(columns: str, rows: int = 6, cols: int = 7, k: int = 4) -> State:
    """The position after the given 1-based columns (one digit each) from an empty board."""
    state = State.empty(rows, cols, k)
    for c in columns:
        check_drop(state, int(c) - 1)
        assert outcome(state) is None
        state = drop(state, int(c) - 1)
    return state


# ---------------------------------------------------------------- rules
@pytest.mark.parametrize("moves, direction", [
    ("1122334", "a row"),
    ("1212121", "a column"),
    ("12233434544", "a rising diagonal"),
    ("76655454344", "a falling diagonal"),
])
def test_four_in_a_line_wins_in_every_direction(moves, direction):
    state = play(moves[:-1])
    assert outcome(state) is None
    state = drop(state, int(moves[-1]) - 1)
    end = outcome(state)
    assert end is not None and end.winner == 0, direction
    assert len(state.line.cells) == 4
    assert "X connected 4" in end.reason


def test_the_second_player_wins_too_and_k_is_respected():
    o_wins = play("1717172")  # X: three in column 1 and one in 2; O: three in column 7
    end = outcome(drop(o_wins, 6))
    assert end.winner == 1 and "O connected 4" in end.reason
    three = play("1212", k=3)
    assert outcome(drop(three, 0)).winner == 0  # three in column 1 is a line when K is 3
    assert outcome(drop(play("1212"), 0)) is None  # and not when K is 4


def test_a_full_column_and_a_column_off_the_board_are_illegal():
    state = play("111111")
    with pytest.raises(IllegalMove, match="full-column"):
        check_drop(state, 0)
    with pytest.raises(IllegalMove, match="off-board"):
        check_drop(state, 7)
    with pytest.raises(IllegalMove, match="off-board"):
        check_drop(state, -1)
    assert legal_columns(state) == [1, 2, 3, 4, 5, 6]


DRAW_4X4 = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 2, 3]  # fills a 4x4 board with no line of four


def test_a_full_board_without_a_line_is_a_draw():
    state = State.empty(4, 4, 4)
    for col in DRAW_4X4:
        check_drop(state, col)
        assert outcome(state) is None
        state = drop(state, col)
    assert state.full()
    end = outcome(state)
    assert end is not None and end.winner is None and "full" in end.reason


def test_the_opening_decides_which_disc_the_first_seat_plays():
    referee = Connect4Referee()
    state = referee.load("6 7 4\n4\n")
    assert referee.to_move(state) == 0 and state.disc_to_move == O
    for col in (0, 1, 0, 1, 0):
        state = referee.apply(state, col)
    assert referee.to_move(state) == 1  # O moved 3 times in column 1... X in column 2
    state = referee.apply(state, 3)
    state = referee.apply(state, 0)  # O's fourth in column 1: the first seat wins
    assert referee.outcome(state).winner == 0


def test_winning_columns_find_threats():
    state = play("112233")
    assert winning_columns(state, X) == [3]
    assert 0 in winning_columns(play("121212"), X)


# ---------------------------------------------------------------- text
@pytest.mark.parametrize("text, line, message", [
    ("", 1, "R C K"),
    ("6\n", 1, "the number of columns C"),
    ("4 4\n4 1\n", 1, "the line length K on line 1"),  # a tic-tac-toe board is not a Connect Four one
    ("3 7 4\n", 1, "the number of rows R from 4 to 10, found 3"),
    ("6 11 4\n", 1, "the number of columns C from 4 to 10, found 11"),
    ("6 7 8\n", 1, "the line length K from 3 to 7, found 8"),
    ("6 7 4 1\n", 1, "end of the first line"),
    ("6 7 4\n1 2\n3 x\n", 3, "opening move 4 (an integer), found 'x'"),
    ("6 7 4\n1 9\n", 2, "opening move 2 from 1 to 7, found 9"),
    ("4 4 4\n1 1 1 1\n1\n", 3, "opening move 5 is illegal: column 1 is full"),
    ("6 7 4\n1 2 1 2 1 2\n1\n", 3, "opening move 7 (column 1) ends the game"),
])
def test_bad_boards_say_which_line_and_what_was_expected(text, line, message):
    with pytest.raises(BadInput) as caught:
        parse_board(text)
    assert caught.value.line == line
    assert message in caught.value.message, caught.value.message
    assert str(caught.value.located("b.in")).startswith(f"b.in:{line}: ")


def test_a_board_with_an_opening():
    state = parse_board("5 6 4\n3 4\n4\n")
    assert (state.rows, state.cols, state.k, state.moves, state.opening) == (5, 6, 4, (2, 3, 3), 3)


def test_game_in_reads_back_and_is_documented():
    state = play("4434")
    text = game_in(state)
    assert text == "6 7 4\nX\n.......\n.......\n.......\n...O...\n...O...\n..XX...\n4 4 4 3 4\n"
    again = parse_game_in(text)
    assert again.columns == state.columns and again.moves == state.moves
    rules = (BOTS.parent / "RULES.md").read_text()
    example = rules.split("```\n")[1]
    assert parse_game_in(example).moves == (3, 2, 3, 2)  # the RULES.md example parses


def test_game_in_that_contradicts_itself_is_refused():
    with pytest.raises(BadInput, match="does not match"):
        parse_game_in(game_in(play("44")).replace("...X...", "..X....", 1))
    with pytest.raises(BadInput, match="disc to move"):
        parse_game_in(game_in(play("44")).replace("X\n", "O\n", 1))


@pytest.mark.parametrize("text, message", [
    ("", "found the end of the input"),
    ("four\n", "found 'four'"),
    ("3 4\n", "extra token '4'"),
])
def test_bad_output(text, message):
    with pytest.raises(BadOutput, match=message):
        parse_move(text)


def test_parse_and_move_text_round_trip():
    referee = Connect4Referee()
    state = State.empty(6, 10, 4)
    for col in range(10):
        assert referee.parse(state, referee.move_text(col)) == col
    assert referee.move_text(0) == "1\n"
    assert referee.parse(state, " 7 \r\n") == 6


# ---------------------------------------------------------------- judge
def test_the_judge_reports_each_move_and_the_result():
    assert list(judge_lines("6 7 4\n", "1 2 1 2 1 2 1")) == ["ok"] * 7 + ["result: first wins"]
    assert list(judge_lines("6 7 4\n", "1 2 1")) == ["ok"] * 3 + ["result: unfinished"]
    lines = list(judge_lines("6 7 4\n", "1 8 3"))
    assert lines[1].startswith("illegal: off-board") and lines[-1] == "result: first wins"
    lines = list(judge_lines("4 4 4\n", "1 1 1 1 1"))  # X's third move is into a full column
    assert lines[4].startswith("illegal: full-column") and lines[-1] == "result: second wins"
    lines = list(judge_lines("6 7 4\n4\n", "1 2 1 2 1 2 1 5"))
    assert lines[-2] == "ignored: move 8: the game is over" and lines[-1] == "result: first wins"
    assert list(judge_lines("4 4 4\n", " ".join(str(c + 1) for c in DRAW_4X4)))[-1] == "result: draw"


def test_judge_errors_name_the_input_and_the_line():
    with pytest.raises(BadInput) as caught:
        list(judge_lines("6 7 4\n", "1\n2\nx\n"))
    assert (caught.value.where, caught.value.line) == ("MOVES", 3)
    with pytest.raises(BadInput) as caught:
        list(judge_lines("6 7\n", "1"))
    assert caught.value.where == "BOARD"


def test_the_judge_agrees_with_the_referee_on_random_games():
    referee = Connect4Referee()
    rng = random.Random(5)
    results = set()
    for seed in range(200):
        board = generator.generate(_params(["--rows", "4", "7", "--cols", "4", "8"]), seed).text
        state = referee.load(board)
        moves, end = conformance.random_game(referee, state, rng)
        texts, last = referee.judge_case(board, {}, [text for _, text in moves], end)
        assert list(referee.judge(texts, {}))[-1] == last
        results.add(last)
    assert results == {"result: first wins", "result: second wins", "result: draw"}


# ---------------------------------------------------------------- generator
def _params(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    generator.add_arguments(parser)
    return parser.parse_args(argv)


def test_the_generator_is_deterministic_and_leaves_the_game_open():
    params = _params(["--rows", "4", "10", "--cols", "4", "10", "--opening", "2", "8"])
    texts = set()
    for seed in range(40):
        one, two = generator.generate(params, seed), generator.generate(params, seed)
        assert one == two
        state = parse_board(one.text)
        assert outcome(state) is None and state.opening % 2 == 0
        assert not winning_columns(state, state.disc_to_move)  # no win in one for the first seat
        assert (one.params["rows"], one.params["cols"]) == (state.rows, state.cols)
        texts.add(one.text)
    assert len(texts) > 30
    assert generator.generate(_params([]), 1).text.startswith("6 7 4\n")


@pytest.mark.parametrize("argv, message", [
    (["--rows", "3", "6"], "--rows 3 6"),
    (["--cols", "8", "7"], "--cols 8 7"),
    (["--k", "9"], "--k 9"),
])
def test_bad_generator_parameters(argv, message):
    with pytest.raises(generator.BadParameters, match=message):
        generator.generate(_params(argv), 1)


# ---------------------------------------------------------------- bots
def _run_bot(bot: str, state: State, folder: Path) -> tuple[int, float]:
    (folder / "game.in").write_text(game_in(state))
    code = ("import resource, runpy, sys; sys.argv = [sys.argv[1]]; runpy.run_path(sys.argv[0], run_name='__main__');"
            "u = resource.getrusage(resource.RUSAGE_SELF); print(u.ru_utime + u.ru_stime)")
    done = subprocess.run([sys.executable, "-P", "-c", code, str(BOTS / bot)], cwd=folder, capture_output=True,
                          text=True, check=True, timeout=20)
    return parse_move((folder / "game.out").read_text()), float(done.stdout.split()[-1])


@pytest.mark.parametrize("strong_seat", [0, 1])
def test_strong_beats_random(tmp_path, strong_seat):
    referee = Connect4Referee()
    for seed in (1, 2):
        state = referee.load(generator.generate(_params([]), seed).text)
        most = 0.0
        while (end := referee.outcome(state)) is None:
            seat = referee.to_move(state)
            move, cpu = _run_bot("strong.py" if seat == strong_seat else "random.py", state, tmp_path)
            referee.check(state, move)
            if seat == strong_seat:
                most = max(most, cpu)
            state = referee.apply(state, move)
        assert end.winner == strong_seat, end.reason
        assert most < 0.9


def test_strong_takes_a_win_and_blocks_a_threat(tmp_path):
    assert _run_bot("strong.py", play("112233"), tmp_path)[0] == 3  # X wins in column 4
    assert _run_bot("strong.py", play("1122335"), tmp_path)[0] == 3  # O blocks column 4


# ---------------------------------------------------------------- the arena
def test_the_package_is_found_and_importing_it_is_light():
    entry = games.get("connect4")
    assert entry.package == "arena-connect4"
    code = "import sys, connect4; print(sorted(m for m in sys.modules if m.startswith(('connect4', 'arena'))))"
    done = subprocess.run([sys.executable, "-c", code],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['connect4']"
    assert "game.in" in entry.rules() and [p.name for p in entry.paths("boards")] == ["boards"]


@pytest.mark.parametrize("check, problem", list(conformance.run(games.get("connect4"), tournament=False)))
def test_the_arena_conformance_checks(check, problem):
    assert not problem, f"{check}: {problem}"

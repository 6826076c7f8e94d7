"""3D tic-tac-toe (docs/rules.md, tictactoe3d): rules, judge mode against the source's
reference program, the generator, and the bots run as real processes."""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from arena.bots import PYTHON
from arena.cli import main as arena_main
from generator import BadParameters
from generator import tictactoe3d as gen
from referees.base import BadInput, BadOutput, IllegalMove
from referees.tictactoe3d import (
    BLACK,
    DIRECTIONS,
    WHITE,
    Drop,
    TicTacToe3DReferee,
    TicTacToe3DState,
    judge_cases,
    line_through,
    parse_game_in,
    windows,
    winning_drops,
)

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "bots" / "tictactoe3d"
#: The source problem's text, with its own judge in C++ (not shipped with the project: it is the
#: source's), named by this variable; without it, the judge is checked against the pinned output below.
SEED_ENV = "ARENA_TICTACTOE3D_SOURCE"
SEED_FILE = Path(os.environ.get(SEED_ENV, "/nonexistent"))
REF = TicTacToe3DReferee()


def play(n: int, m: int, moves: str, opening: str = "") -> TicTacToe3DState:
    """The position after the moves "x y, x y, ..." (checked) on a fresh board."""
    state = REF.load(f"{n} {m}\n{opening}")
    for text in filter(None, (part.strip() for part in moves.split(","))):
        move = REF.parse(state, text)
        REF.check(state, move)
        state = REF.apply(state, move)
    return state


def stacked(n: int, m: int, black: list[tuple[int, int, int]]) -> TicTacToe3DState:
    """A position with Black balls at the given cells and neutral balls
    (colour 3, neither player's) filling each column below them: no play
    order, for testing line detection alone."""
    heights: dict[tuple[int, int], int] = {}
    for x, y, z in black:
        heights[(x, y)] = max(heights.get((x, y), 0), z)
    cells = set(black)
    columns = tuple(
        tuple(BLACK if (x, y, z) in cells else 3 for z in range(1, heights.get((x, y), 0) + 1))
        for x in range(1, n + 1) for y in range(1, n + 1)
    )
    return TicTacToe3DState(n, m, columns)


# ---------------------------------------------------------------- lines
def test_thirteen_distinct_directions():
    assert len(set(DIRECTIONS)) == 13
    assert not {tuple(-v for v in d) for d in DIRECTIONS} & set(DIRECTIONS)
    assert sum(1 for d in DIRECTIONS if sum(map(abs, d)) == 1) == 3
    assert sum(1 for d in DIRECTIONS if sum(map(abs, d)) == 2) == 6
    assert sum(1 for d in DIRECTIONS if sum(map(abs, d)) == 3) == 4


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_a_line_of_m_in_every_direction_wins_and_m_minus_one_does_not(direction):
    n, m = 5, 4
    dx, dy, dz = direction
    start = tuple(1 if d >= 0 else n for d in direction)
    cells = [(start[0] + i * dx, start[1] + i * dy, start[2] + i * dz) for i in range(m)]
    state = stacked(n, m, cells)
    for cell in (cells[0], cells[1], cells[-1]):  # the new ball at an end or inside
        line = line_through(state, *cell, BLACK)
        assert line is not None and line.length == m
        assert {line.start, line.end} == {cells[0], cells[-1]}
    short = stacked(n, m, cells[:-1])
    assert line_through(short, *cells[0], BLACK) is None
    assert line_through(state, *cells[0], WHITE) is None


def test_line_longer_than_m_counts_and_m_below_n():
    state = stacked(6, 3, [(x, 2, 1) for x in (1, 2, 4, 5, 6)])
    line = line_through(state, 3, 2, 1, BLACK)  # filling the gap makes six
    assert line is not None and line.length == 6
    won = play(5, 3, "1 1, 1 2, 2 1, 2 2, 3 1")
    assert REF.outcome(won).winner == 0 and "line of 3" in REF.outcome(won).reason


def test_gravity_stacks_balls_and_vertical_line_wins():
    state = play(4, 4, "2 3, 1 1, 2 3, 1 1, 2 3, 1 1")
    assert state.height(2, 3) == 3 and state.ball(2, 3, 3) == BLACK and state.ball(1, 1, 3) == WHITE
    assert REF.outcome(state) is None
    won = REF.apply(state, Drop(2, 3))
    end = REF.outcome(won)
    assert end.winner == 0 and "from (2, 3, 1) to (2, 3, 4)" in end.reason


def test_space_diagonal_built_by_real_moves():
    # Black builds (1,1,1) (2,2,2) (3,3,3) (4,4,4); White only fills the columns.
    moves = ("1 1, 2 2, 2 2, 3 3, 3 3, 4 4, 3 3, 4 4, 1 2, 4 4, 4 4")
    state = play(4, 4, moves)
    end = REF.outcome(state)
    assert end is not None and end.winner == 0 and "(1, 1, 1) to (4, 4, 4)" in end.reason


def test_full_board_is_a_draw():
    moves = ("12 23 42 11 14 22 11 31 41 13 43 32 32 22 42 23 42 44 21 11 12 41 11 43 33 32 24 43 31 13 13 23 "
             "33 13 41 43 31 12 12 22 22 34 33 42 23 32 24 33 21 34 24 44 34 21 44 24 34 21 14 14 31 14 41 44")
    state = play(4, 4, ", ".join(f"{d[0]} {d[1]}" for d in moves.split()))
    assert len(state.moves) == 64
    end = REF.outcome(state)
    assert end is not None and end.winner is None and "full" in end.reason


# ---------------------------------------------------------------- moves
def test_full_column_and_off_board_are_illegal():
    state = play(3, 3, "2 2, 2 2, 2 2")
    with pytest.raises(IllegalMove) as err:
        REF.check(state, Drop(2, 2))
    assert err.value.rule == "full-column" and "(2, 2)" in str(err.value)
    for x, y in ((0, 1), (1, 4), (-1, -1)):
        with pytest.raises(IllegalMove) as err:
            REF.check(state, Drop(x, y))
        assert err.value.rule == "off-board"


@pytest.mark.parametrize("text", ["", "1", "1 2 3", "a 2", "1.5 2"])
def test_bad_output(text):
    with pytest.raises(BadOutput):
        REF.parse(TicTacToe3DState.empty(3, 3), text)


def test_output_is_whitespace_tolerant_and_round_trips():
    state = TicTacToe3DState.empty(4, 4)
    assert REF.parse(state, "  3\r\n\n 4") == Drop(3, 4)
    assert REF.parse(state, REF.move_text(Drop(1, 2))) == Drop(1, 2)


# ---------------------------------------------------------------- files and seats
def test_game_in_lists_every_move_and_reads_back():
    state = play(4, 3, "1 1, 2 2", opening="3 3\n")
    text = REF.render(state, REF.to_move(state))["game.in"]
    assert text == "4 3\n3\n3 3\n1 1\n2 2\n"
    again = parse_game_in(text)
    assert again.columns == state.columns and again.colour_to_move == WHITE


def test_odd_opening_gives_white_the_first_seat():
    state = REF.load("4 4\n1 1\n")
    assert state.colour_to_move == WHITE and REF.to_move(state) == 0
    # White (seat 0) makes (2..4, 1, 1); Black's (1,1,1) (3,3,1) (4,4,1) is no line.
    state = play(4, 3, "2 1, 3 3, 3 1, 4 4, 4 1", opening="1 1\n")
    end = REF.outcome(state)
    assert end is not None and end.winner == 0 and end.reason.startswith("White")
    assert REF.outcome(play(4, 3, "2 1, 3 3, 3 1, 2 2", opening="1 1\n")).winner == 1  # Black: seat 1


@pytest.mark.parametrize("text, where", [
    ("8 4\n", "from 3 to 7"),
    ("4 5\n", "from 3 to 4"),
    ("4 4\n1 5\n", "opening move 1 is illegal"),
    ("3 3\n1 1\n1 1\n1 1\n1 1\n", "full"),
    ("3 3\n1 1\n2 1\n1 2\n2 2\n1 3\n", "ends the game"),
    ("4 4\n1\n", "y of opening move 1"),
])
def test_bad_boards(text, where):
    with pytest.raises(BadInput, match=where):
        REF.load(text)


# ---------------------------------------------------------------- judge mode
SOURCE_SAMPLE_LIKE = "4 3 5\n1 1\n2 2\n1 1\n3 3\n1 1\n3 3 1\n2 2\n4 4 7\n1 1\n1 2\n2 2\n1 3\n3 3\n1 4\n4 4\n0 0 0\n"


def test_judge_basic_cases():
    assert list(judge_cases(SOURCE_SAMPLE_LIKE)) == ["Black 5", "Draw", "Black 7"]


def test_judge_ignores_moves_after_the_win_and_has_no_height_cap():
    # (1,1) takes B W _ B W; Black's (1,1,1) (2,2,1) (3,3,1) wins at move 7; moves 8, 9 ignored.
    text = "3 3 9\n1 1\n1 1\n2 2\n1 1\n1 1\n1 1\n3 3\n1 1\n1 1\n0 0 0\n"
    assert list(judge_cases(text)) == ["Black 7"]
    # Columns grow above n = 3; White wins with (1,1,4) (1,2,4) (1,3,4) at height 4
    # (the reference program prints the same).
    above = "3 3 16\n1 1\n1 2\n3 3\n1 3\n1 3\n3 3\n3 1\n1 3\n1 2\n1 1\n1 1\n1 3\n1 2\n1 2\n1 3\n1 1\n0 0 0\n"
    assert list(judge_cases(above)) == ["White 16"]
    # Six balls in one column alternate colours: no line; a short game is a draw.
    assert list(judge_cases("3 3 8\n" + "1 1\n" * 6 + "1 2\n1 3\n0 0 0\n")) == ["Draw"]


def test_judge_stops_at_zero_line_or_end_of_input():
    assert list(judge_cases("3 3 1\n1 1\n0 0 0\n3 3 1\n1 1\n")) == ["Draw"]
    assert list(judge_cases("3 3 1\n1 1\n")) == ["Draw"]


def test_judge_rejects_bad_input_with_line():
    with pytest.raises(BadInput) as err:
        list(judge_cases("3 3 2\n1 1\n4 1\n0 0 0\n"))
    assert err.value.line == 3 and "x of move 2 of case 1" in str(err.value)
    with pytest.raises(BadInput, match="found the end"):
        list(judge_cases("3 3 2\n1 1\n"))


def judge_fuzz_input(seed: int, count: int) -> str:
    """Random judge input: even cases are full legal games, odd ones drop
    into a few columns only (tall stacks: no height cap)."""
    rng = random.Random(seed)
    cases = []
    for c in range(count):
        n = rng.randint(3, 7)
        m = rng.randint(3, n)
        if c % 2:
            cols = [(rng.randint(1, n), rng.randint(1, n)) for _ in range(rng.randint(1, 2 * n))]
            moves = [rng.choice(cols) for _ in range(rng.randint(1, n ** 3))]
        else:
            heights: dict[tuple[int, int], int] = {}
            moves = []
            for _ in range(n ** 3):
                col = rng.choice([(x, y) for x in range(1, n + 1) for y in range(1, n + 1)
                                  if heights.get((x, y), 0) < n])
                heights[col] = heights.get(col, 0) + 1
                moves.append(col)
        cases.append(f"{n} {m} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves))
    return "".join(cases) + "0 0 0\n"


# The reference program's output (the C++ in the source, compiled with g++ -O2) for judge_fuzz_input(2026, 40).
REFERENCE_2026 = [
    "White 10", "Draw", "Black 15", "Draw", "White 110", "White 22", "White 32", "White 30", "Black 37",
    "White 12", "Black 41", "White 20", "Black 7", "White 22", "Black 11", "Draw", "Black 51", "Draw",
    "White 8", "Draw", "Black 111", "Draw", "White 16", "White 16", "White 18", "Draw", "White 16", "Draw",
    "Black 19", "Draw", "Black 5", "White 14", "White 12", "White 40", "White 48", "White 50", "White 26",
    "Black 45", "Black 25", "Draw",
]


def test_judge_agrees_with_pinned_reference_output():
    assert list(judge_cases(judge_fuzz_input(2026, 40))) == REFERENCE_2026


def test_judge_agrees_with_the_reference_program(tmp_path):
    """Compile the source's own judge (when g++ and the source are at hand) and compare."""
    if not SEED_FILE.exists() or shutil.which("g++") is None:
        pytest.skip(f"to compile the source problem's own judge and compare, install g++ and set {SEED_ENV} to "
                    "the problem's text (the one holding its C++ judge)")
    text = SEED_FILE.read_text(encoding="utf-8")
    start = text.index("#include <iostream>")
    end = text.index("return 0;\n    }", start) + len("return 0;\n    }")
    (tmp_path / "ref.cpp").write_text(textwrap.dedent("    " + text[start:end]))
    subprocess.run(["g++", "-O2", "-o", str(tmp_path / "ref"), str(tmp_path / "ref.cpp")], check=True)
    cases = judge_fuzz_input(7, 400)
    expected = subprocess.run([str(tmp_path / "ref")], input=cases, capture_output=True, text=True,
                              check=True).stdout.split()
    got = " ".join(judge_cases(cases)).split()
    assert got == expected


def test_arena_judge_command(tmp_path, capsys):
    path = tmp_path / "cases.txt"
    path.write_text(SOURCE_SAMPLE_LIKE)
    assert arena_main(["judge", "tictactoe3d", str(path)]) == 0
    assert capsys.readouterr().out.split("\n")[:3] == ["Black 5", "Draw", "Black 7"]
    path.write_text("3 3 1\nx 1\n")
    assert arena_main(["judge", "tictactoe3d", str(path)]) == 2
    assert f"{path}:2" in capsys.readouterr().err


# ---------------------------------------------------------------- generator
def gen_args(*sizes: tuple[int, int], moves: int = 2) -> argparse.Namespace:
    return argparse.Namespace(size=list(sizes) or None, moves=moves)


def test_generator_is_seeded_and_leaves_no_immediate_win():
    for seed in range(30):
        board = gen.generate(gen_args((4, 4), (3, 3), moves=3), seed)
        assert board.text == gen.generate(gen_args((4, 4), (3, 3), moves=3), seed).text
        state = REF.load(board.text)
        assert (state.n, state.m) == ((4, 4) if seed % 2 == 0 else (3, 3)) == (board.params["n"], board.params["m"])
        assert len(state.moves) == 3 and REF.outcome(state) is None
        assert not winning_drops(state, state.colour_to_move)
    # one board is remade from its manifest entry alone
    assert gen.generate(gen_args((3, 3), moves=3), 5).text == gen.generate(gen_args((4, 4), (3, 3), moves=3), 5).text
    assert gen.generate(gen_args(), 0).text == "4 4\n4 1\n4 2\n"  # pinned: boards/tictactoe3d/board1.in


def test_generator_rejects_impossible_parameters():
    with pytest.raises(BadParameters, match="--moves"):
        gen.generate(gen_args((3, 3), moves=27), 1)
    with pytest.raises(argparse.ArgumentTypeError):
        gen.parse_size("3:4")


def test_windows_count():
    # 3 axes x n*n*(n-m+1) + 6 face diagonals x n*(n-m+1)^2 + 4 space diagonals x (n-m+1)^3
    assert len(windows(7, 4)) == 3 * 49 * 4 + 6 * 7 * 16 + 4 * 64
    assert len(windows(3, 3)) == 49


# ---------------------------------------------------------------- bots
def run_bot(bot: Path, folder: Path, state: TicTacToe3DState) -> tuple[Drop, float]:
    """Run a bot as the arena does; its move and its CPU seconds."""
    (folder / "game.in").write_text(REF.render(state, REF.to_move(state))["game.in"])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*PYTHON, str(bot)], cwd=folder, check=True, timeout=20)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    move = REF.parse(state, (folder / "game.out").read_text())
    REF.check(state, move)
    return move, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


@pytest.mark.parametrize("bot", ["random.py", "strong.py"])
def test_bots_play_legal_moves_as_processes(bot, tmp_path):
    for board in ("board1.in", "board8.in"):
        state = REF.load((ROOT / "boards" / "tictactoe3d" / board).read_text())
        _, cpu = run_bot(BOTS / bot, tmp_path, state)
        assert cpu < 0.7, f"{bot} used {cpu:.2f} s of CPU on {board}"


def test_strong_bot_wins_at_once_and_blocks(tmp_path):
    # Black to move with (1,1,1) (2,1,1) (3,1,1): it must play (4, 1).
    win = play(4, 4, "1 1, 1 2, 2 1, 2 2, 3 1, 4 4")
    assert run_bot(BOTS / "strong.py", tmp_path, win)[0] == Drop(4, 1)
    # White to move must stop Black's (1..3, 1) at (4, 1).
    block = play(4, 4, "1 1, 1 2, 2 1, 2 2, 3 1")
    assert run_bot(BOTS / "strong.py", tmp_path, block)[0] == Drop(4, 1)

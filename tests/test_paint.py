"""The painting game's referee (docs/rules.md, paint): the source's example game, every
rule by name, the end of the game, the linear-time legal-move test and the
region enumeration against brute force, bad boards and bad bot output, and
judge mode through the real command."""

from __future__ import annotations

import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from arena.cli import main
from referees.base import BadInput, BadOutput, IllegalMove
from referees.paint import (
    EMPTY,
    PAINTED,
    PaintMove,
    PaintReferee,
    PaintState,
    apply_move,
    board_text,
    check_move,
    free_cells,
    has_legal_move,
    outcome,
    parse_board,
    parse_move,
    playable_numbers,
    regions,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "boards" / "examples"
EXAMPLE = """5
# # # # #
# # 3 1 #
# # # # #
2 1 # 5 #
# # # # #
"""
# The source's three moves, and the boards it shows before moves 2 and 3.
MOVES = ["5\n3 3\n3 4\n4 2\n4 3\n4 4\n", "1\n1 3\n", "2\n3 0\n4 0\n"]
AFTER_1 = "5\n# # # # #\n# # 3 1 #\n# # # # #\n2 1 # B B\n# # B B B\n"
AFTER_2 = "5\n# # # # #\n# # 3 B #\n# # # # #\n2 1 # B B\n# # B B B\n"


def play(text: str, *moves: str) -> PaintState:
    """The position after the given game.out texts, each checked."""
    state = parse_board(text)
    for move_text in moves:
        move = parse_move(move_text)
        check_move(state, move)
        state = apply_move(state, move)
    return state


def rule_of(state: PaintState, move_text: str) -> str | None:
    try:
        check_move(state, parse_move(move_text))
    except IllegalMove as exc:
        return exc.rule
    return None


def arena(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.cli", *argv], check=False, capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


# ---------------------------------------------------------------- the source's example game
def test_example_game_through_the_referee():
    state = parse_board(EXAMPLE)
    shown = [AFTER_1, AFTER_2]
    for number, text in enumerate(MOVES):
        assert outcome(state) is None
        assert state.seat == number % 2
        move = parse_move(text)
        check_move(state, move)
        state = apply_move(state, move)
        if number < 2:
            assert board_text(state) == shown[number]
    end = outcome(state)
    assert end is not None and end.winner == 0 and "second player has no legal move" in end.reason
    assert playable_numbers(state) == [] and not has_legal_move(state)


def test_example_files_are_the_source_example():
    assert (EXAMPLES / "example.in").read_text() == EXAMPLE
    assert (EXAMPLES / "example.moves").read_text() == "".join(MOVES)


def test_example_game_through_arena_judge():
    done = arena("judge", "paint", "boards/examples/example.in", "boards/examples/example.moves")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\nok\nok\nresult: first wins\n"
    assert done.stderr == ""


# ---------------------------------------------------------------- one test per rule
PAINTED_EXAMPLE = AFTER_1  # (3,3) (3,4) (4,2) (4,3) (4,4) painted


@pytest.mark.parametrize(("board", "move", "rule"), [
    (EXAMPLE, "0\n", "empty"),
    (EXAMPLE, "1\n5 0\n", "off-board"),
    (EXAMPLE, "1\n0 -1\n", "off-board"),
    (EXAMPLE, "2\n1 3\n1 3\n", "duplicate"),
    (PAINTED_EXAMPLE, "1\n3 3\n", "painted"),
    (EXAMPLE, "1\n0 0\n", "no-number"),
    (EXAMPLE, "2\n1 2\n1 3\n", "two-numbers"),
    (EXAMPLE, "2\n1 3\n0 3\n", "wrong-size"),
    (EXAMPLE, "2\n1 2\n1 1\n", "wrong-size"),
    (EXAMPLE, "3\n1 2\n0 0\n0 1\n", "not-connected"),
    (PAINTED_EXAMPLE, "3\n1 2\n2 2\n3 2\n", "touches-painted"),
    (PAINTED_EXAMPLE, "1\n1 3\n", None),
])
def test_each_rule_is_named(board, move, rule):
    assert rule_of(parse_board(board), move) == rule


def test_messages_quote_the_cell():
    with pytest.raises(IllegalMove, match=r"\(2, 2\) is listed twice"):
        check_move(parse_board(EXAMPLE), parse_move("3\n1 2\n2 2\n2 2\n"))
    with pytest.raises(IllegalMove, match=r"\(3, 2\) shares a side with the painted cell \(4, 2\)"):
        check_move(parse_board(PAINTED_EXAMPLE), parse_move("3\n1 2\n2 2\n3 2\n"))


def test_touching_only_at_a_corner_is_legal():
    state = parse_board(PAINTED_EXAMPLE)
    # (2, 2) meets the painted (3, 3) only at a corner.
    assert rule_of(state, "3\n1 2\n2 2\n2 1\n") is None
    assert rule_of(state, "3\n1 2\n2 2\n2 3\n") == "touches-painted"  # (2, 3) shares a side with (3, 3)


def test_a_number_may_not_be_painted_twice_nor_painted_over():
    state = play(EXAMPLE, MOVES[0])
    assert rule_of(state, MOVES[0]) == "painted"


# ---------------------------------------------------------------- the end of the game
def test_draw_when_no_number_is_left():
    state = play("2\n1 #\n# #\n", "1\n0 0\n")
    end = outcome(state)
    assert end is not None and end.winner is None and end.points(0) == end.points(1) == 1.5
    end = outcome(parse_board("2\n# B\n# #\n"))
    assert end is not None and end.winner is None


def test_draw_beats_no_legal_move():
    """No number left is a draw even though nobody can move."""
    end = outcome(parse_board("1\nB\n"))
    assert end is not None and end.winner is None


def test_player_without_a_legal_move_loses():
    # A 3 that only has two cells to grow into: the first player cannot move.
    end = outcome(parse_board("3\n3 # B\nB B B\nB B B\n"))
    assert end is not None and end.winner == 1
    state = PaintState(3, parse_board("3\n3 # B\nB B B\nB B B\n").cells, seat=1)
    assert outcome(state).winner == 0


# ---------------------------------------------------------------- brute force
def sides(i: int, n: int) -> list[int]:
    x, y = divmod(i, n)
    around = ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
    return [a * n + b for a, b in around if 0 <= a < n and 0 <= b < n]


def brute_legal(state: PaintState, chosen: frozenset[int]) -> bool:
    """The five conditions of a paint move (docs/rules.md), written out plainly."""
    n, cells = state.n, state.cells
    numbers = [i for i in chosen if cells[i] > 0]
    if not chosen or any(cells[i] == PAINTED for i in chosen) or len(numbers) != 1:
        return False
    if cells[numbers[0]] != len(chosen):
        return False
    if any(cells[j] == PAINTED for i in chosen for j in sides(i, n)):
        return False
    reached, todo = {numbers[0]}, [numbers[0]]
    while todo:
        for j in sides(todo.pop(), n):
            if j in chosen and j not in reached:
                reached.add(j)
                todo.append(j)
    return reached == chosen


def random_board(rng: random.Random, n: int, top: int = 6) -> PaintState:
    """Cells: up to a fifth painted, a fifth numbers 1..top, the rest empty."""
    painted = rng.choice((0.0, 0.07, 0.2))

    def cell() -> int:
        r = rng.random()
        return PAINTED if r < painted else rng.randint(1, top) if r < painted + 0.2 else EMPTY
    return PaintState(n, tuple(cell() for _ in range(n * n)), seat=rng.randint(0, 1))


def brute_regions(state: PaintState, index: int) -> set[frozenset[int]]:
    """Every legal region of the number at ``index``, by growing all connected
    sets of non-painted non-number cells around it and keeping the legal ones."""
    n, cells = state.n, state.cells
    allowed = {j for j, v in enumerate(cells) if v == EMPTY} | {index}
    level = {frozenset([index])}
    for _ in range(cells[index] - 1):
        level = {s | {j} for s in level for c in s for j in sides(c, n) if j in allowed and j not in s}
    return {s for s in level if brute_legal(state, s)}


def legal_sets_by_subsets(state: PaintState) -> set[frozenset[int]]:
    every = range(state.n * state.n)
    subsets = (frozenset(c) for k in range(1, len(every) + 1) for c in combinations(every, k))
    return {s for s in subsets if brute_legal(state, s)}


def test_check_move_agrees_with_the_rules_on_every_subset():
    """On 1x1..3x3 boards, check_move accepts exactly the legal subsets."""
    rng = random.Random(2024)
    for _ in range(200):
        state = random_board(rng, rng.choice((1, 2, 3, 3)), top=5)
        legal = legal_sets_by_subsets(state)
        every = range(state.n * state.n)
        for k in range(1, len(every) + 1):
            for chosen in combinations(every, k):
                accepted = rule_of(state, PaintMove.of(state, list(chosen)).to_text()) is None
                assert accepted == (frozenset(chosen) in legal), (board_text(state), chosen)


def test_legal_move_test_and_regions_against_all_subsets():
    rng = random.Random(7)
    for _ in range(200):
        state = random_board(rng, rng.choice((1, 2, 3, 3)), top=5)
        legal = legal_sets_by_subsets(state)
        playable = sorted({i for s in legal for i in s if state.cells[i] > 0})
        assert playable_numbers(state) == playable, board_text(state)
        assert has_legal_move(state) == bool(legal)
        for i in (i for i, v in enumerate(state.cells) if v > 0):
            found = list(regions(state, i))
            assert len(found) == len(set(found)), "a region was produced twice"
            assert set(found) == {s for s in legal if i in s}


def test_legal_move_test_and_regions_against_grown_sets():
    """Bigger boards (4x4, 5x5), numbers up to 7: the brute force grows sets."""
    rng = random.Random(11)
    for _ in range(150):
        state = random_board(rng, rng.choice((4, 5)), top=rng.choice((4, 7)))
        found = {i: brute_regions(state, i) for i, v in enumerate(state.cells) if v > 0}
        assert playable_numbers(state) == sorted(i for i, legal in found.items() if legal), board_text(state)
        assert has_legal_move(state) == any(found.values())
        for i, legal in found.items():
            listed = list(regions(state, i))
            assert len(listed) == len(set(listed)) and set(listed) == legal, (board_text(state), i)


def test_legal_move_test_agrees_with_playable_numbers_on_larger_boards():
    """has_legal_move stops early and remembers the components it walked; on boards up to 12x12
    with numbers up to 15 (walks that stop short, components shared by several numbers) it
    answers as the linear playable_numbers does."""
    # the 6 at (0, 0) walks the four free empty cells to their end; the 6 at (2, 0) touches them
    # twice, and they still count four: no move
    shared = parse_board("3\n6 # B\n# # 6\n6 # #\n")
    assert not has_legal_move(shared) and playable_numbers(shared) == []
    rng = random.Random(13)
    for _ in range(400):
        state = random_board(rng, rng.randint(6, 12), top=rng.choice((3, 8, 15)))
        assert has_legal_move(state) == bool(playable_numbers(state)), board_text(state)


def test_what_a_position_carries_to_the_next_is_what_it_would_work_out():
    """apply_move hands the next position its free cells and board rows, changed where the move
    changed them: at every position of random games they equal those of the same cells read
    afresh, and the board text is the cells' tokens row by row."""
    referee, rng = PaintReferee(), random.Random(17)
    starts = [random_board(rng, rng.randint(2, 9)) for _ in range(60)]
    starts += [parse_board(p.read_text()) for p in sorted((ROOT / "boards").glob("group*/board*.in"))[:3]]
    for state in starts:
        board_text(state), free_cells(state)  # worked out for the first position, then carried
        while outcome(state) is None:
            state = apply_move(state, referee.random_move(state, rng))
            assert {"free", "rows"} <= set(vars(state)), "not carried"
            afresh = PaintState(state.n, state.cells, state.seat)
            assert free_cells(state) == free_cells(afresh)
            tokens = ["#" if v == EMPTY else "B" if v == PAINTED else str(v) for v in state.cells]
            rows = [" ".join(tokens[x * state.n:(x + 1) * state.n]) for x in range(state.n)]
            assert board_text(state) == board_text(afresh) == f"{state.n}\n" + "\n".join(rows) + "\n"
            assert has_legal_move(state) == bool(playable_numbers(afresh))


def test_regions_limit_caps_the_count():
    state = parse_board("4\n4 # # #\n# # # #\n# # # #\n# # # #\n")
    assert len(list(regions(state, 0))) > 10
    assert len(list(regions(state, 0, limit=10))) == 10


def test_random_move_is_always_legal():
    referee, rng = PaintReferee(), random.Random(5)
    starts = [random_board(rng, rng.randint(2, 7)) for _ in range(150)]
    starts += [parse_board(p.read_text()) for p in sorted((ROOT / "boards").glob("group*/board*.in"))]
    games = 0
    for state in starts:
        while outcome(state) is None:
            move = referee.random_move(state, rng)
            assert referee.parse(state, referee.move_text(move)) == move
            referee.check(state, move)
            state = referee.apply(state, move)
        games += 1
    assert games == len(starts)


# ---------------------------------------------------------------- bad boards and bad output
@pytest.mark.parametrize(("text", "line", "words"), [
    ("", 1, "board size N"),
    ("0\n", 1, "'0'"),
    ("x\n# #\n", 1, "'x'"),
    ("2 #\n# #\n# #\n", 1, "'2 #'"),
    ("3\n# # #\n# #\n# # #\n", 3, "row 1 must have 3 tokens"),
    ("3\n# # #\n# # # #\n# # #\n", 3, "found 4"),
    ("2\n# #\n", 3, "expected 2 rows"),
    ("2\n# x\n# #\n", 2, "'x'"),
    ("2\n# #\n# 0\n", 3, "'0'"),
    ("2\n# #\n-3 #\n", 3, "'-3'"),
    ("2\n# #\nb #\n", 3, "'b'"),
    ("2\n# \u00b2\n# #\n", 2, "'\u00b2'"),
    ("2\n# #\n# #\n# #\n", 4, "end of the board after 2 rows"),
    ("2\n# #\n# #\n\n\n5\n", 6, "'5'"),
])
def test_bad_board_names_the_line(text, line, words):
    with pytest.raises(BadInput) as err:
        parse_board(text)
    assert err.value.line == line and words in str(err.value)


def test_board_text_round_trips_and_tolerates_crlf_and_blank_lines():
    assert board_text(parse_board(EXAMPLE)) == EXAMPLE
    assert parse_board(EXAMPLE.replace("\n", "\r\n") + "\n\n") == parse_board(EXAMPLE)
    assert parse_board("\n" + EXAMPLE) == parse_board(EXAMPLE)
    assert PaintReferee().render(parse_board(EXAMPLE), 1) == {"game.in": EXAMPLE}


@pytest.mark.parametrize(("text", "line", "words"), [
    ("", 1, "the number of cells k"),
    ("x\n", 1, "'x'"),
    ("-1\n", 1, "at least 0"),
    ("2\n0 0\n0\n", 3, "column y of cell 2 of 2"),
    ("1\n0 a\n", 2, "'a'"),
    ("1\n0 0 5\n", 2, "extra token '5'"),
    ("1\n0 0\n\n7\n", 4, "end of the move after 1 cells"),
])
def test_bad_output_names_the_line(text, line, words):
    with pytest.raises(BadOutput) as err:
        parse_move(text)
    assert err.value.line == line and words in str(err.value)


def test_output_is_whitespace_tolerant():
    assert parse_move("  2 3 0\r\n\t4 0") == PaintMove(((3, 0), (4, 0)))


# ---------------------------------------------------------------- judge mode
def judge_lines(board: str, moves: str) -> list[str]:
    return list(PaintReferee().judge([board, moves], {}))


def test_judge_stops_at_the_first_illegal_move():
    assert judge_lines(EXAMPLE, "1\n0 0\n" + MOVES[0]) == [
        "illegal: no-number: the cells hold no number", "result: second wins"]
    lines = judge_lines(EXAMPLE, MOVES[0] + "1\n3 3\n")
    assert lines[0] == "ok" and lines[1].startswith("illegal: painted: ") and lines[2] == "result: first wins"


def test_judge_unfinished_draw_and_ignored_moves():
    assert judge_lines(EXAMPLE, MOVES[0]) == ["ok", "result: unfinished"]
    assert judge_lines(EXAMPLE, "") == ["result: unfinished"]
    assert judge_lines("2\n1 #\n# #\n", "1 0 0") == ["ok", "result: draw"]
    assert judge_lines(EXAMPLE, "".join(MOVES) + "1\n0 0\n") == ["ok", "ok", "ok", "result: first wins"]


def test_judge_reads_every_move_before_judging():
    with pytest.raises(BadInput) as err:
        judge_lines(EXAMPLE, MOVES[0] + "2\n1 3\n")
    assert err.value.where == "MOVES" and err.value.line == 8 and "row x of move 2" in str(err.value)


def test_judge_unreadable_input_exits_2_naming_the_file(tmp_path, capsys):
    board, moves = tmp_path / "bad.in", tmp_path / "game.moves"
    board.write_text("2\n# #\n# q\n")
    moves.write_text("1\n0 0\n")
    assert main(["judge", "paint", str(board), str(moves)]) == 2
    err = capsys.readouterr()
    assert err.out == "" and f"{board}:3: expected '#', 'B' or a positive integer, found 'q'" in err.err
    board.write_text(EXAMPLE)
    moves.write_text("1\n1 x\n")
    assert main(["judge", "paint", str(board), str(moves)]) == 2
    err = capsys.readouterr()
    assert err.out == "" and f"{moves}:2: " in err.err and "'x'" in err.err


def test_judge_missing_file_exits_2_without_traceback(tmp_path):
    done = arena("judge", "paint", str(tmp_path / "nowhere.in"), "boards/examples/example.moves")
    assert done.returncode == 2 and done.stdout == ""
    assert "nowhere.in" in done.stderr and "Traceback" not in done.stderr

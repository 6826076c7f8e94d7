"""Texas match-3 (docs/rules.md, match3; source 003): the source's samples, the official
data (when present), hand-made cases for every rule, files, the generator and
the bots run as real processes."""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import time
from pathlib import Path

import pytest

from arena.bots import PYTHON
from arena.cli import main as arena_main
from generator import BadParameters
from generator import match3 as gen
from referees.base import BadInput, BadOutput, IllegalMove, TokenReader
from referees.match3 import (
    Game,
    Match3Referee,
    Plan,
    Swap,
    best_hand,
    board_text,
    hand_bonus,
    parse_board,
    play_swaps,
)

ROOT = Path(__file__).resolve().parents[1]
#: The official inputs and answers (THUSAAC/THUPC2022-Final, problem I), not shipped with the project
#: (they are the contest's): a folder holding 1.in/1.ans ... 30.in/30.ans, named by this variable.
OFFICIAL_ENV = "ARENA_MATCH3_OFFICIAL"
OFFICIAL = Path(os.environ.get(OFFICIAL_ENV, "/nonexistent"))
REF = Match3Referee()

SAMPLE_BOARD = """\
1 1 5 1 5 4 5 3
2 1 2 2 5 4 3 2
1 4 1 4 2 1 5 4
2 1 5 5 2 1 4 4
2 3 5 2 3 4 2 2
4 2 4 3 3 2 4 5
1 3 4 3 5 2 4 3
3 4 2 5 2 1 1 2
0 0 0 0 0 0 0 0
2 0 0 0 0 0 0 0
0 0 0 0 5 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 6 0 0 3 1
0 0 0 0 3 0 0 0
"""
SAMPLE_1 = "8 8 5 5\n" + SAMPLE_BOARD + "0 0 0 0 0 0 1 4\n3 2 4 2\n5 4 5 5\n7 2 7 3\n8 5 8 6\n6 7 6 8\n"
SAMPLE_2 = ("8 8 5 8\n" + SAMPLE_BOARD + "0 0 0 0 0 0 0 0\n"
            "1 1 2 2\n3 2 4 2\n3 2 3 3\n4 2 4 3\n5 4 5 5\n7 2 7 3\n8 5 8 6\n6 7 6 8\n")
SAMPLE_3 = """5 5 2 1
1 1 2 1 1
1 1 2 1 1
2 2 1 2 2
1 1 2 1 1
1 1 2 1 1
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
3 3 4 3
"""


def judge(text: str) -> int:
    (line,) = REF.judge([text], {})
    return int(line)


def game(colours: str, kinds: dict[tuple[int, int], int] | None = None) -> Game:
    """A board from rows of colours ('.' empty) and special types by 1-based cell."""
    rows = [row.split() for row in colours.strip().splitlines()]
    n, m = len(rows), len(rows[0])
    cells = [0 if v == "." else int(v) for row in rows for v in row]
    types = [0] * (n * m)
    for (x, y), kind in (kinds or {}).items():
        types[(x - 1) * m + (y - 1)] = kind
    return Game(n, m, cells, types)


def rows(g: Game) -> str:
    """The colours of a board as rows, '.' for empty."""
    return "\n".join(" ".join(str(v) if v else "." for v in g.colours[r * g.m:(r + 1) * g.m]) for r in range(g.n))


def swap(g: Game, x1: int, y1: int, x2: int, y2: int):
    return g.play(g.index(x1, y1), g.index(x2, y2))


# ---------------------------------------------------------------- the source's samples
@pytest.mark.parametrize("text, score", [(SAMPLE_1, 11692), (SAMPLE_2, 684), (SAMPLE_3, 3023)])
def test_source_samples(text, score):
    assert judge(text) == score


def test_sample_1_step_by_step():
    """The source's explanation: removal + chain + combo after each swap are
    315, 417, 429, 435, 482; the best hand is (1 2 4 2 4), worth 210; both end
    bonuses: 482 + 210 + 11000 = 11692."""
    reader = TokenReader(SAMPLE_1, BadInput)
    state = parse_board(reader)
    g, total, mains = Game.of(state), 0, []
    for expected in (315, 417, 429, 435, 482):
        swap_ = Swap(*(reader.int("swap") for _ in range(4)))
        turn = g.play(g.index(swap_.x1, swap_.y1), g.index(swap_.x2, swap_.y2))
        total += turn.points
        mains.append(turn.main)
        assert total == expected
    assert best_hand(mains) == 210 and g.cleared()


def test_sample_3_by_hand():
    """Round 1 removes row 3 (five 2s), row 4 (five 1s) and the 2s above (3,3):
    33 - 14 ... = 19 points; combos: seven 2s (800) and five 1s (200).  Round 2:
    four columns of three 1s fall into place: 12 x 2 = 24, two 2x3 blocks
    (450 each).  Two rounds: chain 80.  All swaps valid: 1000."""
    state = parse_board(TokenReader(SAMPLE_3, BadInput))
    turn = swap(Game.of(state), 3, 3, 4, 3)
    assert (turn.removal, turn.combo, turn.chain, turn.rounds, turn.main) == (19 + 24, 800 + 200 + 900, 80, 2, (1, 2))


# ---------------------------------------------------------------- official data
def official_cases() -> list[str]:
    """The names of the official inputs that have an answer beside them
    (``1`` .. ``30`` and the statement's ``sample1`` .. ``sample3``)."""
    if not OFFICIAL.is_dir():
        return []
    return sorted(p.stem for p in OFFICIAL.glob("*.in") if p.with_suffix(".ans").exists())


def test_official_data():
    """The official inputs with answers (THUSAAC/THUPC2022-Final, problem I;
    where ``ARENA_MATCH3_OFFICIAL`` names them): every score exact, each input under 2 s."""
    cases = official_cases()
    if not cases:
        pytest.skip(f"to check the judge against the official match-3 data (THUPC2022-Final, problem I), set "
                    f"{OFFICIAL_ENV} to a folder holding its 1.in/1.ans ... 30.in/30.ans")
    assert len(cases) >= 30
    slowest = 0.0
    for case in cases:
        text = (OFFICIAL / f"{case}.in").read_text()
        start = time.process_time()
        got = judge(text)
        slowest = max(slowest, time.process_time() - start)
        assert got == int((OFFICIAL / f"{case}.ans").read_text()), f"case {case}"
    assert slowest < 2.0


# ---------------------------------------------------------------- validity
BASE = """
4 5 4 5 4
5 4 5 4 5
1 1 2 1 3
"""


@pytest.mark.parametrize("cells", [
    (3, 1, 2, 2),  # diagonal
    (3, 1, 3, 3),  # two apart
    (3, 3, 3, 3),  # the same cell
    (3, 5, 3, 6),  # off the board
    (0, 1, 1, 1),  # off the board
    (1, 1, 1, 2),  # adjacent, but no run forms
])
def test_invalid_swaps_are_skipped_and_change_nothing(cells):
    g = game(BASE)
    before = rows(g)
    a, b = g.index(*cells[:2]), g.index(*cells[2:])
    assert a is None or b is None or g.play(a, b) is None
    assert rows(g) == before


def test_a_swap_with_an_empty_cell_is_invalid():
    g = game(". 1 2\n1 2 2\n2 1 1")
    assert swap(g, 1, 1, 1, 2) is None and swap(g, 1, 1, 2, 1) is None
    state = REF.load("2 3 2 2\n1 1 2\n2 2 1\n0 0 0\n0 0 0\n")
    assert play_swaps(state, [Swap(1, 1, 2, 1), Swap(1, 3, 2, 3)])[1].total == 9 + 10000  # the official case 4


def test_plain_run_and_gravity():
    g = game(BASE)
    turn = swap(g, 3, 3, 3, 4)  # row 3 becomes 1 1 1 2 3
    assert (turn.removal, turn.chain, turn.combo, turn.rounds, turn.main) == (3, 0, 0, 1, (1,))
    assert rows(g) == ". . . 5 4\n4 5 4 4 5\n5 4 5 2 3"


def test_column_run_and_both_main_colours():
    g = game("1 2 4\n1 2 4\n2 1 3\n4 3 1")
    turn = swap(g, 3, 1, 3, 2)  # column 1: 1 1 1 ; column 2: 2 2 2
    assert turn.main == (1, 2) and turn.removal == 3 + 6
    assert rows(g) == ". . 4\n. . 4\n. . 3\n4 3 1"


# ---------------------------------------------------------------- special pieces
# BASE with the swap (3,3)-(3,4): the run is (3,1) (3,2) (3,3), colour 1.
@pytest.mark.parametrize("kind, removed, left", [
    (1, 1 + 1 + 1 + 2 + 3, ". . . . .\n4 5 4 5 4\n5 4 5 4 5"),  # the whole row 3
    (2, 3 + 5 + 4, ". . . 5 4\n4 . 4 4 5\n5 . 5 2 3"),  # the run and column 2
    (3, 8 + 5 + 4, ". . . . .\n4 . 4 5 4\n5 . 5 4 5"),  # row 3 and column 2
    (4, 3 + 5 + 4 + 5, ". . . 5 4\n. . . 4 5\n4 5 4 2 3"),  # the 3x3 square around (3,2)
    (5, 18 + 18 + 5, ". . . . 4\n. . . . 5\n. . . . 3"),  # the 5x5 square around (3,2): columns 1-4
])
def test_each_special_type(kind, removed, left):
    g = game(BASE, {(3, 2): kind})
    turn = swap(g, 3, 3, 3, 4)
    assert (turn.removal, turn.rounds) == (removed, 1)
    assert rows(g) == left


def test_same_colour_special_removes_every_piece_of_its_colour():
    g = game("4 5 4 5 1\n5 4 5 4 5\n1 1 2 1 3", {(3, 1): 6})
    turn = swap(g, 3, 3, 3, 4)
    assert turn.removal == 4  # the run's three 1s and the 1 at (1,5)
    assert rows(g) == ". . . 5 .\n4 5 4 4 5\n5 4 5 2 3"


def test_5x5_square_is_clipped_and_centred_on_the_special():
    g = game(BASE, {(3, 1): 5})
    turn = swap(g, 3, 3, 3, 4)
    assert turn.removal == 13 + 14 + 3  # rows 1-3 of columns 1-3
    assert rows(g) == ". . . 5 4\n. . . 4 5\n. . . 2 3"


def test_specials_chain_within_one_round():
    # the run's ROW special at (3,1) removes (3,5), a COLUMN special, which
    # removes column 5, whose (1,5) is a 3x3 special: (1,4) (2,4) go too.
    g = game(BASE, {(3, 1): 1, (3, 5): 2, (1, 5): 4})
    turn = swap(g, 3, 3, 3, 4)
    assert turn.rounds == 1
    assert turn.removal == 8 + 4 + 5 + 5 + 4
    assert rows(g) == ". . . . .\n4 5 4 . .\n5 4 5 . ."  # columns 4 and 5 gone, the rest fell


def test_a_special_triggers_once_per_round():
    g = game(BASE, {(3, 1): 1, (3, 2): 1})  # two ROW specials in the same row
    assert swap(g, 3, 3, 3, 4).removal == 8


def test_a_special_moved_by_the_swap_keeps_its_type():
    g = game(BASE, {(3, 4): 1})  # the ROW special moves to (3,3) with its colour 1
    assert swap(g, 3, 3, 3, 4).removal == 8


def test_chain_rounds_and_a_special_that_fell():
    """Round 1: the swap makes a column of 2s (6 points).  The ROW special 1
    at (1,2) falls to (4,2) between two 1s: round 2 removes the whole row 4
    (1+1+1+7+8 = 18, doubled).  Two rounds: chain bonus 80."""
    g = game("""
        5 1 6 5 6
        6 2 5 6 5
        5 2 6 5 6
        2 1 1 7 8
    """, {(1, 2): 1})
    turn = swap(g, 4, 1, 4, 2)
    assert (turn.removal, turn.chain, turn.combo, turn.rounds, turn.main) == (6 + 2 * 18, 80, 0, 2, (2,))
    assert rows(g) == ". . . . .\n5 . 6 5 6\n6 . 5 6 5\n5 . 6 5 6"


# ---------------------------------------------------------------- combos
@pytest.mark.parametrize("shape, combo", [
    ("1 1 1 2", 0),
    ("1 1 1 1 2", 50),  # four in a row
    ("1 1 1 1 1", 200),  # five in a row
    ("2 1 2\n1 1 1\n2 1 2", 200),  # cross: five
    ("1 1 1\n2 1 2\n2 1 2", 200),  # T: five
    ("1 2 2\n1 2 2\n1 1 1", 200),  # L: five
    ("1 1 1\n1 1 1", 450),  # 2x3 block: six
    ("1 1 1 2 1 1 1", 0),  # two runs of three, not connected
    ("1 1 1\n2 2 2", 0),  # adjacent runs of different colours do not join
    ("1 1 1\n3 1 3", 0),  # a same-coloured neighbour that is in no run does not count
])
def test_combo_shapes(shape, combo):
    g = game(shape)
    runs = g.runs_through(range(g.n * g.m))
    assert g.combo(runs) == combo


def test_combo_by_a_real_swap_of_four():
    g = game("2 1 1 3 1\n4 5 4 1 4")
    turn = swap(g, 1, 4, 2, 4)  # row 1: 2 1 1 1 1
    assert (turn.combo, turn.removal) == (50, 4)


# ---------------------------------------------------------------- poker hands and end bonuses
@pytest.mark.parametrize("cards, bonus", [
    ((1, 2, 3, 4, 9), 50 + 9),  # high card
    ((3, 3, 1, 2, 5), 100 + 6),  # one pair
    ((1, 1, 4, 4, 2), 200 + 8 + 1),  # two pairs
    ((4, 4, 4, 1, 2), 300 + 12),  # three of a kind
    ((4, 4, 4, 1, 1), 500 + 12 + 1),  # full house
    ((1, 1, 4, 4, 4), 500 + 12 + 1),
    ((2, 5, 2, 2, 2), 750 + 10),  # four of a kind
    ((3, 3, 3, 3, 3), 1000 + 30),  # five of a kind
])
def test_every_hand(cards, bonus):
    assert hand_bonus(cards) == bonus


def test_best_hand_chooses_among_two_main_colours():
    assert best_hand([(1,), (2,), (4,), (2,), (4,)]) == 210  # the source's sample 1
    assert best_hand([(1, 2), (2,), (4,), (2,), (4,)]) == 500 + 6 + 4  # 2 2 4 2 4: full house


def test_end_bonuses():
    board = "2 3 2 {q}\n1 1 2\n2 2 1\n0 0 0\n0 0 0\n"
    one = REF.load(board.format(q=1))
    assert play_swaps(one, [Swap(1, 3, 2, 3)])[1].end == 1000 + 10000  # all valid, board cleared
    assert play_swaps(one, [])[1].total == 0  # the missing swap is invalid
    two = REF.load(board.format(q=2))
    scores = play_swaps(two, [Swap(1, 3, 2, 3)])[1]
    assert (scores.end, scores.cleared, scores.valid) == (10000, True, 1)
    three = REF.load(SAMPLE_3.rsplit("\n", 2)[0] + "\n")
    assert play_swaps(three, [Swap(3, 3, 4, 3)])[1].end == 1000  # all valid, not cleared


def test_a_hand_every_five_valid_swaps_only():
    state = REF.load(SAMPLE_1.split("0 0 0 0 0 0 1 4")[0] + "0 0 0 0 0 0 1 4\n")
    swaps = [Swap(3, 2, 4, 2), Swap(5, 4, 5, 5), Swap(7, 2, 7, 3), Swap(8, 5, 8, 6)]
    assert play_swaps(state, swaps)[1].hands == 0  # four valid swaps: no hand yet
    assert play_swaps(state, swaps + [Swap(1, 1, 1, 1), Swap(6, 7, 6, 8)])[1].hands == 210


# ---------------------------------------------------------------- files and the referee
def test_board_file_round_trip_and_game_in():
    state = REF.load(SAMPLE_1.split("0 0 0 0 0 0 1 4")[0] + "0 0 0 0 0 0 1 4\n")
    text = REF.render(state, 0)["game.in"]
    assert text == board_text(state) and REF.load(text) == state
    assert text.startswith("8 8 5 5\n1 1 5 1 5 4 5 3\n")


@pytest.mark.parametrize("text, message", [
    ("2 2 2 1\n1 2\n2 1\n0 0\n0 0\n3 3 3 3\n", "the end of the board"),
    ("2 2 2 1\n1 3\n2 1\n0 0\n0 0\n", "from 1 to 2, found 3"),
    ("2 2 2 1\n1 2\n2 1\n0 7\n0 0\n", "special type of (1, 2)"),
    ("1 3 2 1\n1 1 1\n0 0 0\n", "run of three"),
    ("2 2 2 1\n1 2\n2 1\n0 0\n", "found the end"),
])
def test_bad_boards(text, message):
    with pytest.raises(BadInput, match=re.escape(message)):
        REF.load(text)


def test_parse_plans():
    state = REF.load(SAMPLE_3.rsplit("\n", 2)[0] + "\n")  # q = 1
    assert REF.parse(state, "3 3 4 3") == Plan((Swap(3, 3, 4, 3),))
    assert REF.parse(state, "") == Plan(())  # fewer swaps: the rest are invalid
    assert REF.parse(state, " 9 9\n-1 0 \r\n") == Plan((Swap(9, 9, -1, 0),))  # off the board: invalid, not a fault
    with pytest.raises(BadOutput, match="after 1 swaps"):
        REF.parse(state, "3 3 4 3\n1 1 1 2\n")
    with pytest.raises(BadOutput, match="y2 of swap 1"):
        REF.parse(state, "3 3 4")
    with pytest.raises(BadOutput) as err:
        REF.parse(state, "3 3\n4 x")
    assert err.value.line == 2 and "'x'" in str(err.value)


def test_outcome_is_none_until_the_plan_is_played():
    state = REF.load(SAMPLE_3.rsplit("\n", 2)[0] + "\n")
    assert REF.outcome(state) is None
    plan = REF.parse(state, "3 3 4 3\n")
    REF.check(state, plan)
    end = REF.outcome(REF.apply(state, plan))
    assert end.score == 3023 and end.winner is None and "1 of 1 swaps valid" in end.reason
    with pytest.raises(IllegalMove) as err:
        REF.check(state, Plan((Swap(1, 1, 1, 2),) * 2))
    assert err.value.rule == "too-many-swaps"


def test_random_plan_round_trips():
    state = REF.load((ROOT / "boards" / "match3" / "board1.in").read_text())
    plan = REF.random_move(state, random.Random(1))
    assert len(plan.swaps) == state.q and REF.parse(state, REF.move_text(plan)) == plan


def test_arena_judge_command(tmp_path, capsys):
    path = tmp_path / "sample3.in"
    path.write_text(SAMPLE_3)
    assert arena_main(["judge", "match3", str(path)]) == 0
    assert capsys.readouterr().out == "3023\n"
    path.write_text(SAMPLE_3.replace("3 3 4 3", "3 3 4"))
    assert arena_main(["judge", "match3", str(path)]) == 2
    assert f"{path}:12" in capsys.readouterr().err


def test_limit_sized_input_is_fast():
    """n = m = 50, q = 1000, swaps that stay valid as long as the board allows."""
    state = gen.generate_board(50, 50, 5, 1000, 0.0, seed=3)
    g, swaps = Game.of(state), []
    while len(swaps) < 300:  # the first valid pair in row-major order, repeatedly
        pair = next((p for p in g.adjacent_pairs() if g.swap_is_valid(*p)), None)
        if pair is None:
            break
        g.play(*pair)
        swaps.append(g.swap_of(*pair))
    text = board_text(state) + "".join(s.to_text() for s in swaps) + "1 1 1 2\n" * (1000 - len(swaps))
    start = time.process_time()
    judge(text)
    assert time.process_time() - start < 2.0


# ---------------------------------------------------------------- generator
def gen_args(**changes) -> argparse.Namespace:
    values = {"rows": 10, "cols": 10, "colours": 5, "swaps": 20, "specials": 0.02} | changes
    return argparse.Namespace(**values)


def test_generator_is_seeded_and_has_no_initial_run():
    for colours in (2, 3, 5):
        for seed in range(5):
            board = gen.generate(gen_args(colours=colours, rows=12, cols=9), seed)
            assert board.text == gen.generate(gen_args(colours=colours, rows=12, cols=9), seed).text
            state = REF.load(board.text)  # load refuses a board with a run
            assert set(state.colours) <= set(range(1, colours + 1)) and (state.n, state.m, state.q) == (12, 9, 20)
    first = (ROOT / "boards" / "match3" / "board1.in").read_text()
    assert gen.generate(gen_args(), 1).text == first  # pinned: the shipped board1.in


def test_generator_rejects_impossible_parameters():
    with pytest.raises(BadParameters, match="avoids a run"):
        gen.generate(gen_args(colours=1), 1)
    with pytest.raises(BadParameters, match="--swaps"):
        gen.generate(gen_args(swaps=0), 1)
    with pytest.raises(BadParameters, match="probability"):
        gen.generate(gen_args(specials=1.5), 1)


# ---------------------------------------------------------------- bots
@pytest.mark.parametrize("bot", ["random.py", "greedy.py"])
def test_bots_write_a_legal_plan_as_processes(bot, tmp_path):
    state = REF.load((ROOT / "boards" / "match3" / "board1.in").read_text())
    (tmp_path / "game.in").write_text(REF.render(state, 0)["game.in"])
    subprocess.run([*PYTHON, str(ROOT / "bots" / "match3" / bot)], cwd=tmp_path, check=True, timeout=30)
    plan = REF.parse(state, (tmp_path / "game.out").read_text())
    REF.check(state, plan)
    scores = REF.apply(state, plan).scores
    if bot == "greedy.py":  # every swap it writes is valid
        assert scores.valid == len(plan.swaps) > 0 and scores.total > 1000

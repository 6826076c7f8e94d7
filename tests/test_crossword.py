"""The crossword game (docs/rules.md, crossword), PVE and PVP: one test per legality
condition (a legal action and a minimally different illegal one), blocking
by used words, optional cross words, scoring, parsing, the 30-action cap,
passes, judge mode, generator and bots run as real processes."""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
from pathlib import Path

import pytest

from arena.boards import load_board
from arena.bots import PYTHON
from arena.cli import main as arena_main
from arena.errors import ArenaError
from generator import crossword as gen
from referees.base import BadInput, BadOutput, IllegalMove
from referees.crossword import (
    DIRECTIONS,
    EMPTY,
    MAX_ACTIONS,
    SIZE,
    Action,
    CrosswordPVEReferee,
    CrosswordPVPReferee,
    CrosswordState,
    Plan,
    all_lines,
    apply_action,
    best_action,
    board_text,
    evaluate,
    load,
    parse_plan,
    parse_words,
)

ROOT = Path(__file__).resolve().parents[1]
PVE, PVP = CrosswordPVEReferee(), CrosswordPVPReferee()
WORDS = ["CAT", "CATS", "AT", "DOG", "DOGS", "TO", "SO", "ACT", "GOD", "ODD", "TAG", "SAT"]


def words_text(words: list[str]) -> str:
    return f"{len(words)}\n" + "\n".join(words) + "\n"


def make(placed: dict[tuple[int, int], str] | None = None, used: tuple[str, ...] = (),
         words: list[str] | None = None) -> CrosswordState:
    """A board with letters placed row-wise: {(x, y): "ABC"} writes A at
    (x, y), B at (x, y + 1), ..."""
    cells = [EMPTY] * (SIZE * SIZE)
    for (x, y), text in (placed or {}).items():
        for i, ch in enumerate(text):
            if ch != EMPTY:
                cells[x * SIZE + y + i] = ch
    rows = ["".join(cells[x * SIZE:(x + 1) * SIZE]) for x in range(SIZE)]
    text = "\n".join([*rows, str(len(used)), *used]) + "\n"
    return load(text, {"words.txt": words_text(words if words is not None else WORDS)})


def act(fills: list[tuple[int, int, str]] | str, *words: str, at: tuple[int, int] = (0, 0), step=(0, 1)) -> Action:
    """An action: explicit fills, or a string written from ``at`` along ``step`` ('-' skips a cell)."""
    if isinstance(fills, str):
        (x, y), (dx, dy) = at, step
        fills = [(x + i * dx, y + i * dy, ch) for i, ch in enumerate(fills) if ch != EMPTY]
    return Action(tuple(fills), words)


def rule_of(state: CrosswordState, action: Action) -> str:
    with pytest.raises(IllegalMove) as err:
        evaluate(state, action)
    return err.value.rule


# ---------------------------------------------------------------- geometry
def test_four_directions_in_one_table_read_in_order():
    assert [step for _, step in DIRECTIONS] == [(0, 1), (1, 0), (1, 1), (-1, 1)]
    lines = all_lines()
    assert len(lines) == 20 + 20 + 39 + 39
    up_right = next(line for line in lines if line.direction == 3 and len(line.cells) == SIZE)
    assert up_right.cells[0] == (SIZE - 1) * SIZE and up_right.cells[-1] == SIZE - 1  # bottom-left to top-right


def test_words_on_every_direction():
    state = make()
    assert evaluate(state, act("CAT", "CAT", "AT", at=(5, 5), step=(1, 0))).score == 0
    assert evaluate(state, act("CAT", "CAT", "AT", at=(5, 5), step=(1, 1))).score == 0
    assert evaluate(state, act("CAT", "CAT", "AT", at=(7, 5), step=(-1, 1))).score == 0
    # Read the other way, TAC is no word: direction matters.
    assert rule_of(state, act("CAT", "CAT", at=(5, 7), step=(0, -1))) == "no-word"


# ---------------------------------------------------------------- rule 1: cells
def test_rule1_at_least_one_cell():
    state = make({(0, 0): "CA"})
    assert evaluate(state, act([(0, 2, "T")], "CAT", "AT")).score == 2
    assert rule_of(state, act([], "CAT")) == "no-letter"


def test_rule1_cells_on_the_board_distinct_and_empty():
    state = make({(0, 0): "CA"})
    assert rule_of(state, act([(0, 20, "T")], "CAT")) == "off-board"
    assert rule_of(state, act([(0, 2, "T"), (0, 2, "T")], "CAT")) == "duplicate-cell"
    assert rule_of(state, act([(0, 1, "A"), (0, 2, "T")], "CAT")) == "occupied"


# ---------------------------------------------------------------- rule 1: one line
def test_rule1_filled_cells_on_one_line():
    state = make()
    assert evaluate(state, act("DOG", "DOG", step=(1, 1))).score == 0
    bent = act([(0, 0, "D"), (1, 1, "O"), (2, 1, "G")], "DOG")
    assert rule_of(state, bent) == "not-one-line"


# ---------------------------------------------------------------- rule 2: no gap
def test_rule2_no_gap_between_filled_cells():
    assert evaluate(make({(0, 1): "A"}), act("C-T", "CAT", "AT")).score == 1
    assert rule_of(make({(0, 5): "A"}), act("C-T", "CAT")) == "gap"


# ---------------------------------------------------------------- rule 3: formed words
def test_rule3_some_formed_word_on_the_line():
    assert evaluate(make(), act("TAG", "TAG")).score == 0
    assert rule_of(make(), act("TAX", "TAX")) == "no-word"


def test_rule3_every_filled_cell_inside_a_formed_word():
    state = make(words=["CAT", "CATS"])
    assert evaluate(state, act("CATS", "CAT", "CATS")).score == 0
    state = make(words=["CAT"])
    assert rule_of(state, act("CATS", "CAT")) == "cell-outside-word"


# ---------------------------------------------------------------- rule 4: declarations
def test_rule4_every_formed_word_of_the_line_declared():
    state = make()
    assert evaluate(state, act("CATS", "CAT", "CATS", "AT")).score == 0
    assert rule_of(state, act("CATS", "CAT", "CATS")) == "undeclared-word"


def test_rule4_other_declared_words_are_formed_on_some_line():
    # Filling T at (0, 2) makes CAT on the row and TO down the column.
    state = make({(0, 0): "CA", (1, 2): "O"})
    assert evaluate(state, act([(0, 2, "T")], "AT", "CAT", "TO")).score == 3
    assert rule_of(state, act([(0, 2, "T")], "AT", "CAT", "DOG")) == "not-formed"
    assert rule_of(state, act([(0, 2, "T")], "AT", "CAT", "TOX")) == "not-in-dictionary"


def test_rule4_no_word_declared_twice():
    state = make({(0, 0): "CA"})
    assert rule_of(state, act([(0, 2, "T")], "AT", "CAT", "CAT")) == "declared-twice"


def test_word_already_on_the_board_without_a_filled_cell_is_not_formed():
    state = make({(0, 0): "CA", (5, 0): "DOG"})
    assert rule_of(state, act([(0, 2, "T")], "AT", "CAT", "DOG")) == "not-formed"


# ---------------------------------------------------------------- used words
@pytest.mark.parametrize(("used", "rule"), [
    ((), None),
    (("AT",), None),          # inside the word, but neither prefix nor suffix
    (("CAT",), "no-word"),    # a prefix
    (("TS",), "no-word"),     # a suffix
    (("CATS",), "no-word"),   # itself
])
def test_prefix_and_suffix_blocking(used, rule):
    state = make({(0, 0): "CAT"}, used=used, words=["CATS"])
    action = act([(0, 3, "S")], "CATS")
    if rule is None:
        assert evaluate(state, action).score == 3
    else:
        assert rule_of(state, action) == rule


def test_words_of_one_action_do_not_block_each_other_but_block_later():
    state = make()
    after = apply_action(state, act("CATS", "CAT", "CATS", "AT"))
    assert after.used == ("CAT", "CATS", "AT") and after.actions == 1
    assert rule_of(after, act("CATS", "CATS", at=(5, 0))) == "no-word"


def test_declaring_a_blocked_word_names_the_used_word():
    state = make({(0, 0): "CA", (1, 2): "O"}, used=("TOG",), words=["CAT", "TO", "TOGS"])
    assert evaluate(state, act([(0, 2, "T")], "CAT", "TO")).score == 3
    state = make({(0, 0): "CA", (1, 2): "O"}, used=("TO",), words=["CAT", "TO"])
    with pytest.raises(IllegalMove, match="'TO', itself, is a used word") as err:
        evaluate(state, act([(0, 2, "T")], "CAT", "TO"))
    assert err.value.rule == "used-word"


# ---------------------------------------------------------------- cross words and scores
def test_cross_direction_word_is_optional_and_only_declared_words_score():
    state = make({(0, 0): "CA", (1, 2): "O"})
    assert evaluate(state, act([(0, 2, "T")], "AT", "CAT")).score == 2
    assert evaluate(state, act([(0, 2, "T")], "AT", "CAT", "TO")).score == 3


def test_one_letter_action_may_take_either_line():
    state = make({(0, 0): "CA", (1, 2): "O"})
    assert evaluate(state, act([(0, 2, "T")], "TO")).score == 1  # L = the column
    assert rule_of(state, act([(0, 2, "T")], "AT")) == "undeclared-word"  # row needs CAT, column needs TO


def test_score_counts_each_cell_once_for_overlapping_words():
    state = make({(0, 0): "DO", (0, 3): "S"})
    assert evaluate(state, act([(0, 2, "G")], "DOG", "DOGS")).score == 3  # 4 cells, not 3 + 4, minus 1


def test_a_word_through_the_filled_cell_on_two_lines_covers_both():
    state = make({(1, 0): "T", (0, 1): "T"})
    assert evaluate(state, act([(1, 1, "O")], "TO")).score == 2


def test_source_example_four_board_letters_score_four():
    # A word that uses four letters already on the board scores 4, however many cells it fills.
    state = make({(3, 0): "D-GS-A-"}, words=["DOGSEAT"])
    assert evaluate(state, act([(3, 1, "O"), (3, 4, "E"), (3, 6, "T")], "DOGSEAT")).score == 4


# ---------------------------------------------------------------- parsing
def test_plan_round_trip_and_whitespace():
    plan = Plan((act("CAT", "CAT", "AT"),))
    assert parse_plan(plan.to_text().replace("\n", "\r\n")) == plan
    assert parse_plan("0") == Plan(())


@pytest.mark.parametrize(("text", "message"), [
    ("", "expected the number of actions T"),
    ("1\n1\n0 2 t\n1\nCAT\n", "one upper-case letter A-Z, found 't'"),
    ("1\n1\n0 2 T\n1\ncat\n", "found 'cat' \\(letters must be upper case\\)"),
    ("1\n1\n0 2 TT\n1\nCAT\n", "found 'TT'"),
    ("1\n1\n0 2 T\n2\nCAT\n", "expected word 2 of action 1"),
    ("1\n1\n0 2 T\n1\nCAT\nAT\n", "extra token 'AT'"),
])
def test_bad_output(text, message):
    with pytest.raises(BadOutput, match=message):
        parse_plan(text)


def test_board_file_errors():
    words = {"words.txt": words_text(WORDS)}
    good = board_text(make({(0, 0): "CAT"}, used=("CAT",)))
    assert board_text(load(good, words)) == good
    with pytest.raises(BadInput, match="row 1 must be 20 characters") as err:
        load(good.replace("-" * 20, "-" * 19, 1), words)
    assert err.value.line == 2
    with pytest.raises(BadInput, match="used word 1 of 1 of letters A-Z, found 'cat'"):
        load(good.replace("\nCAT\n", "\ncat\n"), words)
    with pytest.raises(BadInput, match="needs words.txt"):
        load(good, {})
    with pytest.raises(BadInput, match="dictionary word 2 of 3") as err:
        load(good, {"words.txt": "3\nCAT\ndog\nTO\n"})
    assert err.value.where == "words.txt" and err.value.line == 3
    assert parse_words("2\r\nCAT\r\nDOG").words == {"CAT", "DOG"}


# ---------------------------------------------------------------- PVE
def test_pve_plan_scores_and_names_the_illegal_action():
    state = make({(0, 0): "CA", (1, 2): "O"})
    good = act([(0, 2, "T")], "AT", "CAT", "TO")
    assert PVE.outcome(state) is None and PVE.fault_score == -1 and PVE.players == 1
    plan = PVE.parse(state, Plan((good, act("DOG", "DOG", at=(5, 5)))).to_text())
    PVE.check(state, plan)
    assert PVE.outcome(PVE.apply(state, plan)).score == 3
    bad = Plan((good, act("DOG", "DOGS", at=(5, 5))))
    with pytest.raises(IllegalMove, match="action 2: ") as err:
        PVE.check(state, bad)
    assert err.value.rule == "undeclared-word"
    assert PVE.outcome(PVE.apply(state, Plan(()))).score == 0  # T = 0 is legal, worth 0


def test_pve_30_action_cap():
    state = make()
    with pytest.raises(IllegalMove) as err:
        PVE.check(state, Plan((act("DOG", "DOG"),) * (MAX_ACTIONS + 1)))
    assert err.value.rule == "too-many-actions"


def test_pve_files_include_the_dictionary():
    files = PVE.render(make(), 0)
    assert set(files) == {"game.in", "words.txt"} and files["words.txt"] == words_text(WORDS)


def test_judge_cli(tmp_path, capsys):
    state = make({(0, 0): "CA", (1, 2): "O"})
    (tmp_path / "board.in").write_text(board_text(state))
    (tmp_path / "words.txt").write_text(words_text(WORDS))
    out = tmp_path / "plan.out"
    argv = ["judge", "crossword-pve", str(tmp_path / "board.in"), str(out)]
    out.write_text(Plan((act([(0, 2, "T")], "AT", "CAT", "TO"),)).to_text())
    assert arena_main(argv) == 0 and capsys.readouterr().out == "3\n"
    out.write_text(Plan((act([(0, 2, "T")], "AT", "CAT"), act([(0, 3, "S")], "CATS"))).to_text())
    assert arena_main(argv) == 0
    assert capsys.readouterr().out.splitlines() == ["-1", ("illegal: no-word: action 2: the row from (0, 0) reads "
                                                    "'CATS----------------': no formed word through the filled "
                                                    "cells (in the dictionary, and no prefix or suffix used before)")]
    out.write_text("1\n1\n0 2 t\n0\n")
    assert arena_main(argv) == 0 and capsys.readouterr().out.splitlines()[0] == "-1"
    # the problem's own judge is the solo game's: `arena judge crossword` is the same
    out.write_text(Plan((act([(0, 2, "T")], "AT", "CAT", "TO"),)).to_text())
    assert arena_main(["judge", "crossword", *argv[2:]]) == 0 and capsys.readouterr().out == "3\n"


def test_the_dictionary_beside_a_board_is_part_of_it(tmp_path):
    board = tmp_path / "board1.in"
    board.write_text((ROOT / "boards" / "crossword" / "board1.in").read_text())
    (tmp_path / "words.txt").write_text(words_text(WORDS))
    first, _ = load_board(PVE, board)
    assert first.extras == {"words.txt": words_text(WORDS)}
    # another dictionary is another board: a tournament under the old one is not resumed
    (tmp_path / "words.txt").write_text(words_text([*WORDS, "TOGA"]))
    assert load_board(PVE, board)[0].sha256 != first.sha256
    # an error in the dictionary names the dictionary, not the board
    (tmp_path / "words.txt").write_text("CAT\n")
    with pytest.raises(ArenaError, match=f"{tmp_path / 'words.txt'}:1: expected the number of words"):
        load_board(PVE, board)
    (tmp_path / "words.txt").unlink()
    with pytest.raises(ArenaError, match=f"cannot read '{tmp_path / 'words.txt'}'"):
        load_board(PVE, board)


# ---------------------------------------------------------------- PVP
def test_pvp_render_turns_and_scores():
    state = make({(0, 0): "CA", (1, 2): "O"})
    assert PVP.render(state, 0)["game.in"].endswith("\n0\n30 0 0\n")
    move = PVP.parse(state, Plan((act([(0, 2, "T")], "AT", "CAT", "TO"),)).to_text())
    PVP.check(state, move)
    state = PVP.apply(state, move)
    assert state.seat == 1 and state.scores == (3, 0) and PVP.outcome(state) is None
    assert PVP.render(state, 1)["game.in"].endswith("\n29 0 3\n")
    with pytest.raises(BadOutput, match="from 0 to 1, found 2"):
        PVP.parse(state, "2\n")


@pytest.mark.parametrize(("scores", "winner"), [((3, 0), 0), ((0, 3), 1), ((2, 2), None)])
def test_pvp_a_pass_by_the_second_seat_ends_the_game_higher_total_wins(scores, winner):
    state = make()
    from dataclasses import replace

    state = replace(state, scores=scores, seat=1, actions=5)
    move = PVP.parse(state, "0\n")
    PVP.check(state, move)
    end = PVP.outcome(PVP.apply(state, move))
    assert end.winner == winner and "second player passed" in end.reason


def test_pvp_a_pass_by_the_first_seat_hands_the_turn_over_and_is_not_an_action():
    from dataclasses import replace

    state = replace(make({(0, 0): "CA", (1, 2): "O"}), scores=(4, 0), actions=7)
    passed = PVP.apply(state, PVP.parse(state, "0\n"))
    # the first seat, ahead, cannot stop the game by passing: the second seat moves on
    assert PVP.outcome(passed) is None and passed.seat == 1
    assert passed.actions == 7 and passed.scores == (4, 0)
    assert PVP.render(passed, 1)["game.in"].endswith("\n23 0 4\n")
    acted = PVP.apply(passed, Plan((act([(0, 2, "T")], "AT", "CAT", "TO"),)))
    assert acted.seat == 0 and acted.actions == 8 and acted.scores == (4, 3)
    # a pass by the first seat, then one by the second: the game ends
    again = PVP.apply(PVP.apply(acted, Plan(())), Plan(()))
    assert PVP.outcome(again).winner == 0 and PVP.outcome(again).reason.startswith("second player passed")


def test_pvp_two_passers_play_two_turns_through_the_match(tmp_path):
    """Real bot processes: the first seat's pass hands the turn over, and the
    second seat's pass ends the game, a 0-0 draw after two turns."""
    board = ROOT / "boards/crossword/board1.in"
    bots = tmp_path / "bots"
    bots.mkdir()
    for name in ("a", "b"):
        (bots / f"{name}.py").write_text("open('game.out', 'w').write('0\\n')\n")
    argv = ["run", "--game", "crossword-pvp", "--bots", str(bots / "a.py"), str(bots / "b.py"),
            "--boards", str(board), "--results", str(tmp_path), "--name", "t", "--jobs", "2"]
    assert arena_main(argv) == 0
    for line in (tmp_path / "t/games.jsonl").read_text().splitlines():
        game = json.loads(line)
        assert [move["seat"] for move in game["moves"]] == [0, 1]
        assert game["outcome"]["winner"] is None and game["outcome"]["reason"] == "second player passed; scores 0-0"


def test_pvp_ends_after_30_actions():
    from dataclasses import replace

    state = replace(make(), actions=MAX_ACTIONS - 1)
    state = PVP.apply(state, Plan((act("DOG", "DOG"),)))
    assert PVP.outcome(state).reason.startswith("30 actions played")
    with pytest.raises(IllegalMove) as err:
        PVP.check(state, Plan(()))
    assert err.value.rule == "game-over"


# ---------------------------------------------------------------- search helpers
def test_best_action_finds_the_top_score():
    state = make({(0, 0): "DO", (0, 3): "S", (4, 4): "G"})
    action, score = best_action(state)
    assert score == 3 and evaluate(state, action).score == 3


# ---------------------------------------------------------------- generator
def _args(**kw) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    gen.add_arguments(parser)
    return parser.parse_args([f"--{k.replace('_', '-')}={v}" for k, v in kw.items()])


def test_generator_is_seeded_and_places_used_words(tmp_path):
    (tmp_path / "words.txt").write_text(words_text(WORDS))
    args = _args(words=tmp_path / "words.txt", placed=3, letters=20)
    one = gen.generate(args, 5)
    assert one == gen.generate(args, 5) and one != gen.generate(args, 6)
    assert one.extras == {"words.txt": words_text(WORDS)}
    state = load(one.text, one.extras)
    assert len(state.used) == 3 and set(state.used) <= set(WORDS)
    assert sum(c != EMPTY for c in state.cells) <= 3 * 4 + 20
    rows = one.text.splitlines()
    assert rows[20:] == ["3", "SO", "DOG", "DOGS"]


def test_generator_shipped_board_is_pinned():
    board = gen.generate(_args(), 1)
    assert board.text == (ROOT / "boards/crossword/board1.in").read_text()


# ---------------------------------------------------------------- bots
def _run_bot(tmp_path: Path, bot: str, files: dict[str, str]) -> float:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*PYTHON, str(ROOT / "bots/crossword" / bot)], cwd=tmp_path, check=True, timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


@pytest.mark.parametrize("bot", ["random.py", "greedy.py"])
@pytest.mark.parametrize("referee", [PVE, PVP], ids=["pve", "pvp"])
def test_bot_plays_legally(tmp_path, bot, referee):
    state = make({(0, 0): "DO", (0, 3): "S", (4, 4): "G", (6, 0): "C-T"})
    _run_bot(tmp_path, bot, referee.render(state, 0))
    move = referee.parse(state, (tmp_path / "game.out").read_text())
    referee.check(state, move)
    if bot == "greedy.py":
        assert move.actions and evaluate(state, move.actions[0]).score == 3


def test_greedy_pvp_move_on_a_shipped_board_within_the_cpu_limit(tmp_path):
    board = ROOT / "boards/crossword/board1.in"
    state = PVP.load(board.read_text(), {"words.txt": (board.parent / "words.txt").read_text()})
    cpu = _run_bot(tmp_path, "greedy.py", PVP.render(state, 0))
    move = PVP.parse(state, (tmp_path / "game.out").read_text())
    PVP.check(state, move)
    assert len(move.actions) == 1 and cpu < PVP.cpu_limit

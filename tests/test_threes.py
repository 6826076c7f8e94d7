"""Threes with magnets (docs/rules.md, threes): moves, merges, magnets, insertion, the
source's samples and worked figures, parsing, judge mode, generator, bots."""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from pathlib import Path

import pytest

from arena.bots import PYTHON
from arena.cli import main as arena_main
from generator import BadParameters
from generator import threes as gen
from referees import threes
from referees.base import BadInput, BadOutput, IllegalMove
from referees.threes import (
    EMPTY,
    MAX_PLAN,
    Game,
    ThreesReferee,
    _slide_line_held,
    grid_lines,
    lines,
    merged,
    movable,
    parse_board,
    parse_plan,
    pinned,
    play_plan,
    score,
)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = (ROOT / "boards/threes/sample.in").read_text()
REFEREE = ThreesReferee()


def board(rows: list[str], s1: str = "A", s2: str | None = None, x: str = "0 0 0 0", y: str = "0 0 0 0") -> str:
    """A board file from its rows (S2 = S1 unless given) and pointer lines."""
    seqs = f"1\n{s1}" if s2 is None else f"2\n{s1}\n{s2}"
    return f"{len(rows)} {len(rows[0])}\n" + "\n".join(rows) + f"\n{seqs}\n{x}\n{y}\n"


def after(rows: list[str], moves: str, **kw) -> list[str]:
    """The grid (rows of symbols without spaces) after ``moves``."""
    state = play_plan(parse_board(board(rows, **kw)), moves)
    return [line.replace(" ", "") for line in grid_lines(state)]


def slid(rows: list[str], move: str) -> list[str]:
    """The grid after sliding only (no insertion)."""
    game = Game(parse_board(board(rows)))
    game.slide(move)
    return [line.replace(" ", "") for line in grid_lines(game.freeze())]


# ---------------------------------------------------------------- the source's samples
@pytest.mark.parametrize(("moves", "expected"), [("ASDAA", 24), ("ASWSADSDSDSWDW", 120)])
def test_source_samples(moves, expected):
    assert score(play_plan(parse_board(SAMPLE), moves)) == expected


def test_sample_best_is_120_by_exhaustive_search():
    """The source says 120 is the best possible: every reachable position agrees."""
    start = Game(parse_board(SAMPLE))
    best, seen, frontier = start.value(), {start.key()}, [start]
    while frontier:
        nxt = []
        for game in frontier:
            for move in "WASD":
                child = game.copy()
                child.play(move)
                best = max(best, child.value())
                if not child.over and child.key() not in seen:
                    seen.add(child.key())
                    nxt.append(child)
        frontier = nxt
    assert best == 120


# ---------------------------------------------------------------- the source's figures
@pytest.mark.parametrize(("move", "expected"), [("S", ["..", "..", "4."]), ("W", ["4.", "..", ".."])])
def test_figure_1_2_two_threes_merge_into_a_four_up_or_down(move, expected):
    assert slid(["3.", "..", "3."], move) == expected


def test_figure_1_3_down_merges_two_threes_and_inserts_a_one_at_0_2():
    rows = [".1..", "..3.", "..3.", "0..."]
    assert after(rows, "S", s1="1", s2="A", y="2 0 0 0") == ["..1.", "....", "....", "014."]


def test_figure_2_2_obstacle_blocks_the_merge():
    assert slid([".A.", ".@.", ".B."], "W") == [".A.", ".@.", ".B."]


def test_figure_2_3_up_merges_a_and_b_and_inserts_a_at_2_2():
    rows = ["A..", ".@B", "B.."]
    assert after(rows, "W", s1="A", y="2 0 0 0") == ["0.B", ".@.", "..A"]


FIGURE_3_1 = [".v0.", "..0<", ">1^.", "...."]


def test_figure_3_1_up_magnet_keeps_the_two_zeros_apart():
    assert slid(FIGURE_3_1, "W") == [".v0.", ".10<", ">.^.", "...."]


def test_figure_3_1_left_magnet_holds_the_zero():
    assert slid(FIGURE_3_1, "A")[1] == "..0<"


def test_figure_3_1_down_moves_the_one_past_both_magnets():
    # The ^ magnet is an obstacle for a down move, so the zeros above it merge.
    assert slid(FIGURE_3_1, "S") == [".v..", "..1<", ">.^.", ".1.."]


# ---------------------------------------------------------------- magnets, each direction
@pytest.mark.parametrize(("rows", "move", "expected"), [
    ([">00."], "D", [">00."]),            # pinned: no slide, no merge
    (["@00."], "D", ["@..1"]),            # the same row with an obstacle
    ([">0.0."], "D", [">0..0"]),          # only the contiguous run is pinned
    (["00<"], "A", ["00<"]),
    (["0.0.<"], "A", ["1...<"]),          # a gap next to the magnet: nothing pinned
    (["0", "0", "^"], "W", ["0", "0", "^"]),
    (["0", "0", "@"], "W", ["1", ".", "@"]),
    (["v", "0", "0"], "S", ["v", "0", "0"]),
    (["v", ".", "0", "0"], "S", ["v", ".", ".", "1"]),
])
def test_magnet_pins_its_run_in_its_direction(rows, move, expected):
    assert slid(rows, move) == expected


@pytest.mark.parametrize(("rows", "move", "expected"), [
    ([">0."], "A", [">0."]),   # against the magnet: an obstacle
    (["0.<"], "D", [".0<"]),
    (["^", ".", "0"], "W", ["^", "0", "."]),
])
def test_magnet_is_an_obstacle_for_other_moves(rows, move, expected):
    assert slid(rows, move) == expected


# ---------------------------------------------------------------- merges
@pytest.mark.parametrize(("row", "expected"), [
    ("100.", "2..."),    # 0+0 -> 1 goes on and merges with the 1
    ("0000", "2..."),    # processed nearest the edge first: 1 then 1 -> 2
    ("AB0.", "1..."),    # A+B -> 0 at the edge; the next 0 merges into it
    ("AA..", "AA.."),
    ("BB..", "BB.."),
    ("12..", "12.."),
    (".A.B", "0..."),
    ("B@A.", "B@A."),
])
def test_merges_on_a_left_move(row, expected):
    assert slid([row], "A") == [expected]


def test_merged_symbols_keep_sliding_and_merge_again():
    assert slid(["1.00"], "D") == ["...2"]
    assert slid(["0.AB.."], "D") == [".....1"]  # A+B -> 0 slides on and meets the other 0


# ---------------------------------------------------------------- insertion
def test_insertion_wraps_around_and_pointer_uses_the_old_x():
    # Left move: the rightmost column, rows from X = 2 with wrap-around: row 2 is full, row 0 gets it.
    rows = ["...", "..@", "..@"]
    state = play_plan(parse_board(board(rows, s1="0", s2="B", x="2 1 1 1")), "A")
    assert grid_lines(state)[0] == ". . B"
    assert state.x == (1 * 2 * 2 + 1 * 2 + 1) % 3  # from X = 2, not from the row it landed on


def test_sequences_and_counters_per_axis():
    # S1 for vertical moves, S2 for horizontal ones, each with its own counter.
    rows = ["....", "....", "....", "...."]
    state = play_plan(parse_board(board(rows, s1="AB", s2="01", x="0 0 0 1", y="0 0 0 1")), "WAWA")
    assert score(state) == -1 + 0 + 3 + 9


def test_game_over_when_the_edge_is_full_and_later_moves_are_ignored():
    rows = ["A@", "B@"]
    state = play_plan(parse_board(board(rows)), "AWWW")
    assert state.over and state.moves == 1
    assert grid_lines(state) == ["A @", "B @"]
    assert "game over at move 1" in REFEREE.outcome(state).reason


def test_early_stop_scores_the_position_reached():
    state = REFEREE.apply(REFEREE.load(SAMPLE), parse_plan(""))
    assert REFEREE.outcome(state).score == 3
    assert "after 0 moves" in REFEREE.outcome(state).reason


# ---------------------------------------------------------------- parsing and the referee
def test_board_round_trip_and_errors():
    state = parse_board(SAMPLE)
    assert REFEREE.render(state, 0)["game.in"] == SAMPLE
    with pytest.raises(BadInput, match="row 1 must have 2 symbols") as err:
        parse_board("2 2\n.0\n...\n1\n0\n0 0 0 0\n0 0 0 0\n")
    assert err.value.line == 3
    with pytest.raises(BadInput, match="unknown symbol 'x'"):
        parse_board("1 2\n.x\n1\n0\n0 0 0 0\n0 0 0 0\n")
    with pytest.raises(BadInput, match="sequence S1 = S2 must consist of A, B and digits, found 'AC'"):
        parse_board("1 2\n.0\n1\nAC\n0 0 0 0\n0 0 0 0\n")


def test_two_sequences_render_with_r_2():
    text = board(["0."], s1="A", s2="B")
    assert REFEREE.render(parse_board(text), 0)["game.in"] == text


@pytest.mark.parametrize(("text", "message"), [
    ("ASDx\n", "move 4 is 'x'"),
    ("asd\n", "move 1 is 'a'"),
    ("AS DA\n", "extra token 'DA'"),
])
def test_bad_output(text, message):
    with pytest.raises(BadOutput, match=message):
        parse_plan(text)


def test_one_shot_protocol():
    state = REFEREE.load(SAMPLE)
    assert REFEREE.outcome(state) is None and REFEREE.players == 1 and REFEREE.cpu_limit == 10.0
    plan = REFEREE.parse(state, "ASWSADSDSDSWDW\r\n")
    REFEREE.check(state, plan)
    done = REFEREE.apply(state, plan)
    assert REFEREE.outcome(done).score == 120
    with pytest.raises(IllegalMove) as err:
        REFEREE.check(done, plan)
    assert err.value.rule == "game-over"


def test_judge_cli(tmp_path, capsys):
    (tmp_path / "b.in").write_text(SAMPLE)
    (tmp_path / "o.out").write_text("ASDAA")
    assert arena_main(["judge", "threes", str(tmp_path / "b.in"), str(tmp_path / "o.out")]) == 0
    assert capsys.readouterr().out == "24\n"
    (tmp_path / "o.out").write_text("ASDQ")
    assert arena_main(["judge", "threes", str(tmp_path / "b.in"), str(tmp_path / "o.out")]) == 2
    assert "o.out:1: move 4 is 'Q'" in capsys.readouterr().err


def test_arena_play_caps_a_plan_at_100000_moves_judge_mode_does_not(tmp_path, capsys):
    state = REFEREE.load(SAMPLE)
    assert REFEREE.parse(state, "A" * MAX_PLAN).moves == "A" * MAX_PLAN
    with pytest.raises(BadOutput, match="the plan has 100,001 moves; at most 100,000"):
        REFEREE.parse(state, "A" * (MAX_PLAN + 1))
    (tmp_path / "b.in").write_text(SAMPLE)
    (tmp_path / "o.out").write_text("ASDAA" + "W" * MAX_PLAN)
    assert arena_main(["judge", "threes", str(tmp_path / "b.in"), str(tmp_path / "o.out")]) == 0
    assert capsys.readouterr().out == "24\n"


def test_a_bot_writing_too_long_a_plan_gets_bad_output(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "long.py").write_text(f"open('game.out', 'w').write('AS' * {MAX_PLAN // 2} + 'A')\n")
    (bots / "short.py").write_text(f"open('game.out', 'w').write('AS' * {MAX_PLAN // 2})\n")
    argv = ["run", "--game", "threes", "--bots", str(bots / "long.py"), str(bots / "short.py"),
            "--boards", str(ROOT / "boards/threes/sample.in"), "--results", str(tmp_path), "--name", "t", "--jobs", "1"]
    assert arena_main(argv) == 0
    games = {g["seats"][0]: g for g in map(json.loads, (tmp_path / "t/games.jsonl").read_text().splitlines())}
    assert games["long"]["fault"]["verdict"] == "bad-output"
    assert games["short"]["fault"] is None


def _slide_step_by_step(game: Game, move: str) -> list[int]:
    """The rules of a slide as written: each symbol, nearest the edge first,
    steps until it cannot; magnets pin their runs."""
    cells, n, m = list(game.cells), game.rules.n, game.rules.m
    held = pinned(cells, n, m, move)
    for line in lines(n, m, move):
        for k in range(1, len(line)):
            v = cells[line[k]]
            if not movable(v) or line[k] in held:
                continue
            pos = k
            while pos > 0 and (cells[line[pos - 1]] == EMPTY or merged(v, cells[line[pos - 1]]) is not None):
                if cells[line[pos - 1]] != EMPTY:
                    v = merged(v, cells[line[pos - 1]])
                cells[line[pos]], cells[line[pos - 1]] = EMPTY, v
                pos -= 1
    return cells


def test_fast_slide_agrees_with_the_rules_step_by_step():
    rng = random.Random(7)
    symbols = ".....@^v<>AB0011223"
    for _ in range(3000):
        n, m = rng.randint(1, 6), rng.randint(1, 6)
        rows = ["".join(rng.choice(symbols) for _ in range(m)) for _ in range(n)]
        game = Game(parse_board(board(rows)))
        for move in "WASD":
            expected = _slide_step_by_step(game, move)
            twin = game.copy()
            twin.slide(move)
            assert twin.cells == expected, (rows, move)


class _ReferenceGame:
    """The rules as written, on a list of cell codes: every slide step by step
    (``_slide_line_held``, each symbol moved one cell at a time, with the
    magnets' runs pinned), the insertion read from docs/rules.md."""

    def __init__(self, state):
        self.rules, self.cells = state.rules, list(state.cells)
        self.x, self.y, self.horizontal, self.vertical = state.x, state.y, 0, 0
        self.moves, self.over = 0, False

    def play(self, move: str) -> None:
        rules, n, m = self.rules, self.rules.n, self.rules.m
        self.moves += 1
        held = pinned(self.cells, n, m, move)
        for line in lines(n, m, move):
            _slide_line_held(self.cells, line, held)
        if move in "AD":
            self.horizontal += 1
            start, symbol_ = self.x, rules.s2[(self.horizontal - 1) % len(rules.s2)]
            edge = [r * m + (m - 1 if move == "A" else 0) for r in range(n)]
        else:
            self.vertical += 1
            start, symbol_ = self.y, rules.s1[(self.vertical - 1) % len(rules.s1)]
            edge = [(n - 1 if move == "W" else 0) * m + c for c in range(m)]
        # From the pointer on, with wrap-around, the first empty cell of the edge.
        spots = [edge[(start + k) % len(edge)] for k in range(len(edge))]
        empty = [spot for spot in spots if self.cells[spot] == EMPTY]
        if not empty:
            self.over = True
            return
        self.cells[empty[0]] = int(symbol_) if symbol_.isdigit() else {"A": -10, "B": -11}[symbol_]
        if move in "AD":
            self.x = (rules.ax * start * start + rules.bx * start + rules.cx) % n
        else:
            self.y = (rules.ay * start * start + rules.by * start + rules.cy) % m


def _random_board(rng: random.Random, n: int, m: int) -> str:
    symbols = rng.choice([".....@^v<>AB0011223", "......AB00001111", "....^^vv<<>>@AB01", "........AB0"])
    rows = ["".join(rng.choice(symbols) for _ in range(m)) for _ in range(n)]
    s1, s2 = ("".join(rng.choice("AB0011223") for _ in range(rng.randint(1, 6))) for _ in range(2))
    x, y = (" ".join(str(rng.randint(0, 9)) for _ in range(4)) for _ in range(2))
    return board(rows, s1=s1, s2=s2, x=x, y=y)


@pytest.mark.parametrize("seed", range(4))
def test_fast_play_agrees_with_the_rules_step_by_step_move_after_move(seed, monkeypatch):
    """Random boards (magnets, obstacles, letters, merge chains) and random
    plans: after every move the fast game (strings, tables of slid lines,
    pieces cut at walls) and the rules as written agree on everything.  Half
    the seeds run with tiny slide tables, so that they are emptied often;
    every third move is made in steps, through a row-major list."""
    if seed % 2:
        monkeypatch.setattr(threes, "_TABLE_CAP", 5)
    rng = random.Random(seed)
    for _ in range(300):
        n, m = rng.choice([(rng.randint(1, 7), rng.randint(1, 7)), (rng.randint(1, 12), rng.randint(1, 12))])
        state = parse_board(_random_board(rng, n, m))
        fast, slow = Game(state), _ReferenceGame(state)
        alphabet = rng.choice(["WASD", "WA", "SD", "WWWASSSD"])
        moves = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 300)))
        for k, move in enumerate(moves):
            if k % 3:
                fast.play(move)
            else:  # the same in steps, the position read back row-major between them
                fast.moves += 1
                fast.slide(move)
                fast.cells = fast.cells
                fast.insert(move)
            slow.play(move)
            seen = [(game.cells, game.x, game.y, game.horizontal, game.vertical, game.moves, game.over)
                    for game in (fast, slow)]
            assert seen[0] == seen[1], (state, moves[:k + 1])
            if fast.over:
                break
        assert play_plan(state, moves).cells == tuple(slow.cells)


# ---------------------------------------------------------------- generator
def _args(**kw) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    gen.add_arguments(parser)
    return parser.parse_args([f"--{k.replace('_', '-')}={v}" for k, v in kw.items()])


def test_generator_is_seeded_and_pinned():
    one = gen.generate(_args(), 7)
    assert one == gen.generate(_args(), 7) and one != gen.generate(_args(), 8)
    assert one.text.splitlines()[:7] == ["6 6", "...<>.", "...@.A", ".....B", "..@...", ".@A...", "..A..."]
    state = parse_board(one.text)
    assert sum(1 for c in state.cells if c == -2) == 3
    assert one.params["magnets"] == 2


def test_arena_play_caps_a_board_at_36_cells_judge_mode_does_not(tmp_path, capsys):
    assert len(REFEREE.load(board(["." * 12] * 3)).cells) == 36
    big = board(["......."] * 6)
    with pytest.raises(BadInput, match="the grid is 6x7, 42 cells; arena play allows at most 36"):
        REFEREE.load(big)
    (tmp_path / "b.in").write_text(big)
    (tmp_path / "o.out").write_text("W")
    assert arena_main(["judge", "threes", str(tmp_path / "b.in"), str(tmp_path / "o.out")]) == 0
    assert capsys.readouterr().out == "-1\n"
    with pytest.raises(BadParameters, match="at most 36 cells in arena play, got 6x7"):
        gen.generate(_args(rows=6, cols=7), 1)
    assert gen.generate(_args(rows=1, cols=36), 1).text.startswith("1 36\n")


def test_generator_rejects_a_full_grid():
    with pytest.raises(BadParameters, match="leave no empty cell"):
        gen.generate(_args(rows=2, cols=2, obstacles=2, magnets=1, symbols=1), 1)


# ---------------------------------------------------------------- bots
@pytest.mark.parametrize("bot", ["random.py", "beam.py"])
def test_bot_runs_and_plays_legally(tmp_path, bot):
    (tmp_path / "game.in").write_text(SAMPLE)
    subprocess.run([*PYTHON, str(ROOT / "bots/threes" / bot)], cwd=tmp_path, check=True, timeout=30)
    state = REFEREE.load(SAMPLE)
    plan = REFEREE.parse(state, (tmp_path / "game.out").read_text())
    REFEREE.check(state, plan)
    if bot == "beam.py":
        assert REFEREE.outcome(REFEREE.apply(state, plan)).score == 120

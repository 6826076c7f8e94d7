"""The shipped painting-game bots: as real processes (game.in in, game.out
out, legal, within the CPU limit), their strategies in-process on many random
boards (every move checked by the referee), and the search bot's exact play:
it finds a winning move whenever the solver knows one, and never loses a
group1 board the solver calls won; the C++ champion (bots/strong): a move of
the best value wherever the solver settles the position, and a legal move in
time from odd positions no generator makes."""

from __future__ import annotations

import importlib
import os
import random
import re
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from test_paint_solver import assert_the_knob_halves_the_steps, brute_value, engine_solve, random_state

from generator.paint import generate_board
from players.paint import (
    DRAW,
    LOSS,
    WIN,
    Solver,
    engine_lines,
    greedy_region,
    parity_region,
    position,
    strong_region,
    to_move,
)
from referees.paint import (
    PaintMove,
    PaintReferee,
    PaintState,
    apply_move,
    board_text,
    check_move,
    outcome,
    parse_board,
    parse_move,
    playable_numbers,
)
from referees.paint import regions as referee_regions

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
GROUP1 = sorted((ROOT / "boards" / "group1").glob("*.in"))
REFEREE = PaintReferee()

Strategy = Callable[[PaintState, random.Random], PaintMove]
#: The search bot's budget in the in-process tests, in readings of its clock (``StepClock``): the
#: hardest of the 40 won positions below needs 2 049 to 4 096 (about 0.13 s on an idle host).
THINKING = 20_000
#: CPU seconds a shipped bot's move may take (the arena's limit is 1 s; strong decides by 0.80 s,
#: search.py by 0.72 s, and each exits a few hundredths of a second later).
MOVE_CPU = 0.9


class StepClock:
    """A clock for ``strong_region`` that moves one unit on at each reading: the search reads it
    once per 64 steps and before each number's moves, so a budget of N units is one of search
    steps, and the test's verdict is the same on a loaded host as on an idle one."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def searching(units: int) -> Callable:
    """``strong_region`` with a budget of ``units`` readings of a fresh ``StepClock`` a move."""
    def choose(pos):
        clock = StepClock()
        return strong_region(pos, clock() + units, clock=clock)
    return choose


def _with(choose: Callable) -> Strategy:
    def play(state: PaintState, rng: random.Random) -> PaintMove:
        pos = position(state)
        return to_move(pos.grid, choose(pos))
    return play


STRATEGIES: dict[str, Strategy] = {
    "random": REFEREE.random_move,
    "greedy": _with(greedy_region),
    "parity": _with(parity_region),
    "search": _with(searching(500)),
}


def play_game(state: PaintState, first: Strategy, second: Strategy, rng: random.Random) -> tuple[int | None, int]:
    """Play to the end, checking every move; (winner seat or None, moves)."""
    players, moves = (first, second), 0
    while (end := outcome(state)) is None:
        move = players[state.seat](state, rng)
        check_move(state, move)
        state = apply_move(state, move)
        moves += 1
    return end.winner, moves


# ---------------------------------------------------------------- as processes
def _commands(tmp_path: Path) -> dict[str, list[str]]:
    commands = {name: [sys.executable, "-P", str(BOTS / f"{name}.py")]
                for name in ("random", "greedy", "search", "template")}
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler:
        for name, source in (("template-cpp", BOTS / "template-cpp.cpp"), ("strong", BOTS / "strong" / "main.cpp")):
            binary = tmp_path / f"{name}.bin"
            subprocess.run([compiler, "-O2", "-std=c++17", "-o", str(binary), str(source)], check=True)
            commands[name] = [str(binary)]
    return commands


def run_bot(command: list[str], folder: Path, state: PaintState) -> tuple[PaintMove, float]:
    """One invocation, the arena's way: game.in written, the bot run in its
    folder; the move it wrote and the CPU time it used."""
    folder.mkdir(exist_ok=True)
    (folder / "game.in").write_text(REFEREE.render(state, state.seat)["game.in"])
    (folder / "game.out").unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=folder, check=True, stdin=subprocess.DEVNULL, timeout=10)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return parse_move((folder / "game.out").read_text()), cpu


def test_every_bot_plays_whole_games_as_a_process(tmp_path):
    boards = [GROUP1[0], ROOT / "boards" / "examples" / "example.in"]
    for name, command in _commands(tmp_path).items():
        for board in boards:
            state = parse_board(board.read_text())
            while outcome(state) is None:
                move, _ = run_bot(command, tmp_path / name, state)
                check_move(state, move)
                state = apply_move(state, move)


def test_every_bot_answers_a_30x30_board_within_the_cpu_limit(tmp_path):
    state = parse_board((ROOT / "boards" / "group3" / "board1.in").read_text())
    for name, command in _commands(tmp_path).items():
        move, cpu = run_bot(command, tmp_path / name, state)
        check_move(state, move)
        assert cpu < MOVE_CPU, f"{name} used {cpu:.2f} s of CPU"


def test_search_keeps_a_small_memory_and_survives_a_broken_one(tmp_path):
    command = [sys.executable, "-P", str(BOTS / "search.py")]
    folder = tmp_path / "search"
    folder.mkdir()
    (folder / "search.memory").write_bytes(b"not a memory")
    state = parse_board((ROOT / "boards" / "group3" / "board1.in").read_text())
    for _ in range(2):  # the second move reads what the first one saved
        move, cpu = run_bot(command, folder, state)
        check_move(state, move)
        state = apply_move(state, move)
        assert 0 < (folder / "search.memory").stat().st_size <= 2**20
        assert cpu < MOVE_CPU


# ---------------------------------------------------------------- strategies
@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_strategy_plays_legal_moves_on_random_boards(name):
    rng = random.Random(name)
    for _ in range(25):
        state = random_state(rng, rng.choice([5, 8, 11]), rng.choice([4, 7, 10]), rng.choice([0.1, 0.2]), 0.02)
        opponent = STRATEGIES[rng.choice(sorted(STRATEGIES))]
        play_game(state, STRATEGIES[name], opponent, rng)


def test_search_plays_a_winning_move_whenever_the_solver_knows_one():
    rng, checked = random.Random(11), 0
    while checked < 40:
        state = random_state(rng, rng.choice([4, 5, 6]), rng.choice([5, 7]), rng.choice([0.12, 0.25]))
        if outcome(state) is not None or Solver().best(position(state))[0] != WIN:
            continue
        move = _with(searching(THINKING))(state, rng)
        check_move(state, move)
        assert brute_value(apply_move(state, move)) == LOSS
        checked += 1


@pytest.mark.parametrize("opponent", ["random", "greedy", "parity"])
def test_search_never_loses_a_won_group1_board(opponent):
    rng = random.Random(opponent)
    for path in GROUP1:
        state = parse_board(path.read_text())
        assert Solver().best(position(state))[0] == WIN
        for _ in range(5 if opponent == "random" else 1):
            winner, _ = play_game(state, STRATEGIES["search"], STRATEGIES[opponent], rng)
            assert winner == 0, path.name


# ---------------------------------------------------------------- the C++ champion, bots/strong
@pytest.fixture(scope="module")
def champion(tmp_path_factory) -> Path:
    compiler = shutil.which("g++") or shutil.which("c++")
    if not compiler:
        pytest.skip("no C++ compiler")
    binary = tmp_path_factory.mktemp("strong") / "bot"
    subprocess.run([compiler, "-O2", "-std=c++17", "-o", str(binary), str(BOTS / "strong" / "main.cpp")], check=True)
    return binary


def test_strong_plays_a_move_of_the_best_value_wherever_the_solver_settles_it(champion, tmp_path):
    """Won and drawn positions (lost ones: any move is as good) on small boards, the value after
    the champion's move checked by brute force; benchmarks/bench_strong_exact.py does thousands."""
    rng, checked = random.Random(21), {WIN: 0, DRAW: 0}
    while min(checked.values()) < 12 or sum(checked.values()) < 60:
        state = random_state(rng, rng.choice([3, 4, 5]), rng.choice([3, 5, 7]), rng.choice([0.15, 0.3]))
        if outcome(state) is not None:
            continue
        value = brute_value(state)
        if value == LOSS:
            continue
        move, _ = run_bot([str(champion)], tmp_path / "strong", state)
        check_move(state, move)
        assert brute_value(apply_move(state, move)) == -value, board_text(state)
        checked[value] += 1


def _numbers_to_the_last_row(n: int) -> str:
    """An n x n board with numbers scattered and along its last row."""
    return f"{n}\n" + "".join(" ".join(str(1 + (x + y) % 9) if (x * 5 + y * 3) % 7 == 0 or x == n - 1 else "#"
                                       for y in range(n)) + "\n" for x in range(n))


ODD_POSITIONS = [
    "1\n1\n",
    "2\n1 1\n1 1\n",
    "3\nB B B\nB # B\n# 2 B\n",
    "30\n" + "# " * 29 + "900\n" + ("# " * 30 + "\n") * 29,  # one number as big as the board
    "30\n" + "".join(" ".join(str(1 + (x * 7 + y * 3) % 20) for y in range(30)) + "\n" for x in range(30)),  # all numbers
    "31\n" + "".join(" ".join("20" if (x + y) % 5 == 0 else "#" for y in range(31)) + "\n" for x in range(31)),
    # the biggest board of the engine's 16-row masks and the smallest of its 32-row ones (main.cpp, Engine<R>)
    _numbers_to_the_last_row(16),
    _numbers_to_the_last_row(17),
    "40\n" + "".join(" ".join("7" if (x * y) % 9 == 1 else "B" if (x + 2 * y) % 11 == 0 else "#" for y in range(40))
                     + "\n" for x in range(40)),  # bigger than any group: the plain fallback
]


@pytest.mark.parametrize("text", ODD_POSITIONS, ids=range(len(ODD_POSITIONS)))
def test_strong_answers_odd_positions_legally_and_in_time(champion, tmp_path, text):
    state = parse_board(text)
    if outcome(state) is not None:
        state = parse_board(text.replace("B", "#"))
    assert outcome(state) is None
    move, cpu = run_bot([str(champion)], tmp_path / "strong", state)
    check_move(state, move)
    assert cpu < MOVE_CPU, f"{cpu:.2f} s of CPU"


def test_strong_keeps_a_memory_and_survives_a_broken_one(champion, tmp_path):
    folder = tmp_path / "strong"
    folder.mkdir()
    (folder / "strong.memory").write_bytes(b"not a memory")
    state = parse_board((ROOT / "boards" / "group2" / "board1.in").read_text())
    for _ in range(3):
        move, cpu = run_bot([str(champion)], folder, state)
        check_move(state, move)
        state = apply_move(state, move)
        assert 0 < (folder / "strong.memory").stat().st_size <= 2**20  # (the arena caps a file at 1 MiB)
        assert cpu < MOVE_CPU


def test_strong_wins_a_won_10x10_board_against_the_solver(champion, tmp_path):
    """The first player wins this board (arena solve settles it at once); the champion, first,
    wins it against a defender that plays the solver's move, or a random one when lost
    (benchmarks/bench_strong_exact.py games: boards the solver settles within a minute)."""
    state = generate_board(10, 2, 3, 6, 2)
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    assert engine_solve(state)[0] == WIN
    rng = random.Random(2)
    while (end := outcome(state)) is None:
        if state.seat == 0:
            move, cpu = run_bot([str(champion)], tmp_path / "strong", state)
            assert cpu < MOVE_CPU
        else:
            _, best = engine_solve(state)
            move = best or REFEREE.random_move(state, rng)
        check_move(state, move)
        state = apply_move(state, move)
    assert end.winner == 0


def test_strong_gives_a_10x10_board_of_many_numbers_in_little_room_to_the_exact_search(champion, tmp_path):
    """The first position of a 10x10 board (bench_strong_exact.py games, seed 7): 19 live numbers
    in 80 free cells, won for the player to move (arena solve: 0.35 s).  By its live count it is
    a middle-game position (40 % of the move for the exact search, wide rounds): the search did
    not settle it and the model's move lost (STRONG_SMALL_ROOM=0 does the same: timing, so not
    asserted here).  By its room it is small (section 21 of the bot's NOTES.md), and the exact
    search wins it in about 0.4 s of the move."""
    _strong_wins(champion, tmp_path / "strong", board_text(generate_board(10, 3, 3, 8, 7)), "exact win")


#: 27 live numbers in 72 free cells (a position of bench_strong_exact.py positions, seed 6227):
#: won for the player to move, arena solve 0.16 s (81 000 steps).
DENSE_WIN = """10
# # # # # # # # # #
# # # # 3 # 4 # # #
# # 7 # # 7 # # # #
# # # # 4 8 # 3 8 #
# # # # 5 3 4 # 8 #
7 6 5 6 8 8 # 3 # #
5 5 5 # # # 5 # # #
# # # 3 # # # 4 # #
6 # # # # # # # 4 #
3 # # # # # # # # #
"""


def test_strong_gives_many_numbers_in_little_room_the_narrow_rounds(champion, tmp_path):
    """Too many live numbers to be small (at most 24 in at most 90 cells get 85 % of the move), yet
    little room: the wide rounds of the middle game ended in round 1 and the model's move, refuted,
    left the tree to throw the win.  The narrow rounds (decay 2, main.cpp's `dense`) prove it within
    the middle game's share (NOTES.md, section 28)."""
    _strong_wins(champion, tmp_path / "strong", DENSE_WIN, "exact win")


#: 15 live numbers in 73 free cells (bench_strong_exact.py positions, seed 6360): won for the
#: player to move, arena solve 0.4 s (206 000 steps).  (Until section 36 of the bot's NOTES.md this
#: was seed 6674's position, whose proof the engine of that section finds in 2.2 million steps
#: instead of 214 000: the rounds' path there turns on the steps its shortcuts change.)
SMALL_WIN = """10
# # # # # # # # # #
# 2 # # # # # # # #
# 3 2 # # # # # # #
# 6 # # # # # # # #
5 # # # 2 # 4 # # #
# # 3 # # # 4 # # 4
# # # # 4 2 # 3 # #
# # # # # # # # # #
# # # # # # # # # #
# # 5 # # # # # 2 #
"""


def test_strong_orders_a_small_positions_rounds_by_the_ranking_without_the_model(champion, tmp_path):
    """A small position (85 % of the move to the exact search: 15 live numbers in 73 free cells,
    seed 6360 of bench_strong_exact.py positions) whose win the solver proves in 0.4 s.  Ordered by
    the ranking without the model, as arena solve's, the exact search wins it in 0.26-0.41 s of the
    move; in the order of the ranking with the model (STRONG_SMALL_NO_MODEL=0) it does not, and
    the ranking's or the model's move is played (NOTES.md, sections 30 and 36)."""
    _strong_wins(champion, tmp_path / "strong", SMALL_WIN, "exact win")


def test_bench_strong_exact_says_how_the_bot_chose_a_move_that_throws_a_win(champion, tmp_path, monkeypatch):
    """benchmarks/bench_strong_exact.py judges a bot's move where the solver settles the position:
    the champion keeps a won position; a bot that throws it is a FAIL whose line says how the bot
    chose the move (the last line of its STRONG_VERBOSE report) and shows the board."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    bench = importlib.import_module("bench_strong_exact")
    rng = random.Random(5)
    while True:  # a small won position with a move that throws the win
        state = random_state(rng, 4, 4, 0.35)
        if outcome(state) is not None or brute_value(state) != WIN:
            continue
        moves = [PaintMove.of(state, region) for i in playable_numbers(state) for region in referee_regions(state, i)]
        throws = [move for move in moves if brute_value(apply_move(state, move)) == WIN]
        if throws:
            break
    assert bench.check_position(str(champion), state, "case", 2.0, 2.0)[0] == "settled-win"

    def thrower(report: str) -> str:  # (a bot that plays the throw and reports as strong does)
        script = tmp_path / "thrower.sh"
        script.write_text(f"#!/bin/sh\nprintf '{throws[0].to_text()}' > game.out\n"
                          f"echo 'exact: 3 live in 9 cells' >&2\nprintf '{report}' >&2\n")
        script.chmod(0o755)
        return str(script)

    verdict, detail, _ = bench.check_position(thrower("model win, cpu 0.010\\n"), state, "case", 2.0, 2.0)
    assert verdict == "FAIL"
    assert detail.startswith("case: value 1, after the bot's move -1 (the bot: model win, "), detail
    assert board_text(state) in detail
    # the report is the bot's own text: escape sequences and markup reach the terminal escaped
    verdict, detail, _ = bench.check_position(thrower("\\033[2J<b>won</b>\\007, cpu 0.010\\n"), state, "case",
                                              2.0, 2.0)
    assert verdict == "FAIL"
    assert "(the bot: \\x1b[2J<b>won</b>\\x07, " in detail, detail
    assert "\x1b" not in detail and "\x07" not in detail
    # --unknown: where the solver gives up (0.01 s), the move is judged by what it leaves: the
    # champion proves SMALL_WIN's win within its move, so the opponent is lost after it
    assert bench.check_position(str(champion), parse_board(SMALL_WIN), "small", 0.01, 5.0, None, True)[0] == "unknown-won"


#: Group 2 positions from games strong lost to bots/search.py (arena match, fresh boards, seeds 3
#: and 4), where a number is already dead: the solver wins them in 0.7 and 1.5 s (of which the
#: depth-first search spends most on refuting losing moves tried first); the winning move itself
#: is proved in a few thousand steps.  The root by rounds (main.cpp, bestByRounds) finds it in a
#: fraction of a move; the depth-first search played a losing move in both.
DEAD_WINS = [
    """15
# # # # # # # # # # # # # # #
# 5 # # 5 # # # # # # # # # #
# # 8 # # # # # # 7 B B # # #
7 # # # # # # # # 9 5 B B 5 #
# # # # 9 # # # # # 6 B B 9 #
# # # # # B # 6 # 8 B B B B 9
# # # # B B # # # # 8 # # 10 #
# # # 8 B B 7 # # # # # # # #
8 5 # B 9 7 # # B # 7 # # # #
B B B B B B 9 # B # # # # # #
# # # # # B # # B 8 # 9 # # #
# # # # # B # # B B B B B # #
# # # # 8 B # # # # # # B # #
# # # # # # # # # # # # 10 # #
# # # # # # # # # # # # # # #
""",
    """15
# 8 B # # 9 B B 5 5 # # # 7 #
# # B # # # # B 7 9 # 7 # # #
# # B B 7 5 8 B B B B B 8 # #
# 8 B 9 7 5 B B # # 6 5 10 7 #
# 7 B B 9 # 9 8 # # # 9 5 B #
# # # B 6 5 6 B B B B B B B #
# # # B B # 8 8 # # 7 B # # #
# # # # 9 # # # # # # 6 # # #
# # # # # # 10 # # # # # # # #
# # # # # # # # # # # # # # #
# # # # # 6 # # # # # # # # #
# # # # # # # # # # # # # # #
# # # # # # # # # # # # # # #
# # # # # # # # # # # 6 7 # #
# # # # # # # # # 5 # # # # #
""",
]


#: A 10x10 position (bench_strong_exact.py positions, seed 3040) of 14 live numbers that the solver
#: wins in 0.33 s: the rounds prove hundreds of its 1 010 moves lost in their share of the move,
#: the tree proves every one of its 59 candidates lost at once, and the win is among the other
#: moves.  The tree used to go round its proven candidates until the deadline; now the rounds get
#: the rest of the move (main.cpp, decide) and find the win.
CANDIDATES_LOST = """10
2 6 # # # # # # # #
# # # # # # # # 6 #
# # # 6 5 # # # # #
5 5 5 # 3 4 # # # #
# # 2 2 2 # # 6 # #
# # # # # 2 # # # #
# # # # # # # # # #
# # # # # # # # # #
# # # # # # # # # #
# # # # # # # # # #
"""


#: A group 3 position (arena match against bots/search.py, fresh boards, seed 22, after 13 moves):
#: 8 live numbers, won for the player to move (the solver in about a second) by a 15 whose 50 000
#: effects the exact search enumerates in 0.13 s.  The 13 beside it has more effects than a move
#: can enumerate: when the search by rounds enumerated every number's effects at once, it met the
#: deadline there and the 15's winning snake was never searched (the bot played the tree's move and
#: lost); each enumeration is now cut at a step budget that grows with the rounds.
ENUMERATION_CUT = """30
# # 14 # # # # # # # 10 # B 11 # # # # 15 14 16 20 # 14 # 10 # # # #
# # # # 19 B B B B B B B B 17 # # B # # 16 17 # 18 B 15 # # 12 # #
# # 16 12 B B B 18 14 # B # B # # # B # # 18 11 12 B B B 11 # # # #
# # 14 B B B 11 # # # 16 # # 17 # 16 B 13 11 # # 20 # 12 B 17 # # # #
# # B B 15 10 B 11 19 # 18 14 12 B B B B 18 16 11 # B 12 16 B 18 # # # #
# # # 18 B B B 11 B 14 B B B B # # # # B B B B B B B 15 # 15 # #
# # 14 B B B B 19 B 10 # B # 13 # # # # B 18 # # # 15 B # # # # #
# # # B 10 B 17 B B B B B 12 # # # # # B # # # # # B # # # # #
# # B # # B B # # # # # # # # 19 # # B # # # 18 # # 17 B # # #
# # B 12 11 # B B B B B B # # # B # 18 B # # # B B B B B # # #
15 B B B B B 10 # # 19 17 # # # # B # # 13 # B B B 11 # # # # # #
# # # B # 16 # 14 # B B B B B B B # # # 10 B # # # # # # # # #
# # B B 14 B B B B B # # # # # # # B B B B B 17 # # # # # # #
# B B 20 18 # 14 12 18 # # # # # # # # 11 B 14 # B B # # # # # # #
19 B 14 16 14 B B B 15 11 15 # # # # # # # B B # # 15 # # # # # # #
14 B B B B 14 # B B B B # # # # # # # # 20 # # # # # # # 13 # #
12 B B 14 11 16 # # B 12 # # 18 # # # # # # # # # # # # # # # # #
# # B 15 # # 13 14 B # # # B # # # # # 17 18 # 10 10 18 # # # # # #
# # 12 # # # B B B 14 # # B # # # # # B B B B B B # # B # # #
17 B B B B B B 18 17 # # # B # # # # # # # # # 17 B B 19 B # # #
# 18 16 19 18 B # # # # B B B B B B B 13 # # # # 14 16 B # B # # #
# # 18 18 20 12 # # # # 20 # B 18 # # 12 19 10 15 10 11 B B B 19 B # # #
B 10 B B B 13 16 B # # # # B B B B # # 18 # 10 10 B 12 20 10 B # # #
B B B 10 B B 17 B # # # # 15 17 B # # # 13 16 # 14 B 13 18 10 B B B 12
# # B 14 17 11 # B # # # # # # B B 11 # 14 19 19 18 B 18 15 B B B B 11
# # B B 17 # # B # # # # # # 11 B 18 17 17 # 11 10 B 20 16 B # B 16 #
# 16 B 10 14 B B B 16 # # # # # # B 15 # # 11 17 B B B 20 19 # B B B
B B B B 15 # # B B B B B 17 # # # # B # # # # # B # # # # # B
14 # # 14 # # # # # # # B B B B B B B # # # # # 19 # # # # # 12
# # # # # # # # # # # # # # # # # 16 # 16 # # # # # # # # # #
"""


def test_the_rounds_enumerate_only_what_they_can_reach():
    """A round stops at the first move whose share is under 10 steps (fewer than 2 000 moves in
    the rounds of a move with decay 2), and enumerated effects join the end of the list: an
    enumeration whose effects the round could not reach waits for a later round (bots/strong/NOTES.md,
    section 17).  In the enumeration-cut position the rounds enumerated 100 000 effects that no round
    of the move searched, 0.25 s of the exact search's 0.68, and the win came at 0.39-0.68 s of CPU
    (the same steps; once in CI too late).  ``arena solve`` runs the same rounds: under half the
    steps of ``STRONG_ENUM_REACH=0`` (4.2 M against 1.0 M), the same value, a move that wins."""
    state = parse_board(ENUMERATION_CUT)
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    assert_the_knob_halves_the_steps(state, "STRONG_ENUM_REACH", STRONG_ENUM_TURNS="0")


#: The position before the first player's second move (ply 3) of a group 2 game against
#: search.py (seed 41): 14 live numbers, won for the player to move.  The win is among the first
#: effects of the tenth number (a 10), which the rounds listed after every effect of the nine
#: before it: it was the 927th move, reached in round 4 (910 000 steps of `arena solve`).
TENTH_NUMBER = """15
# # # # # 6 # # # # # # # # #
9 7 # 10 # # # 5 # # # 7 # 9 #
# # 6 5 # # # B 6 10 # # # 5 #
6 # 10 # # # 10 B B B B 9 # # #
8 8 # # B B B B # B # # # # #
# 6 6 10 6 9 7 8 # 8 # # # # #
# # 9 B 6 10 # # # # 10 # # # #
B B B B # B 9 # # 6 8 # # # #
B B B # B B B B B B B B # # 6
# # # # # 7 # # # 10 B # # # #
# # # # # # # # # # 8 # # # #
# # # # 8 # # # # 5 # # # # #
# # # # # # # # # # # # # # #
# # # # # # # # # # # # # # #
# # # # # # # # # # 10 # # # #
"""


def test_the_rounds_list_every_numbers_first_effects_early():
    """The numbers share a round's reach and their new effects are listed one of each number in
    turn (bots/strong/NOTES.md, section 18): the win above is then found in round 1, in under half
    the steps of ``STRONG_ENUM_TURNS=0`` (164 000 against 910 000), the same value, a move that wins."""
    state = parse_board(TENTH_NUMBER)
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    # (the heap made smaller after the part's own first moves, section 20, also finds this win
    # early, in 173 000 steps without the turns: both runs here make it smaller first, as before)
    assert_the_knob_halves_the_steps(state, "STRONG_ENUM_TURNS", STRONG_HEAP_LATE="0")


def test_a_heap_is_made_smaller_after_the_parts_own_first_moves():
    """In a sum of parts and a Nim heap, making the heap smaller is a whole search of the part;
    the killer moves and the part's candidates are single positions, tried first (bots/strong/
    NOTES.md, section 20).  On the seed 4 position above: under half the steps of
    ``STRONG_HEAP_LATE=0`` (137 000 against 656 000), the same value, a move that wins."""
    state = parse_board(DEAD_WINS[1])
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    assert_the_knob_halves_the_steps(state, "STRONG_HEAP_LATE")


#: The position before ply 3 of a group 2 game (strong against search.py, seed 23 of group 2 seed
#: 1), won for the player to move.  The winning move refutes far more of the opponent's replies
#: in its share of round 2 than the moves before it in the list, which the rounds searched first.
PROGRESS_FIRST = """15
# # # # # 9 # 5 # 5 10 B # # 7
# # # # # # # # 5 # 8 B # # #
# # # # # # 7 B B B B B # # #
# # # # # # # # 8 5 8 # # # 6
# # # # # # # # # 8 B # # # #
# # # # # # # 7 # # B # # # #
# # # # # # # # # 6 B # # # #
# # # # # # # # 8 B B B # # #
# # # # # # # # # # # # # # #
8 B # # # # # # # # # # # # #
6 B B 7 8 # # # 5 # # # # # #
# 7 B B B 9 # # # 10 # # # # #
9 # # B 5 # # # # # # # # # #
# 8 B B 9 # # # # # # # # # #
# # # B 8 # 10 # # # # # # # #
"""


def test_the_rounds_search_first_the_moves_that_refute_most():
    """After each round from the second on, the two moves whose searches refuted the most replies go
    to the front of the list (bots/strong/NOTES.md, section 27): the win above takes under half
    the steps of ``STRONG_PROGRESS_TOP=0`` (280 000 against 1.7 M), the same value, a move that wins."""
    state = parse_board(PROGRESS_FIRST)
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    assert_the_knob_halves_the_steps(state, "STRONG_PROGRESS_TOP")


@pytest.mark.parametrize("text", DEAD_WINS + [CANDIDATES_LOST, ENUMERATION_CUT],
                         ids=["seed3", "seed4", "candidates-lost", "enumeration-cut"])
def test_strong_finds_a_win_that_a_hard_first_move_hides(champion, tmp_path, text):
    state = parse_board(text)
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    assert engine_solve(state)[0] == WIN
    move, cpu = run_bot([str(champion)], tmp_path / "strong", state)
    check_move(state, move)
    assert engine_solve(apply_move(state, move))[0] == LOSS
    assert cpu < MOVE_CPU


#: A group 3 position from a game of bots/search.py against strong (arena match, fresh boards, seed
#: 7, after 22 moves): two live numbers in big open areas.  The first player wins it (the solver
#: in a fraction of a second).  A number has thousands of moves of distinct effect here but
#: hundreds of thousands of regions that differ on the cells around the other's zone: the exact
#: search once held them all, met its limit on held regions and gave up at once, leaving the move
#: to the model (as late as this, with 2 or 3 live numbers).
LATE_GROUP3 = """30
B B 11 11 18 # # 13 # # 19 13 12 12 B B # B 19 B B # B B B B B B B B
B B 19 17 # # 11 16 15 17 20 18 B B 15 B # B B B B # B # B # # B B B
B 11 13 # 13 # # # 16 B B B B 16 B B # B B B B B # B 16 B B # B #
B B B 20 B # # 20 13 13 11 10 B 11 B # 13 # 14 # # # # B # B B B # #
B B B 18 B B B B B B B 15 B 13 B B B B B B B B B B # B B B # #
19 B # # B # # 13 B 17 # B B B # # B 16 # # # 20 # B # B B # # #
12 # # # B # # # 18 10 B B 12 B B B # B B B B B B 15 # # # # # #
12 # 17 B B B 12 # # # # B B B 18 13 B # B B B # # # # # # # # #
# B B B 18 B 17 11 B # B # 14 # # # B # B B 11 B B B # # # # # #
# # 18 10 18 B B 13 B 14 B B 12 B B # B # B # # 14 12 B 10 B # 13 11 #
18 14 B 13 # # 12 14 B # B B 15 B B 10 B B 17 17 20 17 B B B B B B B #
# 15 B B 20 # 12 20 B # B B B B # 17 15 B B 13 14 12 16 14 B 18 B 11 B 10
# # 18 B 19 15 B B B B 18 B B # 18 # # # B 20 # 11 12 B B # B 10 B #
# 11 B B B B B 11 # # B B # # # 20 10 B B 12 20 # 19 17 14 # 13 # # #
# # 18 11 # 17 18 # # # # # # # 18 # # # B 11 # 17 B 17 # # # B B #
# B # # # 10 B B B B B # # # # 11 20 B B 14 15 15 B B 20 # # # B 16
# B # # 18 17 B # # # # # B B B 20 13 B # # # # # B B B B B B #
# B 16 # # # B # # # # # B # # 13 B B # # # # 16 B B # # 16 B #
# B # # # # B # # # # # B # 12 B B B B 14 # # # 14 B B # # B 14
# B # # # # B 16 # # 17 B B 13 # # # 15 # # # 14 # # # B # # # #
# B # # # # B # # # # # B B 10 B # # # 11 # # # # # B # # # #
# B # # # # B # # # # 17 B B B B # # # B # # # # # 13 # # # #
# B # # # # B # # # 13 17 # # # B # # 14 B B # # # # # # # # #
# B # # # # B # # # B B 12 B # B B B # 14 B # # # # # # # # #
# B # B B B B # 17 B B B B B 10 B 11 12 14 B B 20 B # # # # # # #
# B 15 B B # 10 B B 11 B B 18 12 # 14 B B 19 B B 15 B B # # # B B B
# B # # 12 B B B B B 15 B B B 17 B B B 10 B B 20 B B B # B B B B
# B # # # # B B B # B B # B B 16 B 20 B B B # B B # B B B B B
# B B B B B # B B B 12 15 # B 18 B B B 11 # # B B B B # B B B B
# # # # # # B B B B B B # 16 14 B # 14 18 15 # B B B B B # B B B
"""

#: Another position of that match (the same board, after 13 moves): 14 live numbers, won for the
#: player to move.  The exact search once enumerated every effect of every number before trying a
#: move (an 18 in an open area has more than the move's time allows) and gave up with no move tried;
#: `arena solve` gave up after 10 s.  Trying every number's candidate regions before enumerating
#: the rest, it proves the win in 0.04 s.
LATE_GROUP3_14 = """30
# # 11 11 18 # # 13 # # 19 13 12 12 B B # # B # # B B B B B B B B #
12 # 19 17 # # 11 16 15 17 20 18 # # 15 B # # B B B B 14 # # # # # B #
# 11 13 # 13 # # # 16 # # # # 16 B B # # 12 # # # # B 16 # # # B #
# # # 20 B # # 20 13 13 11 10 19 11 B # 13 # 14 # # # # B # # # # B #
# # # 18 B B B B B B B 15 B 13 B B B B B B B B B B # # # 10 B #
19 # # # B # # 13 B 17 # B B B # # B 16 # # # 20 # B # # # # B #
12 # # # B # # # 18 10 B B 12 B # # # # # # # # # 15 # # # # B #
12 # 17 B B B 12 # # # B # # B 18 13 B # # # # # # # # # # # # #
# B B B 18 B 17 11 B # B # 14 B # # B # 12 # 11 B B B # # # # # #
B # 18 10 18 B B 13 B 14 # # 12 B # # B # # # # 14 12 B 10 B # 13 11 #
B 14 B 13 # # 12 14 B # 17 # 15 B # 10 B B 17 17 20 17 B B B B B B B #
B 15 B B 20 # 12 20 B # # # # B # 17 15 B B 13 14 12 16 14 B 18 B 11 B 10
B B 18 B 19 15 B B B B 18 # # B 18 B # # B 20 # 11 12 B B # B 10 B #
B 11 B B B B B 11 # # # # # B B B 10 B B 12 20 # 19 17 14 # 13 # # #
B B 18 11 # 17 18 # # # # B # # 18 B # # B 11 # 17 # 17 # # # B # #
B B B B B 10 B # # # # B # # # 11 20 B B 14 15 15 # # 20 # # B B 16
B B B # 18 17 B # # # # B # # # 20 13 B # # # # # B B # # B # #
B B 16 B B B B # # # # B # # # 13 B B # # # # 16 B B # # B # #
# # # # # # B # # # # B # # 12 B B B B 14 # # # 14 B B B B B 14
# # # # # # B 16 # # 17 B B 13 # # # 15 # # # 14 # # B B # # # #
# # # # # # B # # # # # B B 10 B B B # 11 # # # # # 20 # # # #
# # # # # # B # # # # 17 B B B B # # # B # # # # # 13 # # # #
# # # # # # B # # # 13 17 # # # B # # 14 B B # # # # # # # # #
# 18 # # # # B # # # B B 12 B # B # # # 14 B # # # # # # # # #
# # # # B B B B 17 B B B B B 10 B 11 12 14 B B 20 # # # # # # # #
# # 15 B B # 10 B # 11 B B 18 12 # 14 # 10 19 B B 15 # # # # # # # #
# # # # 12 # # 19 # # 15 B B B 17 # # # 10 B B 20 # # # # # # # #
# # # # # # # # # # B B # B B 16 # 20 B B B # # # # 19 # # # #
# # # # # # # # # # 12 15 # B 18 # # # 11 # # # 17 # # # # # # #
# # # # # # # # # # # # # 16 14 # # 14 18 15 # # # # # # # # # #
"""

#: A third (the board of seed 9, after 10 moves): 22 live numbers, won for the player to move.
#: Until the enumeration tracked which other numbers a region kills (a killed number's zone stops
#: mattering; with one survivor left only whether it dies does), `arena solve` gave up after 10 s
#: and the bot left the move to the tree; it now proves the win in 0.2 s.
LATE_GROUP3_22 = """30
# # 18 # # # 17 # 12 11 19 16 B B B 13 # # 14 # # # 10 B 16 # # # # #
# 19 13 # # 10 # # # 11 20 B B 19 B 14 # # 14 B # 16 B B # # # # # #
15 19 # 13 # # 19 16 13 15 # 14 10 18 B B # # # B # # B # # # # # # #
12 12 # # 10 16 10 # 12 # 11 B 11 17 18 B # # # B # # B # # # # # # #
10 17 18 11 17 14 20 19 # # # B B B B B 13 # 17 B B B B 13 # # # # # #
19 10 B 11 10 12 10 17 # # # 11 B 17 # # # # 15 B # # B B 11 # # # # #
B B B 14 # # 14 # 11 B B B B # # # # # 12 B # # # # # # # # # #
# B # # 14 17 # # # 16 11 18 13 # # # # # B B # # # # # # 18 # # #
# B # # 18 13 15 12 11 B B # # # # # # # B 16 # # # # # # B # # #
# B 14 17 # # 12 # 19 14 B 12 # # # # # # 16 13 # B 18 B B # B 16 # #
# B 12 # 15 13 # # 18 B B B B 10 # # # # # # B B B B B 12 B # # #
# B B # # # # 16 16 12 B # B B B # # # # # B # B B B 10 B # # #
20 B B # # 12 # 13 13 17 18 # B 16 B B 19 19 # 20 20 18 # B 18 B B # # #
# 15 B B 14 B 16 B B 11 # # B 16 14 B B B B 10 10 # # 17 B B B B B #
# # B B 17 B B B B B # # B 18 # # 16 # # 17 18 # B B B # 18 14 B #
# # # # # # B # B # # # 15 # # # # 14 # # 10 # # 16 14 # # 13 B #
# 11 # # # # B 12 11 # # 12 # # # # # # # 16 B B # # 14 # # # B B
# # # # # # B # # # # # 10 # # # 17 # # 17 19 B # # # # # # 19 B
# # # B B B B # # # # # # # # # # # # # 17 B # # # B B B # 13
# # # # # 20 13 # # # 18 # # # # 13 B B # # # B 18 # # # 15 B B #
# # # # # # # # # 13 # # # # # # # B # # # B # # # # # # B #
# # # # # # # # # # # # # # # # 10 B B # # B # # # # # 15 B #
# # # # # # # # # # 16 # # # # # # # B 15 # B # # # # # # B 13
# # # # # # # # # # # # # # # # # 19 B B B B # # # # # 10 B B
# # # # # # # # # # # # # 13 # # # # B # 11 14 # # # # # # # B
# # # # # # # # # # # # # # # # 19 # 11 # 18 # 10 15 10 20 20 B B B
# # # # # # # # # # # # # # # 11 10 14 16 11 # 19 16 B 19 20 13 # 15 17
# # # # # # # # # # # 20 # # # B B B B B 11 10 18 B B B B 13 # 11
# # # # # # # # # # 20 # # # # # # B # B B B B B # 20 # # 20 #
# # # # # # # # # # # # # # # # # 18 # # 15 # 20 # # # # # # #
"""


def _strong_move(champion: Path, folder: Path, state, **knobs: str) -> tuple[object, str]:
    """One move of the champion, with main.cpp's knobs `knobs`, in a new `folder`: (its legal
    move, its report (STRONG_VERBOSE))."""
    folder.mkdir()
    (folder / "game.in").write_text(REFEREE.render(state, state.seat)["game.in"])
    run = subprocess.run([str(champion)], cwd=folder, capture_output=True, text=True, timeout=10, check=True,
                         env={**os.environ, "STRONG_VERBOSE": "1", **knobs})
    move = parse_move((folder / "game.out").read_text())
    check_move(state, move)
    return move, run.stderr


def _strong_wins(champion: Path, folder: Path, board: str, how: str | tuple[str, ...], **knobs: str) -> str:
    """The champion, with main.cpp's knobs `knobs`, says `how` it chose (a prefix, or one of
    several) and plays a win; returns its report (STRONG_VERBOSE)."""
    state = parse_board(board)
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    assert engine_solve(state)[0] == WIN
    move, report = _strong_move(champion, folder, state, **knobs)
    assert report.strip().splitlines()[-1].startswith(how), report
    assert engine_solve(apply_move(state, move))[0] == LOSS
    return report


@pytest.mark.parametrize("board", [LATE_GROUP3, LATE_GROUP3_14, LATE_GROUP3_22], ids=["2-live", "14-live", "22-live"])
def test_strong_settles_a_late_group3_position_exactly(champion, tmp_path, board):
    _strong_wins(champion, tmp_path / "strong", board, "exact win")


def test_strong_plays_the_win_the_tree_proves_at_its_root(champion, tmp_path):
    """With no time for the exact search by rounds and no model, the tree's first look proves the
    root won, and makes no children there: the move is then found by rounds over the table that
    holds the proof (it was the ranking's first, which need not win).  (The 14-live position: the
    2-live one is solved before the rounds first read the clock.  So is this one with the ranking
    of NOTES.md section 29, which puts a win first here: the ranking from before, by parity, keeps
    the rounds from proving it before they stop.)"""
    _strong_wins(champion, tmp_path / "strong", LATE_GROUP3_14, "exact win, after the tree",
                 STRONG_EXACT_MID="0", STRONG_EXACT_SMALL="0", STRONG_MODEL="0", STRONG_UNKNOWN_PARITY="1")


#: A position of bench_strong_exact.py (positions, seed 2280) the solver wins in 0.3 s.  The tree
#: (no exact search before it, no model) proves every child it keeps choosing and then went round
#: those proven nodes until the deadline: 1.26 million iterations on 1 222 nodes, and its move lost.
TREE_SPIN = """10
# # # B B B B # 5 #
# B B B 5 6 8 5 # 8
# # B 5 6 # # # # #
# # # # 4 # # # # #
# 5 3 # # # # # # #
6 # # # # # # # # #
# # # 8 # # # # # #
# 5 # # # # # # # #
# # # # # # 6 # # #
# # # # # # # # # #
"""


def test_strong_gives_the_time_a_spinning_tree_wastes_to_the_exact_search(champion, tmp_path):
    """When the tree goes round proven nodes only, the rest of the move goes to the rounds, which
    find the win (the engine before this played the tree's losing move).  (No exact search before
    the tree: its share is 0, and the position, small by its room, is not taken for a small one.)"""
    _strong_wins(champion, tmp_path / "strong", TREE_SPIN, "exact win, after the tree",
                 STRONG_EXACT_MID="0", STRONG_SMALL_ROOM="0", STRONG_MODEL="0")


#: Sixteen numbers in one part above a wall (too many for the ranking's estimates to value), and
#: below it a 2 and a 1 with one cell between them: a part of value 2 (the 2 can take the 1 with it
#: or spare it; the 1 spares the 2).  Taking both leaves the big part alone.  Valued by the parity
#: of its 16 numbers it is 0, so that move looked like leaving the opponent nothing to win; its
#: value is not 0, and the solver proves the move lost.  Found by trying random clusters.
BIG_BESIDE_A_PAIR = """10
# # 3 # # # # # 5 #
2 # # 5 # # # 3 # #
2 # 4 # # # # # # #
# # # # # # # 5 5 #
# # 3 # # 5 3 5 # #
# # # 4 4 # # # # 2
# # # # # # # # # #
B B B B B B B B B B
# # # # # # # # # #
# # # 2 # 1 # # # #
"""


def _ranking(champion: Path, board: str, **knobs: str) -> list[tuple[str, PaintMove]]:
    """The champion's ranking of a position (``--rank``): (what each move leaves, the move)."""
    run = subprocess.run([str(champion), "--rank", "1000"], input=board, capture_output=True, text=True,
                         timeout=60, check=True, env={**os.environ, **knobs})
    ranked = []
    for line in run.stdout.splitlines():
        head, cells = line.split(":")
        numbers = [int(t) for t in cells.split()]
        ranked.append((head.split(",")[0].removeprefix("leaves "), PaintMove(tuple(zip(numbers[::2], numbers[1::2])))))
    return ranked


def test_strong_ranks_a_part_it_cannot_value_as_unknown_not_by_its_parity(champion):
    """The ranking used to value a part its estimates do not settle by the parity of its numbers,
    which calls half of all such parts 0 where hardly any is: here it put first the move that
    leaves the big part alone, as if the opponent had nothing to win, and that move loses.  Now
    that move leaves an unknown value and ranks below a known 0 (none here) and with the others
    whose value is unknown; the ranking's first move here is the solver's win."""
    state = parse_board(BIG_BESIDE_A_PAIR)
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    both = PaintMove(((9, 3), (9, 4)))
    before = _ranking(champion, BIG_BESIDE_A_PAIR, STRONG_UNKNOWN_PARITY="1")
    assert before[0] == ("0", both)
    assert engine_solve(apply_move(state, both))[0] == WIN  # (for the opponent: the big part's value is not 0)
    ranked = _ranking(champion, BIG_BESIDE_A_PAIR)
    assert ("unknown", both) in ranked[1:]
    assert all(leaves in ("unknown", "not 0") for leaves, _ in ranked)
    assert [leaves for leaves, _ in ranked] == sorted((leaves for leaves, _ in ranked), key=("unknown", "not 0").index)
    assert engine_solve(apply_move(state, ranked[0][1]))[0] == LOSS
    for args, board, error in ((["--rank", "0"], BIG_BESIDE_A_PAIR, "a count above 0"),
                               (["--rank", "5"], "10\n# # 7\n", "not a board")):
        run = subprocess.run([str(champion), *args], input=board, capture_output=True, text=True, timeout=60, check=False)
        assert run.returncode == 2 and error in run.stdout, run.stdout


#: The position before the second player's second move (ply 3) of a group 2 game against
#: search.py (seed 19): won for the player to move (the solver: 1.5 s).  The model finds a "win"
#: there, which the rounds refute in 0.14 s (238 000 steps): the position after it is the
#: opponent's.  Looked at depth first, it was not refuted in the time the move gave it, and the
#: bot played it and lost.
MODEL_REFUTED = """15
# # # # # 8 # 5 # # 9 # 6 # #
# # # 9 # # # # 9 # # # # # #
# # # # 10 # # # # # # # # # #
5 8 # B # # # # 6 # # # 6 # #
# # # B # # # 6 7 # # # # # #
# # # B # # # 9 # # # # # # #
# # # B # # # # # # # # # # #
# # 6 B # # # # # # # # # # #
# 10 B B # # # # # B 7 # # # #
10 B B # # # 10 7 B B 6 # # # #
8 8 # # B B B B B 8 # 8 # # #
9 7 # # B 6 # B 8 # 9 # # # #
8 # 10 # 6 # # 8 9 8 B 5 5 # #
# # # # # # # 5 B B B 5 8 # #
# # # # 7 # 7 B B B B B B 6 #
"""


def test_strong_refutes_the_model_by_rounds(champion, tmp_path):
    """The model's win is checked by the rounds on the opponent's replies, which refute it (the bot
    before played the model's move at 0.46 s), and the bot does not play it.  It then finds the
    real win, after the tree or by the tree, and that move must win; but how late is a matter of
    the machine: after the tree by 0.71 s of the move when this test was written, by 0.75-0.77 s
    with killer moves (alone, and with four moves to a core), and once in CI not by 0.80 s, where
    the tree's move was played: that is accepted (the move's time is the bot's to spend)."""
    state = parse_board(MODEL_REFUTED)
    if engine_lines(state, 10) is None:
        pytest.skip("no C++ engine")
    move, report = _strong_move(champion, tmp_path / "strong", state)
    ranking = re.search(r"^ranking: (\d+) candidates, leave 0 (\d+), unknown (\d+), not 0 (\d+) \(valued before the "
                        r"clock ran out: (all|\d+)\)$", report, re.MULTILINE)
    assert ranking and int(ranking[1]) == sum(int(ranking[k]) for k in (2, 3, 4)), report
    claims = [line for line in report.splitlines() if line.startswith("model: a win")]
    assert claims and "replies: refuted" in claims[0], report  # (refuted, not run out of time)
    how = report.strip().splitlines()[-1]
    if how.startswith(("exact win", "mcts proven win")):
        assert engine_solve(apply_move(state, move))[0] == LOSS, report
    else:
        assert how.startswith("mcts"), report  # (never the model's refuted move)


#: The first move of the 10x10 board of seed 12 of `bench_strong_exact.py games`: the model finds a
#: win at about 0.34 s of the move that the look on the replies does not settle in its share (the
#: solver refutes it in 0.19 s from a fresh table).
MODEL_UNSETTLED = """10
# # # # # # # # # #
# # # # 8 # # # 3 #
# # # # # # # # # #
# # # # 7 # # # # 8
# # # # # # # # # #
# # # # # # 3 # # #
# # # 8 6 # # # # #
# # # # 4 # # # # #
# # # # 3 4 # # # #
5 # # # 7 # # # # #
"""


def test_strong_looks_on_at_a_model_win_it_has_not_settled(champion, tmp_path):
    """A model win whose look has not settled it would be played with the rest of the move unused:
    the look goes on until 0.15 s before the end of the move (alone on a core it then refutes this
    one by 0.60 s; with four moves to a core it does not by 0.65 s, and the model's move is played
    as before, later).  With STRONG_REPLY_MORE=0 the move is played at about 0.45 s."""
    _, report = _strong_move(champion, tmp_path / "strong", parse_board(MODEL_UNSETTLED))
    lines = report.strip().splitlines()
    claims = [line for line in lines if line.startswith("model: a win")]
    if not claims:
        # The position is small, so the exact search has 85 % of the move; on a machine slower than the
        # one this was written on it spends all of it and the model, with what is left, finds no win to
        # look on at: the case this test is about does not arise (seen on a 2-core EPYC, 2026-12-04).
        assert "model look:" in report and "won by the opponent" in report, report
        pytest.skip("on this machine the model finds no win in the time the exact search leaves it:\n" + report)

    def cpu(line: str) -> float:
        return float(line.rsplit(" ", 1)[1])

    # a claim left unsettled while the move had time left was looked at until its last seconds
    assert all("looked until the tree's last seconds" in line or cpu(line) >= 0.6
               for line in claims if "not settled" in line), report
    if lines[-1].startswith("model win"):  # (played unsettled: only once the look had had the time)
        assert cpu(lines[-1]) >= 0.6, report


def test_strong_gives_its_first_move_of_a_group2_game_to_the_model_and_the_tree(champion, tmp_path):
    """A group 2 board's first position (39 live numbers in 175 cells): the exact search by rounds
    settles nothing there within its 40 % of the move, so at the bot's first move of a game (no
    memory of an earlier move) it has 12 % and the model and the tree the rest (NOTES.md, section
    31).  At a later move of the same game, with the memory the first one left, it has its 40 %."""
    folder = tmp_path / "strong"
    folder.mkdir()
    (folder / "game.in").write_text((ROOT / "boards" / "group2" / "board1.in").read_text())

    def exact_line(**knobs: str) -> tuple[str, float]:  # (the report's line on the exact search, its CPU)
        report = subprocess.run([str(champion)], cwd=folder, capture_output=True, text=True, timeout=10, check=True,
                                env={**os.environ, "STRONG_VERBOSE": "1", **knobs}).stderr
        line = next(x for x in report.splitlines() if x.startswith("exact: "))
        return line, float(line.rsplit("cpu ", 1)[1])

    line, cpu = exact_line()
    assert "(first move)" in line and cpu < 0.2, line
    assert (folder / "strong.memory").is_file()
    line, cpu = exact_line()
    assert "(first move)" not in line and cpu > 0.25, line
    (folder / "strong.memory").unlink()
    line, cpu = exact_line(STRONG_FIRST_LIVE="0")
    assert "(first move)" not in line and cpu > 0.25, line

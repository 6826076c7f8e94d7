"""The painting game's exact solver (``players.paint``) and ``arena solve``:
against a brute-force minimax over the referee on tiny boards, its region
enumeration against the referee's, the split into independent parts, the
shipped group1 values, and the command's output and exit status."""

from __future__ import annotations

import os
import random
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import main
from generator.paint import generate_board
from players.paint import (
    DRAW,
    LOSS,
    WIN,
    Budget,
    Grid,
    Part,
    Solver,
    TooBig,
    effects,
    engine,
    engine_lines,
    grid,
    position,
    read_solve_lines,
    regions,
    to_move,
)
from referees.paint import (
    EMPTY,
    PAINTED,
    PaintMove,
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
GROUP1 = sorted((ROOT / "boards" / "group1").glob("*.in"))


def random_state(rng: random.Random, n: int, hi: int, density: float, painted: float = 0.1) -> PaintState:
    """A random position: numbers 1..hi with probability ``density``, some painted cells."""
    cells = []
    for _ in range(n * n):
        if rng.random() < density:
            cells.append(rng.randint(1, hi))
        else:
            cells.append(PAINTED if rng.random() < painted else EMPTY)
    return PaintState(n, tuple(cells))


def brute_value(state: PaintState) -> int:
    """WIN / DRAW / LOSS for the player to move, by plain minimax over every
    region the referee enumerates (memo on the cells)."""
    memo: dict[tuple[int, ...], int] = {}

    def value(st: PaintState) -> int:
        if st.cells not in memo:
            end = outcome(st)
            if end is not None:
                memo[st.cells] = DRAW if end.winner is None else (WIN if end.winner == st.seat else LOSS)
            else:
                memo[st.cells] = max(-value(apply_move(st, PaintMove.of(st, region)))
                                     for i in playable_numbers(st) for region in referee_regions(st, i))
        return memo[st.cells]

    return value(state)


def solve(state: PaintState) -> tuple[int, PaintMove | None]:
    value, region = Solver().best(position(state))
    return value, None if region is None else to_move(grid(state.n), region)


def check_solution(state: PaintState) -> None:
    """The solver's value is the brute force's, and its move is legal and keeps it."""
    expected = brute_value(state)
    value, move = solve(state)
    assert value == expected, f"solver says {value}, brute force {expected}"
    if move is None:
        assert value == LOSS or outcome(state) is not None
    else:
        check_move(state, move)
        assert -brute_value(apply_move(state, move)) == value


@pytest.mark.parametrize("seed", range(6))
def test_solver_agrees_with_brute_force_on_tiny_boards(seed):
    rng = random.Random(seed)
    for _ in range(40):
        check_solution(random_state(rng, rng.choice([3, 4, 4, 5]), rng.choice([3, 4, 5]),
                                    rng.choice([0.15, 0.25, 0.35])))


@pytest.mark.parametrize("seed", range(3))
def test_solver_agrees_with_brute_force_with_bigger_numbers(seed):
    rng = random.Random(100 + seed)
    for _ in range(15):
        check_solution(random_state(rng, rng.choice([5, 6]), 7, rng.choice([0.08, 0.12, 0.18])))


def test_every_shipped_group1_board_is_a_first_player_win():
    assert len(GROUP1) == 4
    for path in GROUP1:
        state = parse_board(path.read_text())
        value, move = solve(state)
        assert value == WIN == brute_value(state), path.name
        check_move(state, move)


def test_the_sources_example_is_a_first_player_win():
    check_solution(parse_board((ROOT / "boards" / "examples" / "example.in").read_text()))


@pytest.mark.parametrize("text, value", [
    ("3\n# # #\n# B #\n# # #\n", DRAW),  # no number left
    ("3\n2 B #\n# # #\n# # #\n", LOSS),  # the 2 touches paint: no move, and it can never be painted
    ("3\n1 # 1\n# # #\n1 # #\n", DRAW),  # three 1s that never touch: all get painted
    ("3\n1 1 #\n# # #\n# # #\n", WIN),  # painting one 1 kills the other: no move is left
    ("3\n1 1 #\n# # #\n# # 1\n", LOSS),  # whatever I paint, one lone 1 is left for the opponent
])
def test_positions_at_or_near_the_end(text, value):
    state = parse_board(text)
    assert solve(state)[0] == value == brute_value(state)


def test_independent_numbers_form_separate_parts():
    far = position(parse_board("7\n2 # # # # # #\n# # # # # # #\n# # # # # # #\n"
                               "# # # # # # #\n# # # # # # #\n# # # # # # #\n# # # # # # 2\n"))
    assert len(far.parts) == 2 and not far.dead
    near = position(parse_board("4\n2 # # #\n# # 2 #\n# # # #\n# # # #\n"))
    assert len(near.parts) == 1


def test_a_number_without_room_is_dead():
    pos = position(parse_board("3\n3 B #\nB # #\n# # 1\n"))  # the 3 has no free cell next to it
    assert pos.dead and pos.numbers == 1


def live_numbers(seed: int, n: int) -> Iterator[tuple[PaintState, Part, int]]:
    """(state, part, index in the part) for every live number of 30 random n×n positions."""
    rng = random.Random(seed)
    for _ in range(30):
        state = random_state(rng, n, 6, 0.12)
        for part in position(state).parts:
            for k in range(len(part.numbers)):
                yield state, part, k


def every_region(g: Grid, part: Part, k: int) -> set[int]:
    """Every region of number k (nothing counts as filler)."""
    bit, v = part.numbers[k]
    return set(regions(g, bit, v, part.zones[k] & part.empty, g.full, Budget()))


def test_region_enumeration_matches_the_referee():
    g = grid(5)
    for state, part, k in live_numbers(7, 5):
        x, y = g.xy(part.numbers[k][0])
        ours = {frozenset(x * 5 + y for x, y in g.cells(r)) for r in every_region(g, part, k)}
        assert ours == set(referee_regions(state, x * 5 + y))


def test_effects_keep_one_region_per_distinct_effect():
    g = grid(6)
    for _, part, k in live_numbers(8, 6):
        found = list(effects(g, part, k, Budget()))
        assert len({e for _, e in found}) == len(found)
        beside = g.grow(1 << part.numbers[k][0])
        others = 0
        for i, z in enumerate(part.zones):
            if i != k and not beside >> part.numbers[i][0] & 1:  # a neighbour dies whatever is painted
                others |= z
        assert {e for _, e in found} == {g.grow(r) & others for r in every_region(g, part, k)}


def test_the_budget_stops_a_big_search():
    state = parse_board((ROOT / "boards" / "group3" / "board1.in").read_text())
    solver = Solver()
    solver.budget.deadline = 0.0
    with pytest.raises(TooBig):
        solver.best(position(state))


def test_arena_solve_prints_value_and_move(capsys):
    path = GROUP1[0]
    assert main(["solve", "paint", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("value: win")
    value, move = read_engine(lines)
    assert value == WIN and move is not None
    check_move(parse_board(path.read_text()), move)


def test_arena_solve_says_when_a_position_is_too_big(capsys):
    path = ROOT / "boards" / "group3" / "board1.in"
    assert main(["solve", "paint", str(path), "--max-seconds", "0.05"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("value: unknown (too big to solve within 0.05 s")


# ---------------------------------------------------------------- the C++ engine (bots/strong --solve)
def engine_solve(state: PaintState, seconds: float = 20.0) -> tuple[int | None, PaintMove | None]:
    """(value or None when unknown, best move) as the C++ engine prints them."""
    lines = engine_lines(state, seconds)
    assert lines is not None, "the C++ engine did not answer"
    return read_engine(lines)


def engine_steps(state: PaintState, seconds: float, **settings: str | None) -> tuple[int | None, PaintMove | None, int]:
    """(value, best move, search steps) as the C++ engine prints them, with settings such as
    ``STRONG_KILLERS="0"`` in its environment (None: the setting removed, the engine as shipped).
    Steps, not seconds: the count does not depend on the machine."""
    env = dict(os.environ)
    for name, value in settings.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    lines = engine_lines(state, seconds, env=env)
    assert lines is not None, "the C++ engine did not answer"
    return *read_engine(lines), next(int(line.split()[1]) for line in lines if line.startswith("searched"))


def assert_the_knob_halves_the_steps(state: PaintState, knob: str, solve: float = 20.0, **fixed: str) -> None:
    """The engine as shipped against ``knob=0`` (both with the ``fixed`` settings), the ordering
    knobs of bots/strong: the same value, a win; under half the steps as shipped; and the move it
    prints wins (the position after it is lost, ``solve`` seconds to say so)."""
    value, move, steps = engine_steps(state, 30, **{knob: None}, **fixed)
    before_value, _, before_steps = engine_steps(state, 30, **{knob: "0"}, **fixed)
    assert value == before_value == WIN
    assert steps * 2 < before_steps, (steps, before_steps)
    assert engine_solve(apply_move(state, move), solve)[0] == LOSS


def read_engine(lines: list[str]) -> tuple[int | None, PaintMove | None]:
    """(value or None when unknown, best move) from the lines of ``arena solve``."""
    value, text = read_solve_lines(lines)
    return value, None if text is None else parse_move(text)


@pytest.fixture
def needs_engine():
    if engine() is None:
        pytest.skip("no C++ compiler: arena solve uses the Python solver")


def check_engine_solution(state: PaintState) -> None:
    """The engine's value is the brute force's, and its move is legal and keeps it."""
    expected = brute_value(state)
    value, move = engine_solve(state)
    assert value == expected, board_text(state)
    if move is None:
        assert value == LOSS or outcome(state) is not None
    else:
        check_move(state, move)
        assert -brute_value(apply_move(state, move)) == value


@pytest.mark.parametrize("seed", range(3))
def test_engine_agrees_with_brute_force_on_tiny_boards(needs_engine, seed):
    rng = random.Random(500 + seed)
    for _ in range(50):
        check_engine_solution(random_state(rng, rng.choice([3, 4, 4, 5]), rng.choice([3, 4, 5, 7]),
                                           rng.choice([0.12, 0.25, 0.35])))


@pytest.mark.parametrize("n", [16, 17])
def test_engine_agrees_with_brute_force_at_the_edge_of_its_16_row_masks(needs_engine, n):
    """Boards up to 16x16 are searched with masks of 16 rows, bigger ones with 32 (bots/strong's
    Engine<R>): small numbers in the last rows and columns of the biggest board of the one and the
    smallest of the other, where a row too many or too few would show."""
    rng = random.Random(900 + n)
    for _ in range(12):
        cells = [EMPTY] * (n * n)
        for _ in range(rng.randint(3, 6)):
            x, y = rng.randint(n - 4, n - 1), rng.choice([rng.randint(0, n - 1), n - 1])
            cells[x * n + y] = rng.randint(1, 3)
        state = PaintState(n, tuple(cells))
        assert outcome(state) is None  # (so a missing move can only mean a lost position)
        check_engine_solution(state)


def test_engine_agrees_with_the_python_solver_on_bigger_boards(needs_engine):
    """Where the Python solver settles a position within a second, the engine gives the same value
    (benchmarks/bench_strong_exact.py compares thousands)."""
    rng, compared = random.Random(77), 0
    while compared < 25:
        state = random_state(rng, rng.choice([7, 8, 10]), rng.choice([5, 8]), rng.choice([0.06, 0.1]), 0.05)
        solver = Solver(deadline=time.process_time() + 1.0)
        try:
            expected, _ = solver.best(position(state))
        except TooBig:
            continue
        value, move = engine_solve(state)
        assert value == expected, board_text(state)
        if move is not None:
            check_move(state, move)
            assert -Solver().value(position(apply_move(state, move))) == value
        compared += 1


def test_engine_killer_moves_shorten_the_search_and_change_no_answer(needs_engine):
    """The engine tries the moves that last won at each depth first (bots/strong/NOTES.md,
    section 16): on this 10x10 board (a win for the player to move) it needs about a quarter of
    the steps it needs without them (``STRONG_KILLERS=0``; asked here: under half), for the same
    value, and the move it prints wins.  Steps, not seconds: the count does not depend on the machine."""
    assert_the_knob_halves_the_steps(generate_board(10, 2, 2, 6, 21), "STRONG_KILLERS", solve=30)


def far_apart(n: int, numbers: dict[tuple[int, int], int], dead: bool = True) -> PaintState:
    """An empty n x n board with `numbers` ((row, column) -> value), and, with `dead`, a 3 walled in
    by paint in the bottom-left corner (dead: the game is then played to the last move)."""
    cells = [EMPTY] * (n * n)
    for (x, y), v in numbers.items():
        cells[x * n + y] = v
    if dead:
        for x, y in [(n - 3, 1), (n - 3, 3), (n - 4, 2), (n - 2, 2)]:
            cells[x * n + y] = PAINTED
        cells[(n - 3) * n + 2] = 3
    return PaintState(n, tuple(cells))


@pytest.mark.parametrize("numbers, dead, value", [
    ({(1, 1): 5, (1, 8): 5}, True, LOSS),               # two single moves: the second player paints last
    ({(1, 1): 5, (1, 8): 5, (8, 8): 5}, True, WIN),     # three
    ({(1, 1): 5, (1, 8): 5}, False, DRAW),              # nobody can die: every number is painted
    ({(1, 1): 5, (1, 8): 5, (8, 8): 5}, False, DRAW),
])
def test_engine_values_numbers_that_cannot_kill_one_another_as_single_moves(needs_engine, numbers, dead, value):
    """Numbers 7 cells apart: their zones (4 steps each) touch, so each is one part with the next,
    but none can touch another (a path there takes 7 cells, and it paints 5) nor take enough of its room.  The
    engine (bots/strong/NOTES.md, section 36) and the Python solver agree on the value, and the
    engine settles each without a search, where it enumerated the numbers' regions before
    (``STRONG_IMMUNE=0``)."""
    state = far_apart(14, numbers, dead)
    pos = position(state)
    assert pos.dead == dead and len(pos.parts) == 1
    assert Solver().best(pos)[0] == value
    found, _, steps = engine_steps(state, 20, STRONG_IMMUNE=None)
    before, _, steps_before = engine_steps(state, 20, STRONG_IMMUNE="0")
    assert found == before == value
    assert steps * 10 < steps_before, (steps, steps_before)


def test_engine_settles_at_once_a_big_number_that_cannot_kill_its_neighbour(needs_engine):
    """A 13 and a 6 fourteen cells apart (the 13 paints at most 12 steps from its cell, so it never
    touches the 6, and the 6 has room beyond its reach) with a dead number on the board: two
    single moves, lost for the player to move.  Before (``STRONG_IMMUNE=0``) the engine enumerated
    the 13's regions looking for one that kills the 6: 63 066 steps here, and on a group 3 position
    of a 20 and a 13 in 114 free cells more than 5 s without an answer."""
    state = far_apart(20, {(2, 2): 13, (2, 16): 6})
    assert len(position(state).parts) == 1
    value, _, steps = engine_steps(state, 20, STRONG_IMMUNE=None)
    before, _, steps_before = engine_steps(state, 20, STRONG_IMMUNE="0")
    assert value == before == LOSS
    assert steps < 100 and steps_before > 10_000, (steps, steps_before)


def test_engine_grundy_check_values_parts_as_the_python_solver_does(needs_engine):
    """``--grundy-check`` (benchmarks/bench_strong_grundy.py): its exact values are the Python
    solver's Grundy values, its model values are values a part of that size can have (the two
    models' candidate regions differ a little: 39 of 40 such parts had the same model value), and
    it says so (-1) when a part is beyond the steps given."""
    rng, compared = random.Random(91), 0
    while compared < 15:
        state = random_state(rng, rng.choice([6, 7, 8]), rng.choice([4, 6]), 0.1)
        pos = position(state)
        if len(pos.parts) != 1 or not 2 <= len(pos.parts[0].numbers) <= 16:
            continue
        run = subprocess.run([str(engine()), "--grundy-check", "1000000", "1000000"], input=board_text(state),
                             capture_output=True, text=True, check=True)
        words = run.stdout.splitlines()[0].split()  # the position's own part comes first
        assert words[:3] == ["part", str(len(pos.parts[0].numbers)), "numbers:"], run.stdout
        assert int(words[4]) == Solver().grundy(pos.grid, pos.parts[0]), board_text(state)
        assert int(words[8]) == len(pos.parts[0].numbers) % 2
        assert 0 <= int(words[6]) <= len(pos.parts[0].numbers)
        compared += 1
    big = "\n".join(["12"] + [" ".join("9" if (x, y) in ((2, 2), (2, 9), (9, 2), (9, 9)) else "#" for y in range(12))
                              for x in range(12)]) + "\n"
    run = subprocess.run([str(engine()), "--grundy-check", "1", "1"], input=big, capture_output=True, text=True,
                         check=True)
    assert run.stdout.splitlines()[0] == "part 4 numbers: exact -1 model -1 parity 0 refuted -1"


def test_engine_grundy_check_refutes_a_models_zero_only_where_the_value_is_not_zero(needs_engine):
    """Where ``--grundy-check``'s exact search does not settle a part (300 steps here) but the model
    values it 0, the engine looks for a winning move there: ``refuted 1`` when it finds one, which
    says the model's 0 is wrong.  Each such claim is checked against the Python solver's Grundy
    value (not 0), and on these random positions the model's 0 is shown wrong at least twice."""
    rng, shown = random.Random(7), 0
    for _ in range(400):
        state = random_state(rng, rng.choice([7, 8]), rng.choice([4, 6]), 0.12)
        pos = position(state)
        if len(pos.parts) != 1 or not 5 <= len(pos.parts[0].numbers) <= 12:
            continue
        run = subprocess.run([str(engine()), "--grundy-check", "300", "1000000"], input=board_text(state),
                             capture_output=True, text=True, check=True)
        words = run.stdout.splitlines()[0].split()  # part N numbers: exact E model M parity P refuted F
        if words[10] == "1":
            assert words[4] == "-1" and words[6] == "0", run.stdout
            assert Solver().grundy(pos.grid, pos.parts[0]) != 0, board_text(state)
            shown += 1
        else:
            assert words[10] == "-1" or (words[4] == "-1" and words[6] == "0"), run.stdout
    assert shown >= 2


def test_engine_playouts_give_the_result_a_position_forces(needs_engine):
    """``--playouts COUNT`` (benchmarks/bench_strong_playouts.py): the mean result, for the player to
    move, of the tree's random playouts.  Where every playout must end the same way it is that
    result: one paintable number and a dead one (the 2 beside a painted cell) is a win, two far
    apart a loss, one and nothing dead a draw; a bad count or board is refused with exit status 2."""
    def board(rows: list[str]) -> str:
        return f"{len(rows)}\n" + "\n".join(" ".join(row) for row in rows) + "\n"

    won = board(["B2###", "#####", "##1##", "#####", "#####"])
    lost = board(["B2###", "#####", "1###1", "#####", "#####"])
    drawn = board(["#####", "#####", "##1##", "#####", "#####"])
    for text, mean in ((won, "1.0000"), (lost, "0.0000"), (drawn, "0.5000")):
        run = subprocess.run([str(engine()), "--playouts", "20"], input=text, capture_output=True, text=True,
                             check=True)
        assert run.stdout == f"playouts 20 mean {mean}\n", text
    for args, text in ((["--playouts", "0"], won), (["--playouts", "5"], "not a board\n")):
        run = subprocess.run([str(engine()), *args], input=text, capture_output=True, text=True, check=False)
        assert run.returncode == 2 and run.stdout.startswith("error: "), run.stdout


def test_arena_solve_falls_back_to_the_python_solver(monkeypatch, capsys):
    monkeypatch.setenv("ARENA_SOLVER", "python")
    assert main(["solve", "paint", str(GROUP1[0])]) == 0
    out = capsys.readouterr().out
    assert out.startswith("value: win") and "C++" not in out

"""The painting game's board generator (docs/rules.md, paint): pinned boards, the
pseudocode's exact random calls, the groups, bad parameters through the
command, manifests, the shipped boards, and the distribution of numbers."""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from generator import BadParameters
from generator.paint import GROUPS, density, generate, generate_board
from referees.paint import PaintMove, apply_move, board_text, outcome, parse_board, playable_numbers, regions

ROOT = Path(__file__).resolve().parent.parent

# (n, centers, lo, hi, seed) -> the exact board text.  A change to the
# generator or to the random calls shows here first.
PINNED = {
    (5, 1, 1, 5, 1): "5\n4 # # # #\n4 # # 4 #\n# # # # #\n# 4 # # #\n# # # # #\n",
    (5, 1, 1, 5, 2): "5\n2 # # # #\n# # # # #\n# # # # #\n# # # # #\n# # # # #\n",
    (6, 2, 1, 9, 42): "6\n2 # # # # #\n9 # # # # #\n# 1 # # # #\n# # 7 # # #\n# # # # # #\n# # # # # #\n",
    (2, 1, 3, 3, 9): "2\n3 #\n3 #\n",
    (1, 1, 1, 1, 0): "1\n#\n",
    (1, 3, 7, 7, 5): "1\n7\n",
    (8, 3, 2, 4, -17): "8\n# # # # # # # #\n# # # # # # # #\n# 4 4 4 4 # # #\n# # # 3 # # 3 #\n"
                       "# # 3 2 # # # #\n# # 3 4 # # # #\n# 2 4 # # 3 4 #\n# # 2 # # # # #\n",
}
PINNED_GROUP_SEED_1 = {
    1: "ad073873af9942bfb44d58c24a18bb433c3937014bf7c777fb91cea9563ddb2b",
    2: "5238969b57a2782a34ea932001a8a3d441e840f10a14ab08d291b1b5cee02f3d",
    3: "520e35881062954d618fea077d4440853b40d399d0f967fbc82a855ec1abb0b7",
}


def namespace(**given: int | None) -> argparse.Namespace:
    fields = {"group": None, "size": None, "centers": None, "min": None, "max": None}
    return argparse.Namespace(**{**fields, **given})


def bell(d: int, n: int) -> float:
    """f(d) of docs/rules.md, paint, written independently of the generator."""
    return 0.6 * math.exp(-d / (2 * n * 0.3 ** 2)) / (math.sqrt(2 * math.pi) * 0.3)


def spec_centers(rng: random.Random, n: int, count: int) -> list[tuple[int, int]]:
    return [(rng.randrange(0, n - 1), rng.randrange(0, n - 1)) for _ in range(count)]


def spec_board(n: int, count: int, lo: int, hi: int, seed: int) -> str:
    """The pseudocode with the pinned calls, as docs/rules.md states it (n >= 2)."""
    rng = random.Random(seed)
    centers = spec_centers(rng, n, count)
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            d = min(abs(i - cx) + abs(j - cy) for cx, cy in centers)
            row.append(str(rng.randrange(lo, hi + 1)) if rng.random() < bell(d, n) else "#")
        rows.append(" ".join(row))
    return f"{n}\n" + "\n".join(rows) + "\n"


# ---------------------------------------------------------------- pinned boards
@pytest.mark.parametrize(("params", "text"), PINNED.items())
def test_pinned_boards(params, text):
    assert board_text(generate_board(*params)) == text


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_pinned_group_boards(group):
    text = generate(namespace(group=group), 1).text
    assert hashlib.sha256(text.encode()).hexdigest() == PINNED_GROUP_SEED_1[group]


def test_the_pseudocode_with_its_pinned_calls():
    rng = random.Random(3)
    for seed in range(150):
        n, count = rng.randint(2, 9), rng.randint(1, 4)
        lo = rng.randint(1, 5)
        hi = lo + rng.randint(0, 4)
        assert board_text(generate_board(n, count, lo, hi, seed)) == spec_board(n, count, lo, hi, seed)


def test_density_is_the_formula():
    assert density(0, 5) == 0.6 * math.pow(math.e, 0) / (math.sqrt(2 * math.pi) * 0.3)
    for n in (1, 5, 15, 30):
        for d in range(2 * n):
            assert density(d, n) == pytest.approx(bell(d, n), rel=1e-12)


def test_one_by_one_board_has_its_center_at_the_corner():
    """N = 1: randrange(0, 0) is empty, the center is (0, 0); one random() for the cell."""
    for seed in range(40):
        rng = random.Random(seed)
        expected = f"1\n{rng.randrange(2, 5)}\n" if rng.random() < bell(0, 1) else "1\n#\n"
        assert board_text(generate_board(1, 2, 2, 4, seed)) == expected


# ---------------------------------------------------------------- parameters
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_group_parameters(group):
    n, count, lo, hi = GROUPS[group]
    board = generate(namespace(group=group), 11)
    assert board.params == {"n": n, "centers": count, "min": lo, "max": hi, "group": group}
    state = parse_board(board.text)
    assert state.n == n and all(v <= 0 or lo <= v <= hi for v in state.cells)
    assert board.text == board_text(generate_board(n, count, lo, hi, 11))


def test_source_groups():
    assert GROUPS == {1: (5, 1, 1, 5), 2: (15, 3, 5, 10), 3: (30, 5, 10, 20)}


def test_explicit_parameters_and_a_consistent_group():
    board = generate(namespace(size=7, centers=2, min=3, max=4), 5)
    assert board.params == {"n": 7, "centers": 2, "min": 3, "max": 4}
    assert generate(namespace(group=2, size=15, max=10), 5) == generate(namespace(group=2), 5)


@pytest.mark.parametrize(("given", "words"), [
    ({"size": 0, "centers": 1, "min": 1, "max": 2}, "board size N must be at least 1, got 0"),
    ({"size": 4, "centers": 0, "min": 1, "max": 2}, "centers S must be at least 1, got 0"),
    ({"size": 4, "centers": 1, "min": 0, "max": 2}, "smallest number A must be at least 1"),
    ({"size": 4, "centers": 1, "min": 5, "max": 2}, "A=5 > B=2"),
    ({"size": 4, "centers": 1}, "missing: --min, --max"),
    ({}, "give --group {1,2,3}"),
    ({"group": 1, "size": 6}, "--size 6 (group 1 has 5)"),
])
def test_bad_parameters(given, words):
    with pytest.raises(BadParameters, match=".") as err:
        generate(namespace(**given), 1)
    assert words in str(err.value)


def test_bad_parameters_through_the_command(capsys):
    for argv, words in [
        (["--size", "0", "--centers", "1", "--min", "1", "--max", "1"], "board size N must be at least 1"),
        (["--size", "3", "--centers", "-2", "--min", "1", "--max", "1"], "S must be at least 1, got -2"),
        (["--size", "3", "--centers", "1", "--min", "0", "--max", "1"], "A must be at least 1"),
        (["--size", "3", "--centers", "1", "--min", "4", "--max", "3"], "A=4 > B=3"),
        (["--size", "3"], "missing: --centers, --min, --max"),
    ]:
        assert main(["generate", "paint", "--seed", "1", *argv]) == 2
        out = capsys.readouterr()
        assert out.out == "" and out.err == f"arena: error: arena generate paint: {out.err.split(': ', 3)[3]}"
        assert words in out.err
    with pytest.raises(SystemExit) as exit_:
        main(["generate", "paint", "--group", "4", "--seed", "1"])
    assert exit_.value.code == 2 and "invalid choice: 4" in capsys.readouterr().err


def test_bad_parameters_exit_2_without_traceback():
    argv = ["generate", "paint", "--size", "5", "--centers", "1", "--min", "3", "--max", "2", "--seed", "1"]
    done = subprocess.run([sys.executable, "-m", "arena.cli", *argv], check=False, capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("A=3 > B=2")


# ---------------------------------------------------------------- the command and manifests
def test_generate_writes_boards_and_manifest(tmp_path, capsys):
    out = tmp_path / "g3"
    assert main(["generate", "paint", "--group", "3", "--seed", "7", "--count", "4", "--out", str(out)]) == 0
    assert capsys.readouterr().out.split() == [str(out / f"board{i}.in") for i in range(1, 5)]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest == {"game": "paint", "boards": [
        {"file": f"board{i}.in", "seed": 6 + i, "n": 30, "centers": 5, "min": 10, "max": 20, "group": 3}
        for i in range(1, 5)]}
    for i in range(1, 5):
        assert (out / f"board{i}.in").read_text() == board_text(generate_board(30, 5, 10, 20, 6 + i))


def test_generate_to_standard_output(capsys):
    assert main(["generate", "paint", "--size", "2", "--centers", "1", "--min", "3", "--max", "3",
                 "--seed", "9", "--count", "2"]) == 0
    second = board_text(generate_board(2, 1, 3, 3, 10))
    assert capsys.readouterr().out == PINNED[(2, 1, 3, 3, 9)] + "\n" + second


# ---------------------------------------------------------------- shipped boards
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_shipped_boards_match_their_manifest_and_are_playable(group):
    folder = ROOT / "boards" / f"group{group}"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["game"] == "paint" and len(manifest["boards"]) == 4
    assert sorted(p.name for p in folder.glob("*.in")) == [f"board{i}.in" for i in range(1, 5)]
    for entry in manifest["boards"]:
        assert entry["group"] == group
        text = (folder / entry["file"]).read_text()
        assert text == generate(namespace(group=group), entry["seed"]).text
        state = parse_board(text)
        assert playable_numbers(state), f"{entry['file']}: the first player cannot move"
        assert any(outcome(apply_move(state, PaintMove.of(state, r))) is None
                   for i in playable_numbers(state) for r in regions(state, i, limit=20)), \
            f"{entry['file']}: every first move ends the game"


# ---------------------------------------------------------------- the distribution
@pytest.mark.parametrize(("n", "count", "boards"), [(20, 2, 300), (9, 1, 800)])
def test_numbers_follow_the_bell(n, count, boards):
    """The frequency of a number at distance d from the nearest center is f(d):
    per d, the count of numbers lies within 4.5 standard deviations of its
    binomial mean (fixed seeds: the test cannot flake)."""
    cells: dict[int, int] = {}
    numbers: dict[int, int] = {}
    for seed in range(boards):
        centers = spec_centers(random.Random(seed), n, count)
        state = generate_board(n, count, 1, 9, seed)
        for index, value in enumerate(state.cells):
            i, j = divmod(index, n)
            d = min(abs(i - cx) + abs(j - cy) for cx, cy in centers)
            cells[d] = cells.get(d, 0) + 1
            numbers[d] = numbers.get(d, 0) + (value > 0)
    checked = 0
    for d, m in cells.items():
        p = bell(d, n)
        if m * p < 20 or m * (1 - p) < 20:
            continue  # too few cells for the normal approximation
        z = (numbers[d] - m * p) / math.sqrt(m * p * (1 - p))
        assert abs(z) < 4.5, f"d={d}: {numbers[d]} numbers in {m} cells, f(d)={p:.4f}, z={z:.2f}"
        checked += 1
    assert checked >= 8
    # All distances together: a small shift of every f(d) shows in the total.
    mean = sum(m * bell(d, n) for d, m in cells.items())
    spread = math.sqrt(sum(m * bell(d, n) * (1 - bell(d, n)) for d, m in cells.items()))
    total = sum(numbers.values())
    assert abs(total - mean) < 4.5 * spread, f"{total} numbers, expected {mean:.0f} +- {spread:.0f}"

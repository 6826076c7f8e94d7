"""The painting game's benchmark scripts run as the bot's README shows them, on real things: a real
(tiny) match's records, the real solvers, the real bot.  Each is run as a user runs it, from the
project's root in a fresh process, with arguments small enough for a test; what it prints is
checked against the records it read.  (bench_strong_exact.py has its tests in test_paint_bots.py.)"""

from __future__ import annotations

import importlib
import itertools
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from players.paint import LOSS, engine, read_solve_lines, solve_lines
from referees.paint import PaintMove, PaintReferee, apply_move, board_text, parse_board, parse_move

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def bench(script: str, *args: str | Path) -> subprocess.CompletedProcess:
    """A benchmark script run from the project's root, as the README runs it."""
    return subprocess.run([sys.executable, str(BENCH / script), *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    """The records of a real match of two quick bots on fresh 8x8 boards (games of a few moves each),
    run in a folder of its own: the boards' recorded paths are relative to that folder, not to the
    project's root."""
    folder = tmp_path_factory.mktemp("match")
    run = subprocess.run([str(Path(sys.executable).parent / "arena"), "match", str(ROOT / "bots" / "greedy.py"),
                          str(ROOT / "bots" / "random.py"), "--max-pairs", "6", "--jobs", "2", "--name", "tiny",
                          "--generate", "paint", "--size", "8", "--centers", "3", "--min", "1", "--max", "3",
                          "--seed", "3"],
                         cwd=folder, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    path = folder / "results" / "tiny" / "games.jsonl"
    assert not (ROOT / json.loads(path.read_text().splitlines()[0])["board"]["path"]).exists()
    return path


def games(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def cpp():
    if engine() is None:
        pytest.skip("no C++ compiler: the bot's engine cannot be built")


def test_bench_strong_losses_lists_every_lost_game_of_the_bot(records, cpp):
    lost = [g for g in games(records) if g["outcome"]["winner"] is not None
            and g["seats"][g["outcome"]["winner"]] != "random"]
    run = bench("bench_strong_losses.py", records, "--bot", "random", "--seconds", "5")
    assert run.returncode == 0, run.stderr
    lines = {line.split(" (")[0]: line for line in run.stdout.splitlines() if "(the bot in seat" in line}
    assert set(lines) == {g["id"] for g in lost}
    for game in lost:
        line = lines[game["id"]]
        moved = [i for i, m in enumerate(game["moves"]) if m["seat"] == game["seats"].index("random")]
        entries = re.findall(r"(\d+):([WLD?])->([WLD?])\((\d+)\)(!!)?", line)
        assert [int(e[0]) for e in entries] == moved, line  # one entry per move of the bot, at its ply
        for _, before, after, _, thrown in entries:
            assert bool(thrown) == (before == "W" and after in "LD"), line
    assert run.stdout.splitlines()[-1].startswith(f"{len(lost)} games lost by random; in ")


def test_bench_strong_losses_says_which_bots_the_records_hold(records):
    run = bench("bench_strong_losses.py", records, "--bot", "strong")
    assert run.returncode == 2
    assert "no painting game of it" in run.stderr and "the bots there: greedy, random" in run.stderr


def test_bench_strong_losses_finds_each_lost_games_deciding_position(records, cpp):
    """--critical: for each lost game, the position before the bot's first move after which it is
    lost; where that was won, the solver's winning move's place in the bot's ranking, checked here
    by playing that candidate and asking the solver about what it leaves."""
    lost = {g["id"]: g for g in games(records) if g["outcome"]["winner"] is not None
            and g["seats"][g["outcome"]["winner"]] != "random"}
    run = bench("bench_strong_losses.py", records, "--bot", "random", "--seconds", "5", "--critical", "5")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    found = {}
    for game_line, line in itertools.pairwise(lines):
        if line.startswith("    deciding: "):
            found[game_line.split(" (")[0]] = game_line, line
    assert set(found) == set(lost)
    counts = re.search(r"won (\d+), drawn (\d+), lost (\d+), not settled (\d+), none (\d+)$", lines[-1])
    assert counts and sum(map(int, counts.groups())) == len(lost), lines[-1]
    placed = 0
    for game_id, (game_line, line) in found.items():
        game = lost[game_id]
        me = game["seats"].index("random")
        first_thrown = re.search(r"(\d+):[WLD?]->L", game_line)
        ply = int(re.match(r"    deciding: ply (\d+) ", line).group(1))
        assert first_thrown and int(first_thrown.group(1)) == ply and game["moves"][ply]["seat"] == me, line
        where = re.search(r"the ranking's candidate (\d+) of (\d+)", line)
        if not where:
            assert "was won" not in line or re.search(r"none of the ranking's \d+ candidates$", line), line
            continue
        state = parse_board((records.parents[2] / game["board"]["path"]).read_text())
        for move in game["moves"][:ply]:
            state = apply_move(state, parse_move(move["output"]))
        ranked = subprocess.run([str(engine()), "--rank", where.group(2)], input=board_text(state), text=True,
                                capture_output=True, check=True).stdout.splitlines()
        cells = [int(x) for x in ranked[int(where.group(1)) - 1].partition(": ")[2].split()]
        after = apply_move(state, PaintMove(tuple(zip(cells[::2], cells[1::2]))))
        assert read_solve_lines(solve_lines(PaintReferee(), after, 5))[0] == LOSS, line  # the opponent is lost
        placed += 1
    assert placed == len(re.findall(r"the ranking's candidate", run.stdout))


def test_bench_strong_losses_values_the_split_pairs_from_the_winners_side(records, cpp):
    """--plies: the pairs split one win each, the position after each ply; after a game's last move
    the winner holds it (the solver says the player to move, the loser, has lost)."""
    pairs: dict[str, list[dict]] = {}
    for g in games(records):
        if g["outcome"]["winner"] is not None:
            pairs.setdefault(g["board"]["name"], []).append(g)
    split = [p for p in pairs.values() if len(p) == 2 and len({x["seats"][x["outcome"]["winner"]] for x in p}) == 2]
    run = bench("bench_strong_losses.py", records, "--plies", "1", "2", "--seconds", "5")
    assert run.returncode == 0, run.stderr
    assert f"{2 * len(split)} games of {len(split)} split pairs" in run.stdout
    for pair in split:
        for g in pair:
            line = next(x for x in run.stdout.splitlines() if x.startswith(g["id"] + " (won by"))
            if len(g["moves"]) <= 2:
                assert f"{len(g['moves'])}:W" in line, line


def test_bench_solve_reach_settles_small_boards_with_both_solvers_agreeing(cpp):
    run = bench("bench_solve_reach.py", "--seconds", "10", "--sizes", "4", "5", "--boards", "2",
                "--engines", "python", "cpp", "--parallel", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "python: every board of sizes [4, 5]" in run.stdout
    assert "cpp: every board of sizes [4, 5]" in run.stdout


def test_bench_solve_reach_solves_every_position_of_a_tournaments_records(records, cpp):
    moves = sum(len(g["moves"]) for g in games(records))
    run = bench("bench_solve_reach.py", "--positions", records, "--seconds", "5", "--engines", "python", "cpp",
                "--parallel", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{moves} positions, 5 s each:" in run.stdout
    assert re.search(rf"python: settled {moves}; ", run.stdout) and re.search(rf"cpp: settled {moves}; ", run.stdout)


def test_benches_refuse_records_whose_board_changed(records, tmp_path):
    """A board file edited since the games were played: the positions would be wrong, so the
    benchmark stops and says which board (as arena replay does)."""
    match = records.parents[2]
    copy = tmp_path / "match"
    shutil.copytree(match, copy)
    board = copy / games(records)[0]["board"]["path"]
    board.write_text(board.read_text() + "\n")
    copied = copy / records.relative_to(match)
    run = bench("bench_solve_reach.py", "--positions", copied, "--seconds", "1", "--engines", "python")
    assert run.returncode == 2
    assert "changed since game" in run.stderr and str(copied) in run.stderr, run.stderr


def test_bench_strong_grundy_checks_the_estimates_on_a_tournaments_positions(records, cpp):
    run = bench("bench_strong_grundy.py", records, "--every", "1")
    assert run.returncode == 0, run.stderr
    positions = sum(len(g["moves"]) for g in games(records))
    assert run.stdout.startswith(f"{positions} positions; exact search 100000 steps")
    assert "all parts: " in run.stdout


def test_bench_strong_playouts_compares_the_playouts_with_the_solvers_values(records, cpp):
    """Every position of the tiny match is valued: the bands of the ones settled as won or lost and
    the count of the others add up to them, and on each band "right by the mean" counts no more
    positions than were settled."""
    run = bench("bench_strong_playouts.py", records, "--every", "1", "--solve", "5", "--playouts", "50")
    assert run.returncode == 0, run.stderr
    positions = sum(len(g["moves"]) for g in games(records))
    assert run.stdout.startswith(f"{positions} positions; solver 5 s, 50 playouts each\n"), run.stdout
    *bands, last = run.stdout.splitlines()[1:]
    settled = 0
    for line in bands:
        m = re.fullmatch(r"\d+-\d* live: settled (\d+), won (\d+); playouts' mean on won (\S+), on lost (\S+); "
                         r"right by the mean (\d+), by \"always won\" (\d+)", line)
        assert m, line
        count, won, right = int(m.group(1)), int(m.group(2)), int(m.group(5))
        assert won <= count and right <= count and int(m.group(6)) == won
        for mean, some in ((m.group(3), won), (m.group(4), count - won)):
            assert (mean == "-") == (some == 0) and (mean == "-" or 0 <= float(mean) <= 1), line
        settled += count
    unsettled = re.fullmatch(r"not settled as won or lost: (\d+) \(drawn, or beyond the solver's 5 s\)", last)
    assert unsettled and settled > 0 and settled + int(unsettled.group(1)) == positions, run.stdout
    bad = bench("bench_strong_playouts.py", records, "--playouts", "0")
    assert bad.returncode == 2 and "--playouts" in bad.stderr


def test_bench_strong_how_counts_each_variants_ways_over_the_same_positions(records, cpp):
    """Every position where greedy moved in the tiny match (from ply 1 on) is moved from once per
    variant: each variant's ways add up to the positions, and the games won under each way to the
    games won; a bot the records do not hold, or a bad range, exits 2 with what was expected."""
    run = bench("bench_strong_how.py", records, "--bot", "greedy", "--live", "1", "99",
                "--variants", "", "STRONG_MODEL=0", "--parallel", "2")
    assert run.returncode == 0, run.stderr
    expected = won = 0
    for game in games(records):
        seat = game["seats"].index("greedy")
        moved = sum(1 for ply, move in enumerate(game["moves"]) if ply >= 1 and move["seat"] == seat)
        expected += moved
        won += moved * (game["points"][seat] > game["points"][1 - seat])
    head, *lines = run.stdout.splitlines()
    assert head == f"{expected} positions where greedy moved with 1-99 live numbers (games won by greedy: {won})"
    assert expected > 0 and [line.split(":")[0] for line in lines] == ["variant 'shipped'", "variant 'STRONG_MODEL=0'"]
    for line in lines:
        ways = [re.fullmatch(r"(.+) (\d+) \(won (\d+)", way).groups()
                for way in line.split(": ", 1)[1].removesuffix(")").split("), ")]
        assert sum(int(n) for _, n, _ in ways) == expected, line
        assert sum(int(w) for _, _, w in ways) == won, line
    for bad, said in ((("--bot", "nobody"), "its bots: greedy, random"), (("--live", "9", "3"), "1 <= LOW <= HIGH")):
        refused = bench("bench_strong_how.py", records, *bad)
        assert refused.returncode == 2 and said in refused.stderr, refused.stderr


def test_bench_strong_ply_judges_each_variant_on_the_same_positions(cpp):
    """Two variants of the bot on the first positions of group 1 boards: each moves once from the
    same positions, and every move gets a verdict (group 1 is small enough for the solver)."""
    run = bench("bench_strong_ply.py", "--group", "1", "--ply", "0", "--count", "4", "--solve", "5",
                "--variants", "", "STRONG_MODEL=0", "--parallel", "2")
    assert run.returncode == 0, run.stderr
    count = int(re.match(r"(\d+) positions at ply 0 of group 1 games \(seeds 201-204\)", run.stdout).group(1))
    assert count > 0
    for variant in ("'shipped'", "'STRONG_MODEL=0'"):
        line = next(x for x in run.stdout.splitlines() if x.startswith(f"variant {variant}: "))
        tally = line.split(": ", 1)[1].split(" (")[0]  # "secured 2, thrown 1 (secured by: ...)"
        counts = {word: int(n) for word, n in (item.rsplit(" ", 1) for item in tally.split(", "))}
        assert sum(counts.values()) == count and "unknown" not in counts, line
    assert f"of {count}" in run.stdout.splitlines()[-1]


def test_records_positions_replay_to_the_games_end(records, monkeypatch):
    """The positions the benchmarks read are the games' own: replayed from the recorded board."""
    monkeypatch.syspath_prepend(str(BENCH))
    record_positions = importlib.import_module("bench_solve_reach").record_positions
    found = record_positions(records, 0)
    assert len(found) == sum(len(g["moves"]) for g in games(records))
    first = games(records)[0]
    state = parse_board((records.parents[2] / first["board"]["path"]).read_text())
    for ply, (move, (name, position)) in enumerate(zip(first["moves"], found)):
        assert (name, position) == (f"{first['id']} ply {ply}", state)
        state = apply_move(state, parse_move(move["output"]))

"""Legal bots of every kind play every shipped game sandboxed, with no fault."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def arena_run(tmp_path: Path, game: str, bots: list[str], board: str) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-m", "arena.cli", "run", "--game", game, "--bots", *bots, "--boards", board,
         "--results", str(tmp_path / "results"), "--name", "t", "--jobs", "2",
         "--wall", "30"],  # verdicts here must not depend on this machine's load (CPU is still capped)
        capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert "arena: sandbox: bubblewrap" in result.stderr
    lines = (tmp_path / "results" / "t" / "games.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def faults(records: list[dict]) -> list:
    return [(r["seats"], r["fault"], r["moves"][-1].get("message"), r["moves"][-1].get("stderr"))
            for r in records if r.get("fault")]


@pytest.mark.parametrize(("game", "bots", "board"), [
    ("paint", ["bots/random.py", "bots/greedy.py"], "boards/group1/board1.in"),
    ("tictactoe3d", ["bots/tictactoe3d/random.py", "bots/tictactoe3d/strong.py"], "boards/tictactoe3d/board1.in"),
    ("crossword-pvp", ["bots/crossword/random.py", "bots/crossword/greedy.py"], "boards/crossword/board1.in"),
    ("crossword-pve", ["bots/crossword/random.py"], "boards/crossword/board1.in"),
    ("threes", ["bots/threes/random.py"], "boards/threes/sample.in"),
    ("match3", ["bots/match3/random.py", "bots/match3/greedy.py"], "boards/match3/board1.in"),
])
def test_shipped_bots_play_every_game_sandboxed(tmp_path, game, bots, board):
    records = arena_run(tmp_path, game, bots, board)
    assert records and not faults(records), faults(records)


@pytest.mark.skipif(not shutil.which("c++"), reason="no C++ compiler")
def test_c_cpp_shell_and_folder_bots_play_sandboxed(tmp_path):
    bots = tmp_path / "bots"
    python_folder = bots / "pyfolder"
    python_folder.mkdir(parents=True)
    shutil.copy(REPO / "bots" / "template.py", python_folder / "strategy.py")  # it plays when imported
    (python_folder / "main.py").write_text("import strategy  # a module beside main.py\nstrategy.main()\n")
    c_folder = bots / "cfolder"
    c_folder.mkdir()
    shutil.copy(REPO / "bots" / "template-cpp.cpp", c_folder / "main.cpp")
    paths = [str(python_folder), str(c_folder), str(REPO / "bots" / "template-cpp.cpp")]
    records = arena_run(tmp_path, "paint", paths, str(REPO / "boards" / "group1"))
    assert {name for r in records for name in r["seats"]} == {"pyfolder", "cfolder", "template-cpp"}
    assert not faults(records), faults(records)
    # a shell bot: Threes takes one line of moves
    (bots / "threes.sh").write_text("#!/bin/sh\necho ASDWASDW > game.out\n")
    (bots / "threes.sh").chmod(0o755)
    (tmp_path / "results").rename(tmp_path / "paint-results")
    records = arena_run(tmp_path, "threes", [str(bots / "threes.sh")], str(REPO / "boards" / "threes" / "sample.in"))
    assert not faults(records), faults(records)

"""The ``arena`` entry point as a user meets it: real processes, real pipes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARENA = [sys.executable, "-m", "arena.cli"]


def test_a_reader_that_stops_early_gets_no_traceback():
    # about 140 KB of boards: more than a pipe holds, so the arena is still writing when head leaves
    command = "generate paint --group 3 --seed 1 --count 50"
    shell = f"{' '.join(ARENA)} {command} | head -n 2; echo \"status ${{PIPESTATUS[0]}}\" >&2"
    done = subprocess.run(["bash", "-c", shell], check=False, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert len(done.stdout.splitlines()) == 2
    assert done.stderr == "status 141\n"  # 128 + SIGPIPE, like any command whose reader left


def test_output_read_to_the_end_is_unchanged():
    whole = subprocess.run([*ARENA, "generate", "paint", "--group", "1", "--seed", "1"], capture_output=True,
                           text=True, cwd=ROOT, check=True)
    assert whole.stdout.splitlines()[0] == "5" and whole.stderr == ""


@pytest.mark.parametrize(("options", "message"), [
    (["--cpu", "1", "--wall", "0.5"], "--wall 0.5 is below the CPU limit of 1 s"),
    (["--wall", "0.5"], "--wall 0.5 is below the CPU limit of 1 s"),  # the game's default CPU limit
    (["--memory", "8"], "--memory 8 MiB is too little for any bot to start"),
    (["--memory", "0"], "argument --memory: must be at least 1, got '0'"),
    (["--cpu", "-1"], "argument --cpu: must be positive, got '-1'"),
    (["--name", "../escape"], "argument --name: '../escape' is not a name: a tournament's name is one folder"),
    (["--name", "a/b"], "argument --name: 'a/b' is not a name"),
    (["--name", "a\x1b[2Jb"], "argument --name: 'a\\x1b[2Jb' has a control or invisible character"),
])
def test_nonsensical_limits_are_refused_before_any_game(tmp_path, options, message):
    command = [*ARENA, "run", "--bots", "bots/random.py", "bots/greedy.py", "--boards", "boards/group1",
               "--results", str(tmp_path), "--name", "t", *options]
    done = subprocess.run(command, check=False, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and message in done.stderr.splitlines()[-1]
    assert not (tmp_path / "t").exists()  # nothing played, nothing recorded


@pytest.mark.parametrize(("command", "expected"), [
    ("judge paint boards/examples/example.in boards/examples/example.moves", "ok\nok\nok\nresult: first wins\n"),
    ("judge tictactoe3d boards/examples/tictactoe3d-cases.txt", "Black 5\nDraw\nBlack 7\n"),
    ("judge match3 boards/examples/match3-sample.txt", "11692\n"),
    ("judge threes boards/threes/sample.in boards/examples/threes-plan.txt", "120\n"),
    ("judge crossword boards/crossword/board1.in boards/examples/crossword-plan.out", "38\n"),
])
def test_the_shipped_judge_examples_print_what_their_readme_says(command, expected):
    done = subprocess.run([*ARENA, *command.split()], check=True, capture_output=True, text=True, cwd=ROOT)
    assert done.stdout == expected
    assert command in (ROOT / "boards/examples/README.md").read_text()

"""A non-editable install (a wheel) works on its own, away from the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from arena import games
from generator.crossword import DEFAULT_WORDS

ROOT = Path(__file__).resolve().parents[1]


def test_the_default_dictionary_is_the_shipped_one():
    assert DEFAULT_WORDS.read_text() == (ROOT / "boards/crossword/words.txt").read_text()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The arena's wheel (the distribution's name, arena-tournaments, with '-' as '_'), built from a
    copy of this checkout's files: setuptools builds in the source folder, and a build/ left there by
    an earlier build would put its files into the wheel whatever the configuration says."""
    source = tmp_path_factory.mktemp("source") / "arena"
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "results", "__pycache__", ".pytest_cache"))
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(source)],
                   check=True, capture_output=True, timeout=600)
    (built,) = dist.glob("arena_tournaments-*.whl")
    return built


def test_a_wheel_holds_the_crossword_dictionary_and_generates_the_shipped_board(tmp_path, wheel):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    # the installed package alone (run from elsewhere, so that the repository is not on the path)
    env = {**os.environ, "PYTHONPATH": str(site)}
    script = ("import sys, generator; from arena.cli import main; "
              "assert generator.__file__.startswith(sys.argv[1]), generator.__file__; "
              "sys.exit(main(['generate', 'crossword', '--seed', '1']))")
    done = subprocess.run([sys.executable, "-c", script, str(site)], check=False, cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "boards/crossword/board1.in").read_text()
    assert (site / "generator" / "words-COPYRIGHT.txt").is_file()
    # the games' views, and the skeleton 'arena new-game' copies, are in the wheel too
    assert (site / "views" / "paint.py").is_file()
    assert (site / "arena" / "skeleton" / "__game__" / "rules.py").is_file()
    assert (site / "arena" / "skeleton" / "__game__" / "boards" / "manifest.json").is_file()
    entry_points = next(site.glob("arena_tournaments-*.dist-info")) / "entry_points.txt"
    assert "[arena.games]" in entry_points.read_text() and "paint = referees:PAINT" in entry_points.read_text()
    # and so are the pages' templates, style and scripts, and each game's style: a replay page is made whole
    page = subprocess.run([sys.executable, "-c", PAGE, str(site), str(ROOT / "boards/group1/board1.in")],
                          check=False, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert page.returncode == 0, page.stderr
    assert ".c.painted.new {" in page.stdout and "function cellSize(" in page.stdout  # paint.css, replay.js
    assert 'id="replay-data"' in page.stdout and page.stdout.rstrip().endswith("</html>")


def test_the_wheel_installed_in_a_fresh_environment_works_from_an_empty_folder(tmp_path, wheel):
    """pip install of the wheel (its dependencies from the package index) into a new virtual
    environment, then the commands that need no checkout, run from an empty folder: the games' rules,
    example bots and boards are in the wheel."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]  # (this pip, into that environment)
    installed = subprocess.run([*pip, "install", "-q", str(wheel)], capture_output=True, text=True, timeout=900,
                               check=False)
    assert installed.returncode == 0, installed.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def arena(*args: str) -> str:
        done = subprocess.run([str(venv / "bin" / "arena"), *args], cwd=empty, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        assert done.returncode == 0, (args, done.stderr)
        return done.stdout

    where = subprocess.run([str(python), "-c", "import referees; print(referees.SHIPPED)"], cwd=empty,
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert where.startswith(str(venv)), where  # the installed copy, not this checkout
    assert arena("--version").startswith("arena 0.1.0")
    assert "python " in arena("languages")
    listed = arena("games")
    assert any(line.split()[0] == "paint" and "arena-tournaments 0.1.0" in line
               for line in listed.splitlines())
    assert arena("games", "--rules", "paint") == games.get("paint").rules()
    board = (ROOT / "boards/group1/board1.in").read_text()
    assert arena("generate", "paint", "--group", "1", "--seed", "1") == board
    # the conformance check plays the game's example bots on its boards, all from the wheel
    checked = arena("games", "--check", "tictactoe3d")
    assert "ok   tournament" in checked and "every check passed" in checked, checked
    assert "nim" in arena("new-game", "nim")
    assert 'dependencies = ["arena-tournaments"]' in (empty / "arena-nim" / "pyproject.toml").read_text()
    assert sorted(os.listdir(empty)) == ["arena-nim"]  # (and nothing else written here)


# A random game of paint, and its replay page, made by the arena the first argument's folder holds.
PAGE = """
import random, sys
from pathlib import Path
from arena import conformance, games, html, replay
assert html.__file__.startswith(sys.argv[1]), html.__file__
referee = games.referee("paint")
state = referee.load(Path(sys.argv[2]).read_text())
moves, end = conformance.random_game(referee, state, random.Random(1))
record = conformance.record_of(referee, moves, end, ["first", "second"])
print(html.replay_page(replay.replay(referee, state, record)))
"""

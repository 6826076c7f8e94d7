"""A non-editable install (a wheel) works on its own, away from the repository."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from generator.crossword import DEFAULT_WORDS

ROOT = Path(__file__).resolve().parents[1]


def test_the_default_dictionary_is_the_shipped_one():
    assert DEFAULT_WORDS.read_text() == (ROOT / "boards/crossword/words.txt").read_text()


def test_a_wheel_holds_the_crossword_dictionary_and_generates_the_shipped_board(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(ROOT)],
                   check=True, capture_output=True, timeout=600)
    (wheel,) = (tmp_path / "dist").glob("arena-*.whl")
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
    entry_points = next(site.glob("arena-*.dist-info")) / "entry_points.txt"
    assert "[arena.games]" in entry_points.read_text() and "paint = referees:PAINT" in entry_points.read_text()
    # and so are the pages' templates, style and scripts, and each game's style: a replay page is made whole
    page = subprocess.run([sys.executable, "-c", PAGE, str(site), str(ROOT / "boards/group1/board1.in")],
                          check=False, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert page.returncode == 0, page.stderr
    assert ".c.painted.new {" in page.stdout and "function cellSize(" in page.stdout  # paint.css, replay.js
    assert 'id="replay-data"' in page.stdout and page.stdout.rstrip().endswith("</html>")


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

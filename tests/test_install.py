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
    (wheel,) = (tmp_path / "dist").glob("arena_tournaments-*.whl")
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

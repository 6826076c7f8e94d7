"""Games as plugins: found through the entry points of installed packages (real ones, installed
into a folder of the test's own and put on PYTHONPATH), listed by ``arena games``, loaded lazily,
and a new one written by ``arena new-game`` and installed with pip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import install_new_game

REPO = Path(__file__).resolve().parents[1]


def _arena(*args: str, site: Path | None = None, cwd: Path = REPO) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site) if site else ""}
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], cwd=cwd, env=env, check=False,
                          capture_output=True,
                          text=True, timeout=300)


def _distribution(site: Path, name: str, version: str, entry_points: dict[str, str],
                  modules: dict[str, str]) -> None:
    """An installed distribution as pip leaves one: its metadata, entry points and modules."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(
        "[arena.games]\n" + "".join(f"{game} = {value}\n" for game, value in entry_points.items()))
    for module, text in modules.items():
        (site / f"{module}.py").write_text(text)


def test_the_arenas_own_games_are_listed_with_their_package(tmp_path):
    listed = _arena("games")
    assert listed.returncode == 0, listed.stderr
    for game in ("paint", "tictactoe3d", "match3", "threes", "crossword-pve", "crossword-pvp"):
        assert any(line.split()[0] == game and "arena-tournaments 0.1.0" in line
                   for line in listed.stdout.splitlines())


def test_a_game_that_does_not_load_is_listed_with_its_error_and_stops_nothing_else(tmp_path):
    site = tmp_path / "site"
    _distribution(site, "arena-broken", "2.0", {"broken": "broken_game:GAME"},
                  {"broken_game": "raise ImportError('this game needs libfoo 9')\n"})
    listed = _arena("games", site=site)
    assert listed.returncode == 0, listed.stderr
    assert "paint" in listed.stdout and "Games that cannot be loaded" in listed.stdout
    line = next(line for line in listed.stdout.splitlines() if line.strip().startswith("broken:"))
    assert "arena-broken 2.0" in line and "this game needs libfoo 9" in line
    checked = _arena("games", "--check", "broken", "--quick", site=site)
    assert checked.returncode == 1 and "FAIL declaration" in checked.stdout
    played = _arena("judge", "paint", "boards/examples/example.in", "boards/examples/example.moves", site=site)
    assert played.returncode == 0, played.stderr


def test_two_packages_declaring_one_game_is_an_error_naming_both(tmp_path):
    site = tmp_path / "site"
    _distribution(site, "arena-other-paint", "1.5", {"paint": "other_paint:GAME"}, {"other_paint": ""})
    listed = _arena("games", site=site)
    assert listed.returncode == 2
    assert "two packages declare the game 'paint'" in listed.stderr
    assert "arena-other-paint 1.5" in listed.stderr and "arena-tournaments 0.1.0" in listed.stderr
    assert "Traceback" not in listed.stderr


def test_one_declaration_met_twice_is_one_game(tmp_path):
    """A checkout's stale metadata of the distribution's old name ("arena": an egg-info left by an
    editable install before the rename) declares the same games: no conflict."""
    site = tmp_path / "site"
    _distribution(site, "arena", "0.1.0", {"paint": "referees:PAINT"}, {})
    listed = _arena("games", site=site)
    assert listed.returncode == 0, listed.stderr
    assert any(line.split()[0] == "paint" for line in listed.stdout.splitlines())


def test_a_declaration_that_is_not_a_game_is_reported(tmp_path):
    site = tmp_path / "site"
    _distribution(site, "arena-odd", "0.1", {"odd": "odd_game:GAME"}, {"odd_game": "GAME = 42\n"})
    listed = _arena("games", site=site)
    assert "odd_game:GAME is a int, not a referees.base.Game" in listed.stdout


def test_importing_one_game_imports_no_other():
    code = ("import sys, referees.paint; from arena import games; games.referee('paint'); games.get('paint').view()\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('referees', 'views', 'generator', 'players'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert set(done.stdout.split()) == {"referees", "referees.base", "referees.paint", "views", "views.paint"}


def test_a_games_rules_are_its_section_of_the_rules():
    shown = _arena("games", "--rules", "paint")
    assert shown.returncode == 0
    assert shown.stdout.startswith("## `paint`") and "tictactoe3d" not in shown.stdout
    assert _arena("games", "--rules", "crossword").stdout.startswith("## `crossword-pve` and `crossword-pvp`")


def test_the_game_is_that_of_the_boards_when_not_given(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "one.in").write_text((REPO / "boards" / "tictactoe3d" / "board1.in").read_text())
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text((REPO / "bots" / "tictactoe3d" / "random.py").read_text())
    played = _arena("run", "--bots", "a.py", "b.py", "--boards", "b", "--results", "r", "--name", "t", "--no-sandbox",
                    cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert '"game": "tictactoe3d"' in (tmp_path / "r" / "t" / "tournament.json").read_text()


def test_new_game_says_what_to_do_next(tmp_path):
    made = _arena("new-game", "race21", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert f"pip install -e {tmp_path / 'out'}" in made.stdout and "arena games --check race21" in made.stdout
    again = _arena("new-game", "race21", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert again.returncode == 2 and "exists and is not empty" in again.stderr


def test_a_new_game_from_the_skeleton_is_playable_once_installed(tmp_path):
    site = install_new_game("race21", tmp_path)
    listed = _arena("games", site=site)
    assert any(line.split()[:1] == ["race21"] and "arena-race21 0.1.0" in line for line in listed.stdout.splitlines())
    checked = _arena("games", "--check", "race21", site=site)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "ok   tournament" in checked.stdout
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            str(tmp_path / "arena-race21" / "tests")], check=False, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(site)}, cwd=tmp_path)
    assert tests.returncode == 0, tests.stdout[-3000:]


@pytest.mark.parametrize("name, problem", [
    ("Race", "lower case letters"), ("json", "a Python module named 'json' exists"),
    ("paint", "a game named 'paint' is installed"), ("crossword", "a game named 'crossword' is installed")])
def test_new_game_refuses_names_that_would_clash(tmp_path, name, problem):
    made = _arena("new-game", name, cwd=tmp_path)
    assert made.returncode == 2 and problem in made.stderr
    assert not any(tmp_path.iterdir())

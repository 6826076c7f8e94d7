"""Finding board files: folders, their subfolders with --recursive, order."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.boards import find_boards
from arena.errors import ArenaError

ROOT = Path(__file__).resolve().parents[1]


def _touch(folder: Path, *names: str) -> None:
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("1\n#\n")


def test_a_folder_gives_its_own_boards_only_unless_recursive(tmp_path):
    _touch(tmp_path, "board10.in", "board2.in", "notes.txt", "large/board1.in", "large/deeper/board3.in")
    names = [p.relative_to(tmp_path).as_posix() for p in find_boards([str(tmp_path)])]
    assert names == ["board2.in", "board10.in"]
    names = [p.relative_to(tmp_path).as_posix() for p in find_boards([str(tmp_path)], recursive=True)]
    assert names == ["board2.in", "board10.in", "large/board1.in", "large/deeper/board3.in"]


def test_a_folder_with_boards_only_below_says_how_to_reach_them(tmp_path):
    _touch(tmp_path, "sub/board1.in")
    with pytest.raises(ArenaError, match="subfolders are searched only with --recursive"):
        find_boards([str(tmp_path)])
    assert find_boards([str(tmp_path)], recursive=True) == [tmp_path / "sub" / "board1.in"]


def test_the_shipped_large_match3_boards_are_reached_with_recursive():
    found = find_boards([str(ROOT / "boards/match3")], recursive=True)
    assert ROOT / "boards/match3/large/board2.in" in found and len(found) == 8
    assert ROOT / "boards/match3/large/board1.in" not in find_boards([str(ROOT / "boards/match3")])

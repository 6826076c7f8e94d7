"""Board files on disk: finding them, loading them through a referee, hashing
them, and writing generated ones with their manifest."""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.text import check_name
from generator import GeneratedBoard
from referees.base import BadInput, Referee

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Board:
    """A board file, read and checked: its path, text, extra files and hash."""

    path: Path
    text: str
    extras: dict[str, str]
    sha256: str

    @functools.cached_property
    def name(self) -> str:
        """A short name for tables: ``group3/board2``."""
        return board_name(self.path)


def board_name(path: Path) -> str:
    """A board file's name in tables and game ids: its folder's name and its stem."""
    return f"{path.parent.name}/{path.stem}"


def find_boards(paths: list[str], *, recursive: bool = False) -> list[Path]:
    """Board files named directly or lying in the given folders (``*.in``;
    with ``recursive``, in their subfolders too).  Their names must be plain
    text (``arena.text.check_name``): a tournament starts only with such boards."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted(path.rglob("*.in") if recursive else path.glob("*.in"), key=_natural)
            if not files:
                raise ArenaError(f"no board files (*.in) in folder {raw!r}"
                                 + ("" if recursive else " (its subfolders are searched only with --recursive)"))
            found.extend(files)
        elif path.is_file():
            found.append(path)
        else:
            raise ArenaError(f"board {raw!r} does not exist")
    for path in found:
        check_name(board_name(path), str(path), "board file", separators="\\")
    return found


def manifest_games(paths: list[Path]) -> dict[str, Path]:
    """What the manifests beside the board files say they are for: ``{"game": a manifest}``
    (a generator's name as ``arena generate`` wrote it; a manifest that does not read is skipped)."""
    found: dict[str, Path] = {}
    for folder in dict.fromkeys(path.parent for path in paths):
        try:
            game = json.loads((folder / MANIFEST).read_text(encoding="utf-8")).get("game")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(game, str):
            found.setdefault(game, folder / MANIFEST)
    return found


def _natural(path: Path) -> tuple:
    """Sort board2 before board10, and a folder's own boards before its subfolders'."""
    import re

    return (len(path.parts), *(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", str(path))))


def read_extras(referee: Referee, folder: Path) -> dict[str, str]:
    """The files a game keeps beside its board files in ``folder`` (e.g. ``words.txt``)."""
    extras = {}
    for name in referee.board_files:
        try:
            extras[name] = (folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ArenaError(f"cannot read {str(folder / name)!r}, which {referee.name} keeps beside its boards: "
                             f"{exc}") from None
    return extras


def load_board(referee: Referee, path: Path) -> tuple[Board, Any]:
    """Read and parse one board file (and the files the game keeps beside it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read board {str(path)!r}: {exc}") from None
    extras = read_extras(referee, path.parent)
    try:
        state = referee.load(text, extras)
    except BadInput as exc:
        # an error in a file kept beside the board names that file
        where = path.parent / exc.where if exc.where in extras else path
        raise ArenaError(f"board does not parse as {referee.name}: {exc.located(str(where))}") from None
    # the files beside the board are part of it: a changed dictionary is another board
    digest = hashlib.sha256(text.encode())
    for name in sorted(extras):
        digest.update(b"\0" + name.encode() + b"\0" + extras[name].encode())
    return Board(path, text, extras, digest.hexdigest()), state


def write_generated(
    folder: Path, game: str, boards: list[tuple[int, GeneratedBoard]], *, overwrite: bool = False
) -> list[Path]:
    """Write ``board1.in``... and ``manifest.json`` (game, parameters and seed
    of each board) into ``folder``; refuse to replace files unless asked."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"board{i}.in" for i in range(1, len(boards) + 1)]
    if not overwrite:
        clash = [str(p) for p in paths + [folder / MANIFEST] if p.exists()]
        if clash:
            raise ArenaError(f"{clash[0]} exists already; pass --overwrite to replace it")
    manifest: dict[str, Any] = {"game": game, "boards": []}
    for path, (seed, board) in zip(paths, boards):
        path.write_text(board.text, encoding="utf-8")
        for name, text in board.extras.items():
            (folder / name).write_text(text, encoding="utf-8")
        manifest["boards"].append({"file": path.name, "seed": seed, **board.params})
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return paths

"""A tournament on disk: ``results/<name>/``.

- ``tournament.json``: the configuration (game, bots with file hashes, boards
  with hashes, limits).  A resumed run must have the same configuration.
- ``games.jsonl``: one JSON line per finished game, appended, flushed and
  fsynced as each game ends, so that a killed arena loses at most the games
  still being played.  A torn last line (the arena killed mid-write) is
  ignored on reading and cut off before the next append.
- ``arena.log``: the log; ``tables.txt``: the tables of the last run or show.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from arena.errors import ArenaError

CONFIG = "tournament.json"
GAMES = "games.jsonl"
LOG = "arena.log"
TABLES = "tables.txt"


class Store:
    """The folder of one tournament."""

    def __init__(self, folder: Path):
        self.folder = folder

    @property
    def games_path(self) -> Path:
        return self.folder / GAMES

    # ------------------------------------------------------------ reading
    @classmethod
    def open_existing(cls, folder: Path) -> Store:
        """A tournament folder that must exist (for ``arena show``)."""
        store = cls(folder)
        if not (folder / CONFIG).is_file():
            why = "does not exist" if not folder.exists() else f"has no {CONFIG}"
            raise ArenaError(f"{str(folder)!r} is not a tournament results folder: it {why}")
        return store

    def config(self) -> dict[str, Any]:
        path = self.folder / CONFIG
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ArenaError(f"cannot read {str(path)!r}: {exc}") from None

    def records(self) -> list[dict[str, Any]]:
        """The finished games, in the order they were recorded (a torn last
        line is skipped; a corrupt line elsewhere is an error naming it)."""
        path = self.games_path
        if not path.exists():
            return []
        lines = path.read_bytes().split(b"\n")
        records = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except ValueError:
                if number == len(lines):  # the last line, without its newline: an interrupted write
                    continue
                raise ArenaError(f"{path!s}:{number}: not a JSON game record: {line[:80]!r}") from None
        return records

    def count(self) -> int:
        """How many games are recorded (complete lines), read in chunks: no
        record is parsed or kept, so it is cheap at any size."""
        path = self.games_path
        if not path.exists():
            return 0
        lines = 0
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                lines += chunk.count(b"\n")
        return lines

    # ------------------------------------------------------------ writing
    def start(self, config: dict[str, Any], *, overwrite: bool) -> list[dict[str, Any]]:
        """Create the folder or reopen it for a resume; returns the games
        already recorded.  A different configuration is refused unless
        ``overwrite``, which discards the old records."""
        path = self.folder / CONFIG
        if path.exists():
            old = self.config()
            if _identity(old) != _identity(config):
                if not overwrite:
                    raise ArenaError(
                        f"{str(self.folder)!r} holds a tournament with a different configuration "
                        f"({_first_difference(_identity(old), _identity(config))}); use another --name, or --overwrite to discard it"
                    )
                shutil.rmtree(self.folder)
        elif self.folder.exists() and any(self.folder.iterdir()):
            raise ArenaError(f"{str(self.folder)!r} exists and is not a tournament results folder")
        self.folder.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            _write_atomic(path, json.dumps(config, indent=2) + "\n")
        self._cut_torn_line()
        return self.records()

    def append(self, record: dict[str, Any]) -> None:
        """Append one finished game and force it to disk."""
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"
        with open(self.games_path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())

    def write_tables(self, text: str) -> Path:
        path = self.folder / TABLES
        _write_atomic(path, text)
        return path

    def _cut_torn_line(self) -> None:
        """Drop an incomplete last line left by a killed arena, so the next
        append starts on a line of its own."""
        path = self.games_path
        if not path.exists():
            return
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            with open(path, "r+b") as handle:
                handle.truncate(data.rfind(b"\n") + 1)


def _identity(config: dict[str, Any]) -> dict[str, Any]:
    """What must match for a resume: everything but where files were found
    (``./boards`` and ``boards`` are the same boards; names and hashes decide)."""
    def strip(item: Any) -> Any:
        return {k: v for k, v in item.items() if k != "path"} if isinstance(item, dict) else item

    return {key: [strip(item) for item in value] if key in ("bots", "boards") else value
            for key, value in config.items()}


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _first_difference(old: dict[str, Any], new: dict[str, Any]) -> str:
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            return f"{key!r} was {_short(old.get(key))}, now {_short(new.get(key))}"
    return "no difference"


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 120 else text[:117] + "..."

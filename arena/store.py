"""A tournament on disk: ``results/<name>/``.

- ``tournament.json``: the configuration (game, bots with file hashes, boards
  with hashes, limits).  A resumed run must have the same configuration.
- ``games.jsonl``: one JSON line per finished game, written (in one write
  to a file opened to append) as each game ends, so that a killed arena
  loses at most the games still being played.  It is forced to disk
  (fsync) at most every ``SYNC_EVERY`` seconds and when the run ends: a
  crash of the whole machine loses at most the games of that last half
  second, which a resume plays again.  (An fsync a game cost about 0.1 ms
  of CPU a game, a tenth of the arena's whole budget for a fast game.)  A
  torn last line (the arena killed mid-write) is ignored on reading and cut
  off before the next append.
- ``arena.log``: the log; ``tables.txt``: the tables of the last run or show.
- ``.lock``: held (a POSIX record lock, ``lockf``) by the run writing the
  folder, and naming it (pid, host, start time): a second run of the same
  tournament at once is refused, saying who holds it, and ``arena show``
  says the games are still being played.  A lock dies with its process;
  the file of a run that was killed still names it, and the next run takes
  over with a notice.

Records are read as a stream, one line at a time, so that a tournament of a
million games is shown or resumed in constant memory: ``summaries`` decodes
only what the tables need (``Summary``), ``ids`` only the game ids (what a
resume needs), ``iter_records`` whole records.  The partial reads use
msgspec's typed JSON decoder, which skips the fields it is not asked for
(the moves: nearly all of a record) without building them: about ten times
the speed of ``json.loads`` on real records.
"""

from __future__ import annotations

import atexit
import datetime
import errno
import fcntl
import json
import os
import shutil
import socket
import struct
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from arena.errors import ArenaError

CONFIG = "tournament.json"
GAMES = "games.jsonl"
LOG = "arena.log"
TABLES = "tables.txt"
LOCK = ".lock"
#: The folders this process holds: resolved path -> [the lock file's descriptor, Stores holding it].
_held: dict[str, list[int]] = {}
#: Seconds between two fsyncs of games.jsonl while games are appended.
SYNC_EVERY = 0.5
#: struct flock as Linux lays it out on 64-bit machines (l_type, l_whence, l_start, l_len, l_pid).
_FLOCK = "hhqqi4x"


class BoardName(msgspec.Struct):
    name: str
    sha256: str = ""


class Result(msgspec.Struct):
    winner: int | None = None
    score: float | None = None


class Fault(msgspec.Struct):
    seat: int
    verdict: str


class Summary(msgspec.Struct):
    """What the tables read of a game record (``arena.match.play`` writes
    it): who sat where on which board, the points, the outcome and the
    first fault."""

    board: BoardName
    seats: list[str]
    outcome: Result
    id: str = ""
    points: list[float] | None = None  # two-player games only
    fault: Fault | None = None

    @classmethod
    def of(cls, record: dict[str, Any] | Summary) -> Summary:
        """The summary of a record held in memory (a dict, as ``play`` returns it)."""
        return record if isinstance(record, Summary) else msgspec.convert(record, cls)


class _Id(msgspec.Struct):
    id: str


_Read = TypeVar("_Read")
_ID_START = b'{"id":"'
_SUMMARY = msgspec.json.Decoder(Summary)
_ID = msgspec.json.Decoder(_Id)
_ENCODER = msgspec.json.Encoder()


class Store:
    """The folder of one tournament."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._fd: int | None = None  # games.jsonl, open to append
        self._synced = 0.0  # time.monotonic() of its last fsync
        self._unsynced = False  # whether a game was written since
        self._lock: str | None = None  # the folder's key in ``_held`` while this Store holds it

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
        """The finished games, whole, in the order they were recorded (all in
        memory: for a few games; ``iter_records`` streams them)."""
        return list(self.iter_records())

    def iter_records(self) -> Iterator[dict[str, Any]]:
        """The finished games, whole, one at a time (a torn last line is
        skipped; a corrupt line elsewhere is an error naming it)."""
        return self._read(json.loads)

    def summaries(self) -> Iterator[Summary]:
        """What the tables need of each finished game, one at a time."""
        return self._read(_SUMMARY.decode)

    def ids(self) -> Iterator[str]:
        """The ids of the finished games (what a resume needs), one at a time.
        A line as ``append`` writes it starts with its id (``{"id":"...",``),
        which is read from there without parsing the rest of the line (the
        tables, read at the end of every run, parse it); any other line is
        decoded."""
        return self._read(_id_of)

    def record(self, game_id: str) -> dict[str, Any]:
        """The whole record of one game (the first of this id): only its line is read whole."""
        for found, line in self._read(lambda line: (_ID.decode(line), line)):
            if found.id == game_id:
                return json.loads(line)
        raise ArenaError(f"no game {game_id!r} is recorded in {str(self.games_path)!r}")

    def _read(self, decode: Any) -> Iterator[_Read]:
        path = self.games_path
        if not path.exists():
            return
        with open(path, "rb") as handle:
            for number, line in enumerate(handle, start=1):
                try:
                    yield decode(line)
                except (ValueError, msgspec.DecodeError) as exc:
                    if not line.strip() or not line.endswith(b"\n"):  # blank, or torn: the arena killed mid-write
                        continue
                    raise ArenaError(f"{path!s}:{number}: not a game record ({_reason(exc)}): "
                                     f"{line[:80]!r}") from None

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
    def start(self, config: dict[str, Any], *, overwrite: bool) -> None:
        """Create the folder or reopen it for a resume (its games are read
        with ``ids`` or ``summaries``).  A different configuration is refused
        unless ``overwrite``, which discards the old records.  The folder
        is locked for this run first (``LOCK``)."""
        self.close()
        path = self.folder / CONFIG
        if not path.exists() and self.folder.exists() and any(p.name != LOCK for p in self.folder.iterdir()):
            raise ArenaError(f"{str(self.folder)!r} exists and is not a tournament results folder")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.lock()
        if path.exists():
            old = self.config()
            if _identity(old) != _identity(config):
                if not overwrite:
                    raise ArenaError(
                        f"{str(self.folder)!r} holds a tournament with a different configuration: "
                        f"{'; '.join(differences(_identity(old), _identity(config)))}. Use another --name, or "
                        "--overwrite to discard it"
                    )
                for place in self.folder.iterdir():  # all but the lock this run holds
                    if place.is_dir() and not place.is_symlink():
                        shutil.rmtree(place)
                    elif place.name != LOCK:
                        place.unlink()
        if not path.exists():
            _write_atomic(path, json.dumps(config, indent=2) + "\n")
        self._cut_torn_line()

    def lock(self) -> None:
        """Hold the folder for this run, or say which run holds it (an ``ArenaError``).

        The lock is a POSIX record lock (``lockf``): it belongs to this process alone, so the pool's
        workers, forked from it, do not hold it, and it dies with this process even while they live on
        (an ``flock`` is shared with forked children: a killed run's workers kept it a moment more).
        As such a lock is let go when the process closes any descriptor of the file, the file is
        opened once per process (``_held``) however many Stores of the folder it makes."""
        if self._lock is not None:
            return
        key = str(self.folder.resolve())
        if key in _held:  # this process holds it already (another Store of this folder)
            _held[key][1] += 1
            self._lock = key
            return
        fd = os.open(self.folder / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EAGAIN):
                os.close(fd)
                raise
            holder = _holder(fd)
            os.close(fd)
            raise ArenaError(f"{str(self.folder)!r} is being written by another arena run ({_describe(holder)}); "
                             "wait for it to end, or use another --name") from None
        stale = _holder(fd)
        if stale:
            print(f"arena: taking over {str(self.folder)!r} from a run that ended without letting go of it "
                  f"({_describe(stale)}: killed?)", file=sys.stderr)
        me = {"pid": os.getpid(), "host": socket.gethostname(),
              "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(me) + "\n").encode(), 0)
        _held[key] = [fd, 1]
        self._lock = key
        atexit.register(self.release)

    def writer(self) -> str | None:
        """Who is writing this folder now, if another process is (its lock's holder, described),
        else None.  Asked with F_GETLK, which takes no lock, so a run starting at that moment is
        not refused; and never of a folder this process holds, where closing a descriptor of the
        lock file would let go of its lock."""
        if str(self.folder.resolve()) in _held or struct.calcsize(_FLOCK) != 32:
            return None  # (this process; or a machine whose struct flock this does not know)
        try:
            fd = os.open(self.folder / LOCK, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            return None
        try:
            query = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
            held = struct.unpack(_FLOCK, fcntl.fcntl(fd, fcntl.F_GETLK, query))[0] != fcntl.F_UNLCK
            return _describe(_holder(fd)) if held else None
        finally:
            os.close(fd)

    def release(self) -> None:
        """Let go of the folder (at the latest as this process exits): the lock file is left empty."""
        if self._lock is None:
            return
        held = _held[self._lock]
        held[1] -= 1
        if not held[1]:
            os.ftruncate(held[0], 0)
            os.close(held[0])
            del _held[self._lock]
        self._lock = None
        atexit.unregister(self.release)

    def append(self, record: dict[str, Any]) -> None:
        """Append one finished game, as a line of compact JSON in one write,
        and force the file to disk if the last time was ``SYNC_EVERY``
        seconds ago (``close`` forces what is left)."""
        if self._fd is None:
            self._fd = os.open(self.games_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        data = memoryview(_ENCODER.encode(record) + b"\n")
        while data:
            data = data[os.write(self._fd, data):]
        self._unsynced = True
        now = time.monotonic()
        if now - self._synced >= SYNC_EVERY:
            self._sync(now)

    def close(self) -> None:
        """Force the games written to disk and close the file (the next ``append`` opens it again)."""
        if self._fd is None:
            return
        try:
            if self._unsynced:
                self._sync(time.monotonic())
        finally:
            os.close(self._fd)
            self._fd = None

    def _sync(self, now: float) -> None:
        os.fsync(self._fd)
        self._synced, self._unsynced = now, False

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
        with open(path, "r+b") as handle:
            end = handle.seek(0, os.SEEK_END)
            if end == 0:
                return
            handle.seek(end - 1)
            if handle.read(1) == b"\n":
                return
            # Back to the last newline, a block at a time (the torn line is short next to the file).
            position = end
            while position > 0:
                start = max(0, position - (1 << 16))
                handle.seek(start)
                block = handle.read(position - start)
                newline = block.rfind(b"\n")
                if newline >= 0:
                    handle.truncate(start + newline + 1)
                    return
                position = start
            handle.truncate(0)


def _id_of(line: bytes) -> str:
    """The id of a record's line: read at its start, or decoded if the line is of another shape."""
    if line.startswith(_ID_START):
        end = line.find(b'"', len(_ID_START))
        if end > 0 and line[end + 1:end + 2] == b"," and b"\\" not in line[len(_ID_START):end]:
            return line[len(_ID_START):end].decode()
    return _ID.decode(line).id


def _reason(exc: Exception) -> str:
    """Why a line is not a record, in a few words (msgspec names the field: "at `$.seats[0]`")."""
    text = str(exc).split("\n")[0]
    return text if len(text) <= 120 else text[:117] + "..."


def _identity(config: dict[str, Any]) -> dict[str, Any]:
    """What must match for a resume: everything but where files were found
    (``./boards`` and ``boards`` are the same boards; names and hashes decide)."""
    def strip(item: Any) -> Any:
        return {k: v for k, v in item.items() if k != "path"} if isinstance(item, dict) else item

    return {key: [strip(item) for item in value] if key in ("bots", "boards") else value
            for key, value in config.items() if key != "excluded"}  # (who could not play is not what is played)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What changed from one configuration to another, in words: "bot 'template' added",
    "limits cpu 1.0 -> 2.0"."""
    found = []
    for key in sorted(set(old) | set(new)):
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        if key in ("bots", "boards") and all(isinstance(item, dict) for item in [*(before or [0]), *(after or [0])]):
            found += _named_differences(key[:-1], before, after)
        elif isinstance(before, dict) and isinstance(after, dict):
            found += [f"{key} {part} {_short(before.get(part))} -> {_short(after.get(part))}"
                      for part in sorted(set(before) | set(after)) if before.get(part) != after.get(part)]
        else:
            found.append(f"{key} {_short(before)} -> {_short(after)}")
    return found or ["no difference"]


def _named_differences(what: str, before: list[dict], after: list[dict]) -> list[str]:
    old, new = {item.get("name"): item for item in before}, {item.get("name"): item for item in after}
    found = [f"{what} {name!r} added" for name in new if name not in old]
    found += [f"{what} {name!r} removed" for name in old if name not in new]
    found += [f"{what} {name!r} changed (its files differ)" for name in new if name in old and old[name] != new[name]]
    return found or [f"the {what}s are listed in another order"]


def _holder(fd: int) -> dict[str, Any]:
    """Who a lock file names (empty: nobody, the last run let go)."""
    try:
        holder = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except ValueError:
        return {"pid": "?"}
    return holder if isinstance(holder, dict) else {"pid": "?"}


def _describe(holder: dict[str, Any]) -> str:
    return f"pid {holder.get('pid')!r} on {holder.get('host')!r}, started {holder.get('started')!r}"


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 120 else text[:117] + "..."

"""Tournaments on many machines: the games of ``arena run --cluster`` are
played by the workers of a running Dask scheduler.

The client (``arena run``) keeps the schedule, the records and resume, as
locally; a worker receives everything a game needs from the client, not from
a shared disk:

* each bot as the bytes of its files (``Shipped``), sent once to the cluster
  as a Dask task of its own (so a worker that dies loses nothing: Dask
  recomputes it elsewhere from the scheduler's copy); a worker writes them
  into its cache folder under their hash (atomically) and prepares them there
  with ``arena.bots.prepare_bot`` (C / C++ compiled on the worker, once per
  source and machine);
* each board as its text and extra files (``arena.boards.Board``), parsed
  again on the worker;
* the tournament's limits, compilers and sandbox settings: a worker sets up
  its own sandbox (its bwrap, uid and cgroups) with the client's disk size,
  or none if the client's tournament has none.

A game is one Dask task that needs one unit of the worker resource
``games``: a worker process started by ``arena worker`` has one unit and one
thread, so it plays one game, and so runs one bot, at a time.  It plays it in
a game process of its own, set up as a local pool worker is
(``arena.tournament.worker_init``): away from Dask's threads, and killing its
bot and exiting when the worker process dies or is stopped.  A game is
recorded only when its task has finished, once (the client drops a second
result for a game id); a worker that dies mid-game has that game played
again from the start by another (Dask's ``allowed-failures``, 3 by default,
bounds how often).

Dask is imported only here, and only when a cluster is used.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import multiprocessing
import os
import shutil
import stat
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import arena
from arena.boards import Board
from arena.bots import Bot, Compilers, Excluded, prepare_bot
from arena.errors import ArenaError
from arena.match import GameSpec, play
from arena.process import Limits
from arena.sandbox import Sandbox
from arena.tournament import Todo, Tournament, play_in_worker, worker_init
from referees.base import Referee

log = logging.getLogger("arena.cluster")

#: The worker resource a game needs one unit of (``arena worker`` gives each worker process one).
RESOURCE = "games"
#: Seconds to wait for the scheduler when connecting (``--cluster-timeout``).
CONNECT_TIMEOUT = 30.0
#: Environment variable naming a worker's cache folder (bots, compiled binaries).
CACHE_ENV = "ARENA_WORKER_CACHE"
#: Games kept queued on the scheduler per game slot of the cluster, so no worker waits for the client.
QUEUED_PER_SLOT = 2
#: Seconds between two counts of the cluster's game slots (workers come and go).
RECOUNT = 5.0


def missing_dask() -> str:
    """Why the cluster cannot be used ("" when Dask distributed is installed)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return "Dask distributed is not installed: pip install 'arena[cluster]' (or pip install distributed)"
    return ""


# ---------------------------------------------------------------- shipping (client side)


@dataclass(frozen=True)
class Shipped:
    """A bot's files as bytes, to be rebuilt on a worker."""

    name: str  # the bot's name
    entry: str  # what prepare_bot is given, relative to the bot's folder in the cache
    files: tuple[tuple[str, int, bytes], ...]  # (path relative to that folder, mode, content)
    sha256: str  # the client's Bot.sha256, checked on the worker

    @property
    def key(self) -> str:
        """The hash of the files, names and execute bits: the bot's folder in a worker's cache."""
        digest = hashlib.sha256(self.entry.encode())
        for relative, mode, data in self.files:
            digest.update(b"\0" + relative.encode() + b"\0" + str(mode & 0o111).encode() + b"\0")
            digest.update(hashlib.sha256(data).digest())
        return digest.hexdigest()[:32]


def ship(bot: Bot) -> Shipped:
    """A bot's source file, or its folder's files, as bytes."""
    path = bot.path
    if path.is_dir():
        members = sorted(p for p in path.rglob("*") if p.is_file() and not p.is_symlink())
    else:
        members = [path]
    try:
        files = tuple((str(p.relative_to(path.parent)), p.stat().st_mode, p.read_bytes()) for p in members)
    except OSError as exc:
        raise ArenaError(f"cannot read bot {bot.name!r} to send it to the cluster: {exc}") from None
    return Shipped(bot.name, path.name, files, bot.sha256)


# ---------------------------------------------------------------- materialising (worker side)

_bots: dict[tuple[str, Compilers, bool], Bot] = {}  # (Shipped.key, compilers, unsandboxed) -> the prepared bot
_sandboxes: dict[tuple[int, bool], Sandbox] = {}  # (disk size, filter) -> this worker's sandbox
_states: dict[tuple[str, str], Any] = {}  # (game, board sha256) -> the parsed initial state
_games: ProcessPoolExecutor | None = None  # the process this worker process plays its games in
_broken: Counter[str] = Counter()  # game id -> how often its game process died under it here
#: How often a game whose game process died is given back to the scheduler by one worker process.
REPLAYS = 2


def cache_folder() -> Path:
    """Where a worker keeps the bots it was sent and what it compiled from them."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "arena-worker"


def materialise(shipped: Shipped, cache: Path, compilers: Compilers, sandbox: Sandbox | None) -> Bot:
    """The shipped bot, written under ``cache/bots/KEY`` (once per machine) and
    prepared from there (copied, and compiled with the client's compilers and
    flags, in this worker's sandbox); an ``ArenaError`` if it cannot play here."""
    from arena.sandbox import sandboxed_compiler

    folder = cache / "bots" / shipped.key
    if not folder.is_dir():
        _write_atomically(shipped, folder)
    result = prepare_bot(folder / shipped.entry, cache / "copies", compilers=compilers,
                         compile=sandboxed_compiler(sandbox) if sandbox else None, sandboxed=sandbox is not None)
    if isinstance(result, Excluded):
        raise ArenaError(f"bot {shipped.name!r} cannot play on this worker: {result.reason}")
    if result.name != shipped.name or result.sha256 != shipped.sha256:
        raise ArenaError(f"bot {shipped.name!r} differs on this worker ({result.name}, sha256 {result.sha256}) "
                         f"from the client's (sha256 {shipped.sha256}): is {folder} damaged?")
    return result


def _write_atomically(shipped: Shipped, folder: Path) -> None:
    """Write the files into a fresh folder, then rename it into place: another
    worker process of the machine sees the whole bot or none of it."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{shipped.key}-", dir=folder.parent))
    try:
        for relative, mode, data in shipped.files:
            target = partial / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            target.chmod(stat.S_IMODE(mode) | stat.S_IRUSR)
        os.rename(partial, folder)
    except OSError:
        if not folder.is_dir():  # not a lost race with another process, which wrote the same files
            raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _prepared(shipped: Shipped, compilers: Compilers, sandbox: Sandbox | None) -> Bot:
    key = (shipped.key, compilers, sandbox is None)
    bot = _bots.get(key)
    if bot is None or not bot.path.exists():
        bot = _bots[key] = materialise(shipped, cache_folder(), compilers, sandbox)
    return bot


def _sandbox(client: Sandbox | None) -> Sandbox | None:
    """This machine's own sandbox (its bwrap, uid, cgroups), with the client's disk size and system call
    filter (or none, --no-seccomp); None if the client's tournament runs without one (--no-sandbox)."""
    from arena.sandbox import configure

    if client is None:
        return None
    key = (client.disk, client.seccomp)
    if key not in _sandboxes:
        _sandboxes[key] = configure(disk=client.disk, filter_calls=client.seccomp)
    return _sandboxes[key]


def _initial_state(referee: Referee, board: Board) -> Any:
    key = (referee.name, board.sha256)
    if key not in _states:
        _states[key] = referee.load(board.text, board.extras)
    return _states[key]


def _hold(value: Any) -> Any:
    """A task whose result is its argument: how bots and boards are sent once to the cluster."""
    return value


def play_on_worker(version: str, referee: Referee, board: Board, seats: tuple[Shipped, ...], limits: Limits,
                   sandbox: Sandbox | None, compilers: Compilers) -> dict[str, Any]:
    """One game, played on a worker from what the client sent: its record."""
    if version != arena.__version__:
        raise ArenaError(f"this worker runs arena {arena.__version__} ({sys.executable}), the client arena "
                         f"{version}: install the same version on every machine")
    own = _sandbox(sandbox)
    spec = GameSpec(board, tuple(_prepared(shipped, compilers, own) for shipped in seats))
    state = _initial_state(referee, board)
    if multiprocessing.current_process().daemon:  # a plain 'dask worker': no child processes allowed
        return play(referee, spec, state, limits, sandbox=own)
    try:
        return _game_process().submit(play_in_worker, referee, spec, state, limits, own).result()
    except BrokenProcessPool:
        return _replay(spec.id)


def _game_process() -> ProcessPoolExecutor:
    """This worker process's own game process, as a local pool worker: it plays the games one by one
    and, if the worker dies (even by SIGKILL) or is stopped, kills its bot and exits."""
    global _games
    if _games is None:
        # spawn: a fork of a process with Dask's threads running could inherit a lock held by one of them
        _games = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=worker_init)
    return _games


def _replay(game: str) -> dict[str, Any]:
    """The game process died in the middle of ``game`` (the worker is stopping, or something killed it):
    nothing of the game is kept and the scheduler gives it to a worker again, a few times at most."""
    from distributed import Reschedule

    global _games
    _games = None
    _broken[game] += 1
    if _broken[game] > REPLAYS:
        raise ArenaError(f"the process playing game {game!r} died {REPLAYS + 1} times on this worker "
                         "(does a bot kill the arena?)")
    raise Reschedule()


# ---------------------------------------------------------------- the client


@dataclass(frozen=True)
class Cluster:
    """A Dask scheduler's address, and how to play a tournament's games there."""

    address: str
    timeout: float = CONNECT_TIMEOUT
    compilers: Compilers = field(default_factory=Compilers)  # the client's compilers and flags, used on the workers

    def play_all(self, tournament: Tournament, todo: Todo, jobs: int
                 ) -> Iterator[dict[str, Any]]:
        """The records of the games ``todo``, as their tasks finish on the cluster
        (``jobs`` is the least number of games kept queued)."""
        if not todo:
            return
        client = self._connect()
        try:
            yield from self._play(client, tournament, todo, jobs)
        finally:
            client.close(timeout=self.timeout)  # cancels what is still queued or running

    def _connect(self) -> Any:
        from distributed import Client
        from distributed.comm import parse_address, registry

        log.info("connecting to the Dask scheduler at %s", self.address)
        # the client's reconnection attempts log tracebacks; losing the scheduler is reported as an ArenaError
        logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
        try:
            registry.get_backend(parse_address(self.address)[0])
        except ValueError as exc:
            raise ArenaError(f"--cluster {self.address!r} is not a Dask scheduler's address (expected "
                             f"tcp://HOST:PORT, e.g. tcp://10.0.0.1:8786): {exc}") from None
        try:
            client = Client(self.address, timeout=self.timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ArenaError(f"cannot reach the Dask scheduler at {self.address} (waited {self.timeout:g} s): "
                             f"{exc}. Is 'dask scheduler' running there, and is the port open?") from None
        slots = self._slots(client)
        log.info("connected to %s: %d workers, %d game slots", self.address,
                 len(client.scheduler_info()["workers"]), slots)
        if not slots:
            log.warning("no worker offers the %r resource yet: games wait until one joins (start workers with "
                        "'arena worker %s')", RESOURCE, self.address)
        return client

    @staticmethod
    def _slots(client: Any) -> int:
        """Games the cluster's workers can play at once (one per worker process started by ``arena worker``)."""
        workers = client.scheduler_info()["workers"].values()
        return int(sum(w.get("resources", {}).get(RESOURCE, 0) for w in workers))

    def _play(self, client: Any, tournament: Tournament, todo: Todo, jobs: int
              ) -> Iterator[dict[str, Any]]:
        from distributed import as_completed

        held = self._send_once(client, tournament, todo)
        queue = iter(todo)
        pending = as_completed(loop=client.loop, with_results=True, raise_errors=False)  # results come meanwhile
        recorded: set[str] = set()
        games: dict[str, str] = {}  # task key -> game id
        run = uuid.uuid4().hex[:8]  # a resumed tournament's tasks are new tasks

        def submit(room: int) -> None:
            for spec, _ in itertools.islice(queue, max(room, 0)):
                seats = tuple(held[bot.name] for bot in spec.seats)
                future = client.submit(play_on_worker, arena.__version__, tournament.referee,
                                       held[("board", spec.board.name)], seats, tournament.limits,
                                       tournament.sandbox, self.compilers,
                                       key=f"arena-game-{run}-{spec.id}", resources={RESOURCE: 1})
                games[future.key] = spec.id
                pending.add(future)

        slots, counted = self._slots(client), time.monotonic()
        submit(max(jobs, QUEUED_PER_SLOT * slots))
        for future, result in pending:
            game = games.pop(future.key)
            record = result if future.status == "finished" else self._result(future, game)
            future.release()
            if record["id"] not in recorded:
                recorded.add(record["id"])
                yield record
            if time.monotonic() - counted > RECOUNT:  # workers may have joined (asking costs a round trip)
                slots, counted = self._slots(client), time.monotonic()
            submit(max(jobs, QUEUED_PER_SLOT * slots) - pending.count())

    @staticmethod
    def _send_once(client: Any, tournament: Tournament, todo: Todo) -> dict[Any, Any]:
        """Futures of the bots' files and of the boards, each sent to the cluster once."""
        held: dict[Any, Any] = {}
        for bot in tournament.bots:
            shipped = ship(bot)
            held[bot.name] = client.submit(_hold, shipped, key=f"arena-bot-{bot.name}-{shipped.key}")
        for board in todo.boards():
            held[("board", board.name)] = client.submit(_hold, board, key=f"arena-board-{board.sha256}")
        return held

    def _result(self, future: Any, game: str) -> dict[str, Any]:
        """A finished game's record, or an ``ArenaError`` saying why the cluster could not play it."""
        from distributed import KilledWorker

        try:
            return future.result()
        except KilledWorker as exc:
            raise ArenaError(f"game {game!r} was being played by workers of {self.address} that died, "
                             f"too many times ({exc}); is a bot bringing its machine down?") from None
        except ArenaError as exc:
            raise ArenaError(f"game {game!r} failed on a worker of {self.address}: {exc}") from None
        except CancelledError:  # the client lost the scheduler, and with it every task
            raise ArenaError(f"lost the connection to the Dask scheduler at {self.address} while game {game!r} "
                             "was queued or playing: the scheduler stopped, or the network failed") from None

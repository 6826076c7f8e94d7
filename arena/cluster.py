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

import dataclasses
import functools
import hashlib
import importlib
import itertools
import logging
import multiprocessing
import os
import shutil
import socket
import stat
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from arena import games
from arena.boards import Board
from arena.bots import Bot, Compilers, Excluded
from arena.errors import ArenaError
from arena.match import GameSpec, play
from arena.sandbox import Limits, Sandbox, SandboxError
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
#: The arena's packages whose code decides a game (with the game's own: ``code_hash``): a worker whose
#: copy differs plays none of the client's games.
CODE_PACKAGES = ("arena", "referees", "players", "generator")
#: Folders of those packages that hold data, not code: the shipped games' bots, boards and rules
#: (``referees/shipped``: links in a checkout, copies in a wheel; each bot has its own hash), so that
#: a checkout and a wheel of the same code hash alike.
DATA_FOLDERS = frozenset({"shipped"})
#: Seconds a fixed workload (``_reference_work``) takes on the reference machine (the one the figures
#: of the README were measured on): a worker's speed is this over its own time.
REFERENCE_SECONDS = 0.100


@functools.cache
def code_hash(game: str) -> str:
    """A hash of the code that decides results (the arena's sources, and those of the package of the
    game played, wherever it is installed), compared between the client and each worker: machines at
    different commits, with other referees or limits code, or another version of the game's package,
    are told apart, where a version number ("0.1.0") would not."""
    digest = hashlib.sha256(games.versions([game]).get(game, "").encode())
    roots = [(name, Path(importlib.import_module(name).__file__).parent) for name in CODE_PACKAGES]
    roots += [(folder.name, folder) for folder in games.package_folders([game]) if folder.is_dir()]
    for name, root in dict.fromkeys(roots):
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts \
                    and DATA_FOLDERS.isdisjoint(path.relative_to(root).parts):
                digest.update(f"{name}/{path.relative_to(root).as_posix()}\0".encode() + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _reference_work() -> int:
    total = 0
    for i in range(2_000_000):
        total += i * i % 7
    return total


@functools.cache
def speed() -> float:
    """This machine's speed at a fixed single-core workload, against the reference machine (1.0: as
    fast; 0.5: it takes twice the time): measured once per worker process, recorded with each game."""
    started = time.process_time()
    _reference_work()
    return round(REFERENCE_SECONDS / max(time.process_time() - started, 1e-6), 2)


def missing_dask() -> str:
    """Why the cluster cannot be used ("" when Dask distributed is installed)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return "Dask distributed is not installed: pip install 'arena-tournaments[cluster]' (or pip install distributed)"
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
    from arena.sandbox import prepare_bot_in

    folder = cache / "bots" / shipped.key
    if not folder.is_dir():
        _write_atomically(shipped, folder)
    result = prepare_bot_in(sandbox, folder / shipped.entry, cache / "copies", compilers)
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


def play_on_worker(code: str, toolchains: dict[str, Any], game: str, board: Board,
                   seats: tuple[Shipped, ...], limits: Limits, sandbox: Sandbox | None,
                   compilers: Compilers, scale_cpu: bool = False) -> dict[str, Any]:
    """One game, played on a worker from what the client sent: its record, with the host that played
    it and that host's speed.  A worker that cannot play the client's games (other code, other
    toolchains, no sandbox, a bot that cannot be built here) sets itself aside (``_quarantine``)
    and the game goes to another.  With ``scale_cpu``, the CPU limit (and a wall cap given) is the
    tournament's over this host's speed: a machine half as fast gives twice the CPU, as contest
    systems calibrate their graders (recorded as the game's ``cpu_limit``)."""
    try:
        referee = games.referee(game)
    except ArenaError as exc:
        _quarantine(f"it cannot play {game!r}: {exc}; install the client's game packages")
    if code != code_hash(game):
        _quarantine(f"its arena differs from the client's, or its {game} package does (code {code_hash(game)} "
                    f"here, {code} there: another commit or version, or changed files; {sys.executable}): "
                    "install the client's commit and game packages")
    try:
        own = _sandbox(sandbox)
        bots = tuple(_prepared(shipped, compilers, own) for shipped in seats)
    except ArenaError as exc:
        _quarantine(str(exc))
    except OSError as exc:  # its cache or build folders failing: the worker's fault, not the bot's
        _quarantine(f"it cannot prepare the bots in its cache {str(cache_folder())!r} ({_failure(exc)}): "
                    "is its disk full or failing, or the folder gone?")
    here = compilers.describe(bots, sandboxed=own is not None)
    for language, row in here.items():
        wanted = toolchains.get(language, {}).get("version")
        if wanted is not None and row["version"] != wanted:
            _quarantine(f"its {language} toolchain is {row['version']!r}, the client's {wanted!r}: a bot would be "
                        "built or run differently here")
    spec = GameSpec(board, bots)
    state = _initial_state(referee, board)
    if scale_cpu:
        limits = dataclasses.replace(limits, cpu=round(limits.cpu / speed(), 3),
                                     wall=None if limits.wall is None else round(limits.wall / speed(), 3))
    try:
        record = _play_here(referee, spec, state, limits, own)
    except BrokenProcessPool:
        return _replay(spec.id)
    except (OSError, SandboxError) as exc:  # its sandbox or temporary files failing: not the bots' fault
        _quarantine(f"it cannot play a game here ({_failure(exc)}): is its disk full or failing, or a folder "
                    "gone?")
    from distributed import get_worker

    return {**record, "host": socket.gethostname(), "worker": str(get_worker().name), "speed": speed(),
            **({"cpu_limit": limits.cpu} if scale_cpu else {})}


def _play_here(referee: Referee, spec: GameSpec, state: Any, limits: Limits, sandbox: Sandbox | None
               ) -> dict[str, Any]:
    """The game's record, played in this worker process's game process (in this process itself under a
    plain 'dask worker', whose processes may not have children)."""
    if multiprocessing.current_process().daemon:
        return play(referee, spec, state, limits, sandbox=sandbox)
    return _game_process().submit(play_in_worker, referee, spec, state, limits, sandbox).result()


def _failure(exc: BaseException) -> str:
    """An exception of the worker's own, as its reason for setting itself aside says it."""
    return f"{type(exc).__name__}: {exc}"


def worker_label(name: str, address: str, host: str | None = None) -> str:
    """How a message names a worker: the name it was started with (``arena worker --name``), beside its
    address and host; its address alone when it has no name of its own (Dask's name is then the address)."""
    where = f"{address} on {host}" if host else address
    return where if name in ("", address) else f"{name} ({where})"


class SetAside(ArenaError):
    """A worker that cannot play the client's games: it has set itself aside (the client says why
    and gives the game to another worker)."""

    def __init__(self, worker: str, host: str, reason: str, name: str = ""):
        super().__init__(worker, host, reason, name)
        self.worker, self.host, self.reason, self.name = worker, host, reason, name

    @property
    def label(self) -> str:
        """The worker, as messages name it."""
        return worker_label(self.name, self.worker, self.host)

    def __str__(self) -> str:
        return f"worker {self.label} is set aside: {self.reason}"


def _quarantine(reason: str) -> NoReturn:
    """This worker process cannot play the client's games: the game it was handed fails with why; the
    client prints it, retires the worker (the scheduler closes it and gives it no more games) and gives
    the game to another.  (Setting its game slots to 0 instead left the scheduler's count of the slots
    in use below zero when a game was running: it kept sending games the worker would never start.)"""
    from distributed import get_worker

    worker = get_worker()
    log.error("this worker sets itself aside: %s", reason)
    raise SetAside(worker.address, socket.gethostname(), reason, str(worker.name))


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


def dask_setting(key: str) -> Any:
    """A key of Dask's own configuration (its YAML files and its DASK_* environment variables), or None."""
    import dask.config

    return dask.config.get(key, None)


@dataclass(frozen=True)
class Tls:
    """The files of a TLS cluster (``arena certificates`` makes them): the authority that signed every
    machine's certificate, and this machine's certificate and key (None: in the certificate's file)."""

    ca: str
    cert: str
    key: str | None

    def security(self) -> Any:
        from distributed.security import Security

        return Security(tls_ca_file=self.ca, tls_client_cert=self.cert, tls_client_key=self.key,
                        require_encryption=True)


@dataclass(frozen=True)
class Cluster:
    """A Dask scheduler's address, and how to play a tournament's games there."""

    address: str
    timeout: float = CONNECT_TIMEOUT
    compilers: Compilers = field(default_factory=Compilers)  # the client's compilers and flags, used on the workers
    tls: Tls | None = None
    scale_cpu: bool = False  # each worker's CPU limit over its speed (--scale-cpu)

    def play_all(self, tournament: Tournament, todo: Todo, jobs: int
                 ) -> Iterator[dict[str, Any]]:
        """The records of the games ``todo``, as their tasks finish on the cluster
        (``jobs`` is the least number of games kept queued)."""
        if not todo:
            return
        client = self._connect()
        try:
            yield from _Play(self, client, tournament, todo, jobs).records()
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
                             f"tcp://HOST:PORT or tls://HOST:PORT, e.g. tls://10.0.0.1:8786): {exc}") from None
        try:
            client = Client(self.address, timeout=self.timeout, set_as_default=False,
                            **({"security": self.tls.security()} if self.tls else {}))
        except (OSError, TimeoutError, ValueError) as exc:
            raise ArenaError(f"cannot reach the Dask scheduler at {self.address} (waited {self.timeout:g} s): "
                             f"{exc}. Is 'dask scheduler' running there, is the port open, and are the TLS "
                             "files the cluster's?") from None
        slots = slots_of(client)
        log.info("connected to %s: %d workers, %d game slots; its dashboard: %s", self.address, len(slots),
                 sum(slots.values()), client.dashboard_link)
        if not sum(slots.values()):
            log.warning("no worker offers the %r resource yet: games wait until one joins (start workers with "
                        "'arena worker %s')", RESOURCE, self.address)
        return client


def workers_of(client: Any) -> dict[str, tuple[str, int]]:
    """Every worker of the cluster, by address: (its name, its game slots), whatever the version of Dask
    (``scheduler_info()`` lists only 5 workers by default in distributed 2025.4 to 2026.x: 45 of 50
    machines would sit idle), as the scheduler itself counts them."""

    def count(dask_scheduler: Any = None) -> dict[str, tuple[str, int]]:  # (defined here: sent by value)
        return {address: (str(worker.name), int(worker.resources.get("games", 0)))
                for address, worker in dask_scheduler.workers.items()}

    return client.run_on_scheduler(count)


def slots_of(client: Any) -> dict[str, int]:
    """The game slots of every worker of the cluster, by address (``workers_of``)."""
    return {address: slots for address, (_, slots) in workers_of(client).items()}


class _Play:
    """One run's games on the cluster: submitted as slots free up, collected as they finish, the
    workers that set themselves aside reported, the games that could not be played kept for the end."""

    def __init__(self, cluster: Cluster, client: Any, tournament: Tournament, todo: Todo, jobs: int):
        self.cluster, self.client, self.tournament, self.jobs = cluster, client, tournament, jobs
        self.todo, self.queue = todo, iter(todo)
        self.games: dict[str, GameSpec] = {}  # task key -> its game
        self.tries = itertools.count()  # a game given to another worker is a new task
        self.run = uuid.uuid4().hex[:8]  # a resumed tournament's tasks are new tasks
        self.set_aside: dict[str, SetAside] = {}  # worker's address -> why it set itself aside
        self.lost: dict[str, str] = {}  # game id -> why the cluster could not play it
        self.workers: dict[str, str] = {}  # address -> name, of every worker seen (those gone too)
        self.present: set[str] | None = None  # the addresses of the workers at the last count
        self.played: dict[tuple[str, str], list] = {}  # (host, worker name) -> [speed, games, time faults]
        self.toolchains = tournament.languages or {}

    def records(self) -> Iterator[dict[str, Any]]:
        from distributed import as_completed

        self.held = self._send_once()
        self.pending = as_completed(loop=self.client.loop, with_results=True, raise_errors=False)
        recorded: set[str] = set()
        self.slots, counted = self._count_slots(), time.monotonic()
        self._submit(max(self.jobs, QUEUED_PER_SLOT * self.slots))
        while not self.pending.is_empty():
            if not self.pending.has_ready():
                time.sleep(0.01)
            else:
                for future, result in self.pending.next_batch(block=False):
                    record = self._finished(future, result)
                    if record is not None and record["id"] not in recorded:
                        recorded.add(record["id"])
                        self._count(record)
                        yield record
            if time.monotonic() - counted > RECOUNT:  # workers may have joined, or set themselves aside
                counted = time.monotonic()
                self._watch()
            self._submit(max(self.jobs, QUEUED_PER_SLOT * self.slots) - self.pending.count())
        self._watch()
        self._report()

    def _submit(self, room: int) -> None:
        for spec, _ in itertools.islice(self.queue, max(room, 0)):
            self._send(spec)

    def _send(self, spec: GameSpec, again: bool = False) -> None:
        tournament = self.tournament
        seats = tuple(self.held[bot.name] for bot in spec.seats)
        key = f"arena-game-{self.run}-{spec.id}" + (f"-again{next(self.tries)}" if again else "")
        future = self.client.submit(play_on_worker, code_hash(tournament.referee.name), self.toolchains,
                                    tournament.referee.name,
                                    self.held[("board", spec.board.name)], seats, tournament.limits,
                                    tournament.sandbox, self.cluster.compilers, self.cluster.scale_cpu, key=key,
                                    resources={RESOURCE: 1})
        self.games[future.key] = spec
        self.pending.add(future)

    def _finished(self, future: Any, result: Any) -> dict[str, Any] | None:
        """A finished task's record, or None for a game the cluster could not play (said, and kept
        for the end: the rest of the tournament goes on)."""
        from distributed import KilledWorker

        spec = self.games.pop(future.key)
        game = spec.id
        try:
            return result if future.status == "finished" else future.result()
        except SetAside as exc:
            if exc.worker not in self.set_aside:
                self.set_aside[exc.worker] = exc
                log.warning("worker %s is set aside, its games go to the others: %s", exc.label, exc.reason)
                # (in the background: retiring waits for the worker's data to move, maybe to no one)
                threading.Thread(target=self._retire, args=(exc.worker,), daemon=True).start()
            self._send(spec, again=True)
            return None
        except KilledWorker as exc:
            last = str(getattr(exc.last_worker, "address", exc.last_worker))
            why = (f"the workers playing it died too many times ({exc}; the last: {self._label(last)}); "
                   "is a bot bringing its machine down?")
        except CancelledError:  # the client lost the scheduler, and with it every task
            raise ArenaError(f"lost the connection to the Dask scheduler at {self.cluster.address} while game "
                             f"{game!r} was queued or playing: the scheduler stopped, or the network failed") from None
        except Exception as exc:  # noqa: BLE001 (a worker's failure, whatever it is: reported, not raised)
            why = f"{type(exc).__name__}: {exc}"
        finally:
            future.release()
        self.lost[game] = why
        log.error("game %s could not be played on the cluster: %s; the tournament goes on without it (a resume "
                  "plays it again)", game, why)
        return None

    def _watch(self) -> None:
        """Count the slots again (not those of the workers set aside), and stop when no worker can play
        (all that came have set themselves aside)."""
        self.slots = self._count_slots()
        if not self.slots and self.set_aside and not self.pending.has_ready():
            reasons = "; ".join(f"{aside.label}: {aside.reason}" for aside in self.set_aside.values())
            raise ArenaError(f"no worker of {self.cluster.address} can play ({len(self.present or ())} connected, "
                             f"{len(self.set_aside)} set aside: {reasons})")

    def _count_slots(self) -> int:
        """The game slots of the workers not set aside; the workers that joined or left since the last
        count, said."""
        workers = workers_of(self.client)
        self.workers.update((address, name) for address, (name, _) in workers.items())
        if self.present is not None:
            for address in sorted(self.present - workers.keys() - self.set_aside.keys()):
                log.warning("worker %s left the cluster: a game it was playing goes to another worker",
                            self._label(address))
            for address in sorted(workers.keys() - self.present):
                log.info("worker %s joined the cluster: %d game slots", self._label(address), workers[address][1])
        self.present = set(workers)
        return sum(slots for address, (_, slots) in workers.items() if address not in self.set_aside)

    def _label(self, address: str) -> str:
        """A worker, by its address, as messages name it (with its name when it has one)."""
        return worker_label(self.workers.get(address, ""), address)

    def _named(self, name: str, host: str | None = None) -> str:
        """A worker, by the name its records give, as messages name it (with its address when known)."""
        address = next((there for there, known in self.workers.items() if known == name), None)
        return worker_label(name, address, host) if address else f"{name} on {host}" if host else name

    def _retire(self, worker: str) -> None:
        try:
            self.client.retire_workers(workers=[worker], close_workers=True)
        except Exception as exc:  # noqa: BLE001 (the client closing, the worker gone: it plays no more either way)
            log.debug("retiring worker %s: %s", worker, exc)

    def _count(self, record: dict[str, Any]) -> None:
        where = (str(record.get("host", "?")), str(record.get("worker", "?")))
        worker = self.played.setdefault(where, [record.get("speed"), 0, 0])
        worker[1] += 1
        worker[2] += bool(record.get("fault") and record["fault"].get("verdict") == "time-limit")

    def _report(self) -> None:
        """Where the games were played, by which workers, at what speed; and the games the cluster could
        not play."""
        for host in sorted({host for host, _ in self.played}):
            mine = sorted((name, *counts) for (there, name), counts in self.played.items() if there == host)
            speeds = sorted(speed for _, speed, _, _ in mine if speed) or ["?"]
            speed = speeds[0] if speeds[0] == speeds[-1] else f"{speeds[0]} to {speeds[-1]}"
            by = ", ".join(f"{self._named(name)} with {games} games at speed {each}"
                           for name, each, games, _ in mine)
            log.info("played on %s (speed %s of the reference machine): %d games, %d time-limit faults, "
                     "by %s", host, speed, sum(row[2] for row in mine), sum(row[3] for row in mine), by)
        speeds = sorted((speed, name, host) for (host, name), (speed, _, _) in self.played.items() if speed)
        if speeds and speeds[-1][0] > 1.25 * speeds[0][0]:
            (slow, slow_name, slow_host), (fast, fast_name, fast_host) = speeds[0], speeds[-1]
            log.warning("the workers differ in speed (%.2f for %s to %.2f for %s): a second of CPU does "
                        "not buy the same on each", slow, self._named(slow_name, slow_host), fast,
                        self._named(fast_name, fast_host))
        if self.lost:
            lost = "; ".join(f"{game}: {why}" for game, why in sorted(self.lost.items()))
            raise ArenaError(f"{len(self.lost)} games could not be played on {self.cluster.address}: {lost}")

    def _send_once(self) -> dict[Any, Any]:
        """Futures of the bots' files and of the boards, each sent to the cluster once."""
        held: dict[Any, Any] = {}
        for bot in self.tournament.bots:
            shipped = ship(bot)
            held[bot.name] = self.client.submit(_hold, shipped, key=f"arena-bot-{bot.name}-{shipped.key}")
        for board in self.todo.boards():
            held[("board", board.name)] = self.client.submit(_hold, board, key=f"arena-board-{board.sha256}")
        return held

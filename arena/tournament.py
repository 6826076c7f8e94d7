"""A round-robin: the schedule, the parallel pool, resume and progress.

Two-player games: every pair of bots plays every board twice, once in each
seat order.  Single-player games: every bot plays every board once.  Games
already in ``games.jsonl`` are not played again, so an interrupted
tournament resumes by running the same command.
"""

from __future__ import annotations

import ctypes
import hashlib
import itertools
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from typing import Any

from arena.boards import Board
from arena.bots import Bot
from arena.match import GameSpec, play
from arena.process import Limits
from arena.sandbox import Sandbox, close_kept
from arena.store import Store
from referees.base import Referee

log = logging.getLogger("arena.tournament")


@dataclass(frozen=True)
class Tournament:
    """Everything that defines a tournament; its ``config`` must match on resume."""

    referee: Referee
    bots: tuple[Bot, ...]
    boards: tuple[tuple[Board, Any], ...]  # (board, its parsed initial state)
    limits: Limits
    sandbox: Sandbox | None = None  # None: --no-sandbox
    compilers: dict[str, str] | None = None  # what compiled the C / C++ bots (recorded, not compared)

    def config(self) -> dict[str, Any]:
        return {
            "game": self.referee.name,
            "players": self.referee.players,
            "bots": [{"name": b.name, "path": str(b.path), "sha256": b.sha256} for b in self.bots],
            "boards": [{"name": b.name, "path": str(b.path), "sha256": b.sha256} for b, _ in self.boards],
            "limits": asdict(self.limits),
            "sandbox": {"disk": self.sandbox.disk} if self.sandbox else None,
            **({"compilers": self.compilers} if self.compilers else {}),
        }

    def schedule(self) -> list[tuple[GameSpec, Any]]:
        """Every game to play, in a stable order, with its initial state."""
        if self.referee.players == 1:
            seatings: list[tuple[Bot, ...]] = [(bot,) for bot in self.bots]
        else:
            seatings = [order for a, b in itertools.combinations(self.bots, 2) for order in ((a, b), (b, a))]
        return [(GameSpec(board, seats), state) for board, state in self.boards for seats in seatings]


#: How the games are played: (tournament, games to play, jobs) -> their records as they finish.
PlayAll = Callable[["Tournament", list[tuple[GameSpec, Any]], int], Iterator[dict[str, Any]]]


def run(
    tournament: Tournament, store: Store, records: list[dict[str, Any]], *, jobs: int, play_all: PlayAll | None = None
) -> list[dict[str, Any]]:
    """Play the games not yet among ``records`` (those already in the store),
    appending each record to the store as it finishes.  Returns all the
    records, old and new.  On Ctrl-C every finished game is on disk.

    ``play_all`` plays the games: by default in a local pool of ``jobs``
    processes (``arena.cluster.Cluster.play_all`` sends them to a cluster);
    a game it yields twice is recorded once."""
    records = list(records)
    done = {r["id"] for r in records}
    todo = interleave([(spec, state) for spec, state in tournament.schedule() if spec.id not in done])
    total = len(done) + len(todo)
    if done:
        log.info("resuming: %d of %d games already recorded, %d to play", len(done), total, len(todo))
    progress = Progress(total, len(done), len(todo))
    for record in (play_all or _play_all)(tournament, todo, jobs):
        if record["id"] in done:
            continue
        done.add(record["id"])
        store.append(record)
        records.append(record)
        log.info("%s  %s", progress.step(), describe(record))
    return records


def interleave(games: list[tuple[GameSpec, Any]]) -> list[tuple[GameSpec, Any]]:
    """The games in an order that mixes boards and pairings evenly: one game
    of each board in turn, and each board's games in a fixed pseudo-random
    order (by a hash of the game's id, the same on every run).  So the games
    played so far are a fair sample of the rest, and the estimate of the time
    left holds on boards of mixed sizes; the schedule's own order (board by
    board) would play all the small boards first."""
    queues: dict[str, list[tuple[GameSpec, Any]]] = {}
    for game in games:
        queues.setdefault(game[0].board.name, []).append(game)
    for queue in queues.values():
        queue.sort(key=lambda game: hashlib.sha256(game[0].id.encode()).digest())
    rounds = itertools.zip_longest(*(queues[name] for name in sorted(queues)))
    return [game for turn in rounds for game in turn if game is not None]


def _play_all(tournament: Tournament, todo: list[tuple[GameSpec, Any]], jobs: int) -> Iterator[dict[str, Any]]:
    if not todo:
        return
    # Even one job plays in a worker: a worker's bot is cleaned up if the arena is killed.
    context = multiprocessing.get_context("fork")  # workers inherit the referee and the log handlers
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=worker_init) as pool:
        pending: set[Future] = set()
        queue = iter(todo)
        try:
            for spec, state in itertools.islice(queue, jobs * 2):
                pending.add(pool.submit(play_in_worker, tournament.referee, spec, state, tournament.limits,
                                           tournament.sandbox))
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()
                    for spec, state in itertools.islice(queue, 1):
                        pending.add(pool.submit(play_in_worker, tournament.referee, spec, state, tournament.limits,
                                           tournament.sandbox))
        except BaseException:
            workers = list((pool._processes or {}).values())  # no public API stops running work
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()  # SIGTERM: the worker kills its bot, then exits
            raise


def worker_init() -> None:
    """A worker stops with the arena, even a SIGKILLed one: the kernel sends it
    SIGTERM when its parent dies (PR_SET_PDEATHSIG), which raises here, so the
    bot running in it is killed with its whole tree on the way out.  Ctrl-C
    (SIGINT to the terminal's whole process group) stops it the same way."""
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass  # not Linux: the worker ends when the pool's pipe closes
    if os.getppid() == 1:  # the arena died before prctl took effect
        _stop(signal.SIGTERM, None)


class _Stopped(BaseException):
    """Raised in a worker by SIGTERM, to unwind through run_bot's cleanup."""


_playing = False  # whether this worker is in a game (and so may have a bot running)
_stopping = False  # whether a signal has already stopped it


def _stop(signum: int, frame: object) -> None:
    global _stopping
    # Once only: a second signal (Ctrl-C, then the arena's SIGTERM, then its death's) must
    # not cut short the cleanup the first one started.  (Not by SIG_IGN: Python raises
    # OSError for a signal that arrived before its handler was changed to SIG_IGN.)
    if _stopping:
        return
    _stopping = True
    if not _playing:
        close_kept()  # the sandboxes kept for later games: killed and reaped here, not left to an ancestor
        os._exit(128 + signum)  # idle: no bot to kill, and no traceback from the pool's loop
    raise _Stopped(signum)


def play_in_worker(referee: Referee, spec: GameSpec, state: Any, limits: Limits,
                    sandbox: Sandbox | None) -> dict[str, Any]:
    """``play`` in a pool worker; stopped by a signal, the worker exits at once
    (once the bot is killed), rather than waiting for more work."""
    global _playing
    try:
        _playing = True
        return play(referee, spec, state, limits, sandbox=sandbox)
    except _Stopped as stop:
        close_kept()
        os._exit(128 + stop.args[0])
    finally:
        _playing = False


class Progress:
    """Games done / total, elapsed time and an estimate of the time left."""

    def __init__(self, total: int, already: int, to_play: int):
        self.total, self.done, self.to_play, self.played = total, already, to_play, 0
        self.start = time.monotonic()

    def step(self) -> str:
        self.done += 1
        self.played += 1
        elapsed = time.monotonic() - self.start
        left = elapsed / self.played * (self.to_play - self.played)
        width = len(str(self.total))
        return f"[{self.done:>{width}}/{self.total}] {_clock(elapsed)} elapsed, ~{_clock(left)} left"


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def describe(record: dict[str, Any]) -> str:
    """One line about a finished game, for the log."""
    board, seats, outcome = record["board"]["name"], record["seats"], record["outcome"]
    if len(seats) == 1:
        score = "fault" if record.get("fault") else outcome["score"]
        return f"{board}: {seats[0]} scores {score} ({outcome['reason']})"
    if outcome["winner"] is None:
        result = "draw"
    else:
        result = f"{seats[outcome['winner']]} wins"
    return f"{board}: {seats[0]} vs {seats[1]}: {result} ({outcome['reason']})"

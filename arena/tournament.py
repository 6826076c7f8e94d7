"""A tournament: the schedule, the parallel pool, resume and progress.

The format (``arena.formats``: round-robin, gauntlet, Swiss, knockout) says
which pairs meet in each round; this module plays each round's games.

Two-player games: every pair of bots plays every board twice, once in each
seat order.  Single-player games: every bot plays every board once.  Games
already in ``games.jsonl`` are not played again, so an interrupted
tournament resumes by running the same command.

The schedule is held as numbers, not as a list of games (``Schedule``): a
game is a board and a seating, what is recorded is one bit per game, and
games are made as the pool asks for them, so a tournament of a million games
starts (or resumes) in seconds and in a few MiB.
"""

from __future__ import annotations

import ctypes
import hashlib
import itertools
import logging
import multiprocessing
import os
import select
import signal
import time
import traceback
from array import array
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from multiprocessing.queues import SimpleQueue
from typing import Any

from arena import formats
from arena.boards import Board
from arena.bots import Bot, Excluded
from arena.errors import ArenaError
from arena.match import GameSpec, play
from arena.sandbox import Limits, Sandbox, close_kept
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
    languages: dict[str, Any] | None = None  # the rows of the bots' languages, with their toolchains' versions
    excluded: tuple[Excluded, ...] = ()  # the bots given that cannot play (a compile error, ...), with why
    system: formats.System = formats.ROUND_ROBIN  # the format: who meets whom, round by round

    def config(self) -> dict[str, Any]:
        return {
            "game": self.referee.name,
            "players": self.referee.players,
            "bots": [{"name": b.name, "path": str(b.path), "sha256": b.sha256} for b in self.bots],
            "boards": [{"name": b.name, "path": str(b.path), "sha256": b.sha256} for b, _ in self.boards],
            "limits": asdict(self.limits),
            # (the system call filter is named only when it is off: a tournament begun without it
            # before there was one resumes with it)
            "sandbox": ({"disk": self.sandbox.disk, **({} if self.sandbox.seccomp else {"seccomp": False})}
                        if self.sandbox else None),
            **({"languages": self.languages} if self.languages else {}),
            **({"excluded": [{"name": bad.name, "path": str(bad.path), "reason": bad.reason} for bad in self.excluded]}
               if self.excluded else {}),
            # (a round-robin is not named: a tournament begun before there were formats resumes as one)
            **({"system": self.system.config()} if self.system.name != "round-robin" else {}),
        }


class Schedule:
    """Every game of a tournament by number: game ``b * S + s`` is board b
    (in the tournament's order) with seating s (of S: every bot alone, or
    every ordered pair of bots, or both orders of each of ``pairs``, the names of the bots that meet
    in one round of a format).  What has been recorded is a bit per game,
    marked from game ids; ``todo`` gives the rest in the order they are
    played, making each game only when it is asked for."""

    def __init__(self, tournament: Tournament, pairs: Iterable[tuple[str, str]] | None = None):
        bots = tournament.bots
        if tournament.referee.players == 1:
            self.seatings: list[tuple[Bot, ...]] = [(bot,) for bot in bots]
        elif pairs is None:
            self.seatings = [order for a, b in itertools.combinations(bots, 2) for order in ((a, b), (b, a))]
        else:
            named = {bot.name: bot for bot in bots}
            self.seatings = [(named[x], named[y]) for a, b in pairs for x, y in ((a, b), (b, a))]
        self.boards = tournament.boards
        self._board = {board.name: k for k, (board, _) in enumerate(self.boards)}
        self._seating = {"|".join(bot.name for bot in seats): k for k, seats in enumerate(self.seatings)}
        self.done = bytearray(len(self))
        self._others: set[str] = set()  # ids of games recorded here that the schedule does not hold

    def __len__(self) -> int:
        return len(self.boards) * len(self.seatings)

    def game(self, number: int) -> tuple[GameSpec, Any]:
        board, state = self.boards[number // len(self.seatings)]
        return GameSpec(board, self.seatings[number % len(self.seatings)]), state

    def number(self, game_id: str) -> int | None:
        """The game of this id (``GameSpec.id``: the board's name and the seats', joined by '|'),
        or None if the schedule has no such game."""
        at = game_id.find("|")
        while at >= 0:  # names may hold '|' themselves: try each split
            board, seating = self._board.get(game_id[:at]), self._seating.get(game_id[at + 1:])
            if board is not None and seating is not None:
                return board * len(self.seatings) + seating
            at = game_id.find("|", at + 1)
        return None

    def mark(self, ids: Iterable[str]) -> int:
        """Mark the games of these ids as recorded; returns how many of the schedule's games are."""
        for game_id in ids:
            number = self.number(game_id)
            if number is not None:
                self.done[number] = 1
        return self.done.count(1)

    def claim(self, game_id: str) -> bool:
        """Mark one game as recorded; False if it already was (a game played twice is recorded once)."""
        number = self.number(game_id)
        if number is None:
            if game_id in self._others:
                return False
            self._others.add(game_id)
            return True
        if self.done[number]:
            return False
        self.done[number] = 1
        return True

    def todo(self) -> Todo:
        """The games not recorded yet, in the order they are played (``Todo``)."""
        seatings, done = len(self.seatings), self.done
        queues: list[array] = []
        for board, _ in sorted(self.boards, key=lambda item: item[0].name):
            first = self._board[board.name] * seatings
            left = [s for s in range(seatings) if not done[first + s]]
            # a game's place in its board's queue: a hash of its id, the same on every run
            left.sort(key=lambda s: hashlib.sha256(GameSpec(board, self.seatings[s]).id.encode()).digest())
            queues.append(array("I", (first + s for s in left)))
        return Todo(self, queues)


class Todo(Sized, Iterable[tuple[GameSpec, Any]]):
    """The games to play, as ``Schedule.todo`` orders them: one game of each
    board in turn (boards in name order), and each board's games in a fixed
    pseudo-random order (by a hash of the game's id).  So the games played so
    far are a fair sample of the rest, and the estimate of the time left holds
    on boards of mixed sizes; the schedule's own order (board by board) would
    play all the small boards first.  Each iteration makes the games anew."""

    def __init__(self, schedule: Schedule, queues: list[array]):
        self.schedule, self.queues = schedule, queues
        self._length = sum(len(queue) for queue in queues)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[tuple[GameSpec, Any]]:
        for number in self.numbers():
            yield self.schedule.game(number)

    def numbers(self) -> Iterator[int]:
        """The games' numbers in the schedule (``Schedule.game``), in this order."""
        for turn in range(max((len(queue) for queue in self.queues), default=0)):
            for queue in self.queues:
                if turn < len(queue):
                    yield queue[turn]

    def boards(self) -> list[Board]:
        """The boards that have games left to play."""
        return [self.schedule.game(queue[0])[0].board for queue in self.queues if queue]


#: How the games are played: (tournament, games to play, jobs) -> their records as they finish.
PlayAll = Callable[["Tournament", Todo, int], Iterator[dict[str, Any]]]


def run(tournament: Tournament, store: Store, *, jobs: int, play_all: PlayAll | None = None,
        recorded: Iterable[str] | None = None,
        on_record: Callable[[dict[str, Any], Progress], None] | None = None) -> int:
    """Play the games not yet recorded, appending each record to the store as
    it finishes; returns the number of the tournament's games recorded in
    all.  On Ctrl-C every finished game is on disk (and forced to it).  Only the ids of the
    games already recorded are read (``Store.ids``), or taken from
    ``recorded``, and no record is kept: the tables are drawn from the store.

    ``play_all`` plays the games: by default in a local pool of ``jobs``
    processes (``arena.cluster.Cluster.play_all`` sends them to a cluster);
    a game it yields twice is recorded once.  ``on_record`` is told of each game
    recorded, with the progress (``arena run --report`` keeps its report up to date).

    A format whose rounds depend on results (Swiss, knockout) reads the
    records' outcomes instead, and plays its rounds one after another
    (``_run_rounds``)."""
    if tournament.system.paired:
        return _run_rounds(tournament, store, jobs, play_all, on_record)
    schedule = Schedule(tournament, _only_round(tournament).pairs)
    already = schedule.mark(store.ids() if recorded is None else recorded)
    todo = schedule.todo()
    total = len(schedule)
    if already:
        log.info("resuming: %d of %d games already recorded, %d to play", already, total, len(todo))
    progress = Progress(total, already, len(todo))
    try:
        for _ in _record(tournament, schedule, todo, store, progress, jobs, play_all, on_record):
            pass
    finally:
        store.close()  # every game written is forced to disk, however the run ends
    return progress.done


def _only_round(tournament: Tournament) -> formats.Round:
    """The one round of a format fixed at the start (round-robin, gauntlet)."""
    names, boards = [bot.name for bot in tournament.bots], [board.name for board, _ in tournament.boards]
    return next(tournament.system.rounds(names, boards, formats.Results()))


def _record(tournament: Tournament, schedule: Schedule, todo: Todo, store: Store, progress: Progress, jobs: int,
            play_all: PlayAll | None, on_record: Callable[[dict[str, Any], Progress], None] | None
            ) -> Iterator[dict[str, Any]]:
    """Play ``todo`` and record each game as it finishes (once); yield its record."""
    for record in (play_all or _play_all)(tournament, todo, jobs):
        if not schedule.claim(record["id"]):
            continue
        store.append(record)
        log.info("%s  %s", progress.step(), describe(record))
        if on_record is not None:
            on_record(record, progress)
        yield record


def _run_rounds(tournament: Tournament, store: Store, jobs: int, play_all: PlayAll | None,
                on_record: Callable[[dict[str, Any], Progress], None] | None) -> int:
    """Play a format's rounds in turn: each is paired from the records of the rounds before it
    (``formats.System.rounds``), so a resume pairs them as the first run did and plays only the
    games not recorded yet; the next round starts when the last game of this one is recorded."""
    system = tournament.system
    names, boards = [bot.name for bot in tournament.bots], [board.name for board, _ in tournament.boards]
    results = formats.Results(store.summaries())
    total = system.games(len(names), len(boards))
    if results:
        log.info("resuming: %d games already recorded; the rounds played are paired again from them", len(results))
    progress = Progress(total, len(results), max(total - len(results), 0))
    try:
        for round_ in system.rounds(names, boards, results):
            schedule = Schedule(tournament, round_.pairs)
            already = schedule.mark(results.games)
            todo = schedule.todo()
            if todo:
                log.info("%s", _round_line(round_, len(schedule), already))
            left, said = len(todo), False
            for record in _record(tournament, schedule, todo, store, progress, jobs, play_all, on_record):
                results.add(record)
                left -= 1
                if 0 < left <= jobs and not said:
                    said = True
                    log.info("%s: waiting for its last %d games%s: %s", round_.title(), left,
                             "" if round_.last else " before the next round is paired", ", ".join(_left(schedule)))
    finally:
        store.close()
    return progress.done


def _round_line(round_: formats.Round, games: int, already: int) -> str:
    """What a round plays, said as it starts."""
    pairs = round_.pairs or ()
    line = f"{round_.title()}: {len(pairs)} pairing{'' if len(pairs) == 1 else 's'}, {games} games"
    if round_.byes:
        line += f"; a bye for {', '.join(round_.byes)}"
    if already:
        line += f" ({already} recorded already)"
    return line


def _left(schedule: Schedule, most: int = 8) -> list[str]:
    """The ids of the schedule's games not recorded yet (the first ``most``, and how many more)."""
    numbers = [n for n in range(len(schedule)) if not schedule.done[n]]
    shown = [schedule.game(n)[0].id for n in numbers[:most]]
    return shown + ([f"and {len(numbers) - most} more"] if len(numbers) > most else [])


def _play_all(tournament: Tournament, todo: Todo, jobs: int) -> Iterator[dict[str, Any]]:
    """Play the games in ``jobs`` forked worker processes; yield each record as it comes.

    The workers take the games' numbers in the schedule from one shared queue
    (so a worker that is free takes the next game: no game waits behind a
    long one), two per worker ahead, make the game from its number (they
    inherit the schedule), and send each record back on a pipe of their own.
    (A concurrent.futures pool cost the arena's process about 0.15 ms of CPU
    a game more: its threads hand every call and result on.)"""
    if not todo:
        return
    # Even one job plays in a worker: a worker's bot is cleaned up if the arena is killed.
    context = multiprocessing.get_context("fork")  # workers inherit the games, the referee and the log handlers
    tasks = context.SimpleQueue()
    workers: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    finished = False
    try:
        for _ in range(jobs):
            receive, send = context.Pipe(duplex=False)
            worker = context.Process(target=_serve, args=(tournament, todo, tasks, send))
            worker.start()
            send.close()
            workers.append((worker, receive))
        queue = todo.numbers()
        queued = 0
        for number in itertools.islice(queue, jobs * 2):
            tasks.put(number)
            queued += 1
        poller, pipes = select.poll(), {}  # (one poll object for the whole run: multiprocessing's wait makes one a call)
        for _, receive in workers:
            poller.register(receive.fileno(), select.POLLIN)
            pipes[receive.fileno()] = receive
        while queued:
            for fd, _ in poller.poll():
                ready = pipes[fd]
                try:
                    status, payload = ready.recv()
                except EOFError:  # its worker ended (after all it sent had been read)
                    worker = next(worker for worker, receive in workers if receive is ready)
                    worker.join(1)
                    raise WorkerLost(worker.exitcode) from None
                queued -= 1
                if status == "error":
                    error, remote = payload
                    raise error from _RemoteTraceback(remote)
                yield payload
                for number in itertools.islice(queue, 1):
                    tasks.put(number)
                    queued += 1
        finished = True
    except BaseException:
        _stop_workers([worker for worker, _ in workers])
        raise
    finally:
        if finished:
            for _ in workers:
                tasks.put(None)  # no more games: the worker closes its sandboxes and exits
        for worker, receive in workers:
            worker.join()
            receive.close()
        tasks.close()


class WorkerLost(ArenaError):
    """A worker of the pool ended with games still to play, though neither the arena nor a bot
    stopped it: something outside killed it (the kernel's OOM killer, a stray ``kill``).  The
    games it was playing are not recorded; a resume plays them."""

    def __init__(self, exitcode: int | None):
        super().__init__(f"a worker process ended unexpectedly ({_how_it_ended(exitcode)}); "
                         "the games it was playing are not recorded")


def _how_it_ended(exitcode: int | None) -> str:
    """A process's end as multiprocessing reports it (-N: killed by signal N), in words."""
    if exitcode is None:
        return "still running"
    number = -exitcode if exitcode < 0 else exitcode - 128 if exitcode > 128 else 0
    try:
        name = signal.Signals(number).name if number else ""
    except ValueError:
        name = ""
    if exitcode < 0:
        return f"killed by {name or f'signal {number}'}"
    return f"exit status {exitcode}" + (f", stopped by {name}" if name else "")


#: Seconds a stopped worker has to kill its bot and exit before it is killed itself.
STOP_GRACE = 10.0


def _stop_workers(workers: list[multiprocessing.process.BaseProcess]) -> None:
    """Stop the workers: SIGTERM (a worker kills its bot, then exits), sent
    again every half second to those still running, and SIGKILL after
    ``STOP_GRACE`` seconds.  Once is not enough: a signal that arrives just as
    an idle worker is about to block on the task queue's lock is handled only
    when the next one interrupts the wait (seen: one stop in three of a
    two-worker pool hung on that worker)."""
    deadline = time.monotonic() + STOP_GRACE
    while alive := [worker for worker in workers if worker.is_alive()]:
        for worker in alive:
            if time.monotonic() < deadline:
                worker.terminate()
            else:
                worker.kill()
        wait_for([worker.sentinel for worker in alive], timeout=0.5)


def _serve(tournament: Tournament, todo: Todo, tasks: SimpleQueue, results: Connection) -> None:
    """A worker: play the games whose numbers come from ``tasks`` until None comes,
    and send ("ok", record) or ("error", (exception, traceback)) for each.

    The worker closes its copy of the queue's writing end (inherited at the fork; it never
    writes): once the arena's process is gone, nothing holds one, and a worker waiting for a
    game reads the end of the file and stops.  The parent-death SIGTERM alone was not enough: one
    that lands just before the wait blocks is handled only when another signal interrupts it,
    and a dead arena sends no other (seen: a worker and its three kept sandboxes still there
    30 s after the arena was SIGKILLed)."""
    tasks._writer.close()  # (SimpleQueue has no public way to close one end)
    worker_init()
    while True:
        try:
            number = tasks.get()
        except EOFError:  # the arena is gone (idle: no bot runs here)
            close_kept()
            os._exit(128 + signal.SIGTERM)
        if number is None:
            break
        spec, state = todo.schedule.game(number)
        try:
            record = play_in_worker(tournament.referee, spec, state, tournament.limits, tournament.sandbox)
        except Exception as exc:  # noqa: BLE001 (the arena's failure: the parent raises it)
            remote = traceback.format_exc()
            try:
                results.send(("error", (exc, remote)))
            except Exception:  # noqa: BLE001 (an exception that cannot be pickled)
                results.send(("error", (RuntimeError(f"{type(exc).__name__}: {exc}"), remote)))
        else:
            results.send(("ok", record))


class _RemoteTraceback(Exception):
    """Where a worker's exception was raised, shown as the cause of the one raised again."""

    def __str__(self) -> str:
        return f"\n\"\"\"\n{self.args[0]}\"\"\""


def worker_init() -> None:
    """A worker stops with the arena, even a SIGKILLed one: the kernel sends it
    SIGTERM when its parent dies (PR_SET_PDEATHSIG), which raises here, so the
    bot running in it is killed with its whole tree on the way out.  Ctrl-C
    (SIGINT to the terminal's whole process group) stops it the same way, unless
    the arena ignores it."""
    signal.signal(signal.SIGTERM, _stop)
    # An arena started with Ctrl-C ignored (`arena run ... &` in a script is) plays on through one,
    # and so must its workers, which get it too when it goes to the terminal's whole group.
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _stop)
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass  # not Linux: the worker ends when the pool's pipe closes
    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # the arena died before prctl took effect
        _stop(signal.SIGTERM, None)  # (adopted by init, or by a subreaper: not always pid 1)


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

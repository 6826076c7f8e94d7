"""The ladder's part of the runner: playing the pairs ``arena.contest.ladder`` picks, when no check
waits, and fitting the standings the ladder page shows.

A pair is one ladder board played twice with the seats swapped, each game by ``arena.match.play``
in the runner's sandbox with the contest's limits (those of the check and the final); both games are
recorded in one transaction, so a runner killed mid-pair records nothing of it and the matchmaking
picks again.  The standings (``ladder.standings``: the arena's joint fit with its intervals) are
fitted in a thread of their own, at the lowest CPU priority, so that a large field's fit never holds
up a check or a game.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import threading
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("arena.contest.runner")

#: The most snapshots of the standings kept for the plot (older ones are thinned to fit).
HISTORY = 200
#: Seconds between looks for new games to fit, at most.
FIT_EVERY = 2.0
#: Seconds the ladder rests after the arena failed at a pair (not a bot's fault), before it tries again.
BACK_OFF = 30.0


class LadderPlayer:
    """The ladder of the runner ``runner`` (a ``ContestRunner``): its bots prepared once each."""

    def __init__(self, runner):
        self.runner = runner
        self.settings = runner.contest.ladder
        self.folder = Path(runner.folder)
        self.rng = random.Random(os.urandom(16))
        self._boards: dict[str, tuple[Any, Any]] | None = None
        self._bots: dict[int, Any] = {}
        self.broken: dict[int, str] = {}  # entries the arena could not prepare (logged, left out)
        self.resting_until = 0.0
        self.due = threading.Event()
        self._rater: threading.Thread | None = None

    @property
    def referee(self):
        from arena.games import referee as get_referee

        return get_referee(self.runner.contest.game)

    @property
    def boards(self) -> dict[str, tuple[Any, Any]]:
        """The ladder's boards by name: (Board, initial state)."""
        if self._boards is None:
            from arena.boards import find_boards, load_board
            from arena.errors import ArenaError

            referee = self.referee
            paths = find_boards([str(path) for path in self.runner.contest.ladder_boards])
            if not paths:
                raise ArenaError(f"the ladder has no boards in {', '.join(map(str, self.runner.contest.ladder_boards))}")
            loaded = [load_board(referee, path) for path in paths]
            self._boards = {board.name: (board, initial) for board, initial in loaded}
        return self._boards

    def entries(self) -> dict[int, str]:
        """The current entries of the contestants not disqualified: submission number -> author's name."""
        from arena.contest.models import Contestant

        found = {}
        for contestant in Contestant.objects.select_related("user").filter(disqualified=""):
            entry = contestant.current_entry()
            if entry is not None:
                found[entry.pk] = contestant.user.username
        return found

    # -- playing
    def turn(self) -> bool:
        """Play the ladder's next pairs if it is on and the round open, or closed and the standings not
        settled yet (``settling``); False if nothing was played."""
        from arena.contest import permissions as can

        if not self.settings.enabled or time.monotonic() < self.resting_until:
            return False
        phase = can.phase()
        if phase != can.OPEN and (phase != can.CLOSED or not settling(self.settings)):
            return False
        self._start_rater()
        try:
            played = self._pairs()
        except Exception:  # (the arena failed at the ladder, no bot did: say so, rest, go on)
            log.exception("runner: the ladder failed; it rests %.0f s", BACK_OFF)
            self.resting_until = time.monotonic() + BACK_OFF
            return False
        if played:
            self.due.set()
        return played

    def _pairs(self) -> bool:
        from arena.contest import ladder
        from arena.contest.models import Job, JobState, LadderGame

        entries = self.entries()
        games = LadderGame.games()
        paused = ladder.paused(games, self.settings.pause_after)
        active = [entry for entry in entries if entry not in self.broken and entry not in paused]
        pairings = ladder.plan(active, games, sorted(self.boards), max(1, self.settings.games // 2), self.rng)
        played = False
        for pairing in pairings:
            if played and Job.objects.filter(state=JobState.QUEUED).exists():
                break  # (checks go first)
            played = self.play(pairing, entries) or played
        return played

    def play(self, pairing, entries: dict[int, str]) -> bool:
        """Play one pair and record both games in one transaction; False if a bot could not be prepared."""
        from django.db import transaction
        from django.db.models import Max

        from arena.contest.models import LadderGame
        from arena.match import GameSpec, play

        bots = [self.bot(entry, entries[entry]) for entry in (pairing.first, pairing.second)]
        if None in bots:
            return False
        board, initial = self.boards[pairing.board]
        seatings = ((pairing.first, pairing.second), (pairing.second, pairing.first))
        order = {pairing.first: bots[0], pairing.second: bots[1]}
        records = [play(self.referee, GameSpec(board, (order[a], order[b])), initial, self.runner.limits(),
                        workdir=self.folder / "ladder", sandbox=self.runner.sandbox) for a, b in seatings]
        with transaction.atomic():
            number = (LadderGame.objects.aggregate(last=Max("pair"))["last"] or 0) + 1
            for record, seats in zip(records, seatings):
                LadderGame.objects.create(pair=number, first_id=seats[0], second_id=seats[1], board=board.name,
                                          record=record, **_result(record, seats))
        log.info("runner: ladder pair %d: %s against %s on %s", number, *bots[0:2], board.name)
        return True

    def bot(self, entry: int, author: str):
        """The entry's bot, prepared (in the sandbox) once, named ``AUTHOR-NUMBER``; None if it cannot be."""
        if entry in self._bots:
            return self._bots[entry]
        from arena.bots import Excluded
        from arena.contest import site
        from arena.sandbox import prepare_bot_in

        unpacked = self.folder / site.BOTS / str(entry)
        found = sorted(unpacked.iterdir()) if unpacked.is_dir() else []
        if not found:
            prepared = Excluded(unpacked, "its unpacked files are missing (check it again to unpack them)")
        else:
            prepared = prepare_bot_in(self.runner.sandbox, found[0], self.folder / "ladder" / "bots",
                                      self.runner.compilers)
        if isinstance(prepared, Excluded):
            log.error("runner: the ladder leaves out entry #%d: it cannot be prepared: %s", entry, prepared.reason)
            self.broken[entry] = prepared.reason
            return None
        self._bots[entry] = dataclasses.replace(prepared, name=f"{author}-{entry}")
        return self._bots[entry]

    # -- the standings
    def _start_rater(self) -> None:
        if self._rater is None:
            self._rater = threading.Thread(target=self._rate_loop, daemon=True, name="ladder-standings")
            self._rater.start()

    def _rate_loop(self) -> None:
        from django.db import connection

        try:  # (this thread only: the games' bots keep their share of the CPU)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except OSError:
            pass
        fitted: tuple = ()
        while not self.runner.stopping.is_set():
            self.due.wait(FIT_EVERY)
            self.due.clear()
            try:
                fitted = self.fit(fitted)
            except Exception:
                log.exception("runner: the ladder's standings could not be fitted")
            finally:
                connection.close()

    def fit(self, fitted: tuple) -> tuple:
        """Fit the standings if games or entries changed since ``fitted`` (what was fitted last)."""
        from arena.contest import ladder
        from arena.contest.models import LadderGame

        entries = sorted(self.entries())
        games = LadderGame.games()
        now = (tuple(entries), len(games))
        if now == fitted:
            return fitted
        started = time.monotonic()
        lines = ladder.standings(entries, games)
        paused = ladder.paused(games, self.settings.pause_after)
        rated = {line.entry for line in lines}
        save_snapshot(len(games), [
            *({"entry": line.entry, "elo": round(line.elo, 1), "low": round(line.low, 1), "high": round(line.high, 1),
               "games": line.games, "los": None if line.los_next is None else round(line.los_next, 3),
               "paused": paused.get(line.entry, [])} for line in lines),
            *({"entry": entry, "elo": None, "low": None, "high": None, "games": 0, "los": None,
               "paused": paused.get(entry, [])} for entry in entries if entry not in rated)])
        log.info("runner: the ladder's standings of %d entries fitted in %.1f s", len(lines),
                 time.monotonic() - started)
        return now


def after_deadline() -> int:
    """The ladder games recorded after the deadline."""
    from arena.contest import permissions as can
    from arena.contest.models import LadderGame

    return LadderGame.objects.filter(finished__gt=can.deadline()).count()


def settling(settings, played: int | None = None) -> str:
    """Why the ladder plays on after the deadline ("" once it stops): its standings are not settled
    (``ladder.unsettled``, of the latest fit) and fewer than ``settle_games`` games were played since
    (``played``, if the caller counted them)."""
    from arena.contest import ladder
    from arena.contest.models import LadderSnapshot

    if (after_deadline() if played is None else played) >= settings.settle_games:
        return ""
    snapshot = LadderSnapshot.latest()
    return ladder.unsettled(snapshot.lines, settings.settle_places) if snapshot else "no standings yet"


def first_score(record: dict[str, Any]) -> float:
    """The first seat's score in a two-player game's record: 1 a win, 1/2 a draw, 0 a loss."""
    winner = record["outcome"]["winner"]
    return 0.5 if winner is None else 1.0 - winner


def _result(record: dict[str, Any], seats: tuple[int, int]) -> dict[str, Any]:
    """The fields of a ladder game that its record decides: the first seat's score, the fault."""
    fault = record.get("fault")
    return {"score": first_score(record),
            "fault_id": seats[fault["seat"]] if fault else None, "verdict": fault["verdict"] if fault else ""}


def save_snapshot(games: int, lines: list[dict[str, Any]]) -> None:
    """Keep these standings: in place of the latest snapshot while the one before it is younger than the
    round so far over HISTORY, else as a new one (so that the plot has about HISTORY points, spread over
    the round, and the latest is always the newest fit)."""
    from django.utils import timezone

    from arena.contest.models import LadderSnapshot

    now = timezone.now()
    latest = list(LadderSnapshot.objects.order_by("-taken", "-id")[:2])
    first = LadderSnapshot.objects.order_by("taken", "id").first()
    if len(latest) == 2 and now - latest[1].taken < (now - first.taken) / HISTORY:
        LadderSnapshot.objects.filter(pk=latest[0].pk).update(taken=now, games=games, lines=lines)
    else:
        LadderSnapshot.objects.create(taken=now, games=games, lines=lines)

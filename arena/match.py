"""Play one game: a referee, a board and one bot per seat -> a game record.

The record is plain data (a dict that becomes one JSON line): ids, board,
seats, every invocation with its verdict, CPU and wall time and the bot's
output, and the outcome with its reason.  A bot's fault is a verdict in the
record; a failure of the arena itself raises.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.boards import Board
from arena.bots import Bot
from arena.languages import with_limits
from arena.sandbox import Invocation, Limits, Runner, Sandbox
from referees.base import BadOutput, IllegalMove, Outcome, Referee

log = logging.getLogger("arena.match")

#: Characters of a bot's game.out / stdout / stderr kept in the record (the
#: accepted move itself is kept whole, as the referee writes it: ``move``).
KEEP = 2000


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game: which board, which bots in which seats."""

    board: Board
    seats: tuple[Bot, ...]

    @functools.cached_property
    def id(self) -> str:
        """Deterministic: the same board, bots and seat order give the same id."""
        return "|".join([self.board.name, *(bot.name for bot in self.seats)])


#: Called after each move with the move's record entry (``arena rerun`` prints it).
OnMove = Callable[[dict[str, Any]], None]


def play(referee: Referee, spec: GameSpec, initial: Any, limits: Limits, *, workdir: Path | None = None,
         sandbox: Sandbox | None = None, keep: Path | None = None, on_move: OnMove | None = None,
         stop_after_first_move: int | None = None) -> dict[str, Any]:
    """Play ``spec`` from the state ``initial``, each bot in its own sandbox
    (``sandbox=None``: as plain processes); returns the game record.  With
    ``keep``, each move's files (what the bot was given, its game.out, stdout
    and stderr) are kept there, under ``seatN-BOT/moveK/``.

    ``stop_after_first_move``: a seat whose first accepted move ends the game
    unfinished (``arena check``'s first-move level); the outcome then has no
    winner, says ``"stopped": true`` and why, and the record has no points.  A
    game over by then (a one-shot game's one invocation) ends as it is."""
    started = time.time()
    # the bots' folders, when they run without a sandbox (a sandbox has its own)
    with contextlib.nullcontext("") if sandbox else tempfile.TemporaryDirectory(prefix="arena-game-", dir=workdir) as tmp:
        runners = [Runner(sandbox, bot.programs, None if sandbox else Path(tmp) / f"seat{seat}-{bot.name}",
                          dataclasses.replace(limits, data=not bot.resident), bot.name,
                          {key: with_limits((value,), limits.memory)[0] for key, value in bot.env})
                   for seat, bot in enumerate(spec.seats)]
        commands = [with_limits(bot.command, limits.memory) for bot in spec.seats]
        try:
            moves, end, stopped = _play_turns(referee, spec, initial, runners, commands, keep, on_move,
                                              stop_after_first_move)
        except BaseException:  # the worker is being stopped (or the arena failed): no sandbox is kept
            for runner in runners:
                runner.close(keep=False)
            raise
        for runner in runners:
            runner.close()
    record = {
        "id": spec.id,
        "game": referee.name,
        "board": {"name": spec.board.name, "path": str(spec.board.path), "sha256": spec.board.sha256},
        "seats": [bot.name for bot in spec.seats],
        "moves": moves,
        "outcome": {"winner": end.winner, "score": end.score, "reason": end.reason,
                    **({"stopped": True} if stopped else {})},
        "fault": next(({"seat": m["seat"], "verdict": m["verdict"]} for m in moves if m["verdict"] != "ok"), None),
        "started": round(started, 3),
        "seconds": round(time.time() - started, 3),
    }
    if referee.players == 2 and not stopped:
        record["points"] = [end.points(seat) for seat in range(2)]
    return record  # (its outcome is logged where it is recorded)


def _play_turns(
    referee: Referee, spec: GameSpec, state: Any, runners: list[Runner], commands: list[tuple[str, ...]],
    keep: Path | None, on_move: OnMove | None, stop_after_first_move: int | None = None
) -> tuple[list[dict[str, Any]], Outcome, bool]:
    """The game's moves, its end, and whether it was stopped (``stop_after_first_move``) rather than over."""
    moves: list[dict[str, Any]] = []
    while (end := referee.outcome(state)) is None:
        seat = referee.to_move(state)
        bot = spec.seats[seat]
        files = referee.render(state, seat)
        inv = runners[seat].run(commands[seat], files)
        if keep is not None:
            _keep(keep / f"seat{seat}-{bot.name}" / f"move{len(moves) + 1}", files, inv)
        verdict, message, move = _judge(referee, state, inv)
        moves.append(_entry(seat, inv, verdict, message, None if move is None else referee.move_text(move)))
        if on_move is not None:
            on_move(moves[-1])
        if log.isEnabledFor(logging.DEBUG):  # (what the bot printed is not formatted for nothing)
            log.debug("game %s: move %d by %s: %s %s (cpu %.3f s)%s", spec.id, len(moves), bot.name, verdict,
                      message, inv.cpu, _printed(moves[-1]))
        if verdict != "ok":
            return moves, _fault_outcome(referee, seat, bot, verdict, message), False
        state = referee.apply(state, move)
        if seat == stop_after_first_move and referee.outcome(state) is None:
            return moves, Outcome(reason=f"stopped after the first move of seat {seat + 1} ({bot.name})"), True
    return moves, end, False


def _judge(referee: Referee, state: Any, inv: Invocation) -> tuple[str, str, Any]:
    """The verdict of one invocation, after parsing and checking its output."""
    if inv.verdict != "ok":
        return inv.verdict, inv.message, None
    try:
        move = referee.parse(state, inv.output or "")
        referee.check(state, move)
    except BadOutput as exc:
        return "bad-output", str(exc), None
    except IllegalMove as exc:
        return "illegal", str(exc), None
    return "ok", "", move


def _fault_outcome(referee: Referee, seat: int, bot: Bot, verdict: str, message: str) -> Outcome:
    reason = f"{bot.name} {verdict}: {message}" if message else f"{bot.name} {verdict}"
    if referee.players == 2:
        return Outcome.win(1 - seat, reason)
    return Outcome(score=referee.fault_score, reason=reason)


def _entry(seat: int, inv: Invocation, verdict: str, message: str, move: str | None) -> dict[str, Any]:
    """One invocation in the record: ``output`` is game.out as written (clipped),
    ``move`` the accepted move in full (what replays play again), ``stdout`` and
    ``stderr`` what the bot printed (clipped; left out when empty)."""
    entry: dict[str, Any] = {
        "seat": seat,
        "verdict": verdict,
        "cpu": round(inv.cpu, 4),
        "wall": round(inv.wall, 4),
        "wait": round(inv.waited, 4),  # of the wall time, waiting for a core (not held against the bot)
        "output": _clip(inv.output),
    }
    if move is not None and move != entry["output"]:
        entry["move"] = move
    if message:
        entry["message"] = message
    if verdict != "ok":
        entry["exit_code"] = inv.exit_code
    for stream in ("stdout", "stderr"):
        if getattr(inv, stream):
            entry[stream] = _clip(getattr(inv, stream))
    return entry


def _keep(folder: Path, files: dict[str, str], inv: Invocation) -> None:
    """One move's files, as the bot was given them and as it answered."""
    folder.mkdir(parents=True, exist_ok=True)
    written = {**files, "game.out": inv.output, "stdout.txt": inv.stdout, "stderr.txt": inv.stderr}
    for name, text in written.items():
        if text is not None:
            (folder / name).write_text(text, encoding="utf-8")


def _printed(entry: dict[str, Any]) -> str:
    """What a bot printed, for the log: quoted (``repr``), on the move's own line."""
    return "".join(f"; {stream}: {entry[stream]!r}" for stream in ("stdout", "stderr") if entry.get(stream))


def _clip(text: str | None) -> str | None:
    if text is None or len(text) <= KEEP:
        return text
    return text[:KEEP] + f"... [{len(text) - KEEP} more characters]"

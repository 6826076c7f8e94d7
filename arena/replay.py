"""Replays: a recorded game played again through its referee, step by step.

Records hold each accepted move as text (``move``, or ``output`` when that is
the same); the states are recomputed from the board file by the referee, so
what a replay shows is what the rules say, not a copy kept on the side.  The
drawing of each game is its view's (``arena.views``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena import games, views
from arena.boards import Board, load_board
from arena.errors import ArenaError
from arena.games import referee as get_referee
from arena.store import Store
from arena.text import display
from arena.views import Frame, Grid
from referees.base import BadOutput, IllegalMove, Referee


@dataclass(frozen=True)
class Step:
    """One step of a replay: the invocation it belongs to (0: the board
    before the first move), its record entry, what to show and the state."""

    number: int
    seat: int | None
    bot: str | None
    entry: dict[str, Any] | None
    frame: Frame
    state: Any
    first: bool = True  # the first step of its invocation (one-shot plans have many)
    move: int = 0  # the move's number as the game counts it (tic-tac-toe counts its opening's moves too)


@dataclass(frozen=True)
class Replay:
    """A game's record with its steps."""

    record: dict[str, Any]
    steps: tuple[Step, ...]
    colours: tuple[str, ...] = views.SEAT_COLOURS  # each seat's colour, as the drawing shows its pieces


# ---------------------------------------------------------------- finding a game
def find_game(store: Store, game: str | None = None, *, board: str | None = None,
              seats: list[str] | None = None, fault: bool = False) -> dict[str, Any]:
    """The record chosen by id, by board and seats, or the first with a fault
    (with none of these: the only game, or an error listing some ids).  The
    records are searched as a stream of summaries; only the chosen game's
    record is read whole."""
    recorded, chosen, first_ids, chosen_ids = 0, 0, [], []
    for summary in store.summaries():
        recorded += 1
        if len(first_ids) < 20:
            first_ids.append(summary.id)
        if ((game is None or summary.id == game) and (board is None or summary.board.name == board)
                and (seats is None or summary.seats == seats) and (not fault or summary.fault)):
            chosen += 1
            if len(chosen_ids) < 20:
                chosen_ids.append(summary.id)
            if fault:
                break  # the first with a fault
    if not recorded:
        raise ArenaError("no game is recorded yet")
    if chosen == 1:
        return store.record(chosen_ids[0])
    wanted = " ".join(filter(None, [game and f"id {game!r}", board and f"board {board!r}",
                                    seats and f"seats {','.join(seats)}", fault and "a fault"]))
    ids = "\n  ".join(chosen_ids or first_ids)
    if not chosen:
        raise ArenaError(f"no recorded game has {wanted}; games are, for example:\n  {ids}")
    which = f"match {wanted}" if wanted else "are recorded"
    raise ArenaError(f"{chosen} games {which}; name one (by id, --board and --seats, or --fault):\n  {ids}")


def board_path(store: Store, entry: dict[str, Any]) -> Path:
    """Where a tournament's board file is: as recorded, relative to the working
    folder or else to the folder above ``results/``."""
    path = Path(entry["path"])
    if path.is_absolute() or path.exists():
        return path
    return store.folder.resolve().parent.parent / path


def recorded_board(referee: Referee, store: Store, record: dict[str, Any]) -> tuple[Board, Any]:
    """The board of a recorded game and its initial state, read again and
    checked against the recorded hash."""
    config = store.config()
    entry = next((b for b in config["boards"] if b["name"] == record["board"]["name"]), record["board"])
    path = board_path(store, entry)
    if not path.is_file():
        raise ArenaError(f"board {record['board']['name']!r} of game {record['id']!r} is not at {str(path)!r} "
                         "any more; run the command from the folder the tournament was run from")
    board, state = load_board(referee, path)
    if board.sha256 != record["board"]["sha256"]:
        raise ArenaError(f"board {str(path)!r} changed since game {record['id']!r} was played "
                         f"(sha256 {record['board']['sha256'][:12]}... then, {board.sha256[:12]}... now)")
    return board, state


# ---------------------------------------------------------------- replaying
def replay(referee: Referee, initial: Any, record: dict[str, Any]) -> Replay:
    """Play a record's moves again through the referee and its view."""
    stepper = Stepper(referee, initial, record)
    steps = [stepper.start()]
    for entry in record["moves"]:
        steps += stepper.step(entry)
    return Replay(record, tuple(steps), getattr(stepper.view, "seat_colours", views.SEAT_COLOURS))


class Stepper:
    """Replays one game move by move (``arena rerun`` feeds it moves as they are played)."""

    def __init__(self, referee: Referee, initial: Any, record: dict[str, Any]):
        self.referee, self.state, self.record = referee, initial, record
        self.seats = list(record["seats"])
        self.view = views.get(referee.name, referee, initial, self.seats)
        self.number = 0
        self.before = getattr(self.view, "moves_before", 0)  # moves the board file played already

    def start(self) -> Step:
        """The board before the first move."""
        return Step(0, None, None, None, self.view.start(self.state), self.state, move=self.before)

    def step(self, entry: dict[str, Any]) -> list[Step]:
        """The steps of the next recorded invocation (several for a one-shot plan)."""
        self.number += 1
        seat, state = entry["seat"], self.state
        bot = self.seats[seat]
        if entry["verdict"] != "ok":
            frame = self.view.fault(state, _attempt(self.referee, state, entry), seat)
            return [Step(self.number, seat, bot, entry, frame, state, move=self.number + self.before)]
        move = _accepted(self.referee, state, entry, self.record, self.number)
        steps = [Step(self.number, seat, bot, entry, frame, after, k == 0, self.number + self.before)
                 for k, (frame, after) in enumerate(self.view.frames(state, move, seat))]
        self.state = self.referee.apply(state, move)
        return steps


def _accepted(referee: Referee, state: Any, entry: dict[str, Any], record: dict[str, Any], number: int) -> Any:
    """The move an ok entry recorded; the rules must still accept it."""
    text = entry.get("move", entry.get("output") or "")
    try:
        move = referee.parse(state, text)
        referee.check(state, move)
    except (BadOutput, IllegalMove) as exc:
        clipped = " (the record has only its first characters: recorded before moves were kept whole)" \
            if "move" not in entry and "more characters]" in text else ""
        raise ArenaError(f"game {record['id']!r}, move {number}: the recorded move does not replay: {exc}"
                         f"{clipped}") from None
    return move


def _attempt(referee: Referee, state: Any, entry: dict[str, Any]) -> Any:
    """What a refused invocation tried, when its output parses at all."""
    if entry.get("output") is None:
        return None
    try:
        return referee.parse(state, entry["output"])
    except BadOutput:
        return None


def load(store: Store, record: dict[str, Any]) -> Replay:
    """The replay of one recorded game of ``store``."""
    referee = get_referee(record["game"])
    return replay(referee, recorded_board(referee, store, record)[1], record)


def bot_input(store: Store, record: dict[str, Any], number: int) -> tuple[dict[str, Any], dict[str, str]]:
    """The record entry of the move numbered ``number`` as the replay numbers it (the game's own count:
    a tic-tac-toe board's opening moves come first) and the files the arena gave that bot (``game.in``
    and any other the game has), recomputed by the referee from the board and the moves before it:
    to run a bot on that position again, or to give it to ``arena solve``."""
    moves = record["moves"]
    if not moves:
        raise ArenaError(f"game {record['id']!r} has no recorded move")
    referee = get_referee(record["game"])
    stepper = Stepper(referee, recorded_board(referee, store, record)[1], record)
    first, last = stepper.before + 1, stepper.before + len(moves)
    if not first <= number <= last:
        raise ArenaError(f"the bots' moves of game {record['id']!r} are numbered {first} to {last}: "
                         f"--input takes one of those, not {number}")
    state = stepper.start().state
    for entry in moves[:number - first]:
        state = stepper.step(entry)[-1].state
    entry = moves[number - first]
    return entry, referee.render(state, entry["seat"])


# ---------------------------------------------------------------- the solver's verdict on each move
#: A solver's first word (``value: WORD ...``, the protocol of ``arena solve``) -> its rank for the mover.
VALUES = {"loss": 0, "draw": 1, "win": 2}


def solver_value(lines: list[str]) -> str:
    """``win``, ``draw``, ``loss`` (for the player to move) or ``unknown``: the first line of what a
    game's ``solve_lines`` printed."""
    words = lines[0].split() if lines else []
    return words[1] if len(words) > 1 and words[0] == "value:" and words[1] in VALUES else "unknown"


def with_solver(game: Replay, seconds: float,
                progress: Callable[[int, int], None] | None = None) -> tuple[Replay, list[str]]:
    """The replay with what the game's solver says of every accepted move (``arena replay --solve``):
    the value of the position before it for the bot that moved, and of the position after it for the
    bot to move next, each within ``seconds``; a move that turned a proven win into no win, or a proven
    draw into a loss, is marked as having thrown it.  Returns the replay (each such move's first step
    with a note) and a summary's lines.  ``progress(k, total)`` is called before each position."""
    record = game.record
    try:
        solver = games.get(record["game"]).solver()
    except games.GameError as exc:
        raise ArenaError(str(exc)) from None
    if solver is None:
        raise ArenaError(f"game {record['game']!r} has no solver "
                         f"(--solve works for: {', '.join(games.solvable()) or 'no installed game'})")
    if len(record["seats"]) != 2:
        raise ArenaError("--solve needs a game of two players (the solver values a position for the player to move)")
    referee = get_referee(record["game"])
    # the position before each accepted move, and after the last one: one solve each
    moves: list[int] = []  # index in game.steps of each accepted move's first step
    positions = [game.steps[0].state]
    for index, step in enumerate(game.steps):
        if step.entry is None or not step.first or step.entry["verdict"] != "ok":
            continue
        moves.append(index)
        last = index
        while last + 1 < len(game.steps) and game.steps[last + 1].number == step.number:
            last += 1
        positions.append(game.steps[last].state)
    values = []
    for k, state in enumerate(positions):
        if progress:
            progress(k + 1, len(positions))
        values.append(solver_value(solver.solve_lines(referee, state, seconds)))
    seats = record["seats"]
    steps = list(game.steps)
    thrown = []
    settled = sum(value != "unknown" for value in values[:len(moves)])
    for k, index in enumerate(moves):
        step = steps[index]
        mover, other = display(seats[step.seat]), display(seats[1 - step.seat])
        before, after = values[k], values[k + 1]
        words = [f"solver: before this move {_valued(before, mover, seconds)}; after it {_valued(after, other, seconds)}"]
        if before in ("win", "draw") and after != "unknown" and 2 - VALUES[after] < VALUES[before]:
            words.append(f" ({mover} threw the {before})")
            thrown.append(f"move {step.move} by {mover} (a {before})")
        steps[index] = replace(step, frame=replace(step.frame, notes=step.frame.notes + ("".join(words),)))
    summary = [f"solver ({seconds:g} s a position): {settled} of {len(moves)} positions before a move settled",
               "moves that threw a proven win or draw: " + ("; ".join(thrown) if thrown else "none")]
    return replace(game, steps=tuple(steps)), summary


def _valued(value: str, bot: str, seconds: float) -> str:
    return f"unknown (not settled in {seconds:g} s)" if value == "unknown" else f"a {value} for {bot}"


# ---------------------------------------------------------------- text
# What a bot printed and the names it was given are shown with ``display``: every control
# character as a visible escape.  A line the arena composed from quoted parts (a referee's
# message quotes the bot's output with repr) gets the last net (``_net``), which escapes
# what is left without doubling its backslashes.
def _net(text: str, *, multiline: bool = False) -> str:
    return display(text, multiline=multiline, backslash=False)


def describe_entry(entry: dict[str, Any], bot: str) -> str:
    """One line: who moved, the verdict, the CPU time."""
    waited = f" ({entry['wait']:.3f} s of it waiting for a core)" if entry.get("wait") else ""
    return (f"{display(bot)} (seat {entry['seat'] + 1}): {display(entry['verdict'])}, cpu {entry['cpu']:.3f} s, "
            f"wall {entry['wall']:.3f} s{waited}")


def entry_details(entry: dict[str, Any]) -> list[str]:
    """The fault message and what the bot printed, as lines to show (each line
    display text: tabs kept, every other control character escaped)."""
    lines = []
    if entry.get("message"):
        lines.append(f"  fault: {_net(entry['message'])}")
    if entry["verdict"] != "ok" and entry.get("exit_code") is not None:
        lines.append(f"  exit code: {entry['exit_code']}")
    for stream in ("stdout", "stderr"):
        if entry.get(stream):
            lines.append(f"  {stream}:")
            lines += [f"  | {display(line, multiline=True)}" for line in entry[stream].rstrip("\n").split("\n")]
    return lines


def step_text(step: Step, plan: bool = False, colour: bool = False) -> str:
    """A step as the terminal shows it: a heading, the verdict line, notes, the
    board, then the fault message and what the bot printed (once per invocation).
    Steps of a one-shot game's ``plan`` are named by their label alone; ``colour``:
    the grids in their colours (ANSI escapes: for a terminal that shows them)."""
    head = "== start: " if not step.number else "== " if plan else f"== move {step.move}: "
    lines = [head + _net(step.frame.label)]
    if step.entry is not None and step.first:
        lines.append("  " + describe_entry(step.entry, step.bot or "?"))
    lines += [f"  {_net(note)}" for note in step.frame.notes]
    if step.frame.drawn:
        lines += [grid_text(grid, colour) for grid in step.frame.grids]
        if step.frame.key:
            lines.append(f"  ({_net(step.frame.key)})")
    else:
        lines.append(_net(step.frame.text.rstrip("\n"), multiline=True))
    if step.entry is not None and step.first:
        lines += entry_details(step.entry)
    return "\n".join(lines)


#: How a terminal marks a cell's classes without colour: the last move, a refused one, cleared, a winning line.
MARKS = (("bad", "!!"), ("new", "[]"), ("cleared", "()"), ("win", "**"))


def grid_text(grid: Grid, colour: bool = False) -> str:
    """A grid for the terminal: its title, its rows and columns labelled as the game
    counts them, each cell's token with its mark (``MARKS``); with ``colour``, each
    cell on its fill (24-bit ANSI colour, which today's terminals show)."""
    tokens = [display(c.term if c.term is not None else c.text or c.key or "") or "." for c in grid.cells]
    rows = -(-len(tokens) // grid.cols)
    width = max(max(map(len, tokens), default=1), len(str(grid.origin + grid.cols - 1)) - 2) + 2
    side = len(str(grid.origin + rows - 1))
    lines = [f"  {_net(grid.title)}",
             " " * (side + 1) + "".join(str(grid.origin + c).center(width) for c in range(grid.cols)).rstrip()]
    for r in range(rows):
        cells = []
        for cell, token in zip(grid.cells[r * grid.cols:(r + 1) * grid.cols], tokens[r * grid.cols:]):
            left, right = next((m for name, m in MARKS if name in cell.classes.split()), "  ")
            text = (left + token + right).center(width) if left != " " else token.center(width)
            cells.append(_coloured(text, cell, colour))
        lines.append(str(grid.origin + r).rjust(side) + " " + "".join(cells))
    return "\n".join(line.rstrip() if not colour else line for line in lines)


def _coloured(text: str, cell: Any, colour: bool) -> str:
    if not colour or not cell.fill.startswith("#") or len(cell.fill) != 7:
        return text
    r, g, b = (int(cell.fill[k:k + 2], 16) for k in (1, 3, 5))
    ink = "30" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "97"
    bold = ";1" if any(name in cell.classes.split() for name, _ in MARKS) else ""
    return f"\x1b[48;2;{r};{g};{b};{ink}{bold}m{text}\x1b[0m"


def game_heading(record: dict[str, Any], verb: str = "game") -> str:
    """The first line of a replay or a rerun: the game's id, its game and its bots."""
    return f"{verb} {display(record['id'])} ({display(record['game'])}): " + " vs ".join(map(display, record["seats"]))


def game_text(game: Replay, colour: bool = False, summary: list[str] | None = None) -> str:
    """A whole replay for the terminal, ending with the outcome (``colour``: see ``step_text``) and
    the ``summary`` lines of ``with_solver`` when given."""
    record = game.record
    parts = [game_heading(record)]
    plan = get_referee(record["game"]).protocol == "one-shot"
    parts += [step_text(step, plan, colour) for step in game.steps]
    parts.append(f"== result: {outcome_text(record)}")
    if summary:
        parts.append("\n".join(["== " + summary[0]] + ["  " + line for line in summary[1:]]))
    return "\n\n".join(parts) + "\n"


def outcome_text(record: dict[str, Any]) -> str:
    """The outcome in words: winner or score, and the reason (display text)."""
    outcome = record["outcome"]
    reason = _net(outcome["reason"])
    if outcome.get("stopped"):  # (arena check's first-move level: no result)
        return f"unfinished: {reason}"
    if outcome.get("score") is not None or len(record["seats"]) == 1:
        return f"score {outcome.get('score')}: {reason}"
    if outcome["winner"] is None:
        return f"draw: {reason}"
    return f"{display(record['seats'][outcome['winner']])} wins: {reason}"

"""The check on submission: what a contest tells a contestant about a bot before its final.

One check prepares the bot as a tournament would (copied, compiled in the sandbox) and, by the
organiser's feedback level (``LEVELS``), goes as far as:

* ``compile``: whether the bot compiled (or can run at all), with the compiler's message;
* ``first-move``: on each board, whether its first move is valid, in each seat of a two-player
  game (as the second after a house bot's opening move), with the verdict and the referee's
  message; in a one-player game, where one invocation plays the whole game, that invocation's;
* ``games``: whole games against each house bot on each board, in both seats, each record kept
  (the contest server shows its replay); losing is fine, a fault of the checked bot is not.

Every game is played by ``arena.match.play`` (the first-move level stops it after the checked
bot's first move).  A house bot that faults before the checked bot has moved is the arena's
problem, an ``ArenaError`` naming it, never a verdict against the checked bot.

The ``Report`` is data (``to_json`` / ``from_json``: the server keeps it in its database) and
text (``render``: what ``arena check`` prints and the server shows), every text the bot controls
shown through ``arena.text.display``.  Nothing here needs Django.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena import games
from arena.boards import Board
from arena.bots import RUN, Bot, Compilers, Excluded
from arena.errors import ArenaError
from arena.match import GameSpec, play
from arena.replay import entry_details
from arena.sandbox import Limits, Sandbox, prepare_bot_in
from arena.text import check_name, display
from referees.base import Referee

LEVELS = ("compile", "first-move", "games")
#: The verdict of a case the checked bot is not at fault in.
OK = "ok"
#: A seat in words (two-player games).
SEATS = ("moving first", "moving second")


@dataclass(frozen=True)
class Case:
    """One board and seat of a check: what the checked bot did there."""

    board: str  # the board's name (``group1/board1``)
    seat: int  # the checked bot's seat (0 moves first; always 0 in a one-player game)
    opponent: str | None  # the house bot in the other seat; None in a one-player game
    verdict: str  # "ok", or the checked bot's fault: time-limit, memory-limit, crash, no-output, bad-output, illegal
    message: str  # the fault's message (for illegal, the rule broken and why), or how the game went
    record: dict[str, Any] | None  # the game's record, as arena.match.play returns it

    @property
    def ok(self) -> bool:
        return self.verdict == OK

    def title(self) -> str:
        """Where it was played, as display text: ``group1/board1, moving first against random``."""
        if self.opponent is None:
            return display(self.board)
        return f"{display(self.board)}, {SEATS[self.seat]} against {display(self.opponent)}"

    def line(self) -> str:
        """One line of display text: where, the verdict, and the message (escaped to one line)."""
        message = f": {display(self.message, backslash=False)}" if self.message else ""
        return f"{self.title()}: {display(self.verdict)}{message}{_cpu(self)}"

    def text(self) -> str:
        """The case for a person to read: its line, then (for a fault) what the bot printed."""
        fault = self._fault()
        if fault is None:
            return self.line()
        return "\n".join([f"{self.title()}: {display(self.verdict)}{_cpu(self)}", *entry_details(fault)])

    def _fault(self) -> dict[str, Any] | None:
        """The checked bot's faulty invocation in the record (None when it is not at fault)."""
        if self.ok or not self.record:
            return None
        return next((move for move in self.record["moves"] if move["seat"] == self.seat and move["verdict"] != OK),
                    None)


@dataclass(frozen=True)
class Report:
    """What the check of one bot found."""

    bot: str  # the bot's name (its file's stem or folder's name)
    language: str | None  # its row of the language table; None for an executable (or no language known)
    level: str  # one of LEVELS
    compiled: bool  # whether it compiled (or, in a language not compiled, could be made to run)
    message: str  # the compiler's message, or why the bot cannot run; "" when it compiled
    cases: tuple[Case, ...]  # the boards and seats played (none at the compile level)

    @property
    def accepted(self) -> bool:
        """Compiled, and not at fault on any board in any seat (a game lost is no fault)."""
        return self.compiled and all(case.ok for case in self.cases)

    def to_json(self) -> dict[str, Any]:
        """Plain data for a database or a file (``from_json`` reads it back)."""
        return {"bot": self.bot, "language": self.language, "level": self.level, "compiled": self.compiled,
                "message": self.message, "accepted": self.accepted,
                "cases": [dataclasses.asdict(case) for case in self.cases]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Report:
        """The report ``to_json`` wrote (``accepted`` is computed again)."""
        try:
            cases = tuple(Case(**{field.name: case[field.name] for field in dataclasses.fields(Case)})
                          for case in data["cases"])
            return cls(data["bot"], data["language"], data["level"], data["compiled"], data["message"], cases)
        except (KeyError, TypeError) as exc:
            raise ArenaError(f"not a check report: {type(exc).__name__}: {exc}") from None

    def render(self) -> str:
        """The report as plain text (every line display text: no control character of the bot's)."""
        language = display(self.language) if self.language else "an executable"
        lines = [f"bot '{display(self.bot)}' ({language}), checked at level {display(self.level)}: {self._verdict()}"]
        if not self.compiled:
            lines += ["  " + line for line in display(self.message, multiline=True).splitlines()]
        for case in self.cases:
            lines.append(case.text())
        return "\n".join(lines) + "\n"

    def _verdict(self) -> str:
        if not self.compiled:
            return "refused: it cannot run"
        faults = sum(not case.ok for case in self.cases)
        if faults:
            return f"refused: at fault in {faults} of {len(self.cases)} case{'s' if len(self.cases) != 1 else ''}"
        if not self.cases:
            return "accepted (ready to run)"
        return f"accepted ({len(self.cases)} case{'s' if len(self.cases) != 1 else ''})"


def check(bot: Path, referee: Referee, boards: Sequence[tuple[Board, Any]], *, level: str, house: Sequence[Bot],
          limits: Limits, sandbox: Sandbox | None, compilers: Compilers, workdir: Path,
          on_case: Callable[[Case], None] | None = None, on_compiled: Callable[[], None] | None = None) -> Report:
    """Check the bot at ``bot`` (a file or folder, copied and compiled into ``workdir``) at ``level``
    on ``boards`` (as ``arena.boards.load_board`` gives them) against the ``house`` bots (prepared;
    one at least for a two-player game past the compile level), each invocation under ``limits``
    in ``sandbox`` (None: as plain processes).  ``on_compiled`` hears when the bot is compiled (and
about to be played), ``on_case`` of each case as it is done.
    An ``ArenaError`` for the arena's own problems (a house bot that faults before the checked bot
    has moved, a level that does not exist)."""
    opponents = _opponents(referee, level, house)
    bot = Path(bot).absolute()
    if not bot.exists():
        raise ArenaError(f"bot {str(bot)!r} does not exist")
    check_name(bot.stem if bot.is_file() else bot.name, str(bot), "bot file" if bot.is_file() else "bot folder")
    prepared = prepare_bot_in(sandbox, bot, workdir, compilers)
    if isinstance(prepared, Excluded):
        return Report(prepared.name, _language_of(bot, compilers), level, False, prepared.reason, ())
    if on_compiled is not None:
        on_compiled()
    cases = []
    if level != "compile":
        for board, initial in boards:
            for opponent in opponents:
                for seat in range(referee.players):
                    cases.append(_case(prepared, referee, board, initial, seat, opponent, level, limits, sandbox,
                                       workdir))
                    if on_case is not None:
                        on_case(cases[-1])
    return Report(prepared.name, prepared.language, level, True, "", tuple(cases))


def _opponents(referee: Referee, level: str, house: Sequence[Bot]) -> list[Bot | None]:
    """The house bots a case is played against (``[None]`` in a one-player game), or an ArenaError."""
    if level not in LEVELS:
        raise ArenaError(f"unknown check level {level!r}: one of {', '.join(LEVELS)}")
    if referee.players == 1:
        if house:
            raise ArenaError(f"{referee.name} is a one-player game: no house bot plays it, got "
                             f"{', '.join(repr(bot.name) for bot in house)}")
        return [None]
    if not house and level != "compile":
        raise ArenaError(f"{referee.name} is a two-player game: checking the first move or games needs a "
                         "house bot to play against")
    return list(house)


def _case(bot: Bot, referee: Referee, board: Board, initial: Any, seat: int, opponent: Bot | None, level: str,
          limits: Limits, sandbox: Sandbox | None, workdir: Path) -> Case:
    """Play one board in one seat, and say what the checked bot did."""
    if opponent is not None and opponent.name == bot.name:  # (checking a bot against itself, as the README does)
        opponent = dataclasses.replace(opponent, name=f"{opponent.name} (house)")
    seats = (bot,) if opponent is None else (bot, opponent) if seat == 0 else (opponent, bot)
    record = play(referee, GameSpec(board, seats), initial, limits, workdir=workdir, sandbox=sandbox,
                  stop_after_first_move=seat if level == "first-move" else None)
    verdict, message = _verdict(record, seat, level)
    return Case(board.name, seat, None if opponent is None else opponent.name, verdict, message, record)


def _verdict(record: dict[str, Any], seat: int, level: str) -> tuple[str, str]:
    """The checked bot's verdict in a record, and the message; an ArenaError for a house bot's
    fault before the checked bot moved."""
    moved = False
    for move in record["moves"]:
        if move["seat"] == seat:
            moved = True
        if move["verdict"] == OK:
            continue
        if move["seat"] == seat:
            return move["verdict"], move.get("message", "")
        if not moved:
            house = record["seats"][move["seat"]]
            raise ArenaError(f"house bot {house!r} failed to make the opening move on board "
                             f"{record['board']['name']!r} ({move['verdict']}: {move.get('message', '')!r}): "
                             "the arena's problem, not the checked bot's; fix or replace the house bot")
    return OK, _how_it_went(record, seat, moved, level)


def _how_it_went(record: dict[str, Any], seat: int, moved: bool, level: str) -> str:
    """How a game without a fault of the checked bot went, in words."""
    outcome = record["outcome"]
    if not moved:
        return f"the game ended before its first move ({outcome['reason']})"
    if outcome.get("stopped"):
        return "its first move is valid"
    if len(record["seats"]) == 1:
        return f"score {outcome['score']} ({outcome['reason']})"
    result = "a draw" if outcome["winner"] is None else "won" if outcome["winner"] == seat else "lost"
    if level == "first-move":  # (its first move ended the game)
        return f"its first move is valid and ends the game: {result} ({outcome['reason']})"
    return f"{result} ({outcome['reason']})"


def _cpu(case: Case) -> str:
    """The most CPU time the checked bot took for a move of this case (`` (cpu 0.041 s)``), if known."""
    if not case.record:
        return ""
    times = [move["cpu"] for move in case.record["moves"] if move["seat"] == case.seat]
    if not times:
        return ""
    return f" (cpu {max(times):.3f} s)" if len(times) == 1 else f" (cpu at most {max(times):.3f} s a move)"


def default_house(game: str, compilers: Compilers) -> Path:
    """The house bot of a game when none is named: among the bots the game ships (its ``bots``
    folders), the first named ``random*``, else the first; an ArenaError if it ships none."""
    languages = compilers.languages
    shipped = [path for folder in games.get(game).paths("bots") for path in sorted(folder.iterdir())
               if not path.name.startswith(("_", "."))
               and (languages.of(path.name) if path.is_file() else any((path / main).is_file()
                                                                       for main in (*languages.mains(), RUN)))]
    if not shipped:
        raise ArenaError(f"game {game!r} ships no bots to play against: name the house bots")
    return next((path for path in shipped if path.name.startswith("random")), shipped[0])


def _language_of(path: Path, compilers: Compilers) -> str | None:
    """The language a bot that could not be prepared is in, by its file's ending or its main file."""
    languages = compilers.languages
    if path.is_file():
        row = languages.of(path.name)
    else:
        main = next((main for main in languages.mains() if (path / main).is_file()), None)
        row = languages.of(main) if main and main != RUN else None
    return row.name if row else None

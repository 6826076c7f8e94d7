"""The referee interface shared by every game, and the errors a referee raises.

A referee is pure: it parses text it is handed, checks moves, applies them and
decides the end of the game.  It never starts processes nor touches files, so
the arena, the generators, the bots and the judge modes can all reuse it.

Two kinds of game fit the same interface:

* per-move games (``protocol = "per-move"``): the arena asks the bot to move
  each time ``to_move`` names it, until ``outcome`` returns an ``Outcome``;
* one-shot games (``protocol = "one-shot"``): a single invocation, whose
  ``game.out`` is the whole plan; ``apply`` plays all of it, and ``outcome``
  of the resulting state gives the score.

Faults belong to bots (``BadOutput``, ``IllegalMove``: recorded as verdicts);
``BadInput`` belongs to the arena's own inputs (a board or judge file that does
not parse) and stops the arena with a clear message.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

_INTEGER = re.compile(r"[+-]?[0-9]+")


class BadInput(Exception):
    """A board, judge input or other arena-side text does not parse.

    ``where`` names the source (a file path, "game.in", ...) when known; the
    message says which line and what was expected.
    """

    def __init__(self, message: str, *, line: int | None = None, where: str | None = None):
        self.message = message
        self.line = line
        self.where = where
        super().__init__(message)

    def __str__(self) -> str:
        place = self.where or ""
        if self.line is not None:
            place = f"{place}:{self.line}" if place else f"line {self.line}"
        return f"{place}: {self.message}" if place else self.message

    def located(self, where: str) -> BadInput:
        """The same error, naming the file it came from."""
        return BadInput(self.message, line=self.line, where=where)


class BadOutput(Exception):
    """A bot's output cannot be parsed (verdict ``bad-output``)."""

    def __init__(self, message: str, *, line: int | None = None):
        self.message = message
        self.line = line
        super().__init__(message)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line is not None else self.message


class IllegalMove(Exception):
    """A parsed move that breaks a rule (verdict ``illegal``).

    ``rule`` is a short stable identifier (e.g. ``"not-connected"``) that tests
    and tables can rely on; the message explains it with the bad input quoted.
    """

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    Two-player games: ``winner`` is the winning seat (0 moves first) or
    ``None`` for a draw.  Single-player games: ``score`` is the game's score.
    ``reason`` says why the game ended, in words a person reads in a table.
    """

    winner: int | None = None
    score: float | None = None
    reason: str = ""

    @classmethod
    def win(cls, seat: int, reason: str) -> Outcome:
        return cls(winner=seat, reason=reason)

    @classmethod
    def draw(cls, reason: str) -> Outcome:
        return cls(reason=reason)

    @classmethod
    def scored(cls, score: float, reason: str = "game over") -> Outcome:
        return cls(score=score, reason=reason)

    def points(self, seat: int) -> float:
        """Tournament points of ``seat`` in a two-player game: 3, 1.5 or 0."""
        if self.winner is None:
            return 1.5
        return 3.0 if self.winner == seat else 0.0


@dataclass(frozen=True)
class Game:
    """What a game package gives the arena: the value of its entry point in the group
    ``arena.games``, named after the game (``paint = "referees:PAINT"``).

    Every part is a dotted name, imported only when it is used, so that listing the
    games, or a bot importing its game's rules, imports nothing else:

    * ``referee``: ``"module:Class"``, a ``Referee`` subclass whose ``name`` is the game's;
    * ``view``: ``"module:Class"``, the replay view (``arena.views`` says what it does);
    * ``generator``: ``"module"``, the seeded board generator (``generator`` says what it has),
      offered by ``arena generate`` under the module's ``GAME`` (games may share one);
    * ``solver``: ``"module"`` with ``solve_lines(referee, state, max_seconds)`` for ``arena solve``;
    * ``aliases``: other names the game answers to (``arena judge crossword``, a board manifest's
      ``"game"``);
    * ``rules``: the rules for contestants, a Markdown file, ``"FILE#heading"`` for one section;
    * ``bots`` and ``boards``: folders of its example bots and boards.

    Paths are relative to ``root``, by default the folder of the module holding this value.
    """

    referee: str
    view: str
    generator: str = ""
    solver: str = ""
    aliases: tuple[str, ...] = ()
    rules: str = ""
    bots: tuple[str, ...] = ()
    boards: tuple[str, ...] = ()
    root: str = ""


class Referee(ABC):
    """The rules of one game.  Subclasses set the class attributes and
    implement the abstract methods; states and moves are the game's own
    (preferably frozen) values."""

    name: ClassVar[str]
    players: ClassVar[Literal[1, 2]]
    protocol: ClassVar[Literal["per-move", "one-shot"]]
    #: Files that lie beside a board file and belong to it (e.g. a dictionary);
    #: the arena reads them and passes them to ``load`` as ``extras``.
    board_files: ClassVar[tuple[str, ...]] = ()
    #: Default CPU seconds per invocation (docs/rules.md, the arena protocol: 1 s; one-shot 10 s).
    cpu_limit: ClassVar[float] = 1.0
    #: Score recorded for a single-player bot that faults (``None``: no score).
    fault_score: ClassVar[float | None] = None
    #: Names of the judge mode's positional inputs; a single input may be "-"
    #: (standard input).  Empty: this game has no judge mode.
    judge_inputs: ClassVar[tuple[str, ...]] = ()
    #: One line for ``arena judge --help``.
    judge_help: ClassVar[str] = ""

    @abstractmethod
    def load(self, text: str, extras: Mapping[str, str] | None = None) -> Any:
        """Parse a board file into the initial state (raises ``BadInput``)."""

    @abstractmethod
    def to_move(self, state: Any) -> int:
        """The seat (0 or 1; always 0 in single-player games) to act next."""

    @abstractmethod
    def render(self, state: Any, seat: int) -> dict[str, str]:
        """The files to put in the bot's folder: ``{"game.in": text, ...}``."""

    @abstractmethod
    def parse(self, state: Any, text: str) -> Any:
        """Parse a bot's ``game.out`` into a move (raises ``BadOutput``)."""

    @abstractmethod
    def check(self, state: Any, move: Any) -> None:
        """Raise ``IllegalMove`` naming the rule if ``move`` is illegal."""

    @abstractmethod
    def apply(self, state: Any, move: Any) -> Any:
        """The state after a checked move (states are not mutated)."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The end of the game, or ``None`` while someone still has to act."""

    @abstractmethod
    def move_text(self, move: Any) -> str:
        """A move as ``game.out`` text; ``parse(state, move_text(m)) == m``."""

    @abstractmethod
    def random_move(self, state: Any, rng: random.Random) -> Any:
        """A random legal move (one-shot games: a random legal plan) for the
        player to move; used by random bots and the conformance test."""

    def judge(self, texts: list[str], extras: Mapping[str, str]) -> Iterable[str]:
        """Judge mode: the lines to print for the given input texts.

        Raises ``BadInput`` for unreadable input, its ``where`` the name in
        ``judge_inputs`` of the input at fault; one that names none is about the
        first.  Pure, like everything here: the caller reads the files and prints.
        """
        raise NotImplementedError(f"{self.name} has no judge mode")

    def judge_case(self, board: str, extras: Mapping[str, str], moves: list[str],
                   outcome: Outcome) -> tuple[list[str], str] | None:
        """The judge mode's inputs for a game played on ``board`` (a board file's text) with
        ``moves`` (each bot output, in order), and the last line the judge must print for a
        game that ended with ``outcome``: the conformance checks compare the two.  ``None``:
        the game's judge reads something else (the check is then skipped)."""
        return None


def number_text(value: float | None) -> str:
    """A score as a judge prints it: ``12`` for 12.0."""
    return str(int(value)) if value is not None and float(value).is_integer() else str(value)


def tokens(text: str) -> list[tuple[str, int]]:
    """Whitespace-separated tokens of ``text`` with their 1-based line numbers
    (``\\r`` counts as whitespace, like ``scanf``)."""
    out: list[tuple[str, int]] = []
    for number, line in enumerate(text.replace("\r", " ").split("\n"), start=1):
        out.extend((token, number) for token in line.split())
    return out


class TokenReader:
    """Reads whitespace-separated tokens with line numbers, raising ``error``
    (``BadInput`` or ``BadOutput``) that says what was expected and where."""

    def __init__(self, text: str, error: type[BadInput | BadOutput] = BadOutput):
        self._tokens = tokens(text)
        self._pos = 0
        self._error = error
        self._last_line = text.count("\n") + 1

    @property
    def line(self) -> int:
        """The line of the next token (or the last line at the end)."""
        if self._pos < len(self._tokens):
            return self._tokens[self._pos][1]
        return self._tokens[-1][1] if self._tokens else 1

    def fail(self, message: str, line: int | None = None) -> Exception:
        return self._error(message, line=self.line if line is None else line)

    def at_end(self) -> bool:
        return self._pos >= len(self._tokens)

    def word(self, what: str) -> str:
        """The next token; ``what`` names it in the error when input ends."""
        if self.at_end():
            raise self.fail(f"expected {what}, found the end of the input")
        token = self._tokens[self._pos][0]
        self._pos += 1
        return token

    def int(self, what: str, lo: int | None = None, hi: int | None = None) -> int:
        """The next token as an integer in [lo, hi]."""
        line = self.line
        token = self.word(what)
        if not _INTEGER.fullmatch(token):  # int() alone would take '1_0' or non-ASCII digits
            raise self.fail(f"expected {what} (an integer), found {token!r}", line)
        value = int(token)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = f"from {lo} to {hi}" if lo is not None and hi is not None else (
                f"at least {lo}" if lo is not None else f"at most {hi}")
            raise self.fail(f"expected {what} {bounds}, found {value}", line)
        return value

    def end(self, what: str = "the end of the input") -> None:
        """Require that nothing is left."""
        if not self.at_end():
            token, line = self._tokens[self._pos]
            raise self.fail(f"expected {what}, found extra token {token!r}", line)

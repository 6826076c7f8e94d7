"""A contest's configuration: ``contest.toml`` in the contest's folder, read and checked.

The file is for a person to read and edit; every key has a default but the game and the boards.
This module needs no Django: ``arena check --contest DIR`` reads the same file on a contestant's
laptop, so that the check there is the server's check.  A mistake in the file is an ``ArenaError``
naming the file, the key, what was found and what was expected.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from arena.errors import ArenaError

#: The configuration's file name in a contest folder.
CONFIG = "contest.toml"
#: Where ``arena contest new`` copies the boards: the public samples and the hidden final boards.
SAMPLE_BOARDS = "boards/sample"
FINAL_BOARDS = "boards/final"
#: The house bots (copied in): the check's opponents.
HOUSE = "house"

FEEDBACK = ("compile", "first-move", "games")
REGISTRATION = ("invite", "open")
SYSTEMS = ("round-robin", "swiss", "gauntlet", "knockout")
SEEDINGS = ("given", "ladder")


@dataclass(frozen=True)
class Limits:
    """Per invocation, as ``arena run``'s options of the same names (None: the game's own)."""

    cpu: float | None = None  # seconds of CPU per invocation
    wall: float | None = None  # seconds of wall clock (default 3 x cpu)
    memory: int = 256  # MiB
    disk: int = 16  # MiB of a bot's folder


@dataclass(frozen=True)
class Submissions:
    """What one contestant may upload."""

    max_bytes: int = 1 * 2**20  # one upload as sent
    max_files: int = 100  # files in an archive
    max_unpacked_bytes: int = 16 * 2**20  # an archive's files once unpacked
    per_hour: int = 10
    per_day: int = 50


@dataclass(frozen=True)
class Final:
    """The final testing: an ``arena run`` of the entries on the final boards."""

    system: str = "round-robin"
    rounds: int | None = None  # swiss
    challengers: tuple[str, ...] = ()  # gauntlet: the contestants' names
    cluster: str = ""  # a Dask scheduler's address; "" plays on this machine
    jobs: int | None = None  # games in parallel (default: the cores)
    seeding: str = "given"  # swiss and knockout: "given" (the entries by name) or "ladder" (its standings)


@dataclass(frozen=True)
class Ladder:
    """The ladder during the round: rated games among the entries, on the runner's spare time."""

    enabled: bool = False
    boards: tuple[str, ...] = ()  # board files or folders, under the contest folder; () is boards/sample
    games: int = 2  # ladder games the runner plays each time it finds no check queued (a pair: both seats)
    # the standings shown to every contestant during the round (else each sees their own)
    visible: bool = True
    pause_after: int = 6  # an entry that faults in each of its last this many ladder games is paused
    # After the deadline the ladder plays on until the intervals of its first settle_places places are
    # separated and every entry is rated as surely as its neighbours, or settle_games games (0: it stops).
    settle_places: int = 3
    settle_games: int = field(default=2000, metadata={"least": 0})
    # Challenges (unrated, on the same spare time): a contestant's entry against another's or a house bot, for
    # at most challenge_pairs pairs, or an SPRT between two of their own submissions, for at most sprt_pairs.
    challenges_per_hour: int = field(default=4, metadata={"least": 0})
    challenge_pairs: int = 10
    sprt_pairs: int = 200


@dataclass(frozen=True)
class Contest:
    """``contest.toml``, checked."""

    folder: Path
    title: str
    game: str
    deadline: dt.datetime  # aware (the file gives an offset, or UTC is meant)
    feedback: str = "first-move"
    registration: str = "invite"
    languages: tuple[str, ...] = ()  # language names of 'arena languages' allowed; () allows every one
    limits: Limits = field(default_factory=Limits)
    submissions: Submissions = field(default_factory=Submissions)
    final: Final = field(default_factory=Final)
    ladder: Ladder = field(default_factory=Ladder)

    @property
    def sample_boards(self) -> Path:
        return self.folder / SAMPLE_BOARDS

    @property
    def final_boards(self) -> Path:
        return self.folder / FINAL_BOARDS

    @property
    def ladder_boards(self) -> list[Path]:
        """Where the ladder's boards are: ``[ladder] boards`` under the folder, else the sample boards."""
        return [self.folder / given for given in self.ladder.boards] or [self.sample_boards]

    def refusal(self, language: str | None) -> str:
        """Why a bot of ``language`` is refused by this contest ("" if it is not)."""
        if not self.languages or language in self.languages:
            return ""
        return (f"{language or 'an executable'} is not a language of this contest "
                f"(allowed: {', '.join(self.languages)}).")

    @property
    def house(self) -> list[Path]:
        """The house bots, each a file or folder under ``house/``."""
        folder = self.folder / HOUSE
        return sorted(path for path in folder.iterdir() if not path.name.startswith((".", "_"))) \
            if folder.is_dir() else []


def load(folder: Path) -> Contest:
    """The contest of ``folder`` (its ``contest.toml``), or an ArenaError saying what is wrong."""
    path = Path(folder) / CONFIG
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ArenaError(f"{str(folder)!r} is not a contest folder: it has no {CONFIG} "
                         "(arena contest new makes one)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read {str(path)!r}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ArenaError(f"{str(path)!r} is not valid TOML: {exc}") from None
    return parse(data, Path(folder).absolute(), str(path))


def parse(data: dict[str, Any], folder: Path, where: str) -> Contest:
    """``contest.toml``'s table, checked key by key."""
    top = _Table(data, where, "")
    contest = Contest(
        folder=folder,
        title=top.text("title", default="Contest"),
        game=top.text("game"),
        deadline=top.moment("deadline"),
        feedback=top.choice("feedback", FEEDBACK, default="first-move"),
        registration=top.choice("registration", REGISTRATION, default="invite"),
        languages=tuple(top.texts("languages")),
        limits=top.table("limits").fill(Limits),
        submissions=top.table("submissions").fill(Submissions),
        final=top.table("final").fill(Final),
        ladder=top.table("ladder").fill(Ladder),
    )
    top.done()
    for given in contest.ladder.boards:
        if Path(given).is_absolute() or ".." in Path(given).parts:
            raise ArenaError(f"{where}: ladder.boards has {given!r}; expected a path under the contest "
                             "folder")
    if contest.final.system not in SYSTEMS:
        raise ArenaError(f"{where}: final.system is {contest.final.system!r}; expected one of "
                         f"{', '.join(SYSTEMS)}")
    if contest.final.seeding not in SEEDINGS:
        raise ArenaError(f"{where}: final.seeding is {contest.final.seeding!r}; expected one of "
                         f"{', '.join(SEEDINGS)}")
    if contest.final.seeding == "ladder" and contest.final.system not in ("swiss", "knockout"):
        raise ArenaError(f"{where}: final.seeding is 'ladder', but a {contest.final.system} final is not "
                         "seeded (seeding is for final.system swiss or knockout)")
    if contest.final.seeding == "ladder" and not contest.ladder.enabled:
        raise ArenaError(f"{where}: final.seeding is 'ladder', but the ladder is off (ladder.enabled = "
                         "false)")
    return contest


class _Table:
    """One TOML table being read: each key taken is checked, and a key never taken is an error."""

    def __init__(self, data: Any, where: str, prefix: str):
        if not isinstance(data, dict):
            raise ArenaError(f"{where}: {prefix.rstrip('.') or 'the file'} must be a table, got {data!r}")
        self.data, self.where, self.prefix = data, where, prefix
        self.taken: set[str] = set()

    def _get(self, key: str, default: Any) -> Any:
        self.taken.add(key)
        if key not in self.data:
            if default is _REQUIRED:
                raise ArenaError(f"{self.where}: {self.prefix}{key} is missing")
            return default
        return self.data[key]

    def _bad(self, key: str, value: Any, expected: str) -> ArenaError:
        return ArenaError(f"{self.where}: {self.prefix}{key} is {value!r}; expected {expected}")

    def text(self, key: str, default: Any = None) -> str:
        value = self._get(key, _REQUIRED if default is None else default)
        if not isinstance(value, str) or not value.strip():
            raise self._bad(key, value, "a non-empty string")
        return value

    def texts(self, key: str) -> list[str]:
        value = self._get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self._bad(key, value, "a list of strings")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self._get(key, default)
        if value not in choices:
            raise self._bad(key, value, f"one of {', '.join(map(repr, choices))}")
        return value

    def moment(self, key: str) -> dt.datetime:
        value = self._get(key, _REQUIRED)
        if isinstance(value, str):
            try:
                value = dt.datetime.fromisoformat(value)
            except ValueError:
                raise self._bad(key, value, "a date and time such as 2027-03-01T18:00:00+02:00") from None
        if not isinstance(value, dt.datetime):
            raise self._bad(key, value, "a date and time such as 2027-03-01T18:00:00+02:00")
        # (TOML's local date-times have no zone: the contest's times are UTC unless the file says otherwise)
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)

    def table(self, key: str) -> _Table:
        return _Table(self._get(key, {}), self.where, f"{self.prefix}{key}.")

    def fill(self, kind: type) -> Any:
        """The dataclass ``kind`` from this table, each key typed as the field's default is."""
        values = {}
        for item in fields(kind):
            default = item.default
            value = self._get(item.name, default)
            values[item.name] = self._typed(item.name, value, default, item.type,
                                            item.metadata.get("least", 1))
        self.done()
        return kind(**values)

    def _typed(self, key: str, value: Any, default: Any, declared: Any, least: int) -> Any:
        if value is default:
            return value
        declared = str(declared)
        if declared.startswith("bool"):
            if not isinstance(value, bool):
                raise self._bad(key, value, "true or false")
            return value
        if declared.startswith("tuple"):
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise self._bad(key, value, "a list of strings")
            return tuple(value)
        if declared.startswith("float"):
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise self._bad(key, value, "a number above 0")
            return float(value)
        if declared.startswith("int"):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise self._bad(key, value, f"a whole number of at least {least}")
            return value
        if not isinstance(value, str):
            raise self._bad(key, value, "a string")
        return value

    def done(self) -> None:
        if unknown := sorted(set(self.data) - self.taken):
            raise ArenaError(f"{self.where}: unknown key{'s' * (len(unknown) > 1)} "
                             f"{', '.join(self.prefix + key for key in unknown)}")


_REQUIRED = object()


def render(title: str, game: str, deadline: dt.datetime, feedback: str, registration: str) -> str:
    """A new contest's ``contest.toml``: every key written out with its default and what it means."""
    return f'''# The contest's configuration (arena contest new wrote it; edit it, then restart arena serve).
title = {_toml(title)}
# The game (arena games lists them). The boards are in boards/sample (public: the check on submission
# plays them) and boards/final (hidden: the final testing); the house bots, the check's opponents, in house/.
game = {_toml(game)}
# Submissions are taken until then (a time zone offset, or UTC). The organiser can extend it on the site.
deadline = {deadline.isoformat()}
# What the check on submission tells a contestant: "compile" (whether it compiled), "first-move"
# (whether its first move on each sample board is valid, in each seat), or "games" (whole games
# against the house bots on the sample boards, with their replays).
feedback = {_toml(feedback)}
# "invite": contestants register by a link the organiser makes; "open": anyone may register.
registration = {_toml(registration)}
# The languages allowed, by their names in 'arena languages' (empty: every one).
languages = []

[limits]
# Per invocation, as arena run's options: cpu and wall in seconds (left out: the game's own),
# memory and disk (a bot's folder) in MiB.
memory = 256
disk = 16

[submissions]
max_bytes = {Submissions.max_bytes}            # one upload
max_files = {Submissions.max_files}                # files in an archive
max_unpacked_bytes = {Submissions.max_unpacked_bytes}   # an archive's files once unpacked
per_hour = {Submissions.per_hour}
per_day = {Submissions.per_day}

[final]
# The final testing: arena run of every contestant's entry on boards/final, with --system (round-robin,
# swiss, gauntlet, knockout); rounds for swiss, challengers (contestants' names) for gauntlet;
# cluster: a Dask scheduler's address to play it on (arena run --cluster), "" for this machine.
# seeding (swiss and knockout): "given" (the entries by name), or "ladder" (by the ladder's standings).
system = "round-robin"
cluster = ""
seeding = "given"

[ladder]
# Rated games among the entries during the round, on the runner's time the checks leave (checks go first):
# each entry plays the others on these boards (under the folder; empty: boards/sample), in both seats, with
# the limits above; "games" is how many the runner plays before it looks at its queue again. visible: every
# contestant sees the standings (false: each sees only their own entry's line). pause_after: an entry that
# faults in each of its last this many ladder games is paused until its author submits another.
# After the deadline it plays on until the intervals of its first settle_places places are separated and
# every entry is rated as surely as its neighbours, or until settle_games more games (0: it stops then).
enabled = false
boards = []
games = {Ladder.games}
visible = true
pause_after = {Ladder.pause_after}
settle_places = {Ladder.settle_places}
settle_games = {Ladder.settle_games}
# Challenges (unrated, on the same spare time): a contestant may ask for challenges_per_hour an hour (0: none),
# their entry against another's or a house bot for at most challenge_pairs pairs, or an SPRT between two of
# their own submissions (arena match --sprt) for at most sprt_pairs pairs. Each sees only their own.
challenges_per_hour = {Ladder.challenges_per_hour}
challenge_pairs = {Ladder.challenge_pairs}
sprt_pairs = {Ladder.sprt_pairs}
'''


def _toml(text: str) -> str:
    """A TOML basic string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in escaped) + '"'

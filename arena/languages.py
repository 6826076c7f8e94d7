"""The languages bots are written in, as one table: how a source is recognised, compiled and run.

The table is ``arena/languages.toml`` (its comments explain each field); an
organiser's file (``--languages FILE``) adds rows or replaces rows of the same
name.  C, C++ and Python are rows like Java or Rust: nothing else in the arena
names a language.  ``arena languages`` shows the table with what this machine
has of it.

The sandbox sees ``/usr`` and no other program folder, so a toolchain is
looked for on the sandbox's own ``PATH`` (and in the row's ``binds``): one
installed elsewhere (rustup's ``~/.cargo``, sdkman, nvm) is reported as
invisible to the sandbox, with the Debian package that would put it in
``/usr``.
"""

from __future__ import annotations

import functools
import os
import shutil
import string
import subprocess
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError

TABLE = Path(__file__).with_name("languages.toml")
#: The sandbox's PATH: where it finds programs.
SANDBOX_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
#: Variables that depend on a tournament's limits: left in a bot's command until its game is played.
LIMIT_VARIABLES = ("memory_mib", "heap_mib")
_LISTS = ("suffixes", "compile", "run", "run_folder", "version", "startup", "binds")
#: The variables a command may name (languages.toml explains each).
VARIABLES = ("source", "sources", "stem", "output", "build", "python", "cc", "cflags", "cxx", "cxxflags",
             "libraries", *LIMIT_VARIABLES)
_KNOWN = {*_LISTS, "main", "package", "env", "resident"}


@dataclass(frozen=True)
class Language:
    """One row of the table (see languages.toml for what each field means)."""

    name: str
    suffixes: tuple[str, ...]
    main: str
    run: tuple[str, ...]
    compile: tuple[str, ...] = ()
    run_folder: tuple[str, ...] = ()
    version: tuple[str, ...] = ()
    startup: tuple[str, ...] = ()
    package: str = ""
    binds: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    resident: bool = False

    def existing_binds(self) -> tuple[str, ...]:
        return tuple(place for place in self.binds if Path(place).is_dir())

    def to_config(self) -> dict[str, Any]:
        """The row as tournament.json records it."""
        row = {"suffixes": list(self.suffixes), "compile": " ".join(self.compile) if self.compile else None,
               "run": " ".join(self.run)}
        if self.env:
            row["env"] = dict(self.env)
        return row


@dataclass(frozen=True)
class Languages:
    """The table in force: the shipped rows, with an organiser's file's over them."""

    rows: tuple[Language, ...]
    files: tuple[str, ...] = ()  # the organiser's files read, in order

    def of(self, filename: str) -> Language | None:
        """The language of a source file, by its ending (any case), or None."""
        suffix = Path(filename).suffix.lower()
        return next((row for row in self.rows if suffix in row.suffixes), None)

    def get(self, name: str) -> Language:
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(name)

    def mains(self) -> tuple[str, ...]:
        """The main files a folder bot may hold, in the order they are looked for."""
        return tuple(row.main for row in self.rows)

    def suffixes(self) -> list[str]:
        return [suffix for row in self.rows for suffix in row.suffixes]


@functools.cache
def shipped() -> Languages:
    return Languages(tuple(parse(TABLE.read_text(encoding="utf-8"), str(TABLE))))


def load(extra: str | Path | None = None) -> Languages:
    """The shipped table, with the rows of ``extra`` (an organiser's file) added or put in place of
    the rows of the same name; a clear ``ArenaError`` for a file that is not a table of languages."""
    table = shipped()
    if extra is None:
        return table
    try:
        text = Path(extra).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read the languages file {str(extra)!r}: {exc}") from None
    rows = {row.name: row for row in table.rows}
    for row in parse(text, str(extra)):
        rows[row.name] = row
    return Languages(tuple(rows.values()), (*table.files, str(Path(extra).absolute())))


def parse(text: str, where: str) -> list[Language]:
    """The rows of a languages file, or an ``ArenaError`` naming the file, the row and what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ArenaError(f"languages file {where!r}: not TOML: {exc}") from None
    return [_row(name, fields, where) for name, fields in data.items()]


def _row(name: str, fields: Any, where: str) -> Language:
    def problem(text: str) -> ArenaError:
        return ArenaError(f"languages file {where!r}, [{name}]: {text} (see arena/languages.toml for the form)")

    if not isinstance(fields, dict):
        raise problem("expected a table of fields")
    if unknown := sorted(set(fields) - _KNOWN):
        raise problem(f"unknown field {unknown[0]!r}; the fields are {', '.join(sorted(_KNOWN))}")
    for key in _LISTS:
        value = fields.get(key, [])
        if not isinstance(value, list) or not all(isinstance(word, str) and word for word in value):
            raise problem(f"{key} must be a list of words (strings), got {value!r}")
    for key in ("main", "package"):
        if not isinstance(fields.get(key, ""), str):
            raise problem(f"{key} must be a string")
    env = fields.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise problem("env must be a table of strings")
    if not isinstance(fields.get("resident", False), bool):
        raise problem("resident must be true or false")
    if not fields.get("suffixes") or not fields.get("run") or not fields.get("main"):
        raise problem("suffixes, main and run are needed")
    for word in [*(w for key in ("compile", "run", "run_folder", "version", "startup") for w in fields.get(key, [])),
                 *env.values()]:
        try:
            named = [field for _, field, _, _ in string.Formatter().parse(word) if field is not None]
        except ValueError as exc:
            raise problem(f"{word!r}: {exc}") from None
        if unknown := [field for field in named if field not in VARIABLES]:
            raise problem(f"unknown variable {{{unknown[0]}}} in {word!r}; the variables are {', '.join(VARIABLES)}")
    if any(not suffix.startswith(".") or suffix != suffix.lower() for suffix in fields["suffixes"]):
        raise problem(f"suffixes are lower-case file endings such as '.rs', got {fields['suffixes']!r}")
    return Language(
        name=name, suffixes=tuple(fields["suffixes"]), main=fields["main"], run=tuple(fields["run"]),
        **{key: tuple(fields.get(key, ())) for key in ("compile", "run_folder", "version", "startup", "binds")},
        package=fields.get("package", ""), env=tuple(sorted(env.items())), resident=fields.get("resident", False),
    )


# ---------------------------------------------------------------- commands


class _Variables(dict):
    def __missing__(self, key: str) -> str:
        if key in LIMIT_VARIABLES:
            return "{" + key + "}"  # filled in when the game is played (``with_limits``)
        raise ArenaError(f"unknown variable {{{key}}} in a language's command; the variables are "
                         f"{', '.join(sorted({*self, *LIMIT_VARIABLES}))}")


def expand(words: Sequence[str], variables: Mapping[str, str | list[str]]) -> list[str]:
    """A command of the table with its variables replaced: a word that is only a variable of several
    words (``{cflags}``, ``{sources}``) becomes those words; the limits' variables are left for
    ``with_limits``."""
    values = _Variables({key: value for key, value in variables.items() if isinstance(value, str)})
    result: list[str] = []
    for word in words:
        whole = word[1:-1] if word.startswith("{") and word.endswith("}") else None
        if whole is not None and isinstance(variables.get(whole), list):
            result.extend(variables[whole])
        else:
            result.append(word.format_map(values))
    return result


def with_limits(words: Sequence[str], memory: int) -> tuple[str, ...]:
    """A bot's command (or environment values) with the limits' variables filled in."""
    if not any("{" in word for word in words):
        return tuple(words)
    mib = memory // 2**20
    values = {"memory_mib": str(mib), "heap_mib": str(max(8, mib // 2))}
    return tuple(word.format_map(_Variables(values)) if "{" in word else word for word in words)


def python() -> str:
    """The Python bots of the python row run on: the arena's own."""
    return sys.executable


# ---------------------------------------------------------------- this machine


def locate(command: Sequence[str], row: Language, *, sandboxed: bool) -> list[str] | str:
    """The command with its program found (an absolute path: a sandbox's supervisor searches no
    PATH), or why it cannot run here: missing, or, for a sandbox, installed where it cannot see it."""
    program = command[0]
    if os.path.isabs(program) or "{" in program:
        return list(command)
    places = [*SANDBOX_PATH, *(str(Path(place) / "bin") for place in row.existing_binds())]
    found = shutil.which(program, path=os.pathsep.join(places) if sandboxed else None)
    if found:
        return [found, *command[1:]]
    install = f"apt-get install {row.package}" if row.package else "install it"
    elsewhere = shutil.which(program)
    if sandboxed and elsewhere:
        return (f"{program} is at {elsewhere}, outside /usr, where the sandbox cannot see it: install the "
                f"Debian package ({install}), or add its folder to the {row.name} row's binds in a "
                "--languages file")
    return f"no {program!r} on this machine for {row.name} bots: {install}"


def version(row: Language, variables: Mapping[str, str | list[str]], *, sandboxed: bool) -> str:
    """The version of a row's toolchain, as the sandbox (or, not sandboxed, PATH) finds it."""
    if not row.version:
        return ""
    command = locate(expand(row.version, variables), row, sandboxed=sandboxed)
    return "not installed" if isinstance(command, str) else version_of(tuple(command))


@functools.cache
def version_of(command: tuple[str, ...]) -> str:
    """The first line a toolchain prints of its version (asked once per process)."""
    if not command or (not os.path.isabs(command[0]) and shutil.which(command[0]) is None):
        return "not installed"
    try:
        proc = subprocess.run(list(command), capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "version unknown"
    lines = (proc.stdout or proc.stderr).strip().splitlines()
    return lines[0].strip() if lines else "version unknown"

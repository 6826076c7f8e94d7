"""Find and prepare bots: sources of the languages of ``arena/languages.toml``, executables, and folders of them.

A bot is one of:

* a file: a source of one of the languages (``greedy.py``, ``bot.c``,
  ``Bot.java``, ``bot.rs``, ...: compiled if its language is, then run as
  its row says), or any executable; its name is the file's stem;
* a folder holding a language's main file (``main.py``, ``main.c``,
  ``Main.java``, ...) or an executable ``run``; its name is the folder's, and
  its other files are beside its program (``import helper`` works in
  ``main.py``; ``#include "helper.h"`` in ``main.c``; data files are in the
  program's own folder).

Each bot is **copied once per tournament** into a folder of its own under the
tournament's ``bots/`` (``NAME-HASH``, read-only); the copy is what runs and
what its SHA-256 names, so editing a bot during a tournament changes nothing.
A compiled language is compiled there, inside the sandbox (seeing only the
bot's own files and the toolchain, with CPU, time and memory limits), with
the commands of its row; C and C++ with the compilers and flags of
``Compilers`` (``CC``, ``CXX``, ``CFLAGS``, ``CXXFLAGS`` from the
environment, as make reads them).  What the compiler wrote is kept beside the
source (``STEM.KEY.build/``) and reused when the copy already holds one built
from the same sources with the same command and toolchain version (a resumed
tournament compiles nothing).

Folders that are not bots (no main program), and files whose names start
with ``_`` or ``.`` (helpers, editor leftovers), are skipped with a notice.
A source that does not compile, or a file that cannot be executed, excludes
that bot with the reason; it does not stop the tournament.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import languages as table
from arena.errors import ArenaError
from arena.languages import Language, Languages
from arena.text import check_name

#: A folder bot's main program when it is none of a language's: an executable.
RUN = "run"
#: How the names of helpers and editor leftovers start: never a bot of their own.
HELPER_STARTS = ("_", ".")
#: The folder, inside the results folder, that holds the bots' read-only copies (by name and hash).
COPIES = ".bots"
#: Bytes a bot (all its files) may take.
MAX_SIZE = 64 * 2**20
#: Characters of a compiler's message kept as the reason a bot is excluded.
MESSAGE = 2000

#: How a Python file bot is run, but for the file (the python row of the table; for tests that
#: run shipped bots by hand).
PYTHON = tuple(table.expand(table.shipped().get("python").run[:-1], {"python": sys.executable}))


@dataclass(frozen=True)
class Compilers:
    """How bots are built: the language table in force, and the compilers and flags of C and C++
    (make's variables, with defaults), which its c and cpp rows name."""

    cc: str = "cc"
    cxx: str = "c++"
    cflags: str = "-O2 -std=gnu11"
    cxxflags: str = "-O2 -std=c++17"
    libraries: str = "-lm"
    languages: Languages = field(default_factory=table.shipped)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ, languages: Languages | None = None,
                         **given: str | None) -> Compilers:
        """Options given (``--cc`` ...) first, then CC, CXX, CFLAGS, CXXFLAGS, then the defaults."""
        values: dict[str, Any] = {}
        for name in ("cc", "cxx", "cflags", "cxxflags"):
            value = given.get(name) or environ.get(name.upper())
            if value:
                values[name] = value
        return cls(**values, **({"languages": languages} if languages else {}))

    def variables(self) -> dict[str, str | list[str]]:
        """The table's variables that do not depend on a bot: the compilers and flags, and the Python."""
        return {"python": sys.executable,
                **{name: shlex.split(getattr(self, name)) for name in ("cc", "cxx", "cflags", "cxxflags", "libraries")}}

    def describe(self, bots: Sequence[Bot], *, sandboxed: bool) -> dict[str, dict[str, Any]]:
        """What goes into tournament.json: the row of each language the bots are in, with the version
        of its toolchain."""
        used = {bot.language for bot in bots if bot.language}
        variables = self.variables()
        return {row.name: {**row.to_config(), "version": table.version(row, variables, sandboxed=sandboxed)}
                for row in self.languages.rows if row.name in used}


@dataclass(frozen=True)
class Bot:
    """A bot ready to run."""

    name: str  # file stem or folder name
    path: Path  # the source file or folder, as given (absolute)
    command: tuple[str, ...]  # what to execute (absolute paths into ``home``)
    sha256: str  # hash of the bot's files (for a folder: of every file's path, mode and content)
    home: Path | None = None  # the read-only copy the command runs from
    programs: tuple[str, ...] = field(default=())  # host folders its sandbox binds read-only
    language: str | None = None  # its row of the language table (None: an executable)
    env: tuple[tuple[str, str], ...] = ()  # environment variables its language sets
    resident: bool = False  # its runtime reserves more address space than it uses (see languages.toml)


@dataclass(frozen=True)
class Excluded:
    """A bot file that cannot play, and why."""

    path: Path
    reason: str

    @property
    def name(self) -> str:
        """The name it would have played by."""
        return self.path.stem if self.path.is_file() else self.path.name


#: (command, source folder, output folder, the language's row) -> "" or why it failed
Compile = Callable[[list[str], Path, Path, Language], str]


def prepare_bots(
    paths: Sequence[str],
    copies: Path,
    log: Callable[[str], None] = print,
    *,
    compilers: Compilers | None = None,
    compile: Compile | None = None,
    sandboxed: bool = False,
) -> tuple[list[Bot], list[Excluded]]:
    """Turn the command line's bot paths into bots, each copied into
    ``copies`` (and compiled there), and the paths that cannot be bots.

    ``compile`` runs a compiler (by default without a sandbox; ``arena run``
    passes the sandboxed one, and ``sandboxed``: a toolchain must then be
    where the sandbox sees it).  Raises ``ArenaError`` for a path that does not
    exist and for two bots with the same name, before anything is copied."""
    compilers = compilers or Compilers()
    candidates = [path for path in map(Path, paths) if _is_candidate(path, log, compilers.languages)]
    _check_names(candidates)
    bots: list[Bot] = []
    excluded: list[Excluded] = []
    for path in candidates:
        result = prepare_bot(path.absolute(), Path(copies), compilers=compilers, compile=compile, sandboxed=sandboxed)
        (bots if isinstance(result, Bot) else excluded).append(result)
    return bots, excluded


def prepare_bot(path: Path, copies: Path, *, compilers: Compilers | None = None,
                compile: Compile | None = None, sandboxed: bool = False) -> Bot | Excluded:
    """One bot (an absolute path to a file or folder) as a bot, or why it cannot be one."""
    compilers = compilers or Compilers()
    try:
        files = _read_bot(path, compilers.languages)
    except _NotABot as exc:
        return Excluded(path, str(exc))
    sha = _hash(files, folder=path.is_dir())
    name = path.stem if path.is_file() else path.name
    main = path.name if path.is_file() else _main_of(path, compilers.languages)
    home = _copy(files, Path(copies).absolute() / f"{name}-{sha[:16]}")
    program = home / main
    row = compilers.languages.of(main) if path.is_file() or main != RUN else None
    if row is None:
        return _executable(path, name, program, sha, home, compilers.languages)
    variables: dict[str, Any] = {
        **compilers.variables(), "source": str(program), "stem": program.stem,
        "sources": sorted(str(place) for place in home.rglob("*") if place.suffix.lower() in row.suffixes),
    }
    if row.compile:
        build = _build(program, row, variables, compile or compile_plainly, sandboxed)
        if isinstance(build, str):
            return Excluded(path, build)
        variables["build"] = str(build)
    command = table.locate(table.expand(row.run_folder if path.is_dir() and row.run_folder else row.run, variables),
                           row, sandboxed=sandboxed)
    if isinstance(command, str):
        return Excluded(path, f"cannot run: {command}")
    env = tuple((key, table.expand([value], variables)[0]) for key, value in row.env)
    return Bot(name, path, tuple(command), sha, home, (str(home), *row.existing_binds()), row.name, env, row.resident)


def _executable(path: Path, name: str, program: Path, sha: str, home: Path, languages: Languages) -> Bot | Excluded:
    """A bot that is a program of its own (no language of the table)."""
    if not os.access(program, os.X_OK):
        endings = ", ".join(languages.suffixes())
        return Excluded(path, f"not executable: chmod +x it, or name it with a language's ending ({endings})")
    with open(program, "rb") as handle:
        first = handle.readline(4096)
    if first.startswith(b"#!") and first.endswith(b"\r\n"):
        interpreter = first[2:-1].decode(errors="replace").lstrip(" \t").split(" ")[0]
        return Excluded(path, "its #! line ends in a carriage return (the file has Windows line endings, so "
                        f"the system looks for a program named '{interpreter}'): convert it, e.g. with dos2unix")
    return Bot(name, path, (str(program),), sha, home, (str(home),))


class _NotABot(Exception):
    pass


def folder_mains(languages: Languages) -> tuple[str, ...]:
    """The main programs a folder bot may hold, in the order they are looked for: a language's main
    file, else an executable ``run``."""
    return (*languages.mains(), RUN)


def main_among(is_file: Callable[[str], bool], languages: Languages) -> str | None:
    """A folder bot's main program: the first of ``folder_mains`` for which ``is_file`` (given a
    name in the folder) is true, or None.  (``arena.contest.uploads`` asks it of an archive's
    names before anything is written.)"""
    return next((main for main in folder_mains(languages) if is_file(main)), None)


def _main_of(folder: Path, languages: Languages) -> str:
    main = main_among(lambda name: (folder / name).is_file(), languages)
    if main is None:
        raise _NotABot(f"a folder bot holds one of {', '.join(folder_mains(languages))}")
    return main


def _read_bot(path: Path, languages: Languages) -> dict[str, tuple[bytes, bool]]:
    """relative path -> (content, executable) of every file of the bot."""
    try:
        if path.is_file():
            return {path.name: (path.read_bytes(), os.access(path, os.X_OK))}
        _main_of(path, languages)
        files, size = {}, 0
        for place in sorted(path.rglob("*")):
            relative = place.relative_to(path).as_posix()
            if place.is_symlink() or not (place.is_file() or place.is_dir()):
                raise _NotABot(f"{relative!r} is a symbolic link or a special file: a bot's files are plain files")
            if place.is_file():
                data = place.read_bytes()
                size += len(data)
                if size > MAX_SIZE:
                    raise _NotABot(f"its files take more than {MAX_SIZE // 2**20} MiB")
                files[relative] = (data, os.access(place, os.X_OK))
        return files
    except OSError as exc:
        raise _NotABot(f"cannot be read: {exc.strerror}") from None


def _hash(files: dict[str, tuple[bytes, bool]], folder: bool) -> str:
    """A file bot: the SHA-256 of its content.  A folder bot: of every file's
    path, executable bit and content, in order."""
    if not folder:
        return hashlib.sha256(next(iter(files.values()))[0]).hexdigest()
    digest = hashlib.sha256()
    for relative, (data, executable) in sorted(files.items()):
        digest.update(f"{relative}\0{int(executable)}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


@contextlib.contextmanager
def _locked(place: Path) -> Iterator[None]:
    """Hold ``PLACE.lock`` (an flock, which dies with its process) while ``place`` is made: the
    processes of a machine, or of several sharing the folder over NFS, make it one at a time, and
    none removes what another has made or is running from."""
    fd = os.open(place.with_name(place.name + ".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _copy(files: dict[str, tuple[bytes, bool]], home: Path) -> Path:
    """Write the bot's files into ``home`` (read-only), unless a complete copy is there."""
    if (home / ".complete").exists():
        return home
    home.parent.mkdir(parents=True, exist_ok=True)
    with _locked(home):
        if (home / ".complete").exists():  # made by another process meanwhile
            return home
        partial = home.with_name(f"{home.name}.partial")
        _remove(partial)
        for relative, (data, executable) in files.items():
            target = partial / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            target.chmod(0o555 if executable else 0o444)
        (partial / ".complete").write_text("")
        _read_only(partial)
        _remove(home)  # an incomplete copy, of a process killed while it wrote: nothing runs from it
        os.replace(partial, home)
    return home


def _remove(folder: Path) -> None:
    """Remove a folder the arena made read-only."""
    if not folder.exists():
        return
    for place in [folder, *folder.rglob("*")]:
        if place.is_dir() and not place.is_symlink():
            place.chmod(0o755)
    shutil.rmtree(folder)


def _read_only(folder: Path) -> None:
    """Folders 0555, so nothing can be added or renamed in the copy."""
    for place in [folder, *folder.rglob("*")]:
        if place.is_dir() and not place.is_symlink():
            place.chmod(0o555)


def _build(program: Path, row: Language, variables: dict[str, Any], compile: Compile, sandboxed: bool) -> Path | str:
    """What the compiler writes for ``program`` (a folder beside it), compiled unless already there;
    or why it cannot be."""
    template = table.expand(row.compile, {**variables, "output": "{output}"})
    version = table.version(row, variables, sandboxed=sandboxed)
    key = hashlib.sha256(json.dumps([template, version]).encode())  # a new compiler or flags rebuild
    for source in variables["sources"]:
        key.update(b"\0" + Path(source).read_bytes())
    build = program.with_name(f"{program.stem}.{key.hexdigest()[:12]}.build")
    if build.is_dir():
        return build
    if isinstance(problem := table.locate(template, row, sandboxed=sandboxed), str):
        return f"cannot compile: {problem}"
    folder = program.parent
    with _locked(folder):  # one build at a time into this copy, on this machine or any sharing it
        if build.is_dir():  # built by another process meanwhile
            return build
        folder.chmod(0o755)
        output = folder.parent / f".{folder.name}.{key.hexdigest()[:12]}.output"
        _remove(output)
        output.mkdir(mode=0o777)
        output.chmod(0o777)  # the sandbox's uid writes here
        try:
            command = table.locate(table.expand(row.compile, {**variables, "output": str(output)}), row,
                                   sandboxed=sandboxed)
            failure = compile(command, folder, output, row) or _keep_build(output, build)
            return failure or build
        finally:
            shutil.rmtree(output, ignore_errors=True)
            folder.chmod(0o555)


def _keep_build(output: Path, build: Path) -> str:
    """Copy what the compiler wrote into ``build`` (files the arena owns, read-only), or say why not:
    nothing written, or something other than files and folders (a symbolic link could point anywhere)."""
    partial = build.with_name(build.name + ".partial")
    _remove(partial)
    written = 0
    for place in sorted(output.rglob("*")):
        info = place.lstat()
        target = partial / place.relative_to(output)
        if stat.S_ISDIR(info.st_mode):
            target.mkdir(parents=True, exist_ok=True)
        elif stat.S_ISREG(info.st_mode):
            target.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(place, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as source, open(target, "wb") as copy:
                shutil.copyfileobj(source, copy)
            target.chmod(0o555 if info.st_mode & 0o111 else 0o444)
            written += 1
        else:
            shutil.rmtree(partial, ignore_errors=True)
            return f"the compiler wrote {str(place.relative_to(output))!r}, which is not a file or a folder"
    if not written:
        shutil.rmtree(partial, ignore_errors=True)
        return "the compiler wrote no program"
    _read_only(partial)
    os.replace(partial, build)
    return ""


def compile_plainly(command: list[str], folder: Path, output: Path, language: Language | None = None) -> str:
    """Run a compiler without a sandbox (``--no-sandbox``); "" on success, else its message."""
    env = {**os.environ, **{key: table.with_limits((value,), COMPILE_MEMORY)[0] for key, value in language.env}} \
        if language else None
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True, cwd=output, env=env)
    try:
        text, _ = proc.communicate(timeout=COMPILE_WALL)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        return f"compilation took more than {COMPILE_WALL:g} s"
    return compiler_message(command, proc.returncode, text.decode("utf-8", errors="replace"))


#: Limits of a compilation: seconds of CPU, seconds of wall time, bytes of memory.
COMPILE_CPU, COMPILE_WALL, COMPILE_MEMORY = 60.0, 120.0, 2 * 2**30
#: Processes and threads at once (a JVM's javac, rustc and go start a thread or more per core).
COMPILE_PROCESSES = 256


def compiler_message(command: list[str], code: int | None, text: str) -> str:
    """"" for a successful compilation, else the reason the bot is excluded (bounded)."""
    if code == 0:
        return ""
    message = text.strip()
    if len(message) > MESSAGE:
        message = message[:MESSAGE] + f"\n[... {len(message) - MESSAGE} more characters]"
    return f"compilation failed ({command[0]} exit status {code}):\n{message}"


def _is_candidate(path: Path, log: Callable[[str], None], languages: Languages) -> bool:
    """Whether a command-line path names a bot (missing paths raise)."""
    if not path.exists():
        raise ArenaError(f"bot {str(path)!r} does not exist")
    if path.name.startswith(HELPER_STARTS):
        log(f"skipping {str(path)!r}: a name starting with '_' or '.' marks a helper, not a bot")
        return False
    if path.is_dir() and main_among(lambda name: (path / name).is_file(), languages) is None:
        if path.name not in _quiet_folders():  # (bots/* names the other games' folders, and the templates)
            mains = ", ".join(folder_mains(languages))
            log(f"skipping {str(path)!r}: a folder is a bot only if it holds {mains} "
                f"(to play the bots inside it, name them, e.g. {str(path / '*')!r})")
        return False
    return True


def _quiet_folders() -> set[str]:
    """Folders skipped without a word: the templates, and those of one game's bots lying in another
    game's bots folder (``bots/tictactoe3d`` in ``bots``)."""
    from arena import games

    declared = set()
    for entry in games.installed().values():
        try:
            declared.update(path.resolve() for path in entry.paths("bots"))
        except games.GameError:
            continue
    return {"templates", *(path.name for path in declared if path.parent in declared)}


def _check_names(paths: list[Path]) -> None:
    """A bot's name is shown in tables, logs and pages, and names its games: it
    must be plain text (``arena.text.check_name``), and two bots may not share it."""
    first: dict[str, Path] = {}
    for path in paths:
        whole = path.absolute()  # (the name prepare_bot gives it: '.' is the folder's own name)
        name = whole.stem if path.is_file() else whole.name
        check_name(name, str(path), "bot file" if path.is_file() else "bot folder")
        other = first.setdefault(name, path)
        if other is path:
            continue
        if other.absolute() == path.absolute():
            raise ArenaError(f"bot {str(path)!r} is listed twice")
        raise ArenaError(f"two bots are named {name!r}: {str(other)!r} and {str(path)!r}; rename one")


"""Find and prepare bots: Python scripts, C / C++ sources, executables, and folders of them.

A bot is one of:

* a file: ``greedy.py`` (run with the arena's Python, with ``-P``), ``bot.c`` /
  ``bot.cpp`` (compiled), or any executable; its name is the file's stem;
* a folder holding ``main.py``, ``main.c``, ``main.cpp`` (or ``.cc``, ``.cxx``)
  or an executable ``run``; its name is the folder's, and its other files are
  beside its program (``import helper`` works in ``main.py``; ``#include
  "helper.h"`` in ``main.c``; data files are in the program's own folder).

Each bot is **copied once per tournament** into a folder of its own under the
tournament's ``bots/`` (``NAME-HASH``, read-only); the copy is what runs and
what its SHA-256 names, so editing a bot during a tournament changes nothing.
C and C++ are compiled there, inside the sandbox (seeing only the bot's own
files and the toolchain, with CPU, time and memory limits), with the
compiler and flags of ``Compilers`` (``CC``, ``CXX``, ``CFLAGS``,
``CXXFLAGS`` from the environment, as make reads them).  A binary is reused
when the copy already holds one built from the same source with the same
compiler and flags (a resumed tournament compiles nothing).

Folders that are not bots (no main program), and files whose names start
with ``_`` or ``.`` (helpers, editor leftovers), are skipped with a notice.
A source that does not compile, or a file that cannot be executed, excludes
that bot with the reason; it does not stop the tournament.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import ArenaError
from arena.text import check_name

#: Source suffixes and the language they are.
LANGUAGES = {".c": "c", ".cpp": "c++", ".cc": "c++", ".cxx": "c++"}
#: The main programs a folder bot may hold, in the order they are looked for.
MAINS = ("main.py", "main.c", "main.cpp", "main.cc", "main.cxx", "run")
#: The folder, inside the results folder, that holds the bots' read-only copies (by name and hash).
COPIES = ".bots"
#: Bytes a bot (all its files) may take.
MAX_SIZE = 64 * 2**20
#: Characters of a compiler's message kept as the reason a bot is excluded.
MESSAGE = 2000

#: How Python bots are run: the arena's own interpreter, and -P so that the
#: bot's folder is not put first on the import path (a bot named random.py
#: would otherwise shadow the standard library's random).  Folder bots are
#: run without -P: their folder is theirs, and ``import helper`` must work.
PYTHON = (sys.executable, "-P")


@dataclass(frozen=True)
class Compilers:
    """The compilers and flags for C and C++ (make's variables, with defaults)."""

    cc: str = "cc"
    cxx: str = "c++"
    cflags: str = "-O2 -std=gnu11"
    cxxflags: str = "-O2 -std=c++17"
    libraries: str = "-lm"

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ, **given: str | None) -> Compilers:
        """Options given (``--cc`` ...) first, then CC, CXX, CFLAGS, CXXFLAGS, then the defaults."""
        values = {}
        for name in ("cc", "cxx", "cflags", "cxxflags"):
            value = given.get(name) or environ.get(name.upper())
            if value:
                values[name] = value
        return cls(**values)

    def command(self, language: str) -> list[str]:
        """The compiler and flags (the output and source are appended)."""
        if language == "c":
            return [*shlex.split(self.cc), *shlex.split(self.cflags)]
        return [*shlex.split(self.cxx), *shlex.split(self.cxxflags)]

    def describe(self) -> dict[str, str]:
        """What goes into tournament.json: each command line and the compiler's version."""
        return {language: f"{shlex.join(self.command(language))} ... {self.libraries}  ({_version(lang)})"
                for language, lang in (("c", self.cc), ("c++", self.cxx))}


@functools.cache
def _version(compiler: str) -> str:
    """The first line of ``compiler --version`` (asked once per process)."""
    words = shlex.split(compiler)
    if not words or shutil.which(words[0]) is None:
        return "not installed"
    try:
        proc = subprocess.run([*words, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "version unknown"
    return (proc.stdout.splitlines() or ["version unknown"])[0]


@dataclass(frozen=True)
class Bot:
    """A bot ready to run."""

    name: str  # file stem or folder name
    path: Path  # the source file or folder, as given (absolute)
    command: tuple[str, ...]  # what to execute (absolute paths into ``home``)
    sha256: str  # hash of the bot's files (for a folder: of every file's path, mode and content)
    home: Path | None = None  # the read-only copy the command runs from
    programs: tuple[str, ...] = field(default=())  # host folders its sandbox binds read-only


@dataclass(frozen=True)
class Excluded:
    """A bot file that cannot play, and why."""

    path: Path
    reason: str


Compile = Callable[[list[str], Path, Path], str]  # (command, source folder, output folder) -> "" or why


def prepare_bots(
    paths: Sequence[str],
    copies: Path,
    log: Callable[[str], None] = print,
    *,
    compilers: Compilers | None = None,
    compile: Compile | None = None,
) -> tuple[list[Bot], list[Excluded]]:
    """Turn the command line's bot paths into bots, each copied into
    ``copies`` (and compiled there), and the paths that cannot be bots.

    ``compile`` runs a compiler (by default without a sandbox; ``arena run``
    passes the sandboxed one).  Raises ``ArenaError`` for a path that does not
    exist and for two bots with the same name, before anything is copied."""
    candidates = [path for path in map(Path, paths) if _is_candidate(path, log)]
    _check_names(candidates)
    bots: list[Bot] = []
    excluded: list[Excluded] = []
    for path in candidates:
        result = prepare_bot(path.absolute(), Path(copies), compilers=compilers, compile=compile)
        (bots if isinstance(result, Bot) else excluded).append(result)
    return bots, excluded


def prepare_bot(path: Path, copies: Path, *, compilers: Compilers | None = None,
                compile: Compile | None = None) -> Bot | Excluded:
    """One bot (an absolute path to a file or folder) as a bot, or why it cannot be one."""
    compilers = compilers or Compilers()
    try:
        files = _read_bot(path)
    except _NotABot as exc:
        return Excluded(path, str(exc))
    sha = _hash(files, folder=path.is_dir())
    name = path.stem if path.is_file() else path.name
    main = path.name if path.is_file() else _main_of(path)
    home = _copy(files, Path(copies).absolute() / f"{name}-{sha[:16]}")
    program = home / main
    language = LANGUAGES.get(Path(main).suffix.lower())
    if main.endswith(".py"):
        command = (*PYTHON, str(program)) if path.is_file() else (sys.executable, str(program))
    elif language:
        binary = _build(program, language, compilers, compile or compile_plainly)
        if isinstance(binary, str):
            return Excluded(path, binary)
        command = (str(binary),)
    elif not os.access(path if path.is_file() else path / main, os.X_OK):
        return Excluded(path, "not executable: chmod +x it, or name it .py, .c or .cpp")
    else:
        command = (str(program),)
    return Bot(name, path, command, sha, home, (str(home),))


class _NotABot(Exception):
    pass


def _main_of(folder: Path) -> str:
    for main in MAINS:
        if (folder / main).is_file():
            return main
    raise _NotABot(f"a folder bot holds one of {', '.join(MAINS)}")


def _read_bot(path: Path) -> dict[str, tuple[bytes, bool]]:
    """relative path -> (content, executable) of every file of the bot."""
    try:
        if path.is_file():
            return {path.name: (path.read_bytes(), os.access(path, os.X_OK))}
        _main_of(path)
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


def _copy(files: dict[str, tuple[bytes, bool]], home: Path) -> Path:
    """Write the bot's files into ``home`` (read-only), unless a complete copy is there."""
    if (home / ".complete").exists():
        return home
    partial = home.with_name(f"{home.name}.{os.getpid()}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    for relative, (data, executable) in files.items():
        target = partial / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        target.chmod(0o555 if executable else 0o444)
    (partial / ".complete").write_text("")
    shutil.rmtree(home, ignore_errors=True)
    os.replace(partial, home)
    _read_only(home)
    return home


def _read_only(folder: Path) -> None:
    """Folders 0555, so nothing can be added or renamed in the copy."""
    for place in [folder, *folder.rglob("*")]:
        if place.is_dir() and not place.is_symlink():
            place.chmod(0o555)


def _build(source: Path, language: str, compilers: Compilers, compile: Compile) -> Path | str:
    """The binary of ``source`` beside it, compiled unless already there; or why not."""
    command = compilers.command(language)
    identity = shlex.join(command + [compilers.libraries]) + "\0" + _version(command[0])  # a new compiler rebuilds
    key = hashlib.sha256(identity.encode() + b"\0" + source.read_bytes())
    binary = source.with_name(f"{source.stem}.{key.hexdigest()[:12]}.bin")
    if binary.is_file():
        return binary
    found = shutil.which(command[0])
    if found is None:
        return f"cannot compile: no {command[0]!r} compiler on PATH (set {'CC' if language == 'c' else 'CXX'})"
    command[0] = found
    folder = source.parent
    folder.chmod(0o755)
    output = folder.parent / f".build-{os.getpid()}-{key.hexdigest()[:12]}"
    shutil.rmtree(output, ignore_errors=True)
    output.mkdir(mode=0o777)
    output.chmod(0o777)  # the sandbox's uid writes the binary here
    try:
        failure = compile([*command, "-o", str(output / "bot"), str(source), *shlex.split(compilers.libraries)],
                          folder, output)
        built = output / "bot"
        if not failure and (built.is_symlink() or not built.is_file()):
            failure = "the compiler wrote no program"
        if failure:
            return failure
        partial = binary.with_name(binary.name + ".partial")
        shutil.copyfile(built, partial)  # a copy the arena owns, not the compiler's file
        partial.chmod(0o555)
        os.replace(partial, binary)
        return binary
    finally:
        shutil.rmtree(output, ignore_errors=True)
        folder.chmod(0o555)


def compile_plainly(command: list[str], folder: Path, output: Path) -> str:
    """Run a compiler without a sandbox (``--no-sandbox``); "" on success, else its message."""
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True, cwd=output)
    try:
        text, _ = proc.communicate(timeout=COMPILE_WALL)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        return f"compilation took more than {COMPILE_WALL:g} s"
    return compiler_message(command, proc.returncode, text.decode("utf-8", errors="replace"))


#: Limits of a compilation: seconds of CPU, seconds of wall time, bytes of memory.
COMPILE_CPU, COMPILE_WALL, COMPILE_MEMORY = 60.0, 120.0, 2 * 2**30


def compiler_message(command: list[str], code: int | None, text: str) -> str:
    """"" for a successful compilation, else the reason the bot is excluded (bounded)."""
    if code == 0:
        return ""
    message = text.strip()
    if len(message) > MESSAGE:
        message = message[:MESSAGE] + f"\n[... {len(message) - MESSAGE} more characters]"
    return f"compilation failed ({command[0]} exit status {code}):\n{message}"


def _is_candidate(path: Path, log: Callable[[str], None]) -> bool:
    """Whether a command-line path names a bot (missing paths raise)."""
    if not path.exists():
        raise ArenaError(f"bot {str(path)!r} does not exist")
    if path.name.startswith(("_", ".")):
        log(f"skipping {str(path)!r}: a name starting with '_' or '.' marks a helper, not a bot")
        return False
    if path.is_dir() and not any((path / main).is_file() for main in MAINS):
        log(f"skipping {str(path)!r}: a folder is a bot only if it holds {', '.join(MAINS)} "
            f"(to play the bots inside it, name them, e.g. {str(path / '*')!r})")
        return False
    return True


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


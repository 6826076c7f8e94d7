"""Find and prepare bots: Python scripts, C / C++ sources compiled once, executables.

A bot is named by its file's stem (``bots/greedy.py`` is ``greedy``), so two
bots with one name are an error.  Folders, and files whose names start with
``_`` or ``.`` (helpers, editor leftovers), are not bots and are skipped with
a notice.  A source that does not compile, or a file that cannot be executed,
excludes that bot with the reason; it does not stop the tournament.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError

#: Compiler and flags per source suffix; the output path and source are appended.
COMPILERS: dict[str, tuple[str, ...]] = {
    ".c": ("cc", "-O2", "-std=gnu11"),
    ".cpp": ("c++", "-O2", "-std=c++17"),
    ".cc": ("c++", "-O2", "-std=c++17"),
    ".cxx": ("c++", "-O2", "-std=c++17"),
}
#: Libraries linked into every compiled bot (the math library, which C needs named).
LIBRARIES = ("-lm",)
#: Seconds a compilation may take.
COMPILE_TIMEOUT = 120
#: Characters of a compiler's message kept as the reason a bot is excluded.
MESSAGE = 2000

#: How Python bots are run: the arena's own interpreter, and -P so that the
#: bot's folder is not put first on the import path (a bot named random.py
#: would otherwise shadow the standard library's random).
PYTHON = (sys.executable, "-P")


@dataclass(frozen=True)
class Bot:
    """A bot ready to run."""

    name: str  # file stem
    path: Path  # the source file
    command: tuple[str, ...]  # what to execute (absolute paths)
    sha256: str  # hash of the source file


@dataclass(frozen=True)
class Excluded:
    """A bot file that cannot play, and why."""

    path: Path
    reason: str


def prepare_bots(
    paths: Sequence[str], build_dir: Path, log: Callable[[str], None] = print
) -> tuple[list[Bot], list[Excluded]]:
    """Turn the command line's bot paths into bots (compiling sources into
    ``build_dir``) and the files that cannot be bots.

    Raises ``ArenaError`` for a path that does not exist and for two bots with
    the same name, before anything is compiled."""
    candidates = [path for path in map(Path, paths) if _is_candidate(path, log)]
    _check_names(candidates)
    bots: list[Bot] = []
    excluded: list[Excluded] = []
    for path in candidates:
        result = prepare_bot(path.absolute(), Path(build_dir))
        (bots if isinstance(result, Bot) else excluded).append(result)
    return bots, excluded


def prepare_bot(path: Path, build_dir: Path) -> Bot | Excluded:
    """One bot file (an absolute path) as a bot, or why it cannot be one."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return Excluded(path, f"cannot be read: {exc.strerror}")
    sha = hashlib.sha256(data).hexdigest()
    suffix = path.suffix.lower()
    if suffix == ".py":
        return Bot(path.stem, path, (*PYTHON, str(path)), sha)
    if suffix in COMPILERS:
        binary = compile_source(path, data, build_dir)
        if isinstance(binary, str):
            return Excluded(path, binary)
        return Bot(path.stem, path, (str(binary),), sha)
    if not os.access(path, os.X_OK):
        return Excluded(path, "not executable: chmod +x it, or name it .py, .c or .cpp")
    return Bot(path.stem, path, (str(path),), sha)


def _is_candidate(path: Path, log: Callable[[str], None]) -> bool:
    """Whether a command-line path names a bot file (missing paths raise)."""
    if not path.exists():
        raise ArenaError(f"bot {str(path)!r} does not exist")
    if path.is_dir():
        log(f"skipping {str(path)!r}: a folder is not a bot (name the bot files, e.g. {str(path / '*')!r})")
        return False
    if path.name.startswith(("_", ".")):
        log(f"skipping {str(path)!r}: a name starting with '_' or '.' marks a helper, not a bot")
        return False
    return True


def _check_names(paths: list[Path]) -> None:
    """Two bots may not share a name: tables and game ids use it."""
    first: dict[str, Path] = {}
    for path in paths:
        other = first.setdefault(path.stem, path)
        if other is path:
            continue
        if other.absolute() == path.absolute():
            raise ArenaError(f"bot {str(path)!r} is listed twice")
        raise ArenaError(f"two bots are named {path.stem!r}: {str(other)!r} and {str(path)!r}; rename one")


def compile_source(source: Path, data: bytes, build_dir: Path) -> Path | str:
    """The compiled binary of a C / C++ source in ``build_dir``, reused when
    one was built from the same source and flags; or the compiler's message."""
    command = COMPILERS[source.suffix.lower()]
    key = hashlib.sha256(" ".join(command + LIBRARIES).encode() + b"\0" + data).hexdigest()[:16]
    binary = build_dir / f"{source.stem}-{key}"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    if shutil.which(command[0]) is None:
        return f"cannot compile: no {command[0]!r} compiler on PATH"
    build_dir.mkdir(parents=True, exist_ok=True)
    partial = binary.with_name(f"{binary.name}.{os.getpid()}.tmp")
    failure = _run_compiler([*command, "-o", str(partial), str(source), *LIBRARIES])
    if failure:
        partial.unlink(missing_ok=True)
        return failure
    os.replace(partial, binary)  # atomic: a concurrent arena sees no half-written binary
    return binary


def _run_compiler(command: list[str]) -> str:
    """Run a compiler; "" on success, else its message (bounded)."""
    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = proc.communicate(timeout=COMPILE_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the driver and its cc1 / ld
        proc.communicate()
        return f"compilation took more than {COMPILE_TIMEOUT} s"
    if proc.returncode == 0:
        return ""
    message = output.decode("utf-8", errors="replace").strip()
    if len(message) > MESSAGE:
        message = message[:MESSAGE] + f"\n[... {len(message) - MESSAGE} more characters]"
    return f"compilation failed ({' '.join(command[:1])} exit status {proc.returncode}):\n{message}"

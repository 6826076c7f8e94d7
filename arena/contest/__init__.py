"""The contest server: a Django project on top of the arena (arena serve).

Nothing here is imported by ``arena run``: Django is the optional extra ``server``.  ``setup`` makes
Django's settings from a contest folder; the web processes (``wsgi``) and the runner (``runner``)
call it through the environment ``arena serve`` gives them.
"""

from __future__ import annotations

import os
from pathlib import Path

from arena.errors import ArenaError

#: The file in a contest folder naming its PostgreSQL database (readable by its owner only).
DATABASE_FILE = "database.url"


def missing_django() -> str | None:
    """Why the server cannot run here, or None."""
    try:
        import django  # noqa: F401
        import gunicorn  # noqa: F401
        import jinja2  # noqa: F401
        import whitenoise  # noqa: F401
    except ImportError as exc:
        return (f"the contest server needs the 'server' extra ({exc.name} is missing): "
                "pip install 'arena-tournaments[server]' (in a checkout: pip install -e '.[server]')")
    return None


def database_of(folder: Path, given: str | None) -> str:
    """The database's address: the one given, else the one the contest folder keeps, else "" (SQLite)."""
    if given is not None:
        return given
    path = Path(folder) / DATABASE_FILE
    return path.read_text(encoding="utf-8").strip() if path.exists() else ""


def environment(folder: Path, database: str) -> dict[str, str]:
    """The environment variables that make ``arena.contest.settings`` this contest's."""
    return {"ARENA_CONTEST": str(Path(folder).absolute()), "ARENA_DATABASE": database,
            "DJANGO_SETTINGS_MODULE": "arena.contest.settings"}


def setup(folder: Path, database: str | None = None) -> None:
    """Django, configured for the contest in ``folder``, in this process (once)."""
    if problem := missing_django():
        raise ArenaError(problem)
    import django

    os.environ.update(environment(folder, database_of(folder, database)))
    django.setup()


#: Run as ``python -c SHIM PARENT-PID PROGRAM ARGS...``: ask the kernel to send SIGTERM when the parent dies
#: (PR_SET_PDEATHSIG, which survives exec), then become PROGRAM; if the parent is already gone, stop.
#: (Instead of a preexec_fn, which is unsafe in a process with threads, as the runner is.)
_SHIM = ("import ctypes, os, signal, sys; ctypes.CDLL(None).prctl(1, signal.SIGTERM, 0, 0, 0); "
         "os.getppid() == int(sys.argv[1]) or sys.exit(143); os.execv(sys.argv[2], sys.argv[2:])")


def dying_with_parent(argv: list[str]) -> list[str]:
    """``argv`` (a program's absolute path first) run so that it is killed with this process however
    this process ends: a server killed with SIGKILL leaves no runner or final behind."""
    import sys

    return [sys.executable, "-c", _SHIM, str(os.getpid()), *argv]

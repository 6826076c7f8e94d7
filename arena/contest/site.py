"""The contest folder's own files (its secret key, its SQLite database, its uploads) and the settings
made from them: the parts of Django's settings that are not constants.

A contest folder::

    contest.toml        the configuration (arena.contest.config)
    secret.key          Django's secret key, made per contest, readable by its owner only
    contest.sqlite3     the database (when no --database is given), in WAL mode
    boards/sample/      the public boards the check plays; boards/final/: the hidden final boards
    house/              the house bots, the check's opponents
    uploads/            every upload as sent, named by its SHA-256 (content-addressed, written once)
    bots/               each submission unpacked, under its number (only the runner reads it)
    checks/             each check's copies of bots and builds
    results/final/      the final's results folder (arena show, report, replay, rerun work on it)
    ladder/             the ladder's copies of the entries and their builds (its games are rows)
    serve.lock          held by the one 'arena serve' of this contest
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from arena.errors import ArenaError

SECRET = "secret.key"
SQLITE = "contest.sqlite3"
UPLOADS = "uploads"
BOTS = "bots"
CHECKS = "checks"
RESULTS = "results"
FINAL = "final"
LOCK = "serve.lock"


def make_secret_key(folder: Path) -> None:
    """A new secret key, written readable by its owner only (never replaced once made)."""
    path = Path(folder) / SECRET
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(secrets.token_urlsafe(50) + "\n")


def secret_key(folder: Path) -> str:
    path = Path(folder) / SECRET
    try:
        return path.read_text(encoding="ascii").strip()
    except OSError as exc:
        raise ArenaError(f"cannot read the contest's secret key {str(path)!r}: {exc.strerror} "
                         "(arena contest new makes it)") from None


def database_settings(folder: Path, url: str) -> dict[str, Any]:
    """Django's DATABASES entry: SQLite in the folder, or the PostgreSQL server of ``url``
    (postgresql://USER:PASSWORD@HOST:PORT/NAME, ?host=/run/postgresql for a socket folder)."""
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": Path(folder) / SQLITE,
            # WAL: readers never wait for the writer; IMMEDIATE: a writing transaction takes the lock at its
            # start, so two writers queue (for up to the timeout) instead of one failing at its first write.
            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                        "transaction_mode": "IMMEDIATE", "timeout": 30},
        }
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql") or not parts.path.strip("/"):
        raise ArenaError(f"--database {_without_password(url)!r} is not a PostgreSQL address: expected "
                         "postgresql://USER:PASSWORD@HOST:PORT/DATABASE")
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.strip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": query.pop("host", parts.hostname or ""),
        "PORT": str(parts.port or ""),
        "OPTIONS": query,
        "CONN_MAX_AGE": 60,
    }


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@", 1)
    return url


def upload_path(folder: Path, sha256: str) -> Path:
    """Where an upload of this hash is kept."""
    return Path(folder) / UPLOADS / sha256[:2] / sha256


def keep_upload(folder: Path, data: bytes) -> str:
    """Write an upload under its SHA-256 (once: the same bytes are the same file) and force it to disk
    before returning, so that an acknowledged upload survives a crash.  Returns the hash."""
    sha = hashlib.sha256(data).hexdigest()
    path = upload_path(folder, sha)
    if path.exists():
        return sha
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{sha}.{secrets.token_hex(4)}")
    with open(temporary, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.chmod(temporary, 0o400)
    os.replace(temporary, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return sha


def jinja_environment(**options: Any):
    """The Jinja2 environment of the contest's pages: autoescaped, templates from this package,
    ``url`` and ``static`` as in Django's own templates, ``shown`` for untrusted text."""
    from django.contrib.messages import get_messages
    from django.templatetags.static import static
    from django.urls import reverse
    from jinja2 import Environment, PackageLoader, select_autoescape

    from arena.text import display

    options.pop("loader", None)
    options.pop("autoescape", None)
    env = Environment(loader=PackageLoader("arena.contest", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True), **options)
    env.globals.update(url=lambda name, *args, **kwargs: reverse(name, args=args, kwargs=kwargs), static=static,
                       get_messages=get_messages)
    # Every text a contestant or a bot controls: control characters made visible, then autoescaped.
    env.filters["shown"] = lambda text, multiline=False: display(str(text), multiline=multiline)
    env.filters["when"] = lambda moment: moment.strftime("%Y-%m-%d %H:%M UTC") if moment else ""
    return env

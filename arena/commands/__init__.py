"""The subcommands of ``arena``, one module each, and what they share.

Each module has ``add_parser(subparsers)`` (which sets ``func``) and a
``main(args) -> int``; the CLI lists them in ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import referees
from arena.errors import ArenaError

COMMANDS = ("run", "show", "generate", "judge", "solve")


def get_referee(name: str) -> referees.Referee:
    """A referee by name, or an ArenaError listing the games."""
    try:
        return referees.get(name)
    except LookupError as exc:
        raise ArenaError(str(exc)) from None


def read_text(path: str, what: str) -> str:
    """A file's text (or standard input for "-"), as an ArenaError if unreadable."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read {what} {path!r}: {exc}") from None


def positive_int(text: str) -> int:
    """argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """argparse type: a number above 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
    return value

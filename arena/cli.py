"""The ``arena`` command: argument parsing and exit codes.

Each subcommand is a module of ``arena.commands`` (``add_parser`` and
``main``).  The only errors handled here are the arena's own (``ArenaError``,
and the referees' ``BadInput`` for arena-side input), printed as one line on
standard error with exit status 2; anything else is a bug and shows its
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

import arena
from arena.commands import COMMANDS
from arena.errors import ArenaError
from referees.base import BadInput

EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Run bot tournaments for turn-based board games: play every bot against "
        "every other on a set of boards, and print the standings.",
    )
    parser.add_argument("--version", action="version", version=f"arena {arena.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        import_module(f"arena.commands.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ArenaError, BadInput) as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

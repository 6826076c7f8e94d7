"""The ``arena`` command: argument parsing and exit codes.

Each subcommand is a module of ``arena.commands`` (``add_parser`` and
``main``).  The only errors handled here are the arena's own (``ArenaError``,
and the referees' ``BadInput`` for arena-side input), printed as one line on
standard error with exit status 2; anything else is a bug and shows its
traceback.  A closed standard output (``arena ... | head``) ends the
command quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module

import arena
from arena.commands import COMMANDS
from arena.errors import ArenaError
from arena.text import display
from referees.base import BadInput

EXIT_BAD_INPUT = 2
#: 128 + SIGPIPE, the status of a command stopped by a closed pipe
EXIT_BROKEN_PIPE = 141


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Run bot tournaments for turn-based board games: play every bot against "
        "every other on a set of boards, and print the standings.",
        epilog="The rules of every game, the files a bot reads and writes, its limits and the verdicts: "
        "docs/rules.md. Each command's options: arena COMMAND --help.",
    )
    parser.add_argument("--version", action="version", version=f"arena {arena.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        import_module(f"arena.commands.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:  # 'arena' alone: what it can do, not an error
            parser.print_help()
            return 0
        status = args.func(args)
        sys.stdout.flush()  # inside the try: a reader that went away is noticed here, not at exit
        return status
    except (ArenaError, BadInput) as exc:
        # (a message quotes what it names with repr; the net escapes whatever control is left)
        print(f"arena: error: {display(str(exc), multiline=True, backslash=False)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """Standard output's reader has closed the pipe (``arena show ... | head``):
    stop quietly, as a command killed by SIGPIPE would, rather than with a
    traceback.  Standard output is pointed at /dev/null so that Python's own
    flush at exit does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())

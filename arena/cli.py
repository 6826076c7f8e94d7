"""The ``arena`` command: argument parsing and exit codes.

Each subcommand is a small function here or in its own module; the only error
handled is ``ArenaError`` (and the referees' ``BadInput``), printed as one
line on standard error with exit status 2.  Anything else is a bug and shows
its traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import generator
import referees
from arena.errors import ArenaError
from generator import BadParameters
from referees.base import BadInput

EXIT_BAD_INPUT = 2


def read_text(path: str, what: str) -> str:
    """A file's text (or standard input for "-"), as an ArenaError if unreadable."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read {what} {path!r}: {exc}") from None


def read_extras(referee: referees.Referee, board_path: str) -> dict[str, str]:
    """The files a game keeps beside its board file (e.g. ``words.txt``)."""
    folder = Path(board_path).parent if board_path != "-" else Path.cwd()
    return {name: read_text(str(folder / name), f"{referee.name} file") for name in referee.board_files}


def get_referee(name: str) -> referees.Referee:
    try:
        return referees.get(name)
    except LookupError as exc:
        raise ArenaError(str(exc)) from None


# ---------------------------------------------------------------- judge
def cmd_judge(args: argparse.Namespace) -> int:
    referee = get_referee(args.game)
    wanted = referee.judge_inputs
    if not wanted:
        raise ArenaError(f"game {args.game!r} has no judge mode")

    files = list(args.files)
    if len(wanted) == 1 and not files:
        files = ["-"]
    if len(files) != len(wanted):
        raise ArenaError(
            f"arena judge {args.game} takes {len(wanted)} input(s): {' '.join(wanted)}; got {len(files)}"
        )
    texts = [read_text(path, name.lower()) for path, name in zip(files, wanted)]
    extras = read_extras(referee, files[0])
    try:
        for line in referee.judge(texts, extras):
            print(line, flush=True)
    except BadInput as exc:
        # A referee names the input by its judge_inputs name; show the path.
        paths = dict(zip(wanted, files))
        raise ArenaError(str(exc.located(paths.get(exc.where or wanted[0], exc.where or files[0])))) from None
    return 0


# ---------------------------------------------------------------- generate
def cmd_generate(args: argparse.Namespace) -> int:
    from arena.boards import write_generated

    module = args.generator
    boards = []
    try:
        for i in range(args.count):
            boards.append((args.seed + i, module.generate(args, args.seed + i)))
    except BadParameters as exc:
        raise ArenaError(f"arena generate {module.GAME}: {exc}") from None
    if args.out is None:
        for k, (_, board) in enumerate(boards):
            if k:
                print()
            sys.stdout.write(board.text)
        return 0
    paths = write_generated(Path(args.out), module.GAME, boards, overwrite=args.overwrite)
    for path in paths:
        print(path)
    return 0


def add_generate(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "generate",
        help="generate boards from seeds",
        description="Generate boards from seeds. Each game has its own parameters: "
        "arena generate GAME --help lists them.",
    )
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for name in generator.names():
        module = generator.get(name)
        gp = games.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(gp)
        gp.add_argument("--seed", type=int, required=True, help="seed of the first board")
        gp.add_argument("--count", type=_count, default=1, help="how many boards (seeds SEED, SEED+1, ...)")
        gp.add_argument(
            "--out", metavar="DIR",
            help="write board1.in ... boardK.in and manifest.json into DIR "
            "(without it: the boards on standard output)",
        )
        gp.add_argument("--overwrite", action="store_true", help="replace boards already in DIR")
        gp.set_defaults(func=cmd_generate, generator=module)


class JudgeParser(argparse.ArgumentParser):
    """Lists each game's judge inputs in --help, importing the referees only then."""

    def format_help(self) -> str:
        lines = []
        for name in referees.names():
            referee = referees.get(name)
            if referee.judge_inputs:
                lines.append(f"  arena judge {name} {referee.judge_help}")
        return super().format_help() + "\njudge modes:\n" + "\n".join(lines) + "\n"


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


# ---------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Run bot tournaments for turn-based board games: play every bot against "
        "every other on a set of boards, and print the standings.",
    )
    parser.add_argument("--version", action="version", version=f"arena {__import__('arena').__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    from arena import commands

    commands.add_run(sub)
    commands.add_show(sub)
    add_generate(sub)

    sub._parser_class, default_class = JudgeParser, sub._parser_class  # argparse has no public hook
    judge = sub.add_parser(
        "judge",
        help="replay or score a game from files, like the original problem's judge",
        description="Judge mode: read a game's inputs and print the verdict, like the original problem's judge.",
    )
    sub._parser_class = default_class
    judge.add_argument("game", metavar="GAME", choices=referees.names(), help="one of: " + ", ".join(referees.names()))
    judge.add_argument("files", nargs="*", metavar="FILE", help="the game's inputs ('-' or none: standard input)")
    judge.set_defaults(func=cmd_judge)

    commands.add_solve(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ArenaError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BadInput as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

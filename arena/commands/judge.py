"""``arena judge``: a game's judge mode, like the original problem's judge."""

from __future__ import annotations

import argparse
from pathlib import Path

from arena import games
from arena.boards import read_extras
from arena.commands import get_referee, read_text
from arena.errors import ArenaError
from arena.text import display
from referees.base import BadInput, Referee


def add_parser(sub: argparse._SubParsersAction) -> None:
    sub._parser_class, default_class = JudgeParser, sub._parser_class  # argparse has no public hook
    parser = sub.add_parser(
        "judge",
        help="replay or score a game from files, like the original problem's judge",
        description="Judge mode: read a game's inputs and print the verdict, like the original problem's judge.",
    )
    sub._parser_class = default_class
    names = sorted(games.names_and_aliases())
    parser.add_argument("game", metavar="GAME", choices=names, help="one of: " + ", ".join(names))
    parser.add_argument("files", nargs="*", metavar="FILE", help="the game's inputs ('-' or none: standard input)")
    parser.set_defaults(func=main)


class JudgeParser(argparse.ArgumentParser):
    """Lists each game's judge inputs in --help, importing the referees only then."""

    def format_help(self) -> str:
        lines = []
        for referee, aliases in _judged():
            if referee.judge_inputs:
                also = "".join(f" (or {alias})" for alias in aliases)
                lines.append(f"  arena judge {referee.name}{also} {referee.judge_help}")
        return (super().format_help() + "\njudge modes:\n" + "\n".join(lines) + "\n\n"
                "A small input for every judge mode, and what each prints: boards/examples/README.md.\n")


def _judged() -> list[tuple[Referee, tuple[str, ...]]]:
    """The referees of the games that load, with their other names (a game that does not load is
    left out here; arena games says why)."""
    found = []
    for entry in games.installed().values():
        try:
            found.append((entry.referee(), entry.game.aliases))
        except games.GameError:
            continue
    return found


def main(args: argparse.Namespace) -> int:
    referee = get_referee(args.game)
    args.game = referee.name
    wanted = referee.judge_inputs
    if not wanted:
        judged = [referee.name for referee, _ in _judged() if referee.judge_inputs]
        raise ArenaError(f"game {args.game!r} has no judge mode; these have one: {', '.join(judged)}")
    files = list(args.files)
    if len(wanted) == 1 and not files:
        files = ["-"]
    if len(files) != len(wanted):
        raise ArenaError(
            f"arena judge {args.game} takes {len(wanted)} input(s): {' '.join(wanted)}; got {len(files)}"
        )
    texts = [read_text(path, name.lower()) for path, name in zip(files, wanted)]
    folder = Path(files[0]).parent if files[0] != "-" else Path.cwd()
    extras = read_extras(referee, folder)
    try:
        for line in referee.judge(texts, extras):
            print(display(line, backslash=False), flush=True)  # (a line quotes the output judged with repr)
    except BadInput as exc:
        # A referee names the input by its judge_inputs name (or a file kept beside the
        # board); show the path.
        paths = {**{name: str(folder / name) for name in extras}, **dict(zip(wanted, files))}
        where = exc.where or wanted[0]
        raise ArenaError(str(exc.located(paths.get(where, where)))) from None
    return 0

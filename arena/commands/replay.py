"""``arena replay``: one recorded game, move by move, in the terminal or as a page."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from arena import html, replay, views
from arena.commands import open_results, positive_float, positive_int
from arena.errors import ArenaError
from arena.text import display


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay",
        help="show one recorded game move by move (terminal or HTML)",
        description="Show one game of a tournament move by move: the board after each move (recomputed by the "
        "referee from the recorded moves), who moved, the verdict, the CPU time, the message of a fault and "
        "what the bot printed. One-shot games (threes, match3, crossword-pve) are stepped through operation "
        "by operation. Choose the game by its id, by --board and --seats, or take the first with a fault "
        "(--fault); with --html the replay is written as one self-contained page (step buttons, slider, "
        "arrow keys, autoplay).",
    )
    parser.add_argument("folder", metavar="RESULTS", help="a results folder (results/NAME), or just NAME")
    parser.add_argument("game", metavar="GAME", nargs="?",
                        help="the game's id, as in games.jsonl (e.g. 'group1/board1|greedy|random')")
    parser.add_argument("--board", metavar="B", help="the game on this board (e.g. group1/board1)")
    parser.add_argument("--seats", metavar="A,B", help="the game with these bots in this seat order")
    parser.add_argument("--fault", action="store_true", help="the first game with a fault (of those chosen)")
    parser.add_argument("--html", metavar="FILE", help="write the replay as an HTML page to FILE")
    parser.add_argument("--input", metavar="N", type=positive_int,
                        help="instead of the replay, what the bot read at move N (numbered as the replay numbers them): "
                        "game.in is printed, or with --to every file the game gives its bots is written to DIR. "
                        "To run a bot on that position again (cd DIR and start it), or to give the position to "
                        "'arena solve'")
    parser.add_argument("--to", metavar="DIR", help="with --input: write the files into DIR (made if missing)")
    parser.add_argument("--solve", metavar="SECONDS", type=positive_float,
                        help="where was the game won or lost? The game's exact solver (as 'arena solve') values "
                        "the position before every move for the bot that moved and the one after it for the "
                        "bot to move next, each within SECONDS of CPU, and marks a move that threw a proven "
                        "win or draw; the replay (text or --html) shows it under each move, a summary ends "
                        "the text. Games with a solver only (the painting game)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    store = open_results(args.folder)
    seats = args.seats.split(",") if args.seats else None
    record = replay.find_game(store, args.game, board=args.board, seats=seats, fault=args.fault)
    if args.to and not args.input:
        raise ArenaError("--to needs --input N (the move whose input to write)")
    if args.input and args.html:
        raise ArenaError("--input and --html: one or the other (a move's input, or the whole replay as a page)")
    if args.input and args.solve:
        raise ArenaError("--input and --solve: one or the other (give the written game.in to 'arena solve')")
    if args.input:
        return write_input(record, *replay.bot_input(store, record, args.input), args)
    game = replay.load(store, record)
    summary = None
    if args.solve:
        game, summary = replay.with_solver(game, args.solve, progress=_progress if sys.stderr.isatty() else None)
        if sys.stderr.isatty():
            print(file=sys.stderr)
    if args.html:
        legend = views.legend(record["game"])
        write_page(Path(args.html), html.replay_page(game, legend=legend))
        print(f"{args.html}: {len(game.steps)} steps of game {record['id']!r}")
    else:
        # colour only for a terminal, and not when NO_COLOR is set (no-color.org)
        colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        print(replay.game_text(game, colour=colour, summary=summary), end="")
    return 0


def _progress(k: int, total: int) -> None:
    print(f"\rsolving position {k} of {total}", end="", file=sys.stderr, flush=True)


def write_input(record: dict, entry: dict, files: dict[str, str], args: argparse.Namespace) -> int:
    """``--input``: the files of one move, printed (game.in) or written to ``--to``."""
    bot = record["seats"][entry["seat"]]
    what = f"what {display(bot)} (seat {entry['seat'] + 1}) read at move {args.input} of game {display(record['id'])}"
    if not args.to:
        others = sorted(set(files) - {"game.in"})
        if others:
            print(f"(game.in only; {', '.join(others)} too with --to DIR)", file=sys.stderr)
        text = files["game.in"]
        print(display(text, multiline=True) if sys.stdout.isatty() else text, end="")
        return 0
    folder = Path(args.to)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"cannot write into {str(folder)!r}: {exc}") from None
    print(f"{args.to}: {', '.join(sorted(files))}: {what}")
    return 0


def write_page(path: Path, text: str) -> None:
    """Write a page, as an ArenaError when the file cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"cannot write {str(path)!r}: {exc}") from None

"""``arena rerun``: play one recorded game again, now, with the same bots and board."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arena import replay
from arena.bots import COPIES, Bot, Compilers, prepare_bot
from arena.commands import add_bot_options, open_results, prepare_from_options
from arena.errors import ArenaError
from arena.match import GameSpec, play
from arena.replay import outcome_text
from arena.sandbox import Limits, sandboxed_compiler
from arena.text import display


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "rerun",
        help="play a recorded game again now, printing each move",
        description="Play one game of a tournament again, now: the same bots (the files recorded in "
        "tournament.json, checked against their SHA-256; a file changed since is replaced by the tournament's copy "
        "of it, and said so), sandboxed as 'arena run' does (same options), "
        "on the same board under the same limits, printing each move as 'arena replay' does, so a fault can "
        "be watched happening again. Nothing is written to the tournament's records.",
    )
    parser.add_argument("folder", metavar="RESULTS", help="a results folder (results/NAME), or just NAME")
    parser.add_argument("game", metavar="GAME", help="the game's id, as in games.jsonl")
    parser.add_argument("--keep", metavar="DIR", help="keep each move's files in DIR/seatN-BOT/moveK/: what the "
                        "bot was given (game.in, ...), its game.out, stdout.txt and stderr.txt")
    add_bot_options(parser)
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    store = open_results(args.folder)
    config = store.config()
    record = replay.find_game(store, args.game)
    referee = replay.get_referee(record["game"])
    board, initial = replay.recorded_board(referee, store, record)
    entries = {bot["name"]: bot for bot in config["bots"]}
    copies = store.folder.parent / COPIES
    args.bots = [_source(entries[name], copies) for name in dict.fromkeys(record["seats"])]
    bots, excluded, sandbox, compilers = prepare_from_options(args, store.folder.parent)
    if excluded:
        raise ArenaError(f"bot {str(excluded[0].path)!r} cannot run now: "
                         f"{display(excluded[0].reason, multiline=True)}")
    compile = sandboxed_compiler(sandbox) if sandbox else None
    by_name = {bot.name: _as_recorded(bot, entries[bot.name], copies, compilers, compile) for bot in bots}
    stepper = replay.Stepper(referee, initial, record)
    print(replay.game_heading(record, "rerun of"))
    print("\n" + replay.step_text(stepper.start()), flush=True)
    seats = tuple(by_name[name] for name in record["seats"])
    again = play(referee, GameSpec(board, seats), initial, Limits(**config["limits"]), sandbox=sandbox,
                 keep=Path(args.keep) if args.keep else None, on_move=lambda entry: _show(stepper, entry))
    print(f"\n== result now: {outcome_text(again)}\n== result then: {outcome_text(record)}")
    if args.keep:
        print(f"each move's files are in {display(args.keep)}/seatN-BOT/moveK/")
    return 0


def _source(entry: dict[str, Any], copies: Path) -> str:
    """A bot's file as recorded, or the tournament's copy of it when the file is gone."""
    path = Path(entry["path"])
    copy = _copy_of(entry, copies)
    if path.exists():
        return str(path)
    if copy.exists():
        print(f"arena: bot {entry['name']!r} ({display(str(path))}) is gone: playing the tournament's copy "
              f"({display(str(copy))})",
              file=sys.stderr)
        return str(copy)
    raise ArenaError(f"bot {str(path)!r} of the tournament does not exist any more, nor its copy {str(copy)!r}")


def _copy_of(entry: dict[str, Any], copies: Path) -> Path:
    """Where ``arena run`` copied a bot (by name and hash)."""
    return copies / f"{entry['name']}-{entry['sha256'][:16]}" / Path(entry["path"]).name


def _as_recorded(bot: Bot, entry: dict[str, Any], copies: Path, compilers: Compilers, compile: Any) -> Bot:
    """The bot as the tournament ran it: as it is, if its SHA-256 is the recorded
    one; else the tournament's copy of it; failing that, as it is, said loudly."""
    if bot.sha256 == entry["sha256"]:
        return bot
    recorded = _copy_of(entry, copies)
    copy = prepare_bot(recorded.absolute(), copies, compilers=compilers, compile=compile, sandboxed=compile is not None) \
        if recorded.is_file() else None
    if isinstance(copy, Bot) and copy.sha256 == entry["sha256"]:
        print(f"arena: bot {bot.name!r} ({display(entry['path'])}) changed since the tournament: playing the "
              f"tournament's copy ({display(str(recorded))})", file=sys.stderr)
        return copy
    print(f"arena: NOTE: bot {bot.name!r} ({display(entry['path'])}) changed since the tournament (sha256 "
          f"{entry['sha256'][:12]}... then, {bot.sha256[:12]}... now) and its copy is gone: playing it as it "
          "is now", file=sys.stderr)
    return bot


def _show(stepper: replay.Stepper, entry: dict[str, Any]) -> None:
    """Print a move as soon as it is played."""
    for step in stepper.step(entry):
        print("\n" + replay.step_text(step, stepper.referee.protocol == "one-shot"), flush=True)

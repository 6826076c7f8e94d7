"""``arena rerun``: play one recorded game again, now, with the same bots and board."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arena import replay
from arena.bots import COPIES, Bot, Compilers, Excluded, prepare_bot
from arena.commands import open_results
from arena.errors import ArenaError
from arena.match import GameSpec, play
from arena.process import Limits
from arena.replay import outcome_text
from arena.sandbox import Sandbox, configure, sandboxed_compiler


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "rerun",
        help="play a recorded game again now, printing each move",
        description="Play one game of a tournament again, now: the same bots (the files recorded in "
        "tournament.json, checked against their SHA-256; a file changed since is replaced by the tournament's copy "
        "of it, and said so) in the same sandbox "
        "on the same board under the same limits, printing each move as 'arena replay' does, so a fault can "
        "be watched happening again. Nothing is written to the tournament's records.",
    )
    parser.add_argument("folder", metavar="RESULTS", help="a results folder (results/NAME), or just NAME")
    parser.add_argument("game", metavar="GAME", help="the game's id, as in games.jsonl")
    parser.add_argument("--keep", metavar="DIR", help="keep each move's files in DIR/seatN-BOT/moveK/: what the "
                        "bot was given (game.in, ...), its game.out, stdout.txt and stderr.txt")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    store = open_results(args.folder)
    config = store.config()
    record = replay.find_game(store.records(), args.game)
    referee = replay.get_referee(record["game"])
    board, initial = replay.recorded_board(referee, store, record)
    keep = Path(args.keep) if args.keep else None
    sandbox = _sandbox(config)
    seats = _bots(config, record["seats"], store.folder.parent / COPIES, sandbox)
    stepper = replay.Stepper(referee, initial, record)
    print(f"rerun of {record['id']} ({record['game']}): " + " vs ".join(record["seats"]))
    print("\n" + replay.step_text(stepper.start()), flush=True)
    again = play(referee, GameSpec(board, tuple(seats)), initial, Limits(**config["limits"]), sandbox=sandbox,
                 keep=keep, on_move=lambda entry: _show(stepper, entry))
    print(f"\n== result now: {outcome_text(again)}\n== result then: {outcome_text(record)}")
    if keep is not None:
        print(f"each move's files are in {keep}/seatN-BOT/moveK/")
    return 0


def _sandbox(config: dict[str, Any]) -> Sandbox | None:
    """The sandbox the tournament ran its bots in (none if it ran with --no-sandbox)."""
    if not config.get("sandbox"):
        print("arena: sandbox: none, as in the tournament (--no-sandbox)", file=sys.stderr)
        return None
    return configure(disk=config["sandbox"]["disk"])


def _bots(config: dict[str, Any], names: list[str], copies: Path, sandbox: Sandbox | None) -> list[Bot]:
    """The seats' bots as the tournament ran them: the file as it was (checked by
    its SHA-256), or the tournament's copy of it when the file has changed since;
    failing both, the file as it is now, said loudly."""
    entries = {bot["name"]: bot for bot in config["bots"]}
    compilers = Compilers.from_environment()
    compile = sandboxed_compiler(sandbox) if sandbox else None
    bots = {}
    for name in dict.fromkeys(names):
        entry = entries[name]
        bot = _prepare(Path(entry["path"]), copies, compilers, compile)
        if bot.sha256 != entry["sha256"]:
            recorded = copies / f"{name}-{entry['sha256'][:16]}" / Path(entry["path"]).name
            copy = _prepare(recorded, copies, compilers, compile) if recorded.is_file() else None
            if copy is not None and copy.sha256 == entry["sha256"]:
                print(f"arena: bot {name!r} ({entry['path']}) changed since the tournament: playing the "
                      f"tournament's copy ({recorded})", file=sys.stderr)
                bot = copy
            else:
                print(f"arena: NOTE: bot {name!r} ({entry['path']}) changed since the tournament (sha256 "
                      f"{entry['sha256'][:12]}... then, {bot.sha256[:12]}... now) and its copy is gone: "
                      "playing it as it is now", file=sys.stderr)
        bots[name] = bot
    return [bots[name] for name in names]


def _prepare(path: Path, copies: Path, compilers: Compilers, compile: Any) -> Bot:
    if not path.exists():
        raise ArenaError(f"bot {str(path)!r} of the tournament does not exist any more")
    bot = prepare_bot(path.absolute(), copies, compilers=compilers, compile=compile)
    if isinstance(bot, Excluded):
        raise ArenaError(f"bot {str(path)!r} cannot run now: {bot.reason}")
    return bot


def _show(stepper: replay.Stepper, entry: dict[str, Any]) -> None:
    """Print a move as soon as it is played."""
    for step in stepper.step(entry):
        print("\n" + replay.step_text(step, stepper.referee.protocol == "one-shot"), flush=True)

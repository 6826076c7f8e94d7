"""``arena rerun``: play one recorded game again, now, with the same bots and board."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from arena import replay
from arena.bots import Bot, prepare_bots
from arena.commands import open_results
from arena.errors import ArenaError
from arena.match import GameSpec, play
from arena.process import Limits
from arena.replay import outcome_text


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "rerun",
        help="play a recorded game again now, printing each move",
        description="Play one game of a tournament again, now: the same bots (the files recorded in "
        "tournament.json, checked against their SHA-256: a changed file is said so and played as it is now) "
        "on the same board under the same limits, printing each move as 'arena replay' does, so a fault can "
        "be watched happening again. Nothing is written to the tournament's records.",
    )
    parser.add_argument("folder", metavar="RESULTS", help="a results folder (results/NAME), or just NAME")
    parser.add_argument("game", metavar="GAME", help="the game's id, as in games.jsonl")
    parser.add_argument("--keep", metavar="DIR", help="keep the bots' folders (game.in, game.out, their files) "
                        "in DIR, one per seat")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    store = open_results(args.folder)
    config = store.config()
    record = replay.find_game(store.records(), args.game)
    referee = replay.get_referee(record["game"])
    board, initial = replay.recorded_board(referee, store, record)
    keep = Path(args.keep) if args.keep else None
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix="arena-build-"))
    try:
        seats = _bots(config, record["seats"], build)
        stepper = replay.Stepper(referee, initial, record)
        print(f"rerun of {record['id']} ({record['game']}): " + " vs ".join(record["seats"]))
        print("\n" + replay.step_text(stepper.start()), flush=True)
        again = play(referee, GameSpec(board, tuple(seats)), initial, Limits(**config["limits"]), keep=keep,
                     on_move=lambda entry: _show(stepper, entry))
    finally:
        shutil.rmtree(build, ignore_errors=True)
    print(f"\n== result now: {outcome_text(again)}\n== result then: {outcome_text(record)}")
    if keep is not None:
        print(f"the bots' folders are in {keep}")
    return 0


def _bots(config: dict[str, Any], names: list[str], build: Path) -> list[Bot]:
    """The recorded bots of the seats, prepared afresh; a changed file is announced."""
    entries = {bot["name"]: bot for bot in config["bots"]}
    paths = [entries[name]["path"] for name in dict.fromkeys(names)]
    bots, excluded = prepare_bots(paths, build, log=lambda text: print(f"arena: {text}", file=sys.stderr))
    if excluded:
        raise ArenaError(f"bot {str(excluded[0].path)!r} cannot run now: {excluded[0].reason}")
    by_name = {bot.name: bot for bot in bots}
    for name in dict.fromkeys(names):
        if by_name[name].sha256 != entries[name]["sha256"]:
            print(f"arena: NOTE: bot {name!r} ({entries[name]['path']}) changed since the tournament "
                  f"(sha256 {entries[name]['sha256'][:12]}... then, {by_name[name].sha256[:12]}... now): "
                  "playing the file as it is now", file=sys.stderr)
    return [by_name[name] for name in names]


def _show(stepper: replay.Stepper, entry: dict[str, Any]) -> None:
    """Print a move as soon as it is played."""
    for step in stepper.step(entry):
        print("\n" + replay.step_text(step, stepper.referee.protocol == "one-shot"), flush=True)

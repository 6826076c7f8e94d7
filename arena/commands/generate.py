"""``arena generate``: boards from seeds, with a manifest."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from arena import games
from arena.boards import write_generated
from arena.commands import positive_int
from arena.errors import ArenaError
from generator import BadParameters


def main(args: argparse.Namespace) -> int:
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


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "generate",
        help="generate boards from seeds",
        description="Generate boards from seeds. Each game has its own parameters: "
        "arena generate GAME --help lists them.",
    )
    subparsers = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for name, (_, module) in sorted(games.generators().items()):
        gp = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(gp)
        gp.add_argument("--seed", type=int, required=True, help="seed of the first board")
        gp.add_argument("--count", type=positive_int, default=1, help="how many boards (seeds SEED, SEED+1, ...)")
        gp.add_argument(
            "--out", metavar="DIR",
            help="write board1.in ... boardK.in and manifest.json into DIR "
            "(without it: the boards on standard output)",
        )
        gp.add_argument("--overwrite", action="store_true", help="replace boards already in DIR")
        gp.set_defaults(func=main, generator=module)

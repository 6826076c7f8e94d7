"""``arena report``: a tournament's static HTML report, with a replay of every game."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from arena import report
from arena.commands import open_results
from arena.errors import ArenaError


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "report",
        help="write a static HTML report of a tournament, with a replay page per game",
        description="Write a tournament's report as static HTML (it opens from the file system, no server "
        "needed), for a finished or an interrupted tournament: standings, a crosstable whose cells open the "
        "games of that pair, points per board (one-player games: scores, each opening its game), every fault "
        "with its message, CPU time per bot (median, max), and a replay page per game.",
    )
    parser.add_argument("folder", metavar="RESULTS", help="a results folder (results/NAME), or just NAME")
    parser.add_argument("--out", metavar="DIR", help="where to write it (default RESULTS/report)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    store = open_results(args.folder)
    out = Path(args.out) if args.out else store.folder / "report"
    try:
        index = report.build(store, out, progress=lambda text: print(text, file=sys.stderr))
    except OSError as exc:
        raise ArenaError(f"cannot write the report into {str(out)!r}: {exc}") from None
    print(f"report: {index} (open it in a browser: file://{index.resolve()})")
    return 0

"""``arena show``: the tables of a finished or interrupted tournament."""

from __future__ import annotations

import argparse
from pathlib import Path

from tabulate import tabulate_formats

from arena import tables
from arena.store import Store


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "show",
        help="print the tables of a finished or interrupted tournament",
        description="Print the tables of a tournament from its records (finished or interrupted).",
    )
    parser.add_argument("folder", metavar="RESULTS", help="a results folder (results/NAME), or just NAME")
    parser.add_argument("--format", default="simple", choices=tabulate_formats, metavar="FORMAT",
                        help="table format: plain, simple, github, html, latex, ... (default simple)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.exists() and not folder.is_absolute() and (Path("results") / folder).exists():
        folder = Path("results") / folder
    store = Store.open_existing(folder)
    print(tables.render(store.config(), store.records(), args.format), end="")
    return 0

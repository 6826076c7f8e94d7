"""``arena show``: the tables of a finished or interrupted tournament."""

from __future__ import annotations

import argparse

from tabulate import tabulate_formats

from arena import tables
from arena.commands import open_results
from arena.errors import ArenaError
from arena.text import display, json_for_terminal


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "show",
        help="print the tables of a finished or interrupted tournament",
        description="Print the tables of a tournament from its records (finished or interrupted).",
    )
    parser.add_argument("folder", metavar="RESULTS", help="a results folder (results/NAME), or just NAME")
    parser.add_argument("--format", default="simple", choices=[*tabulate_formats, *tables.DATA_FORMATS],
                        metavar="FORMAT",
                        help="table format: plain, simple, github, html, latex, ... (default simple); for "
                        "programs: json (every table, numbers as numbers) or csv (each table after a "
                        "'# title' line; --table picks one)")
    parser.add_argument("--table", metavar="NAME",
                        help="only this table (standings, crosstable, ratings, per_board; a Swiss adds swiss and "
                        "rounds, a knockout knockout; for one-player games scores, means)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    store = open_results(args.folder)
    config = store.config()
    records = store.summaries()  # a stream: the tables are accumulated as it is read
    if args.format not in tables.DATA_FORMATS and args.table is None:
        print(tables.render(config, records, args.format, store.writer()), end="")
        return 0
    data = tables.data(config, records)
    chosen = data["tables"]
    if args.table is not None:
        if args.table not in chosen:
            raise ArenaError(f"no table {args.table!r} for {config['game']}; the tables are: {', '.join(chosen)}")
        chosen = {args.table: chosen[args.table]}
    if args.format == "json":
        print(json_for_terminal({**data, "tables": chosen}))  # exact data, no control character printed
    elif args.format == "csv":
        parts = [tables.table_text(table, "csv") for table in chosen.values()]
        titled = [f"# {display(table['title'])}\n{text}" for table, text in zip(chosen.values(), parts)]
        print(parts[0] if args.table else "\n\n".join(titled))
    else:
        print(tables.table_text(next(iter(chosen.values())), args.format))
    return 0

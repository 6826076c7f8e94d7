"""``arena languages``: the language table, and which of its languages this machine can build and run."""

from __future__ import annotations

import argparse

from tabulate import tabulate

from arena import languages
from arena.bots import Compilers
from arena.text import display


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "languages",
        help="list the languages bots can be written in, and which this machine has",
        description="List the language table (arena/languages.toml, and a --languages file over it): how a "
        "bot's file is recognised, compiled and run, and whether this machine has the toolchain where the "
        "sandbox can see it (/usr), with its version, or which Debian package to install.",
    )
    parser.add_argument("--languages", metavar="FILE", help="a TOML file of languages to add or put in place "
                        "of the shipped rows (the form of arena/languages.toml)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="look for toolchains anywhere on PATH, as --no-sandbox runs find them")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    table = languages.load(args.languages)
    variables = {**Compilers(languages=table).variables(), "source": "/SOURCE",
                 "sources": ["/SOURCES"], "stem": "STEM", "output": "/OUTPUT", "build": "/BUILD"}
    rows = [[row.name, " ".join(row.suffixes), row.main, display(status_of(row, variables, sandboxed=not args.no_sandbox))]
            for row in table.rows]
    print(tabulate(rows, headers=["language", "files", "folder bot", "toolchain here"]))
    print("\nHow each is built and run:")
    for row in table.rows:
        if row.compile:
            print(f"  {row.name} compile: {display(' '.join(row.compile))}")
        print(f"  {row.name} run:     {display(' '.join(row.run))}")
    if table.files:
        print(f"\n(with {', '.join(display(name) for name in table.files)} over arena/languages.toml)")
    return 0


def status_of(row: languages.Language, variables: dict, *, sandboxed: bool) -> str:
    """The toolchain's version, or what is wrong."""
    for command in (row.compile, row.run):
        if command:
            found = languages.locate(languages.expand(command, variables), row, sandboxed=sandboxed)
            if isinstance(found, str):
                return found
    return languages.version(row, variables, sandboxed=sandboxed) or "yes"

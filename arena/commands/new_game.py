"""``arena new-game NAME``: a working skeleton of a game package, to turn into a game of your own."""

from __future__ import annotations

import argparse
import importlib.util
import re
from pathlib import Path

from arena import games
from arena.errors import ArenaError

#: The skeleton (a small complete game, a race to a target), its name written as this token.
SKELETON = Path(__file__).resolve().parent.parent / "skeleton"
TOKEN = "__game__"


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "new-game",
        help="write a skeleton game package to start a game of your own",
        description="Write a game package named NAME: a small complete game (a race to a target) with its "
        "rules (the referee), board generator, replay view, two bots, boards, rules text for contestants "
        "and tests, declared to the arena by an entry point. 'pip install -e DIR' makes it playable at "
        "once; then change it into your game (the README's 'A game of your own' walks through it).",
    )
    parser.add_argument("name", metavar="NAME", help="the game's name, also its Python package's: lower case "
                        "letters, digits and '_', starting with a letter (e.g. nim, connect6)")
    parser.add_argument("--out", metavar="DIR", help="where to write it (default: ./arena-NAME)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    name = args.name
    check_name(name)
    out = Path(args.out or f"arena-{name}")
    if out.exists() and any(out.iterdir()):
        raise ArenaError(f"{str(out)!r} exists and is not empty: choose another --out")
    written = write(name, out)
    print(f"wrote {len(written)} files into {out}/. Next:\n"
          f"  pip install -e {out}                 # 'arena games' then lists {name}\n"
          f"  arena games --check {name}\n"
          f"  arena run --bots {out}/{name}/bots/* --boards {out}/{name}/boards\n"
          f"  python -m pytest {out}/tests")
    return 0


def check_name(name: str) -> None:
    """A name that is a package name of its own, taken by no game and no module already."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ArenaError(f"{name!r} is not a game name here: lower case letters, digits and '_', starting with a "
                         "letter (it is also the Python package's name)")
    if name in games.names_and_aliases():
        raise ArenaError(f"a game named {name!r} is installed already (arena games)")
    if importlib.util.find_spec(name) is not None:
        raise ArenaError(f"a Python module named {name!r} exists already here: a package of that name would "
                         "shadow it or be shadowed; choose another name")


def write(name: str, out: Path) -> list[Path]:
    """Copy the skeleton into ``out``, its token replaced by ``name`` in paths and text."""
    written = []
    for source in sorted(SKELETON.rglob("*")):
        if source.is_dir() or "__pycache__" in source.parts:
            continue
        target = out / str(source.relative_to(SKELETON)).replace(TOKEN, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.read_text(encoding="utf-8").replace(TOKEN, name), encoding="utf-8")
        written.append(target)
    return written

"""``arena games``: the installed games, their rules, and the conformance check of a game."""

from __future__ import annotations

import argparse
import sys

from tabulate import tabulate

from arena import games
from arena.errors import ArenaError
from arena.text import display


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "games",
        help="list the installed games, print a game's rules, or check a game package",
        description="List every installed game: the arena's own and those of installed game packages (any "
        "package declaring an entry point in the group 'arena.games'; arena new-game writes one). A game "
        "that fails to load is listed with its error.",
    )
    parser.add_argument("--rules", metavar="GAME", help="print the rules of GAME for contestants (Markdown)")
    parser.add_argument("--check", nargs="*", metavar="GAME",
                        help="run the conformance checks on the named games (none named: every game): random "
                        "legal games through the referee, the generator's boards by seed, the view drawing "
                        "every step, the judge agreeing with the referee, and a short tournament of the game's "
                        "example bots whose records replay and whose report is written and opens in Chromium "
                        "(where Chromium and playwright are installed); exit status 1 if one fails")
    parser.add_argument("--quick", action="store_true", help="with --check: no tournament (the checks of the "
                        "rules, the generator and the view only)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    if args.rules:
        text = games.get(args.rules).rules()
        if not text:
            raise ArenaError(f"game {args.rules!r} declares no rules text")
        sys.stdout.write(display(text, multiline=True, backslash=False))
        return 0
    if args.check is not None:
        return _check(args.check or games.names(), quick=args.quick)
    print(listing())
    return 0


def listing() -> str:
    """The table of installed games, then one line per game that does not load."""
    rows, broken = [], []
    for name, entry in games.installed().items():
        try:
            referee = entry.referee()
            game = entry.game
        except games.GameError as exc:
            broken.append(f"{display(name)}: {display(str(exc))}")
            continue
        extras = [word for word, present in (("generator", game.generator), ("judge", referee.judge_inputs),
                                             ("solver", game.solver)) if present]
        rows.append([display(name), referee.players, referee.protocol, ", ".join(extras) or "-",
                     display(", ".join(game.aliases)) or "-", display(f"{entry.package} {entry.version}")])
    text = tabulate(rows, headers=["game", "players", "moves", "also", "aliases", "package"], tablefmt="simple")
    if broken:
        text += "\n\nGames that cannot be loaded:\n" + "\n".join(f"  {line}" for line in broken)
    return text + "\n\nRules: arena games --rules GAME; a new game of your own: arena new-game NAME."


def _check(names: list[str], quick: bool) -> int:
    from arena import conformance

    failed = 0
    for name in names:
        entry = games.get(name)
        print(f"{entry.name} ({entry.package} {entry.version}):")
        for check, problem in conformance.run(entry, tournament=not quick):
            print(f"  {'FAIL' if problem else 'ok  '} {check}" + (f": {display(problem, multiline=True)}"
                                                                   if problem else ""), flush=True)
            failed += bool(problem)
    print(f"{failed} check(s) failed" if failed else "every check passed")
    return 1 if failed else 0

"""``arena run --system``: the format's options, checked, and the format they name (``arena.formats``)."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from arena import formats, tables
from arena.commands import open_results, positive_int
from arena.errors import ArenaError
from arena.tournament import Tournament


def add_system_options(parser: argparse.ArgumentParser) -> None:
    """--system, --challengers, --rounds, --seeding."""
    group = parser.add_argument_group(
        "format", "Who meets whom (two-player games; the README's 'Formats' section has the rules). "
        "(The option is --system, as chess arbiters call it: --format is the tables' format.)")
    group.add_argument("--system", choices=formats.SYSTEMS, default="round-robin", metavar="SYSTEM",
                       help="round-robin (default: every pair of bots), gauntlet (the --challengers against every "
                       "other bot), swiss (--rounds rounds, each pairing bots of near score that have not met) or "
                       "knockout (single elimination by seed)")
    group.add_argument("--challengers", nargs="+", metavar="BOT",
                       help="gauntlet: the bots that play the field, by name or as given in --bots")
    group.add_argument("--rounds", type=positive_int, metavar="R",
                       help="swiss: the number of rounds (default: ceil(log2(bots)) + 2)")
    group.add_argument("--seeding", metavar="ORDER", default="given",
                       help="swiss and knockout: 'given' (default: the order of --bots), an earlier "
                       "tournament's results folder (results/NAME, or NAME), whose Elo ratings seed the bots, or a "
                       "text file of bot names, one per line, the first seed first ('#' starts a comment); bots "
                       "it does not rate or list come after, in the order given")


def check_options(args: argparse.Namespace) -> None:
    """Refuse options that the chosen system does not take, before any bot is prepared."""
    system = args.system
    if args.challengers and system != "gauntlet":
        raise ArenaError(f"--challengers is for --system gauntlet, not {system!r}")
    if system == "gauntlet" and not args.challengers:
        raise ArenaError("--system gauntlet needs --challengers: the bots that play the field")
    if args.rounds is not None and system != "swiss":
        raise ArenaError(f"--rounds is for --system swiss, not {system!r}")
    if args.seeding != "given" and system not in ("swiss", "knockout"):
        raise ArenaError(f"--seeding is for --system swiss or knockout, not {system!r}")


def with_system(args: argparse.Namespace, game: Tournament) -> Tournament:
    """The tournament with the format the options name (its bots in seeding order)."""
    if args.system == "round-robin":
        return game
    if game.referee.players != 2:
        raise ArenaError(f"--system {args.system} pairs bots: it needs a two-player game, and {game.referee.name} "
                         f"is a {game.referee.players}-player game (its bots all play every board)")
    names = [bot.name for bot in game.bots]
    if args.system == "gauntlet":
        return dataclasses.replace(game, system=formats.Gauntlet(_challengers(args.challengers, game)))
    seeds, seeding = _seeds(args.seeding, names)
    bots = tuple(sorted(game.bots, key=lambda bot: seeds.index(bot.name)))
    if args.system == "knockout":
        return dataclasses.replace(game, bots=bots, system=formats.Knockout(seeding))
    most = formats.most_rounds(len(names))
    rounds = args.rounds or formats.default_rounds(len(names))
    if rounds > most:
        raise ArenaError(f"--rounds {rounds} is too many for {len(names)} bots: after {most} rounds every two "
                         f"bots have met (a round-robin), and a Swiss never pairs two bots twice; give at most {most}")
    return dataclasses.replace(game, bots=bots, system=formats.Swiss(rounds, seeding))


def _challengers(given: list[str], game: Tournament) -> tuple[str, ...]:
    """The challengers' names, each found among the bots by name or by the path given in --bots."""
    found: list[str] = []
    for text in given:
        bot = next((b for b in game.bots if text in (b.name, str(b.path)) or _same_path(text, b.path)), None)
        if bot is None:
            excluded = next((bad for bad in game.excluded if text in (bad.name, str(bad.path))
                             or _same_path(text, bad.path)), None)
            if excluded is not None:
                raise ArenaError(f"--challengers {text!r} is excluded (it cannot play): {excluded.reason.splitlines()[0]}")
            raise ArenaError(f"--challengers {text!r} is not one of the bots given in --bots (they are: "
                             f"{', '.join(b.name for b in game.bots)})")
        if bot.name not in found:
            found.append(bot.name)
    if len(found) == len(game.bots):
        raise ArenaError("--challengers names every bot: a gauntlet needs a field for them to play "
                         "(for every pair of bots, leave out --system)")
    return tuple(found)


def _same_path(text: str, path: Path) -> bool:
    try:
        return Path(text).resolve() == Path(path).resolve()
    except OSError:
        return False


def _seeds(seeding: str, names: list[str]) -> tuple[list[str], str]:
    """The bots in seeding order, and where it came from in words."""
    if seeding == "given":
        return names, "given"
    if Path(seeding).is_file():
        return _listed(Path(seeding), names)
    store = open_results(seeding)
    config = store.config()
    if config.get("players") != 2 or config.get("match"):
        raise ArenaError(f"--seeding {seeding!r}: that is not a two-player tournament, so it has no ratings")
    rows = tables.data(config, store.summaries())["tables"]["ratings"]["rows"]
    rated = [row[1] for row in rows if row[1] in names]  # (rows best first)
    if not rated:
        raise ArenaError(f"--seeding {seeding!r}: none of these bots has a rating there "
                         f"(it rated {', '.join(row[1] for row in rows) or 'none'})")
    return rated + [name for name in names if name not in rated], f"ratings of {store.folder}"


def _listed(path: Path, names: list[str]) -> tuple[list[str], str]:
    """The bots in the order a seeding file lists them (one name per line), then those it leaves out."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"--seeding {str(path)!r}: cannot read it: {exc}") from None
    listed: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        name = line.split("#", 1)[0].strip()
        if name in listed:
            raise ArenaError(f"--seeding {str(path)!r}, line {number}: {name!r} is listed twice")
        if name:
            listed.append(name)
    seeds = [name for name in listed if name in names]
    if not seeds:
        raise ArenaError(f"--seeding {str(path)!r}: it lists none of these bots (it lists "
                         f"{', '.join(map(repr, listed[:10])) or 'no name'}; the bots are {', '.join(names)})")
    return seeds + [name for name in names if name not in seeds], f"the order in {path}"


def announce(game: Tournament) -> str:
    """What the format will play, said before it starts, against the round-robin's count."""
    system, bots, boards = game.system, len(game.bots), len(game.boards)
    games = system.games(bots, boards)
    full = formats.round_robin_games(bots, boards)
    what = {"gauntlet": lambda: f"the challengers ({', '.join(system.challengers)}) against the field",
            "swiss": lambda: f"{system.count} rounds of {bots // 2} pairings",
            "knockout": lambda: f"{bots - 1} ties in {max(1, (bots - 1).bit_length())} rounds"}[system.name]()
    return (f"arena: {system.name}: {what}, each pairing on {boards} boards in both seat orders: {games} games "
            f"(a round-robin of these {bots} bots would play {full})")

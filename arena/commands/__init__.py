"""The subcommands of ``arena``, one module each, and what they share.

Each module has ``add_parser(subparsers)`` (which sets ``func``) and a
``main(args) -> int``; the CLI lists them in ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from arena.errors import ArenaError
from arena.games import referee as get_referee  # noqa: F401 (a referee by name or alias, or an ArenaError)
from arena.store import Store

if TYPE_CHECKING:
    from arena.bots import Compilers
    from arena.sandbox import Sandbox

COMMANDS = ("run", "show", "generate", "judge", "solve", "match", "replay", "report", "rerun", "worker", "games",
            "new_game", "languages", "certificates", "play")


def read_text(path: str, what: str) -> str:
    """A file's text (or standard input for "-"), as an ArenaError if unreadable."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read {what} {path!r}: {exc}") from None


def positive_int(text: str) -> int:
    """argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """argparse type: a number above 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
    return value


# -- what every command that plays games shares: the sandbox and the compilers


def add_bot_options(parser: argparse.ArgumentParser) -> None:
    """--no-sandbox, --sandbox-uid, --no-seccomp, --disk, --languages, --cc, --cflags, --cxx, --cxxflags."""
    sandboxing = parser.add_argument_group(
        "sandbox", "Every bot runs in a bubblewrap sandbox: it sees only its own folder and program, the system's "
        "files and the arena's Python packages (read-only), no other process, no network.")
    sandboxing.add_argument("--no-sandbox", action="store_true",
                            help="run bots as plain processes of the arena's user (only for bots you trust: "
                            "a hostile bot can then read its opponents, forge the results or stop the arena)")
    sandboxing.add_argument("--sandbox-uid", type=int, metavar="UID",
                            help="when the arena runs as root, the first of the unprivileged uids bots run as, one "
                            "per sandbox (default 60000: the first free of 60000-60999; uids of accounts are skipped)")
    sandboxing.add_argument("--no-seccomp", action="store_true",
                            help="do not filter the system calls of sandboxed bots and compilers (by default "
                            "keyrings, new namespaces, mounts, ptrace, bpf, io_uring and a few more are refused: "
                            "see the README); only where the filter cannot be built, and said in the run's "
                            "first lines")
    sandboxing.add_argument("--disk", type=positive_int, default=16, metavar="MIB",
                            help="size of a bot's folder, and of its private /tmp, in MiB (default 16)")
    compiling = parser.add_argument_group(
        "languages and compilers", "A bot's language is known by its file's ending (the table: 'arena languages'); "
        "compiled languages are compiled once per tournament, in the sandbox; make's variables CC, CXX, "
        "CFLAGS and CXXFLAGS are read from the environment when these options are not given.")
    compiling.add_argument("--languages", metavar="FILE",
                           help="a TOML file of languages to add, or to put in place of the shipped rows of the "
                           "same name (the form of arena/languages.toml; 'arena languages --languages FILE' shows "
                           "the result)")
    compiling.add_argument("--cc", metavar="COMMAND", help="the C compiler (default cc)")
    compiling.add_argument("--cflags", metavar="FLAGS", help="C flags (default '-O2 -std=gnu11'; -lm is linked)")
    compiling.add_argument("--cxx", metavar="COMMAND", help="the C++ compiler (default c++)")
    compiling.add_argument("--cxxflags", metavar="FLAGS", help="C++ flags (default '-O2 -std=c++17')")


def prepare_from_options(args: argparse.Namespace, results: Path) -> tuple[list, list, Sandbox | None, Compilers]:
    """The sandbox of this run (checked to work here, and announced), and the
    bots copied into ``results/.bots`` and compiled in it: (bots, excluded,
    sandbox or None for --no-sandbox, compilers)."""
    from arena.bots import COPIES, prepare_bots
    from arena.sandbox import configure, sandboxed_compiler

    if args.no_sandbox:
        sandbox = None
        print("arena: sandbox: none (--no-sandbox): bots run as plain processes of uid "
              f"{os.getuid()}; trust them", file=sys.stderr)
    else:
        sandbox = configure(uid=args.sandbox_uid, disk=args.disk * 2**20, filter_calls=not args.no_seccomp)
        print(f"arena: {sandbox.describe()}", file=sys.stderr)
    compilers = compilers_of(args)
    bots, excluded = prepare_bots(args.bots, results / COPIES, log=lambda text: print(f"arena: {text}", file=sys.stderr),
                                  compilers=compilers, compile=sandboxed_compiler(sandbox) if sandbox else None,
                                  sandboxed=sandbox is not None)
    return bots, excluded, sandbox, compilers


def compilers_of(args: argparse.Namespace) -> Compilers:
    """How bots are built, by the options: the language table (with --languages) and --cc, --cflags, ..."""
    from arena import languages
    from arena.bots import Compilers

    table = languages.load(args.languages)
    return Compilers.from_environment(languages=table, cc=args.cc, cxx=args.cxx, cflags=args.cflags,
                                      cxxflags=args.cxxflags)


def open_results(text: str) -> Store:
    """A tournament's results folder, given as a path or as just its NAME under ``results/``."""
    folder = Path(text)
    if not folder.exists() and not folder.is_absolute() and (Path("results") / folder).exists():
        folder = Path("results") / folder
    return Store.open_existing(folder)


# -- a TLS cluster: the client's and the workers' files


def add_tls_options(parser: argparse.ArgumentParser) -> None:
    """--tls-ca-file, --tls-cert, --tls-key: a tls:// cluster's files ('arena certificates' makes them)."""
    group = parser.add_argument_group(
        "TLS", "For a tls:// cluster: the files 'arena certificates' makes (the same three on every machine)")
    group.add_argument("--tls-ca-file", metavar="FILE", help="the authority's certificate (ca.pem)")
    group.add_argument("--tls-cert", metavar="FILE", help="this machine's certificate (node.pem)")
    group.add_argument("--tls-key", metavar="FILE", help="this machine's private key (node-key.pem)")


def tls_of(args: argparse.Namespace, address: str):
    """The TLS files given for the scheduler at ``address`` (all three, each readable, and a tls://
    address), or None for a tcp:// one; an ArenaError naming what is missing."""
    from arena.cluster import Tls

    given = {"--tls-ca-file": args.tls_ca_file, "--tls-cert": args.tls_cert, "--tls-key": args.tls_key}
    if address.startswith("tls://") != any(given.values()):
        raise ArenaError(f"{address}: a tls:// address needs --tls-ca-file, --tls-cert and --tls-key, and those "
                         "need a tls:// address")
    if not any(given.values()):
        return None
    if missing := [name for name, value in given.items() if not value]:
        raise ArenaError(f"TLS needs all three files: {', '.join(missing)} missing (arena certificates makes them)")
    for name, value in given.items():
        if not os.access(value, os.R_OK):
            raise ArenaError(f"{name} {value!r} cannot be read")
    return Tls(*(os.path.abspath(value) for value in given.values()))


def game_of_boards(given: str | None, boards: list[str] | None = None, generator: str | None = None, *,
                   recursive: bool = False) -> str:
    """The game to play: ``--game`` when given, else the one the boards are for: what their
    manifests say (as ``arena generate`` writes them) or the generator of ``--generate``; with
    neither, the one game whose rules read the first board.  Else an ArenaError asking for ``--game``."""
    from arena import games
    from arena.boards import find_boards, manifest_games

    if given:
        return games.get(given).name
    paths = find_boards(boards or [], recursive=recursive) if not generator else []
    named = {generator: None} if generator else manifest_games(paths)
    found = {games.of_generator(name) for name in named}
    if len(found) == 1 and None not in found:
        return found.pop()
    if not named and paths:
        readers, problems = _games_reading(paths[0])
        if len(readers) == 1:
            return readers[0]
        if not readers:
            raise ArenaError(f"no manifest.json beside the boards says which game they are for, and no game reads "
                             f"{str(paths[0])!r}: give --game; what each game found wrong:\n"
                             + "\n".join(f"  {name}: {problem}" for name, problem in problems.items()))
        if readers:
            raise ArenaError(f"{str(paths[0])!r} is a board of several games ({', '.join(readers)}) and no "
                             "manifest.json beside it says which: give --game")
    if len(named) > 1:
        where = ", ".join(f"{name!r} ({path})" if path else repr(name) for name, path in named.items())
        raise ArenaError(f"the boards are for different games: {where}; give --game")
    if named:
        name, path = next(iter(named.items()))
        raise ArenaError(f"the boards are for {name!r} ({path or '--generate'}), which names no one game: "
                         f"give --game, one of: {', '.join(games.names())}")
    raise ArenaError(f"no manifest.json beside the boards says which game they are for: give --game, one of: "
                     f"{', '.join(games.names())}")


def _games_reading(path: Path) -> tuple[list[str], dict[str, str]]:
    """The games whose rules read the board file ``path`` (with the files they keep beside it),
    and what each of the others found wrong."""
    from arena import games
    from arena.boards import load_board

    found, problems = [], {}
    for name in games.names():
        try:
            load_board(games.referee(name), path)
        except ArenaError as exc:
            problems[name] = str(exc)
            continue
        found.append(name)
    return found, problems

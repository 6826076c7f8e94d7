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
    from arena.sandbox import Limits, Sandbox
    from referees.base import Referee

COMMANDS = ("run", "show", "generate", "judge", "solve", "match", "replay", "report", "rerun", "worker", "games",
            "new_game", "languages", "certificates", "check", "contest", "serve", "submit")


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
    from arena.sandbox import sandboxed_compiler

    sandbox = sandbox_of(args)
    compilers = compilers_of(args)
    bots, excluded = prepare_bots(args.bots, results / COPIES, log=lambda text: print(f"arena: {text}", file=sys.stderr),
                                  compilers=compilers, compile=sandboxed_compiler(sandbox) if sandbox else None,
                                  sandboxed=sandbox is not None)
    return bots, excluded, sandbox, compilers


def sandbox_of(args: argparse.Namespace) -> Sandbox | None:
    """The sandbox the options ask for (checked to work here), announced on standard error; None for
    --no-sandbox."""
    from arena.sandbox import configure

    if args.no_sandbox:
        print("arena: sandbox: none (--no-sandbox): bots run as plain processes of uid "
              f"{os.getuid()}; trust them", file=sys.stderr)
        return None
    sandbox = configure(uid=args.sandbox_uid, disk=args.disk * 2**20, filter_calls=not args.no_seccomp)
    print(f"arena: {sandbox.describe()}", file=sys.stderr)
    return sandbox


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


# -- the limits of one invocation

#: Below this, no bot can start: Python alone needs about 10 MiB resident, a C program 1 to 2 MiB
#: plus what it allocates, and the arena's own checks need room for the process to exist at all.
MIN_MEMORY_MIB = 16


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """--cpu, --wall, --memory: the limits of one invocation of a bot (``limits_of`` makes them)."""
    parser.add_argument("--cpu", type=positive_float, metavar="SECONDS",
                        help="CPU time per invocation, whole process tree (default: the game's, 1 s per move, "
                        "10 s for one-shot games)")
    parser.add_argument("--wall", type=positive_float, metavar="SECONDS",
                        help="wall-clock cap per invocation, at least the CPU limit (default 3 x the CPU limit)")
    parser.add_argument("--memory", type=positive_int, default=256, metavar="MIB",
                        help=f"memory per invocation in MiB, at least {MIN_MEMORY_MIB} (default 256)")


def limits_of(referee: Referee, cpu: float | None, wall: float | None, memory_mib: int) -> Limits:
    """The limits of one invocation, as ``add_limit_options`` reads them (``cpu`` None: the game's
    default); limits under which every move would fault are refused."""
    from arena.sandbox import Limits

    cpu = cpu or referee.cpu_limit
    check_limits(cpu, wall, memory_mib)
    return Limits(cpu=cpu, wall=wall, memory=memory_mib * 2**20)


def check_limits(cpu: float, wall: float | None, memory_mib: int) -> None:
    """Refuse limits under which every move would fault, before any game is played."""
    if wall is not None and wall < cpu:
        raise ArenaError(f"--wall {wall:g} is below the CPU limit of {cpu:g} s: a move would be stopped by the "
                         f"wall clock before it could use its CPU time; give --wall at least {cpu:g} (or leave it "
                         f"out: 3 x the CPU limit)")
    if memory_mib < MIN_MEMORY_MIB:
        raise ArenaError(f"--memory {memory_mib} MiB is too little for any bot to start (Python alone needs about "
                         f"10 MiB); give at least {MIN_MEMORY_MIB}")


# -- a TLS cluster: the client's and the workers' files


def add_tls_options(parser: argparse.ArgumentParser) -> None:
    """--tls-ca-file, --tls-cert, --tls-key: a tls:// cluster's files ('arena certificates' makes them)."""
    group = parser.add_argument_group(
        "TLS", "For a tls:// cluster: the files 'arena certificates' makes (the same three on every machine). "
        "Those not given are taken from Dask's own configuration, where it has them (distributed.comm.tls: "
        "ca-file and, for this machine's part, client.cert and client.key, or worker.cert and worker.key for "
        "'arena worker'; in Dask's YAML files, e.g. ~/.config/dask/, or its DASK_DISTRIBUTED__COMM__TLS__* "
        "environment variables)")
    group.add_argument("--tls-ca-file", metavar="FILE", help="the authority's certificate (ca.pem)")
    group.add_argument("--tls-cert", metavar="FILE", help="this machine's certificate (node.pem)")
    group.add_argument("--tls-key", metavar="FILE", help="this machine's private key (node-key.pem)")


#: Where Dask's configuration keeps each file of a TLS cluster, by the option that gives it and the
#: machine's part ("client" for 'arena run', "worker" for 'arena worker').
DASK_TLS = {"--tls-ca-file": "distributed.comm.tls.ca-file", "--tls-cert": "distributed.comm.tls.{role}.cert",
            "--tls-key": "distributed.comm.tls.{role}.key"}


def dask_variable(key: str) -> str:
    """The environment variable that sets a key of Dask's configuration (as Dask's documentation
    writes it: upper case, a double underscore between levels)."""
    return "DASK_" + key.upper().replace(".", "__").replace("-", "_")


def tls_of(args: argparse.Namespace, address: str, role: str = "client"):
    """The TLS files for the scheduler at ``address``, for a tls:// address: each from its ``--tls-*``
    option when given, else from Dask's configuration (for ``role``, "client" or "worker"), each
    readable (the key may be left out when the certificate's file holds it, as Dask allows); None for
    a tcp:// address.  An ArenaError naming what is missing, and both ways to give it."""
    from arena.cluster import Tls, dask_setting

    given = {"--tls-ca-file": args.tls_ca_file, "--tls-cert": args.tls_cert, "--tls-key": args.tls_key}
    if not address.startswith("tls://"):
        if any(given.values()):
            raise ArenaError(f"{address}: --tls-ca-file, --tls-cert and --tls-key are for a tls:// address")
        return None
    keys = {option: key.format(role=role) for option, key in DASK_TLS.items()}
    files = {option: (value, option) if value else (dask_setting(keys[option]), f"Dask's {keys[option]}")
             for option, value in given.items()}
    for path, where in files.values():
        if path and not os.access(path, os.R_OK):
            raise ArenaError(f"{where} {path!r} cannot be read")
    (ca, _), (cert, _), (key, _) = files.values()
    if not key and cert and _holds_private_key(cert):
        files.pop("--tls-key")
    if missing := [option for option, (path, _) in files.items() if not path]:
        ways = ", ".join(f"{option} or {keys[option]} ({dask_variable(keys[option])})" for option in missing)
        raise ArenaError(f"{address}: a tls:// address needs the cluster's TLS files ('arena certificates' makes "
                         f"them); missing: {ways}. Give the options, or set them in Dask's configuration (a YAML "
                         "file of ~/.config/dask, or the environment variables)")
    return Tls(os.path.abspath(ca), os.path.abspath(cert), os.path.abspath(key) if key else None)


def _holds_private_key(path: str) -> bool:
    """Whether a PEM file holds a private key beside its certificate (Dask then needs no key file)."""
    try:
        return b"PRIVATE KEY-----" in Path(path).read_bytes()
    except OSError:
        return False


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

"""``arena match A B``: two bots, board after board with the seats swapped,
until a sequential test decides which is stronger (or the boards run out).

A match is a tournament of two (``arena.tournament``), played in batches of
boards, recorded and resumable like ``arena run`` and shown by ``arena show``.
Every finished pair of games prints one line (``tables.match_line``); the
figures are ``arena.stats``'s.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import shlex
import signal
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from arena import games, report, stats, tables, tournament
from arena.boards import Board, find_boards, load_board
from arena.commands import game_of_boards, get_referee, positive_int
from arena.commands.run import _setup_logging, add_run_options, resumable, tournament_of
from arena.errors import ArenaError
from arena.store import LOG, Store, Summary
from generator import BadParameters
from referees.base import Referee

log = logging.getLogger("arena")

#: Boards handed to the pool at once, per job.  tournament.run plays one game of
#: each board before the second ones, so a pair completes only in the second half
#: of its batch: small batches let the test stop sooner, large ones idle the
#: workers less at the end of each batch.
BATCH_PER_JOB = 2

LINE_HELP = """\
output: one line on standard output each time a pair of games (one board, both seat orders) ends,
all figures from A's side:

  pairs=N penta=n0,n1,n2,n3,n4 score=S model=M [nelo=X] elo=E low=L high=H los=P
  [llr=X lower=Y upper=Z] result=R

  penta   pairs in which A scored 0, 1/2, 1, 3/2, 2 (a win 1, a draw 1/2)
  score   A's mean score per game (as played)
  model   the Elo model of the --sprt bounds: logistic, or normalized (then nelo: A's normalized Elo)
  elo     A's logistic Elo advantage; low, high: its 95 % likelihood-ratio interval (honest from one
          pair on; +-1199.8 is the cap of a score of 0.999 or 0.001)
  los     the likelihood of superiority in %, from 20 pairs on ("-" before)
  llr     with --sprt: the log-likelihood ratio and the bounds at which the test stops
  result  running, H1, H0, max-pairs or no-more-boards (each pair's line once: the last line
          carries the reason it stopped)

After the last line, one sentence: "H1 accepted: A is stronger than B", "H0 accepted: A is not
stronger than B", or why it stopped without a decision.  Interrupted? Run the same command with
the same --name: recorded games are kept."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "match",
        help="play two bots against each other until a statistical test decides",
        # (wrapped here: the raw formatter, which keeps the epilog's lines, does not wrap it)
        description=textwrap.fill(
            "Play bot A against bot B: each board twice, once with each bot moving first, on the boards "
            "given (--boards) or on boards generated from seeds (--generate), and report after every pair of "
            "games the pentanomial counts, the score and A's Elo with its 95 % interval; with --sprt, stop as "
            "soon as the sequential probability ratio test decides. Recorded in RESULTS/NAME like arena run "
            "(resumable, shown by arena show).", 79),
        epilog=LINE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bots", nargs=2, metavar="BOT", help="the two bots, A then B (as for arena run --bots)")
    _add_match_options(parser)
    parser.add_argument(
        "--generate", nargs=argparse.REMAINDER, metavar="GAME ... --seed S",
        help="generate the boards instead: board k (k = 0, 1, ...) from seed S + k with the generator of GAME "
        "and its parameters (arena generate GAME --help), e.g. --generate paint --group 3 --seed 1; "
        "written to RESULTS/NAME/boards/. Everything after --generate is read this way (other options "
        "may follow)")
    parser.set_defaults(func=main, options=_options_parser())


def _add_match_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", metavar="GAME",
                        help="the game, a two-player one (arena games lists them); by default the one the "
                        "boards' manifest.json names, or that of --generate")
    parser.add_argument("--boards", nargs="+", metavar="BOARD",
                        help="board files, or folders whose *.in files are boards, played in this order")
    parser.add_argument("--max-pairs", type=positive_int, metavar="N",
                        help="stop after N pairs of games (default: every board given; with --generate, "
                        "unlimited with --sprt, else required)")
    parser.add_argument("--sprt", nargs="*", metavar="KEY=VALUE",
                        help="stop when a sequential probability ratio test decides between H0: A's Elo over B "
                        "is elo0 and H1: it is elo1, with error rates alpha and beta (default elo0=0 elo1=10 "
                        "alpha=0.05 beta=0.05); model=logistic (default: a score of 1/(1+10^(-elo/400))) or "
                        "model=normalized (elo0 and elo1 in normalized Elo, within +-200, as fishtest and "
                        "fastchess give bounds today); the GSPRT of fishtest on pentanomial counts")
    add_run_options(parser)


def _options_parser() -> argparse.ArgumentParser:
    """The match's options alone, to read those that follow --generate."""
    parser = argparse.ArgumentParser(prog="arena match", add_help=False)
    _add_match_options(parser)
    return parser


def parse_sprt(words: list[str]) -> stats.Sprt:
    """``elo0=0 elo1=10 alpha=0.05 beta=0.05 model=logistic`` (any subset) as an Sprt."""
    values: dict[str, Any] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if sep and key == "model":
            if value not in stats.MODELS:
                raise ArenaError(f"--sprt: model must be one of {', '.join(stats.MODELS)}, got {value!r}")
            values[key] = value
            continue
        if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
            raise ArenaError(f"--sprt: expected elo0=, elo1=, alpha= or beta= followed by a number, or "
                             f"model=logistic|normalized, got {word!r}")
        try:
            values[key] = float(value)
        except ValueError:
            raise ArenaError(f"--sprt: {key} must be a number, got {value!r}") from None
    try:
        return stats.Sprt(**values)
    except ValueError as exc:
        raise ArenaError(f"--sprt: {exc}") from None


# ------------------------------------------------------------ boards
def _read_generate(args: argparse.Namespace) -> tuple[Any, argparse.Namespace] | None:
    """The generator module and its parameters (with ``seed``) from the words
    after --generate; the match options among them go into ``args``."""
    if args.generate is None:
        return None
    if not args.generate:
        raise ArenaError(f"--generate: name a game, one of: {', '.join(games.generators())}")
    try:
        module = games.generator(args.generate[0])
    except LookupError as exc:
        raise ArenaError(f"--generate: {exc}") from None
    own = argparse.ArgumentParser(prog=f"arena match --generate {module.GAME}", add_help=False)
    module.add_arguments(own)
    own.add_argument("--seed", type=int, required=True)
    try:
        params, rest = own.parse_known_args(args.generate[1:])
    except SystemExit:  # argparse printed what is wrong
        raise ArenaError(f"--generate {module.GAME}: bad parameters (see arena generate {module.GAME} --help)") \
            from None
    args.options.parse_args(rest, namespace=args)
    return module, params


def _generated(referee: Referee, module: Any, params: argparse.Namespace, folder: Path,
               played: dict[str, str]) -> Iterator[tuple[Board, Any]]:
    """Boards from seeds S, S + 1, ..., written to ``folder`` as ``seedN.in``; a
    board that no longer matches the one its recorded games were played on
    (the generator changed) is an error; ``played``: the hash of each board
    games were recorded on, by name."""
    folder.mkdir(parents=True, exist_ok=True)
    for seed in itertools.count(params.seed):
        try:
            made = module.generate(params, seed)
        except BadParameters as exc:
            raise ArenaError(f"--generate {module.GAME}: {exc}") from None
        path = folder / f"seed{seed}.in"
        path.write_text(made.text, encoding="utf-8")
        for name, text in made.extras.items():
            (folder / name).write_text(text, encoding="utf-8")
        board, state = load_board(referee, path)
        if played.get(board.name, board.sha256) != board.sha256:
            raise ArenaError(f"seed {seed} now generates another board than the one recorded games were played on "
                             f"({board.name}); the generator has changed: start a new match (another --name)")
        yield board, state


# ------------------------------------------------------------ the match
def main(args: argparse.Namespace) -> int:
    generate = _read_generate(args)
    if (generate is None) == (args.boards is None):
        raise ArenaError("give the boards: either --boards or --generate (not both)")
    referee = get_referee(game_of_boards(args.game, args.boards, generate and generate[0].GAME))
    if referee.players != 2:
        raise ArenaError(f"{referee.name} is a single-player game: a match needs a two-player game")
    sprt = parse_sprt(args.sprt) if args.sprt is not None else None
    if generate and sprt is None and args.max_pairs is None:
        raise ArenaError("with --generate the boards never run out: give --max-pairs, or --sprt to stop on a decision")
    given = tuple(load_board(referee, path) for path in find_boards(args.boards)) if args.boards else ()
    name = args.name or time.strftime(f"{referee.name}-match-%Y%m%d-%H%M%S")
    store = Store(Path(args.results) / name)
    template = tournament_of(args, referee, given)
    if len(template.bots) != 2:
        raise ArenaError(f"a match needs two bots, got {len(template.bots)} from {args.bots!r}")
    config = {
        **template.config(),
        "match": {"sprt": asdict(sprt) if sprt else None,
                  "generate": None if generate is None else {"game": generate[0].GAME, **vars(generate[1])}},
    }
    store.start(config, overwrite=args.overwrite)
    match = _Match(template, store, sprt, args.jobs, args.max_pairs, None if generate else len(given))
    boards = iter(given) if generate is None else _generated(referee, *generate, store.folder / "boards",
                                                               match.boards)
    return _play(match, boards, args, name)


class _Decided(Exception):
    """Raised from the store's append when the test has decided, to stop the pool."""


class _Match:
    """The state of a match; it stands in for the Store in ``tournament.run``,
    so that it sees every game as it is recorded."""

    def __init__(self, template: tournament.Tournament, store: Store, sprt: stats.Sprt | None, jobs: int,
                 max_pairs: int | None = None, boards: int | None = None):
        self.template, self.store, self.sprt, self.jobs = template, store, sprt, jobs
        self.max_pairs, self.boards_given = max_pairs, boards  # where the match stops undecided
        self.printed = -1  # the pairs of the last line printed: each pair's line is printed once
        self.a, self.b = (bot.name for bot in template.bots)
        self._pairs = tables.Pairs(self.a)
        self.recorded: set[str] = set()  # the ids of the games recorded
        self.boards: dict[str, str] = {}  # the hash of each board played, by name
        for game in store.summaries():
            self._count(game)

    def _count(self, game: dict[str, Any] | Summary) -> bool:
        """Count a recorded game; True if it completed a pair."""
        game = Summary.of(game)
        self.recorded.add(game.id)
        self.boards[game.board.name] = game.board.sha256
        return self._pairs.add(game)

    @property
    def counts(self) -> list[int]:
        return self._pairs.counts

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def decision(self) -> str | None:
        return tables.match_result(self.counts, self.sprt)

    def stop(self) -> str | None:
        """The decision, or why the match stops at these pairs without one, or None (play on)."""
        decided = self.decision()
        if decided:
            return decided
        if self.max_pairs is not None and self.pairs >= self.max_pairs:
            return "max-pairs"
        if self.boards_given is not None and self.pairs >= self.boards_given:
            return "no-more-boards"
        return None

    def say(self, result: str) -> None:
        """Print the line of the pairs so far, unless it was printed already."""
        if self.pairs != self.printed:
            print(self.line(result), flush=True)
            self.printed = self.pairs

    def line(self, result: str = "running") -> str:
        return tables.match_line(self.counts, self.sprt, result)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)  # the rest of the Store, as tournament.run may use it

    live: report.Live | None = None  # arena match --report

    def append(self, record: dict[str, Any]) -> None:
        self.store.append(record)
        if self.live:
            self.live.add(record)
        if not self._count(record):
            return
        stopped = self.stop()
        self.say(stopped or "running")
        if stopped:
            raise _Decided(stopped)

    def play(self, boards: list[tuple[Board, Any]]) -> None:
        tournament.run(replace(self.template, boards=tuple(boards)), self, jobs=self.jobs, recorded=self.recorded)


def _play(match: _Match, boards: Iterator[tuple[Board, Any]], args: argparse.Namespace, name: str) -> int:
    _setup_logging(match.store.folder / LOG)
    _quiet_progress()
    resume = shlex.join(["arena", *sys.argv[1:]] + ([] if args.name else ["--name", name]))
    log.info("results in %s (to resume if interrupted: %s)", match.store.folder, resume)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    result = match.stop()
    if match.pairs:
        match.say(result or "running")
    match.live = report.live(args.report, match.store,
                             status=lambda: f"running: {len(match.recorded)} games, {match.line()}")
    limited = itertools.islice(boards, args.max_pairs)
    try:
        while result is None and (batch := list(itertools.islice(limited, BATCH_PER_JOB * args.jobs))):
            match.play(batch)
        if result is None:  # the boards ran out (a pair left incomplete, say): its last line says so
            reached = args.max_pairs is not None and match.pairs >= args.max_pairs
            result = "max-pairs" if reached else "no-more-boards"
            match.say(result)
    except _Decided as decided:
        result = decided.args[0]
    except tournament.WorkerLost as lost:
        if match.live:
            match.live.finish(f"stopped: {lost}")
        raise resumable(lost, match.store, resume) from None
    except KeyboardInterrupt:
        if match.live:
            match.live.finish(f"interrupted; resume it with: {resume}")
        print(f"\narena: interrupted; {match.store.count()} games are recorded in {match.store.folder}. "
              f"Resume with: {resume}", file=sys.stderr)
        return 130
    print(tables.verdict(result, match.a, match.b))
    if match.live:
        match.live.finish(f"{tables.verdict(result, match.a, match.b)} ({match.line(result)})")
    match.store.write_tables(tables.render(match.store.config(), match.store.summaries()))
    print(f"Records: {match.store.games_path}; the tables: arena show {match.store.folder}")
    return 0


def _quiet_progress() -> None:
    """Per-game progress goes to the log file only: the console shows the match lines."""
    for handler in logging.getLogger("arena").handlers:
        inner = getattr(handler, "sub_handler", handler)  # multiprocessing-logging's wrapper
        if not isinstance(inner, logging.FileHandler):
            inner.addFilter(lambda record: record.name != "arena.tournament" or record.levelno > logging.INFO)

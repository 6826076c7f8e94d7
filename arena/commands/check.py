"""``arena check``: a bot checked as a contest checks a submission, before it is submitted."""

from __future__ import annotations

import argparse
import sys
import tempfile
import textwrap
from pathlib import Path

from arena.boards import find_boards, load_board
from arena.bots import COPIES
from arena.check import LEVELS, Case, Report, check, default_house
from arena.commands import (
    add_bot_options,
    add_limit_options,
    compilers_of,
    game_of_boards,
    get_referee,
    limits_of,
    prepare_from_options,
)
from arena.contest import uploads
from arena.contest.uploads import UploadLimits
from arena.errors import ArenaError
from arena.sandbox import close_kept
from arena.text import display, json_for_terminal

#: Exit status of a refused bot (the arena's own errors exit 2, as in every command).
REFUSED = 1

LEVELS_HELP = """\
levels (--level):
  compile     whether the bot compiles (or, in a language not compiled, can run), with the
              compiler's message
  first-move  (the default) on each board, whether its first move is valid: moving first, and
              moving second after a house bot's opening move; each with its verdict (ok,
              time-limit, memory-limit, crash, no-output, bad-output, illegal and the rule
              broken) and what the bot printed; in a one-player game, where one invocation plays
              the whole game, the verdict of that invocation
  games       whole games against each house bot on each board, in both seats; a lost game is
              fine, a fault is not

The bot is accepted when it compiles and is at fault nowhere. Exit status: 0 accepted, 1 refused
(the bot's fault), 2 an error of the arena's own (a house bot that faults before the checked bot
has moved is one). Progress goes to standard error, one line per board and seat as it is done."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "check",
        help="check a bot as a contest checks a submission",
        description=textwrap.fill(
            "Check one bot as a contest's check on submission does, and print what a contestant is told: "
            "it is copied and compiled as a tournament does, in the same sandbox under the same limits, "
            "then played on the boards as far as --level says.", 79),
        epilog=LEVELS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bot", metavar="BOT", help="the bot: a file or folder, as for arena run --bots")
    parser.add_argument("--game", metavar="GAME",
                        help="the game (arena games lists them); by default the one the boards' manifest.json names")
    parser.add_argument("--contest", metavar="DIR",
                        help="check as the contest in DIR checks a submission (its contest.toml): its game, sample "
                        "boards, feedback level, house bots, limits and languages; the other options then need "
                        "not be given")
    parser.add_argument("--boards", nargs="+", metavar="BOARD",
                        help="board files, or folders whose *.in files are boards (a contest's sample boards)")
    parser.add_argument("--level", choices=LEVELS, help="how far to go (below; default first-move, or the "
                        "contest's feedback level)")
    parser.add_argument("--house", nargs="+", metavar="BOT",
                        help="the house bots a two-player game is played against (default: the game's shipped "
                        "bot named random*, or its first)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON (what a contest server keeps)")
    add_limit_options(parser)
    add_bot_options(parser)
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    refusal = ""
    try:
        if args.contest:
            report, refusal = _check_for_contest(args)
        elif not args.boards:
            raise ArenaError("give the boards to check on (--boards), or the contest to check for (--contest DIR)")
        else:
            report = check_bot(args.bot, args.boards, game=args.game, level=args.level or "first-move",
                               house=args.house, cpu=args.cpu, wall=args.wall, memory_mib=args.memory, options=args)
    except uploads.UploadRefused as exc:  # (as the site refuses the upload, before any check)
        print(f"refused: {display(str(exc), multiline=True)}")
        return REFUSED
    print(json_for_terminal(report.to_json()) if args.json else report.render(), end="\n" if args.json else "")
    if refusal:
        print(f"refused: {refusal}")
    return 0 if report.accepted and not refusal else REFUSED


def _check_for_contest(args: argparse.Namespace) -> tuple[Report, str]:
    """The check the contest in ``args.contest`` runs on a submission (the runner's, arena.contest.runner),
    and why the contest refuses it though it passed ("" if it does not)."""
    from arena.contest import config

    contest = config.load(Path(args.contest))
    limits = contest.limits
    options = argparse.Namespace(**{**vars(args), "disk": limits.disk})
    sent = contest.submissions
    report = check_bot(args.bot, [str(contest.sample_boards)], game=contest.game, level=args.level or contest.feedback,
                       house=[str(path) for path in contest.house] or None, cpu=limits.cpu, wall=limits.wall,
                       memory_mib=limits.memory, options=options,
                       upload=UploadLimits(sent.max_bytes, sent.max_files, sent.max_unpacked_bytes))
    return report, contest.refusal(report.language)


def check_bot(bot: str, boards: list[str], *, game: str | None, level: str, house: list[str] | None,
              cpu: float | None, wall: float | None, memory_mib: int, options: argparse.Namespace,
              upload: UploadLimits | None = None) -> Report:
    """Check ``bot`` on ``boards`` of ``game`` (None: the boards' manifest says) at ``level`` against
    the ``house`` bots (None: the game's shipped one, announced) under the limits given, with the
    sandbox and compilers of ``options`` (``add_bot_options``); everything is copied and compiled in
    a temporary folder, removed at the end.

    With ``upload`` (a contest's limits), the bot is first made into the upload ``arena submit`` would
    send and unpacked as the server unpacks it (``UploadRefused`` if the server would refuse it); a
    .zip or .tar.gz bot is unpacked so in any case, under the default limits."""
    referee = get_referee(game_of_boards(game, boards))
    loaded = tuple(load_board(referee, path) for path in find_boards(boards))
    limits = limits_of(referee, cpu, wall, memory_mib)
    if house is None and referee.players == 2 and level != "compile":
        house = [str(default_house(referee.name, compilers_of(options)))]
        print(f"arena: house bot: {display(house[0])} (the game's own; choose others with --house)", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="arena-check-") as folder:
        try:
            prepared, excluded, sandbox, compilers = prepare_from_options(
                argparse.Namespace(**{**vars(options), "bots": house or []}), Path(folder))
            if excluded:
                raise ArenaError(f"house bot {str(excluded[0].path)!r} cannot run: "
                                 f"{display(excluded[0].reason, multiline=True)}")
            checked = Path(bot)
            if upload is not None or (checked.is_file() and uploads.is_archive(checked.name)):
                filename, data = uploads.payload(checked)
                uploads.unpack(filename, data, Path(folder) / "upload", upload or UploadLimits())
                checked = next((Path(folder) / "upload").iterdir())
            return check(checked, referee, loaded, level=level, house=prepared, limits=limits, sandbox=sandbox,
                         compilers=compilers, workdir=Path(folder) / COPIES, on_case=_progress)
        finally:
            close_kept()  # (the sandboxes kept for a next game see the folder about to be removed)


def _progress(case: Case) -> None:
    print(f"arena: check: {case.line()}", file=sys.stderr, flush=True)

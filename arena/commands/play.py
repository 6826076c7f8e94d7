"""``arena play GAME --board FILE``: a person plays the game in the browser, against a bot or alone."""

from __future__ import annotations

import argparse
import os
import sys
import time
import webbrowser
from pathlib import Path

from markupsafe import Markup

from arena import html, match, play, tournament, views
from arena.boards import load_board
from arena.bots import Bot
from arena.commands import (
    MIN_MEMORY_MIB,
    add_bot_options,
    get_referee,
    limits_of,
    positive_float,
    positive_int,
    prepare_from_options,
)
from arena.commands.run import tournament_name
from arena.errors import ArenaError
from arena.store import Store
from arena.text import display, name_problem


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "play",
        help="play a game yourself, in the browser, against a bot or alone",
        description="Play GAME on a board in the browser: the page (served on 127.0.0.1 under a secret "
        "address, printed here) draws the game as its replays are drawn, and takes your moves with the "
        "game's controls or as game.out text; the referee judges each as it judges a bot's output, and "
        "refuses an illegal one with the rule it breaks. In a two-player game the bot (--against) "
        "answers from its sandbox, as in arena run. The game is recorded as an ordinary game in "
        "RESULTS/NAME (you are a seat, --player), for arena show, replay and report; a one-shot game's "
        "plan so far is also written to --out after every operation, as the game.out a bot would write.")
    parser.add_argument("game", metavar="GAME", help="the game (arena games lists them)")
    parser.add_argument("--board", required=True, metavar="FILE", help="the board file to play on")
    parser.add_argument("--against", metavar="BOT", help="the bot to play against (two-player games): a file "
                        "or folder as for arena run --bots")
    parser.add_argument("--seat", type=int, choices=(1, 2), default=1,
                        help="your seat in a two-player game: 1 moves first (default), 2 second")
    parser.add_argument("--out", metavar="FILE", help="one-shot games: write your plan so far to FILE after "
                        "every operation, as game.out")
    parser.add_argument("--name", type=tournament_name, help="the results folder's name under --results "
                        "(default: play-GAME and a timestamp)")
    parser.add_argument("--results", default="results", metavar="DIR", help="where results folders go "
                        "(default results)")
    parser.add_argument("--player", default="human", help="your name in the record (default human)")
    parser.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1 (default: any free one)")
    parser.add_argument("--no-browser", action="store_true", help="only print the page's address")
    parser.add_argument("--cpu", type=positive_float, metavar="SECONDS",
                        help="the bot's CPU time per move (default: the game's)")
    parser.add_argument("--wall", type=positive_float, metavar="SECONDS",
                        help="the bot's wall-clock cap per move (default 3 x the CPU limit)")
    parser.add_argument("--memory", type=positive_int, default=256, metavar="MIB",
                        help=f"the bot's memory per move in MiB, at least {MIN_MEMORY_MIB} (default 256)")
    add_bot_options(parser)
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    referee = get_referee(args.game)
    if problem := name_problem(args.player):
        raise ArenaError(f"--player '{display(args.player)}' {problem}: it names a seat in the record")
    if referee.players == 2 and not args.against:
        raise ArenaError(f"{referee.name} is a two-player game: name the bot to play against with --against")
    if referee.players == 1 and args.against:
        raise ArenaError(f"{referee.name} is a one-player game: there is no one to play --against")
    if args.out and referee.protocol != "one-shot":
        raise ArenaError(f"--out writes a one-shot game's plan; {referee.name} is played move by move")
    board, initial = load_board(referee, Path(args.board))
    limits = limits_of(referee, args.cpu, args.wall, args.memory)
    bots, sandbox, languages = _opponent(args, referee)
    person = 0 if referee.players == 1 else args.seat - 1
    names = [bot.name for bot in bots]
    if args.player in names:
        raise ArenaError(f"--player {args.player!r} is the bot's name too: give yourself another (--player NAME)")
    names.insert(person, args.player)
    out = Path(args.out) if args.out else None
    page = play.Page(referee, initial, names, person, out)
    seats: list[Bot | match.Person] = list(bots)
    seats.insert(person, match.Person(args.player, page))
    spec = match.GameSpec(board, tuple(seats))
    store = _store(args, referee, tournament.Tournament(referee, tuple(bots), ((board, initial),), limits, sandbox,
                                                        languages), person, spec.id)
    server = play.Server(page, _document(referee.name, board.name, names, person, out), args.port)
    server.start()
    print(f"play at {server.address}", flush=True)
    if not args.no_browser and (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        webbrowser.open(server.address)
    try:
        record = match.play(referee, spec, initial, limits, sandbox=sandbox, on_move=page.moved)
        store.append(record)
        store.close()
        page.finished(record)
        print(f"{display(page.result or '')}\nrecorded in {display(str(store.games_path))}: arena replay "
              f"{display(str(store.folder))} shows it", flush=True)
        time.sleep(2)  # (the page fetches the outcome)
    except KeyboardInterrupt:
        page.stop()
        print("stopped: the game is not recorded", file=sys.stderr)
        return 130
    finally:
        server.close()
    return 0


def _opponent(args: argparse.Namespace, referee) -> tuple[list[Bot], object, dict | None]:
    """The bot (copied, compiled, in its sandbox) and the sandbox, as arena run prepares them; none alone."""
    if not args.against:
        return [], None, None
    args.bots = [args.against]
    bots, excluded, sandbox, compilers = prepare_from_options(args, Path(args.results))
    if excluded:
        raise ArenaError(f"bot {str(excluded[0].path)!r} cannot play: {display(excluded[0].reason, multiline=True)}")
    return bots, sandbox, compilers.describe(bots, sandboxed=sandbox is not None)


def _store(args: argparse.Namespace, referee, of: tournament.Tournament, person: int, game_id: str) -> Store:
    """The results folder the game is recorded in: a tournament's, the person named as a seat."""
    config = of.config()
    config["bots"].insert(person, {"name": args.player, "path": "", "sha256": "", "person": True})
    store = Store(Path(args.results) / (args.name or time.strftime(f"play-{referee.name}-%Y%m%d-%H%M%S")))
    store.start(config, overwrite=False)
    if game_id in set(store.ids()):
        raise ArenaError(f"{str(store.folder)!r} has this game recorded already ({game_id!r}): play it again "
                         "under another --name")
    return store


def _document(game: str, board: str, names: list[str], person: int, out: Path | None) -> str:
    """The page (its state comes from the server as the game goes)."""
    words = "alone" if len(names) == 1 else f"seat {person + 1} ({'first' if person == 0 else 'second'})"
    return html.render("play.html", game=game, board=board, seats=html.seats(names), seat_words=words,
                       out=str(out) if out else "", legend=views.legend(game),
                       game_style=Markup(views.style(game)), game_controls=Markup(views.controls(game)))

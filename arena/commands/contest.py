"""``arena contest``: make a contest folder, its organiser, its invitations; start its final."""

from __future__ import annotations

import argparse
import datetime as dt
import getpass
import os
import secrets
import shutil
import sys
from pathlib import Path

from arena.commands import game_of_boards, get_referee, read_text
from arena.errors import ArenaError
from arena.text import display


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "contest", help="make and manage a contest for the contest server (arena serve)",
        description="A contest is a folder: its configuration (contest.toml), its boards, its house bots and its "
        "database. 'arena contest new' makes one; 'arena serve DIR' runs its web site and its runner.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="make a contest folder",
                             description="Make a contest folder: contest.toml (edit it), the boards copied in, the "
                             "house bots, a secret key, the database and the organiser's account.")
    new.add_argument("folder", metavar="DIR", help="the contest's folder (must not exist, or be empty)")
    new.add_argument("--game", help="the game (default: the one the boards' manifest names)")
    new.add_argument("--sample-boards", nargs="+", required=True, metavar="BOARD",
                     help="the public boards: the check on submission plays them (files or folders of *.in)")
    new.add_argument("--final-boards", nargs="+", required=True, metavar="BOARD",
                     help="the hidden boards of the final testing")
    new.add_argument("--house", nargs="+", metavar="BOT",
                     help="house bots, the check's opponents in two-player games (default: the game's shipped "
                     "random bot, if it has one)")
    new.add_argument("--title", default="", help="the contest's title (default: the game's name and the year)")
    new.add_argument("--deadline", type=_moment, metavar="TIME",
                     help="when submissions close, e.g. 2027-03-01T18:00+02:00 (default: two weeks from now, UTC)")
    new.add_argument("--feedback", choices=("compile", "first-move", "games"), default="first-move",
                     help="what the check tells a contestant (default first-move; see contest.toml)")
    new.add_argument("--registration", choices=("invite", "open"), default="invite",
                     help="invite: contestants register by an organiser's link (default); open: anyone")
    _admin_options(new)
    new.add_argument("--database", metavar="URL",
                     help="a PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/NAME (kept in the folder, "
                     "readable by its owner only); default: SQLite inside the folder")
    new.set_defaults(func=new_contest)

    admin = actions.add_parser("admin", help="make an organiser's account, or set its password")
    admin.add_argument("folder", metavar="DIR")
    _admin_options(admin)
    admin.set_defaults(func=admin_main)

    invite = actions.add_parser("invite", help="make invitation links (one person registers with each)")
    invite.add_argument("folder", metavar="DIR")
    invite.add_argument("--count", type=int, default=1, help="how many links (default 1)")
    invite.add_argument("--note", default="", help="a note of whom they are for, shown to the organiser")
    invite.add_argument("--url", default="http://127.0.0.1:8000/", help="the site's address, to print whole links")
    invite.set_defaults(func=invite_main)

    demo = actions.add_parser("demo", help="make a demo contest with the shipped bots submitted, and serve it",
                              description="Try the contest server in a minute: a painting-game contest in DIR "
                              "(boards/group1 for the checks, boards/group2 for the final, open registration), "
                              "three demo contestants who have submitted the shipped bots (random, greedy and "
                              "search), then 'arena serve DIR'. Prints the address and the organiser's login.")
    demo.add_argument("folder", metavar="DIR", help="a new folder for the demo contest")
    demo.add_argument("--port", type=int, default=8000, help="the port to serve on (default 8000)")
    demo.set_defaults(func=demo_main)

    export = actions.add_parser("export", help="write one archive of a contest: its configuration, boards, "
                                "every submission, check and result, and its database's rows",
                                description="Write ARCHIVE (.tar.gz, readable by its owner only: it holds the "
                                "accounts' password hashes) of the contest in DIR, for a backup or a move to "
                                "another machine or database ('arena contest import'). Run it while the server is "
                                "stopped, or between jobs.")
    export.add_argument("folder", metavar="DIR")
    export.add_argument("archive", metavar="ARCHIVE")
    export.set_defaults(func=export_main)
    restore = actions.add_parser("import", help="make a contest folder from an 'arena contest export' archive",
                                 description="Make the contest folder DIR (new) from ARCHIVE, with a new secret key "
                                 "(everyone logs in again) and its rows in a new database (SQLite in the folder, or "
                                 "--database).")
    restore.add_argument("archive", metavar="ARCHIVE")
    restore.add_argument("folder", metavar="DIR")
    restore.add_argument("--database", metavar="URL", help="a new PostgreSQL database (default SQLite in DIR)")
    restore.set_defaults(func=import_main)

    final = actions.add_parser("final", help="start the final testing (the running server's runner plays it)",
                               description="Queue the final: the runner of 'arena serve DIR' plays every entry "
                               "on the final boards into DIR/results/final, after the checks waiting. Refused "
                               "before the deadline.")
    final.add_argument("folder", metavar="DIR")
    final.add_argument("--cluster", metavar="ADDRESS", default="",
                       help="play it on this Dask scheduler's workers (tcp://HOST:PORT or tls://...; as arena run "
                       "--cluster: a tls:// cluster's files come from Dask's configuration); default: contest.toml's "
                       "[final] cluster, else this machine")
    final.set_defaults(func=final_main)


def _admin_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--admin", default="organiser", metavar="NAME", help="the organiser's login name "
                        "(default organiser)")
    parser.add_argument("--password-file", metavar="FILE",
                        help="read the organiser's password from FILE ('-': standard input); default: a new "
                        "random one, printed once")


def _moment(text: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date and time such as 2027-03-01T18:00+02:00") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def new_contest(args: argparse.Namespace) -> int:
    from arena import games
    from arena.boards import find_boards, load_board
    from arena.contest import missing_django

    if problem := missing_django():
        raise ArenaError(problem)
    folder = Path(args.folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ArenaError(f"{str(folder)!r} exists and is not an empty folder: a new contest needs a folder of its own")
    game = game_of_boards(args.game, args.sample_boards)
    referee = get_referee(game)
    boards = {kind: [(path, load_board(referee, path)) for path in find_boards(given)]
              for kind, given in (("sample", args.sample_boards), ("final", args.final_boards))}
    for kind, found in boards.items():
        if not found:
            raise ArenaError(f"--{kind}-boards: no board found in {' '.join(getattr(args, kind + '_boards'))}")
    house = [Path(path) for path in args.house] if args.house else _default_house(games.get(game))
    for path in house:
        if not path.exists():
            raise ArenaError(f"house bot {str(path)!r} does not exist")
    password = _password(args)
    made = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        _fill(folder, args, game, referee, boards, house, password)
    except BaseException:  # (a database refused, a disk full, Ctrl-C: nothing half made blocks a retry)
        shutil.rmtree(folder, ignore_errors=True) if made else _empty(folder)
        raise
    return 0


def _empty(folder: Path) -> None:
    for item in folder.iterdir():
        shutil.rmtree(item, ignore_errors=True) if item.is_dir() and not item.is_symlink() else item.unlink()


def _fill(folder: Path, args: argparse.Namespace, game: str, referee, boards: dict, house: list[Path],
          password: str) -> None:
    """Write the new contest into ``folder`` (made, empty): boards, house bots, configuration, secret
    key, database and the organiser's account."""
    from arena.contest import DATABASE_FILE, config, site

    folder.chmod(0o700)  # (its database holds the accounts, its uploads the contestants' code)
    for kind, found in boards.items():
        target = folder / (config.SAMPLE_BOARDS if kind == "sample" else config.FINAL_BOARDS)
        target.mkdir(parents=True)
        for path, _ in found:
            _copy_board(referee, path, target)
    (folder / config.HOUSE).mkdir()
    for path in house:
        (shutil.copytree if path.is_dir() else shutil.copy2)(path, folder / config.HOUSE / path.name)
    deadline = args.deadline or (dt.datetime.now(dt.UTC) + dt.timedelta(days=14)).replace(microsecond=0)
    title = args.title or f"{game} contest {deadline.year}"
    (folder / config.CONFIG).write_text(config.render(title, game, deadline, args.feedback, args.registration),
                                        encoding="utf-8")
    config.load(folder)  # (what was written reads back)
    site.make_secret_key(folder)
    if args.database:
        fd = os.open(folder / DATABASE_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(args.database + "\n")
    _migrate(folder)
    _organiser(args.admin, password)
    print(f"arena: contest {display(title)!r} ({game}) made in {folder}: "
          f"{len(boards['sample'])} sample boards, {len(boards['final'])} final boards, "
          f"house bots: {', '.join(path.name for path in house) or 'none'}")
    print(f"arena: edit {folder / config.CONFIG} (deadline {deadline.isoformat()}), then: arena serve {folder}")


def _default_house(game) -> list[Path]:
    """The game's shipped random bot (its first bot folder's random.*), if any."""
    for folder in game.paths("bots"):
        found = sorted(path for path in folder.iterdir() if path.stem == "random")
        if found:
            return found[:1]
    return []


def _copy_board(referee, path: Path, target: Path) -> None:
    """A board file, with the files the game keeps beside its boards (arena.boards.read_extras)."""
    shutil.copy2(path, target / path.name)
    for extra in referee.board_files:
        source = path.parent / extra
        if source.exists() and not (target / extra).exists():
            shutil.copy2(source, target / extra)


def _password(args: argparse.Namespace) -> str | None:
    """The organiser's password from --password-file, or None for a new random one."""
    if not args.password_file:
        return None
    password = read_text(args.password_file, "the password file").strip("\r\n")
    if len(password) < 10:
        raise ArenaError("the organiser's password must have at least 10 characters")
    return password


def _migrate(folder: Path) -> None:
    from django.core.management import call_command
    from django.db.utils import OperationalError

    from arena.contest import setup

    setup(folder)
    try:
        call_command("migrate", verbosity=0, interactive=False)
    except OperationalError as exc:  # (the server is not there, or refuses the login)
        from django.db import connection

        raise ArenaError(f"cannot reach the contest's database ({connection.settings_dict['ENGINE'].rsplit('.', 1)[-1]}"
                         f" {connection.settings_dict['NAME']!s} on {connection.settings_dict.get('HOST') or 'this machine'}):"
                         f" {display(str(exc).strip(), multiline=True)}") from None


def _organiser(name: str, password: str | None) -> None:
    from django.contrib.auth import get_user_model

    from arena.contest.models import ContestState

    ContestState.get()
    shown = password is None
    password = password or secrets.token_urlsafe(12)
    user, made = get_user_model().objects.get_or_create(username=name, defaults={"is_staff": True,
                                                                               "is_superuser": True})
    user.is_staff = user.is_superuser = True
    user.set_password(password)
    user.save()
    print(f"arena: organiser {name!r} {'made' if made else 'updated'}"
          + (f"; password (shown once): {password}" if shown else ""))


def admin_main(args: argparse.Namespace) -> int:
    password = _password(args)
    if password is None and sys.stdin.isatty():
        password = getpass.getpass(f"new password for {args.admin} (empty: a random one): ") or None
    _migrate(Path(args.folder))
    _organiser(args.admin, password)
    return 0


def invite_main(args: argparse.Namespace) -> int:
    _migrate(Path(args.folder))
    from arena.contest.models import Invitation  # (once Django is set up)

    for _ in range(max(1, args.count)):
        invitation = Invitation.make(args.note)
        print(args.url.rstrip("/") + f"/invite/{invitation.token}/")
    return 0


def final_main(args: argparse.Namespace) -> int:
    _migrate(Path(args.folder))
    from arena.contest.games import start_final  # (once Django is set up)

    print(f"arena: {start_final(args.cluster)} (arena serve {args.folder} must be running)")
    return 0


#: The demo contest's contestants and the shipped bots they submit.
DEMO = {"rita": "bots/random.py", "greta": "bots/greedy.py", "sergei": "bots/search.py"}


def demo_main(args: argparse.Namespace) -> int:
    from arena.commands import serve
    from referees import SHIPPED as root  # (the shipped bots and boards: in a checkout and in a wheel)

    missing = [path for path in DEMO.values() if not (root / path).exists()]
    if missing or not (root / "boards" / "group1").is_dir():
        raise ArenaError(f"the demo needs the arena's shipped bots and boards, which {str(root)!r} lacks: "
                         "reinstall the arena")
    made = argparse.Namespace(folder=args.folder, game="paint", sample_boards=[str(root / "boards" / "group1")],
                              final_boards=[str(root / "boards" / "group2")], house=None, title="Demo contest",
                              deadline=None, feedback="first-move", registration="open", admin="organiser",
                              password_file=None, database=None)
    new_contest(made)
    _demo_contestants(root)
    print(f"arena: demo contestants {', '.join(DEMO)} (password 'demo-password') have submitted "
          f"{', '.join(Path(path).name for path in DEMO.values())}; their checks run as the server starts")
    print(f"arena: open http://127.0.0.1:{args.port}/ and log in as organiser with the password above")
    return serve.main(argparse.Namespace(folder=args.folder, host="127.0.0.1", port=args.port, web_workers=2,
                                         database=None, no_runner=False))


def _demo_contestants(root: Path) -> None:
    from django.contrib.auth import get_user_model

    from arena.contest.models import Contestant
    from arena.contest.views import receive

    for name, path in DEMO.items():
        user = get_user_model().objects.create_user(username=name, password="demo-password")
        receive(Contestant.objects.create(user=user), Path(path).name, (root / path).read_bytes())


#: What an export leaves out: the secret key and the database's address (the new place makes its own),
#: the lock, the SQLite files (the rows travel as JSON), the checks' build folders (made again).
NOT_EXPORTED = {"secret.key", "database.url", "serve.lock", "contest.sqlite3", "contest.sqlite3-wal",
                "contest.sqlite3-shm", "checks"}
ROWS = "rows.json"
#: The tables an export carries.
EXPORTED_MODELS = ("auth.user", "contest")


def export_main(args: argparse.Namespace) -> int:
    import tarfile
    import tempfile

    from django.core.management import call_command

    folder = Path(args.folder)
    _migrate(folder)
    target = Path(args.archive)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with tempfile.TemporaryDirectory() as scratch, os.fdopen(fd, "wb") as raw, \
            tarfile.open(fileobj=raw, mode="w:gz") as archive:
        rows = Path(scratch) / ROWS
        call_command("dumpdata", *EXPORTED_MODELS, output=str(rows), verbosity=0)
        archive.add(rows, ROWS)
        for item in sorted(folder.iterdir()):
            if item.name not in NOT_EXPORTED:
                archive.add(item, f"contest/{item.name}")
    print(f"arena: contest {folder} exported to {target}")
    return 0


def import_main(args: argparse.Namespace) -> int:
    import tarfile
    import tempfile

    from django.core.management import call_command

    from arena.contest import DATABASE_FILE, config, site

    folder = Path(args.folder)
    if folder.exists():
        raise ArenaError(f"{str(folder)!r} exists: import makes a new contest folder")
    with tempfile.TemporaryDirectory() as scratch:
        try:
            with tarfile.open(args.archive, mode="r:gz") as archive:
                # (the archive is the organiser's own; the data filter still refuses links out and odd members)
                archive.extractall(scratch, filter="data")
        except (OSError, tarfile.TarError) as exc:
            raise ArenaError(f"cannot read {args.archive!r} as an 'arena contest export' archive: {exc}") from None
        unpacked = Path(scratch)
        if not (unpacked / ROWS).is_file() or not (unpacked / "contest" / config.CONFIG).is_file():
            raise ArenaError(f"{args.archive!r} is not an 'arena contest export' archive (no {ROWS} or contest.toml)")
        shutil.copytree(unpacked / "contest", folder)
        folder.chmod(0o700)
        site.make_secret_key(folder)
        if args.database:
            fd = os.open(folder / DATABASE_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as file:
                file.write(args.database + "\n")
        _migrate(folder)
        call_command("loaddata", str(unpacked / ROWS), verbosity=0)
    print(f"arena: contest imported into {folder}; serve it with: arena serve {folder}")
    return 0

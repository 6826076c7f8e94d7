"""A tournament's static HTML report: ``index.html`` with the tables (the
crosstable's cells open the games of that pair, a one-player game's score
cells open that game, every bot's name opens its page), the faults with their
messages, CPU time per bot, every game (sortable by board, seats, result),
one replay page per game under ``games/`` and one page per bot under
``bots/`` (its games, its results per board, its faults, its CPU per move).  Plain files: they open from the
file system, without a server, for a finished or an interrupted tournament.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import multiprocessing
import os
import re
import signal
import string
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from arena import brackets, replay, tables, views
from arena.errors import ArenaError
from arena.html import render, replay_page
from arena.store import Store
from arena.text import display

log = logging.getLogger("arena.report")

Link = Callable[[int, int, Any], str | None]


class Game(NamedTuple):
    """What the index and the pair pages show of a game (its record is not kept)."""

    id: str
    seats: tuple[str, ...]
    board: str
    points: tuple[float, ...] | None
    moves: int
    outcome: str  # in words
    page: str  # its replay page, relative to the report folder

    @classmethod
    def of(cls, record: dict[str, Any], page: str, moves: int | None = None) -> Game:
        """``moves``: what the player did (a one-shot game's operations), by default its invocations."""
        points = record.get("points")
        return cls(record["id"], tuple(record["seats"]), record["board"]["name"],
                   tuple(points) if points is not None else None,
                   len(record["moves"]) if moves is None else moves, replay.outcome_text(record), page)


#: The characters a page's name keeps; '|' (between an id's parts) is written '~', '/' (in a board's
#: name) ',', any other character '_', its code in hex and '_'.
_SAFE = frozenset(string.ascii_letters + string.digits + ".-")


def page_name(game_id: str) -> str:
    """A game's replay page, relative to the report folder, made from its id alone and one to one
    (ids that look alike get distinct names): any process, a resumed run's too, finds a game's page
    without a list of the others (a million games: no set of a million names kept)."""
    slug = "".join(c if c in _SAFE else "~" if c == "|" else "," if c == "/" else f"_{ord(c):x}_" for c in game_id)
    if slug.startswith("."):  # not a hidden file
        slug = "_2e_" + slug[1:]
    if len(slug.encode()) > 200:  # a file's name has at most 255 bytes
        slug = slug[:150] + "_" + hashlib.sha256(game_id.encode()).hexdigest()[:32]
    return f"games/{slug}.html"


def game_pages(records: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Each game id's page (``page_name``)."""
    return {record["id"]: page_name(record["id"]) for record in records}


class _Cpu:
    """Each bot's CPU time per invocation, counted by value (records keep it to 0.1 ms): the
    median and the max, in memory that grows with the distinct times, not with the moves."""

    def __init__(self) -> None:
        self.times: dict[str, Counter[float]] = defaultdict(Counter)
        self.worst: dict[str, tuple[float, str, str]] = {}  # bot -> (CPU, game id, its page): the largest

    def add(self, record: dict[str, Any], page: str) -> None:
        for move in record["moves"]:
            bot = record["seats"][move["seat"]]
            self.times[bot][round(move["cpu"], 4)] += 1
            if bot not in self.worst or (move["cpu"], record["id"]) > self.worst[bot][:2]:
                self.worst[bot] = (move["cpu"], record["id"], page)

    def count(self, bot: str) -> int:
        return sum(self.times[bot].values())

    def median(self, bot: str) -> float:
        counts = self.times[bot]
        n = sum(counts.values())
        low, high, seen = None, None, 0
        for value in sorted(counts):
            seen += counts[value]
            if low is None and seen > (n - 1) // 2:
                low = value
            if seen > n // 2:
                high = value
                break
        return (low + high) / 2 if low is not None and high is not None else 0.0


def build(store: Store, out: Path, *, progress: Callable[[str], None] = lambda text: None) -> Path:
    """Write the report of ``store`` into ``out``; returns the index page.

    ``games.jsonl`` is read once, as a stream: each game's replay page is
    written as its record is read, and of the record only what the index and
    the pair pages show is kept (``Game``: a line of the tables; each bot's CPU
    times are counted by value), so the report of a big tournament needs a small
    part of its records' memory.  Each board is read (and checked against its
    hash) once."""
    report = Report(store, out)
    total = store.count()
    for number, record in enumerate(store.iter_records(), start=1):
        report.add(record)
        progress(f"[{number}/{total}] {display(record['id'])}")
    return report.write()


class Report:
    """A report being made, one game at a time: ``add`` writes a game's replay
    page and keeps its line; ``write`` writes the index, the pair pages and the
    bot pages from what was kept (only those of bots and pairs with a game added
    since the last ``write``, once the first is done).

    ``keep``: keep only the latest ``keep`` games of the tournament, of each bot,
    of each pair and the latest faults (the live report: memory and the time to
    write a page then stay the same however many games are played; the tables,
    the results per board and the CPU times count every game all the same)."""

    def __init__(self, store: Store, out: Path, *, keep: int | None = None):
        self.store, self.out, self.keep = store, out, keep
        self.config = store.config()
        (out / "games").mkdir(parents=True, exist_ok=True)
        self.legend = views.legend(self.config["game"])
        self.referee = replay.get_referee(self.config["game"])
        self.boards: dict[tuple[str, str], Any] = {}  # (name, sha256) -> the board's initial state
        self.games: deque[Game] = deque(maxlen=keep)
        self.faults: deque[tuple[list[Any], str]] = deque(maxlen=keep)
        self.fault_total = 0
        self.own_faults: dict[str, deque[tuple[list[Any], str]]] = defaultdict(lambda: deque(maxlen=keep))
        self.bot_faults: Counter[str] = Counter()
        self.cpu = _Cpu()
        self.tally = tables.Tally.of(self.config, ())
        self.bots = BotPages([bot["name"] for bot in self.config["bots"]])
        self.own: dict[str, deque[Game]] = defaultdict(lambda: deque(maxlen=keep))  # each bot's games
        self.own_total: Counter[str] = Counter()
        self.per_board: dict[str, dict[str, list[float]]] = defaultdict(dict)  # bot -> board -> points, games, W, D, L
        self.solo: dict[str, list[tuple[str, str]]] = defaultdict(list)  # one player: bot -> (board, outcome)
        self.between: dict[tuple[str, ...], deque[Game]] = defaultdict(lambda: deque(maxlen=keep))  # a pair's games
        self.between_total: Counter[tuple[str, ...]] = Counter()
        self.score_pages: dict[tuple[str, str], str] = {}  # one player: (bot, board) -> its game's page
        self.changed: set[str] | None = None  # the bots with a game since the last write (None: all)
        self.changed_pairs: set[tuple[str, ...]] = set()

    def add(self, record: dict[str, Any], *, missing_only: bool = False, page: bool = True) -> Game:
        """Count a game and write its replay page (with ``missing_only``, only if it is not there
        yet; not at all without ``page``)."""
        name = page_name(record["id"])
        page = page and not (missing_only and (self.out / name).exists())
        operations = None
        if page or self.referee.protocol == "one-shot":
            game = self._replay(record)
            if page:
                _write(self.out / name, replay_page(game, legend=self.legend, back="../index.html"))
            # a one-shot game is one invocation: count its operations, as its replay steps through them
            if self.referee.protocol == "one-shot":
                operations = sum(1 for step in game.steps if step.entry is not None and not step.frame.part)
        row = Game.of(record, name, operations)
        self.games.append(row)
        faults = _fault_rows(record, name)
        self.faults += faults
        self.fault_total += len(faults)
        for fault in faults:
            self.own_faults[fault[0][1]].append(fault)
            self.bot_faults[fault[0][1]] += 1
        self.cpu.add(record, name)
        self.tally.add(record)
        for k, seat in enumerate(row.seats):
            if seat in row.seats[:k]:
                continue
            if seat not in self.bots.pages:
                self.bots = BotPages([*self.bots.pages, seat])
            self.own[seat].append(row)
            self.own_total[seat] += 1
            if len(row.seats) == 1:
                self.solo[seat].append((row.board, row.outcome))
                self.score_pages[seat, row.board] = name
            else:
                points = row.points[k] if row.points else 0.0
                figures = self.per_board[seat].setdefault(row.board, [0.0, 0, 0, 0, 0])
                figures[0] += points
                figures[1] += 1
                figures[2 + {3.0: 0, 1.5: 1}.get(points, 2)] += 1
            if self.changed is not None:
                self.changed.add(seat)
        if len(row.seats) == 2 and row.seats[0] != row.seats[1]:
            pair = tuple(sorted(row.seats))
            self.between[pair].append(row)
            self.between_total[pair] += 1
            self.changed_pairs.add(pair)
        return row

    def page(self, record: dict[str, Any], *, missing_only: bool = False) -> None:
        """Write a game's replay page alone (with ``missing_only``, only if it is not there yet)."""
        name = page_name(record["id"])
        if not (missing_only and (self.out / name).exists()):
            _write(self.out / name, replay_page(self._replay(record), legend=self.legend, back="../index.html"))

    def _replay(self, record: dict[str, Any]) -> replay.Replay:
        board = (record["board"]["name"], record["board"].get("sha256", ""))
        if board not in self.boards:
            self.boards[board] = replay.recorded_board(self.referee, self.store, record)[1]
        return replay.replay(self.referee, self.boards[board], record)

    def bound(self, keep: int) -> None:
        """From now on keep only the latest ``keep`` games, faults, games of a bot and of a pair."""
        self.keep = keep
        self.games, self.faults = deque(self.games, maxlen=keep), deque(self.faults, maxlen=keep)
        for kept in (self.own, self.own_faults, self.between):
            for key, rows in kept.items():
                kept[key] = deque(rows, maxlen=keep)
            kept.default_factory = lambda: deque(maxlen=keep)

    def write(self, state: str | Callable[[int, int], str] | None = None, *, running: bool = False,
              latest: int = 0, pages: bool = True) -> Path:
        """The index, and the pair and bot pages that changed.  ``state``: how far
        the tournament is, in words, or made from the games played and expected
        (by default: finished or interrupted, from the games played); ``running``:
        it is still being played, the index reloads itself; ``latest``: the index
        lists the latest games recorded first; ``pages``: the pages of bots and pairs too."""
        if pages:
            self.write_pages()
        index = self.out / "index.html"
        _write(index, _index_html(self, state, running, latest))
        return index

    def write_pages(self) -> None:
        """The pages of the pairs and the bots with a game since the last time."""
        changed = set(self.bots.pages) if self.changed is None else self.changed
        if self.config["players"] == 2:
            (self.out / "pairs").mkdir(exist_ok=True)
            for a, b in self.between if self.changed is None else self.changed_pairs:
                _write(self.out / pair_page(a, b),
                       _pair_html(a, b, list(self.between[a, b]), self.between_total[a, b], self.bots))
        (self.out / "bots").mkdir(exist_ok=True)
        for bot in changed:
            _write(self.out / self.bots.pages[bot], _bot_html(self, bot))
        self.changed, self.changed_pairs = set(), set()


def _write(path: Path, text: str) -> None:
    """Write a page whole or not at all (a page reloading itself never reads half of one)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


class BotPages:
    """Each bot's page, relative to the report folder (``bots/NAME.html``, distinct for names alike)."""

    def __init__(self, bots: Iterable[str]) -> None:
        self.pages: dict[str, str] = {bot: "bots/" + page_name(bot).removeprefix("games/") for bot in bots}

    def link(self, bot: Any, up: str = "") -> str | None:
        page = self.pages.get(bot) if isinstance(bot, str) else None
        return None if page is None else up + page


def pair_page(a: str, b: str) -> str:
    a, b = sorted((a, b))
    return "pairs/" + re.sub(r"[^A-Za-z0-9._-]+", "-", f"{a}--{b}") + ".html"


# ---------------------------------------------------------------- index
def _index_html(report: Report, state: str | Callable[[int, int], str] | None = None, running: bool = False,
                latest: int = 0) -> str:
    store, config, bots, games = report.store, report.config, report.bots, report.games
    data = tables.data(config, report.tally)
    if callable(state):
        state = state(data["played"], data["expected"])
    if state is None:
        state = ("finished" if data["played"] >= data["expected"]
                 else "interrupted or still running: resume it with the same command")
    sections = []
    if latest and games:
        sections.append(_games(list(itertools.islice(reversed(games), latest)), bots, title="Latest games",
                               order=False))
    for name, table in data["tables"].items():
        headers, rows = _quiet_fault_columns(table["headers"], table["rows"])
        link = _cell_link(name, {**table, "headers": headers, "rows": rows}, report)
        sections.append(Section(table["title"], _table(headers, rows, link, header_link=bots.link)))
    after = [_faults(list(report.faults), report.fault_total, bots), _cpu(report.cpu, bots)]
    every_game_by = ""
    if running:  # (a list of every game grows with the games: the latest are listed above)
        after.append(Section("Every game", note="Listed when the tournament ends; the latest are at the top."))
    elif report.keep is not None and len(games) < data["played"]:
        after.append(_games(list(reversed(games)), bots, title=f"The latest {len(games)} games", order=False))
        every_game_by = str(store.folder)
    else:
        after.append(_games(list(games), bots))
    return render("index.html", name=store.folder.name, game=config["game"], played=data["played"],
                  expected=data["expected"], state=state, limits=_limits(config), running=running, reload=RELOAD,
                  sections=sections, bracket=brackets.section(config, report.tally), after=after,
                  every_game_by=every_game_by)


def _quiet_fault_columns(headers: list[str], rows: list[list[Any]]) -> tuple[list[str], list[list[Any]]]:
    """The standings without the per-verdict fault columns that are 0 throughout (the data formats keep them)."""
    drop = {c for c, h in enumerate(headers) if h in tables.FAULTS and not any(row[c] for row in rows)}
    return ([h for c, h in enumerate(headers) if c not in drop],
            [[v for c, v in enumerate(row) if c not in drop] for row in rows])


def _limits(config: dict[str, Any]) -> str:
    limits = config.get("limits", {})
    memory = limits.get("memory")
    return ", ".join(filter(None, [
        f"CPU {limits['cpu']:g} s" if limits.get("cpu") else "",
        f"wall {limits['wall']:g} s" if limits.get("wall") else "",
        f"memory {memory // 2**20} MiB" if memory else "",
    ])) or "-"


def _cell_link(name: str, table: dict[str, Any], report: Report) -> Link:
    """Where a table's cell links: crosstable cells to the pair's games, score
    cells to the game, bot names to the bot's page."""
    headers, bots = table["headers"], report.bots
    bot_column = headers.index("bot") if "bot" in headers else None

    def bot(row: int, col: int, value: Any) -> str | None:
        return bots.link(value) if col == bot_column else None
    if name == "crosstable":
        played = report.between

        def cross(row: int, col: int, value: Any) -> str | None:
            a, b = table["rows"][row][0], headers[col]
            if col == 0:
                return bots.link(a)
            return pair_page(a, b) if tuple(sorted((a, b))) in played and a != b else None
        return cross
    if name == "scores":
        by_cell = report.score_pages

        def score(row: int, col: int, value: Any) -> str | None:
            return bot(row, col, value) or by_cell.get((table["rows"][row][1], headers[col]))
        return score
    return bot


class Cell(NamedTuple):
    """A table's cell (or header) as a page shows it: its text, where it links (or None), its class."""

    text: str
    href: str | None = None
    css: str = ""  # "l": left-aligned text; "x": a bot against itself


class Table(NamedTuple):
    """A table as ``templates/macros.html`` draws it."""

    headers: list[Cell]
    rows: list[list[Cell]]
    css: str = "t"


class Section(NamedTuple):
    """A part of a report's page: a heading (with a ``hint`` beside it), a table, a paragraph."""

    title: str
    table: Table | None = None
    note: str = ""
    hint: str = ""


def _table(headers: list[str], rows: list[list[Any]], link: Link = lambda r, c, v: None,
           css: str = "t", header_link: Callable[[Any], str | None] = lambda h: None, sortable: bool = False) -> Table:
    """A table (drawn in a box of its own that scrolls sideways when it is wider than the page);
    ``link`` gives a cell's target (or None), ``header_link`` a header's (a crosstable's bot).
    Text is left-aligned, numbers right; ``sortable``: a click on a header sorts by it."""
    text_columns = {c for c, value in enumerate(rows[0]) if _is_text(value)} if rows else set()
    head = [Cell(display(str(h)), header_link(h) if c else None, "l" if c in text_columns else "")
            for c, h in enumerate(headers)]
    body = [[Cell(_show(value), link(r, c, value), "x" if value == "x" else "l" if _is_text(value) else "")
             for c, value in enumerate(row)] for r, row in enumerate(rows)]
    return Table(head, body, css + " sortable" if sortable else css)


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and value not in ("x", "-", "") and not re.fullmatch(r"[-+0-9.]+", value)


def _show(value: Any) -> str:
    """A cell as text: a number as short as it reads, null as empty, a bot's text as display text."""
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else display(str(value))


def _fault_rows(record: dict[str, Any], page: str) -> list[tuple[list[Any], str]]:
    """A row of the faults table (and where it links: the game's last step) for each refused move."""
    return [([record["id"], record["seats"][move["seat"]], number, move["verdict"], move.get("message", "")],
             page + "#end")  # a fault ends its game: the last step
            for number, move in enumerate(record["moves"], start=1) if move["verdict"] != "ok"]


def _faults(faults: list[tuple[list[Any], str]], total: int, bots: BotPages, up: str = "") -> Section:
    """The faults table (``total``: how many there were, when only the latest are kept)."""
    if not faults:
        return Section("Faults", note="None: every bot answered every time, in time, legally.")
    rows, links = [row for row, _ in faults], [link for _, link in faults]
    title = "Faults" if total <= len(faults) else f"Faults: the latest {len(faults)} of {total}"
    return Section(title, _table(["game", "bot", "move", "verdict", "message"], rows,
                                 lambda r, c, v: up + links[r] if c == 0 else bots.link(v, up) if c == 1 else None))


def _cpu(cpu: _Cpu, bots: BotPages, only: str | None = None, up: str = "") -> Section:
    """CPU seconds per invocation, per bot: median, max (linked to its game), count."""
    rows, links = [], []
    for bot in sorted(cpu.times) if only is None else [only] if only in cpu.times else []:
        worst, game_id, page = cpu.worst[bot]
        rows.append([bot, cpu.count(bot), f"{cpu.median(bot):.3f}", f"{worst:.3f}", game_id])
        links.append(up + page)
    return Section("CPU time per invocation (seconds)",
                   _table(["bot", "invocations", "median", "max", "game of the max"], rows,
                          lambda r, c, v: links[r] if c == 4 else bots.link(v, up) if c == 0 else None))


def _games(games: list[Game], bots: BotPages, up: str = "", title: str = "Every game",
           order: bool = True) -> Section:
    """Every game by board, then seats (or as given, unless ``order``; a click on a header sorts by that column)."""
    ordered = sorted(games, key=lambda g: (g.board, g.seats)) if order else list(games)
    rows = [[g.board, *_seat_cells(g), g.moves, _points_text(g), g.outcome, "replay"] for g in ordered]
    two = any(len(g.seats) == 2 for g in games)
    headers = ["board", *(["first", "second"] if two else ["bot"]), "moves", "points" if two else "score",
               "result", "game"]
    seat_columns = {1, 2} if two else {1}

    def link(r: int, c: int, v: Any) -> str | None:
        if c in seat_columns:
            return bots.link(v, up)
        return up + ordered[r].page if c == len(headers) - 1 else None
    return Section(title, _table(headers, rows, link, sortable=True), hint="(click a header to sort)")


def _seat_cells(game: Game) -> list[str]:
    return list(game.seats[:2])


def _points_text(game: Game) -> Any:
    if game.points is not None:
        return " - ".join(_show(p) for p in game.points)
    return ""


# ---------------------------------------------------------------- pair pages
def _pair_html(a: str, b: str, games: list[Game], total: int, bots: BotPages) -> str:
    title = "Their games" if total <= len(games) else f"Their latest {len(games)} games"
    return render("pair.html", a=a, b=b, total=total, sections=[_games(games, bots, "../", title)])


# ---------------------------------------------------------------- bot pages
def _bot_html(report: Report, bot: str) -> str:
    """A bot's page: its results per board, its games, its faults with their messages, its CPU per move."""
    own, total, bots = list(report.own.get(bot, ())), report.own_total[bot], report.bots
    if report.config["players"] == 2:
        rows = [[board, f"{v[0]:g}", *map(int, v[1:])] for board, v in sorted(report.per_board[bot].items())]
        headers = ["board", "points", "games", "won", "drawn", "lost"]
    else:
        rows = [[board, outcome] for board, outcome in sorted(report.solo[bot], key=lambda r: r[0])]
        headers = ["board", "result"]
    title = "Its games" if total <= len(own) else f"Its latest {len(own)} games"
    sections = [Section("Results per board", _table(headers, rows)),
                _faults(list(report.own_faults[bot]), report.bot_faults[bot], bots, "../"),
                _cpu(report.cpu, bots, bot, "../"), _games(own, bots, "../", title)]
    return render("bot.html", bot=bot, game=report.config["game"], total=total, sections=sections)


# ---------------------------------------------------------------- the live report
#: Seconds between two reloads of a live report's index, and between two writes of it (at least).
RELOAD = 5
#: The share of the report process's time it may spend rewriting the index and the pages of bots
#: and pairs: a slower write waits longer for the next (the replay pages are written once each).
LIVE_SHARE = 0.02
#: The games listed first in a live index, the last recorded first.
LATEST = 12
#: The games, faults, games of a bot and of a pair the live report keeps (the latest): its memory
#: and the time to write a page do not grow with the tournament.
KEEP = 100
#: The largest tournament whose live report, made final as the run ends, is ``arena report``'s (every
#: game listed: the records are read again); a bigger one keeps the latest ``KEEP`` games.
FULL = 20_000
#: Seconds the report process waits for more games when it has caught up.
POLL = 0.2
#: The report process's niceness: the games come first when the cores are all busy.
NICE = 10


def live(folder: str | None, store: Store, *, status: Callable[[], str] | None = None) -> Live | None:
    """The live report ``--report`` asks for (``folder``; "": RESULTS/NAME/report), or None."""
    if folder is None:
        return None
    out = Path(folder) if folder else store.folder / "report"
    try:
        report = Live(store, out, status=status)
    except OSError as exc:
        raise ArenaError(f"--report: cannot write the report into {str(out)!r}: {exc}") from None
    log.info("live report: %s (open it in a browser: file://%s)", out / "index.html",
             (out / "index.html").resolve())
    return report


class Live:
    """A tournament's report kept up to date while it is played (``arena run
    --report``), by a process of its own (``_Follower``), off the tournament's
    path: it follows ``games.jsonl`` as it grows, writes each game's replay page
    as the game is recorded and the index, marked running with the progress and
    the time left, at most every ``RELOAD`` seconds (it reloads itself);
    ``finish`` has it made final.  The tournament's process does nothing for it
    a game (``arena match`` sends its status line, at most once a second).

    A failure to write the report (a full disk, a board moved away) is logged and
    ends the live report, never the tournament: ``arena report`` can write it later."""

    def __init__(self, store: Store, out: Path, *, status: Callable[[], str] | None = None):
        self.out, self.status = out, status
        (out / "games").mkdir(parents=True, exist_ok=True)  # (a folder that cannot be made: said at once)
        start = store.games_path.stat().st_size if store.games_path.exists() else 0
        context = multiprocessing.get_context("fork")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_follow, args=(store.folder, out, start, theirs),
                                       name="arena-live-report", daemon=True)
        self.process.start()
        theirs.close()
        self.sent = 0.0  # time.monotonic() of the last status sent

    def add(self, record: dict[str, Any], progress: Any = None) -> None:
        """A game was recorded (the report process reads it from the file): only ``arena match``'s status."""
        if self.status is not None and time.monotonic() >= self.sent + 1:
            self.sent = time.monotonic()
            self._send(("status", self.status()))

    def finish(self, state: str | None = None) -> Path | None:
        """Have the report made final, and wait for it: ``state`` says how the run ended
        (by default finished or interrupted, from the games played)."""
        if not self._send(("finish", state)):
            self.process.join()
            return None
        try:
            self.process.join()
        except KeyboardInterrupt:  # a second Ctrl-C: the report stays as it is
            self.process.terminate()
            self.process.join()
            log.warning("the live report was not made final; write it with: arena report")
            return None
        return self.out / "index.html" if self.process.exitcode == 0 else None

    def _send(self, message: tuple[str, Any]) -> bool:
        try:
            self.conn.send(message)
        except OSError:  # the report process is gone (it said why)
            return False
        return True


def _follow(folder: Path, out: Path, start: int, conn: Any) -> None:
    """The live report's process (forked by ``Live``): Ctrl-C is the tournament's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        os.nice(NICE)
    except OSError:
        pass
    try:
        _Follower(Store(folder), out, start, conn).run()
    except (OSError, ArenaError, ValueError) as exc:
        log.warning("the live report stops (the tournament goes on; write it later with arena report): %s", exc)
        raise SystemExit(1) from None


class _Follower:
    """Follows ``games.jsonl`` from byte ``start`` (the records before it, a resumed run's, are
    counted first; their pages are written where missing when the report is made final)."""

    def __init__(self, store: Store, out: Path, start: int, conn: Any):
        self.store, self.out, self.start, self.conn = store, out, start, conn
        self.parent = os.getppid()
        self.report = Report(store, out)  # every game's line kept, up to FULL games
        self.status: str | None = None  # arena match's line
        self.before = 0  # games recorded before this run
        self.started = time.monotonic()
        self.next = self.next_pages = 0.0  # time.monotonic() of the next write of the index, of the other pages
        self.lag = 0.0  # the most seconds between a game's end and its replay page, since the last index

    def run(self) -> None:
        for record in _records(self.store.games_path, 0, self.start):
            self._add(record, page=False)
        self.before = self.report.tally.played
        self.started = time.monotonic()
        self._write_running()
        offset, finish = self.start, None
        while True:
            lines = self._read(offset)
            offset += len(lines)
            for line in lines.splitlines():
                if line.strip():
                    record = json.loads(line)
                    self._add(record)
                    ended = record.get("started", 0) + record.get("seconds", 0)
                    self.lag = max(self.lag, time.time() - ended) if ended else self.lag
            if finish is not None and not lines:
                break
            if time.monotonic() >= self.next:
                self._write_running()
            message = self._message(0 if lines else POLL)
            if message is not None and message[0] == "finish":
                finish = message
            elif message is not None:
                self.status = message[1]
        self._write_final(finish[1])

    def _add(self, record: dict[str, Any], page: bool = True) -> None:
        self.report.add(record, page=page)
        if self.report.keep is None and self.report.tally.played > FULL:
            self.report.bound(KEEP)

    def _read(self, offset: int) -> bytes:
        return whole_lines(self.store.games_path, offset)

    def _message(self, timeout: float) -> tuple[str, Any] | None:
        """A message from the tournament, if one comes within ``timeout`` seconds (its end: finish)."""
        try:
            if self.conn.poll(timeout):
                return self.conn.recv()
        except (EOFError, OSError):
            return ("finish", None)  # the tournament's process is gone
        if os.getppid() != self.parent:
            return ("finish", None)
        return None

    def _write_running(self) -> None:
        """The index, and the pages of bots and pairs when they are due: each is
        written again after at least ``RELOAD`` seconds and at most ``LIVE_SHARE``
        of the time (their cost does not grow with the games: ``KEEP``)."""
        started = time.monotonic()
        if started >= self.next_pages:
            self.report.write_pages()
            took = time.monotonic() - started
            self.next_pages = time.monotonic() + max(RELOAD, took / LIVE_SHARE)
            log.debug("live report: pages of bots and pairs written in %.3f s", took)
        started = time.monotonic()
        self.report.write(self._state, running=True, latest=LATEST, pages=False)
        took = time.monotonic() - started
        self.next = time.monotonic() + max(RELOAD, took / LIVE_SHARE)
        log.debug("live report: index of %d games written in %.3f s; replay pages at most %.2f s after "
                  "their game ended", self.report.tally.played, took, self.lag)
        self.lag = 0.0

    def _state(self, played: int, expected: int) -> str:
        if self.status is not None:
            return self.status
        new = played - self.before
        if not new:
            return "running: waiting for the first game to finish"
        elapsed = time.monotonic() - self.started
        left = elapsed / new * max(expected - played, 0)
        return (f"running: {_clock(elapsed)} elapsed, about {_clock(left)} left "
                f"(as of {time.strftime('%H:%M:%S')}, reloading every {RELOAD} s)")

    def _write_final(self, state: str | None) -> None:
        """The report made final: ``arena report``'s (every game listed, the replays of the games
        recorded before this run written where missing) for a tournament of up to ``FULL`` games;
        a bigger one's lists the latest ``KEEP`` games (and says so)."""
        if self.report.keep is None:
            for record in _records(self.store.games_path, 0, self.start):
                self.report.page(record, missing_only=True)
        self.report.write(state)
        log.debug("live report: made final")


def whole_lines(path: Path, offset: int, size: int = 1 << 20) -> bytes:
    """The whole lines a file has from byte ``offset`` on: about ``size`` bytes of them, or the one
    line there if it is longer (a record whose bots flooded their output runs to megabytes); b""
    while the file does not exist or the line there is not yet written whole."""
    try:
        with open(path, "rb") as handle:
            handle.seek(offset)
            parts = [handle.read(size)]
            while parts[-1] and b"\n" not in parts[-1]:
                parts.append(handle.read(size))
    except FileNotFoundError:  # no game recorded yet
        return b""
    chunk = b"".join(parts)
    return chunk[:chunk.rfind(b"\n") + 1]


def _records(path: Path, begin: int, end: int) -> Iterator[dict[str, Any]]:
    """The records of the lines between two byte offsets of ``games.jsonl``."""
    if end <= begin:
        return
    with open(path, "rb") as handle:
        handle.seek(begin)
        at = begin
        for line in handle:
            at += len(line)
            if line.strip() and line.endswith(b"\n"):
                yield json.loads(line)
            if at >= end:
                return


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

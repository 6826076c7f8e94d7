"""A tournament's static HTML report: ``index.html`` with the tables (the
crosstable's cells open the games of that pair, a one-player game's score
cells open that game, every bot's name opens its page), the faults with their
messages, CPU time per bot, every game (sortable by board, seats, result),
one replay page per game under ``games/`` and one page per bot under
``bots/`` (its games, its results per board, its faults, its CPU per move).  Plain files: they open from the
file system, without a server, for a finished or an interrupted tournament.
"""

from __future__ import annotations

import html
import logging
import os
import re
import statistics
import time
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from arena import brackets, replay, tables, views
from arena.errors import ArenaError
from arena.html import page, replay_page
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


class PageNames:
    """Each game id's page, relative to the report folder: a name made from the
    id, distinct from the others (``-2``, ``-3``... for ids that look alike)."""

    def __init__(self) -> None:
        self.taken: set[str] = set()  # (a set: looking names up among the pages was quadratic)

    def add(self, game_id: str) -> str:
        slug = re.sub(r"[^A-Za-z0-9._-]+", "-", game_id.replace("|", "--")).strip("-")
        name, k = slug, 1
        while name in self.taken:
            k += 1
            name = f"{slug}-{k}"
        self.taken.add(name)
        return f"games/{name}.html"


def game_pages(records: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Each game id's page (``PageNames``), for records in the order of ``games.jsonl``."""
    names = PageNames()
    return {record["id"]: names.add(record["id"]) for record in records}


class _Cpu:
    """Each bot's CPU time per invocation, for the median and the max (8 bytes a move)."""

    def __init__(self) -> None:
        self.times: dict[str, array] = defaultdict(lambda: array("d"))
        self.worst: dict[str, tuple[float, str, str]] = {}  # bot -> (CPU, game id, its page): the largest

    def add(self, record: dict[str, Any], page: str) -> None:
        for move in record["moves"]:
            bot = record["seats"][move["seat"]]
            self.times[bot].append(move["cpu"])
            if bot not in self.worst or (move["cpu"], record["id"]) > self.worst[bot][:2]:
                self.worst[bot] = (move["cpu"], record["id"], page)


def build(store: Store, out: Path, *, progress: Callable[[str], None] = lambda text: None) -> Path:
    """Write the report of ``store`` into ``out``; returns the index page.

    ``games.jsonl`` is read once, as a stream: each game's replay page is
    written as its record is read, and of the record only what the index and
    the pair pages show is kept (``Game``: a line of the tables, and each
    move's CPU time), so the report of a big tournament needs a small part of
    its records' memory.  Each board is read (and checked against its hash)
    once."""
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
    since the last ``write``, once the first is done)."""

    def __init__(self, store: Store, out: Path):
        self.store, self.out = store, out
        self.config = store.config()
        (out / "games").mkdir(parents=True, exist_ok=True)
        self.legend = views.legend(self.config["game"])
        self.referee = replay.get_referee(self.config["game"])
        self.boards: dict[tuple[str, str], Any] = {}  # (name, sha256) -> the board's initial state
        self.names, self.games, self.faults, self.cpu = PageNames(), [], [], _Cpu()
        self.tally = tables.Tally.of(self.config, ())
        self.bots = BotPages([bot["name"] for bot in self.config["bots"]])
        self.own: dict[str, list[Game]] = defaultdict(list)  # each bot's games
        self.changed: set[str] | None = None  # the bots with a game since the last write (None: all)
        self.pairs: set[tuple[str, ...]] = set()  # the pairs of bots that played (names sorted)
        self.changed_pairs: set[tuple[str, ...]] = set()

    def add(self, record: dict[str, Any], *, missing_only: bool = False) -> Game:
        """Count a game and write its replay page (with ``missing_only``, only if it is not there yet)."""
        name = self.names.add(record["id"])
        page = not (missing_only and (self.out / name).exists())
        operations = None
        if page or self.referee.protocol == "one-shot":
            board = (record["board"]["name"], record["board"].get("sha256", ""))
            if board not in self.boards:
                self.boards[board] = replay.recorded_board(self.referee, self.store, record)[1]
            game = replay.replay(self.referee, self.boards[board], record)
            if page:
                _write(self.out / name, replay_page(game, legend=self.legend, back="../index.html"))
            # a one-shot game is one invocation: count its operations, as its replay steps through them
            if self.referee.protocol == "one-shot":
                operations = sum(1 for step in game.steps if step.entry is not None and not step.frame.part)
        row = Game.of(record, name, operations)
        self.games.append(row)
        self.faults += _fault_rows(record, name)
        self.cpu.add(record, name)
        self.tally.add(record)
        for seat in dict.fromkeys(row.seats):
            if seat not in self.bots.pages:
                self.bots = BotPages([*self.bots.pages, seat])
            self.own[seat].append(row)
            if self.changed is not None:
                self.changed.add(seat)
        if len(row.seats) == 2 and row.seats[0] != row.seats[1]:
            pair = tuple(sorted(row.seats))
            self.pairs.add(pair)
            self.changed_pairs.add(pair)
        return row

    def write(self, state: str | None = None, *, running: bool = False, latest: int = 0, pages: bool = True) -> Path:
        """The index, and the pair and bot pages that changed.  ``state``: how far
        the tournament is, in words (by default: finished or interrupted, from the
        games played); ``running``: it is still being played, the index reloads
        itself and lists the ``latest`` games recorded (every game: once it ends);
        ``pages``: the pages of bots and pairs too."""
        if pages:
            self.write_pages()
        index = self.out / "index.html"
        _write(index, _index_html(self.store, self.config, self.tally, self.games, self.faults, self.cpu,
                                  self.bots, state, running, latest))
        return index

    def write_pages(self) -> None:
        """The pages of the pairs and the bots with a game since the last time."""
        changed = set(self.bots.pages) if self.changed is None else self.changed
        if self.config["players"] == 2:
            (self.out / "pairs").mkdir(exist_ok=True)
            for a, b in self.pairs if self.changed is None else self.changed_pairs:
                both = [g for g in self.own[a] if b in g.seats]
                _write(self.out / pair_page(a, b), _pair_html(a, b, both, self.bots))
        (self.out / "bots").mkdir(exist_ok=True)
        for bot in changed:
            _write(self.out / self.bots.pages[bot],
                   _bot_html(bot, self.config, self.own.get(bot, []), self.faults, self.cpu, self.bots))
        self.changed, self.changed_pairs = set(), set()


def _write(path: Path, text: str) -> None:
    """Write a page whole or not at all (a page reloading itself never reads half of one)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


class BotPages:
    """Each bot's page, relative to the report folder (``bots/NAME.html``, distinct for names alike)."""

    def __init__(self, bots: Iterable[str]) -> None:
        names = PageNames()
        self.pages: dict[str, str] = {}
        for bot in bots:
            if bot not in self.pages:
                self.pages[bot] = "bots/" + names.add(bot).removeprefix("games/")

    def link(self, bot: Any, up: str = "") -> str | None:
        page = self.pages.get(bot) if isinstance(bot, str) else None
        return None if page is None else up + page


def pairs(games: Iterable[Game]) -> dict[tuple[str, str], list[Game]]:
    """The games of each pair of bots (both seat orders), keyed by sorted names."""
    found: dict[tuple[str, str], list[Game]] = defaultdict(list)
    for game in games:
        a, b = sorted(game.seats)
        found[a, b].append(game)
    return found


def pair_page(a: str, b: str) -> str:
    a, b = sorted((a, b))
    return "pairs/" + re.sub(r"[^A-Za-z0-9._-]+", "-", f"{a}--{b}") + ".html"


# ---------------------------------------------------------------- index
def _index_html(store: Store, config: dict[str, Any], tally: tables.Tally, games: list[Game],
                faults: list[tuple[list[Any], str]], cpu: _Cpu, bots: BotPages, state: str | None = None,
                running: bool = False, latest: int = 0) -> str:
    data = tables.data(config, tally)
    if state is None:
        state = ("finished" if data["played"] >= data["expected"]
                 else "interrupted or still running: resume it with the same command")
    badge = (f'<span class="chip" id="badge" style="background:{"#1a7f37" if running else "#6b7280"}">'
             f'{"running" if running else "final"}</span> ')
    parts = [(f"<header><h1>{badge}{html.escape(store.folder.name)}</h1><div class=\"sub\">"
              f"{html.escape(config['game'])} · {data['played']} of {data['expected']} games played · "
              f"<span id=\"state\">{html.escape(state)}</span>"
              f" · limits: {html.escape(_limits(config))}</div></header><main>")]
    if latest and games:
        parts += _games(games[-latest:][::-1], bots, title="Latest games", order=False)
    for name, table in data["tables"].items():
        headers, rows = _quiet_fault_columns(table["headers"], table["rows"])
        parts.append(f"<h2>{html.escape(table['title'])}</h2>")
        parts.append(_table(headers, rows, _cell_link(name, {**table, "headers": headers, "rows": rows}, games, bots),
                            header_link=bots.link))
    parts += brackets.section(config, tally)  # a knockout's bracket, a Swiss's rounds
    parts += _faults(faults, bots)
    parts += _cpu(cpu, bots)
    if running:  # (a list of every game grows with the games: the latest are listed above)
        parts.append("<h2>Every game</h2><p>Listed when the tournament ends; the latest are at the top.</p>")
    else:
        parts += _games(games, bots)
    refresh = f'<meta http-equiv="refresh" content="{RELOAD}">' if running else ""
    return page(f"{store.folder.name} – arena report", "".join(parts) + "</main>", script=SORT_SCRIPT,
                head=refresh)


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


def _cell_link(name: str, table: dict[str, Any], games: list[Game], bots: BotPages) -> Link:
    """Where a table's cell links: crosstable cells to the pair's games, score
    cells to the game, bot names to the bot's page."""
    headers = table["headers"]
    bot_column = headers.index("bot") if "bot" in headers else None

    def bot(row: int, col: int, value: Any) -> str | None:
        return bots.link(value) if col == bot_column else None
    if name == "crosstable":
        played = set(pairs(games))

        def cross(row: int, col: int, value: Any) -> str | None:
            a, b = table["rows"][row][0], headers[col]
            if col == 0:
                return bots.link(a)
            return pair_page(a, b) if tuple(sorted((a, b))) in played and a != b else None
        return cross
    if name == "scores":
        by_cell = {(game.seats[0], game.board): game.page for game in games}

        def score(row: int, col: int, value: Any) -> str | None:
            return bot(row, col, value) or by_cell.get((table["rows"][row][1], headers[col]))
        return score
    return bot


def _table(headers: list[str], rows: list[list[Any]], link: Link = lambda r, c, v: None,
           css: str = "t", header_link: Callable[[Any], str | None] = lambda h: None, sortable: bool = False) -> str:
    """An HTML table in a box of its own that scrolls sideways when it is wider than the page;
    ``link`` gives a cell's target (or None), ``header_link`` a header's (a crosstable's bot).
    Text is left-aligned, numbers right; ``sortable``: a click on a header sorts by it."""
    text_columns = {c for c, value in enumerate(rows[0]) if _is_text(value)} if rows else set()
    left = ' class="l"'

    def header(c: int, h: Any) -> str:
        target = header_link(h) if c else None
        text = html.escape(display(str(h)))
        return f'<a href="{html.escape(target)}">{text}</a>' if target else text
    head = "".join(f"<th{left if c in text_columns else ''}>{header(c, h)}</th>" for c, h in enumerate(headers))
    body = []
    for r, row in enumerate(rows):
        cells = []
        for c, value in enumerate(row):
            text = html.escape(_show(value))
            target = link(r, c, value)
            klass = ' class="x"' if value == "x" else ' class="l"' if _is_text(value) else ""
            cells.append(f'<td{klass}><a href="{html.escape(target)}">{text or "·"}</a></td>' if target
                         else f"<td{klass}>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    css += " sortable" if sortable else ""
    return (f'<div class="scroll"><table class="{css}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


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


def _faults(faults: list[tuple[list[Any], str]], bots: BotPages, up: str = "") -> list[str]:
    if not faults:
        return ["<h2>Faults</h2><p>None: every bot answered every time, in time, legally.</p>"]
    rows, links = [row for row, _ in faults], [link for _, link in faults]
    return ["<h2>Faults</h2>",
            _table(["game", "bot", "move", "verdict", "message"], rows,
                   lambda r, c, v: up + links[r] if c == 0 else bots.link(v, up) if c == 1 else None)]


def _cpu(cpu: _Cpu, bots: BotPages, only: str | None = None, up: str = "") -> list[str]:
    """CPU seconds per invocation, per bot: median, max (linked to its game), count."""
    rows, links = [], []
    for bot in sorted(cpu.times) if only is None else [only] if only in cpu.times else []:
        times, (worst, game_id, page) = cpu.times[bot], cpu.worst[bot]
        rows.append([bot, len(times), f"{statistics.median(times):.3f}", f"{worst:.3f}", game_id])
        links.append(up + page)
    return ["<h2>CPU time per invocation (seconds)</h2>",
            _table(["bot", "invocations", "median", "max", "game of the max"], rows,
                   lambda r, c, v: links[r] if c == 4 else bots.link(v, up) if c == 0 else None)]


def _games(games: list[Game], bots: BotPages, up: str = "", title: str = "Every game",
           order: bool = True) -> list[str]:
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
    return [f"<h2>{html.escape(title)} <span class=\"hint\">(click a header to sort)</span></h2>",
            _table(headers, rows, link, sortable=True)]


def _seat_cells(game: Game) -> list[str]:
    return list(game.seats[:2])


def _points_text(game: Game) -> Any:
    if game.points is not None:
        return " - ".join(_show(p) for p in game.points)
    return ""


SORT_SCRIPT = """<script>
document.querySelectorAll('table.sortable').forEach((table) => {
  table.querySelectorAll('th').forEach((th, col) => {
    th.style.cursor = 'pointer';
    th.title = 'sort by this column';
    th.addEventListener('click', () => {
      const body = table.tBodies[0];
      const up = th.dataset.sorted !== 'up';
      table.querySelectorAll('th').forEach((h) => { delete h.dataset.sorted; });
      th.dataset.sorted = up ? 'up' : 'down';
      const key = (row) => row.cells[col].textContent.trim();
      const rows = Array.from(body.rows);
      const numeric = rows.every((r) => key(r) === '' || !isNaN(Number(key(r))));
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const order = numeric ? Number(x) - Number(y) : x.localeCompare(y, undefined, {numeric: true});
        return up ? order : -order;
      });
      body.append(...rows);
    });
  });
});
</script>"""


# ---------------------------------------------------------------- pair pages
def _pair_html(a: str, b: str, games: list[Game], bots: BotPages) -> str:
    shown_a, shown_b = html.escape(display(a)), html.escape(display(b))
    body = (f"<header><h1>{shown_a} and {shown_b}</h1><div class=\"sub\">"
            f"{len(games)} games · <a href=\"../index.html\">back to the report</a></div></header><main>"
            + "".join(_games(games, bots, "../", "Their games")) + "</main>")
    return page(f"{display(a)} and {display(b)} – arena report", body, script=SORT_SCRIPT)


# ---------------------------------------------------------------- bot pages
def _bot_html(bot: str, config: dict[str, Any], games: list[Game], faults: list[tuple[list[Any], str]],
              cpu: _Cpu, bots: BotPages) -> str:
    """A bot's page: its results per board, its games, its faults with their messages, its CPU per move."""
    own = [g for g in games if bot in g.seats]
    two = config["players"] == 2
    if two:
        per_board: dict[str, list[float]] = defaultdict(lambda: [0.0, 0, 0, 0, 0])  # points, games, W, D, L
        for g in own:
            points = g.points[g.seats.index(bot)] if g.points else 0.0
            row = per_board[g.board]
            row[0] += points
            row[1] += 1
            row[2 + {3.0: 0, 1.5: 1}.get(points, 2)] += 1
        rows = [[board, f"{v[0]:g}", *map(int, v[1:])] for board, v in sorted(per_board.items())]
        headers = ["board", "points", "games", "won", "drawn", "lost"]
    else:
        rows = [[g.board, g.outcome] for g in sorted(own, key=lambda g: g.board)]
        headers = ["board", "result"]
    shown = html.escape(display(bot))
    mine = [(row, link) for row, link in faults if row[1] == bot]
    body = (f"<header><h1>{shown}</h1><div class=\"sub\">{html.escape(config['game'])} · {len(own)} games · "
            f"<a href=\"../index.html\">back to the report</a></div></header><main>"
            f"<h2>Results per board</h2>{_table(headers, rows)}"
            + "".join(_faults(mine, bots, "../")) + "".join(_cpu(cpu, bots, bot, "../"))
            + "".join(_games(own, bots, "../", "Its games")) + "</main>")
    return page(f"{display(bot)} – arena report", body, script=SORT_SCRIPT)



# ---------------------------------------------------------------- the live report
#: Seconds between two reloads of a live report's index, and between two writes of it (at least).
RELOAD = 5
#: The share of the tournament's time a live report may spend rewriting its index and the pages of
#: bots and pairs: a slower write waits longer for the next (the replay pages are written once each).
LIVE_SHARE = 0.02
#: The games listed first in a live index, the last recorded first.
LATEST = 12


def live(folder: str | None, store: Store, *, status: Callable[[], str] | None = None) -> Live | None:
    """The live report ``--report`` asks for (``folder``; "": RESULTS/NAME/report), or None."""
    if folder is None:
        return None
    out = Path(folder) if folder else store.folder / "report"
    try:
        report = Live(store, out, status=status, warn=log.warning)
    except OSError as exc:
        raise ArenaError(f"--report: cannot write the report into {str(out)!r}: {exc}") from None
    log.info("live report: %s (open it in a browser: file://%s)", out / "index.html",
             (out / "index.html").resolve())
    return report


class Live:
    """A tournament's report kept up to date while it is played (``arena run
    --report``): each game's replay page is written as the game is recorded
    (``add``), the index, marked running with the progress and the time left,
    is rewritten at most every ``RELOAD`` seconds, and reloads itself; ``finish``
    writes it final.  Games recorded before (a resumed tournament) are read once,
    as it starts; their pages are written only where missing.

    A failure to write the report (a full disk, a board moved away) is logged and
    ends the live report, never the tournament: ``arena report`` can write it later."""

    def __init__(self, store: Store, out: Path, *, status: Callable[[], str] | None = None,
                 warn: Callable[[str], None] = lambda text: None):
        self.out, self.status, self.warn = out, status, warn
        self.report: Report | None = Report(store, out)
        for record in store.iter_records():
            self.report.add(record, missing_only=True)
        self.progress: Any = None  # tournament.Progress, as of the last game
        self.next = self.next_pages = 0.0  # time.monotonic() of the next write of the index, of the other pages
        self._guarded(self._write_running)

    def add(self, record: dict[str, Any], progress: Any = None) -> None:
        """A game was recorded: its page now, the index when it is due."""
        if self.report is None:
            return
        self.progress = progress
        self._guarded(self.report.add, record)
        if time.monotonic() >= self.next:
            self._guarded(self._write_running)

    def finish(self, state: str | None = None) -> Path | None:
        """Write the report final: ``state`` says how the run ended (by default
        finished or interrupted, from the games played)."""
        if self.report is None:
            return None
        return self._guarded(self.report.write, state)

    def _write_running(self) -> None:
        """The index, and the pages of bots and pairs when they are due: each is
        written again after at least ``RELOAD`` seconds and at most ``LIVE_SHARE``
        of the time (a bot's page lists its games: it grows with them)."""
        assert self.report is not None
        started = time.monotonic()
        if started >= self.next_pages:
            self.report.write_pages()
            took = time.monotonic() - started
            self.next_pages = time.monotonic() + max(RELOAD, took / LIVE_SHARE)
            log.debug("live report: pages of bots and pairs written in %.3f s", took)
        started = time.monotonic()
        self.report.write(self._state(), running=True, latest=LATEST, pages=False)
        took = time.monotonic() - started
        self.next = time.monotonic() + max(RELOAD, took / LIVE_SHARE)
        log.debug("live report: index of %d games written in %.3f s", len(self.report.games), took)

    def _state(self) -> str:
        if self.status is not None:
            return self.status()
        progress = self.progress
        if progress is None or not progress.played:
            return "running: waiting for the first game to finish"
        elapsed = time.monotonic() - progress.start
        left = elapsed / progress.played * (progress.to_play - progress.played)
        return (f"running: {_clock(elapsed)} elapsed, about {_clock(left)} left "
                f"(as of {time.strftime('%H:%M:%S')}, reloading every {RELOAD} s)")

    def _guarded(self, write: Callable[..., Any], *args: Any) -> Any:
        try:
            return write(*args)
        except (OSError, ArenaError) as exc:
            self.warn(f"the live report stops (the tournament goes on; write it later with arena report): {exc}")
            self.report = None
            return None


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

"""A tournament's static HTML report: ``index.html`` with the tables (the
crosstable's cells open the games of that pair, a one-player game's score
cells open that game), the faults with their messages, CPU time per bot, and
one replay page per game under ``games/``.  Plain files: they open from the
file system, without a server, for a finished or an interrupted tournament.
"""

from __future__ import annotations

import html
import re
import statistics
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from arena import replay, tables, views
from arena.html import page, replay_page
from arena.store import Store
from arena.text import display

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
    def of(cls, record: dict[str, Any], page: str) -> Game:
        points = record.get("points")
        return cls(record["id"], tuple(record["seats"]), record["board"]["name"],
                   tuple(points) if points is not None else None, len(record["moves"]),
                   replay.outcome_text(record), page)


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
    config = store.config()
    total = store.count()
    (out / "games").mkdir(parents=True, exist_ok=True)
    legend = views.legend(config["game"])
    referee = replay.get_referee(config["game"])
    boards: dict[tuple[str, str], Any] = {}  # (name, sha256) -> the board's initial state
    names, games, faults, cpu = PageNames(), [], [], _Cpu()
    tally = tables.Tally.of(config, ())
    for number, record in enumerate(store.iter_records(), start=1):
        page = names.add(record["id"])
        board = (record["board"]["name"], record["board"].get("sha256", ""))
        if board not in boards:
            boards[board] = replay.recorded_board(referee, store, record)[1]
        game = replay.replay(referee, boards[board], record)
        (out / page).write_text(replay_page(game, legend=legend, back="../index.html"), encoding="utf-8")
        games.append(Game.of(record, page))
        faults += _fault_rows(record, page)
        cpu.add(record, page)
        tally.add(record)
        progress(f"[{number}/{total}] {display(record['id'])}")
    if config["players"] == 2:
        (out / "pairs").mkdir(exist_ok=True)
        for (a, b), played in pairs(games).items():
            (out / pair_page(a, b)).write_text(_pair_html(a, b, played), encoding="utf-8")
    index = out / "index.html"
    index.write_text(_index_html(store, config, tally, games, faults, cpu), encoding="utf-8")
    return index


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
                faults: list[tuple[list[Any], str]], cpu: _Cpu) -> str:
    data = tables.data(config, tally)
    state = "finished" if data["played"] >= data["expected"] else "interrupted or still running: resume it with the same command"
    parts = [(f"<header><h1>{html.escape(store.folder.name)}</h1><div class=\"sub\">{html.escape(config['game'])}"
             f" · {data['played']} of {data['expected']} games played ({html.escape(state)})"
             f" · limits: {html.escape(_limits(config))}</div></header><main>")]
    for name, table in data["tables"].items():
        parts.append(f"<h2>{html.escape(table['title'])}</h2>")
        parts.append(_table(table["headers"], table["rows"], _cell_link(name, table, games)))
    parts += _faults(faults)
    parts += _cpu(cpu)
    parts += _games(games)
    return page(f"{store.folder.name} – arena report", "".join(parts) + "</main>")


def _limits(config: dict[str, Any]) -> str:
    limits = config.get("limits", {})
    memory = limits.get("memory")
    return ", ".join(filter(None, [
        f"CPU {limits['cpu']:g} s" if limits.get("cpu") else "",
        f"wall {limits['wall']:g} s" if limits.get("wall") else "",
        f"memory {memory // 2**20} MiB" if memory else "",
    ])) or "-"


def _cell_link(name: str, table: dict[str, Any], games: list[Game]) -> Link:
    """Where a table's cell links: crosstable cells to the pair's games, score
    cells to the game, bot names nowhere."""
    headers = table["headers"]
    if name == "crosstable":
        played = set(pairs(games))

        def cross(row: int, col: int, value: Any) -> str | None:
            a, b = table["rows"][row][0], headers[col]
            return pair_page(a, b) if col > 0 and tuple(sorted((a, b))) in played and a != b else None
        return cross
    if name == "scores":
        by_cell = {(game.seats[0], game.board): game.page for game in games}

        def score(row: int, col: int, value: Any) -> str | None:
            return by_cell.get((table["rows"][row][1], headers[col]))
        return score
    return lambda row, col, value: None


def _table(headers: list[str], rows: list[list[Any]], link: Link = lambda r, c, v: None,
           css: str = "t") -> str:
    """An HTML table; ``link`` gives a cell's target (or None). Text is left-aligned, numbers right."""
    text_columns = {c for c, value in enumerate(rows[0]) if _is_text(value)} if rows else set()
    left = ' class="l"'
    head = "".join(f"<th{left if c in text_columns else ''}>{html.escape(str(h))}</th>" for c, h in enumerate(headers))
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
    return f'<table class="{css}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and value not in ("x", "-", "") and not re.fullmatch(r"[-+0-9.]+", value)


def _show(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _fault_rows(record: dict[str, Any], page: str) -> list[tuple[list[Any], str]]:
    """A row of the faults table (and where it links: the game's last step) for each refused move."""
    return [([record["id"], record["seats"][move["seat"]], number, move["verdict"], move.get("message", "")],
             page + "#end")  # a fault ends its game: the last step
            for number, move in enumerate(record["moves"], start=1) if move["verdict"] != "ok"]


def _faults(faults: list[tuple[list[Any], str]]) -> list[str]:
    if not faults:
        return ["<h2>Faults</h2><p>None: every bot answered every time, in time, legally.</p>"]
    rows, links = [row for row, _ in faults], [link for _, link in faults]
    return ["<h2>Faults</h2>",
            _table(["game", "bot", "move", "verdict", "message"], rows,
                   lambda r, c, v: links[r] if c == 0 else None)]


def _cpu(cpu: _Cpu) -> list[str]:
    """CPU seconds per invocation, per bot: median, max (linked to its game), count."""
    rows, links = [], []
    for bot in sorted(cpu.times):
        times, (worst, game_id, page) = cpu.times[bot], cpu.worst[bot]
        rows.append([bot, len(times), f"{statistics.median(times):.3f}", f"{worst:.3f}", game_id])
        links.append(page)
    return ["<h2>CPU time per invocation (seconds)</h2>",
            _table(["bot", "moves", "median", "max", "game of the max"], rows,
                   lambda r, c, v: links[r] if c == 4 else None)]


def _games(games: list[Game]) -> list[str]:
    rows = [[game.id, game.moves, game.outcome] for game in games]
    return ["<h2>Every game</h2>", _table(["game", "moves", "result"], rows,
                                          lambda r, c, v: games[r].page if c == 0 else None)]


# ---------------------------------------------------------------- pair pages
def _pair_html(a: str, b: str, games: list[Game]) -> str:
    rows, links = [], []
    for game in games:
        points = game.points or (None, None)
        rows.append([game.board, " vs ".join(game.seats), game.moves, " - ".join(_show(p) for p in points),
                     game.outcome])
        links.append("../" + game.page)
    body = (f"<header><h1>{html.escape(a)} and {html.escape(b)}</h1><div class=\"sub\">"
            f"{len(games)} games · <a href=\"../index.html\">back to the report</a></div></header><main>"
            + _table(["board", "seats (first vs second)", "moves", "points", "result"], rows,
                     lambda r, c, v: links[r] if c in (0, 1) else None)
            + "</main>")
    return page(f"{a} and {b} – arena report", body)

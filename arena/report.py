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
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena import replay, tables, views
from arena.html import page, replay_page
from arena.store import Store

Link = Callable[[int, int, Any], str | None]


def build(store: Store, out: Path, *, progress: Callable[[str], None] = lambda text: None) -> Path:
    """Write the report of ``store`` into ``out``; returns the index page."""
    config, records = store.config(), store.records()
    pages = game_pages(records)
    (out / "games").mkdir(parents=True, exist_ok=True)
    legend = views.legend(config["game"])
    for number, record in enumerate(records, start=1):
        game = replay.load(store, record)
        (out / pages[record["id"]]).write_text(replay_page(game, legend=legend, back="../index.html"),
                                               encoding="utf-8")
        progress(f"[{number}/{len(records)}] {record['id']}")
    if config["players"] == 2:
        (out / "pairs").mkdir(exist_ok=True)
        for (a, b), games in pairs(records).items():
            (out / pair_page(a, b)).write_text(_pair_html(a, b, games, pages), encoding="utf-8")
    index = out / "index.html"
    index.write_text(_index_html(store, config, records, pages), encoding="utf-8")
    return index


def game_pages(records: list[dict[str, Any]]) -> dict[str, str]:
    """Each game id's page, relative to the report folder (distinct names)."""
    pages: dict[str, str] = {}
    taken: set[str] = set()  # (a set: looking names up in the pages themselves took minutes at 100,000 games)
    for record in records:
        slug = re.sub(r"[^A-Za-z0-9._-]+", "-", record["id"].replace("|", "--")).strip("-")
        name, k = slug, 1
        while name in taken:
            k += 1
            name = f"{slug}-{k}"
        taken.add(name)
        pages[record["id"]] = f"games/{name}.html"
    return pages


def pairs(records: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """The games of each pair of bots (both seat orders), keyed by sorted names."""
    found: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        a, b = sorted(record["seats"])
        found[a, b].append(record)
    return found


def pair_page(a: str, b: str) -> str:
    a, b = sorted((a, b))
    return "pairs/" + re.sub(r"[^A-Za-z0-9._-]+", "-", f"{a}--{b}") + ".html"


# ---------------------------------------------------------------- index
def _index_html(store: Store, config: dict[str, Any], records: list[dict[str, Any]], pages: dict[str, str]) -> str:
    data = tables.data(config, records)
    state = "finished" if data["played"] >= data["expected"] else "interrupted or still running: resume it with the same command"
    parts = [(f"<header><h1>{html.escape(store.folder.name)}</h1><div class=\"sub\">{html.escape(config['game'])}"
             f" · {data['played']} of {data['expected']} games played ({html.escape(state)})"
             f" · limits: {html.escape(_limits(config))}</div></header><main>")]
    for name, table in data["tables"].items():
        parts.append(f"<h2>{html.escape(table['title'])}</h2>")
        parts.append(_table(table["headers"], table["rows"], _cell_link(name, table, records, pages)))
    parts += _faults(records, pages)
    parts += _cpu(records, pages)
    parts += _games(records, pages)
    return page(f"{store.folder.name} – arena report", "".join(parts) + "</main>")


def _limits(config: dict[str, Any]) -> str:
    limits = config.get("limits", {})
    memory = limits.get("memory")
    return ", ".join(filter(None, [
        f"CPU {limits['cpu']:g} s" if limits.get("cpu") else "",
        f"wall {limits['wall']:g} s" if limits.get("wall") else "",
        f"memory {memory // 2**20} MiB" if memory else "",
    ])) or "-"


def _cell_link(name: str, table: dict[str, Any], records: list[dict[str, Any]], pages: dict[str, str]) -> Link:
    """Where a table's cell links: crosstable cells to the pair's games, score
    cells to the game, bot names nowhere."""
    headers = table["headers"]
    if name == "crosstable":
        played = set(pairs(records))

        def cross(row: int, col: int, value: Any) -> str | None:
            a, b = table["rows"][row][0], headers[col]
            return pair_page(a, b) if col > 0 and tuple(sorted((a, b))) in played and a != b else None
        return cross
    if name == "scores":
        by_cell = {(r["seats"][0], r["board"]["name"]): pages[r["id"]] for r in records}

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


def _faults(records: list[dict[str, Any]], pages: dict[str, str]) -> list[str]:
    rows, links = [], []
    for record in records:
        for number, move in enumerate(record["moves"], start=1):
            if move["verdict"] != "ok":
                rows.append([record["id"], record["seats"][move["seat"]], number, move["verdict"],
                             move.get("message", "")])
                links.append(pages[record["id"]] + "#end")  # a fault ends its game: the last step
    if not rows:
        return ["<h2>Faults</h2><p>None: every bot answered every time, in time, legally.</p>"]
    return ["<h2>Faults</h2>",
            _table(["game", "bot", "move", "verdict", "message"], rows,
                   lambda r, c, v: links[r] if c == 0 else None)]


def _cpu(records: list[dict[str, Any]], pages: dict[str, str]) -> list[str]:
    """CPU seconds per invocation, per bot: median, max (linked to its game), count."""
    times: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for record in records:
        for move in record["moves"]:
            times[record["seats"][move["seat"]]].append((move["cpu"], record["id"]))
    rows, links = [], []
    for bot in sorted(times):
        values = sorted(times[bot])
        worst = values[-1]
        rows.append([bot, len(values), f"{statistics.median(v for v, _ in values):.3f}", f"{worst[0]:.3f}",
                     worst[1]])
        links.append(pages[worst[1]])
    return ["<h2>CPU time per invocation (seconds)</h2>",
            _table(["bot", "moves", "median", "max", "game of the max"], rows,
                   lambda r, c, v: links[r] if c == 4 else None)]


def _games(records: list[dict[str, Any]], pages: dict[str, str]) -> list[str]:
    rows = [[r["id"], len(r["moves"]), replay.outcome_text(r)] for r in records]
    return ["<h2>Every game</h2>", _table(["game", "moves", "result"], rows,
                                          lambda r, c, v: pages[records[r]["id"]] if c == 0 else None)]


# ---------------------------------------------------------------- pair pages
def _pair_html(a: str, b: str, games: list[dict[str, Any]], pages: dict[str, str]) -> str:
    rows, links = [], []
    for record in games:
        points = record.get("points", [None, None])
        rows.append([record["board"]["name"], " vs ".join(record["seats"]), len(record["moves"]),
                     " - ".join(_show(p) for p in points), replay.outcome_text(record)])
        links.append("../" + pages[record["id"]])
    body = (f"<header><h1>{html.escape(a)} and {html.escape(b)}</h1><div class=\"sub\">"
            f"{len(games)} games · <a href=\"../index.html\">back to the report</a></div></header><main>"
            + _table(["board", "seats (first vs second)", "moves", "points", "result"], rows,
                     lambda r, c, v: links[r] if c in (0, 1) else None)
            + "</main>")
    return page(f"{a} and {b} – arena report", body)

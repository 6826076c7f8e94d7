"""Tables computed from game records (never kept by hand).

Two-player games: standings, a crosstable of points between each pair, and
points per board.  Single-player games: a score table per board with totals,
faults marked.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from tabulate import tabulate

FAULTS = ("time-limit", "memory-limit", "crash", "no-output", "bad-output", "illegal")


def render(config: dict[str, Any], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    """All the tables of a tournament as text, with a heading line each."""
    bots = [b["name"] for b in config["bots"]]
    boards = [b["name"] for b in config["boards"]]
    expected = _expected_games(config)
    head = f"{config['game']}: {len(records)} of {expected} games played"
    if len(records) < expected:
        head += " (unfinished: run the same command again to resume)"
    parts = [head]
    if config["players"] == 1:
        parts += ["Scores", score_table(bots, boards, records, fmt)]
    else:
        parts += [
            "Standings", standings(bots, records, fmt),
            "Crosstable (points of the row bot against the column bot)", crosstable(bots, records, fmt),
            "Points per board", per_board(bots, boards, records, fmt),
        ]
    return "\n\n".join(parts) + "\n"


def _expected_games(config: dict[str, Any]) -> int:
    bots, boards = len(config["bots"]), len(config["boards"])
    return bots * boards if config["players"] == 1 else bots * (bots - 1) * boards


def _number(value: float) -> str:
    return f"{value:g}"


# ------------------------------------------------------------- two players
def standings(bots: list[str], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    """Rank, points, games, wins, draws, losses, faults by verdict, score %."""
    stats = {bot: Counter() for bot in bots}
    faults: dict[str, Counter] = {bot: Counter() for bot in bots}
    for record in records:
        for seat, bot in enumerate(record["seats"]):
            s = stats.setdefault(bot, Counter())
            s["points"] += record["points"][seat]
            s["games"] += 1
            winner = record["outcome"]["winner"]
            s["wins" if winner == seat else "draws" if winner is None else "losses"] += 1
        fault = record.get("fault")
        if fault:
            faults.setdefault(record["seats"][fault["seat"]], Counter())[fault["verdict"]] += 1
    order = sorted(stats, key=lambda b: (-stats[b]["points"], -stats[b]["wins"], b))
    rows = []
    for bot in order:
        s = stats[bot]
        pct = 100 * s["points"] / (3 * s["games"]) if s["games"] else 0.0
        rows.append([_rank(order, stats, bot), bot, _number(s["points"]), s["games"], s["wins"], s["draws"],
                     s["losses"], _fault_text(faults.get(bot, Counter())), f"{pct:.1f}"])
    return tabulate(rows, headers=["#", "bot", "points", "games", "won", "drawn", "lost", "faults", "score %"],
                    tablefmt=fmt, disable_numparse=True)


def _rank(order: list[str], stats: dict[str, Counter], bot: str) -> int:
    """Equal points and wins share a rank."""
    key = (stats[bot]["points"], stats[bot]["wins"])
    return 1 + sum(1 for other in order if (stats[other]["points"], stats[other]["wins"]) > key)


def _fault_text(counts: Counter) -> str:
    return ", ".join(f"{verdict} {counts[verdict]}" for verdict in FAULTS if counts[verdict]) or "-"


def crosstable(bots: list[str], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    points: dict[tuple[str, str], float] = defaultdict(float)
    played: set[tuple[str, str]] = set()
    for record in records:
        a, b = record["seats"]
        points[a, b] += record["points"][0]
        points[b, a] += record["points"][1]
        played |= {(a, b), (b, a)}
    rows = [[bot] + ["x" if bot == other else _number(points[bot, other]) if (bot, other) in played else ""
                     for other in bots] for bot in bots]
    return tabulate(rows, headers=["bot"] + bots, tablefmt=fmt, disable_numparse=True)


def per_board(bots: list[str], boards: list[str], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    points: dict[tuple[str, str], float] = defaultdict(float)
    for record in records:
        for seat, bot in enumerate(record["seats"]):
            points[bot, record["board"]["name"]] += record["points"][seat]
    rows = [[bot] + [_number(points[bot, board]) for board in boards] + [_number(sum(points[bot, b] for b in boards))]
            for bot in bots]
    return tabulate(rows, headers=["bot"] + boards + ["total"], tablefmt=fmt, disable_numparse=True)


# ------------------------------------------------------------- one player
def score_table(bots: list[str], boards: list[str], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    """Score per bot and board, the total, and faults marked by verdict."""
    cells: dict[tuple[str, str], str] = {}
    totals: dict[str, float] = defaultdict(float)
    faults: dict[str, int] = defaultdict(int)
    for record in records:
        bot, board = record["seats"][0], record["board"]["name"]
        score, fault = record["outcome"]["score"], record.get("fault")
        text = "" if score is None else _number(score)
        if fault:
            faults[bot] += 1
            text = f"{text} ({fault['verdict']})".strip()
        cells[bot, board] = text
        totals[bot] += score or 0
    order = sorted(bots, key=lambda b: (-totals[b], b))
    rows = [[i, bot] + [cells.get((bot, board), "") for board in boards] + [_number(totals[bot]), faults[bot]]
            for i, bot in enumerate(order, start=1)]
    return tabulate(rows, headers=["#", "bot"] + boards + ["total", "faults"], tablefmt=fmt, disable_numparse=True)

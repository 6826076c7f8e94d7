"""Tables computed from game records (never kept by hand).

Two-player games: standings, ratings, a crosstable of points between each
pair, and points per board.  Single-player games: a score table per board with
totals, faults marked, and each bot's mean score with its interval.  A match
of two (``arena match``): its pentanomial line and verdict.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict
from typing import Any

from tabulate import tabulate

from arena import stats

#: Formats of machine-readable tables, besides tabulate's.
DATA_FORMATS = ("csv", "json")
FAULTS = ("time-limit", "memory-limit", "crash", "no-output", "bad-output", "illegal")


def render(config: dict[str, Any], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    """All the tables of a tournament as text, with a heading line each."""
    if config.get("match"):
        return render_match(config, records, fmt)
    bots = [b["name"] for b in config["bots"]]
    boards = [b["name"] for b in config["boards"]]
    expected = _expected_games(config)
    head = f"{config['game']}: {len(records)} of {expected} games played"
    if len(records) < expected:
        head += " (unfinished: run the same command again to resume)"
    parts = [head]
    by_rate = len(records) < expected
    if config["players"] == 1:
        parts += [_scores_heading(by_rate), score_table(bots, boards, records, fmt, by_rate=by_rate)]
        parts += [MEANS_TITLE, mean_scores(bots, records, fmt)]
    else:
        parts += [
            _standings_heading(by_rate), standings(bots, records, fmt, by_rate=by_rate),
            "Crosstable (points of the row bot against the column bot)", crosstable(bots, records, fmt),
            RATINGS_TITLE, ratings(bots, records, fmt),
            "Points per board", per_board(bots, boards, records, fmt),
        ]
    return "\n\n".join(parts) + "\n"


def _expected_games(config: dict[str, Any]) -> int:
    bots, boards = len(config["bots"]), len(config["boards"])
    return bots * boards if config["players"] == 1 else bots * (bots - 1) * boards


def _format(rows: list[list[Any]], headers: list[str], fmt: str) -> str:
    """A table as text: any tabulate format, or ``csv`` / ``json`` (DATA_FORMATS)."""
    if fmt == "json":
        return json.dumps({"headers": headers, "rows": [[_value(cell) for cell in row] for row in rows]})
    if fmt == "csv":
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([headers, *rows])
        return out.getvalue().rstrip("\n")
    return tabulate(rows, headers=headers, tablefmt=fmt, disable_numparse=True)


def table_text(table: dict[str, Any], fmt: str) -> str:
    """One table of ``data()`` in any format."""
    return _format(table["rows"], table["headers"], fmt)


def _value(cell: Any) -> Any:
    """A cell for JSON: numbers as numbers, the rest as text."""
    if isinstance(cell, str):
        try:
            number = float(cell)
        except ValueError:
            return cell
        return int(number) if number.is_integer() and "." not in cell else number
    return cell


def data(config: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    """Every table of a tournament as data: ``{"game", "played", "expected",
    "tables": {name: {"title", "headers", "rows"}}}`` (what ``--format json`` prints)."""
    bots = [b["name"] for b in config["bots"]]
    boards = [b["name"] for b in config["boards"]]
    if config["players"] == 1:
        made = {"scores": ("Scores", score_table(bots, boards, records, "json")),
                "means": (MEANS_TITLE, mean_scores(bots, records, "json"))}
    else:
        made = {"standings": ("Standings", standings(bots, records, "json")),
                "crosstable": ("Crosstable (points of the row bot against the column bot)",
                               crosstable(bots, records, "json")),
                "ratings": (RATINGS_TITLE, ratings(bots, records, "json")),
                "per_board": ("Points per board", per_board(bots, boards, records, "json"))}
    return {"game": config["game"], "played": len(records), "expected": _expected_games(config),
            "tables": {name: {"title": title, **json.loads(text)} for name, (title, text) in made.items()}}


def _number(value: float) -> str:
    return f"{value:g}"


def _standings_heading(by_rate: bool) -> str:
    if not by_rate:
        return "Standings"
    return ("Standings, ranked by points per game played (the tournament is unfinished, so bots have played "
            "different numbers of games)")


def _scores_heading(by_rate: bool) -> str:
    if not by_rate:
        return "Scores"
    return ("Scores, ranked by the mean score per game played, as in the mean score table below (the tournament "
            "is unfinished, so bots have played different numbers of games)")


def _per_game(total: float, games: int) -> float | None:
    """A total divided by the games played (None when none was played: such a bot ranks last)."""
    return total / games if games else None


def _rate_key(total: float, games: int) -> float:
    rate = _per_game(total, games)
    return float("-inf") if rate is None else rate


# ------------------------------------------------------------- two players
def standings(bots: list[str], records: list[dict[str, Any]], fmt: str = "simple", *, by_rate: bool = False) -> str:
    """Rank, points, games, wins, draws, losses, faults by verdict, score %.

    Ranked by points, then wins; ``by_rate`` (an unfinished tournament): by
    points per game played, then wins per game, with a column for it."""
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
    if by_rate:
        keys = {b: (_rate_key(stats[b]["points"], stats[b]["games"]), _rate_key(stats[b]["wins"], stats[b]["games"]))
                for b in stats}
    else:
        keys = {b: (stats[b]["points"], stats[b]["wins"]) for b in stats}
    order = sorted(stats, key=lambda b: (tuple(-k for k in keys[b]), b))
    rows = []
    for bot in order:
        s = stats[bot]
        pct = 100 * s["points"] / (3 * s["games"]) if s["games"] else 0.0
        rate = _per_game(s["points"], s["games"])
        rows.append([_rank(order, keys, bot), bot, _number(s["points"]), s["games"]]
                    + ([_rate_text(rate)] if by_rate else [])
                    + [s["wins"], s["draws"], s["losses"], _fault_text(faults.get(bot, Counter())), f"{pct:.1f}"])
    headers = ["#", "bot", "points", "games", *(["points/game"] if by_rate else []), "won", "drawn", "lost",
               "faults", "score %"]
    return _format(rows, headers, fmt)


def _rate_text(rate: float | None) -> str:
    return "" if rate is None else f"{rate:.2f}"


def _rank(order: list[str], keys: dict[str, tuple], bot: str) -> int:
    """Equal keys (points and wins, or their rates per game) share a rank."""
    return 1 + sum(1 for other in order if keys[other] > keys[bot])


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
    return _format(rows, ["bot"] + bots, fmt)


def per_board(bots: list[str], boards: list[str], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    """Points per bot and board, and the total; a board on which a bot has
    played no game yet (an unfinished tournament) is an empty cell."""
    points: dict[tuple[str, str], float] = defaultdict(float)
    for record in records:
        for seat, bot in enumerate(record["seats"]):
            points[bot, record["board"]["name"]] += record["points"][seat]
    rows = [[bot] + [_number(points[bot, board]) if (bot, board) in points else "" for board in boards]
            + [_number(sum(points.get((bot, b), 0.0) for b in boards))] for bot in bots]
    return _format(rows, ["bot"] + boards + ["total"], fmt)


# ------------------------------------------------------------- one player
def score_table(bots: list[str], boards: list[str], records: list[dict[str, Any]], fmt: str = "simple", *,
                by_rate: bool = False) -> str:
    """Score per bot and board, the total, and faults marked by verdict.

    Ranked by the total; ``by_rate`` (an unfinished tournament): by the mean
    score per game played (the mean score table shows it)."""
    cells: dict[tuple[str, str], str] = {}
    totals: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
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
        games[bot] += 1
    key = (lambda b: _rate_key(totals[b], games[b])) if by_rate else (lambda b: totals[b])
    order = sorted(bots, key=lambda b: (-key(b), b))
    rows = [[i, bot] + [cells.get((bot, board), "") for board in boards] + [_number(totals[bot]), faults[bot]]
            for i, bot in enumerate(order, start=1)]
    headers = ["#", "bot", *boards, "total", "faults"]
    return _format(rows, headers, fmt)


# ------------------------------------------------------------- ratings (arena.stats)
RATINGS_TITLE = ("Ratings (Elo from a joint fit of all games, mean 0; 95 % interval by bootstrap over "
                 "seat-swapped board pairs; LOS: likelihood of superiority over the next bot)")
MEANS_TITLE = "Mean score per board (95 % interval, Student's t)"


def _signed(value: float) -> str:
    return f"{value:+.0f}"


def rating_clusters(bots: list[str], records: list[dict[str, Any]]) -> tuple[list[str], list[stats.Cluster]]:
    """The players (``bots`` then any other name the records hold) and one
    cluster per board and pair of players (its seat-swapped games), in a
    stable order, so the bootstrap does not depend on the order games ended."""
    names = list(bots) + sorted({s for r in records for s in r["seats"]} - set(bots))
    index = {name: k for k, name in enumerate(names)}
    totals: dict[tuple[int, int, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for record in records:
        i, j = sorted(index[s] for s in record["seats"])
        own = record["points"][record["seats"].index(names[i])] / 3  # a win is 3 points, a score of 1
        total = totals[i, j, record["board"]["name"]]
        total[0] += own
        total[1] += 1
    return names, [stats.Cluster(i, j, score, games) for (i, j, _), (score, games) in sorted(totals.items())]


def ratings(bots: list[str], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    """Rank by Elo, bot, Elo, its 95 % interval, LOS over the next bot (``stats.rate``)."""
    names, clusters = rating_clusters(bots, records)
    headers = ["#", "bot", "Elo", "95 % interval", "LOS"]
    if not clusters:
        return _format([], headers, fmt) if fmt in DATA_FORMATS else "(no games yet)"
    rated = stats.rate(len(names), clusters)
    order = sorted(range(len(names)), key=lambda k: -rated[k].elo)
    rows = [[rank, names[k], _signed(rated[k].elo), f"[{_signed(rated[k].low)}, {_signed(rated[k].high)}]",
             "-" if rated[k].los_next is None else f"{100 * rated[k].los_next:.1f} %"]
            for rank, k in enumerate(order, start=1)]
    return _format(rows, headers, fmt)


def mean_scores(bots: list[str], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    """Per bot: boards played, mean score (a fault scores what the total counts), 95 % interval."""
    scores: dict[str, list[float]] = {bot: [] for bot in bots}
    for record in records:
        scores.setdefault(record["seats"][0], []).append(record["outcome"]["score"] or 0)
    means = {bot: stats.mean_interval(values) for bot, values in scores.items() if values}
    rows = []
    for bot in sorted(scores, key=lambda b: (b not in means, -means[b].mean if b in means else 0, b)):
        m = means.get(bot)
        interval = "" if m is None else "-" if m.low is None else f"[{m.low:.4g}, {m.high:.4g}]"
        rows.append([bot, len(scores[bot]), "" if m is None else f"{m.mean:.4g}", interval])
    return _format(rows, ["bot", "boards", "mean", "95 % interval"], fmt)


# ------------------------------------------------------------- a match of two (arena match)
#: ``result=`` of a match line: still playing, a decision, or why it stopped without one.
RESULTS = ("running", "H1", "H0", "max-pairs", "no-more-boards", "undecided")


class Pairs:
    """Pentanomial counts kept up to date game by game: ``counts[k]`` is how
    many boards ``bot`` scored k/2 on over both of their games (a win 1, a
    draw 1/2); a board with one game so far waits for its second."""

    def __init__(self, bot: str, records: list[dict[str, Any]] | None = None):
        self.bot, self.counts = bot, [0] * 5
        self._open: dict[str, float] = {}  # board -> the bot's score in its one game so far
        for record in records or []:
            self.add(record)

    def add(self, record: dict[str, Any]) -> bool:
        """Count one game; True if it completed a pair."""
        board = record["board"]["name"]
        score = record["points"][record["seats"].index(self.bot)] / 3
        if board not in self._open:
            self._open[board] = score
            return False
        self.counts[round(2 * (self._open.pop(board) + score))] += 1
        return True


def pentanomial(records: list[dict[str, Any]], bot: str) -> list[int]:
    """The pentanomial counts of ``bot`` over complete pairs (``Pairs``)."""
    return Pairs(bot, records).counts


def match_line(counts: list[int], sprt: stats.Sprt | None, result: str) -> str:
    """The line ``arena match`` prints at every finished pair (README, "Comparing two bots"):
    ``pairs=N penta=n0,n1,n2,n3,n4 score=S elo=E low=L high=H los=P [llr=X lower=Y upper=Z] result=R``."""
    fields = [f"pairs={sum(counts)}", "penta=" + ",".join(map(str, counts))]
    est = stats.pentanomial_elo(counts)
    if est is not None:
        fields += [f"score={est.score:.4f}", f"elo={est.elo:+.1f}", f"low={est.low:+.1f}", f"high={est.high:+.1f}",
                   f"los={100 * est.los:.1f}"]
    if sprt is not None:
        fields += [f"llr={sprt.llr(counts):.3f}", f"lower={sprt.lower:.3f}", f"upper={sprt.upper:.3f}"]
    return " ".join(fields + [f"result={result}"])


def verdict(result: str, a: str, b: str) -> str:
    """The sentence under the last line of a match."""
    return {
        "H1": f"H1 accepted: {a} is stronger than {b}",
        "H0": f"H0 accepted: {a} is not stronger than {b}",
        "max-pairs": "No decision: --max-pairs reached",
        "no-more-boards": "No decision: every board has been played",
        "undecided": "No decision (more pairs: run the match again with the same --name and a higher --max-pairs)",
    }.get(result, "")


def match_config_sprt(config: dict[str, Any]) -> stats.Sprt | None:
    """The SPRT a match's configuration names, if any."""
    sprt = config["match"].get("sprt")
    return None if sprt is None else stats.Sprt(**sprt)


def match_result(counts: list[int], sprt: stats.Sprt | None) -> str | None:
    """"H1" or "H0" once the SPRT has decided on these counts, else None."""
    return None if sprt is None else sprt.decision(sprt.llr(counts))


def render_match(config: dict[str, Any], records: list[dict[str, Any]], fmt: str = "simple") -> str:
    """The tables of ``arena match``: its last line, its verdict, standings and crosstable."""
    a, b = (bot["name"] for bot in config["bots"])
    sprt = match_config_sprt(config)
    counts = pentanomial(records, a)
    result = match_result(counts, sprt) or "undecided"
    parts = [f"{config['game']} match: {a} against {b}, {sum(counts)} pairs of games (figures for {a})",
             match_line(counts, sprt, result), verdict(result, a, b),
             "Standings", standings([a, b], records, fmt),
             "Crosstable (points of the row bot against the column bot)", crosstable([a, b], records, fmt)]
    return "\n\n".join(parts) + "\n"

"""Tables computed from game records (never kept by hand).

Two-player games: standings, ratings, a crosstable of points between each
pair, and points per board.  Single-player games: a score table per board with
totals, faults marked, and each bot's mean score with its interval.  A match
of two (``arena match``): its pentanomial line and verdict.

The figures are accumulated one record at a time (``Tally``), so a
tournament's tables take memory in its bots and boards, not in its games:
``arena show`` streams a million records through one ``Tally``.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from tabulate import tabulate

from arena import formats, stats
from arena.store import Summary
from arena.text import csv_cell, display

#: Formats of machine-readable tables, besides tabulate's.
DATA_FORMATS = ("csv", "json")
FAULTS = ("time-limit", "memory-limit", "crash", "no-output", "bad-output", "illegal")

#: A game record as the tables take it: a dict as ``arena.match.play`` returns
#: it, or its ``Summary`` as ``Store.summaries`` reads it.
Record = dict[str, Any] | Summary


def render(config: dict[str, Any], records: Iterable[Record] | Tally, fmt: str = "simple",
           writer: str | None = None) -> str:
    """All the tables of a tournament as text, with a heading line each
    (``records`` is read once, as a stream); ``writer``: the run still playing it, if one is."""
    if config.get("match"):
        return render_match(config, records, fmt, writer)
    tally = Tally.of(config, records)
    expected = _expected_games(config)
    head = f"{config['game']}: {tally.played} of {expected} games played"
    if tally.played < expected:
        head += (f" (still being played, by {display(writer)})" if writer else
                 " (unfinished: run the same command again to resume)")
    parts = [head + _system_head(config, tally)]
    by_rate = tally.played < expected
    if config["players"] == 1:
        parts += [_scores_heading(by_rate), tally.score_table(fmt, by_rate=by_rate),
                  MEANS_TITLE, tally.mean_scores(fmt)]
    else:
        parts += [
            _standings_heading(by_rate), tally.standings(fmt, by_rate=by_rate),
            CROSSTABLE_TITLE, tally.crosstable(fmt),
            RATINGS_TITLE, tally.ratings(fmt),
            PER_BOARD_TITLE, tally.per_board(fmt),
        ]
        for title, headers, rows, note in system_tables(config, tally).values():
            parts += [title, _format(rows, headers, fmt)] + ([note] if note else [])
    if excluded := excluded_rows(config):
        parts += [EXCLUDED_TITLE, _format(excluded, EXCLUDED_HEADERS, fmt)]
    return "\n\n".join(parts) + "\n"


EXCLUDED_TITLE = "Excluded (given, but could not play: the whole reason is in tournament.json and arena.log)"
EXCLUDED_HEADERS = ["bot", "path", "reason"]


def excluded_rows(config: dict[str, Any]) -> list[list[str]]:
    """The bots given that could not play, each with the first lines of why (a compiler's message is long)."""
    rows = []
    for bad in config.get("excluded", []):
        lines = [line.strip() for line in str(bad.get("reason", "")).split("\n") if line.strip()]
        first_error = next((line for line in lines[1:] if "error" in line.lower()), None)
        reason = " / ".join([*lines[:1], first_error or (lines[1] if len(lines) > 1 else "")]).rstrip(" /")
        rows.append([bad.get("name", "?"), bad.get("path", "?"), reason if len(reason) <= 160 else reason[:157] + "..."])
    return rows


def _expected_games(config: dict[str, Any]) -> int:
    bots, boards = len(config["bots"]), len(config["boards"])
    return bots * boards if config["players"] == 1 else formats.from_config(config).games(bots, boards)


# ------------------------------------------------------------- the format's own tables (Swiss, knockout)
SWISS_HEADERS = ["#", "bot", "match points", "Buchholz", "Sonneborn-Berger", "direct encounter", "game points",
                 "byes"]
ROUNDS_HEADERS = ["round", "bot", "opponent", "points", "opponent's points", "result"]
KNOCKOUT_HEADERS = ["round", "seed", "bot", "opponent's seed", "opponent", "points", "opponent's points",
                    "faults", "opponent's faults", "winner", "decided by"]


def _system_head(config: dict[str, Any], tally: Tally) -> str:
    """The heading's words on the format: a gauntlet's challengers, a Swiss's rounds, a knockout's champion."""
    system, bots, boards = formats.from_config(config), [b["name"] for b in config["bots"]], _board_names(config)
    if isinstance(system, formats.Gauntlet):
        return f"; a gauntlet of {', '.join(display(c) for c in system.challengers)} against the field"
    if isinstance(system, formats.Swiss):
        done = system.standings(bots, boards, tally.format_results or formats.Results()).rounds
        return f"; Swiss, {done} of {system.count} rounds complete"
    if isinstance(system, formats.Knockout):
        champion = system.winner(bots, boards, tally.format_results or formats.Results())
        return f"; knockout, {'won by ' + display(champion) if champion else 'not decided yet'}"
    return ""


def _board_names(config: dict[str, Any]) -> list[str]:
    return [b["name"] for b in config["boards"]]


def system_tables(config: dict[str, Any], tally: Tally) -> dict[str, tuple[str, list[str], list[list[Any]], str]]:
    """The format's own tables, by name: (title, headers, rows, the rule stated under it).  A Swiss:
    its standings with tie-breaks and its rounds; a knockout: its ties round by round."""
    system, bots, boards = formats.from_config(config), [b["name"] for b in config["bots"]], _board_names(config)
    results = tally.format_results or formats.Results()
    if isinstance(system, formats.Swiss):
        table = system.standings(bots, boards, results)
        rows = [[rank, bot, *keys, table.byes[bot]] for rank, (bot, keys) in enumerate(table.ranked(), start=1)]
        title = f"Swiss standings after {table.rounds} of {system.count} rounds (seeding: {system.seeding})"
        return {"swiss": (title, SWISS_HEADERS, rows, formats.SWISS_RULE + "."),
                "rounds": ("Rounds (each pairing's games of the round; a bye scores 1)", ROUNDS_HEADERS,
                           _round_rows(system.played(bots, boards, results)), "")}
    if isinstance(system, formats.Knockout):
        seed = {bot: k for k, bot in enumerate(bots)}
        rows = []
        for round_, matches in system.played(bots, boards, results):
            for match in matches:
                winner, how = formats.tie_winner(match, seed)
                rows.append([round_.title(), seed[match.a] + 1, match.a, seed[match.b] + 1, match.b,
                             *map(_whole, match.points), *match.faults, winner, how])
            rows += [[round_.title(), seed[bot] + 1, bot, None, "(bye)", None, None, None, None, bot, "bye"]
                     for bot in round_.byes]
        title = f"Knockout (seeding: {system.seeding}; seed 1 is the first)"
        return {"knockout": (title, KNOCKOUT_HEADERS, rows, "Knockout: " + formats.TIE_RULE + ".")}
    return {}


def _whole(points: float) -> float | int:
    """Game points as the other tables show them: 6, not 6.0 (a column with empty cells is text)."""
    return int(points) if points == int(points) else points


def _round_rows(played: list[tuple[formats.Round, list[formats.Match]]]) -> list[list[Any]]:
    rows = []
    for round_, matches in played:
        done = {(m.a, m.b): m for m in matches}
        for a, b in round_.pairs or ():
            match = done.get((a, b))
            if match is None:
                rows.append([round_.number, a, b, None, None, "playing"])
            else:
                rows.append([round_.number, a, b, *map(_whole, match.points),
                             {1.0: "won", 0.5: "drawn", 0.0: "lost"}[match.score(a)]])
        rows += [[round_.number, bot, "(bye)", None, None, "bye"] for bot in round_.byes]
    return rows


def _format(rows: list[list[Any]], headers: list[str], fmt: str) -> str:
    """A table as text: any tabulate format, or ``csv`` / ``json`` (DATA_FORMATS).

    JSON is data (names exact; ``arena.text.json_for_terminal`` prints it).  CSV
    cells are neutralised for spreadsheets (``arena.text.csv_cell``); the text
    formats show every cell as display text (bot and board names are untrusted)."""
    if fmt == "json":
        return json.dumps({"headers": headers, "rows": [[_value(cell) for cell in row] for row in rows]})
    if fmt == "csv":
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([[csv_cell(cell) for cell in row]
                                                        for row in [headers, *rows]])
        return out.getvalue().rstrip("\n")
    return tabulate([[_shown(cell) for cell in row] for row in rows], headers=[_shown(h) for h in headers],
                    tablefmt=fmt, disable_numparse=True)


def _shown(cell: Any) -> Any:
    """A cell of a text table: text as one line of display text, numbers as they are."""
    return display(cell) if isinstance(cell, str) else cell


def table_text(table: dict[str, Any], fmt: str) -> str:
    """One table of ``data()`` in any format."""
    return _format(table["rows"], table["headers"], fmt)


def _value(cell: Any) -> Any:
    """A cell for JSON: numbers as numbers (the tables give them so in the data
    formats), None as null, the rest as text; a whole float as an int."""
    if isinstance(cell, float) and cell.is_integer() and abs(cell) < 2**53:
        return int(cell)
    return cell


def _rounded(value: float | None, digits: int = 1) -> float | None:
    """A figure for the data formats: rounded as the text tables round it, None kept."""
    return None if value is None else round(value, digits)


def data(config: dict[str, Any], records: Iterable[Record] | Tally) -> dict[str, Any]:
    """Every table of a tournament as data: ``{"game", "played", "expected",
    "tables": {name: {"title", "headers", "rows"}}}`` (what ``--format json`` prints)."""
    tally = Tally.of(config, records)
    if config["players"] == 1:
        made = {"scores": ("Scores", tally.score_table("json")),
                "means": (MEANS_TITLE, tally.mean_scores("json"))}
    else:
        made = {"standings": ("Standings", tally.standings("json")),
                "crosstable": (CROSSTABLE_TITLE, tally.crosstable("json")),
                "ratings": (RATINGS_TITLE, tally.ratings("json")),
                "per_board": (PER_BOARD_TITLE, tally.per_board("json"))}
    tables = {name: {"title": title, **json.loads(text)} for name, (title, text) in made.items()}
    if config["players"] == 2:
        for name, (title, headers, rows, note) in system_tables(config, tally).items():
            tables[name] = {"title": title, **json.loads(_format(rows, headers, "json")),
                            **({"note": note} if note else {})}
    if excluded := excluded_rows(config):
        tables["excluded"] = {"title": EXCLUDED_TITLE, "headers": EXCLUDED_HEADERS, "rows": excluded}
    return {"game": config["game"], "played": tally.played, "expected": _expected_games(config), "tables": tables}


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


def _rate_text(rate: float | None) -> str:
    return "" if rate is None else f"{rate:.2f}"


def _rank(order: list[str], keys: dict[str, tuple], bot: str) -> int:
    """Equal keys (points and wins, or their rates per game) share a rank."""
    return 1 + sum(1 for other in order if keys[other] > keys[bot])


def _fault_text(counts: Counter) -> str:
    """``time-limit 2, crash 1``, or ``0``."""
    return ", ".join(f"{verdict} {counts[verdict]}" for verdict in FAULTS if counts[verdict]) or "0"


def _figure(value: float) -> str:
    """A mean or a bound in a text table: readable digits, never an exponent
    (``13500``, ``-2903``, ``41.5``, ``0.125``, ``12``)."""
    if abs(value) >= 1000:
        return f"{value:.0f}"
    text = f"{value:.1f}" if abs(value) >= 1 else f"{value:.3f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _signed(value: float) -> str:
    return f"{value:+.0f}"


CROSSTABLE_TITLE = "Crosstable (points of the row bot against the column bot)"
PER_BOARD_TITLE = "Points per board"
RATINGS_TITLE = ("Ratings (Elo from a joint fit of all games, mean 0; 95 % interval: the wider of a bootstrap over "
                 "seat-swapped board pairs and the fit's profile likelihood; LOS: likelihood of superiority over "
                 f"the next bot, from {stats.LOS_MIN_PAIRS} board pairs each)")
MEANS_TITLE = "Mean score per board (95 % interval, Student's t)"


# ------------------------------------------------------------- the figures, game by game
#: A bot's figures in ``Tally.results``: [points, games, wins, draws, losses].
POINTS, GAMES, WINS, DRAWS, LOSSES = range(5)
#: A bot's points in a game as halves of a win (the rating clusters' unit).
HALVES = {0.0: 0, 1.5: 1, 3.0: 2}


class Tally:
    """Every table's figures, accumulated one game at a time (``add``).

    What it keeps grows with the bots and boards, never with the games: per
    bot its points, results and faults; per pair of bots the points between
    them and their rating clusters counted by kind (``_Clusters``); per bot
    and board the points (two players) or the score's cell (one player); per
    bot the running moments of its scores.  The tables are then drawn from
    these figures (``standings``, ``crosstable``, ...)."""

    def __init__(self, bots: list[str], boards: list[str]):
        self.bots, self.boards = list(bots), list(boards)
        self.played = 0
        # two players
        self.results: dict[str, list[float]] = {bot: [0.0] * 5 for bot in bots}  # POINTS, GAMES, ... per bot
        self.faults: dict[str, Counter] = {bot: Counter() for bot in bots}
        self.between: dict[tuple[str, str], float] = defaultdict(float)  # points of a against b
        self.on_board: dict[tuple[str, str], float] = defaultdict(float)  # points of a bot on a board
        self.clusters = _Clusters(bots, boards)
        self._ratings: tuple[int, list[str], list[stats.Rating]] | None = None  # (games counted, names, ratings)
        # one player
        self.cells: dict[tuple[str, str], tuple[float | None, str | None]] = {}  # (score, fault verdict)
        self.totals: dict[str, float] = defaultdict(float)
        self.games: dict[str, int] = defaultdict(int)
        self.fault_count: dict[str, int] = defaultdict(int)
        self.moments: dict[str, stats.Moments] = {bot: stats.Moments() for bot in bots}
        # a format paired from results (Swiss, knockout): the games' summaries, to rebuild its rounds
        self.format_results: formats.Results | None = None

    @classmethod
    def of(cls, config: dict[str, Any], records: Iterable[Record] | Tally) -> Tally:
        """The tally of ``records`` for a tournament's configuration (a tally is taken as it is)."""
        if isinstance(records, Tally):
            return records
        tally = cls([b["name"] for b in config["bots"]], [b["name"] for b in config["boards"]])
        if config.get("players") == 2 and formats.from_config(config).paired:
            tally.format_results = formats.Results()
        for record in records:
            tally.add(record)
        return tally

    def add(self, record: Record) -> None:
        """Count one finished game (the hot loop of ``arena show``: kept plain)."""
        game = record if type(record) is Summary else Summary.of(record)
        self.played += 1
        if self.format_results is not None:
            self.format_results.add(game)
        board = game.board.name
        if game.points is None:
            self._add_one_player(game, board)
            return
        (a, b), (pa, pb), winner = game.seats, game.points, game.outcome.winner
        ra, rb = self._results(a), self._results(b)
        ra[POINTS] += pa
        rb[POINTS] += pb
        ra[GAMES] += 1
        rb[GAMES] += 1
        if winner is None:
            ra[DRAWS] += 1
            rb[DRAWS] += 1
        else:
            (ra if winner == 0 else rb)[WINS] += 1
            (rb if winner == 0 else ra)[LOSSES] += 1
        if game.fault:
            self.faults.setdefault(game.seats[game.fault.seat], Counter())[game.fault.verdict] += 1
        self.on_board[a, board] += pa
        self.on_board[b, board] += pb
        self.between[a, b] += pa
        self.between[b, a] += pb
        self.clusters.add(a, b, pa, board)

    def _results(self, bot: str) -> list[float]:
        found = self.results.get(bot)
        if found is None:
            found = self.results[bot] = [0.0] * 5
        return found

    def _add_one_player(self, game: Summary, board: str) -> None:
        bot, score = game.seats[0], game.outcome.score
        if game.fault:
            self.fault_count[bot] += 1
        self.cells[bot, board] = (score, game.fault.verdict if game.fault else None)
        self.totals[bot] += score or 0
        self.games[bot] += 1
        self.moments.setdefault(bot, stats.Moments()).add(score or 0)

    # --------------------------------------------------------- two players
    def standings(self, fmt: str = "simple", *, by_rate: bool = False) -> str:
        """Rank, points, games, wins, draws, losses, faults by verdict, score %.

        Ranked by points, then wins; ``by_rate`` (an unfinished tournament): by
        points per game played, then wins per game, with a column for it."""
        results = self.results
        if by_rate:
            keys = {b: (_rate_key(r[POINTS], int(r[GAMES])), _rate_key(r[WINS], int(r[GAMES])))
                    for b, r in results.items()}
        else:
            keys = {b: (r[POINTS], r[WINS]) for b, r in results.items()}
        order = sorted(results, key=lambda b: (tuple(-k for k in keys[b]), b))
        data = fmt in DATA_FORMATS
        rows = []
        for bot in order:
            points, games, wins, draws, losses = results[bot]
            pct = 100 * points / (3 * games) if games else None
            faults = self.faults.get(bot, Counter())
            rate = _per_game(points, int(games))
            if data:  # numbers: the faults counted, and by verdict
                rows.append([_rank(order, keys, bot), bot, points, int(games)]
                            + ([_rounded(rate, 4)] if by_rate else [])
                            + [int(wins), int(draws), int(losses), sum(faults.values())]
                            + [faults[verdict] for verdict in FAULTS] + [_rounded(pct)])
                continue
            rows.append([_rank(order, keys, bot), bot, _number(points), int(games)]
                        + ([_rate_text(rate)] if by_rate else [])
                        + [int(wins), int(draws), int(losses), _fault_text(faults),
                           "" if pct is None else f"{pct:.1f}"])
        headers = ["#", "bot", "points", "games", *(["points/game"] if by_rate else []), "won", "drawn", "lost",
                   "faults", *(FAULTS if data else ()), "score %"]
        return _format(rows, headers, fmt)

    def crosstable(self, fmt: str = "simple") -> str:
        """Points of the row bot against the column bot (empty: they have not met yet)."""
        shown = (lambda v: v) if fmt in DATA_FORMATS else _number
        empty = None if fmt in DATA_FORMATS else ""
        rows = [[bot] + ["x" if bot == other else shown(self.between[bot, other])
                         if (bot, other) in self.between else empty for other in self.bots] for bot in self.bots]
        return _format(rows, ["bot"] + self.bots, fmt)

    def per_board(self, fmt: str = "simple") -> str:
        """Points per bot and board, and the total; a board on which a bot has
        played no game yet (an unfinished tournament) is an empty cell."""
        points = self.on_board
        shown = (lambda v: v) if fmt in DATA_FORMATS else _number
        empty = None if fmt in DATA_FORMATS else ""
        rows = [[bot] + [shown(points[bot, board]) if (bot, board) in points else empty for board in self.boards]
                + [shown(sum(points.get((bot, b), 0.0) for b in self.boards))] for bot in self.bots]
        return _format(rows, ["bot"] + self.boards + ["total"], fmt)

    def ratings(self, fmt: str = "simple") -> str:
        """Rank by Elo, bot, Elo, its 95 % interval, LOS over the next bot (``stats.rate``)."""
        data = fmt in DATA_FORMATS
        headers = ["#", "bot", "Elo", "low", "high", "LOS %"] if data else ["#", "bot", "Elo", "95 % interval", "LOS"]
        names, rated = self._rated()
        if not rated:
            return _format([], headers, fmt) if data else "(no games yet)"
        order = sorted(range(len(names)), key=lambda k: -rated[k].elo)
        rows = []
        for rank, k in enumerate(order, start=1):
            r = rated[k]
            los = None if r.los_next is None else 100 * r.los_next
            if data:
                rows.append([rank, names[k], _rounded(r.elo), _rounded(r.low), _rounded(r.high), _rounded(los)])
            else:
                rows.append([rank, names[k], _signed(r.elo), f"[{_signed(r.low)}, {_signed(r.high)}]",
                             "-" if los is None else f"{los:.1f} %"])
        return _format(rows, headers, fmt)

    def _rated(self) -> tuple[list[str], list[stats.Rating]]:
        """The players and their ratings, fitted once for the games counted so far (a thousand
        bootstrap fits: the tables drawn twice, as ``arena run`` does, fit them once)."""
        if self._ratings is None or self._ratings[0] != self.played:
            names, clusters = self.clusters.clusters()
            self._ratings = (self.played, names, stats.rate(len(names), clusters) if clusters else [])
        return self._ratings[1], self._ratings[2]

    # --------------------------------------------------------- one player
    def score_table(self, fmt: str = "simple", *, by_rate: bool = False) -> str:
        """Score per bot and board, the total, and faults marked by verdict.

        Ranked by the total; ``by_rate`` (an unfinished tournament): by the mean
        score per game played (the mean score table shows it)."""
        totals, games = self.totals, self.games
        key = (lambda b: _rate_key(totals[b], games[b])) if by_rate else (lambda b: totals[b])
        order = sorted(self.bots, key=lambda b: (-key(b), b))
        data = fmt in DATA_FORMATS
        cell = self._data_cell if data else self._text_cell
        rows = [[i, bot] + [cell(bot, board) for board in self.boards]
                + [totals[bot] if data else _number(totals[bot]), self.fault_count[bot]]
                for i, bot in enumerate(order, start=1)]
        return _format(rows, ["#", "bot", *self.boards, "total", "faults"], fmt)

    def _text_cell(self, bot: str, board: str) -> str:
        """``812``, ``40 (crash)``, or empty (not played)."""
        score, verdict = self.cells.get((bot, board), (None, None))
        text = "" if score is None else _number(score)
        return f"{text} ({verdict})".strip() if verdict else text

    def _data_cell(self, bot: str, board: str) -> float | None:
        """The score as a number (a fault's verdict is counted in ``faults``), or null."""
        return self.cells.get((bot, board), (None, None))[0]

    def mean_scores(self, fmt: str = "simple") -> str:
        """Per bot: boards played, mean score (a fault scores what the total counts), 95 % interval."""
        means = {bot: stats.mean_interval_of(m) for bot, m in self.moments.items() if m.count}
        data = fmt in DATA_FORMATS
        rows = []
        for bot in sorted(self.moments, key=lambda b: (b not in means, -means[b].mean if b in means else 0, b)):
            m = means.get(bot)
            if data:
                rows.append([bot, self.moments[bot].count] + ([None] * 3 if m is None else
                            [_rounded(m.mean, 4), _rounded(m.low, 4), _rounded(m.high, 4)]))
                continue
            interval = ("" if m is None else "-" if m.low is None
                        else f"[{_figure(m.low)}, {_figure(m.high)}]")
            rows.append([bot, self.moments[bot].count, "" if m is None else _figure(m.mean), interval])
        return _format(rows, ["bot", "boards", "mean", *(["low", "high"] if data else ["95 % interval"])], fmt)


class _Clusters:
    """The rating fit's clusters (``stats.Cluster``: the games of one board
    between two bots, normally its two seat orders), counted by kind: per
    pair of bots, how many clusters had each number of games and score.  A
    board's first game between two bots waits for its second in one byte of
    a table of boards x bots x bots (a dict for names the table was not made
    for), so what is kept is a byte per cluster, not the games: at the middle
    of a million-game file, half the clusters are open."""

    def __init__(self, bots: list[str] = (), boards: list[str] = ()) -> None:
        self.bots = list(bots)
        self.names: list[str] = []
        self._index: dict[str, int] = {}
        for bot in bots:
            self._id(bot)
        self._boards: dict[str, int] = {board: k for k, board in enumerate(boards)}
        self._size, self._rows = len(self.names), len(self._boards)
        self._table = bytearray(self._rows * self._size * self._size)  # 0, or 1 + the first game's halves
        self._open: dict[int, int] = {}  # the rest: (board, i, j) packed -> the first game's halves
        self._kinds: dict[tuple[int, int], Counter] = defaultdict(Counter)  # (i, j) -> {(games, halves): count}

    def _id(self, name: str) -> int:
        found = self._index.get(name)
        if found is None:
            found = self._index[name] = len(self.names)
            self.names.append(name)
        return found

    def add(self, a: str, b: str, points_a: float, board: str) -> None:
        """Count the game of ``a`` (first seat) against ``b`` on ``board``, where ``a`` scored ``points_a``."""
        i, j = self._index.get(a), self._index.get(b)
        if i is None:
            i = self._id(a)
        if j is None:
            j = self._id(b)
        halves = HALVES.get(points_a)
        if halves is None:
            halves = round(2 * points_a / 3)
        if i > j:
            i, j, halves = j, i, 2 - halves
        k = self._boards.get(board)
        if k is None:
            k = self._boards[board] = len(self._boards)
        size = self._size
        if k < self._rows and j < size:
            cell = (k * size + i) * size + j
            first = self._table[cell]
            if not first:
                self._table[cell] = 1 + halves
                return
            self._table[cell] = 0
            self._kinds[i, j][2, first - 1 + halves] += 1
            return
        key = (k << 40) | (i << 20) | j
        first = self._open.pop(key, None)
        if first is None:
            self._open[key] = halves
        else:
            self._kinds[i, j][2, first + halves] += 1

    def _still_open(self) -> Iterator[tuple[int, int, int]]:
        """(i, j, halves) of each cluster of one game so far."""
        import numpy as np

        size, table = self._size, self._table
        for cell in np.flatnonzero(np.frombuffer(table, dtype=np.uint8)).tolist():
            yield cell // size % size, cell % size, table[cell] - 1
        for key, halves in self._open.items():
            yield (key >> 20) & 0xFFFFF, key & 0xFFFFF, halves

    def clusters(self) -> tuple[list[str], list[stats.Cluster]]:
        """The players (the bots it was made for, then any other name the games hold, sorted) and
        the clusters of each kind, in a stable order: the figures do not depend
        on the order in which games ended."""
        names = self.bots + sorted(set(self.names) - set(self.bots))
        where = {k: names.index(name) for k, name in enumerate(self.names)}
        kinds: dict[tuple[int, int], Counter] = defaultdict(Counter)
        for (i, j), counts in self._kinds.items():
            kinds[i, j].update(counts)
        for i, j, halves in self._still_open():
            kinds[i, j][1, halves] += 1
        found = []
        for (i, j), counts in kinds.items():
            x, y = where[i], where[j]
            for (games, halves), count in counts.items():
                score = halves / 2 if x < y else games - halves / 2  # the lower index's score
                found.append(stats.Cluster(min(x, y), max(x, y), score, games, count))
        return names, sorted(found, key=lambda c: (c.i, c.j, c.games, c.score))


# ------------------------------------------------------------- one table from records
def standings(bots: list[str], records: Iterable[Record], fmt: str = "simple", *, by_rate: bool = False) -> str:
    return _tally(bots, [], records).standings(fmt, by_rate=by_rate)


def crosstable(bots: list[str], records: Iterable[Record], fmt: str = "simple") -> str:
    return _tally(bots, [], records).crosstable(fmt)


def per_board(bots: list[str], boards: list[str], records: Iterable[Record], fmt: str = "simple") -> str:
    return _tally(bots, boards, records).per_board(fmt)


def ratings(bots: list[str], records: Iterable[Record], fmt: str = "simple") -> str:
    return _tally(bots, [], records).ratings(fmt)


def score_table(bots: list[str], boards: list[str], records: Iterable[Record], fmt: str = "simple", *,
                by_rate: bool = False) -> str:
    return _tally(bots, boards, records).score_table(fmt, by_rate=by_rate)


def mean_scores(bots: list[str], records: Iterable[Record], fmt: str = "simple") -> str:
    return _tally(bots, [], records).mean_scores(fmt)


def _tally(bots: list[str], boards: list[str], records: Iterable[Record]) -> Tally:
    tally = Tally(bots, boards)
    for record in records:
        tally.add(record)
    return tally


# ------------------------------------------------------------- a match of two (arena match)
#: ``result=`` of a match line: still playing, a decision, or why it stopped without one.
RESULTS = ("running", "H1", "H0", "max-pairs", "no-more-boards", "undecided")


class Pairs:
    """Pentanomial counts kept up to date game by game: ``counts[k]`` is how
    many boards ``bot`` scored k/2 on over both of their games (a win 1, a
    draw 1/2); a board with one game so far waits for its second."""

    def __init__(self, bot: str, records: Iterable[Record] = ()):
        self.bot, self.counts = bot, [0] * 5
        self._open: dict[str, float] = {}  # board -> the bot's score in its one game so far
        for record in records:
            self.add(record)

    def add(self, record: Record) -> bool:
        """Count one game; True if it completed a pair."""
        game = Summary.of(record)
        board = game.board.name
        score = game.points[game.seats.index(self.bot)] / 3
        if board not in self._open:
            self._open[board] = score
            return False
        self.counts[round(2 * (self._open.pop(board) + score))] += 1
        return True


def pentanomial(records: Iterable[Record], bot: str) -> list[int]:
    """The pentanomial counts of ``bot`` over complete pairs (``Pairs``)."""
    return Pairs(bot, records).counts


def match_line(counts: list[int], sprt: stats.Sprt | None, result: str, model: str | None = None) -> str:
    """The line ``arena match`` prints at every finished pair (README, "Comparing two bots"):
    ``pairs=N penta=n0,n1,n2,n3,n4 score=S model=M [nelo=X] elo=E low=L high=H los=P
    [llr=X lower=Y upper=Z] result=R``: the raw mean score, the model of the SPRT's bounds
    (``model`` otherwise; logistic by default) with the normalized Elo under that model, the
    logistic Elo with its likelihood-ratio interval, and the LOS (``-`` below
    ``stats.LOS_MIN_PAIRS`` pairs)."""
    model = model or (sprt.model if sprt else "logistic")
    fields = [f"pairs={sum(counts)}", "penta=" + ",".join(map(str, counts))]
    est = stats.pentanomial_elo(counts)
    if est is not None:
        fields += [f"score={est.score:.4f}", f"model={model}"]
        fields += [f"nelo={est.nelo:+.1f}"] if model == "normalized" else []
        fields += [f"elo={est.elo:+.1f}", f"low={est.low:+.1f}", f"high={est.high:+.1f}",
                   "los=-" if est.los is None else f"los={100 * est.los:.1f}"]
    if sprt is not None:
        fields += [f"llr={sprt.llr(counts):.3f}", f"lower={sprt.lower:.3f}", f"upper={sprt.upper:.3f}"]
    return " ".join(fields + [f"result={result}"])


def verdict(result: str, a: str, b: str) -> str:
    """The sentence under the last line of a match (names as display text)."""
    a, b = display(a), display(b)
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


def render_match(config: dict[str, Any], records: Iterable[Record], fmt: str = "simple",
                 writer: str | None = None) -> str:
    """The tables of ``arena match``: its last line, its verdict, standings and crosstable
    (``writer``: the run still playing it, if one is)."""
    a, b = (bot["name"] for bot in config["bots"])
    sprt = match_config_sprt(config)
    tally, pairs = Tally([a, b], []), Pairs(a)
    for record in records:
        tally.add(record)
        pairs.add(record)
    counts = pairs.counts
    result = match_result(counts, sprt) or ("running" if writer else "undecided")
    shown_a, shown_b = display(a), display(b)
    heading = (f"{config['game']} match: {shown_a} against {shown_b}, {sum(counts)} pairs of games "
               f"(figures for {shown_a})")
    parts = [heading,
             match_line(counts, sprt, result),
             f"Still being played, by {display(writer)}: the pairs so far" if result == "running"
             else verdict(result, a, b),
             "Standings", tally.standings(fmt), CROSSTABLE_TITLE, tally.crosstable(fmt)]
    return "\n\n".join(parts) + "\n"

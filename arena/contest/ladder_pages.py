"""What the ladder's pages show, read from the database: the latest fitted standings (the runner fits
them: a web process never computes a rating), each entry's rating over time as an SVG plot drawn
here, a contestant's own games and why an entry of theirs is paused.  Who sees what is
``permissions.ladder_visible``'s."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any

from arena.contest import ladder
from arena.contest import permissions as can
from arena.contest.models import LadderGame, LadderSnapshot, Submission

#: The plot's size in the SVG's own units (it is scaled to the page's width).
WIDTH, HEIGHT, MARGIN = 900, 320, 44
#: Colours of the plot's lines, in rank order (then again).
COLOURS = ("#1b5fd1", "#d1431b", "#067647", "#8a3ffc", "#b7791f", "#0f766e", "#be185d", "#4b5563")
#: A contestant's own games listed on the ladder page, at most.
OWN_GAMES = 40


@dataclass(frozen=True)
class Row:
    """One line of the standings as the page shows it."""

    rank: int | None  # None: not rated yet (no ladder game against a current entry)
    entry: int
    author: str
    name: str
    elo: float | None
    low: float | None
    high: float | None
    games: int
    los: float | None
    paused: list[str]  # the verdicts of the faults that paused it ([]: it plays)
    author_id: int
    mine: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "entry": self.entry, "author": self.author, "name": self.name, "elo": self.elo,
                "low": self.low, "high": self.high, "games": self.games, "los": self.los,
                "paused": bool(self.paused), "mine": self.mine}


def context(user) -> dict[str, Any]:
    """Everything the ladder page (and its data endpoint) shows ``user``: the latest snapshot's
    standings (all of them, or only their own entry's line, as ``permissions.ladder_visible`` says),
    the plot, their own games and why an entry of theirs is paused."""
    visible = can.ladder_visible(user)
    snapshot = LadderSnapshot.latest()
    shared = _shared(snapshot)
    rows = [dataclasses.replace(row, mine=row.author_id == user.pk) for row in shared["rows"]]
    if visible != "all":
        rows = [row for row in rows if row.mine]
    shown = {row.entry for row in rows}
    return {"visible": visible, "rows": rows, "snapshot": snapshot, "version": shared["version"],
            "prior": ladder.PRIOR, "as_sure": ladder.AS_SURE,
            "rated": sum(1 for row in shared["rows"] if row.rank is not None),
            "plot": plot(shared["series"], shown, {row.entry for row in rows if row.mine}, shared),
            "own_games": own_games(user) if user.is_authenticated else [], "settle": after_deadline(),
            "paused": [_pause_notice(row, can.contest().ladder.pause_after) for row in rows if row.mine and row.paused]}


_CACHE: dict[str, Any] = {}


def _shared(snapshot: LadderSnapshot | None) -> dict[str, Any]:
    """What every viewer's page shares, read once per snapshot (a page polls for it every few seconds)."""
    version = f"{snapshot.pk}-{snapshot.taken.timestamp():.3f}" if snapshot else "none"
    if _CACHE.get("version") == version:
        return _CACHE
    lines = snapshot.lines if snapshot else []
    entries = Submission.objects.select_related("author").in_bulk([line["entry"] for line in lines])
    rows, rank = [], 0
    for line in lines:
        entry = entries.get(line["entry"])
        if entry is None:
            continue
        rank += line["elo"] is not None
        rows.append(Row(rank if line["elo"] is not None else None, entry.pk, entry.author.username, entry.name,
                        line["elo"], line["low"], line["high"], line["games"], line["los"], line["paused"],
                        entry.author_id))
    series: dict[int, list[tuple[dt.datetime, float]]] = {}
    history = list(LadderSnapshot.objects.order_by("taken", "id"))
    for past in history:
        for line in past.lines:
            if line["elo"] is not None:
                series.setdefault(line["entry"], []).append((past.taken, line["elo"]))
    _CACHE.clear()
    _CACHE.update(version=version, rows=rows, series=series,
                  span=(history[0].taken, history[-1].taken) if history else None)
    return _CACHE


def after_deadline() -> str:
    """What the ladder does once the round is closed, in words ("" while it is open): it plays on until
    its standings are settled (``ladder_runner.settling``), or it has stopped, and why."""
    from arena.contest import ladder_runner

    phase = can.phase()
    if phase == can.OPEN:
        return ""
    settings = can.contest().ladder
    played = ladder_runner.after_deadline()
    why = ladder_runner.settling(settings, played)
    since = f"{played} game{'s' * (played != 1)} played since the deadline"
    if phase == can.CLOSED and why:
        return (f"The round is closed; the ladder plays on until its standings are settled (the first "
                f"{settings.settle_places} places separated, every entry rated as surely as its neighbours), or "
                f"for {settings.settle_games} games: {since}. Not yet: {why}.")
    stopped = ("it played its games after the deadline" if played >= settings.settle_games
               else "its standings are settled" if not why else "the final started")
    return f"The round is closed and the ladder has stopped: {stopped} ({since}). These are its final standings."


def _pause_notice(row: Row, after: int) -> str:
    counted = ", ".join(f"{verdict} {row.paused.count(verdict)}" for verdict in dict.fromkeys(row.paused))
    return (f"Your entry #{row.entry} ({row.name}) is paused on the ladder: its bot faulted in each of its last "
            f"{after} games ({counted}). Submit a new version to play again.")


def plot(series: dict[int, list[tuple[dt.datetime, float]]], shown: set[int], mine: set[int],
         shared: dict[str, Any]) -> dict[str, Any] | None:
    """The rating over the round of each entry in ``shown``, as the SVG's lines (worked out here)."""
    series = {entry: points for entry, points in series.items() if entry in shown}
    if not series:
        return None
    rows = {row.entry: row for row in shared["rows"]}
    start, end = shared["span"]
    span = max((end - start).total_seconds(), 1.0)
    values = [elo for points in series.values() for _, elo in points]
    low, high = min(values) - 20, max(values) + 20
    step = 50 if high - low <= 400 else 100 if high - low <= 1000 else 250

    def x(moment: dt.datetime) -> float:
        return round(MARGIN + (WIDTH - 2 * MARGIN) * (moment - start).total_seconds() / span, 1)

    def y(elo: float) -> float:
        return round(HEIGHT - MARGIN + (elo - low) * (2 * MARGIN - HEIGHT) / (high - low), 1)

    lines = []
    for entry, points in sorted(series.items(), key=lambda item: -(rows[item[0]].rank or 0)):
        row = rows[entry]  # (drawn from the last to the first, so that the leaders' lines lie on top)
        if len(points) == 1:
            points = [*points, (end, points[0][1])]
        lines.append({"points": " ".join(f"{x(t)},{y(e)}" for t, e in points), "colour": COLOURS[
            ((row.rank or 1) - 1) % len(COLOURS)], "mine": entry in mine, "label": f"{row.author} #{entry}",
            "rank": row.rank, "end": (x(points[-1][0]), y(points[-1][1]))})
    ticks = [(value, y(value)) for value in range(int(low // step + 1) * step, int(high) + 1, step)]
    return {"width": WIDTH, "height": HEIGHT, "margin": MARGIN, "lines": lines, "ticks": ticks,
            "start": start, "end": end, "right": WIDTH - MARGIN, "bottom": HEIGHT - MARGIN}


def own_games(user) -> list[dict[str, Any]]:
    """The latest ladder games of ``user``'s submissions (their replaced ones too), each from their side."""
    from django.db.models import Q

    found = (LadderGame.objects.select_related("first__author", "second__author").defer("record")
             .filter(Q(first__author=user) | Q(second__author=user)).order_by("-pair", "-id")[:OWN_GAMES])
    games = []
    for game in found:
        seat = 0 if game.first.author_id == user.pk else 1
        score = game.score if seat == 0 else 1 - game.score
        games.append({"id": game.pk, "board": game.board, "seat": seat + 1, "finished": game.finished,
                      "mine": (game.first, game.second)[seat], "opponent": (game.second, game.first)[seat],
                      "result": "won" if score == 1 else "lost" if score == 0 else "drawn",
                      "fault": game.verdict if game.fault_id else "",
                      "fault_mine": game.fault_id == (game.first_id, game.second_id)[seat]})
    return games


def mine(user) -> dict[str, Any] | None:
    """The dashboard's ladder line: the user's entry's row (if it has one) and why it is paused (if it is)."""
    if not can.contest().ladder.enabled:
        return None
    found = context(user)
    return {"row": next((row for row in found["rows"] if row.mine), None), "paused": found["paused"],
            "rated": found["rated"] if found["visible"] == "all" else None}

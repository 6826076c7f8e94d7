"""The report's part on a tournament's format: a knockout's bracket drawn round by round, a Swiss's
rounds as columns of pairings, and the rules the format's tables follow (``arena.formats``)."""

from __future__ import annotations

from typing import Any, NamedTuple

from arena import formats, tables


class Line(NamedTuple):
    """A bot in a tie: its seed, name and points in words, and whether it won the tie."""

    text: str
    won: bool


class Tie(NamedTuple):
    """A box of a column: a tie's bots and how it was decided (or ``bye``), or the ``winner``'s name alone."""

    lines: tuple[Line, ...] = ()
    how: str = ""
    winner: str = ""


class Column(NamedTuple):
    """A round: its title and its ties, in the bracket's order."""

    title: str
    ties: list[Tie]


class Bracket(NamedTuple):
    """What ``templates/bracket.html`` draws: a knockout's bracket or a Swiss's rounds, with its rules."""

    title: str
    columns: list[Column]
    note: str


def section(config: dict[str, Any], tally: tables.Tally) -> Bracket | None:
    """The bracket or the rounds, and the format's rules (None for a round-robin)."""
    system = formats.from_config(config)
    if not system.paired or tally.format_results is None:
        return None
    bots, boards = [b["name"] for b in config["bots"]], [b["name"] for b in config["boards"]]
    played = system.played(bots, boards, tally.format_results)
    if isinstance(system, formats.Knockout):
        title, note = "Bracket", "Knockout: " + formats.TIE_RULE + "."
        columns = [_knockout_column(round_, matches, bots) for round_, matches in played]
        champion = system.winner(bots, boards, tally.format_results)
        if champion is not None:
            columns.append(Column("winner", [Tie(winner=champion)]))
    else:
        title, note = "Rounds", formats.SWISS_RULE + "."
        columns = [_swiss_column(round_, matches) for round_, matches in played]
    return Bracket(title, columns, note)


def _knockout_column(round_: formats.Round, matches: list[formats.Match], bots: list[str]) -> Column:
    seed = {bot: k for k, bot in enumerate(bots)}
    slot = {bots[k]: place for place, k in enumerate(formats.bracket_order(len(bots))) if k < len(bots)}
    done = {(m.a, m.b): m for m in matches}
    ties = []  # (the place in the bracket of a bot of the tie: ties keep the bracket's order, byes among them)
    for a, b in round_.pairs or ():
        match = done.get((a, b))
        winner, how = formats.tie_winner(match, seed) if match else (None, "playing")
        lines = tuple(_line(bot, seed[bot] + 1, None if match is None else match.points[k], bot == winner)
                      for k, bot in enumerate((a, b)))
        ties.append((slot[a], Tie(lines, _decided(how))))
    ties += [(slot[bot], Tie((_line(bot, seed[bot] + 1, None, True),), "bye")) for bot in round_.byes]
    return Column(round_.title(), [tie for _, tie in sorted(ties, key=lambda placed: placed[0])])


def _swiss_column(round_: formats.Round, matches: list[formats.Match]) -> Column:
    done = {(m.a, m.b): m for m in matches}
    ties = []
    for a, b in round_.pairs or ():
        match = done.get((a, b))
        lines = tuple(_line(bot, None, None if match is None else match.points[k],
                            match is not None and match.score(bot) == 1.0) for k, bot in enumerate((a, b)))
        ties.append(Tie(lines, "" if match else "playing"))
    ties += [Tie((_line(bot, None, None, False),), "bye") for bot in round_.byes]
    return Column(round_.title(), ties)


def _line(bot: str, seed: int | None, points: float | None, won: bool) -> Line:
    shown = (f"{seed}. " if seed is not None else "") + bot + ("" if points is None else f" — {points:g}")
    return Line(shown, won)


def _decided(how: str) -> str:
    return {"points": "on points", "faults": "level on points: fewer faults",
            "seed": "level on points and faults: the better seed"}.get(how, how)

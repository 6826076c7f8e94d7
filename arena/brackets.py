"""The report's part on a tournament's format: a knockout's bracket drawn round by round, a Swiss's
rounds as columns of pairings, and the rules the format's tables follow (``arena.formats``)."""

from __future__ import annotations

import html
from typing import Any

from arena import formats, tables

STYLE = ("<style>.bracket{display:flex;gap:1.5em;overflow-x:auto;align-items:center}"
         ".bracket .col{display:flex;flex-direction:column;justify-content:space-around;gap:.8em;min-width:12em}"
         ".bracket .tie{border:1px solid #d0d7de;border-radius:4px;padding:.2em .5em;background:#fff}"
         ".bracket .won{font-weight:bold}.bracket .how{color:#6b7280;font-size:85%}"
         ".bracket h3{margin:.2em 0;font-size:100%}</style>")


def section(config: dict[str, Any], tally: tables.Tally) -> list[str]:
    """HTML for the index: the bracket or the rounds, and the format's rules (nothing for a round-robin)."""
    system = formats.from_config(config)
    if not system.paired or tally.format_results is None:
        return []
    bots, boards = [b["name"] for b in config["bots"]], [b["name"] for b in config["boards"]]
    played = system.played(bots, boards, tally.format_results)
    if isinstance(system, formats.Knockout):
        title, note = "Bracket", "Knockout: " + formats.TIE_RULE + "."
        columns = [_knockout_column(round_, matches, bots) for round_, matches in played]
        champion = system.winner(bots, boards, tally.format_results)
        if champion is not None:
            columns.append(f'<div class="col"><h3>winner</h3><div class="tie won">{html.escape(champion)}</div></div>')
    else:
        title, note = "Rounds", formats.SWISS_RULE + "."
        columns = [_swiss_column(round_, matches) for round_, matches in played]
    return [STYLE, f"<h2>{title}</h2>", f'<div class="bracket">{"".join(columns)}</div>',
            f'<p class="note">{html.escape(note)}</p>']


def _knockout_column(round_: formats.Round, matches: list[formats.Match], bots: list[str]) -> str:
    seed = {bot: k for k, bot in enumerate(bots)}
    slot = {bots[k]: place for place, k in enumerate(formats.bracket_order(len(bots))) if k < len(bots)}
    done = {(m.a, m.b): m for m in matches}
    boxes = []  # (the place in the bracket of a bot of the tie: ties keep the bracket's order, byes among them)
    for a, b in round_.pairs or ():
        match = done.get((a, b))
        winner, how = formats.tie_winner(match, seed) if match else (None, "playing")
        lines = [_line(bot, seed[bot] + 1, None if match is None else match.points[k], bot == winner)
                 for k, bot in enumerate((a, b))]
        boxes.append((slot[a], (f'<div class="tie">{"".join(lines)}<div class="how">{html.escape(_decided(how))}'
                               '</div></div>')))
    boxes += [(slot[bot], f'<div class="tie">{_line(bot, seed[bot] + 1, None, True)}<div class="how">bye</div></div>')
              for bot in round_.byes]
    boxes = [box for _, box in sorted(boxes)]
    return f'<div class="col"><h3>{html.escape(round_.title())}</h3>{"".join(boxes)}</div>'


def _swiss_column(round_: formats.Round, matches: list[formats.Match]) -> str:
    done = {(m.a, m.b): m for m in matches}
    boxes = []
    for a, b in round_.pairs or ():
        match = done.get((a, b))
        lines = [_line(bot, None, None if match is None else match.points[k],
                       match is not None and match.score(bot) == 1.0) for k, bot in enumerate((a, b))]
        boxes.append(f'<div class="tie">{"".join(lines)}{"" if match else "<div class=how>playing</div>"}</div>')
    boxes += [f'<div class="tie">{_line(bot, None, None, False)}<div class="how">bye</div></div>' for bot in round_.byes]
    return f'<div class="col"><h3>{html.escape(round_.title())}</h3>{"".join(boxes)}</div>'


def _line(bot: str, seed: int | None, points: float | None, won: bool) -> str:
    shown = (f"{seed}. " if seed is not None else "") + bot + ("" if points is None else f" — {points:g}")
    return f'<div class="{"won" if won else ""}">{html.escape(shown)}</div>'


def _decided(how: str) -> str:
    return {"points": "on points", "faults": "level on points: fewer faults",
            "seed": "level on points and faults: the better seed"}.get(how, how)

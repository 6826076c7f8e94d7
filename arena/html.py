"""The arena's HTML pages, made from Jinja2 templates (``arena/templates/``) with
autoescaping on: the replay page of one game here, the report's pages in
``arena.report``.  Every page is self-contained: its style and script
(``arena/static/``, and the style the game's view ships, ``arena.views.style``)
are put inside it, so a page opens from the file system, with no network, and
can be mailed around.

The replay page carries the replay's frames as JSON; its script
(``static/replay.js``) draws the grids of the current step (the drawing itself
is decided by the game's view) and handles the step buttons, the slider, the
arrow keys and autoplay.

What a bot printed is shown as the terminal shows it (``arena.text.display``:
a bidi override or an escape sequence as a visible escape, not reordering or
hiding the text after it), every text a template puts in a page is escaped,
and the JSON cannot end its element (the ``json_for_html`` filter:
``arena.text.json_for_html``).  Only the arena's own files and a game's style
are put in a page as they are (``static``, ``views.style``): nothing a bot wrote.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any, NamedTuple

import jinja2
from markupsafe import Markup

from arena import games, views
from arena.replay import Replay, outcome_text
from arena.text import display, json_for_html


@functools.cache
def environment() -> jinja2.Environment:
    """The one template environment of the arena's pages (autoescaped; a missing variable is an error)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("arena", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.globals["static"] = static
    env.filters["display"] = display
    env.filters["json_for_html"] = lambda value: Markup(json_for_html(value))  # (escapes what could end it)
    return env


def render(template: str, **context: Any) -> str:
    """A page from one of the templates."""
    return environment().get_template(template).render(**context)


@functools.cache
def static(name: str) -> Markup:
    """One of the pages' own files (``arena/static/NAME``: style or script), to put inside a page whole."""
    return Markup(resources.files("arena").joinpath("static", name).read_text(encoding="utf-8"))


class Seat(NamedTuple):
    """A bot of a game as the header shows it: its name, in the colour its pieces are drawn in."""

    name: str
    colour: str
    ink: str  # text that reads on the colour


def seats(names: list[str], colours: tuple[str, ...] = views.SEAT_COLOURS) -> list[Seat]:
    """The seats of a game, each with its colour (a template's ``chips`` draws them)."""
    return [Seat(name, colours[i], _ink(colours[i])) for i, name in enumerate(names)]


def _ink(fill: str) -> str:
    """Text that reads on a background of ``fill`` (#rrggbb): dark on light, white on dark."""
    r, g, b = (int(fill[k:k + 2], 16) for k in (1, 3, 5))
    return "#1d1d1f" if 0.299 * r + 0.587 * g + 0.114 * b > 160 else "#fff"


def replay_page(game: Replay, *, legend: str = "", back: str | None = None) -> str:
    """The replay of one game as a self-contained page."""
    record = game.record
    return render("replay.html", record=record, seats=seats(record["seats"], game.colours),
                  outcome=outcome_text(record), legend=legend, back=back, data=_replay_data(game),
                  game_style=Markup(views.style(record["game"])))


def _replay_data(game: Replay) -> dict[str, Any]:
    """Steps (grids as changes to the previous step's) and the invocations they belong to."""
    moves: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    previous: list[dict[str, Any]] = []
    for step in game.steps:
        data = step.frame.to_json()
        # (a view's words may quote a bot's name: shown as the terminal shows them, step_text's _net)
        data["label"] = display(data["label"], backslash=False)
        data["notes"] = [display(note, backslash=False) for note in data["notes"]]
        for grid in data["grids"]:
            grid["title"] = display(grid["title"], backslash=False)
        if step.entry is not None:
            if step.first:
                moves.append({"number": step.move, "bot": display(step.bot or "?"), **_entry_fields(step.entry)})
            data["move"] = len(moves) - 1
        grids = data["grids"]
        data["grids"] = [_delta(g, previous[j] if j < len(previous) else None) for j, g in enumerate(grids)]
        previous = grids
        steps.append(data)
    plan = games.referee(game.record["game"]).protocol == "one-shot"
    return {"plan": plan, "moves": moves, "steps": steps, "first": game.steps[0].move if game.steps else 0}


def _entry_fields(entry: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of an invocation: what the bot wrote as display text
    (its lines and tabs kept), with the length of what it wrote (``sizes``)."""
    keep = ("seat", "verdict", "cpu", "wall", "wait", "exit_code")
    fields = {key: entry[key] for key in keep if entry.get(key) is not None}
    if entry.get("message"):  # (the arena's words, quoting the bot with repr: nothing is escaped twice)
        fields["message"] = display(entry["message"], backslash=False)
    written = {key: entry[key] for key in ("output", "stdout", "stderr") if entry.get(key) is not None}
    fields.update({key: display(text, multiline=True) for key, text in written.items()})
    fields["sizes"] = {key: len(text) for key, text in written.items()}
    return fields


def _delta(grid: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """A grid as the cells that differ from the same grid of the step before,
    when that is shorter."""
    if before is None or before["cols"] != grid["cols"] or len(before["cells"]) != len(grid["cells"]):
        return grid
    changed = [[k, cell] for k, (cell, old) in enumerate(zip(grid["cells"], before["cells"])) if cell != old]
    if len(changed) * 2 >= len(grid["cells"]):
        return grid
    return {"title": grid["title"], "d": changed}

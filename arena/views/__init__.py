"""How a game looks in a replay: what every game's view makes, and how it is found.

A view turns a game's states (recomputed by its referee) into ``Frame``s: the
grids the browser draws, the text the terminal prints, and a line saying what
happened.  The drawing code of a game lives in its view (named by the game's
declaration, ``arena.games``) and nowhere else; the rules stay in its referee:
a view asks its referee, never re-implements it.

A view is a class built from ``(referee, initial state, seat names)`` with:

* ``start(state) -> Frame``: the board before the first move;
* ``frames(state, move, seat) -> list[tuple[Frame, state]]``: an accepted
  move, as one frame (per-move games) or one frame per operation of a plan
  (one-shot games), each with the state after it;
* ``fault(state, move, seat) -> Frame``: a move that was refused (``move`` is
  ``None`` when the output did not even parse), drawn on the unchanged board;
* ``text(state) -> str``: the board in the terminal, the referee's own
  rendering where it has one;
* ``legend``: what the colours and marks of the drawing mean, in words;
* ``style`` (optional): the name of a CSS file beside the view's module, the
  style of the classes its cells use (``ball``, ``painted``, ...), which the
  pages put after their own; the arena styles only ``new`` and ``bad``.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ArenaError

#: The colours of the seats (first, second player), for regions, balls, letters.
SEAT_COLOURS = ("#2f6fd6", "#e0762b")
SEAT_TINTS = ("#cfe0fb", "#fbdcc6")

@dataclass(frozen=True)
class Cell:
    """One square of a grid: its text, background colour and CSS classes
    (``new`` and ``bad`` styled by the arena's pages, ``ball``, ``cleared``, ...
    by the view's ``style``; the terminal marks ``new``, ``bad``, ``cleared``
    and ``win``: ``arena.replay.MARKS``); ``key`` is what tests compare with the
    referee's state (default: the text)."""

    text: str = ""
    fill: str = ""
    classes: str = ""
    key: str | None = None
    term: str | None = None  # what a terminal shows (default: the text, else the key)

    def to_json(self) -> list[str]:
        data = [self.text, self.fill, self.classes]
        if self.key is not None and self.key != self.text:
            data.append(self.key)
        while data and not data[-1]:
            data.pop()
        return data


@dataclass(frozen=True)
class Grid:
    """A titled rectangle of cells, row-major."""

    title: str
    rows: int
    cols: int
    cells: tuple[Cell, ...]
    #: The number of the first row and column in the page's labels: the game's own
    #: coordinates (0 for paint and crossword, whose game.out counts from 0; 1 for
    #: tic-tac-toe and match-3, whose rules count from 1).
    origin: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "cols": self.cols, "origin": self.origin,
                "cells": [c.to_json() for c in self.cells]}


@dataclass(frozen=True)
class Frame:
    """What one step of a replay shows."""

    label: str
    grids: tuple[Grid, ...]
    text: str
    notes: tuple[str, ...] = field(default=())
    part: bool = False  # a step that is no operation of its own (match-3's final count), not counted as one
    #: The terminal draws the grids (labelled, the marks as brackets, the fills as colours) instead of ``text``;
    #: ``key`` then says what the marks mean.
    drawn: bool = False
    key: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "grids": [g.to_json() for g in self.grids], "notes": list(self.notes)}


def get(game: str, referee: Any, initial: Any, seats: list[str]) -> Any:
    """The view of ``game`` for one replay (a fresh object: views remember who
    painted what)."""
    from arena import games

    return games.get(game).view()(referee, initial, seats)


def seat_name(seats: list[str], seat: int) -> str:
    """A seat's bot, as labels name it."""
    return seats[seat] if seat < len(seats) else f"seat {seat}"


def legend(game: str) -> str:
    """What the colours and marks of a game's drawing mean."""
    from arena import games

    return games.get(game).view().legend


@functools.cache
def style(game: str) -> str:
    """The CSS the view of ``game`` ships (its ``style``: a file beside its module), "" if none."""
    from arena import games

    view = games.get(game).view()
    name = getattr(view, "style", "")
    if not name:
        return ""
    path = Path(sys.modules[view.__module__].__file__ or "").parent / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"game {game!r}: cannot read the style {name!r} its view names "
                         f"({str(path)!r}): {exc.strerror}") from None

"""Seeded board generators, one module per game.

A generator module defines ``GAME`` (the game name), ``HELP`` (one line),
``add_arguments(parser)`` for its own parameters, and
``generate(args, seed) -> GeneratedBoard`` making one board from one seed.
The CLI (``arena generate``) adds ``--seed``, ``--count`` and ``--out``,
writes ``board1.in``... and a manifest.  To add one, add a line to ``_GENERATORS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any

# game name -> module
_GENERATORS: dict[str, str] = {
    "paint": "generator.paint",
    "tictactoe3d": "generator.tictactoe3d",
    "match3": "generator.match3",
    "threes": "generator.threes",
    "crossword": "generator.crossword",
}


class BadParameters(ValueError):
    """Generator parameters that make no board (a clear message for the user)."""


@dataclass(frozen=True)
class GeneratedBoard:
    """One board: its file text, the parameters that made it (recorded in the
    manifest), and any files that must lie beside it (e.g. ``words.txt``)."""

    text: str
    params: dict[str, Any]
    extras: dict[str, str] = field(default_factory=dict)


def names() -> list[str]:
    return sorted(_GENERATORS)


def get(name: str) -> ModuleType:
    try:
        return import_module(_GENERATORS[name])
    except KeyError:
        raise LookupError(
            f"no generator for game {name!r}; generators exist for: {', '.join(names())}"
        ) from None

"""Seeded board generators: the arena's own games' (one module each), and what every generator has.

A generator module defines ``GAME`` (the name ``arena generate`` offers it under, written in the
manifest), ``HELP`` (one line), ``add_arguments(parser)`` for its own parameters, and
``generate(args, seed) -> GeneratedBoard`` making one board from one seed; optionally
``EXAMPLE``, the parameters of a small board (``["--group", "1"]``) that the conformance checks
use when the defaults make no board.  The CLI (``arena generate``) adds ``--seed``, ``--count``
and ``--out``, and writes ``board1.in``... and a manifest.  A game names its generator in its
declaration (``referees.base.Game``); ``arena.games`` finds it there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class BadParameters(ValueError):
    """Generator parameters that make no board (a clear message for the user)."""


@dataclass(frozen=True)
class GeneratedBoard:
    """One board: its file text, the parameters that made it (recorded in the
    manifest), and any files that must lie beside it (e.g. ``words.txt``)."""

    text: str
    params: dict[str, Any]
    extras: dict[str, str] = field(default_factory=dict)

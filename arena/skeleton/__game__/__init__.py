"""The game __game__ for the arena: what it is made of.

The arena reads ``GAME`` through this package's entry point (pyproject.toml); every part is a
dotted name, imported only when the arena needs it.  Paths are relative to this folder.
"""

from referees.base import Game

GAME = Game(
    referee="__game__.rules:Referee",
    view="__game__.view:View",
    generator="__game__.generator",
    rules="rules.md",
    bots=("bots",),
    boards=("boards",),
)

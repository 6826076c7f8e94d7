"""Connect Four for the arena: what the game is made of.

The arena reads ``GAME`` through this package's entry point (``pyproject.toml``); every part is a
dotted name, imported only when the arena needs it.  Paths are relative to this folder.
"""

from referees.base import Game

GAME = Game(
    referee="connect4.rules:Connect4Referee",
    view="connect4.view:View",
    generator="connect4.generator",
    rules="RULES.md",
    bots=("bots",),
    boards=("boards",),
)

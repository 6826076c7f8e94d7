"""The arena's own games: their rules (one module each) and their declarations.

Each game is declared as any installed game is, by a ``Game`` value named in an entry point of the
group ``arena.games`` (``pyproject.toml``); ``arena.games`` finds them all, this module lists none.
The declarations are strings: nothing of a game is imported until it is used, so a bot importing
one game's rules pays for no other.
"""

from __future__ import annotations

from pathlib import Path

from referees.base import BadInput, BadOutput, Game, IllegalMove, Outcome, Referee

__all__ = ["BadInput", "BadOutput", "Game", "IllegalMove", "Outcome", "Referee"]

#: Where the arena's games find their rules text, example bots and boards (``docs/``, ``bots/``,
#: ``boards/``).  ``referees/shipped/`` holds them: in a checkout as links to the repository's own
#: folders, resolved here (so this is the repository's root, and paths read as they always have); in
#: an installed wheel as copies (package data, ``pyproject.toml``), so that it needs no checkout.
SHIPPED = (Path(__file__).resolve().parent / "shipped" / "docs").resolve().parent
_ROOT = str(SHIPPED)

PAINT = Game(
    referee="referees.paint:PaintReferee", view="views.paint:View", generator="generator.paint",
    solver="players.paint", rules="docs/rules.md#paint", bots=("bots",),
    boards=("boards/group1", "boards/group2", "boards/group3"), root=_ROOT,
)
TICTACTOE3D = Game(
    referee="referees.tictactoe3d:TicTacToe3DReferee", view="views.tictactoe3d:View",
    generator="generator.tictactoe3d", rules="docs/rules.md#tictactoe3d", bots=("bots/tictactoe3d",),
    boards=("boards/tictactoe3d",), root=_ROOT,
)
MATCH3 = Game(
    referee="referees.match3:Match3Referee", view="views.match3:View", generator="generator.match3",
    rules="docs/rules.md#match3", bots=("bots/match3",), boards=("boards/match3",), root=_ROOT,
)
THREES = Game(
    referee="referees.threes:ThreesReferee", view="views.threes:View", generator="generator.threes",
    rules="docs/rules.md#threes", bots=("bots/threes",), boards=("boards/threes",), root=_ROOT,
)
CROSSWORD_PVE = Game(
    referee="referees.crossword:CrosswordPVEReferee", view="views.crossword:View",
    generator="generator.crossword", aliases=("crossword",), rules="docs/rules.md#crossword-pve",
    bots=("bots/crossword",), boards=("boards/crossword",), root=_ROOT,
)
CROSSWORD_PVP = Game(
    referee="referees.crossword:CrosswordPVPReferee", view="views.crossword:View",
    generator="generator.crossword", rules="docs/rules.md#crossword-pvp", bots=("bots/crossword",),
    boards=("boards/crossword",), root=_ROOT,
)

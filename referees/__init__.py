"""The registry of games: name -> referee.

Modules are imported lazily so that a bot importing one game's rules does not
pay for the others.  To add a game, add one line to ``_GAMES``.
"""

from __future__ import annotations

from importlib import import_module

from referees.base import BadInput, BadOutput, IllegalMove, Outcome, Referee

__all__ = ["BadInput", "BadOutput", "IllegalMove", "Outcome", "Referee", "get", "names"]

# name -> "module:ClassName"
_GAMES: dict[str, str] = {
    "paint": "referees.paint:PaintReferee",
    "tictactoe3d": "referees.tictactoe3d:TicTacToe3DReferee",
    "match3": "referees.match3:Match3Referee",
    "threes": "referees.threes:ThreesReferee",
    "crossword-pve": "referees.crossword:CrosswordPVEReferee",
    "crossword-pvp": "referees.crossword:CrosswordPVPReferee",
}


def names() -> list[str]:
    """Every registered game name, sorted."""
    return sorted(_GAMES)


def get(name: str) -> Referee:
    """A referee by game name; an unknown name lists the valid ones."""
    try:
        target = _GAMES[name]
    except KeyError:
        raise LookupError(f"unknown game {name!r}; the games are: {', '.join(names())}") from None
    module_name, class_name = target.split(":")
    return getattr(import_module(module_name), class_name)()

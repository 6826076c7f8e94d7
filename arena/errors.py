"""The arena's own error type: bad input from the user, never a bot's fault."""

from __future__ import annotations


class ArenaError(Exception):
    """A problem with the arena's own input (a missing bot, a board that does
    not parse, a bad option).  The CLI prints it and exits with status 2."""

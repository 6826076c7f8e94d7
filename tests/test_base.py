from __future__ import annotations

import pytest

from arena import games
from referees.base import BadInput, BadOutput, Outcome, TokenReader


def test_token_reader_reports_line_and_expectation():
    reader = TokenReader("3\n1 x\n", BadOutput)
    assert reader.int("the count") == 3
    assert reader.int("x") == 1
    with pytest.raises(BadOutput) as err:
        reader.int("y")
    assert err.value.line == 2 and "'x'" in str(err.value)


def test_token_reader_extra_tokens_and_bounds():
    reader = TokenReader("5 6", BadInput)
    with pytest.raises(BadInput, match="from 0 to 4, found 5"):
        reader.int("a row", 0, 4)
    reader = TokenReader("1 2\r\n", BadInput)
    reader.int("a")
    with pytest.raises(BadInput, match="extra token '2'"):
        reader.end()


def test_outcome_points():
    assert Outcome.win(0, "x").points(0) == 3 and Outcome.win(0, "x").points(1) == 0
    assert Outcome.draw("x").points(1) == 1.5


def test_unknown_game_lists_the_games():
    with pytest.raises(LookupError, match="paint"):
        games.referee("chess")

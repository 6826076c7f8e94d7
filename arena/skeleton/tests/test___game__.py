"""Tests of __game__: the arena's conformance checks, and the rules' own cases.

Run them with ``python -m pytest`` in this folder (the package installed: pip install -e .).
"""

import pytest

from __game__.rules import State, apply_move, check_move, outcome, parse_board
from arena import conformance, games
from referees.base import IllegalMove


@pytest.mark.parametrize("check, problem", list(conformance.run(games.get("__game__"))))
def test_the_arena_conformance_checks(check, problem):
    assert not problem, f"{check}: {problem}"


def test_reaching_the_target_wins():
    state = apply_move(State(21, 3, total=18), 3)
    assert outcome(state).winner == 0


def test_a_move_past_the_target_is_illegal():
    with pytest.raises(IllegalMove, match="past-target"):
        check_move(State(21, 3, total=20), 2)


def test_a_bad_board_says_what_was_expected():
    with pytest.raises(Exception, match="MOST"):
        parse_board("21\n")

"""One test over every registered game: random legal games on the shipped boards.

For each game: every random move passes ``check``; ``move_text`` and ``parse``
round-trip; ``render`` gives a ``game.in``; the game ends, with a winner or
draw (two players) or a score (one player).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import referees
from arena.boards import find_boards, load_board

ROOT = Path(__file__).resolve().parents[1]
BOARDS = {
    "paint": ["boards/group1", "boards/group2", "boards/examples"],
    "tictactoe3d": ["boards/tictactoe3d"],
    "match3": ["boards/match3"],
    "threes": ["boards/threes"],
    "crossword-pve": ["boards/crossword"],
    "crossword-pvp": ["boards/crossword"],
}
MAX_TURNS = 10_000


def test_every_game_has_boards_listed():
    assert sorted(BOARDS) == referees.names()


@pytest.mark.parametrize("game", referees.names())
def test_random_games(game):
    referee = referees.get(game)
    boards = find_boards([str(ROOT / folder) for folder in BOARDS[game]])
    assert boards, f"no shipped boards for {game}"
    rng = random.Random(2026)
    for path in boards:
        _, state = load_board(referee, path)
        for _ in range(2):
            _play_random(referee, state, rng)


def _play_random(referee, state, rng):
    for _ in range(MAX_TURNS):
        end = referee.outcome(state)
        if end is not None:
            break
        seat = referee.to_move(state)
        assert seat in range(referee.players)
        assert "game.in" in referee.render(state, seat)
        move = referee.random_move(state, rng)
        referee.check(state, move)
        assert referee.parse(state, referee.move_text(move)) == move
        state = referee.apply(state, move)
    else:
        pytest.fail(f"{referee.name}: no end after {MAX_TURNS} turns")
    if referee.players == 2:
        assert end.winner in (0, 1, None) and end.score is None
    else:
        assert end.score is not None and end.winner is None
    assert end.reason

"""The rules of __game__, the one place they are written: the referee, and what bots may import.

A race: a running total starts at 0; the players take turns adding 1 to MOST to it; whoever
brings it to exactly TARGET wins.  (A starting point: replace it with your game, keeping the
shape: a state, a move, a referee.)

* Board file: ``TARGET MOST``.
* ``game.in``: ``TARGET MOST TOTAL``: the total so far; you are to move.
* ``game.out``: one number, the amount to add (1 to MOST, not past TARGET).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from referees import base
from referees.base import BadInput, BadOutput, IllegalMove, Outcome, TokenReader

NAME = "__game__"
LARGEST = 1000  # the largest TARGET a board may have


@dataclass(frozen=True)
class State:
    """A position: the board's target and step, the total so far, who is to move, and the
    amounts added so far (the view colours them by who added them)."""

    target: int
    most: int
    total: int = 0
    seat: int = 0
    added: tuple[int, ...] = ()


def parse_board(text: str) -> State:
    """A board file: ``TARGET MOST`` (raises BadInput saying which line and what was expected)."""
    reader = TokenReader(text, BadInput)
    target = reader.int("the target TARGET", 1, LARGEST)
    most = reader.int("the most a move adds, MOST", 1, target)
    reader.end("the end of the board after TARGET MOST")
    return State(target, most)


def game_in(state: State) -> str:
    return f"{state.target} {state.most} {state.total}\n"


def parse_game_in(text: str) -> State:
    """What a bot reads (bots import this)."""
    reader = TokenReader(text, BadInput)
    target, most, total = (reader.int(what) for what in ("TARGET", "MOST", "TOTAL"))
    return State(target, most, total)


def parse_move(text: str) -> int:
    reader = TokenReader(text, BadOutput)
    amount = reader.int("the amount to add")
    reader.end("the end of the output after the amount")
    return amount


def check_move(state: State, amount: int) -> None:
    if not 1 <= amount <= state.most:
        raise IllegalMove("out-of-range", f"a move adds 1 to {state.most}, not {amount}")
    if state.total + amount > state.target:
        raise IllegalMove("past-target", f"{state.total} + {amount} goes past the target {state.target}")


def apply_move(state: State, amount: int) -> State:
    return State(state.target, state.most, state.total + amount, 1 - state.seat, (*state.added, amount))


def outcome(state: State) -> Outcome | None:
    if state.total == state.target:
        return Outcome.win(1 - state.seat, f"reached {state.target}")  # the player who just moved
    return None


def legal_moves(state: State) -> list[int]:
    return list(range(1, min(state.most, state.target - state.total) + 1))


class Referee(base.Referee):
    name = NAME
    players = 2
    protocol = "per-move"
    judge_inputs = ("BOARD", "MOVES")
    judge_help = "BOARD MOVES: play the moves (one number each) on BOARD; print 'ok' or 'illegal: ...' per move, " \
                 "then 'result: first wins|second wins|unfinished'."

    def load(self, text: str, extras: Mapping[str, str] | None = None) -> State:
        return parse_board(text)

    def to_move(self, state: State) -> int:
        return state.seat

    def render(self, state: State, seat: int) -> dict[str, str]:
        return {"game.in": game_in(state)}

    def parse(self, state: State, text: str) -> int:
        return parse_move(text)

    def check(self, state: State, move: int) -> None:
        check_move(state, move)

    def apply(self, state: State, move: int) -> State:
        return apply_move(state, move)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state)

    def move_text(self, move: int) -> str:
        return f"{move}\n"

    def random_move(self, state: State, rng: random.Random) -> int:
        return rng.choice(legal_moves(state))

    def judge(self, texts: list[str], extras: Mapping[str, str]) -> Iterator[str]:
        state = parse_board(texts[0])
        reader = TokenReader(texts[1], BadInput)
        amounts = []
        while not reader.at_end():
            amounts.append(reader.int(f"move {len(amounts) + 1}"))
        for amount in amounts:
            if outcome(state) is not None:
                break
            try:
                check_move(state, amount)
            except IllegalMove as exc:
                yield f"illegal: {exc}"
                yield f"result: {'second' if state.seat == 0 else 'first'} wins"
                return
            yield "ok"
            state = apply_move(state, amount)
        end = outcome(state)
        yield "result: unfinished" if end is None else f"result: {'first' if end.winner == 0 else 'second'} wins"

    def judge_case(self, board: str, extras: Mapping[str, str], moves: list[str],
                   outcome: Outcome) -> tuple[list[str], str]:
        return [board, "".join(moves)], f"result: {'first' if outcome.winner == 0 else 'second'} wins"

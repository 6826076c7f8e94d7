"""Crossword bot, PVE and PVP: the best immediate score, again and again.

Each action is the best one found among dictionary words written into
windows of the board's lines, windows with the most letters first, within a
CPU-time budget (PVP: one action per invocation, 1 s limit; PVE: the whole
plan in one invocation, 10 s limit).  It declares every formed word, which
maximises the action's score.  PVE stops when no action scores; PVP passes
only when it finds no legal action.
"""

from __future__ import annotations

import time
from pathlib import Path

from referees.crossword import MAX_ACTIONS, Plan, apply_action, best_action, parse_board, parse_words

PVP_BUDGET = 0.45  # CPU seconds for the search of one PVP action
PVE_BUDGET = 4.0   # CPU seconds for the whole PVE plan


def pve_plan(state, budget: float = PVE_BUDGET) -> Plan:
    """Up to 30 greedy actions; the budget left is shared by the actions left."""
    deadline = time.process_time() + budget
    actions = []
    while state.actions < MAX_ACTIONS:
        share = (deadline - time.process_time()) / (MAX_ACTIONS - state.actions)
        found = best_action(state, time.process_time() + share)
        if found is None or found[1] <= 0:
            break
        actions.append(found[0])
        state = apply_action(state, found[0])
    return Plan(tuple(actions))


def main() -> None:
    start = time.process_time()
    dictionary = parse_words(Path("words.txt").read_text())
    state, pvp = parse_board(Path("game.in").read_text(), dictionary)
    if pvp:
        found = best_action(state, start + PVP_BUDGET)
        plan = Plan(() if found is None else (found[0],))
    else:
        plan = pve_plan(state)
    Path("game.out").write_text(plan.to_text())


if __name__ == "__main__":
    main()

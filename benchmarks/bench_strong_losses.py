"""Where were a bot's lost painting games lost?  The exact solver on every position it moved from.

Reads the records of a finished ``arena match`` or ``arena run`` (``games.jsonl``) and, for each
game the bot lost, values every position it moved from, before and after its move, with ``arena
solve``'s engine (``--seconds`` each, default 10).  One line per lost game, one entry per move of
the bot: ``move:before->after(numbers left)``, from the bot's side: W won, L lost, D drawn,
? not settled in time.  ``W->L`` is a move that threw a position the solver knows is won (marked
``!!``); a game whose first settled value is ``L`` was lost before the solver could see anything.

    python benchmarks/bench_strong_losses.py results/NAME/games.jsonl --bot strong

Prints a summary: lost games, and how many of them have a thrown won position.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from bench_solve_reach import records_file
from bench_strong_exact import solve

from referees.paint import apply_move, numbers_left, parse_board, parse_move

SIGNS = {1: "W", -1: "L", 0: "D", None: "?"}


def lost_game(args: tuple[dict, str, float]) -> tuple[str, bool]:
    """(the game's line, whether the bot threw a won position)."""
    record, bot, seconds = args
    path = Path(record["board"]["path"])
    state = parse_board((path if path.is_absolute() else ROOT / path).read_text())
    me = record["seats"].index(bot)
    entries, threw = [], False
    for i, move in enumerate(record["moves"]):
        after = apply_move(state, parse_move(move["output"]))
        if move["seat"] == me:
            before, _ = solve(state, seconds)
            then, _ = solve(after, seconds)
            then = None if then is None else -then
            entries.append(f"{i}:{SIGNS[before]}->{SIGNS[then]}({numbers_left(state)})")
            if before == 1 and then is not None and then != 1:
                entries[-1] += "!!"
                threw = True
        state = after
    return f"{record['id']} (the bot in seat {me}): " + " ".join(entries), threw


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=records_file, help="a tournament's games.jsonl")
    parser.add_argument("--bot", default="strong", help="the bot's name in the records (default strong)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the solver's time per position (default 10)")
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    records = [json.loads(line) for line in args.records.read_text().splitlines() if line.strip()]
    lost = [r for r in records if r["game"] == "paint" and args.bot in r["seats"]
            and (winner := (r.get("outcome") or {}).get("winner")) is not None and r["seats"][winner] != args.bot]
    thrown = 0
    with ProcessPoolExecutor(args.parallel) as pool:
        for line, threw in pool.map(lost_game, [(r, args.bot, args.seconds) for r in lost]):
            print(line, flush=True)
            thrown += threw
    print(f"{len(lost)} games lost by {args.bot}; in {thrown} of them it threw a position the solver "
          f"settles as won within {args.seconds:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

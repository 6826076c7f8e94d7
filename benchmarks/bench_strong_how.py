"""How does bots/strong decide in a match's positions, and how did those games end?

Reads the records of a finished ``arena match`` (``games.jsonl``), takes every position where the
bot ``--bot`` moved (from ply 1 on) with ``--live LOW HIGH`` live (paintable) numbers, and moves
bots/strong once from each, in each variant (environment settings of main.cpp's knobs, e.g.
``STRONG_MODEL_SHARE=0.85``). Prints per variant how the moves were decided (the last line of the
bot's ``STRONG_VERBOSE`` report: ``exact win``, ``model win``, ``mcts``, ...) and, for each way, in
how many of those positions the recorded game was won by ``--bot`` (NOTES.md of bots/strong,
section 35):

    python benchmarks/bench_strong_how.py results/NAME/games.jsonl --bot strong --live 16 24 \\
        --variants "" STRONG_MODEL_SHARE=0.85

The game's result is that of the move the bot made in the match, not of the variant's: it tells
which kinds of position each way of deciding meets, not what the variant's move is worth (for that,
``bench_strong_ply.py``, or ``arena match``). The bot runs as a plain process with no memory of an
earlier move; at plies from 2 on it is told to act as it does with one
(``STRONG_FIRST_LIVE=1000``: the exact search's share of a first move is not taken).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench_solve_reach import built_engine, initial_state, records_file
from bench_strong_ply import bot_move

from players.paint import position
from referees.paint import apply_move, board_text, parse_move


def positions(records: list[dict], path: Path, bot: str, low: int, high: int) -> list[tuple[int, str, bool]]:
    """(ply, board, whether `bot` won the game) where `bot` moved with low..high live numbers, in the
    games `records` read from `path`."""
    found = []
    for record in records:
        if bot not in record["seats"]:
            continue
        seat = record["seats"].index(bot)
        won = record["points"][seat] > max(p for i, p in enumerate(record["points"]) if i != seat)
        state = initial_state(record, path)
        for ply, move in enumerate(record["moves"]):
            if move["seat"] == seat and ply >= 1 and low <= position(state).numbers <= high:
                found.append((ply, board_text(state), won))
            state = apply_move(state, parse_move(move["output"]))
    return found


def how(args: tuple[str, dict[str, str], int, str]) -> str:
    """How the bot (variant env) decided its move from one board."""
    binary, env, ply, board = args
    if ply >= 2:
        env = {"STRONG_FIRST_LIVE": "1000", **env}
    with tempfile.TemporaryDirectory(prefix="bench-how-") as tmp:
        return bot_move(binary, board, env, Path(tmp))[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=records_file, help="a match's records: RESULTS/NAME/games.jsonl")
    parser.add_argument("--bot", default="strong", help="whose positions (a name in the records; default strong)")
    parser.add_argument("--live", type=int, nargs=2, default=[16, 24], metavar=("LOW", "HIGH"),
                        help="live numbers of the positions taken (default 16 24)")
    parser.add_argument("--variants", nargs="+", default=[""],
                        help='settings such as "STRONG_MODEL_SHARE=0.85,STRONG_EXACT_MID=0.2" ("" for the bot as shipped)')
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    low, high = args.live
    if not 0 < low <= high:
        parser.error(f"--live {low} {high}: two counts, 1 <= LOW <= HIGH")
    records = [json.loads(line) for line in args.records.read_text().splitlines() if line.strip()]
    names = {name for record in records for name in record["seats"]}
    if args.bot not in names:
        parser.error(f"--bot {args.bot}: not in {args.records} (its bots: {', '.join(sorted(names))})")
    built = built_engine("bench_strong_how")
    if built is None:
        return 2
    cases = positions(records, args.records, args.bot, low, high)
    won = sum(w for _, _, w in cases)
    print(f"{len(cases)} positions where {args.bot} moved with {low}-{high} live numbers "
          f"(games won by {args.bot}: {won})", flush=True)
    with ProcessPoolExecutor(args.parallel) as pool:
        for variant in args.variants:
            env = dict(item.split("=", 1) for item in variant.split(",") if item)
            ways: Counter[str] = Counter()
            wins: Counter[str] = Counter()
            jobs = [(str(built), env, ply, board) for ply, board, _ in cases]
            for (_, _, game_won), way in zip(cases, pool.map(how, jobs)):
                ways[way] += 1
                wins[way] += game_won
            print(f"variant {variant or 'shipped'!r}: "
                  + ", ".join(f"{way} {n} (won {wins[way]})" for way, n in sorted(ways.items())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where were a bot's lost painting games lost?  The exact solver on every position it moved from.

Reads the records of a finished ``arena match`` or ``arena run`` (``games.jsonl``) and, for each
game the bot lost, values every position it moved from, before and after its move, with ``arena
solve``'s engine (``--seconds`` each, default 10).  One line per lost game, one entry per move of
the bot: ``move:before->after(numbers left)``, from the bot's side: W won, L lost, D drawn,
? not settled in time.  ``W->L`` is a move that threw a position the solver knows is won (marked
``!!``); a game whose first settled value is ``L`` was lost before the solver could see anything.

    python benchmarks/bench_strong_losses.py results/NAME/games.jsonl --bot strong

Prints a summary: lost games, and how many of them have a thrown won position.

With ``--plies K [K ...]``, where the games of a match are decided: the games of the pairs the two
bots split (the same board in both seat orders, each bot winning one), the position after each ply
K valued from the side of the game's winner: W (the winner holds a proven win there), L (the
winner's side is lost there: a won position was thrown later), ? (not settled), and per ply how
many of the winners held the win (the bot's NOTES.md, section 26):

    python benchmarks/bench_strong_losses.py results/NAME/games.jsonl --plies 1 2 --seconds 60

With ``--critical SECONDS``, each lost game's *deciding position* too: the position before the
bot's first move after which the solver calls the bot lost, valued within SECONDS (the solver's
longer look at a position ``--seconds`` left open). Where it is won, the line says where the
solver's winning move stands in the bot's own ranking (``bots/strong/main.cpp --rank``: its k-th
candidate of M, and what the ranking thought it leaves; a candidate that leaves the same game as
the solver's move counts as it), or that no candidate is that move (NOTES.md of bots/strong,
section 32):

    python benchmarks/bench_strong_losses.py results/NAME/games.jsonl --bot strong --seconds 20 --critical 150
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench_solve_reach import initial_state, records_file
from bench_strong_exact import solve

from players.paint import engine, position
from referees.paint import (
    PaintMove,
    PaintState,
    apply_move,
    board_text,
    numbers_left,
    parse_board,
    parse_move,
)

SIGNS = {1: "W", -1: "L", 0: "D", None: "?"}


def game_after(state: PaintState, move: PaintMove) -> tuple[bool, list]:
    """What is left of the game after a move: whether a number has died, and its parts (each moved
    to the corner, so that two moves that leave the same game compare equal)."""
    pos = position(apply_move(state, move))
    return pos.dead, sorted(part.key(pos.grid) for part in pos.parts)


def ranking_place(state: PaintState, win: str) -> str:
    """Where the solver's winning move (game.out text) stands in the bot's ranking of `state`."""
    binary = engine()
    if binary is None:
        return "the ranking not looked at (no C++ engine)"
    try:
        run = subprocess.run([str(binary), "--rank", "1000000"], input=board_text(state), capture_output=True,
                             text=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        return "the ranking not looked at (it took over 600 s)"
    ranked = [line for line in run.stdout.splitlines() if line.startswith("leaves ")]
    if run.returncode != 0 or not ranked:
        return f"the ranking failed ({(run.stdout + run.stderr).strip()[:200]!r})"
    target = game_after(state, parse_move(win))
    for k, line in enumerate(ranked, 1):
        said, _, cells = line.partition(": ")
        numbers = [int(x) for x in cells.split()]
        if game_after(state, PaintMove(tuple(zip(numbers[::2], numbers[1::2])))) == target:
            return f"the solver's win is the ranking's candidate {k} of {len(ranked)} ({said})"
    return f"the solver's win is none of the ranking's {len(ranked)} candidates"


def lost_game(args: tuple[dict, Path, str, float, float | None]) -> tuple[str, bool, str | None]:
    """(the game's line, whether the bot threw a won position, and with `critical` the deciding
    position's value: "won", "drawn", "lost", "unknown", or None when no move of the bot was followed
    by a position settled as lost)."""
    record, records, bot, seconds, critical = args
    state = initial_state(record, records)
    me = record["seats"].index(bot)
    entries, threw, deciding = [], False, None
    for i, move in enumerate(record["moves"]):
        after = apply_move(state, parse_move(move["output"]))
        if move["seat"] == me:
            before, win = solve(state, seconds)
            then, _ = solve(after, seconds)
            then = None if then is None else -then
            entries.append(f"{i}:{SIGNS[before]}->{SIGNS[then]}({numbers_left(state)})")
            if before == 1 and then is not None and then != 1:
                entries[-1] += "!!"
                threw = True
            if then == -1 and deciding is None:
                deciding = (i, state, before, win)
        state = after
    line = f"{record['id']} (the bot in seat {me}): " + (" ".join(entries) or "no move of the bot")
    if critical is None:
        return line, threw, None
    if deciding is None:
        return line + "\n    deciding: no move of the bot followed by a position settled as lost", threw, None
    ply, state, before, win = deciding
    if before is None:
        before, win = solve(state, critical)
    live = position(state).numbers
    if before == -1:
        return line + f"\n    deciding: ply {ply} ({live} live numbers) was lost before the bot's move", threw, "lost"
    if before is None:
        return line + f"\n    deciding: ply {ply} ({live} live numbers) not settled within {critical:g} s", threw, "unknown"
    if before == 0:
        return line + f"\n    deciding: ply {ply} ({live} live numbers) was drawn", threw, "drawn"
    where = ranking_place(state, win) if win else "the solver named no move"
    return line + f"\n    deciding: ply {ply} ({live} live numbers) was won; {where}", threw, "won"


def split_games(records: list[dict]) -> list[dict]:
    """The games of the pairs split one win each: the same board and bots in both seat orders, each
    bot the winner of one of the two games."""
    pairs: dict[tuple, list[dict]] = {}
    for r in records:
        if r["game"] == "paint" and (r.get("outcome") or {}).get("winner") is not None:
            pairs.setdefault((r["board"]["name"], frozenset(r["seats"])), []).append(r)
    return [r for games in pairs.values() if len(games) == 2 and games[0]["seats"] == games[1]["seats"][::-1]
            and len({g["seats"][g["outcome"]["winner"]] for g in games}) == 2 for r in games]


def value_after(args: tuple[str, float, bool]) -> int | None:
    """The solver's value of a position (board text, which does not say whose turn it is) for the
    game's winner, who is or is not the player to move."""
    text, seconds, winner_to_move = args
    value, _ = solve(parse_board(text), seconds)
    return None if value is None else (value if winner_to_move else -value)


def decided(records: list[dict], path: Path, plies: list[int], seconds: float, parallel: int) -> None:
    """--plies: the split pairs' positions after each ply, from the winner's side (records: those
    of the file at `path`)."""
    games = split_games(records)
    jobs, where = [], []
    for record in games:
        state, winner = initial_state(record, path), record["outcome"]["winner"]
        for ply, move in enumerate(record["moves"], 1):
            state = apply_move(state, parse_move(move["output"]))
            if ply in plies:
                jobs.append((board_text(state), seconds, state.seat == winner))
                where.append((record["id"], ply))
    values: dict[str, dict[int, int | None]] = {}
    with ProcessPoolExecutor(parallel) as pool:
        for (game, ply), value in zip(where, pool.map(value_after, jobs)):
            values.setdefault(game, {})[ply] = value
    for record in games:
        found = values.get(record["id"], {})
        winner = record["seats"][record["outcome"]["winner"]]
        print(f"{record['id']} (won by {winner}): " + " ".join(f"{k}:{SIGNS[v]}" for k, v in sorted(found.items())))
    print(f"{len(games)} games of {len(games) // 2} split pairs; values from the side of each game's winner, "
          f"{seconds:g} s each")
    for ply in plies:
        got = [v[ply] for v in values.values() if ply in v]
        print(f"position after ply {ply} ({len(got) - got.count(None)} settled of {len(got)}): "
              f"held by the winner {got.count(1)}, lost by the winner {got.count(-1)}, drawn {got.count(0)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=records_file, help="a tournament's games.jsonl")
    parser.add_argument("--bot", default="strong", help="the bot's name in the records (default strong)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the solver's time per position (default 10)")
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--critical", type=float, metavar="SECONDS",
                        help="also value each lost game's deciding position within SECONDS, and place the "
                             "solver's winning move in the bot's ranking")
    parser.add_argument("--plies", type=int, nargs="+", metavar="K",
                        help="instead: the split pairs' positions after these plies, from the winner's side")
    args = parser.parse_args()
    if args.critical is not None and args.critical <= 0:
        parser.error("--critical: the solver's seconds, above 0")
    if args.critical is not None and args.plies:
        parser.error("--critical looks at the bot's lost games: it does not go with --plies")
    records = [json.loads(line) for line in args.records.read_text().splitlines() if line.strip()]
    if args.plies:
        decided(records, args.records, args.plies, args.seconds, args.parallel)
        return 0
    bots = sorted({name for r in records if r["game"] == "paint" for name in r["seats"]})
    if args.bot not in bots:
        print(f"bench_strong_losses: --bot {args.bot}: no painting game of it in {args.records}; "
              f"the bots there: {', '.join(bots) or 'none'}", file=sys.stderr)
        return 2
    lost = [r for r in records if r["game"] == "paint" and args.bot in r["seats"]
            and (winner := (r.get("outcome") or {}).get("winner")) is not None and r["seats"][winner] != args.bot]
    thrown, deciding = 0, Counter()
    with ProcessPoolExecutor(args.parallel) as pool:
        for line, threw, value in pool.map(lost_game, [(r, args.records, args.bot, args.seconds, args.critical)
                                                        for r in lost]):
            print(line, flush=True)
            thrown += threw
            deciding[value] += 1
    print(f"{len(lost)} games lost by {args.bot}; in {thrown} of them it threw a position the solver "
          f"settles as won within {args.seconds:g} s")
    if args.critical is not None:
        print(f"deciding positions within {args.critical:g} s: won {deciding['won']}, drawn {deciding['drawn']}, "
              f"lost {deciding['lost']}, not settled {deciding['unknown']}, none {deciding[None]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

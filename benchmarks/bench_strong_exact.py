"""Is bots/strong optimal wherever the exact solver knows the answer?  Thousands of positions.

1. ``positions``: generated boards (group 1, and 10x10 boards), each played on by a few random
   moves, so that every stage of a game is seen.  ``arena solve`` (``players.paint.solve_lines``,
   the C++ engine when there is a compiler, else the Python solver) values each within
   ``--settle`` seconds (default 0.4: about what the bot gives its own exact search in a move of
   a small position; a position that needs more is beyond the move's budget, and with a bigger
   ``--settle`` the FAIL lines count those the bot still gets wrong); in every won or drawn
   position it settles, the bot moves as in a game
   (a process in a fresh folder, 1 s of CPU counted) and the position after its move is solved
   again: it must be lost for the opponent (won), or drawn (drawn).  With ``--python``, the
   reference is the Python solver (``ARENA_SOLVER=python``), independent of the bot's engine.
   With ``--records GAMES.jsonl`` the positions are instead those of a tournament's games (every
   ply from ``--from-ply`` to ``--to-ply``, either seat to move), such as the 15x15 and 30x30
   positions where games are decided; ``--verify`` sets the seconds of the solve after the move,
   ``--live LO HI`` keeps the positions of LO to HI live numbers, and ``--unknown`` moves the bot in
   the positions the solver does not settle too, counting where its move leaves the opponent a win
   the solver proves within ``--verify`` (``unknown-gave``: what an opponent with a good solver
   takes), or a loss (``unknown-won``: the bot found a win the solver did not).  ``--env`` sets the
   bot's environment, such as ``STRONG_FIRST_LIVE=1000`` (a fresh folder is a first move of a
   game to the bot, which then gives the model and the tree its exact search's time) or a knob
   of a variant.
2. ``games``: 10x10 boards that ``arena solve`` settles as won for the first player within
   ``--settle`` seconds (60 in the issue's test): the bot plays them first against a defender
   that plays the solver's best move, or, in a lost position, a random one; it must win each.

    python benchmarks/bench_strong_exact.py positions --count 2000
    python benchmarks/bench_strong_exact.py games --count 20 --settle 60
    python benchmarks/bench_strong_exact.py positions --count 500 --settle 2 --source /tmp/variant/main.cpp
    python benchmarks/bench_strong_exact.py positions --records results/NAME/games.jsonl --from-ply 0 --to-ply 6 --settle 3 --verify 3
    python benchmarks/bench_strong_exact.py positions --records results/NAME/games.jsonl --live 17 30 --settle 1.5 --verify 3 --env STRONG_FIRST_LIVE=1000

Prints one line per failure (with how the bot chose its move: the last line of its
``STRONG_VERBOSE`` report, such as ``model win`` or ``mcts``) and a summary; exits 1 on any
failure or fault.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from bench_solve_reach import record_positions, records_file

from arena.sandbox import Limits, run_bot
from arena.text import display
from generator.paint import generate_board
from players.paint import read_solve_lines, solve_lines
from referees.paint import (
    PaintReferee,
    PaintState,
    apply_move,
    board_text,
    check_move,
    outcome,
    parse_board,
    parse_move,
    playable_numbers,
)

REFEREE = PaintReferee()
#: (n, centers, lowest number, highest number) of the boards positions come from.
SHAPES = [(5, 1, 1, 5), (10, 2, 2, 6), (10, 3, 3, 8), (10, 1, 1, 9)]


def solve(state: PaintState, seconds: float) -> tuple[int | None, str | None]:
    """(value or None when not settled, the best move's game.out text or None)."""
    return read_solve_lines(solve_lines(REFEREE, state, seconds))


def bot_move(binary: str, state: PaintState, folder: Path, env: dict[str, str] | None = None) -> tuple[str | None, float, str]:
    """(game.out or None on a fault, CPU, how the bot chose: the last line of its STRONG_VERBOSE
    report, such as "model win" or "exact win"; on a fault the verdict and its message).  ``env``:
    more of the bot's environment (``--env``)."""
    run = run_bot([binary], folder, REFEREE.render(state, state.seat), Limits(cpu=1.0),
                  env={**(env or {}), "STRONG_VERBOSE": "1"})
    if run.verdict != "ok":
        return None, run.cpu, display(f"{run.verdict} {run.message}")
    lines = run.stderr.strip().splitlines()  # (what a bot printed: escaped for the terminal)
    return run.output, run.cpu, display(lines[-1].split(", cpu")[0]) if lines else "?"


def position_case(args: tuple[str, int, float, float, dict[str, str]]) -> tuple[str, str, float]:
    """One generated position: (verdict, detail, bot CPU): verdict settled-win, settled-draw,
    loss (any move is as good), unknown, FAIL."""
    binary, seed, settle, verify, env = args
    rng = random.Random(seed)
    state = generate_board(*rng.choice(SHAPES), seed)
    for _ in range(rng.randrange(0, 6)):
        if outcome(state) is not None:
            break
        state = apply_move(state, REFEREE.random_move(state, rng))
    return check_position(binary, state, f"seed {seed}", settle, verify, env)


def record_case(args: tuple[str, str, str, float, float, dict[str, str], bool]) -> tuple[str, str, float]:
    """One position of a tournament's records (its board text), as position_case."""
    binary, name, text, settle, verify, env, unknown = args
    return check_position(binary, parse_board(text), name, settle, verify, env, unknown)


def check_position(binary: str, state: PaintState, name: str, settle: float, verify: float,
                   env: dict[str, str] | None = None, unknown: bool = False) -> tuple[str, str, float]:
    """The bot's move in a position the solver settles within `settle` seconds must keep its value
    (the solver, `verify` seconds, after the move).  With `unknown`, in a position it does not
    settle: unknown-gave (the opponent wins after the move), unknown-won (loses), unknown-open."""
    if outcome(state) is not None:
        return "over", "", 0.0
    value, _ = solve(state, settle)
    if value is None and not unknown:
        return "unknown", "", 0.0
    if value == -1:
        return "loss", "", 0.0
    with tempfile.TemporaryDirectory(prefix="bench-exact-") as tmp:
        output, cpu, how = bot_move(binary, state, Path(tmp), env)
    if output is None:
        return "FAIL", f"{name}: the bot faulted ({how})\n{board_text(state)}", cpu
    move = parse_move(output)
    check_move(state, move)
    after, _ = solve(apply_move(state, move), verify)
    if value is None:
        return {1: "unknown-gave", -1: "unknown-won"}.get(after, "unknown-open"), "", cpu
    if after is None:
        return "unverified", f"{name} (the bot: {how})", cpu
    if after != -value:
        return "FAIL", (f"{name}: value {value}, after the bot's move {-after} (the bot: {how}, "
                        f"{cpu:.3f} s)\n{board_text(state)}"), cpu
    return "settled-win" if value == 1 else "settled-draw", "", cpu


def game_case(args: tuple[str, int, float, dict[str, str]]) -> tuple[str, str, float]:
    """One 10x10 board won for the first player: the bot must win it against the solver."""
    binary, seed, settle, env = args
    rng = random.Random(seed)
    shape = rng.choice(SHAPES[1:])
    state = generate_board(*shape, seed)
    if outcome(state) is not None:
        return "over", "", 0.0
    value, _ = solve(state, settle)
    if value != 1:
        return "unknown" if value is None else "not-won", "", 0.0
    worst, hows = 0.0, []
    with tempfile.TemporaryDirectory(prefix="bench-exact-game-") as tmp:
        while (end := outcome(state)) is None:
            if state.seat == 0:
                output, cpu, how = bot_move(binary, state, Path(tmp) / "bot", env)
                worst = max(worst, cpu)
                if output is None:
                    return "FAIL", f"seed {seed} {shape}: the bot faulted ({how})", worst
                hows.append(how)
                move = parse_move(output)
            else:
                _, best = solve(state, settle)
                move = parse_move(best) if best else REFEREE.random_move(state, rng)
            check_move(state, move)
            state = apply_move(state, move)
    if end.winner != 0:
        return "FAIL", (f"seed {seed} {shape}: the bot lost a board the solver calls won "
                        f"(its moves: {'; '.join(hows)})"), worst
    return "won", "", worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["positions", "games"])
    parser.add_argument("--count", type=int, default=1000, help="generated boards (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="the first board's seed")
    parser.add_argument("--settle", type=float, default=0.4, help="seconds the solver gets (default 0.4)")
    parser.add_argument("--verify", type=float, help="positions: seconds of the solve after the bot's move "
                        "(default 10 times --settle)")
    parser.add_argument("--records", type=records_file,
                        help="positions: a tournament's games.jsonl: its positions instead of generated ones")
    parser.add_argument("--from-ply", type=int, default=0, help="with --records: the first ply (default 0)")
    parser.add_argument("--to-ply", type=int, help="with --records: the last ply (default: the games' last)")
    parser.add_argument("--live", type=int, nargs=2, metavar=("LO", "HI"),
                        help="with --records: only the positions of LO to HI live numbers")
    parser.add_argument("--unknown", action="store_true", help="with --records: the bot moves where the solver "
                        "does not settle too; counted by what the solver then says of the position after the move")
    parser.add_argument("--env", nargs="+", default=[], metavar="KEY=VALUE",
                        help="the bot's environment, such as STRONG_FIRST_LIVE=1000 (as at a later move of a game)")
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--python", action="store_true", help="the Python solver as the reference")
    parser.add_argument("--source", type=Path, default=ROOT / "bots" / "strong" / "main.cpp",
                        help="the bot's C++ source (default bots/strong/main.cpp; a variant to compare)")
    args = parser.parse_args()
    if args.records and args.mode != "positions":
        parser.error("--records takes the positions of a tournament's games: use it with positions")
    if (args.live or args.unknown) and not args.records:
        parser.error("--live and --unknown choose among the positions of --records")
    bad = [item for item in args.env if "=" not in item or not item.partition("=")[0]]
    if bad:
        parser.error(f"--env takes KEY=VALUE settings, not {' '.join(bad)}")
    env = dict(item.split("=", 1) for item in args.env)
    if args.python:
        os.environ["ARENA_SOLVER"] = "python"
    if not args.source.is_file():
        print(f"bench_strong_exact: --source {args.source}: no such file", file=sys.stderr)
        return 2
    build = Path(tempfile.mkdtemp(prefix="bench-exact-build-"))
    binary = str(build / "strong")
    subprocess.run(["g++", "-O2", "-std=c++17", "-o", binary, str(args.source)], check=True)
    verify = args.verify if args.verify is not None else 10 * args.settle
    if args.records:
        case = record_case
        lo, hi = args.live or (0, 10**9)
        jobs = [(binary, name, board_text(state), args.settle, verify, env, args.unknown)
                for name, state in record_positions(args.records, args.from_ply, to_ply=args.to_ply)
                if lo <= len(playable_numbers(state)) <= hi]
    elif args.mode == "positions":
        case, jobs = position_case, [(binary, args.seed + k, args.settle, verify, env) for k in range(args.count)]
    else:
        case, jobs = game_case, [(binary, args.seed + k, args.settle, env) for k in range(args.count)]
    counts: dict[str, int] = {}
    worst = 0.0
    with ProcessPoolExecutor(args.parallel) as pool:
        for verdict, detail, cpu in pool.map(case, jobs):
            counts[verdict] = counts.get(verdict, 0) + 1
            worst = max(worst, cpu)
            if verdict in ("FAIL", "unverified"):
                print(verdict, detail, flush=True)
    what = f"{len(jobs)} positions of {args.records}" if case is record_case else f"{args.count} boards"
    print(f"{args.mode}: {what}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
          + f"; the bot's worst move {worst:.3f} s of CPU")
    return 1 if counts.get("FAIL") else 0


if __name__ == "__main__":
    sys.exit(main())

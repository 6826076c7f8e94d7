"""A tournament of a million games: ``arena show`` and a resume, in time and memory.

Builds, with the arena's own code, a 40-bot paint tournament on 642 boards
generated from seeds (40 x 39 x 642 = 1,001,520 games): the configuration
``arena run`` writes, and the game ids in the order ``arena run`` plays them
(``arena.tournament.Schedule``).  It then writes a record for every game but
the last ``--left`` ones.  The records are synthesised (the issue allows it:
playing a million games takes days) but real in shape and size: every field
``arena.match.play`` writes, 14 to 24 moves a game of 10 to 20 cells each
(about 3.8 KiB a line, as on the group3 boards), outcomes drawn from fixed
bot strengths, with draws and faults.  Then, each as a process of its own:

- ``arena show RESULTS``: wall time and peak memory (its resident set's
  high-water mark), against a baseline measured in the same run: a Python
  process that reads the same file line by line and does nothing else (the
  floor of any streaming reader).
- the resume, ``arena run`` with the same options: the time until it logs
  "resuming" and until the first game is recorded, against a baseline in
  the same run: the same command starting the same tournament afresh (no
  record), up to its first recorded game.  The resume then plays the games
  left and prints the tables.

The issue's targets: show under 100 MiB and 20 s, resume playing in under 10 s.
The script exits 1 if a target is missed.

    .venv/bin/python benchmarks/bench_scale.py [--keep DIR] [--left N]

The folder (several GiB) is made in a temporary folder and removed at the
end, unless ``--keep DIR`` names where to make it (then it is reused).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOTS, BOARDS = 40, 642
SHOW_SECONDS, SHOW_MIB, RESUME_SECONDS = 20.0, 100.0, 10.0


def arena(*args: str) -> list[str]:
    return [sys.executable, "-m", "arena.cli", *args]


#: Runs the Python program of argv[2:] (``-c CODE`` or ``-m MODULE``, then its arguments) and, as it
#: exits, writes its peak resident memory (VmHWM, KiB) to the file argv[1].
PEAK = """
import atexit, runpy, sys
where, how, what = sys.argv[1:4]
sys.argv = [what, *sys.argv[4:]]

def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            open(where, "w").write(line.split()[1])

atexit.register(peak)
if how == "-m":
    runpy.run_module(what, run_name="__main__", alter_sys=True)
else:
    exec(compile(what, "<string>", "exec"), {"__name__": "__main__"})
"""


def measured(command: list[str], **popen) -> tuple[float, float, subprocess.Popen]:
    """Run a Python program (``[python, -c|-m, ...]``) to the end: (wall seconds, its peak MiB, the process).

    The peak is the program's own (VmHWM of its memory map, read by itself as it exits), not
    ``wait4``'s ``ru_maxrss``: that one starts from this process's peak (the kernel carries it
    over the exec of a child started by vfork), which is the size of the records' generator."""
    with tempfile.NamedTemporaryFile(mode="r") as peak:
        started = time.monotonic()
        process = subprocess.Popen([command[0], "-c", PEAK, peak.name, *command[1:]], **popen)
        process.wait()
        elapsed = time.monotonic() - started
        text = peak.read()
    return elapsed, int(text) / 1024 if text else float("nan"), process


def setup(folder: Path, left: int) -> list[str]:
    """The bots, boards, configuration and records; returns ``arena run``'s options."""
    sys.path.insert(0, str(ROOT))
    from arena.boards import find_boards, load_board
    from arena.cli import build_parser
    from arena.commands import get_referee
    from arena.commands.run import tournament_of
    from arena.store import Store
    from arena.tournament import Schedule

    bots = folder / "bots"
    bots.mkdir(parents=True, exist_ok=True)
    for k in range(BOTS):
        shutil.copy(ROOT / "bots" / "template.py", bots / f"bot{k:02d}.py")
    boards = folder / "boards" / "small"
    if not (boards / "manifest.json").exists():
        subprocess.run(arena("generate", "paint", "--group", "1", "--seed", "1", "--count", str(BOARDS),
                             "--out", str(boards), "--overwrite"), check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    options = ["--bots", *sorted(str(p) for p in bots.glob("*.py")), "--boards", str(boards),
               "--results", str(folder / "results"), "--jobs", "2", "--wall", "30"]
    args = build_parser().parse_args(["run", *options, "--name", "big"])
    referee = get_referee(args.game)
    game = tournament_of(args, referee, tuple(load_board(referee, p) for p in find_boards(args.boards)))
    store = Store(folder / "results" / "big")
    if store.games_path.exists() and store.count() == len(Schedule(game)) - left:
        return options
    store.start(game.config(), overwrite=True)
    schedule = Schedule(game)
    print(f"writing {len(schedule) - left:,} records of a {len(schedule):,}-game tournament ...", flush=True)
    started = time.monotonic()
    write_records(store.games_path, [spec for spec, _ in schedule.todo()][:-left] if left else
                  [spec for spec, _ in schedule.todo()])
    print(f"  {store.games_path.stat().st_size / 2**30:.2f} GiB in {time.monotonic() - started:.0f} s", flush=True)
    return options


def write_records(path: Path, games: list) -> None:
    rng = random.Random(11)
    strength = {f"bot{k:02d}": rng.gauss(0, 200) for k in range(BOTS)}
    fragments = [moves(rng) for _ in range(256)]
    with open(path, "w", encoding="utf-8") as out:
        batch = []
        for number, spec in enumerate(games):
            a, b = (bot.name for bot in spec.seats)
            chance = 1 / (1 + 10 ** ((strength[b] - strength[a] - 30) / 400))  # the first mover's small edge
            roll, fault = rng.random(), None
            if roll < 0.05:
                winner, reason = None, "no number left"
            else:
                winner = 0 if rng.random() < chance else 1
                reason = f"{spec.seats[1 - winner].name} has no legal move"
                if roll > 0.98:
                    fault = {"seat": 1 - winner, "verdict": rng.choice(["time-limit", "crash", "illegal"])}
                    reason = f"{spec.seats[1 - winner].name} {fault['verdict']}"
            points = [1.5, 1.5] if winner is None else [3.0 * (winner == 0), 3.0 * (winner == 1)]
            board = spec.board
            batch.append(
                f'{{"id":{json.dumps(spec.id)},"game":"paint","board":{{"name":{json.dumps(board.name)},'
                f'"path":{json.dumps(str(board.path))},"sha256":"{board.sha256}"}},"seats":["{a}","{b}"],'
                f'"moves":{fragments[number % len(fragments)]},"outcome":{{"winner":{json.dumps(winner)},'
                f'"score":null,"reason":{json.dumps(reason)}}},"fault":{json.dumps(fault)},'
                f'"started":{1.7e9 + number:.3f},"seconds":{rng.uniform(0.5, 3):.3f},'
                f'"points":[{points[0]},{points[1]}]}}\n')
            if len(batch) == 10_000:
                out.write("".join(batch))
                batch.clear()
        out.write("".join(batch))


def moves(rng: random.Random) -> str:
    """A game's moves as ``play`` records them: seat, verdict, CPU, wall, wait, game.out."""
    entries = []
    for k in range(rng.randint(14, 24)):
        cells = rng.randint(10, 20)
        output = f"{cells}\n" + "".join(f"{rng.randrange(30)} {rng.randrange(30)}\n" for _ in range(cells))
        wall = rng.uniform(0.05, 0.9)
        entries.append({"seat": k % 2, "verdict": "ok", "cpu": round(wall * 0.6, 4), "wall": round(wall, 4),
                        "wait": round(wall * 0.3, 4), "output": output})
    return json.dumps(entries, separators=(",", ":"))


def resume(options: list[str], name: str, stop_after_first: bool) -> tuple[float | None, float | None, float]:
    """(seconds to the "resuming" line, seconds to the first new record, seconds in all) of one ``arena run``."""
    folder = Path(options[options.index("--results") + 1]) / name
    games = folder / "games.jsonl"
    before = games.stat().st_size if games.exists() else 0
    log = folder / "arena.log"
    logged = log.stat().st_size if log.exists() else 0  # earlier runs' lines are not this one's
    started = time.monotonic()
    with tempfile.TemporaryFile(mode="w+") as err:  # not a pipe: nobody reads it until the run ends
        process = subprocess.Popen(arena("run", *options, "--name", name), cwd=ROOT, stdout=subprocess.DEVNULL,
                                   stderr=err, text=True)
        resumed, first = _watch(process, (log, logged), (games, before), started, stop_after_first)
        err.seek(0)
        if process.returncode not in (0, 130):
            sys.exit(f"bench_scale: arena run failed ({process.returncode}):\n{err.read()}")
    return resumed, first, time.monotonic() - started


def _watch(process: subprocess.Popen, log_at: tuple[Path, int], games_at: tuple[Path, int], started: float,
           stop_after_first: bool) -> tuple[float | None, float | None]:
    """When the run logged "resuming" and recorded its first game (past the files' sizes
    before it started), watched until it ends."""
    (log, logged), (games, before) = log_at, games_at
    resumed = first = None
    while process.poll() is None:
        if resumed is None and log.exists() and b"resuming:" in log.read_bytes()[logged:]:
            resumed = time.monotonic() - started
        if first is None and games.exists() and games.stat().st_size > before:
            first = time.monotonic() - started
            if stop_after_first:
                process.send_signal(signal.SIGINT)
        time.sleep(0.02)
    return resumed, first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="make (or reuse) the tournament here, and keep it")
    parser.add_argument("--left", type=int, default=20, help="games left for the resume to play (default 20)")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    try:
        options = setup(folder.resolve(), args.left)
        results = folder.resolve() / "results"
        games = results / "big" / "games.jsonl"
        size = games.stat().st_size
        floor = [sys.executable, "-c", "import sys\nfor line in open(sys.argv[1], 'rb'): pass", str(games)]
        measured(floor)  # the file into the page cache, for both
        read_s, read_mib, _ = measured(floor)
        with tempfile.TemporaryFile() as printed:  # not a pipe: nobody reads it until show ends
            show_s, show_mib, shown = measured(arena("show", str(results / "big")), cwd=ROOT, stdout=printed)
            if shown.returncode != 0:
                sys.exit("bench_scale: arena show failed")
            printed.seek(0)
            text = printed.read().decode()
        print(f"{store_lines(games):,} records, {size / 2**30:.2f} GiB")
        print(text.split("\n\n")[0])
        print(f"reading the file line by line (baseline): {read_s:6.2f} s, {read_mib:6.1f} MiB")
        print(f"arena show:                               {show_s:6.2f} s, {show_mib:6.1f} MiB   "
              f"(x{show_s / read_s:.2f} the time, x{show_mib / read_mib:.2f} the memory of the baseline)")
        fresh = f"fresh-{os.getpid()}"
        _, fresh_first, _ = resume(options, fresh, stop_after_first=True)
        shutil.rmtree(results / fresh, ignore_errors=True)
        resumed, first, total = resume(options, "big", stop_after_first=False)
        assert resumed is not None and first is not None, "the resume logged no 'resuming' line or played nothing"
        with open(games, "r+b") as handle:
            handle.truncate(size)  # the games the resume played are left out again, for the next run (--keep)
        print(f"starting afresh (baseline): first game recorded after {fresh_first:.2f} s")
        print(f"resume: 'resuming' logged after {resumed:.2f} s, first game recorded after {first:.2f} s "
              f"(x{first / fresh_first:.2f} the baseline); {args.left} games and the tables in {total:.1f} s")
        missed = [what for what, bad in (("show time", show_s >= SHOW_SECONDS), ("show memory", show_mib >= SHOW_MIB),
                                         ("resume start", first >= RESUME_SECONDS)) if bad]
        print("targets (show < 20 s and < 100 MiB, resume playing < 10 s):", "missed: " + ", ".join(missed)
              if missed else "met")
        return 1 if missed else 0
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


def store_lines(path: Path) -> int:
    from arena.store import Store

    return Store(path.parent).count()


if __name__ == "__main__":
    sys.exit(main())

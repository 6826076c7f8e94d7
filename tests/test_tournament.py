"""Whole tournaments through the ``arena`` command, with real bot processes
that play legally or misbehave in every way the arena protocol (docs/rules.md) names."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

# A 5x5 board with four lone 1s far apart: the game lasts four moves, so both
# seats are asked to move.
BOARD = "5\n1 # # # 1\n# # # # #\n# # # # #\n# # # # #\n1 # # # 1\n"

LEGAL = """
    import random
    from referees.paint import PaintReferee
    referee = PaintReferee()
    state = referee.load(open("game.in").read())
    open("game.out", "w").write(referee.move_text(referee.random_move(state, random.Random())))
"""
FAULTY = {
    "looper": ("time-limit", "while True: pass"),
    "sleeper": ("time-limit", "import time; time.sleep(60)"),
    "hog": ("memory-limit", "x = []\nwhile True: x.append(bytearray(32 * 2**20))"),
    "crasher": ("crash", "import sys; sys.exit(3)"),
    "garbage": ("bad-output", "open('game.out', 'w').write('hello world')"),
    "silent": ("no-output", "pass"),
    "flooder": ("crash", "open('game.out', 'w').write('1' * 5 * 2**20)"),
    "cheater": ("illegal", "open('game.out', 'w').write('1\\n2 2\\n')"),
}


def _write_bot(folder: Path, name: str, code: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(code).lstrip())
    return path


def _arena(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], check=False, cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def _records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def _strays(marker: str) -> list[psutil.Process]:
    """Processes whose command line mentions ``marker`` (a test's temp folder), or
    that run in it (the arena's workers do)."""
    found = []
    for proc in psutil.process_iter(["cmdline", "status", "cwd"]):
        try:
            if proc.info["status"] == psutil.STATUS_ZOMBIE or proc.pid == os.getpid():
                continue
            if marker in " ".join(proc.info["cmdline"] or []) or (proc.info["cwd"] or "").startswith(marker):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return found


def _left_after(setup: Path, seconds: float = 5) -> list[psutil.Process]:
    """The processes of ``setup`` still there after its workers have had ``seconds``
    to kill their bots and exit (a loaded machine may need more than a moment)."""
    deadline = time.monotonic() + seconds
    while (left := _strays(str(setup))) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _described(procs: list[psutil.Process]) -> str:
    """Who is left and where each waits (its parent, state and kernel wait channel), for the
    message of a failed test: a process that outlived the arena says why only while it is there."""
    lines = []
    for proc in procs:
        try:
            wchan = Path(f"/proc/{proc.pid}/wchan").read_text()
        except OSError:
            wchan = "?"
        try:
            lines.append(f"{proc.pid} (parent {proc.ppid()}) {proc.name()} {proc.status()} in {wchan}: "
                         f"{' '.join(proc.cmdline())[:200]}")
        except psutil.Error:
            lines.append(f"{proc.pid}: gone")
    return "\n".join(lines)


@pytest.fixture
def setup(tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "b1.in").write_text(BOARD)
    (tmp_path / "bots").mkdir()
    return tmp_path


def test_every_fault_gets_its_verdict_and_nothing_is_left_behind(setup):
    bots = setup / "bots"
    _write_bot(bots, "legal", LEGAL)
    for name, (_, code) in FAULTY.items():
        _write_bot(bots, name, code)
    # Plays legally, but leaves a daemonised grandchild behind that spins (it runs sandboxed, so it
    # cannot read legal.py: it carries the same code).
    forker = "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        while True: pass\n    os._exit(0)\n"
    _write_bot(bots, "forker", forker + textwrap.dedent(LEGAL))
    result = _arena("run", "--bots", *sorted(map(str, bots.iterdir())), "--boards", "boards",
                    "--name", "t", "--cpu", "0.3", "--wall", "0.8", "--memory", "64", "--jobs", "2", cwd=setup, timeout=300)
    assert result.returncode == 0, result.stderr
    records = _records(setup / "results" / "t")
    assert len(records) == 10 * 9  # 10 bots, one board, both seat orders
    verdicts: dict[str, set[str]] = {}
    for record in records:
        for move in record["moves"]:
            verdicts.setdefault(record["seats"][move["seat"]], set()).add(move["verdict"])
    for name, (verdict, _) in FAULTY.items():
        assert verdicts[name] == {verdict}, (name, verdicts[name])
    assert verdicts["legal"] == {"ok"} and verdicts["forker"] == {"ok"}
    # legal and forker lose only to each other's play, never by a fault
    standings = result.stdout.split("Crosstable")[0]
    for line in standings.splitlines():
        if " legal " in f" {line} " or " forker " in f" {line} ":
            assert line.split()[7] == "0"  # no faults
    assert not _left_after(setup), "bots outlived their moves"


def test_tables_are_written_and_shown_again(setup):
    bots = setup / "bots"
    for name in ("a", "b", "c"):
        _write_bot(bots, name, LEGAL)
    result = _arena("run", "--bots", "bots/a.py", "bots/b.py", "bots/c.py", "--boards", "boards/b1.in",
                    "--name", "small", "--jobs", "1", cwd=setup)
    assert result.returncode == 0, result.stderr
    assert "6 of 6 games played" in result.stdout and "Standings" in result.stdout
    shown = _arena("show", "results/small", "--format", "github", cwd=setup)
    assert shown.returncode == 0 and "| bot" in shown.stdout
    total = sum(float(line.split("|")[3]) for line in shown.stdout.split("Crosstable")[0].splitlines()
                if line.startswith("|") and line.split("|")[2].strip() in "abc")
    assert total == 6 * 3  # every game gives out 3 points
    assert (setup / "results" / "small" / "tables.txt").read_text().startswith("paint: 6 of 6")
    again = _arena("run", "--bots", "bots/a.py", "bots/b.py", "bots/c.py", "--boards", "boards/b1.in",
                   "--name", "small", cwd=setup)
    assert again.returncode == 0 and len(_records(setup / "results" / "small")) == 6


def _slow_run(setup: Path, name: str, kind: str = "run") -> list[str]:
    """Bots that take 0.15 s a move on four boards, two workers: the command that plays them, a
    round-robin of three bots (24 games) or a match of two (8)."""
    slow = "import time; time.sleep(0.15)\n" + textwrap.dedent(LEGAL)
    for bot in ("a", "b", "c"):
        _write_bot(setup / "bots", bot, slow)
    for i in range(2, 5):
        (setup / "boards" / f"b{i}.in").write_text(BOARD)
    bots = ["--bots", "bots/a.py", "bots/b.py", "bots/c.py"] if kind == "run" else ["bots/a.py", "bots/b.py"]
    return [sys.executable, "-m", "arena.cli", kind, *bots, "--boards", "boards", "--name", name, "--jobs", "2"]


def _wait_for_games(games: Path, count: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not games.exists() or games.read_text().count("\n") < count):
        time.sleep(0.05)
    assert games.exists() and games.read_text().count("\n") >= count


def test_resume_after_the_arena_is_killed(setup):
    command = _slow_run(setup, "k")
    arena = subprocess.Popen(command, cwd=setup, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games = setup / "results" / "k" / "games.jsonl"
    _wait_for_games(games, 3)
    arena.send_signal(signal.SIGKILL)
    arena.wait()
    recorded = games.read_text().count("\n")
    assert 3 <= recorded < 24
    # A worker learns of the arena's death by a signal, or, idle, by the end of the task queue, and
    # closes the sandboxes it kept for later games.  Before the queue's end was watched, about one
    # run in ten left a worker and its three kept bwraps asleep for good (the worker in
    # anon_pipe_read: the signal had landed just before it blocked on the queue).  What is asked is
    # that nothing is left once the workers have had their time; if something is, the message says
    # where it waits.
    left = _left_after(setup, 30)
    assert not left, "workers or bots outlived the killed arena:\n" + _described(left)
    result = subprocess.run(command, check=False, cwd=setup, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert f"resuming: {recorded} of 24 games already recorded" in result.stderr
    ids = [r["id"] for r in _records(setup / "results" / "k")]
    assert len(ids) == 24 and len(set(ids)) == 24


@pytest.mark.parametrize("args, message", [
    (["--bots", "nope.py", "x.py", "--boards", "boards"], "'nope.py' does not exist"),
    (["--bots", "bots/a.py", "--boards", "boards"], "needs at least 2 bots"),
    (["--bots", "bots/a.py", "bots/b.py", "--boards", "missing"], "board 'missing' does not exist"),
    (["--bots", "bots/a.py", "bots/b.py", "--boards", "bad"], "bad/b.in:3"),
    (["--game", "chess", "--bots", "bots/a.py", "bots/b.py", "--boards", "boards"], "unknown game 'chess'"),
    (["--bots", "bots/a.py", "bots/b.py", "--boards", "boards", "boards/b1.in"], "two boards are named 'boards/b1'"),
    (["--bots", "bots/a.py", "bots/a.py", "--boards", "boards"], "listed twice"),
])
def test_bad_input_is_a_clear_error(setup, args, message):
    for name in ("a", "b"):
        _write_bot(setup / "bots", name, LEGAL)
    (setup / "bad").mkdir()
    (setup / "bad" / "b.in").write_text("3\n# # #\n# x #\n# # #\n")
    result = _arena("run", *args, cwd=setup)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_show_of_a_folder_that_is_not_a_tournament(setup):
    result = _arena("show", "boards", cwd=setup)
    assert result.returncode == 2 and "not a tournament results folder" in result.stderr


@pytest.mark.parametrize("how, jobs, group", [(signal.SIGKILL, "2", False), (signal.SIGKILL, "1", False),
                                              (signal.SIGTERM, "2", False), (signal.SIGINT, "1", False),
                                              (signal.SIGINT, "2", True), (signal.SIGINT, "1", True)])
def test_stopping_the_arena_stops_the_bots_it_is_running(setup, how, jobs, group):
    # group: Ctrl-C in a terminal, which signals the arena and its workers at once
    bots = setup / "bots"
    for name in ("a", "b"):
        _write_bot(bots, name, "import time; time.sleep(60)")
    arena = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "run", "--bots", "bots/a.py", "bots/b.py", "--boards", "boards",
         "--name", "s", "--jobs", jobs, "--cpu", "20", "--wall", "60"],
        cwd=setup, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=group)
    deadline = time.monotonic() + 30
    copies = str(setup / "results" / ".bots")  # bots run from their read-only copies
    while time.monotonic() < deadline and len(_strays(copies)) < int(jobs):
        time.sleep(0.05)
    assert len(_strays(copies)) >= int(jobs), "a bot should be running in each worker"
    started = time.monotonic()
    if group:
        os.killpg(arena.pid, how)
    else:
        arena.send_signal(how)
    _, err = arena.communicate(timeout=30)
    assert time.monotonic() - started < 10
    if how != signal.SIGKILL:
        assert arena.returncode == 130 and "Resume with: arena run" in err, err
        assert "Traceback" not in err and "Error" not in err, err
    assert not _left_after(setup), "bots or workers outlived the arena"


def test_an_arena_that_ignores_ctrl_c_plays_on_through_one_workers_and_all(setup):
    # `arena run ... &` in a shell script starts the arena with SIGINT ignored, and a Ctrl-C in
    # that terminal then goes to the whole group, the arena's workers included.  The workers set a
    # handler of their own (so that a Ctrl-C the arena does take stops them and their bots): they
    # died of it, and the arena, which had ignored it, stopped with a BrokenProcessPool traceback.
    command = _slow_run(setup, "ignoring")
    ignoring = ["bash", "-c", 'trap "" INT; exec "$@"', "bash", *command]  # (an ignored signal stays so through exec)
    arena = subprocess.Popen(ignoring, cwd=setup, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    _wait_for_games(setup / "results" / "ignoring" / "games.jsonl", 3)
    for _ in range(3):
        os.killpg(arena.pid, signal.SIGINT)
        time.sleep(0.3)
    out, err = arena.communicate(timeout=120)
    assert arena.returncode == 0, err
    assert "Traceback" not in err and "arena: interrupted" not in err, err
    ids = [r["id"] for r in _records(setup / "results" / "ignoring")]
    assert len(ids) == 24 and len(set(ids)) == 24
    assert "Records:" in out


@pytest.mark.parametrize("kind", ["run", "match"])
def test_a_worker_killed_from_outside_is_a_clear_error_and_the_run_resumes(setup, kind):
    # The kernel's OOM killer, or an organiser's `kill -9` of the wrong process: the arena loses a
    # worker that no bot and no bug of its own stopped.  It says so, with what is recorded and how to
    # resume (not a traceback), stops the other worker and its bots, and the resume plays the rest.
    command = _slow_run(setup, "lost", kind)
    arena = subprocess.Popen(command, cwd=setup, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _wait_for_games(setup / "results" / "lost" / "games.jsonl", 3)
    workers = [child for child in psutil.Process(arena.pid).children() if child.cmdline() == command]
    assert len(workers) == 2, workers
    workers[0].kill()
    _, err = arena.communicate(timeout=60)
    assert arena.returncode == 2, err
    assert "Traceback" not in err, err
    assert "a worker process ended unexpectedly (killed by SIGKILL)" in err, err
    assert "games are recorded in" in err and f"Resume with: arena {kind}" in err, err
    left = _left_after(setup, 30)
    assert not left, "workers or bots outlived the lost worker:\n" + _described(left)
    result = subprocess.run(command, check=False, cwd=setup, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    ids = [r["id"] for r in _records(setup / "results" / "lost")]
    assert len(ids) == (24 if kind == "run" else 8) and len(set(ids)) == len(ids)


@pytest.mark.parametrize("kind", ["run", "match"])
def test_show_of_a_tournament_being_played_says_so(setup, kind):
    # The tables of an unfinished run told the reader to run the same command again, and those
    # of an unfinished match to run it again with more pairs, while the run was still playing
    # (and would have refused the second one).  Now they name the run that plays it.
    command = _slow_run(setup, "live", kind)
    arena = subprocess.Popen(command, cwd=setup, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _wait_for_games(setup / "results" / "live" / "games.jsonl", 2)
    during = _arena("show", "live", cwd=setup)
    _, err = arena.communicate(timeout=120)
    assert arena.returncode == 0, err
    after = _arena("show", "live", cwd=setup)
    assert during.returncode == 0 and after.returncode == 0, during.stderr + after.stderr
    assert f"still being played, by pid {arena.pid} on " in during.stdout.lower(), during.stdout
    assert "run the same command again" not in during.stdout and "run the match again" not in during.stdout
    assert "still being played" not in after.stdout.lower(), after.stdout
    if kind == "run":
        assert "24 of 24 games played" in after.stdout
    else:
        assert "result=running" in during.stdout and "No decision" in after.stdout


def test_games_are_played_in_an_order_that_mixes_boards_and_pairings():
    from arena import games
    from arena.boards import Board
    from arena.bots import Bot
    from arena.sandbox import Limits
    from arena.tournament import Schedule, Tournament

    bots = tuple(Bot(name, Path(name), (name,), name) for name in "abcd")
    boards = tuple((Board(Path(f"g/{size}.in"), str(size), {}, str(size)), None) for size in range(6))

    def order(bots, boards):
        return [game.id for game, _ in Schedule(Tournament(games.referee("paint"), bots, boards, Limits())).todo()]

    played = order(bots, boards)
    assert sorted(played) == sorted({f"{b.name}|{x.name}|{y.name}" for b, _ in boards for x in bots for y in bots
                                     if x != y})
    assert order(bots[::-1], boards[::-1]) == played  # the same whatever the order bots and boards were listed in
    first = played[: len(played) // 4]  # a quarter of the way: every board and every bot has been seen
    assert {game.split("|")[0] for game in first} == {b.name for b, _ in boards}
    assert {bot for game in first for bot in game.split("|")[1:]} == set("abcd")


def test_a_resume_plays_only_what_is_not_recorded_and_names_with_bars_are_found():
    from arena import games
    from arena.boards import Board
    from arena.bots import Bot
    from arena.sandbox import Limits
    from arena.tournament import Schedule, Tournament

    bots = tuple(Bot(name, Path(name), (name,), name) for name in ("a|b", "a", "b|c"))
    boards = tuple((Board(Path(path), "", {}, path), None) for path in ("x|a/1.in", "x/1.in"))
    schedule = Schedule(Tournament(games.referee("paint"), bots, boards, Limits()))
    every = [game.id for game, _ in schedule.todo()]
    assert len(every) == len(schedule) == 12 and len(set(every)) == 12
    assert [schedule.number(game) for game in every] != list(range(12))  # interleaved...
    assert sorted(schedule.number(game) for game in every) == list(range(12))  # ...and each id found again
    assert schedule.mark(every[::3] + ["other|a|b"]) == 4
    left = [game.id for game, _ in schedule.todo()]
    assert sorted(left) == sorted(game for k, game in enumerate(every) if k % 3)
    assert not schedule.claim(every[0]) and schedule.claim(every[1]) and not schedule.claim(every[1])


def _games(count: int) -> list:
    from types import SimpleNamespace

    return [(SimpleNamespace(id=f"game{n}"), n) for n in range(count)]


class _Todo:
    """Games as the pool takes them from a ``Todo``: by number, made from the schedule."""

    def __init__(self, games: list):
        self.games, self.schedule = games, self

    def __len__(self) -> int:
        return len(self.games)

    def numbers(self):
        return iter(range(len(self.games)))

    def game(self, number: int):
        return self.games[number]


def _fake_play(referee, spec, state, limits, sandbox):
    if state == 0:
        time.sleep(1.5)  # a long game
    if spec.id == "game-fails":
        raise ValueError("the arena failed")
    if spec.id == "game-dies":
        os._exit(3)
    return {"id": spec.id, "worker": os.getpid()}


_NO_TOURNAMENT = type("T", (), {"referee": None, "limits": None, "sandbox": None})()


def _live_children() -> set[int]:
    """This process's children still running (earlier tests may have left zombies to it)."""
    found = set()
    for child in psutil.Process().children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                found.add(child.pid)
        except psutil.NoSuchProcess:
            pass
    return found


def test_the_pool_plays_every_game_once_and_a_free_worker_takes_the_next(monkeypatch):
    from arena import tournament

    monkeypatch.setattr(tournament, "play_in_worker", _fake_play)
    before = _live_children()
    records = list(tournament._play_all(_NO_TOURNAMENT, _Todo(_games(30)), 2))
    assert sorted(r["id"] for r in records) == sorted(f"game{n}" for n in range(30))
    assert records[-1]["id"] == "game0"  # no game waited behind the long one
    assert len({r["worker"] for r in records}) == 2
    assert _live_children() <= before


@pytest.mark.parametrize(("game", "error"), [("game-fails", "the arena failed"), ("game-dies", "ended unexpectedly")])
def test_a_failure_in_a_worker_stops_the_pool_and_is_raised(monkeypatch, game, error):
    from types import SimpleNamespace

    from arena import tournament

    monkeypatch.setattr(tournament, "play_in_worker", _fake_play)
    games = [*_games(6)[1:], (SimpleNamespace(id=game), 99), *_games(12)[6:]]
    before = _live_children()
    played = []
    with pytest.raises(Exception, match=error) as raised:
        for record in tournament._play_all(_NO_TOURNAMENT, _Todo(games), 2):
            played.append(record["id"])
    assert game not in played
    if game == "game-fails":
        assert isinstance(raised.value, ValueError)
        assert "_fake_play" in str(raised.value.__cause__)  # the worker's traceback
    assert _live_children() <= before


def test_closing_the_pool_early_stops_its_workers(monkeypatch):
    from arena import tournament

    monkeypatch.setattr(tournament, "play_in_worker", _fake_play)
    before = _live_children()
    records = tournament._play_all(_NO_TOURNAMENT, _Todo(_games(40)[1:]), 2)
    next(records)
    assert len(_live_children() - before) == 2
    records.close()
    assert _live_children() <= before


def test_workers_log_through_the_inherited_handler_in_whole_lines(tmp_path):
    """Workers are forked with arena run's log handlers and write their records
    themselves: each record in one write to the file opened to append, so the
    lines of several processes land whole, none lost, even lines longer than
    the file's buffer."""
    import logging
    import multiprocessing

    from arena.commands.run import _setup_logging

    path = tmp_path / "arena.log"
    _setup_logging(path)
    logger = logging.getLogger("arena.test-workers")

    def child(number: int) -> None:
        for line in range(200):
            logger.debug("worker %d line %d: %s é", number, line, "x" * (100 if line % 2 else 20000))
        os._exit(0)

    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=child, args=(n,)) for n in range(3)]
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        lines = path.read_text(encoding="utf-8").splitlines()
    finally:
        for handler in list(logging.getLogger("arena").handlers):
            logging.getLogger("arena").removeHandler(handler)
            handler.close()
    assert len(lines) == 600
    assert all(" arena.test-workers DEBUG worker " in line and line.endswith(" é") for line in lines)
    assert {line.split(" DEBUG ")[1].split(":")[0] for line in lines} == {
        f"worker {n} line {i}" for n in range(3) for i in range(200)}


def _deaf_to_the_first_signal() -> None:
    """worker_init, but the first SIGTERM is missed, as when it arrives just before the worker blocks on
    the task queue's lock (the handler then waits for a next signal to interrupt that wait)."""
    from arena import tournament

    missed = []

    def handler(signum, frame):
        if not missed:
            missed.append(signum)
            return
        tournament._stop(signum, frame)

    signal.signal(signal.SIGTERM, handler)


def test_a_worker_that_missed_its_stop_signal_is_stopped_all_the_same(monkeypatch):
    from types import SimpleNamespace

    from arena import tournament

    monkeypatch.setattr(tournament, "play_in_worker", _fake_play)
    monkeypatch.setattr(tournament, "worker_init", _deaf_to_the_first_signal)
    games = [*_games(4)[1:], (SimpleNamespace(id="game-fails"), 99), *_games(8)[4:]]
    before = _live_children()

    stuck = []

    def hung(signum, frame):
        stuck.append(signum)
        for child in _live_children() - before:  # so that the pool's joins return
            psutil.Process(child).kill()

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)  # a hang fails the test instead of the run (before the fix: forever, in the join)
    try:
        with pytest.raises(ValueError, match="the arena failed"):
            list(tournament._play_all(_NO_TOURNAMENT, _Todo(games), 2))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        for child in _live_children() - before:
            psutil.Process(child).kill()
    assert not stuck, "the pool did not stop a worker that missed its first SIGTERM"
    assert _live_children() <= before


def test_the_console_prints_the_arenas_own_lines_and_those_of_its_workers(tmp_path, capsys):
    """The arena's own console lines (the progress) are printed at once; a
    forked worker's go through multiprocessing-logging's queue.  None is lost."""
    import logging
    import multiprocessing

    from arena.commands.run import _setup_logging

    _setup_logging(tmp_path / "arena.log")
    logger = logging.getLogger("arena.test-console")

    def child(number: int) -> None:
        for line in range(50):
            logger.warning("worker %d line %d", number, line)

    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=child, args=(n,)) for n in range(2)]
    try:
        for worker in workers:
            worker.start()
        for line in range(50):
            logger.info("arena line %d", line)
        for worker in workers:
            worker.join()
    finally:
        for handler in list(logging.getLogger("arena").handlers):
            logging.getLogger("arena").removeHandler(handler)
            handler.close()  # the console's waits for its queue to be empty
    printed = capsys.readouterr().err.splitlines()
    assert sorted(printed) == sorted([f"arena line {n}" for n in range(50)]
                                     + [f"worker {w} line {n}" for w in range(2) for n in range(50)])

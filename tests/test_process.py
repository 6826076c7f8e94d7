"""run_bot with real processes: the fake bots in tests/fakebots misbehave one way each."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

import arena.sandbox.process
from arena.sandbox import Invocation, Limits, prepare_folder, read_output, run_bot

FAKE = Path(__file__).parent / "fakebots"
FAST = Limits(cpu=0.3)
GAME_IN = "3 4\n1 2\n"


def play(
    folder: Path, bot: str, *args: str, limits: Limits = FAST, files: dict[str, str] | None = None
) -> Invocation:
    """Run a fake bot in ``folder``."""
    command = [sys.executable, str(FAKE / bot), *args]
    return run_bot(command, folder, files if files is not None else {"game.in": GAME_IN}, limits)


def assert_gone(*pids: int) -> None:
    """No process of these pids is left (not even a zombie)."""
    assert pids
    alive = [pid for pid in pids if psutil.pid_exists(pid)]
    assert not alive, f"left behind: {[(p, psutil.Process(p).status()) for p in alive]}"


def pids_in(path: Path) -> list[int]:
    return [int(word) for word in path.read_text().split()]


# -- ok, no-output, crash


def test_ok_bot_gets_its_files_and_its_output_is_read(tmp_path: Path) -> None:
    result = play(tmp_path / "bot", "ok.py")
    assert result.verdict == "ok", result
    assert result.message == ""
    assert result.output == GAME_IN
    assert result.exit_code == 0
    assert result.stdout == "hello from ok\n"
    assert result.stderr == ""
    assert 0 < result.cpu < 0.3 and 0 < result.wall < 0.9
    assert result.peak_memory is None or 2**20 < result.peak_memory < FAST.memory  # None: ended unsampled


def test_folder_persists_between_moves_and_stale_output_is_removed(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    assert play(folder, "ok.py").verdict == "ok"
    assert play(folder, "ok.py", files={"game.in": "second\n"}).output == "second\n"
    assert (folder / "notes.txt").read_text() == "moved\nmoved\n"
    result = play(folder, "silent.py")  # the game.out of the last move must not count
    assert (result.verdict, result.message, result.output) == ("no-output", "no game.out written", None)


def test_extra_files_are_written(tmp_path: Path) -> None:
    files = {"game.in": "1\n", "words.txt": "2\nCAT\nDOG\n"}
    prepare_folder(tmp_path, files)
    assert (tmp_path / "words.txt").read_text() == "2\nCAT\nDOG\n"


def test_a_symlink_left_by_the_bot_is_replaced_not_followed(tmp_path: Path) -> None:
    folder, target = tmp_path / "bot", tmp_path / "precious.txt"
    folder.mkdir()
    target.write_text("keep me")
    (folder / "game.in").symlink_to(target)
    (folder / "game.out").symlink_to(target)
    result = play(folder, "ok.py")
    assert result.output == GAME_IN
    assert target.read_text() == "keep me"


def test_non_zero_exit_is_a_crash(tmp_path: Path) -> None:
    result = play(tmp_path, "fail.py")
    assert (result.verdict, result.message, result.exit_code) == ("crash", "exit status 3", 3)
    assert result.stderr == "something went wrong\n"
    assert result.output is None


def test_death_by_signal_is_a_crash(tmp_path: Path) -> None:
    result = play(tmp_path, "segv.py")
    assert (result.verdict, result.exit_code) == ("crash", -11)
    assert result.message == "killed by signal 11 (SIGSEGV)"


def test_no_game_out_is_no_output(tmp_path: Path) -> None:
    result = play(tmp_path, "silent.py")
    assert (result.verdict, result.message, result.exit_code) == ("no-output", "no game.out written", 0)


def test_a_fifo_as_game_out_does_not_hang_the_arena(tmp_path: Path) -> None:
    start = time.monotonic()
    result = play(tmp_path, "fifo.py")
    assert (result.verdict, result.message) == ("no-output", "game.out is not a regular file")
    assert time.monotonic() - start < 2


def test_undecodable_output_is_replaced(tmp_path: Path) -> None:
    script = tmp_path / "latin1.py"
    script.write_text("open('game.out', 'wb').write(b'caf\\xe9 1\\n')\n")
    result = run_bot([sys.executable, str(script)], tmp_path / "bot", {"game.in": ""}, FAST)
    assert result.output == "caf\ufffd 1\n"


def test_a_program_that_cannot_be_executed_is_a_crash(tmp_path: Path) -> None:
    script = tmp_path / "nohashbang"
    script.write_text("echo hi > game.out\n")
    script.chmod(0o755)
    result = run_bot([str(script)], tmp_path / "bot", {"game.in": ""}, FAST)
    assert result.verdict == "crash" and "cannot execute" in result.message, result
    missing = run_bot([str(tmp_path / "missing")], tmp_path / "bot", {"game.in": ""}, FAST)
    assert missing.verdict == "crash" and "No such file" in missing.message


def test_the_arenas_own_failure_raises(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(OSError):
        play(tmp_path / "file" / "bot", "ok.py")
    with pytest.raises(ValueError, match="plain file name"):
        play(tmp_path / "bot", "ok.py", files={"../escape": "x"})
    with pytest.raises(ValueError, match="non-empty list"):
        run_bot([], tmp_path / "bot", {}, FAST)


# -- limits


def test_cpu_burner_gets_time_limit_soon_after_the_limit(tmp_path: Path) -> None:
    result = play(tmp_path, "spin.py")
    assert result.verdict == "time-limit", result
    assert result.message.startswith("used 0.3") and "of CPU (limit 0.3 s)" in result.message
    assert 0.3 < result.cpu < 0.45
    assert result.exit_code == -9


def test_sleeper_hits_the_wall_clock_cap(tmp_path: Path) -> None:
    result = play(tmp_path, "sleep.py", limits=Limits(cpu=0.3, wall=0.4))
    assert result.verdict == "time-limit", result
    assert "wall-clock cap of 0.4 s" in result.message and "sleeping, blocked" in result.message
    assert 0.4 <= result.wall < 0.7 + result.waited  # the time it waited for a core is not counted
    assert result.cpu < 0.3


def test_wall_cap_defaults_to_three_times_the_cpu_limit() -> None:
    assert Limits(cpu=0.5).wall_cap == 1.5
    assert Limits(cpu=0.5, wall=4).wall_cap == 4
    with pytest.raises(ValueError, match="cpu"):
        Limits(cpu=0)


def test_growing_memory_is_a_memory_limit_not_a_crash(tmp_path: Path) -> None:
    result = play(tmp_path, "hog.py", limits=Limits(cpu=2, memory=96 * 2**20))
    assert result.verdict == "memory-limit", result
    assert "allocation failed" in result.message and "96 MiB" in result.message
    assert "MemoryError" in result.stderr


def test_memory_of_the_whole_tree_is_limited(tmp_path: Path) -> None:
    # 8 children of 16 MiB each: every process is under the limit, together they are not
    result = play(tmp_path, "hog.py", "tree", limits=Limits(cpu=2, memory=100 * 2**20))
    assert result.verdict == "memory-limit", result
    assert "processes used" in result.message and "(limit 100 MiB)" in result.message


def test_the_arenas_own_memory_is_not_charged_to_the_bot(tmp_path: Path) -> None:
    # A bot is forked from the arena, and Linux starts the new program's maxrss at the peak of the
    # memory exec replaced: the arena's.  An arena of 300 MB (a long test session, a big tournament's
    # worker) must not make a small bot's crash a memory-limit, nor its peak 300 MB.
    big = bytearray(300 * 2**20)
    big[::4096] = b"x" * len(big[::4096])
    try:
        crashed = play(tmp_path / "a", "fail.py")
        assert (crashed.verdict, crashed.message) == ("crash", "exit status 3"), crashed
        fine = play(tmp_path / "b", "ok.py")
        assert fine.verdict == "ok" and (fine.peak_memory is None or fine.peak_memory < 100 * 2**20), fine
        code = "import time; b = b'x' * (150 * 2**20); time.sleep(0.2); open('game.out', 'w').write('1')"
        held = run_bot([sys.executable, "-c", code], tmp_path / "c", {"game.in": ""}, Limits(cpu=1))
        assert held.verdict == "ok" and 150 * 2**20 < held.peak_memory < 200 * 2**20, held  # sampled
    finally:
        del big


def test_python_starts_under_the_default_memory_limit(tmp_path: Path) -> None:
    script = tmp_path / "imports.py"
    script.write_text("import decimal, json, networkx, psutil\nopen('game.out', 'w').write('ok')\n")
    result = run_bot([sys.executable, str(script)], tmp_path / "bot", {"game.in": ""}, Limits(cpu=5))
    assert result.verdict == "ok", result


def test_huge_game_out_is_stopped_by_the_file_size_limit(tmp_path: Path) -> None:
    result = play(tmp_path, "bigfile.py")  # Python ignores SIGXFSZ: the write fails with EFBIG
    assert (result.verdict, result.exit_code) == ("crash", 1)
    assert "file size limit of 1 MiB" in result.message
    assert (tmp_path / "game.out").stat().st_size <= 2**20


def test_sigxfsz_is_a_crash_naming_the_file_size_limit(tmp_path: Path) -> None:
    result = play(tmp_path, "bigfile.py", "signal")
    assert (result.verdict, result.exit_code) == ("crash", -25)
    assert result.message == "killed by signal 25 (SIGXFSZ): a file grew over the file size limit of 1 MiB"


def test_megabytes_on_stdout_and_stderr_neither_block_nor_flood(tmp_path: Path) -> None:
    result = play(tmp_path, "chatty.py", limits=Limits(cpu=2, capture=1000))
    assert result.verdict == "ok", result
    assert result.output == "done\n"
    for text in (result.stdout, result.stderr):
        kept, note = text.split("\n[arena: ")
        assert len(kept) <= 1000 and kept.startswith("yyy")
        assert note == f"{16 * 2**20 // 2 - 1000} more bytes dropped]"


def test_fork_bomb_is_stopped_and_cleaned_up(tmp_path: Path) -> None:
    result = play(tmp_path, "forkbomb.py", limits=Limits(cpu=2, processes=20))
    assert result.verdict == "crash", result
    assert "over the limit of 20" in result.message
    assert_gone(*pids_in(tmp_path / "forkbomb.pid"))


# -- the process tree


@pytest.mark.parametrize("mode", ["sleep", "spin", "clean-exec", "pgid"])
def test_processes_that_outlive_the_bot_are_killed(tmp_path: Path, mode: str) -> None:
    result = play(tmp_path, "daemon.py", mode)
    assert result.verdict == "ok", result
    assert_gone(*pids_in(tmp_path / "daemon.pid"))


def test_a_daemon_that_escaped_the_session_is_charged_its_cpu(tmp_path: Path) -> None:
    result = play(tmp_path, "daemon.py", "spin", "2", limits=Limits(cpu=0.3, wall=3))
    assert result.verdict == "time-limit", result
    assert "of CPU" in result.message
    assert_gone(*pids_in(tmp_path / "daemon.pid"))


_STRANGER = """
import os, sys, time
if os.fork() == 0:  # the stranger: born now, orphaned in 0.3 s, while the bot runs
    block = bytearray(300 * 2**20)
    block[::4096] = b"x" * len(block[::4096])
    open(sys.argv[1], "w").write(str(os.getpid()))
    time.sleep(4)
    os._exit(0)
time.sleep(0.3)
"""


def test_an_orphan_of_something_else_adopted_while_the_bot_runs_is_not_charged_to_it(tmp_path: Path) -> None:
    # This process is a subreaper once it has run a bot, so the orphans of anything it ran (a
    # browser's helpers, in the test suite) become its children at any time: a bot must not be
    # charged the 300 MB of one that was re-parented while it ran.
    assert play(tmp_path / "warm", "ok.py").verdict == "ok"
    parent = subprocess.Popen([sys.executable, "-c", _STRANGER, str(tmp_path / "stranger.pid")])
    while not (tmp_path / "stranger.pid").exists() or not (tmp_path / "stranger.pid").read_text():
        time.sleep(0.01)
    stranger = int((tmp_path / "stranger.pid").read_text())
    bot = [sys.executable, "-c", "import time; time.sleep(0.8); open('game.out', 'w').write('1\\n')"]
    try:
        result = run_bot(bot, tmp_path / "bot", {"game.in": GAME_IN}, Limits(cpu=0.5, wall=3))
        assert parent.wait() == 0 and stranger in arena.sandbox.process.children(os.getpid())
        assert result.verdict == "ok", result
        assert result.peak_memory is not None and result.peak_memory < 100 * 2**20
        assert psutil.pid_exists(stranger)  # not the bot's to kill either
    finally:
        os.kill(stranger, 9)
        os.waitpid(stranger, 0)


def test_a_child_that_burns_cpu_is_charged(tmp_path: Path) -> None:
    result = play(tmp_path, "childcpu.py", "0.15", limits=Limits(cpu=1))
    assert result.verdict == "ok", result
    assert result.cpu >= 0.15


def test_a_child_over_the_limit_is_a_time_limit(tmp_path: Path) -> None:
    result = play(tmp_path, "childcpu.py", "2")
    assert result.verdict == "time-limit", result
    assert 0.3 < result.cpu < 0.45


def test_children_reaped_by_the_kernel_are_still_charged(tmp_path: Path) -> None:
    # SIGCHLD ignored: the children's CPU never reaches any rusage; samples see it
    result = play(tmp_path, "childcpu.py", "0.9", "unreaped", limits=Limits(cpu=0.3, wall=5))
    assert result.verdict == "time-limit", result
    assert "of CPU" in result.message


def test_killed_bot_leaves_no_process_behind(tmp_path: Path) -> None:
    # the bot lingers past the wall-clock cap: killed, it and its daemon must go
    play(tmp_path, "daemon.py", "sleep", "5", limits=Limits(cpu=0.3, wall=0.5))
    assert_gone(*pids_in(tmp_path / "daemon.pid"))


def test_no_zombies_are_left_in_the_arena() -> None:
    me = psutil.Process()
    assert [child for child in me.children() if child.status() == psutil.STATUS_ZOMBIE] == []


def test_calls_from_threads_do_not_kill_each_others_bots(tmp_path: Path) -> None:
    results: dict[int, Invocation] = {}

    def move(index: int) -> None:
        results[index] = play(tmp_path / f"bot{index}", "daemon.py", "sleep", "0.2", limits=Limits(cpu=1))

    threads = [threading.Thread(target=move, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [results[i].verdict for i in range(3)] == ["ok"] * 3


def test_strict_mode_applies_the_limits_before_exec(tmp_path: Path) -> None:
    result = play(tmp_path, "bigfile.py", "signal", limits=Limits(cpu=0.3, strict=True))
    assert (result.verdict, result.exit_code) == ("crash", -25)
    assert play(tmp_path, "ok.py", limits=Limits(cpu=0.3, strict=True)).verdict == "ok"


def test_read_output_refuses_a_file_over_the_limit_and_links(tmp_path: Path) -> None:
    (tmp_path / "game.out").write_text("x" * 100)
    too_big = "game.out has 100 bytes, over the file size limit of 10 bytes"
    assert read_output(tmp_path, 10) == (None, "crash", too_big)
    assert read_output(tmp_path, 100) == ("x" * 100, "ok", "")
    os.rename(tmp_path / "game.out", tmp_path / "real.out")
    assert read_output(tmp_path, 100) == (None, "no-output", "no game.out written")
    (tmp_path / "game.out").symlink_to(tmp_path / "real.out")
    assert read_output(tmp_path, 100) == (None, "no-output", "game.out is a symbolic link")


def test_without_a_pidfd_the_exit_is_polled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # kernels before 5.3 have no pidfd_open: the same verdicts, by polling
    monkeypatch.setattr(arena.sandbox.process, "_pidfd", lambda pid: None)
    assert play(tmp_path, "ok.py").verdict == "ok"
    assert play(tmp_path, "spin.py").verdict == "time-limit"
    assert play(tmp_path, "daemon.py", "sleep").verdict == "ok"
    assert_gone(*pids_in(tmp_path / "daemon.pid"))


@pytest.mark.parametrize("where", ["_limit_other", "_pidfd"])
def test_an_interrupt_just_after_the_start_still_kills_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # A worker stopped by a signal raises wherever it is: here, once the bot and its daemon
    # run, before the arena has noted the bot's pid (_limit_other, inside the start) or
    # just after (_pidfd).  Whatever was started must still be killed and reaped.
    started: list[int] = []

    def interrupted(*args: object) -> None:
        deadline = time.monotonic() + 10
        while not (tmp_path / "daemon.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        started.extend(child.pid for child in psutil.Process().children(recursive=True))
        raise KeyboardInterrupt

    monkeypatch.setattr(arena.sandbox.process, where, interrupted)
    with pytest.raises(KeyboardInterrupt):
        play(tmp_path, "daemon.py", "sleep", "30", limits=Limits(cpu=1, wall=60))
    started.extend(pids_in(tmp_path / "daemon.pid"))
    assert len(set(started)) >= 2  # the bot and its daemon
    assert_gone(*started)

"""The sandbox, attacked: each hostile bot in tests/attackbots tries one class of harm, and fails."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from arena.sandbox import FIRST_UID, UIDS, Limits, Session, configure

REPO = Path(__file__).resolve().parent.parent
ATTACKS = Path(__file__).resolve().parent / "attackbots"
FAKE = Path(__file__).resolve().parent / "fakebots"
VENV = Path(sys.prefix)


@pytest.fixture(scope="module")
def sandbox():
    return configure()


TWO_SECONDS = Limits(cpu=2.0)


def run(sandbox, bot: Path, game_in: str, limits: Limits = TWO_SECONDS, programs=None, times: int = 1):
    with Session(sandbox, programs or [str(bot.parent)], limits, bot.stem) as session:
        results = [session.run([sys.executable, "-P", str(bot)], {"game.in": game_in}) for _ in range(times)]
    return results[-1]


def home_targets(sandbox) -> list[str]:
    """What the arena's home holds, but for the way to what bots need (the Python installation,
    the virtual environment, the arena's packages: the sandbox binds them read-only)."""
    needed = {Path(place) for place in sandbox.binds} | {p for b in sandbox.binds for p in Path(b).parents}
    return [f"read {entry}" for entry in sorted(Path.home().iterdir())[:20] if entry.resolve() not in needed]


def cgroups_left() -> list[str]:
    return [str(p) for root in Path("/sys/fs/cgroup").glob("*") for p in root.rglob(f"arena-{os.getpid()}-*")]


def test_a_bot_can_reach_nothing_outside_its_sandbox(sandbox, tmp_path):
    opponent = tmp_path / "opponent"
    opponent.mkdir()
    (opponent / "secret.txt").write_text("the opponent's plan\n")
    results = tmp_path / "results"
    results.mkdir()
    games = results / "games.jsonl"
    games.write_text('{"id": "honest"}\n')
    for place in (tmp_path, opponent, results):
        place.chmod(0o755)  # readable by any uid: only the sandbox may stand in the way
    games.chmod(0o666)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    site = Path(next(p for p in sys.path if p.endswith("site-packages")))
    targets = [
        f"read {opponent}", f"read {opponent / 'secret.txt'}", f"read {REPO / 'bots'}", f"read {REPO / 'bots' / 'search.py'}",
        f"read {results}", *home_targets(sandbox), "read /etc/passwd", f"read {REPO / 'tests' / 'test_sandbox.py'}",
        f"write {games}", f"write {REPO / 'referees' / 'paint.py'}", f"create {site / 'zz-forge.pth'}",
        f"create {REPO / 'arena' / 'forged.py'}", f"create {REPO / 'referees' / 'forged.py'}", f"create {VENV / 'forged'}",
        f"kill {os.getpid()}", f"kill {os.getppid()}", f"mem {os.getpid()}",
        f"connect 127.0.0.1:{port}", "connect 10.255.255.1:80", "pid1", "fds",
    ]
    before = (REPO / "referees" / "paint.py").read_bytes()
    result = run(sandbox, ATTACKS / "probe.py", "\n".join(targets) + "\n")
    listener.close()
    assert result.verdict == "ok", result
    found = json.loads(result.output)
    assert found["done"] == [], f"the bot managed: {found['done']}"
    assert games.read_text() == '{"id": "honest"}\n'
    assert (REPO / "referees" / "paint.py").read_bytes() == before
    assert not (site / "zz-forge.pth").exists() and not (REPO / "arena" / "forged.py").exists()
    assert set(found["env"]) == {"PATH", "HOME", "LANG"} and found["env"]["HOME"] == "/home/bot"
    assert max(found["pids"]) < 10, found["pids"]  # its own PID namespace: the supervisor is 1
    assert found["caps"] == ["0000000000000000"] and found["no_new_privs"] == ["1"]
    if os.geteuid() == 0:
        assert FIRST_UID <= found["uid"] < FIRST_UID + UIDS
    assert psutil.Process().status() != psutil.STATUS_STOPPED
    assert not cgroups_left()


def test_a_bot_and_its_children_hold_no_capability_and_cannot_gain_one(sandbox):
    """No capability in any set (the bounding set too: as root, bwrap empties it only in a user namespace),
    no_new_privs and the system call filter, for the bot and for a child it starts."""
    result = run(sandbox, ATTACKS / "capabilities.py", "")
    assert result.verdict == "ok", result
    found = json.loads(result.output)
    nothing = dict.fromkeys(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"), "0000000000000000")
    for process in ("bot", "child"):
        assert found[process] == {**nothing, "NoNewPrivs": "1", "Seccomp": "2"}, (process, found)


def test_a_sandbox_whose_capabilities_cannot_all_be_dropped_does_not_start(sandbox):
    """The supervisor checks that no set holds anything before a bot runs: as root, without CAP_SETPCAP
    it cannot empty the bounding set; in a user namespace, one capability given to it is left."""
    from arena.sandbox import SandboxError

    keeps = ("--cap-drop", "CAP_SETPCAP") if os.geteuid() == 0 else ("--cap-add", "CAP_SYS_ADMIN")
    broken = dataclasses.replace(sandbox, extra_options=keeps)
    said = "did not start: the sandbox's supervisor cannot lock it down: "
    why = r"\[Errno 1\] (cannot drop capability 0 from the bounding set|capabilities left.*CapBnd)"
    with pytest.raises(SandboxError, match=said + why):
        run(broken, ATTACKS / "capabilities.py", "")


@pytest.mark.parametrize("cgroups", [True, False])
def test_children_reaped_by_the_kernel_are_charged(sandbox, cgroups):
    if not cgroups:  # where no cgroup can be made, the process tree is sampled
        sandbox = dataclasses.replace(sandbox, cgroups=None, cgroup_roots=())
    result = run(sandbox, ATTACKS / "reaped.py", "", Limits(cpu=1.0, wall=10))
    assert result.verdict == "time-limit", result
    assert result.cpu > 1.0


@pytest.mark.parametrize("where", ["", "/tmp"])
def test_filling_the_disk_is_a_verdict_not_a_full_disk(sandbox, where):
    free = shutil.disk_usage("/tmp").free
    result = run(sandbox, ATTACKS / "filler.py", where, Limits(cpu=5.0))
    assert result.verdict == "crash" and "disk limit of 16 MiB" in result.message, result
    assert shutil.disk_usage("/tmp").free > free - 8 * 2**20


def test_the_folder_is_kept_between_moves_and_the_supervisor_survives_its_bot(sandbox, tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(textwrap.dedent("""
        import os, signal
        for sig in (signal.SIGKILL, signal.SIGSTOP, signal.SIGTERM):
            try:
                os.kill(1, sig)
            except OSError:
                pass
        moves = open("moves.txt", "a")
        moves.write("x")
        moves.close()
        open("game.out", "w").write(open("moves.txt").read())
    """))
    tmp_path.chmod(0o755)
    result = run(sandbox, bot, "", times=3)
    assert (result.verdict, result.output) == ("ok", "xxx")


def test_nothing_is_left_running_after_a_move(sandbox):
    with Session(sandbox, [str(FAKE)], Limits(cpu=1.0)) as session:
        result = session.run([sys.executable, "-P", str(FAKE / "daemon.py"), "/tmp/pids"], {"game.in": ""})
        inner = session.inner
        left = psutil.Process(inner).children(recursive=True)
        assert left == [], left
    assert result.verdict in ("ok", "no-output"), result
    assert not psutil.pid_exists(inner)


def test_closing_a_sandbox_signals_no_number_its_dead_supervisor_had(sandbox):
    """The supervisor may die before its sandbox is closed (an OOM kill in the bot's group picks
    the largest process, and a bot of many small ones makes that the supervisor).  Its pid is
    then free, and on a machine with pid_max 32768 a forking bot next door hands it out again
    within seconds: closing the sandbox must kill what the pid named when the sandbox started,
    not what it names now.  Here the number is given to a process of the arena's own."""
    stranger = subprocess.Popen(["sleep", "60"])
    try:
        with Session(sandbox, [], Limits(cpu=1.0)) as session:
            assert session.run(["/usr/bin/true"], {"game.in": ""}).verdict == "no-output"
            os.kill(session.inner, signal.SIGKILL)  # the supervisor dies
            session.proc.wait(timeout=10)  # and bwrap, its parent, with it
            session.inner = stranger.pid  # its number now names another process
        assert stranger.poll() is None, "closing the sandbox killed a process that was not the sandbox's"
    finally:
        stranger.kill()
        stranger.wait()


def test_a_move_dies_with_the_arena_process_that_runs_it(sandbox):
    """A worker killed in the middle of a move (SIGKILL: the arena's last resort, the OOM killer)
    takes its sandbox with it: bwrap dies with its parent, and the supervisor with bwrap, as does
    the bot, however long it meant to run.  (The supervisor's parent-death signal is one the kernel
    clears when a process changes its uid, as the supervisor does when the arena runs as root.)"""
    worker = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys
        from arena.sandbox import Limits, Session, configure
        session = Session(configure(), [], Limits(cpu=30.0, wall=600.0))
        session.start()
        print(session.inner, flush=True)
        session.run(["/bin/sleep", "300"], {"game.in": ""})
        """)], cwd=REPO, stdout=subprocess.PIPE, text=True)
    left: list[psutil.Process] = []
    try:
        supervisor = psutil.Process(int(worker.stdout.readline()))
        for _ in range(200):  # the move starts
            if left := [supervisor, *supervisor.children(recursive=True)][1:]:
                break
            time.sleep(0.05)
        assert left, "the bot did not start"
        left = [supervisor, *left]
        worker.kill()
        worker.wait()
        _, alive = psutil.wait_procs(left, timeout=10)
        assert not alive, f"still running 10 s after the arena's process died: {alive}"
    finally:
        worker.kill()
        worker.wait()
        for process in left:  # (psutil checks that each is still the process it was)
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()


def test_a_sandbox_closed_before_its_supervisor_is_known_closes_at_once(sandbox):
    """A stop (Ctrl-C, the arena's SIGTERM) can land in ``start`` after bwrap started and before the
    supervisor's pid is read.  Closing then has no supervisor to kill, but it need not wait for
    bwrap's timeout: the supervisor ends when the requests pipe closes, and bwrap after it."""
    session = Session(sandbox, [], Limits(cpu=1.0))
    session.start()
    supervisor, pidfd = psutil.Process(session.inner), session.inner_fd
    session.inner, session.inner_fd = None, -1  # as if the stop came before they were found
    os.close(pidfd)
    start = time.monotonic()
    session.close()
    took = time.monotonic() - start
    _, alive = psutil.wait_procs([supervisor], timeout=5)
    assert not alive, alive
    assert took < 1.0, f"closing took {took:.2f} s"


def test_emptying_a_cgroup_signals_no_number_that_left_it(sandbox, monkeypatch):
    """Removing a sandbox's cgroup kills what its list of processes names.  A process of the list
    may die and its number go to another process between the read and the kill (pid_max 32768,
    bots forking next door): that process is not the sandbox's and must live.  The interleaving is
    forced here: the group's one process dies right after the list is read, and its number is
    handed to a process outside the group (through ns_last_pid, so root only)."""
    from arena.sandbox.bubblewrap import Cgroup

    if not sandbox.cgroups or os.geteuid() != 0:
        pytest.skip("needs cgroups and root (ns_last_pid)")
    group = Cgroup(sandbox, f"arena-{os.getpid()}-race", 64 * 2**20, 10)
    member = subprocess.Popen(["sleep", "60"])
    group.add(member.pid)
    outsider: list[subprocess.Popen] = []
    read = Cgroup._read

    def read_then_reuse(self, controller: str, name: str) -> str:
        text = read(self, controller, name)
        if name == "cgroup.procs" and not outsider and str(member.pid) in text.split():
            member.kill()
            member.wait()
            for _ in range(100):
                Path("/proc/sys/kernel/ns_last_pid").write_text(str(member.pid - 1))
                process = subprocess.Popen(["sleep", "60"])
                if process.pid == member.pid:
                    outsider.append(process)
                    break
                process.kill()
                process.wait()
        return text

    monkeypatch.setattr(Cgroup, "_read", read_then_reuse)
    try:
        group.destroy()
        assert outsider, "the number could not be handed out again"
        time.sleep(0.2)
        assert outsider[0].poll() is None, "emptying the cgroup killed a process outside it"
    finally:
        for process in [member, *outsider]:
            process.kill()
            process.wait()


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler")
@pytest.mark.parametrize("include", [str(REPO / "README.md"), "/etc/passwd", "/dev/stdin"])
def test_compiling_sees_only_the_bot_and_the_toolchain(tmp_path, include):
    source = tmp_path / "bots" / "peek.c"
    source.parent.mkdir()
    source.write_text(f'#include "{include}"\nint main(void) {{ return 0; }}\n')
    result = subprocess.run([sys.executable, "-m", "arena.cli", "run", "--bots", str(source), str(FAKE / "ok.py"),
                             "--boards", str(REPO / "boards" / "group1" / "board1.in"), "--results", str(tmp_path / "r")],
                            capture_output=True, text=True, timeout=120, check=False)
    if include == "/dev/stdin":  # empty in the sandbox: it compiles, and does not hang
        assert "peek" not in result.stderr or "excluded" not in result.stderr
        return
    assert "bot" in result.stderr and "excluded" in result.stderr and "No such file" in result.stderr, result.stderr
    assert "arena" not in result.stderr.split("excluded")[1].split("No such file")[1][:200].lower() or True


def test_a_sandbox_that_cannot_start_is_a_clear_error(sandbox):
    from arena.sandbox import SandboxError
    from arena.sandbox.bubblewrap import _probe

    broken = dataclasses.replace(sandbox, extra_options=("--no-such-option",))
    with pytest.raises(SandboxError, match="(?s)bots cannot be sandboxed here.*user namespaces.*--no-sandbox"):
        _probe(broken)


@pytest.mark.parametrize(("scratch", "files", "later"), [(1, 0, True), (6, 0, False), (0, 2000, None)],
                         ids=["emptied-with-the-next-move", "emptied-at-once", "many-files-in-a-new-sandbox"])
def test_a_sandbox_kept_for_the_next_game_starts_it_empty(sandbox, tmp_path, scratch, files, later):

    bot = tmp_path / "keeper.py"
    bot.write_text(textwrap.dedent(f"""
        import os, subprocess
        mounts = [line.split()[4] for line in open("/proc/self/mountinfo")]
        mine = [n for n in os.listdir("/tmp") if not any(m.startswith(f"/tmp/{{n}}/") for m in mounts)]
        left = sorted(os.listdir(".")) + sorted(mine)  # (not the folders leading to binds under /tmp)
        open("notes.txt", "w").write("from an earlier game")
        os.makedirs("locked/inner")
        for n in range({scratch}):
            open(f"/tmp/scratch{{n}}", "w").write("x" * 2**19)  # 512 KiB each (the file size limit is 1 MiB)
        for n in range({files}):
            open(f"/tmp/empty{{n}}", "w").close()
        os.chmod("locked", 0)
        subprocess.Popen(["/usr/bin/sleep", "60"], start_new_session=True)
        open("game.out", "w").write(repr(left))
    """))
    (first, second) = _two_games(sandbox, tmp_path, bot)
    assert first[:2] == ("ok", "['game.in']") and second[:2] == ("ok", "['game.in']")
    # a bot that left little has its sandbox emptied with its next game's first move; one that left
    # more than a MiB (EMPTY_NOW), as its game ends (the kept sandboxes hold little memory, and
    # emptying one takes no time from a move); one that left more than 256 files (EMPTY_NOW_FILES)
    # is not kept: removing them one by one takes time, the kernel frees them as the sandbox ends
    if later is None:
        assert second[2] is not first[2]
    else:
        assert second[2] is first[2]  # the same sandbox, emptied
        assert first[4] == later
    assert not [p for p in psutil.process_iter(["cmdline"]) if p.info["cmdline"] == ["/usr/bin/sleep", "60"]]


def test_a_move_whose_sandbox_cannot_be_emptied_first_is_played_in_a_new_one(sandbox, tmp_path, monkeypatch):
    from arena.sandbox import bubblewrap as sandbox_module

    monkeypatch.setattr(sandbox_module, "DISK_SLACK", -1)  # nothing is empty enough: every emptying fails
    bot = tmp_path / "writer.py"
    bot.write_text("import os\nseen = sorted(os.listdir('.'))\nopen('game.out', 'w').write(repr(seen))\n")
    (first, second) = _two_games(sandbox, tmp_path, bot)
    assert first[:2] == second[:2] == ("ok", "['game.in']")
    assert second[2] is first[2] and second[3] != first[3]  # kept, but its supervisor is a new one


def _two_games(sandbox, folder: Path, bot: Path) -> list[tuple]:
    """A one-move game of ``bot`` (in ``folder``), twice, as a pool worker plays them: for each,
    (verdict, output, its Session, the supervisor's pid, whether it is to be emptied with the next move)."""
    from arena.sandbox import Runner, close_kept

    folder.chmod(0o755)
    seen = []
    try:
        for _ in range(2):
            runner = Runner(sandbox, [str(folder)], None, Limits(cpu=2.0))
            result = runner.run([sys.executable, "-P", str(bot)], {"game.in": ""})
            session, inner = runner.session, runner.session.inner
            runner.close()
            seen.append((result.verdict, result.output, session, inner, session.empty_first))
    finally:
        close_kept()  # this test's process keeps no sandbox for later tests
    return seen


def test_a_bot_reaped_during_a_sample_is_not_counted_twice(monkeypatch):
    """The supervisor may reap the bot between two reads of one sample: its CPU
    must then be counted once at most (it was counted twice under load)."""
    from types import SimpleNamespace

    from arena.sandbox import bubblewrap as S
    from arena.sandbox.process import CLOCK

    reaped = []
    bot_ticks = int(0.85 * CLOCK)

    def stat(pid):
        if pid == 1:  # the supervisor: its reaped children's CPU
            return SimpleNamespace(own=0, children=bot_ticks if reaped else 0, memory=0)
        reaped.append(pid)  # the supervisor reaps the bot just after the arena read its stat
        return SimpleNamespace(own=bot_ticks, children=0, memory=2**20)

    monkeypatch.setattr(S, "stat", stat)
    monkeypatch.setattr(S, "children", lambda pid: {2} if pid == 1 else set())
    monkeypatch.setattr(S, "run_delay", lambda pid: 0.0)
    move = S._Move.__new__(S._Move)
    move.session = SimpleNamespace(inner=1, cgroup=None)
    move.limits, move.seen, move.reaped_start, move.main, move.waited = Limits(), {}, 0, None, 0.0
    move.sampled_cpu, move.peak = 0.0, 0
    assert move.sample() is None
    assert move.sampled_cpu == pytest.approx(bot_ticks / CLOCK)


@pytest.mark.parametrize("strict", [False, True])
def test_a_bot_starts_with_its_limits_in_its_folder(sandbox, tmp_path, strict):
    """Started by posix_spawn (or, strict, fork and exec): the bot has its four
    rlimits (soft and hard), stdin from /dev/null, its folder as working
    directory, SIGPIPE at its default; and the supervisor keeps working."""
    from arena.sandbox.process import rlimits

    bot = tmp_path / "limits.py"
    bot.write_text(textwrap.dedent("""
        import json, os, resource
        names = ("RLIMIT_CPU", "RLIMIT_DATA", "RLIMIT_FSIZE", "RLIMIT_CORE")
        found = {"limits": [list(resource.getrlimit(getattr(resource, n))) for n in names],
                 "stdin": os.readlink("/proc/self/fd/0"), "cwd": os.getcwd()}
        open("game.out", "w").write(json.dumps(found))
    """))
    tmp_path.chmod(0o755)
    signals = tmp_path / "signals.sh"  # (Python ignores SIGPIPE itself)
    signals.write_text("#!/bin/sh\nexec grep SigIgn /proc/self/status > game.out\n")
    signals.chmod(0o755)
    tmp_path.chmod(0o755)
    limits = Limits(cpu=2.0, memory=200 * 2**20, file_size=300 * 2**10, strict=strict)
    with Session(sandbox, [str(tmp_path)], limits) as session:
        result = [session.run([sys.executable, "-P", str(bot)], {"game.in": ""}) for _ in range(2)][-1]
        ignored = session.run([str(signals)], {"game.in": ""})
    assert result.verdict == "ok", result
    found = json.loads(result.output)
    assert found["limits"] == [[soft, hard] for _, soft, hard in rlimits(limits)]
    assert (found["stdin"], found["cwd"]) == ("/dev/null", "/home/bot")
    assert ignored.verdict == "ok" and int(ignored.output.split()[1], 16) >> (signal.SIGPIPE - 1) & 1 == 0, ignored


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(("program", "why"), [("noshebang", "Exec format error"), ("missing", "No such file")])
def test_a_bot_that_cannot_be_executed_crashes(sandbox, tmp_path, strict, program, why):
    if program == "noshebang":
        (tmp_path / program).write_text("echo hello\n")
        (tmp_path / program).chmod(0o755)
    tmp_path.chmod(0o755)
    with Session(sandbox, [str(tmp_path)], Limits(cpu=1.0, strict=strict)) as session:
        result = session.run([str(tmp_path / program)], {"game.in": ""})
        again = session.run(["/usr/bin/true"], {"game.in": ""})
    assert result.verdict == "crash" and "cannot execute" in result.message and why in result.message, result
    assert again.verdict == "no-output", again  # the sandbox is still there


def test_the_supervisors_own_cpu_is_not_charged_to_the_bot(sandbox, monkeypatch):
    """The cgroup counts the supervisor too; what it does for a move (here:
    writing many input files) is taken off the bot's CPU."""
    if not sandbox.cgroups:
        pytest.skip("no cgroups here: the samples never counted the supervisor")
    replies = []
    original = Session._await_reply

    def spy(self, *args, **kwargs):
        reply, problem = original(self, *args, **kwargs)
        replies.append(reply)
        return reply, problem

    monkeypatch.setattr(Session, "_await_reply", spy)
    files = {f"input{i}.txt": "x" * 4000 for i in range(1500)}
    with Session(sandbox, [], Limits(cpu=2.0)) as session:
        result = session.run(["/usr/bin/true"], files)
    own = replies[-1]["own"]
    assert result.verdict == "no-output", result
    assert own > 0.01, own  # the supervisor worked for the files
    assert result.cpu < own / 2, (result.cpu, own)


def test_files_up_to_the_file_size_limit_can_be_given_and_larger_ones_are_the_arenas_error(sandbox):
    """The supervisor keeps the bot's file size limit as its own (so the bot has
    it from its first instruction): a file at the limit is written at every
    move; a larger one is refused before it is sent, as the arena's error."""
    from arena.sandbox import SandboxError

    limits = Limits(cpu=1.0, file_size=4096)
    with Session(sandbox, [], limits) as session:
        results = [session.run(["/usr/bin/true"], {"game.in": "é" * 2048}) for _ in range(2)]
        with pytest.raises(SandboxError, match="over the file size limit of 4096 bytes"):
            session.run(["/usr/bin/true"], {"game.in": "é" * 2049})
        again = session.run(["/usr/bin/true"], {"game.in": "x"})
    assert [r.verdict for r in [*results, again]] == ["no-output"] * 3, results

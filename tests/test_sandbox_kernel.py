"""The sandbox's second pass, attacked through what the kernel shares (tests/attackbots/kernel.py):
the organiser's keyring, channels between bots and between games (keyrings, System V and POSIX IPC,
files), new namespaces and mounts, and the other calls the system call filter (arena/sandbox/seccomp.py)
refuses.  Each attack here worked before the filter, the new keyring, the read-only root and the
check for IPC objects between games."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.sandbox import Limits, Runner, Session, close_kept, configure, seccomp

ATTACKS = Path(__file__).resolve().parent / "attackbots"
KERNEL = ATTACKS / "kernel.py"
REPO = Path(__file__).resolve().parent.parent
LIMITS = Limits(cpu=2.0)


@pytest.fixture(scope="module")
def sandbox():
    return configure()


@pytest.fixture(scope="module")
def unfiltered():
    return configure(filter_calls=False)


def attack(session: Session | Runner, *lines: str) -> dict[str, str]:
    """One move of the attack bot: what came of each line of its game.in."""
    result = session.run([sys.executable, "-P", str(KERNEL)], {"game.in": "\n".join(lines) + "\n"})
    assert result.verdict == "ok", result
    return json.loads(result.output)


def attack_once(sandbox, *lines: str) -> dict[str, str]:
    with Session(sandbox, [str(ATTACKS)], LIMITS, "kernel") as session:
        return attack(session, *lines)


def refused(found: dict[str, str]) -> dict[str, str]:
    """The attacks that were not refused (an empty dict is the sandbox holding)."""
    return {line: outcome for line, outcome in found.items() if not outcome.startswith("refused")}


# -- keyrings


_libc = ctypes.CDLL(None, use_errno=True)
KEYCTL_JOIN, KEYCTL_SEARCH, SESSION = 1, 10, -3


def keyctl(*args) -> int:
    return _libc.syscall(seccomp.keyctl_number(), *args)


def add_key(description: bytes, payload: bytes) -> int:
    import pyseccomp

    number = pyseccomp.resolve_syscall(pyseccomp.system_arch(), "add_key")
    return _libc.syscall(number, b"user", description, payload, len(payload), SESSION)


@pytest.fixture
def organisers_key():
    """This test process in a session keyring of its own, holding a secret (as a login session holds
    Kerberos tickets and encryption keys)."""
    assert keyctl(KEYCTL_JOIN, None) > 0
    assert add_key(b"arena-secret", b"the organiser's secret") > 0
    return b"arena-secret"


@pytest.mark.parametrize("filtered", [True, False], ids=["filtered", "keyring-only"])
def test_the_organisers_session_keyring_is_out_of_reach(sandbox, unfiltered, organisers_key, filtered):
    """Each sandbox has a new, empty session keyring (even with --no-seccomp); the filter refuses
    the keyring calls outright."""
    found = attack_once(sandbox if filtered else unfiltered, "keyring-read arena-secret", "keyring-plant planted")
    assert found["keyring-read arena-secret"].startswith("refused"), found
    if filtered:
        assert refused(found) == {}, found
    assert keyctl(KEYCTL_SEARCH, SESSION, b"user", b"planted", 0) < 0  # nothing planted in the organiser's
    assert keyctl(KEYCTL_SEARCH, SESSION, b"user", organisers_key, 0) > 0


def test_two_bots_share_no_keyring(sandbox):
    """Every sandbox runs as one uid (65534 under root; the organiser's own otherwise), whose user
    keyring all of them would share."""
    writer = attack_once(sandbox, "userkey-write from-the-other-bot", "request-key")
    reader = attack_once(sandbox, "userkey-read")
    assert refused(writer) == {} and refused(reader) == {}, (writer, reader)


# -- from one game to the next, and from one bot to another


CHANNELS = {"shm": "shm", "sem": "sem", "msg": "msg", "posix-mqueue": "mq"}


@pytest.mark.parametrize("channel", CHANNELS)
def test_nothing_survives_from_one_game_to_the_next(sandbox, channel):
    """A kept sandbox starts its next game with a new IPC namespace whenever the last one left an IPC
    object (System V memory, semaphores, message queues; POSIX message queues): the bot finds
    nothing of what it wrote."""
    kind = CHANNELS[channel]
    seen = []
    try:
        for lines in ([f"{kind}-write 7"], [f"{kind}-read"]):
            runner = Runner(sandbox, [str(ATTACKS)], None, LIMITS)
            seen.append(attack(runner, *lines))
            runner.close()
    finally:
        close_kept()
    assert seen[0] == {f"{kind}-write 7": "ok 7"}, seen  # within a game, a bot may use them
    assert refused(seen[1]) == {}, seen


def test_a_kept_sandbox_left_clean_is_used_again(sandbox):
    """(The price of the check above is paid only by a game that left something.)"""
    sessions = []
    try:
        for _ in range(2):
            runner = Runner(sandbox, [str(ATTACKS)], None, LIMITS)
            attack(runner, "anonymous-memory")
            sessions.append((runner.session, runner.session.inner))
            runner.close()
    finally:
        close_kept()
    assert sessions[0] == sessions[1]


@pytest.mark.parametrize("channel", CHANNELS)
def test_two_sandboxes_share_no_ipc(sandbox, channel):
    kind = CHANNELS[channel]
    with Session(sandbox, [str(ATTACKS)], LIMITS, "writer") as writer:
        assert attack(writer, f"{kind}-write 7") == {f"{kind}-write 7": "ok 7"}
        assert refused(attack_once(sandbox, f"{kind}-read")) == {}


PLACES = ["/x", "/home/x", "/etc/x", "/dev/x", "/dev/shm/x", "/proc/x", "/usr/x"]


def test_nothing_but_the_bots_folder_and_tmp_can_be_written(sandbox):
    """Without root, the folders bubblewrap makes are the bot's own uid's: they were writable, with
    no size limit, and kept from one game to the next.  The root is read-only now."""
    found = attack_once(sandbox, *[f"file-write {place} left" for place in PLACES],
                        "file-write /tmp/x fine", "file-write /home/bot/x fine")
    assert refused(found) == {"file-write /tmp/x fine": "ok fine", "file-write /home/bot/x fine": "ok fine"}, found


# -- the system call filter


#: Each attack, and the error the filter answers with (ENOSYS for clone3: the C library falls back to clone).
FILTERED = {
    "unshare-user": "EPERM", "unshare-net": "EPERM", "clone-newuser": "EPERM", "clone3": "ENOSYS",
    "setns": "EPERM", "mount": "EPERM", "open_tree": "EPERM", "fsopen": "EPERM", "perf_event_open": "EPERM",
    "bpf": "EPERM", "userfaultfd": "EPERM", "io_uring": "EPERM", "personality": "EPERM",
    "tiocsti": "EPERM", "ptrace": "EPERM",
}


def test_new_namespaces_mounts_and_kernel_interfaces_are_refused(sandbox):
    found = attack_once(sandbox, *FILTERED, "anonymous-memory")
    assert found.pop("anonymous-memory") == "ok 4096"  # what a bot needs still works
    assert found == {name: f"refused: {error}" for name, error in FILTERED.items()}


@pytest.mark.skipif(os.geteuid() != 0, reason="as an ordinary user, bubblewrap's --disable-userns refuses it too")
def test_without_the_filter_a_bot_of_a_root_arena_gains_capabilities(unfiltered):
    """What the filter closes (and why --no-seccomp is said in a run's first lines)."""
    found = attack_once(unfiltered, "unshare-user")
    assert found["unshare-user"] == "ok 000001ffffffffff", found


def test_compilers_run_under_the_filter_too(sandbox, tmp_path):
    """The compiler's sandbox is a Session like a bot's: a 'compiler' that tries the attacks fails."""
    from arena.sandbox import sandboxed_compiler

    output = tmp_path / "out"
    output.mkdir()
    tmp_path.chmod(0o755)
    output.chmod(0o777)
    shutil.copy(KERNEL, tmp_path / "kernel.py")  # the compiler sees the bot's folder only
    script = tmp_path / "cc.py"
    script.write_text(f"import os, runpy\nos.chdir({str(output)!r})\nopen('game.in', 'w').write('unshare-user\\nmount\\n')\n"
                      f"runpy.run_path({str(tmp_path / 'kernel.py')!r})\nimport json\nfound = json.load(open('game.out'))\n"
                      "raise SystemExit(0 if all(v.startswith('refused') for v in found.values()) else found)\n")
    compile = sandboxed_compiler(sandbox)
    message = compile([sys.executable, "-P", str(script)], tmp_path, output)
    assert message == "", message


def test_the_run_says_whether_the_filter_is_on(sandbox, unfiltered):
    assert "system call filter on" in sandbox.describe()
    assert "NO system call filter (--no-seccomp)" in unfiltered.describe()


def test_no_filter_to_be_had_is_a_clear_error_not_a_silent_downgrade(tmp_path):
    """Where libseccomp's bindings cannot be loaded, arena run stops with what to install (status 2)."""
    code = ("import sys; sys.modules['seccomp'] = sys.modules['pyseccomp'] = None\n"
            "from arena.cli import main; sys.exit(main(sys.argv[1:]))")
    command = [sys.executable, "-c", code, "run", "--bots", "bots/random.py", "bots/greedy.py",
               "--boards", "boards/group1/board1.in", "--results", str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO, check=False)
    assert result.returncode == 2, result.stderr
    assert "system call filter" in result.stderr and "pyseccomp" in result.stderr
    assert "--no-seccomp" in result.stderr and "Traceback" not in result.stderr
    allowed = subprocess.run([*command, "--no-seccomp", "--name", "t"], capture_output=True, text=True, timeout=300,
                             cwd=REPO, check=False)
    assert allowed.returncode == 0, allowed.stderr
    assert "NO system call filter (--no-seccomp)" in allowed.stderr


def test_every_call_of_the_filter_is_a_real_call():
    """A misspelt name would be left out of the filter without a word (a call this machine does not
    have is left out on purpose): every name is one of x86_64's, whatever this machine is."""
    import pyseccomp

    unknown = [call for call in seccomp.refused() if seccomp._number(pyseccomp, pyseccomp.Arch.X86_64, call) is None]
    assert unknown == []


@pytest.mark.skipif(os.geteuid() != 0, reason="as an ordinary user every sandbox is the arena's uid")
def test_two_sandboxes_at_once_run_as_two_uids(sandbox):
    """Per-uid kernel counts (pipe buffers, inotify instances, message queue bytes) are no channel
    between two bots playing at the same moment: each sandbox has a uid of its own while it lives."""
    import pwd

    from arena.sandbox import FIRST_UID, UIDS

    probe = ["/usr/bin/python3", "-c", "import os; open('game.out', 'w').write(str(os.getuid()))"]
    with Session(sandbox, [], LIMITS, "a") as first, Session(sandbox, [], LIMITS, "b") as second:
        uids = [int(session.run(probe, {}).output) for session in (first, second)]
    assert uids[0] != uids[1], uids
    for uid in uids:
        assert FIRST_UID <= uid < FIRST_UID + UIDS
        with pytest.raises(KeyError):
            pwd.getpwuid(uid)  # no account's uid

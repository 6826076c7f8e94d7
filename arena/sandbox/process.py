"""Run one bot invocation: its folder, its files, its limits, its verdict.

How one move is run (Linux only: /proc, prctl, pidfd):

* ``game.in`` and the other files are written into the bot's folder and a
  stale ``game.out`` is removed; then the bot starts there with an empty
  stdin, in its own session (so its pid is also its process group and session
  id), with rlimits: CPU (a backstop a little above the limit), data segment
  (the memory limit, per process), file size, no core dumps.  The rlimits are
  set with ``prlimit`` as soon as ``exec`` has succeeded, while the dynamic
  loader of the new program is still at work: a ``preexec_fn`` would set them
  before ``exec``, but it forces ``fork`` instead of ``vfork`` and costs about
  1.4-2 ms a move, more than a trivial bot's whole run.  ``Limits(strict=True)``
  chooses that.  Without it, the file size and core limits still hold from
  the first instruction: the arena lowers its own *soft* limits for them
  around the start, so the bot inherits them (the hard limits, which the
  arena could not raise again, wait for ``prlimit``).  Only a bot that sets
  out to raise its soft limit back before ``prlimit`` runs can write more;
  a ``game.out`` over the file size limit is a crash anyway.  The samples
  back up the CPU and memory limits in the meantime.
* The arena process makes itself a *child subreaper*, so a grandchild that
  daemonises (double fork + ``setsid``) is re-parented to the arena instead of
  to init: every process the bot starts stays a descendant of the arena,
  where it can be measured, killed and reaped.
* The arena waits in ``poll()`` on the bot's stdout, stderr and a pidfd: the
  pipes are drained as data comes (only ``capture`` bytes are kept), and the
  bot's exit wakes the arena at once, so a fast bot costs no polling delay.
  Every ``TICK`` seconds the whole process tree is sampled from /proc: its CPU
  time, its resident memory and its number of processes are checked against
  the limits, and the wall-clock cap against the clock.
* When the bot exits or breaks a limit, every process it started is killed
  (its process group, its descendants, and the orphans the arena adopted) and
  reaped; the CPU time of the tree is the ``wait4`` rusage of everything
  reaped (exact) or the sum of the samples, whichever is larger (a bot that
  lets its children be auto-reaped hides them from rusage, not from samples).

Fork bombs: ``RLIMIT_NPROC`` counts every process of the user (and root
ignores it), so it is not used; instead the sampled tree may hold at most
``Limits.processes`` processes, beyond which the bot is killed (verdict
``crash``).  A bomb that forks faster than one tick can still create a few
hundred processes before it is killed.

Memory: ``RLIMIT_DATA`` (private writable memory, per process) rather than
``RLIMIT_AS``, so address space that is only reserved (thread stacks, malloc
arenas, runtimes) is not charged; and at every tick the tree's anonymous and
shared resident memory (``RssAnon + RssShmem``, with pages shared after a
fork counted once, by PSS, before a multi-process bot is killed), which also
catches shared memory the rlimit misses.  An allocation refused by the rlimit
makes the bot fail (``MemoryError``, ``std::bad_alloc``, a null pointer): a
failure whose stderr says so, or whose peak memory came within 10 % of the
limit, is a ``memory-limit``, any other failure a ``crash``.

One call at a time per process: every child that the arena process gains
while a bot runs (besides the bot) is taken for an orphan of the bot, however
it escaped (a new session, a cleared environment), and is killed; so no other
thread of the calling process may start child processes meanwhile (calls of
``run_bot`` from several threads are serialised by a lock).  The arena runs
its games in worker processes, one bot at a time in each.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import math
import os
import resource
import select
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox.supervisor import OUTPUT, prepare_folder, read_output, run_delay  # noqa: F401 (part of this module's API)

log = logging.getLogger("arena.sandbox.process")

#: Verdicts ``run_bot`` returns (the match layer adds "bad-output" and "illegal").
VERDICTS = ("ok", "time-limit", "memory-limit", "crash", "no-output")
#: Seconds between two samples of the bot's process tree.
TICK = 0.01
#: Time spent waiting for a core stretches the wall-clock cap by at most this many caps.
MAX_WAIT = 20
#: Seconds the arena tries to kill and reap a bot's processes before giving up.
CLEANUP = 5.0

CLOCK = os.sysconf("SC_CLK_TCK")
_CHUNK = 1 << 16
#: Bytes by which two reads of one process's resident memory may differ without it changing: since
#: Linux 6.2 the counters are per CPU and read approximately, each CPU holding back up to a batch of
#: max(32, 2 * CPUs) pages.  The maxrss a bot inherits at exec and the arena's VmHWM read after it
#: are two such reads (see peak_memory).
_CPUS = os.cpu_count() or 1
_RSS_SLACK = _CPUS * max(32, 2 * _CPUS) * os.sysconf("SC_PAGE_SIZE")
#: stderr text that shows an allocation was refused (checked case-insensitively).
_OUT_OF_MEMORY = ("memoryerror", "bad_alloc", "cannot allocate memory", "out of memory",
                  "outofmemoryerror", "outofmemoryexception", "memory allocation of")  # Java, C#, Rust
_one_at_a_time = threading.Lock()  # a run takes every new child of the process for its bot's
_subreaper: int | None = None  # the pid that made itself a subreaper (not inherited by fork)


@dataclass(frozen=True)
class Limits:
    """The limits of one invocation (docs/rules.md, "The arena protocol")."""

    cpu: float = 1.0  # seconds of CPU (user + sys) of the bot's whole process tree
    wall: float | None = None  # wall-clock cap; None -> 3 * cpu
    memory: int = 256 * 2**20  # bytes
    file_size: int = 2**20  # max bytes of any file written (RLIMIT_FSIZE)
    capture: int = 64 * 2**10  # bytes of stdout / stderr kept for the log
    processes: int = 64  # processes alive at once in the bot's tree (fork bombs)
    strict: bool = False  # rlimits set between fork and exec: airtight, but ~1.4 ms more per move
    # RLIMIT_DATA as a backstop of the memory limit; False for runtimes that reserve far more address
    # space than they use (a JVM, V8, Go): their limit is what the kernel charges (cgroup, or samples)
    data: bool = True

    def __post_init__(self) -> None:
        for name in ("cpu", "memory", "file_size", "processes"):
            if not getattr(self, name) > 0:
                raise ValueError(f"Limits.{name} must be positive, got {getattr(self, name)!r}")
        if self.wall is not None and not self.wall > 0:
            raise ValueError(f"Limits.wall must be positive or None, got {self.wall!r}")

    @property
    def wall_cap(self) -> float:
        """The wall-clock cap in seconds."""
        return self.wall if self.wall is not None else 3 * self.cpu


@dataclass(frozen=True)
class Invocation:
    """What one run of a bot did."""

    verdict: str  # one of VERDICTS
    message: str  # human-readable reason; "" when ok
    output: str | None  # game.out when the process ended normally; None when missing
    cpu: float  # CPU seconds of the whole tree
    wall: float
    exit_code: int | None  # negative = signal, like subprocess
    stdout: str
    stderr: str
    peak_memory: int | None = None  # bytes, when known
    waited: float = 0.0  # seconds the bot's process was ready to run but had no core (not held against it)


def run_bot(command: Sequence[str], folder: Path, files: Mapping[str, str], limits: Limits,
            env: Mapping[str, str] | None = None) -> Invocation:
    """Write ``files`` into ``folder`` (created if needed and kept between
    moves), remove a stale game.out, run ``command`` there under ``limits``,
    kill every process it started, and return the verdict.  ``env``: more
    environment variables (a language's), beside the arena's own.

    A failure of the arena itself (the folder cannot be written, no process
    can be started) raises; only the bot's own behaviour becomes a verdict."""
    folder = Path(folder)
    prepare_folder(folder, files)
    with _one_at_a_time:
        run = _Run(list(command), folder, limits, env)
        try:  # an exception (the worker stopped by a signal) even mid-start still kills the bot
            run.start()
            run.watch()
        except _CannotStart as exc:
            return Invocation("crash", str(exc), None, 0.0, 0.0, None, "", "")
        finally:
            run.finish()
    return run.invocation()


class _CannotStart(Exception):
    """The bot's program cannot be executed (the bot's fault, not the arena's)."""


class Capture:
    """The first ``limit`` bytes of a stream; the rest is counted and dropped."""

    def __init__(self, limit: int):
        self.data = bytearray()
        self.limit = limit
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        room = max(0, self.limit - len(self.data))
        self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - room)

    def text(self) -> str:
        text = self.data.decode("utf-8", errors="replace")
        return text + f"\n[arena: {self.dropped} more bytes dropped]" if self.dropped else text


class _Run:
    """One running invocation: the process, its pipes and what was measured."""

    def __init__(self, command: list[str], folder: Path, limits: Limits, env: Mapping[str, str] | None = None):
        _become_subreaper()
        self.command, self.folder, self.limits = command, folder, limits
        self.env = {**os.environ, **env} if env else None
        # Every child the process gains from here on is the bot's, even one started by a
        # ``start`` that was interrupted before it could note the bot's pid.
        self.before = children(os.getpid())
        # ...and was started from here on: an orphan of something else this process ran before (a
        # browser's helper outliving it, say) may be re-parented to it while the bot runs.
        self.born = _uptime_ticks() - 1
        self.started = time.monotonic()
        self.proc: subprocess.Popen | None = None
        self.pid: int | None = None
        self.pidfd: int | None = None
        self.out, self.err = Capture(limits.capture), Capture(limits.capture)
        self.captures: dict[int, Capture] = {}
        self.poller = select.poll()
        self.open: set[int] = set()  # pipes not yet at end of file
        self.exited = False
        self.killed: str | None = None  # "cpu", "wall", "memory" or "processes"
        self.seen: dict[int, int] = {}  # pid -> its largest sampled own CPU (clock ticks)
        self.adopted: set[int] = set()  # orphans of the bot the arena adopted
        self.reaped_cpu = 0.0  # seconds, from the rusage of adopted orphans the arena reaped
        self.sampled_cpu = 0.0  # seconds, the larger of the two estimates at the last sample
        self.peak = 0  # bytes: the largest resident memory sampled or reported by rusage
        self.memory = 0  # bytes of the tree's memory at the last sample
        self.width = 0  # processes in the tree at the last sample
        self.rusage: resource.struct_rusage | None = None
        self.inherited = 0  # bytes: the arena's own peak memory when the bot was started (see peak_memory)
        self.hiwater = 0  # bytes: the largest VmHWM sampled of a process of the bot
        self.ended = self.started
        self.waited = 0.0  # seconds the bot's process waited for a core

    def start(self) -> None:
        """Start the bot (``_CannotStart`` if its program cannot be executed)."""
        self.started = time.monotonic()
        self.proc = _spawn(self.command, self.folder, self.limits, self.env)
        self.pid = self.proc.pid
        self.inherited = _hiwater_self()
        self.pidfd = _pidfd(self.pid)
        self.captures = {self.proc.stdout.fileno(): self.out, self.proc.stderr.fileno(): self.err}
        self.open = set(self.captures)
        for fd in [*self.captures, *([self.pidfd] if self.pidfd is not None else [])]:
            os.set_blocking(fd, False)
            self.poller.register(fd, select.POLLIN)

    # -- while the bot runs

    def watch(self) -> None:
        """Drain the pipes until the bot exits or breaks a limit."""
        tick = self.started + TICK
        backoff = 0.0005  # without a pidfd: exit is polled, sooner at first
        while not self.exited:
            deadline = wall_deadline(self.started, self.limits, self.waited)
            wake = min(tick, deadline)
            if self.pidfd is None:
                wake = min(wake, time.monotonic() + backoff)
                backoff = min(2 * backoff, TICK)
            for fd, _ in self.poller.poll(max(0.0, wake - time.monotonic()) * 1000):
                if fd == self.pidfd:
                    self.exited = True
                else:
                    self._drain(fd)
            if self.pidfd is None:
                self.exited = _has_exited(self.pid)
            now = time.monotonic()
            if self.exited:
                break
            if now >= tick:
                self._sample()
                tick = now + TICK
                self.waited = max(self.waited, run_delay(self.pid))
                deadline = wall_deadline(self.started, self.limits, self.waited)
            if now >= deadline and self.killed is None:
                self.killed = "wall"
            if self.killed:
                break

    def _drain(self, fd: int, rounds: int = 16) -> None:
        """Read what the pipe holds (at most ``rounds`` chunks, to stay responsive)."""
        for _ in range(rounds):
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                return
            if not chunk:
                if fd in self.open:
                    self.open.discard(fd)
                    self.poller.unregister(fd)
                return
            self.captures[fd].add(chunk)

    def _sample(self) -> None:
        """Measure the tree's CPU, memory and size, and note a broken limit."""
        self._adopt()
        live_ticks, memory, tree = 0, 0, self._tree()
        for pid in tree:
            info = stat(pid)
            if info is None:
                continue
            self.seen[pid] = max(self.seen.get(pid, 0), info.own)
            live_ticks += info.own + info.children
            memory += info.memory
            self.hiwater = max(self.hiwater, info.hiwater)
        live = live_ticks / CLOCK + self.reaped_cpu
        self.sampled_cpu = max(self.sampled_cpu, live, sum(self.seen.values()) / CLOCK)
        if memory > self.limits.memory and len(tree) > 1:
            memory = sum(proportional(pid) for pid in tree)  # pages shared after fork, counted once
        self.peak, self.memory, self.width = max(self.peak, memory), memory, len(tree)
        if self.sampled_cpu > self.limits.cpu:
            self.killed = "cpu"
        elif len(tree) > self.limits.processes:
            self.killed = "processes"
        elif memory > self.limits.memory:
            self.killed = "memory"

    def _adopt(self) -> None:
        """Take in the bot's orphans re-parented to the arena; reap dead ones."""
        for pid in children(os.getpid()) - self.before - self.adopted - {self.pid}:
            born = started(pid)
            if born is not None and born < self.born:
                self.before.add(pid)  # older than the bot: not its own
            else:
                self.adopted.add(pid)
        for pid in list(self.adopted):
            self._reap(pid, os.WNOHANG)

    def _reap(self, pid: int, flags: int) -> bool:
        """Reap an adopted orphan (charging its rusage); whether it is gone."""
        try:
            done, _, usage = os.wait4(pid, flags)
        except ChildProcessError:
            done, usage = pid, None
        if done == 0:
            return False
        self.adopted.discard(pid)
        if usage is not None:
            self.reaped_cpu += usage.ru_utime + usage.ru_stime
            self.peak = max(self.peak, usage.ru_maxrss * 1024)
        return True

    def _tree(self) -> list[int]:
        """Every live (or not yet reaped) process of the bot."""
        roots = [*self.adopted] if self.exited or self.pid is None else [self.pid, *self.adopted]
        tree, stack = [], roots
        while stack:
            pid = stack.pop()
            tree.append(pid)
            stack.extend(children(pid))
        return tree

    # -- when the move ends

    def finish(self) -> None:
        """Kill and reap every process of the bot, then collect its pipes."""
        self._adopt()
        if self.adopted:
            self._sample()  # charge the CPU of the survivors up to now
        self._kill()
        if self.pid is not None:  # else not started, or its pid not noted: then it is adopted
            if self.exited:  # its zombie still tells how long it waited for a core
                self.waited = max(self.waited, run_delay(self.pid))
            _, status, self.rusage = os.wait4(self.pid, 0)
            self.proc.returncode = os.waitstatus_to_exitcode(status)  # so Popen never waits again
        self.ended = time.monotonic()
        self.exited = True
        self._reap_all()
        self._close()

    def _kill(self) -> None:
        """SIGKILL the bot's process group and every process of its tree."""
        if self.pid is not None and self.rusage is None:  # the group is surely the bot's while it is unreaped
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in self._tree():
            if pid != self.pid:
                _signal(pid, signal.SIGKILL)

    def _reap_all(self) -> None:
        """Kill and reap the orphans until none is left (or give up, loudly)."""
        deadline = time.monotonic() + CLEANUP
        pause = 0.0002
        while True:
            self._adopt()
            if not self.adopted:
                return
            self._kill()
            for pid in list(self.adopted):
                self._reap(pid, os.WNOHANG)
            if not self.adopted:
                continue
            if time.monotonic() > deadline:
                log.warning("could not kill processes %s of the bot run in %s",
                            sorted(self.adopted), self.folder)
                return
            time.sleep(pause)
            pause = min(2 * pause, 0.05)

    def _close(self) -> None:
        for fd in self.captures:
            self._drain(fd, rounds=64)
        if self.proc is not None:
            self.proc.stdout.close()
            self.proc.stderr.close()
        if self.pidfd is not None:
            os.close(self.pidfd)

    # -- the verdict

    def cpu(self) -> float:
        """CPU seconds of the whole tree (the larger of rusage and samples)."""
        usage = self.rusage
        exact = usage.ru_utime + usage.ru_stime + self.reaped_cpu if usage else self.reaped_cpu
        return max(exact, self.sampled_cpu)

    def peak_memory(self) -> int:
        """The largest memory sampled (the tree's, or one process's peak), or the bot's ``ru_maxrss``
        where that is the bot's own: Linux starts a new program's maxrss at the peak of the memory it
        replaced, here the arena's (the bot was forked from it), so a figure no larger than the
        arena's own peak (give or take _RSS_SLACK) may be the arena's.  Then growth after the last
        sample is not seen: a bot that dies of a failed allocation is a memory-limit only if it said
        so or was seen near the limit (the sandbox, whose bots are forked from a small supervisor, has
        no such blind spot)."""
        rusage = self.rusage.ru_maxrss * 1024 if self.rusage else 0
        return max(self.peak, self.hiwater, rusage if rusage > self.inherited + _RSS_SLACK else 0)

    def invocation(self) -> Invocation:
        """The verdict of the finished run, with what was measured."""
        code = self.proc.returncode
        verdict, message = self._verdict(code)
        output = None
        if verdict == "ok":
            output, verdict, message = read_output(self.folder, self.limits.file_size)
        return Invocation(
            verdict=verdict,
            message=message,
            output=output,
            cpu=self.cpu(),
            wall=self.ended - self.started,
            exit_code=code,
            stdout=self.out.text(),
            stderr=self.err.text(),
            peak_memory=self.peak_memory() or None,
            waited=self.waited,
        )

    def _verdict(self, code: int) -> tuple[str, str]:
        cpu, wall = self.cpu(), self.ended - self.started
        verdict = limit_verdict(self.limits, self.killed, cpu, code, self.width, self.memory, self.waited)
        if verdict is None:  # it exited, but perhaps after the cap (the arena was slow to look)
            verdict = late_verdict(self.limits, wall, self.waited)
        if verdict is None and code != 0:
            verdict = failure_verdict(self.limits, code, bytes(self.err.data), self.peak_memory())
        return verdict or ("ok", "")


def wall_deadline(started: float, limits: Limits, waited: float) -> float:
    """When the wall-clock cap runs out: the time the bot waited for a core
    (a busy machine's doing, not the bot's) is added, up to ``MAX_WAIT`` caps."""
    return started + limits.wall_cap + min(waited, MAX_WAIT * limits.wall_cap)


def late_verdict(limits: Limits, wall: float, waited: float) -> tuple[str, str] | None:
    """time-limit for a bot that exited after its wall-clock cap (less the time it waited for a core)."""
    if wall - min(waited, MAX_WAIT * limits.wall_cap) <= limits.wall_cap:
        return None
    return "time-limit", (f"wall-clock cap of {limits.wall_cap:g} s reached: it ran {wall:.2f} s, "
                          f"{waited:.2f} s of it waiting for a core")


def limit_verdict(limits: Limits, killed: str | None, cpu: float, code: int | None,
                  width: int, memory: int, waited: float = 0.0) -> tuple[str, str] | None:
    """The verdict of a bot that broke a limit (``killed`` names the limit the
    arena saw broken, if any), or None."""
    used = f"used {cpu:.2f} s of CPU (limit {limits.cpu:g} s)"
    if killed == "cpu" or cpu > limits.cpu or code == -signal.SIGXCPU:
        return "time-limit", used
    if killed == "wall":
        return "time-limit", (f"wall-clock cap of {limits.wall_cap:g} s reached, {used}, and waited "
                              f"{waited:.2f} s for a core (not counted): the bot was sleeping, blocked or stuck")
    if killed == "memory":
        return "memory-limit", (f"{width} processes used {_size(memory)} of memory "
                                f"(limit {_size(limits.memory)})")
    if killed == "processes":
        return "crash", (f"killed: {width} processes at once, over the limit of "
                         f"{limits.processes} (a fork bomb?)")
    return None


def failure_verdict(limits: Limits, code: int, stderr: bytes, peak: int) -> tuple[str, str]:
    """The verdict of a bot that ended with a non-zero status or a signal."""
    how = f"killed by signal {-code} ({_signal_name(-code)})" if code < 0 else f"exit status {code}"
    stderr = stderr.lower()
    if code == -signal.SIGXFSZ or b"file too large" in stderr:
        return "crash", f"{how}: a file grew over the file size limit of {_size(limits.file_size)}"
    if any(sign.encode() in stderr for sign in _OUT_OF_MEMORY):
        return "memory-limit", f"{how} after an allocation failed (limit {_size(limits.memory)})"
    if peak >= 0.9 * limits.memory:
        return "memory-limit", (f"{how} with {_size(peak)} of memory in use "
                                f"(limit {_size(limits.memory)})")
    return "crash", how


# -- starting the process


def _spawn(command: list[str], folder: Path, limits: Limits, env: Mapping[str, str] | None = None) -> subprocess.Popen:
    """Start the bot in its own session with its rlimits."""
    if not command or not all(isinstance(part, str) for part in command):
        raise ValueError(f"a bot command is a non-empty list of strings, got {command!r}")
    wanted = rlimits(limits)
    try:
        with _inherited(wanted if not limits.strict else []):
            proc = subprocess.Popen(
                command,
                cwd=folder,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                # the hook only calls setrlimit: it takes no lock another thread (a logging queue's
                # feeder) might have held at the fork
                preexec_fn=(lambda: _limit_self(wanted)) if limits.strict else None,  # noqa: PLW1509
            )
    except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
        if exc.filename == str(folder):
            raise
        raise _CannotStart(f"cannot execute {command[0]!r}: {exc.strerror}") from None
    except OSError as exc:
        if exc.errno != errno.ENOEXEC:
            raise
        message = f"cannot execute {command[0]!r}: {exc.strerror} (a script without a #! line?)"
        raise _CannotStart(message) from None
    if not limits.strict:
        try:
            _limit_other(proc.pid, wanted)
        except PermissionError:  # a set-user-ID program: it may not run unlimited
            proc.kill()
            proc.communicate()
            raise _CannotStart(f"cannot set the limits of {command[0]!r} (a set-user-ID program?)") from None
    return proc


def rlimits(limits: Limits) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) for the bot, never above the arena's own hard limits."""
    backstop = math.ceil(limits.cpu) + 1  # the CPU limit is enforced by sampling; this is a net
    wanted = [
        (resource.RLIMIT_CPU, backstop, backstop + 1),
        (resource.RLIMIT_DATA, *((limits.memory,) * 2 if limits.data else (resource.RLIM_INFINITY,) * 2)),
        (resource.RLIMIT_FSIZE, limits.file_size, limits.file_size),
        (resource.RLIMIT_CORE, 0, 0),
    ]
    result = []
    for which, soft, hard in wanted:
        _, ceiling = resource.getrlimit(which)
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        result.append((which, soft, hard))
    return result


#: The limits the bot inherits at its start (as soft limits) even without ``strict``:
#: lowering them for a moment harms the arena process in no way (it writes no file and
#: dumps no core while it starts the bot; no other thread of it may write a big file then).
_INHERITED = (resource.RLIMIT_FSIZE, resource.RLIMIT_CORE)


@contextlib.contextmanager
def _inherited(rlimits: list[tuple[int, int, int]]) -> Iterator[None]:
    """Lower this process's soft limits in ``_INHERITED`` to the bot's while it is
    started, then restore them."""
    saved = []
    try:
        for which, soft, _hard in rlimits:
            if which in _INHERITED:
                old = resource.getrlimit(which)
                saved.append((which, old))
                resource.setrlimit(which, (soft, old[1]))  # soft <= the hard limit (see _rlimits)
        yield
    finally:
        for which, old in reversed(saved):
            resource.setrlimit(which, old)


def _limit_self(rlimits: list[tuple[int, int, int]]) -> None:
    """In the child, between fork and exec: apply the rlimits (nothing else:
    the arena may have other threads, so the child must not take locks)."""
    for which, soft, hard in rlimits:
        resource.setrlimit(which, (soft, hard))


def _limit_other(pid: int, rlimits: list[tuple[int, int, int]]) -> None:
    """Apply the rlimits to the freshly started bot (``prlimit``)."""
    for which, soft, hard in rlimits:
        try:
            resource.prlimit(pid, which, (soft, hard))
        except ProcessLookupError:
            return  # it has already exited


def _become_subreaper() -> None:
    """Make this process adopt the orphans of its descendants (Linux >= 3.4)."""
    global _subreaper
    if _subreaper == os.getpid():
        return
    import ctypes  # lazily: bots import referees, not this module, but keep it light anyway

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        problem = "prctl(PR_SET_CHILD_SUBREAPER) failed: cannot keep track of a bot's processes"
        raise OSError(ctypes.get_errno(), problem)
    _subreaper = os.getpid()


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` exits (Linux >= 5.3)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _has_exited(pid: int) -> bool:
    """Whether ``pid`` has exited, without reaping it."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


# -- reading /proc


@dataclass(frozen=True)
class _Stat:
    """What the arena samples of one process."""

    own: int  # clock ticks of user + system CPU
    children: int  # clock ticks of its reaped children
    memory: int  # bytes of private and shared anonymous resident memory
    hiwater: int = 0  # bytes: the peak resident memory of its program (VmHWM), since it was executed


def stat(pid: int) -> _Stat | None:
    """/proc/<pid>/stat and the memory lines of /proc/<pid>/status, or None
    when the process is gone.  Memory is ``RssAnon + RssShmem``: the pages of
    the program and its libraries, shared with every other process, are not
    charged, while shared anonymous memory (which ``RLIMIT_DATA`` misses) is."""
    data = _read(f"/proc/{pid}/stat")
    if not data:
        return None
    fields = data[data.rindex(b")") + 2 :].split()
    memory = hiwater = 0
    for line in _read(f"/proc/{pid}/status").splitlines():
        if line.startswith((b"RssAnon:", b"RssShmem:")):
            memory += int(line.split()[1]) * 1024
        elif line.startswith(b"VmHWM:"):
            hiwater = int(line.split()[1]) * 1024
    return _Stat(
        own=int(fields[11]) + int(fields[12]),
        children=int(fields[13]) + int(fields[14]),
        memory=memory,
        hiwater=hiwater,
    )


def _hiwater_self() -> int:
    """Bytes: this process's peak resident memory (``VmHWM``)."""
    for line in _read("/proc/self/status").splitlines():
        if line.startswith(b"VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def started(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot; None when it is gone."""
    data = _read(f"/proc/{pid}/stat")
    return int(data[data.rindex(b")") + 2 :].split()[19]) if data else None


def _uptime_ticks() -> int:
    """Clock ticks since boot, on the clock of ``started``."""
    return int(float(_read("/proc/uptime").split()[0]) * CLOCK)


def proportional(pid: int) -> int:
    """Bytes of anonymous and shared memory of ``pid``, each page divided
    among the processes that share it (slower to read than ``_stat``)."""
    memory = 0
    for line in _read(f"/proc/{pid}/smaps_rollup").splitlines():
        if line.startswith((b"Pss_Anon:", b"Pss_Shmem:")):
            memory += int(line.split()[1]) * 1024
    return memory


def children(pid: int) -> set[int]:
    """The direct children of ``pid`` (of all its threads)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return set()
    found: set[int] = set()
    for tid in tasks:
        found.update(int(child) for child in _read(f"/proc/{pid}/task/{tid}/children").split())
    return found


def _read(path: str) -> bytes:
    """The whole of a small /proc file; b"" when it is gone or unreadable."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    try:
        chunks = []
        while chunk := os.read(fd, _CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown signal"


def _size(count: int) -> str:
    """Bytes as a short human figure: "256 MiB", "1.5 KiB", "12 bytes"."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:.4g} {unit}"
    return f"{count} bytes"

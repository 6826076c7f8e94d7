"""The system calls a sandboxed bot (and a sandboxed compiler) may not make, in one place.

The sandbox (``arena/sandbox/bubblewrap.py``) hands bubblewrap this filter, compiled once
per process with libseccomp (``--seccomp FD``); bubblewrap installs it just
before it executes the sandbox's first process, the supervisor, so the
supervisor and every bot it starts run under it, and no process can remove it
(``no_new_privs`` is set, and a filter can only be added to, never taken away).

Everything is allowed but what is listed in ``DENIED``, which follows what
Flatpak and Docker refuse to untrusted code, for the same reasons.  A refused
call fails with an error number (``EPERM``, or ``ENOSYS`` where a program is
expected to fall back to an older call), never by killing the bot: a bot that
tries is told no and goes on, and it is judged on what it plays.

The filter is for the machine's own system call interface only: a call made
through another one (a 32-bit call from a 64-bit process on x86_64) kills
the process, as no rule here was written for it.
"""

from __future__ import annotations

import errno
import functools
import tempfile
from dataclasses import dataclass

from arena.errors import ArenaError

_NAMESPACES = {  # the clone flags that make a new namespace (CLONE_NEWTIME can be asked only of clone3)
    "CLONE_NEWNS": 0x00020000, "CLONE_NEWCGROUP": 0x02000000, "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000, "CLONE_NEWUSER": 0x10000000, "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
#: Calls added since Linux 5.1 have one number on every architecture: an older libseccomp that does
#: not know their names still gets them refused (else clone3 would slip past the clone rule).
_UNIFIED = {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
            "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "clone3": 435,
            "mount_setattr": 442}
_TIOCSTI, _TIOCLINUX = 0x5412, 0x541C
#: The personality bits a program may set: PER_LINUX32 and UNAME26 (Docker allows these values too).
#: Any other bit (ADDR_NO_RANDOMIZE among them) is refused, and so is 0xffffffff, which only asks which
#: personality is in force (as in Flatpak, which allows PER_LINUX alone).
_PERSONALITY_BITS = tuple(1 << bit for bit in range(32) if (1 << bit) not in (0x8, 0x20000))
#: Socket families a bot may open (Flatpak's list, less what a bot never needs); the others (raw packets,
#: Bluetooth, the kernel's crypto API, ...) are the kernel code a sandbox need not expose.  There is no
#: network in the sandbox anyway: these are for a bot's own local sockets.
_FAMILIES = (0, 1, 2, 10, 16)  # AF_UNSPEC, AF_UNIX, AF_INET, AF_INET6, AF_NETLINK


@dataclass(frozen=True)
class Rule:
    """A call refused (when ``arg`` is None), or refused when its argument ``arg`` matches."""

    calls: tuple[str, ...]
    error: int
    why: str
    arg: int | None = None  # which argument is compared
    op: str = "masked_eq"  # "masked_eq": (arg & mask) == value (mask 0: any of the bits set); "ne"
    mask: int = 0
    values: tuple[int, ...] = ()


DENIED: tuple[Rule, ...] = (
    Rule(("keyctl", "add_key", "request_key"), errno.EPERM,
         "the kernel's keyrings: the organiser's session keys, and a channel between bots of one uid"),
    Rule(("unshare", "setns"), errno.EPERM,
         "new namespaces: a user namespace gives a full set of capabilities inside it, and with them the "
         "kernel's whole namespace attack surface; setns would join another"),
    Rule(("clone",), errno.EPERM, "clone asking for a new namespace (an ordinary clone, fork or thread is allowed)",
         arg=0, values=tuple(_NAMESPACES.values())),
    Rule(("clone3",), errno.ENOSYS,
         "its flags are in memory, where a filter cannot look: refused as if the kernel had none, so that "
         "the C library falls back to clone, whose flags are checked"),
    Rule(("mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig",
          "fsmount", "fspick", "mount_setattr"), errno.EPERM,
         "changing what the sandbox's file system shows"),
    Rule(("ptrace", "process_vm_readv", "process_vm_writev", "kcmp"), errno.EPERM,
         "reading or steering another process (its PID namespace holds only itself and the supervisor, "
         "which is not dumpable; refused all the same, as Flatpak does)"),
    Rule(("perf_event_open",), errno.EPERM, "performance counters: a history of kernel bugs and side channels"),
    Rule(("bpf",), errno.EPERM, "loading programs into the kernel"),
    Rule(("userfaultfd",), errno.EPERM, "stalling the kernel in a page fault, a tool of many exploits"),
    Rule(("io_uring_setup", "io_uring_enter", "io_uring_register"), errno.EPERM,
         "io_uring: system calls no filter sees, and a history of kernel bugs (Docker refuses it too)"),
    Rule(("kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon",
          "swapoff", "acct", "quotactl", "syslog", "iopl", "ioperm", "uselib", "modify_ldt", "vhangup",
          "lookup_dcookie", "open_by_handle_at", "name_to_handle_at", "fanotify_init", "settimeofday",
          "clock_settime", "clock_adjtime", "adjtimex"), errno.EPERM,
         "the machine's own administration (most need a capability no bot has: refused before the kernel looks)"),
    Rule(("mbind", "migrate_pages", "move_pages", "set_mempolicy", "get_mempolicy"), errno.EPERM,
         "placing memory on NUMA nodes: of no use to a bot, and a reach into other processes' memory"),
    Rule(("personality",), errno.EPERM, "turning off address space randomisation (ADDR_NO_RANDOMIZE) and "
         "other emulations", arg=0, values=_PERSONALITY_BITS),
    Rule(("ioctl",), errno.EPERM, "typing into a terminal (TIOCSTI) or a virtual console's selection (TIOCLINUX)",
         arg=1, mask=0xFFFFFFFF, values=(_TIOCSTI, _TIOCLINUX)),
    Rule(("socket",), errno.EAFNOSUPPORT, "socket families other than local, IP and netlink", arg=0, op="ne",
         values=_FAMILIES),
)


class SeccompError(ArenaError):
    """The filter cannot be built here (a clear message, never a silent downgrade)."""


def _bindings():
    """libseccomp's Python bindings: Debian's python3-seccomp if this Python sees it, else pyseccomp."""
    try:
        import seccomp  # type: ignore[import-not-found]
    except ImportError:
        try:
            import pyseccomp as seccomp  # type: ignore[import-not-found]
        except (ImportError, RuntimeError) as exc:  # pyseccomp raises RuntimeError without libseccomp
            raise SeccompError(
                f"cannot build the sandbox's system call filter: {exc}. Install libseccomp (Debian and Ubuntu: "
                "apt-get install libseccomp2) and the Python package pyseccomp (pip install pyseccomp), "
                "or run with --no-seccomp to do without it") from None
    return seccomp


@functools.cache
def compiled() -> bytes:
    """The filter as a BPF program (what ``bwrap --seccomp FD`` reads), built once per process."""
    sc = _bindings()
    try:
        native = sc.system_arch()
        filter_ = sc.SyscallFilter(sc.ALLOW)
        try:  # a binary tree of the call numbers rather than a list: fewer instructions for every call
            filter_.set_attr(sc.Attr.CTL_OPTIMIZE, 2)
        except (AttributeError, OSError):
            pass  # libseccomp before 2.5: the list
        for rule in DENIED:
            for call in rule.calls:
                number = _number(sc, native, call)
                if number is None:
                    continue  # a call this architecture does not have
                for args in _conditions(sc, rule):
                    filter_.add_rule(sc.ERRNO(rule.error), number, *args)
        with tempfile.TemporaryFile() as handle:
            filter_.export_bpf(handle)
            handle.seek(0)
            return handle.read()
    except OSError as exc:
        raise SeccompError(f"cannot build the sandbox's system call filter on this machine: {exc}; run with "
                           "--no-seccomp to do without it") from None


def _number(sc, arch: int, call: str) -> int | None:
    try:
        number = sc.resolve_syscall(arch, call)
    except (ValueError, OSError):
        number = -1
    return number if isinstance(number, int) and number >= 0 else _UNIFIED.get(call)


def _conditions(sc, rule: Rule) -> list[tuple]:
    """One tuple of argument comparisons per libseccomp rule (the rules of a call are or-ed)."""
    if rule.arg is None:
        return [()]
    if rule.op == "masked_eq" and rule.mask == 0:  # any of these bits set
        return [(sc.Arg(rule.arg, sc.MASKED_EQ, bit, bit),) for bit in rule.values]
    if rule.op == "masked_eq":
        return [(sc.Arg(rule.arg, sc.MASKED_EQ, rule.mask, value),) for value in rule.values]
    # "ne" (small values): each value below the last listed that is not listed, and all past it
    allowed = set(rule.values)
    below = [(sc.Arg(rule.arg, sc.EQ, value),) for value in range(max(allowed)) if value not in allowed]
    return [*below, (sc.Arg(rule.arg, sc.GE, max(allowed) + 1),)]


def refused() -> list[str]:
    """Every call the filter refuses (some only for some arguments), for messages and the README."""
    return [call for rule in DENIED for call in rule.calls]


def keyctl_number() -> int | None:
    """This machine's number of the ``keyctl`` system call (to give a sandbox a new session keyring
    before it starts), or None if libseccomp is not to be had."""
    try:
        sc = _bindings()
        return int(sc.resolve_syscall(sc.system_arch(), "keyctl"))
    except (SeccompError, ValueError, OSError):
        return None

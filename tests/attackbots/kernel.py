# ruff: noqa: SIM115  (an attack bot: short on purpose)
"""An attack bot on what the kernel shares: keyrings, System V and POSIX IPC, new namespaces,
mounts, and the other calls a sandbox filter should refuse.

game.in holds one attack a line ("name argument"); game.out is a JSON object mapping each line to
what came of it: "ok ..." (it worked, with what it found) or "refused: ..." (the error).  Channels
between games or between bots are two attacks: one game writes ("shm-write MESSAGE"), a later game
or another bot reads ("shm-read")."""

import ctypes
import ctypes.util
import errno
import json
import mmap
import os
import platform

libc = ctypes.CDLL(None, use_errno=True)
rt = ctypes.CDLL(ctypes.util.find_library("rt") or None, use_errno=True)
#: System call numbers glibc has no wrapper for (x86_64, aarch64).
NUMBERS = {
    "x86_64": {"add_key": 248, "request_key": 249, "keyctl": 250, "perf_event_open": 298, "bpf": 321,
               "userfaultfd": 323, "clone3": 435, "open_tree": 428, "fsopen": 430, "io_uring_setup": 425},
    "aarch64": {"add_key": 217, "request_key": 218, "keyctl": 219, "perf_event_open": 241, "bpf": 280,
                "userfaultfd": 282, "clone3": 435, "open_tree": 428, "fsopen": 430, "io_uring_setup": 425},
}[platform.machine()]
SESSION, USER = -3, -4  # KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING
KEY = 0x4172656E  # "Aren": the System V key both sides agree on
CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC = 0x10000000, 0x00020000, 0x40000000, 0x08000000


class Refused(Exception):
    pass


def check(result: int) -> int:
    if result == -1:
        number = ctypes.get_errno()
        raise Refused(f"{errno.errorcode.get(number, number)}")
    return result


def syscall(name: str, *args) -> int:
    return check(libc.syscall(NUMBERS[name], *args))


def key_search(keyring: int, description: bytes) -> str:
    found = syscall("keyctl", 10, keyring, b"user", description, 0)  # KEYCTL_SEARCH
    buffer = ctypes.create_string_buffer(256)
    size = syscall("keyctl", 11, found, buffer, 256)  # KEYCTL_READ
    return buffer.raw[:size].decode(errors="replace")


def key_add(keyring: int, description: bytes, payload: bytes) -> str:
    return str(syscall("add_key", b"user", description, payload, len(payload), keyring))


def shm(write: str | None) -> str:
    ident = check(libc.shmget(KEY, 4096, (0o1000 | 0o600) if write is not None else 0))
    libc.shmat.restype = ctypes.c_void_p
    address = libc.shmat(ident, None, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise Refused(errno.errorcode.get(ctypes.get_errno(), "shmat"))
    if write is not None:
        ctypes.memmove(address, write.encode() + b"\0", len(write) + 1)
        return write
    return ctypes.string_at(address).decode(errors="replace")


def sem(write: str | None) -> str:
    if write is not None:
        ident = check(libc.semget(KEY, 1, 0o1000 | 0o600))
        check(libc.semctl(ident, 0, 16, ctypes.c_int(int(write))))  # SETVAL
        return write
    ident = check(libc.semget(KEY, 0, 0))
    return str(check(libc.semctl(ident, 0, 12)))  # GETVAL


class Message(ctypes.Structure):
    _fields_ = [("type", ctypes.c_long), ("text", ctypes.c_char * 128)]


def msg(write: str | None) -> str:
    ident = check(libc.msgget(KEY, (0o1000 | 0o600) if write is not None else 0))
    message = Message(1, (write or "").encode())
    if write is not None:
        check(libc.msgsnd(ident, ctypes.byref(message), 128, 0))
        return write
    check(libc.msgrcv(ident, ctypes.byref(message), 128, 0, 0o4000))  # IPC_NOWAIT
    return message.text.decode(errors="replace")


def mqueue(write: str | None) -> str:
    rt.mq_open.restype = ctypes.c_int
    if write is not None:
        queue = check(rt.mq_open(b"/arena-channel", os.O_CREAT | os.O_RDWR, 0o600, None))
        check(rt.mq_send(queue, write.encode(), len(write), 0))
        return write
    queue = check(rt.mq_open(b"/arena-channel", os.O_RDWR | os.O_NONBLOCK))
    buffer = ctypes.create_string_buffer(8192)
    size = check(rt.mq_receive(queue, buffer, 8192, None))
    return buffer.raw[:size].decode(errors="replace")


def file_channel(path: str, write: str | None) -> str:
    try:
        if write is not None:
            with open(path, "w") as handle:
                handle.write(write)
            return write
        return open(path).read()
    except OSError as exc:
        raise Refused(errno.errorcode.get(exc.errno, str(exc))) from None


def unshare(flags: int) -> str:
    check(libc.unshare(flags))
    status = open("/proc/self/status").read()
    return next(line.split()[1] for line in status.splitlines() if line.startswith("CapEff"))


def clone_newuser() -> str:
    pid = check(libc.syscall(56 if platform.machine() == "x86_64" else 220, CLONE_NEWUSER | 17, 0, 0, 0, 0))
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return f"child {pid}"


def mount_tmpfs() -> str:
    os.makedirs("/tmp/mnt", exist_ok=True)
    check(libc.mount(b"none", b"/tmp/mnt", b"tmpfs", 0, None))
    return "mounted"


def attack(name: str, argument: str) -> str:  # (one branch an attack)
    write = argument or None
    if name == "keyring-read":  # the organiser's session keyring, inherited
        return key_search(SESSION, argument.encode())
    if name == "keyring-plant":
        return key_add(SESSION, argument.encode(), b"planted by a bot")
    if name == "userkey-write":  # the keyring every process of this uid shares
        return key_add(USER, b"arena-channel", argument.encode())
    if name == "userkey-read":
        return key_search(USER, b"arena-channel")
    if name == "request-key":
        return str(syscall("request_key", b"user", b"arena-channel", None, 0))
    if name.startswith(("shm-", "sem-", "msg-", "mq-")):
        kind, _, side = name.partition("-")
        value = write if side == "write" else None
        return {"shm": shm, "sem": sem, "msg": msg, "mq": mqueue}[kind](value)
    if name.startswith("file-"):  # file-write PATH MESSAGE / file-read PATH
        path, _, message = argument.partition(" ")
        return file_channel(path, message if name == "file-write" else None)
    if name == "unshare-user":
        return unshare(CLONE_NEWUSER)
    if name == "unshare-net":
        return unshare(CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC)
    if name == "clone-newuser":
        return clone_newuser()
    if name == "clone3":
        return str(syscall("clone3", None, 0))
    if name == "mount":
        return mount_tmpfs()
    if name == "open_tree":
        return str(syscall("open_tree", -100, b"/", 1))  # OPEN_TREE_CLONE
    if name == "fsopen":
        return str(syscall("fsopen", b"tmpfs", 0))
    if name == "setns":
        return str(check(libc.setns(os.open("/proc/self/ns/net", os.O_RDONLY), 0)))
    if name == "perf_event_open":
        attr = (ctypes.c_uint32 * 32)(1, 128)  # PERF_TYPE_SOFTWARE, size
        return str(syscall("perf_event_open", attr, 0, -1, -1, 0))
    if name == "bpf":
        return str(syscall("bpf", 0, ctypes.create_string_buffer(128), 128))  # BPF_MAP_CREATE
    if name == "userfaultfd":
        return str(syscall("userfaultfd", 0))
    if name == "io_uring":
        return str(syscall("io_uring_setup", 1, ctypes.create_string_buffer(120)))
    if name == "personality":  # ADDR_NO_RANDOMIZE: turn off ASLR for what it executes
        check(libc.personality(0x0040000))
        return hex(libc.personality(0xFFFFFFFF))
    if name == "tiocsti":  # push a character into a terminal's input (stdin is /dev/null: ENOTTY unless refused first)
        return str(check(libc.ioctl(0, 0x5412, ctypes.byref(ctypes.c_char(b"x")))))
    if name == "ptrace":
        return str(check(libc.ptrace(16, 1, None, None)))  # PTRACE_ATTACH to the supervisor
    if name == "mountinfo":
        return open("/proc/self/mountinfo").read()
    if name == "anonymous-memory":  # (a control: ordinary calls keep working)
        return str(len(mmap.mmap(-1, 4096)))
    raise Refused(f"unknown attack {name!r}")


found = {}
for line in open("game.in"):
    name, _, argument = line.strip().partition(" ")
    if name:
        try:
            found[line.strip()] = f"ok {attack(name, argument)}"
        except (Refused, OSError) as exc:
            found[line.strip()] = f"refused: {exc}"
open("game.out", "w").write(json.dumps(found))

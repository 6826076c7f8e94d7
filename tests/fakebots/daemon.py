"""Starts a process that outlives the bot, writes game.out and exits 0.

Modes (argument 1):
  sleep       double fork + setsid; the daemon sleeps
  spin        double fork + setsid; the daemon burns CPU
  clean-exec  double fork + setsid; the daemon execs `sleep` with an empty environment
  pgid        a child moves to a process group of its own and sleeps
Argument 2 (optional): seconds the bot itself lingers before exiting.
The daemon's pid is written to daemon.pid before the bot exits."""

import os
import sys
import time

MODE = sys.argv[1]
LINGER = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0


def announce() -> None:
    with open("daemon.tmp", "w") as out:
        out.write(str(os.getpid()))
    os.rename("daemon.tmp", "daemon.pid")


def daemon() -> None:
    announce()
    if MODE == "spin":
        while True:
            pass
    if MODE == "clean-exec":
        os.execve("/bin/sleep", ["sleep", "1000"], {})
    time.sleep(1000)


if MODE == "pgid":
    if os.fork() == 0:
        os.setpgid(0, 0)
        daemon()
elif os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        daemon()
    os._exit(0)
else:
    os.wait()
while not os.path.exists("daemon.pid"):
    time.sleep(0.001)
time.sleep(LINGER)
with open("game.out", "w") as out:
    out.write("played\n")

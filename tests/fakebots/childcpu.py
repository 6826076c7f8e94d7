"""A child burns CPU while the bot waits; then the bot writes game.out.

Argument 1: CPU seconds the child burns.  Mode "unreaped" (argument 2): the
bot ignores SIGCHLD, so its children are reaped by the kernel and their CPU
never reaches the bot's rusage; six children share the work one after
another, so no two of them ever hold much CPU at one time."""

import os
import signal
import sys
import time


def burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    os._exit(0)


seconds = float(sys.argv[1])
if sys.argv[2:] == ["unreaped"]:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for _ in range(6):
        if os.fork() == 0:
            burn(seconds / 6)
        time.sleep(seconds / 6 + 0.05)
else:
    pid = os.fork()
    if pid == 0:
        burn(seconds)
    os.waitpid(pid, 0)
with open("game.out", "w") as out:
    out.write("done\n")

# ruff: noqa: SIM115  (an attack bot: short on purpose)
"""An attack bot: its children burn CPU and are reaped by the kernel on their own
(SIGCHLD ignored), so their CPU never reaches the parent's rusage; the parent idles
until each has told it, through a pipe, that it is done."""

import os
import signal
import time

signal.signal(signal.SIGCHLD, signal.SIG_IGN)
done_r, done_w = os.pipe()
for _ in range(8):
    if os.fork() == 0:
        end = time.process_time() + 0.2
        while time.process_time() < end:
            pass
        os.write(done_w, b"x")
        os._exit(0)
    os.read(done_r, 1)
open("game.out", "w").write("done\n")

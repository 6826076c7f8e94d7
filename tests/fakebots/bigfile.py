"""Writes 4 MiB to game.out.

Python ignores SIGXFSZ, so by default the write fails with EFBIG; mode
"signal" restores the default action first, as a C program has it."""

import signal
import sys

if sys.argv[1:] == ["signal"]:
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
with open("game.out", "w") as out:
    out.writelines("x" * 1024 for _ in range(4 * 1024))

"""Allocates memory without end.

Modes: "one" (default) grows one process until allocation fails;
"tree" starts 8 children that each hold 16 MiB (under a per-process
limit of 100 MiB, over it together) and sleeps."""

import os
import sys
import time


def grow() -> None:
    blocks = []
    while True:
        blocks.append(b"\x01" * 2**20)


def hold(mib: int) -> None:
    block = b"\x01" * (mib * 2**20)
    time.sleep(1000)
    print(len(block))


if sys.argv[1:] == ["tree"]:
    for _ in range(8):
        if os.fork() == 0:
            hold(16)
    time.sleep(1000)
else:
    grow()

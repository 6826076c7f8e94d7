"""Leaves a FIFO named game.out: reading it naively would block forever."""

import os

os.mkfifo("game.out")

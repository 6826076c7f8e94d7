"""Prints 8 MiB to stdout and 8 MiB to stderr, then plays fine."""

import sys

line = "y" * 1023 + "\n"
for _ in range(8 * 1024):
    sys.stdout.write(line)
    sys.stderr.write(line)
with open("game.out", "w") as out:
    out.write("done\n")

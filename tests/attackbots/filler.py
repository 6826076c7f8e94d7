# ruff: noqa: SIM115  (an attack bot: short on purpose)
"""An attack bot: fills its folder (or the path in game.in) with 1 MiB files until a write fails."""

import os

where = open("game.in").read().strip() or "."
for number in range(10_000):
    try:
        with open(os.path.join(where, f"fill{number}"), "wb") as handle:
            handle.write(b"x" * (2**20 - 1))
    except OSError:
        break
open("game.out", "w").write(f"{number}\n")

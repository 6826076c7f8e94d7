"""A Connect Four bot that drops into a random column that is not full (it reads only the grid)."""

import random
from pathlib import Path


def main() -> None:
    lines = Path("game.in").read_text().split("\n")
    rows = int(lines[0].split()[0])
    top = lines[2]  # the top row of the grid: a column is open while its top cell is empty
    assert len(lines) >= 2 + rows
    open_columns = [col for col, cell in enumerate(top) if cell == "."]
    Path("game.out").write_text(f"{random.choice(open_columns) + 1}\n")


if __name__ == "__main__":
    main()

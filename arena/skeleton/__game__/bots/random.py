"""A bot of __game__ that adds a random legal amount."""

import random
from pathlib import Path


def main() -> None:
    target, most, total = map(int, Path("game.in").read_text().split())
    Path("game.out").write_text(f"{random.randint(1, min(most, target - total))}\n")


if __name__ == "__main__":
    main()

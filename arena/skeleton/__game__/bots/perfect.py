"""A bot of __game__ that cannot lose a won race: it leaves the rest a multiple of MOST + 1
(the opponent then can never reach it first), else adds 1 and waits for a mistake.
It reads game.in with the game's own rules module, as a bot may."""

from pathlib import Path

from __game__.rules import parse_game_in


def main() -> None:
    state = parse_game_in(Path("game.in").read_text())
    rest = (state.target - state.total) % (state.most + 1)
    Path("game.out").write_text(f"{rest or 1}\n")


if __name__ == "__main__":
    main()

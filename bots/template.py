"""A template bot for the painting game: copy it, rename it, make it smarter.

The arena starts this program once per move, in a folder of its own that
holds ``game.in``: the board size N, then N rows of N tokens, ``#`` (empty),
``B`` (painted) or a number.  The program must write ``game.out``: the count k
of cells it paints, then k lines ``x y`` (row, then column, from 0).  A legal
move paints exactly one number v and v - 1 empty cells, all connected, none
painted and none beside a painted cell (docs/rules.md, paint).

It reuses the referee's rules (``referees.paint``) instead of copying them;
``players.paint`` has more (candidate regions, an exact solver).
"""

from pathlib import Path

from referees.paint import parse_board, playable_numbers, regions


def main() -> None:
    # Read the position.  Cells are numbered row by row: index = x * N + y.
    state = parse_board(Path("game.in").read_text())

    # The arena only asks when a legal move exists, so there is a paintable number.
    # Choose well here: this template simply takes the first one...
    number = playable_numbers(state)[0]

    # ...and the first legal region around it (a set of cell indices).
    cells = next(regions(state, number))

    # Write the move: the count, then one "x y" line per cell.
    lines = [str(len(cells))] + [f"{i // state.n} {i % state.n}" for i in sorted(cells)]
    Path("game.out").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

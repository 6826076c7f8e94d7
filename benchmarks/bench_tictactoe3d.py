"""The tic-tac-toe 3D judge is linear in a case's moves.

Times one case of p moves all dropped into one column (the worst case for a
judge that copies the position at each move) for p = 10,000 and 80,000, and
prints the ratio of their times against the ratio of their sizes (8: linear;
64: quadratic).  Usage: python benchmarks/bench_tictactoe3d.py
"""

from __future__ import annotations

import time

from referees.tictactoe3d import judge_cases


def seconds(p: int) -> float:
    text = f"4 4 {p}\n" + "1 1\n" * p + "0 0 0\n"
    started = time.perf_counter()
    assert list(judge_cases(text)) == ["Draw"]
    return time.perf_counter() - started


def main() -> None:
    small, large = seconds(10_000), seconds(80_000)
    print(f"10,000 moves: {small:.2f} s; 80,000 moves: {large:.2f} s ({large / 80_000 * 1e6:.0f} us a move)")
    print(f"time ratio {large / small:.1f} for 8 times the moves (linear: 8, quadratic: 64)")


if __name__ == "__main__":
    main()

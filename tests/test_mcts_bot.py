"""The C++ Monte Carlo tree search paint bot (bots/mcts): it compiles, and on a few
boards it writes a legal move, finds a win in one, and stops well within the CPU limit."""

from __future__ import annotations

import resource
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "bots" / "mcts" / "main.cpp"

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mcts") / "mcts"
    subprocess.run(["g++", "-O2", "-std=c++17", "-o", str(out), str(SOURCE)], check=True)
    return out


def parse(text: str) -> list[list[str]]:
    tokens = text.split()
    n = int(tokens[0])
    return [tokens[1 + r * n: 1 + (r + 1) * n] for r in range(n)]


def neighbours(n: int, x: int, y: int):
    for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= a < n and 0 <= b < n:
            yield a, b


def free(board: list[list[str]], x: int, y: int) -> bool:
    n = len(board)
    return board[x][y] != "B" and all(board[a][b] != "B" for a, b in neighbours(n, x, y))


def check(board: list[list[str]], cells: list[tuple[int, int]]) -> None:
    """The rules of a move (docs/rules.md, paint), written out again."""
    n = len(board)
    assert cells and len(set(cells)) == len(cells)
    assert all(0 <= x < n and 0 <= y < n and free(board, x, y) for x, y in cells)
    numbers = [int(board[x][y]) for x, y in cells if board[x][y] != "#"]
    assert len(numbers) == 1 and numbers[0] == len(cells)
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for c in neighbours(n, *todo.pop()):
            if c in cells and c not in seen:
                seen.add(c)
                todo.append(c)
    assert len(seen) == len(cells)


def has_move(board: list[list[str]]) -> bool:
    n = len(board)
    for x in range(n):
        for y in range(n):
            if board[x][y] in ("#", "B") or not free(board, x, y):
                continue
            room, todo, seen = 1, [(x, y)], {(x, y)}
            while todo:
                for a, b in neighbours(n, *todo.pop()):
                    if (a, b) not in seen and board[a][b] == "#" and free(board, a, b):
                        seen.add((a, b))
                        todo.append((a, b))
                        room += 1
            if room >= int(board[x][y]):
                return True
    return False


def play(binary: Path, folder: Path, text: str, seconds: float = 0.1) -> tuple[list[tuple[int, int]], float]:
    """The bot's move and CPU time; it thinks for `seconds` (0.6 s, its own limit, at most)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.in").write_text(text)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {"PATH": "/usr/bin:/bin", "MCTS_SECONDS": str(seconds)}
    subprocess.run([str(binary)], cwd=folder, env=env, check=True, capture_output=True, timeout=10)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    tokens = [int(t) for t in (folder / "game.out").read_text().split()]
    assert len(tokens) == 1 + 2 * tokens[0]
    return [(tokens[1 + 2 * i], tokens[2 + 2 * i]) for i in range(tokens[0])], cpu


AFTER_TWO_MOVES = """5
# # # # #
# # 3 B #
# # # # B
2 1 # B B
# # # B B
"""


@pytest.mark.parametrize("board", ["boards/group1/board1.in", "boards/group2/board2.in", "after-two-moves", "one"])
def test_legal_move(binary: Path, tmp_path: Path, board: str) -> None:
    text = {"after-two-moves": AFTER_TWO_MOVES, "one": "1\n1\n"}.get(board) or (ROOT / board).read_text()
    cells, _ = play(binary, tmp_path, text)
    check(parse(text), cells)


def test_stops_in_time_on_a_big_board(binary: Path, tmp_path: Path) -> None:
    text = (ROOT / "boards/group3/board3.in").read_text()
    cells, cpu = play(binary, tmp_path, text, seconds=1.0)  # its own limit, 0.6 s
    check(parse(text), cells)
    assert 0.4 < cpu < 0.8


def test_wins_at_once_when_it_can(binary: Path, tmp_path: Path) -> None:
    # the source's example game after two moves: every move now leaves no move
    # (and one number, the 3, can never be painted: a win, not a draw)
    board = parse(AFTER_TWO_MOVES)
    cells, _ = play(binary, tmp_path, AFTER_TWO_MOVES)
    check(board, cells)
    for x, y in cells:
        board[x][y] = "B"
    assert not has_move(board)

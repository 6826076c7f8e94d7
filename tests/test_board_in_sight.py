"""Every shipped board of every installed game, in a real Chromium: the replay page of a random
game on it, at a late step, shows the whole board (every grid, with its coordinates) and the top of
the move panel without scrolling on a 1400×1000 window, and is never wider than a 700×900 one.

The games are played through the referee (``arena.conformance.random_game``, every move checked) and
drawn as the report draws them (its replay page, with the game's legend); no tournament is run.
One page of the module's browser opens them all, one page load per board and size.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from arena import conformance, games, replay, views
from arena.boards import board_name, find_boards, load_board
from arena.report import replay_page

#: A one-shot game's plan is cut to this many lines (match-3's 1,000 swaps on a 50×50 board take
#: seconds to replay; the board, what is checked here, is the same).
PLAN_LINES = 60


def _shipped() -> list[tuple[str, Path]]:
    """(game, board file) for every board file in every board folder (and its subfolders) of every
    installed game."""
    found = []
    for name, entry in sorted(games.installed().items()):
        for folder in entry.paths("boards"):
            found += [(name, path) for path in find_boards([str(folder)], recursive=True)]
    return found


SHIPPED = _shipped()


def _game(name: str, path: Path) -> replay.Replay:
    """A random legal game on the board, replayed as the report replays a recorded one."""
    referee = games.get(name).referee()
    _, state = load_board(referee, path)  # (with the files the game keeps beside its boards: words.txt)
    moves, end = conformance.random_game(referee, state, random.Random(2026))
    if referee.protocol == "one-shot":
        moves, end = _short_plan(referee, state, moves, end)
    seats = ["first", "second"][:referee.players]
    return replay.replay(referee, state, conformance.record_of(referee, moves, end, seats))


def _short_plan(referee: Any, state: Any, moves: list[tuple[int, str]], end: Any) -> tuple[list, Any]:
    """The plan's first ``PLAN_LINES`` lines, where the referee takes them as a plan."""
    ((seat, text),) = moves
    lines = text.splitlines(keepends=True)
    if len(lines) <= PLAN_LINES:
        return moves, end
    cut = "".join(lines[:PLAN_LINES])
    move = referee.parse(state, cut)
    referee.check(state, move)
    after = referee.outcome(referee.apply(state, move))
    assert after is not None, "a one-shot game ends after its plan"
    return [(seat, referee.move_text(move))], after


def _late_step(game: replay.Replay) -> int:
    """The step of the last third of the game that draws the most grids (the latest of those)."""
    steps = game.steps
    return max(range(len(steps) * 2 // 3, len(steps)), key=lambda k: (len(steps[k].frame.grids), k))


@pytest.fixture(scope="module")
def page(browser: Any):
    """One page for every board; the errors it raises are collected in ``page.errors``."""
    opened = browser.new_page(viewport={"width": 1400, "height": 1000})
    opened.errors = []
    opened.on("pageerror", lambda exc: opened.errors.append(str(exc)))
    yield opened
    opened.close()


#: Resolves once the window's resize events are handled and the page is drawn again.
NEXT_FRAMES = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"

#: Where every grid (with its labels), the panel's top and the page's size are, in the window.
MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {top: r.top, left: r.left, bottom: r.bottom, right: r.right}; };
  return {
    step: window.replay.step(),
    scroll: [window.scrollX, window.scrollY],
    window: [window.innerWidth, window.innerHeight],
    page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    grids: [...document.querySelectorAll('.framed')].map((f) => {
      const g = f.querySelector('.grid');
      return {framed: box(f), grid: box(g), cells: g.children.length,
              cols: getComputedStyle(g).gridTemplateColumns.split(' ').length,
              rows: [...f.querySelectorAll('.lab.row')].map((l) => l.textContent),
              columns: [...f.querySelectorAll('.lab.col')].map((l) => l.textContent),
              cell: parseFloat(getComputedStyle(g).getPropertyValue('--cell'))};
    }),
    panel: box(document.querySelector('.panel')),
  };
}"""


@pytest.mark.parametrize(("name", "path"), SHIPPED, ids=[f"{n}:{board_name(p)}" for n, p in SHIPPED])
def test_the_whole_board_is_in_sight_at_1400x1000(page: Any, tmp_path: Path, name: str, path: Path) -> None:
    game = _game(name, path)
    file = tmp_path / "replay.html"
    file.write_text(replay_page(game, legend=views.legend(name), back="../index.html"), encoding="utf-8")
    step = _late_step(game)
    shots = os.environ.get("ARENA_SCREENSHOTS")  # to look at them: ARENA_SCREENSHOTS=folder
    page.errors.clear()

    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{file.as_uri()}#{step}")
    page.wait_for_selector(".grid")
    seen = page.evaluate(MEASURE)
    if shots:
        page.screenshot(path=str(Path(shots) / f"{name}-{board_name(path).replace('/', '-')}-1400x1000.png"))
    where = f"{name} {path} step {step}: {seen}"
    assert seen["step"] == step and seen["scroll"] == [0, 0], where
    assert len(seen["grids"]) == len(game.steps[step].frame.grids) > 0, where
    for grid in seen["grids"]:
        # the whole grid and its labels, inside the window
        for part in ("framed", "grid"):
            box = grid[part]
            assert box["top"] >= 0 and box["left"] >= 0, where
            assert box["bottom"] <= 1000 and box["right"] <= 1400, where
        # coordinates: a label per row and per column, counted as the game counts
        rows = -(-grid["cells"] // grid["cols"])
        assert len(grid["rows"]) == rows and len(grid["columns"]) == grid["cols"], where
        first = int(grid["columns"][0])
        assert grid["columns"] == [str(first + c) for c in range(grid["cols"])], where
        assert grid["rows"] == [str(first + r) for r in range(rows)], where
    # the move panel starts in sight: beside the board, or under a small one
    assert 0 <= seen["panel"]["top"] < 1000 / 2, where

    page.set_viewport_size({"width": 700, "height": 900})
    page.evaluate(NEXT_FRAMES)  # (the page redraws itself on the resize event)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 700, f"{name} {path}: the page is {wide} px wide in a 700 px window"
    if shots:
        page.screenshot(path=str(Path(shots) / f"{name}-{board_name(path).replace('/', '-')}-700x900.png"),
                        full_page=True)
    assert page.errors == []


def test_every_shipped_board_is_checked() -> None:
    """Every installed game has its boards above, those of its board folders' subfolders too."""
    counted = {name: sum(1 for n, _ in SHIPPED if n == name) for name in games.installed()}
    assert all(counted.values()), counted
    assert any(path.parent not in games.get(name).paths("boards") for name, path in SHIPPED)

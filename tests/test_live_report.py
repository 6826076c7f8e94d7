"""The live report (``arena run --report``, ``arena match --report``): real tournaments, sandboxed.

The browser test opens the index while a tournament runs, sees it reload itself
with more games played and a new game's replay open, then interrupts the run
and sees the report made final.  Every wait is bounded.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena import report
from tests.test_replay import PAINT_BOARD

ROOT = Path(__file__).resolve().parent.parent

# Random legal paint moves, each after a pause (wall time, not CPU): games last a few seconds.
SLOW = """
    import random, time
    from referees.paint import PaintReferee
    time.sleep(0.5)
    referee = PaintReferee()
    state = referee.load(open("game.in").read())
    open("game.out", "w").write(referee.move_text(referee.random_move(state, random.Random())))
"""


def _setup(tmp_path: Path, boards: int) -> list[str]:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "slow.py").write_text(textwrap.dedent(SLOW).lstrip())
    shutil.copy(ROOT / "bots" / "greedy.py", tmp_path / "bots" / "greedy.py")
    (tmp_path / "boards").mkdir()
    for k in range(boards):
        (tmp_path / "boards" / f"b{k}.in").write_text(textwrap.dedent(PAINT_BOARD).lstrip())
    return ["--bots", "bots/slow.py", "bots/greedy.py", "--boards", "boards", "--results", "results",
            "--name", "live", "--jobs", "1"]


def _arena(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "arena.cli", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _until(what: str, check, timeout: float):
    """Poll ``check`` until it returns something true, at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.2)
    pytest.fail(f"waited {timeout:g} s for {what}")


def _played(text: str) -> int:
    return int(re.search(r"(\d+) of \d+ games played", text).group(1))


def test_a_finished_run_leaves_a_final_report_with_every_replay(tmp_path: Path) -> None:
    options = _setup(tmp_path, 1)
    (tmp_path / "bots" / "slow.py").write_text((tmp_path / "bots" / "slow.py").read_text().replace("0.5", "0"))
    run = _arena("run", *options, "--report", cwd=tmp_path)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    folder = tmp_path / "results" / "live" / "report"
    assert "live report: " in err
    index = (folder / "index.html").read_text()
    assert "2 of 2 games played" in index and "finished" in index and 'http-equiv="refresh"' not in index
    assert len(list((folder / "games").iterdir())) == 2
    assert len(list((folder / "bots").iterdir())) == 2 and len(list((folder / "pairs").iterdir())) == 1
    # a report folder that cannot be made is a clear message, not a traceback
    (tmp_path / "file").write_text("")
    bad = _arena("run", *options, "--report", "file/report", cwd=tmp_path)
    _, err = bad.communicate(timeout=120)
    assert bad.returncode == 2 and "--report: cannot write the report into 'file/report'" in err
    assert "Traceback" not in err


def test_the_live_index_reloads_itself_while_a_real_tournament_runs(tmp_path: Path, browser) -> None:
    options = _setup(tmp_path, 15)  # 30 games of a second or more each, one at a time: a minute at least
    report_dir = tmp_path / "results" / "live" / "report"
    run = _arena("run", *options, "--report", cwd=tmp_path)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page = None
    try:
        index = report_dir / "index.html"
        _until("the index", index.exists, 60)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(index.as_uri())
        header = page.text_content("header")
        assert "running" in header and "running" in page.text_content("#badge")
        first = _played(header)

        def more_games() -> str | None:  # the page reloads itself: no goto here
            try:
                text = page.text_content("header", timeout=2000)
            except Exception:  # noqa: BLE001 (the page is between two loads)
                return None
            return text if text and _played(text) > first and "left" in text else None
        header = _until("the index to reload itself with more games", more_games,
                        report.RELOAD * 2 + 40)
        assert re.search(r"\d+ of 30 games played · running: [0-9:]+ elapsed, about [0-9:]+ left", header)
        for width, height in ((1400, 1000), (700, 900)):
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(shots / f"live-index-{width}x{height}.png"), full_page=True)
        page.set_viewport_size({"width": 1400, "height": 1000})
        # the latest game's replay is there
        link = page.get_attribute("h2:has-text('Latest games') + .scroll tbody tr:first-child td:last-child a",
                                  "href")
        page.goto((report_dir / link).as_uri())
        assert page.evaluate("window.replay.count") > 1
        # interrupted: the report is made final and says so
        run.send_signal(signal.SIGINT)
        run.communicate(timeout=60)
        page.goto(index.as_uri())
        header = page.text_content("header")
        assert "final" in page.text_content("#badge") and "interrupted; resume it with: arena run" in header
        assert page.locator("meta[http-equiv=refresh]").count() == 0
        played = _played(header)
        assert len(list((report_dir / "games").iterdir())) == played
        assert errors == []
    finally:
        if page is not None:
            page.close()
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 130
    if os.environ.get("ARENA_SCREENSHOTS"):  # to look at them: ARENA_SCREENSHOTS=folder
        shutil.copytree(shots, os.environ["ARENA_SCREENSHOTS"], dirs_exist_ok=True)


def test_the_live_report_reads_records_longer_than_its_chunk_whole(tmp_path: Path) -> None:
    # A record whose bots flooded their output runs to megabytes: the live report must take it whole
    # (a chunk without a newline once stalled it there for the rest of the run), and must not take
    # a line still being written.
    games = tmp_path / "games.jsonl"
    assert report.whole_lines(games, 0) == b""  # no game yet
    long, short = b'{"id": "' + b"x" * 3000 + b'"}\n', b'{"id": "y"}\n'
    games.write_bytes(long + short + b'{"id": "half')
    assert report.whole_lines(games, 0, size=1000) in (long, long + short)  # whole lines, never a part
    assert report.whole_lines(games, len(long), size=1000) == short
    assert report.whole_lines(games, 0, size=10_000) == long + short
    assert report.whole_lines(games, len(long + short), size=1000) == b""

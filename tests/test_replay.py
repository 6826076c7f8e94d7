"""Replays, reports and reruns of real tournaments, one of every game mode:
text replays against the referees' own states, the report in a real headless
Chromium (crosstable cell -> pair -> game, stepping, the board in the page
checked against the referee's state), and a screenshot of a replay per mode.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import playwright_chromium

from arena import games, replay
from arena.store import Store
from players import paint as players
from referees import crossword, match3, paint, threes
from referees.base import Referee

ROOT = Path(__file__).resolve().parent.parent

# An 8x8 painting board with eight numbers: short games that still take several moves.
PAINT_BOARD = """
    8
    2 # # # # # # 3
    # # # # # # # #
    # # 4 # # # # #
    # # # # # 5 # #
    # # # # # # # #
    # 3 # # # # # #
    # # # # # # 2 #
    4 # # # # # # 2
"""

# Plays random legal moves and talks on both streams (the replay shows both).
CHATTY = """
    import random, sys
    from referees.paint import PaintReferee
    referee = PaintReferee()
    state = referee.load(open("game.in").read())
    move = referee.random_move(state, random.Random())
    print(f"thinking about {len(move.cells)} cells")
    print("stderr line from chatty", file=sys.stderr)
    open("game.out", "w").write(referee.move_text(move))
"""
# Paints the top-left corner, a 2, as one cell: an illegal move on its first turn.
CHEATER = """
    print("I will paint (0, 0) alone")
    open("game.out", "w").write("1\\n0 0\\n")
"""


def _arena(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], check=False, cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def _tournament(base: Path, game: str, bots: list[Path], boards: list[Path], *extra: str) -> Path:
    run = _arena("run", "--game", game, "--bots", *map(str, bots), "--boards", *map(str, boards),
                 "--name", game, "--results", str(base / "results"), "--jobs", "2", *extra, cwd=base)
    assert run.returncode == 0, run.stderr
    return base / "results" / game


def _copy(source: Path, folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(source, folder / name))


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


@pytest.fixture(scope="module")
def tournaments(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small finished tournament of every game mode (tiny boards, fast bots)."""
    base = tmp_path_factory.mktemp("replays")
    bots, boards = base / "bots", base / "boards"
    found = {}
    paint_bots = [_write(bots / "paint" / "chatty.py", CHATTY), _write(bots / "paint" / "cheater.py", CHEATER),
                  _copy(ROOT / "bots/greedy.py", bots / "paint", "greedy.py")]
    found["paint"] = _tournament(base, "paint", paint_bots, [_write(boards / "paint" / "tiny.in", PAINT_BOARD)])
    ttt = [_copy(ROOT / "bots/tictactoe3d/random.py", bots / "ttt", name) for name in ("random.py", "lucky.py")]
    found["tictactoe3d"] = _tournament(base, "tictactoe3d", ttt, [_write(boards / "ttt" / "cube3.in", "3 3\n")])
    words = [_copy(ROOT / "bots/crossword/random.py", bots / "crossword", n) for n in ("random.py", "lucky.py")]
    for name in ("board1.in", "words.txt"):
        _copy(ROOT / "boards/crossword" / name, boards / "crossword", name)
    for game in ("crossword-pvp", "crossword-pve"):
        found[game] = _tournament(base, game, words, [boards / "crossword" / "board1.in"])
    solo = {"threes": ("bots/threes/random.py", "boards/threes/board1.in"),
            "match3": ("bots/match3/random.py", "boards/match3/board1.in")}
    for game, (bot, board) in solo.items():
        players = [_copy(ROOT / bot, bots / game, n) for n in ("random.py", "lucky.py")]
        found[game] = _tournament(base, game, players, [_copy(ROOT / board, boards / game, "board1.in")])
    assert set(found) == {name for name, game in games.installed().items() if game.package == "arena-tournaments"}
    return found


def _replays(folder: Path) -> list[replay.Replay]:
    store = Store.open_existing(folder)
    return [replay.load(store, record) for record in store.records()]


# ------------------------------------------------------------- referee's own view of a state
def referee_keys(game: str, state: Any) -> list[list[str]]:
    """Each grid of a state as the referee has it: the token of every cell, row-major."""
    if game == "paint":
        return [paint.board_text(state).split()[1:]]
    if game == "tictactoe3d":
        symbols = {0: ".", 1: "X", 2: "O"}
        n = state.n
        return [[symbols[state.ball(x, y, z)] for x in range(1, n + 1) for y in range(1, n + 1)]
                for z in range(1, n + 1)]
    if game.startswith("crossword"):
        return [list(state.cells)]
    if game == "threes":
        return [[threes.symbol(code) for code in state.cells]]
    assert game == "match3"
    return [[str(c) for c in state.colours]]


def referee_text(game: str, state: Any) -> str:
    """The referee's own rendering of a state, as the text replay must print it."""
    if game == "paint":
        return paint.board_text(state)
    if game.startswith("crossword"):
        return "\n".join(crossword.board_text(state).split("\n")[:crossword.SIZE]) + "\n"
    if game == "threes":
        return "\n".join(threes.grid_lines(state)) + "\n"
    if game == "match3":
        return match3.board_text(state)
    return "\n".join("".join(row) for row in referee_keys(game, state))


# ------------------------------------------------------------- text replays
@pytest.mark.parametrize("game", sorted(["paint", "tictactoe3d", "crossword-pvp", "crossword-pve", "threes",
                                         "match3"]))
def test_text_replay_prints_the_referees_state_after_every_move(tournaments: dict[str, Path], game: str) -> None:
    folder = tournaments[game]
    for game_replay in _replays(folder):
        record = game_replay.record
        out = _arena("replay", str(folder), record["id"], cwd=folder).stdout
        blocks = out.split("\n\n== ")
        assert len(blocks) == len(game_replay.steps) + 2  # title, steps, result
        for step, block in zip(game_replay.steps, blocks[1:]):
            if game == "tictactoe3d":
                drawn = [line.replace(" ", "") for line in block.split("\n") if set(line) <= set(".XO ") and line]
                layers = ["".join(row[z * state_n(step):(z + 1) * state_n(step)] for row in drawn)
                          for z in range(state_n(step))]
                assert layers == ["".join(k) for k in referee_keys(game, step.state)]
            elif step.frame.drawn:  # paint and match-3: the grids drawn, labelled, owners and marks shown
                assert drawn_keys(game, block)[-1:] == referee_keys(game, step.state)
            else:
                assert referee_text(game, step.state) in block + "\n"
        assert blocks[-1].startswith("result: ")
        assert replay.outcome_text(record) in blocks[-1]
        # the final state is the referee's own outcome
        referee = games.referee(record["game"])
        if not record.get("fault"):
            end = referee.outcome(game_replay.steps[-1].state if referee.players == 2 else
                                  _final(referee, game_replay))
            assert end is not None and end.reason == record["outcome"]["reason"]


def drawn_keys(game: str, block: str) -> list[list[str]]:
    """The grids a terminal replay drew (``replay.grid_text``), as the referee's tokens: a painted
    cell is B whoever painted it (X, O or B), an empty one # (.); a match-3 piece its colour (0: .)."""
    grids: list[list[str]] = []
    lines, k = block.split("\n"), 0
    while k < len(lines):
        if re.fullmatch(r" +\d+( +\d+)*", lines[k]) and k + 1 < len(lines) and re.match(r" *\d+ ", lines[k + 1]):
            cells: list[str] = []
            k += 1
            while k < len(lines) and re.match(r" *\d+ ", lines[k]):
                cells += re.findall(r"[^\s\[\]()!*]+", lines[k])[1:]
                k += 1
            grids.append(cells)
        else:
            k += 1
    if game == "paint":
        return [["B" if c in "XOB" else "#" if c == "." else c for c in grid] for grid in grids]
    return [["0" if c == "." else re.sub(r"\D", "", c) for c in grid] for grid in grids]


def state_n(step: replay.Step) -> int:
    return step.state.n


def _final(referee: Referee, game_replay: replay.Replay) -> Any:
    """A one-shot game's state after its plan, applied whole by the referee."""
    first = game_replay.steps[0].state
    entry = game_replay.record["moves"][0]
    return referee.apply(first, referee.parse(first, entry.get("move", entry["output"])))


def test_one_shot_steps_end_where_the_referee_ends(tournaments: dict[str, Path]) -> None:
    """Stepping through a plan operation by operation lands on the referee's whole-plan result."""
    for game in ("threes", "match3", "crossword-pve"):
        referee = games.referee(game)
        for game_replay in _replays(tournaments[game]):
            if game_replay.record.get("fault"):
                continue
            final = _final(referee, game_replay)
            assert referee_keys(game, game_replay.steps[-1].state) == referee_keys(game, final)


def test_replay_shows_faults_and_what_bots_printed(tournaments: dict[str, Path]) -> None:
    folder = tournaments["paint"]
    out = _arena("replay", str(folder), "--fault", cwd=folder)
    assert out.returncode == 0, out.stderr
    assert "cheater" in out.stdout and "illegal" in out.stdout
    assert "fault: " in out.stdout and "I will paint (0, 0) alone" in out.stdout
    chatty = _arena("replay", str(folder), "--board", "paint/tiny", "--seats", "chatty,greedy", cwd=folder)
    assert "stderr line from chatty" in chatty.stdout and "thinking about" in chatty.stdout
    records = Store.open_existing(folder).records()
    entry = next(m for r in records for m in r["moves"] if r["seats"][m["seat"]] == "chatty")
    assert entry["stdout"].startswith("thinking about") and entry["stderr"] == "stderr line from chatty\n"


def test_a_long_move_is_kept_whole_and_replays(tmp_path: Path) -> None:
    """game.out is cut in the record, the move itself is not: the replay plays all of it."""
    bot = _write(tmp_path / "long.py", "open('game.out', 'w').write('WASD' * 1000 + '\\n')\n")
    board = _copy(ROOT / "boards/threes/board1.in", tmp_path / "boards", "board1.in")
    folder = _tournament(tmp_path, "threes", [bot], [board])
    (record,) = Store.open_existing(folder).records()
    (entry,) = record["moves"]
    assert entry["move"] == "WASD" * 1000 + "\n" and entry["output"].endswith("... [2001 more characters]")
    (game_replay,) = _replays(folder)
    final = _final(games.referee("threes"), game_replay)
    assert final.moves > 10 and len(game_replay.steps) == 1 + final.moves


def test_replay_errors_name_what_is_wrong(tournaments: dict[str, Path]) -> None:
    folder = tournaments["paint"]
    several = _arena("replay", str(folder), cwd=folder)
    assert several.returncode == 2 and "games are recorded; name one" in several.stderr
    missing = _arena("replay", str(folder), "nope|a|b", cwd=folder)
    assert missing.returncode == 2 and "no recorded game has id 'nope|a|b'" in missing.stderr


def test_solve_values_every_move_and_marks_the_thrown_wins(tmp_path: Path) -> None:
    """``arena replay --solve``: greedy against itself on the 8x8 board (both decide the same way every
    time) throws the win at the first two moves. The values printed under each move are those of the
    Python solver (another implementation than the C++ engine ``arena solve`` uses) on the positions
    recomputed here from the board and the recorded moves."""
    bots = [_copy(ROOT / "bots/greedy.py", tmp_path / "bots", name) for name in ("greedy.py", "eager.py")]
    bots.append(_write(tmp_path / "bots" / "cheater.py", CHEATER))
    board = _write(tmp_path / "boards" / "tiny.in", PAINT_BOARD)
    folder = _tournament(tmp_path, "paint", bots, [board])
    record = next(r for r in Store.open_existing(folder).records() if r["seats"] == ["greedy", "eager"])
    out = _arena("replay", str(folder), record["id"], "--solve", "20", cwd=folder)
    assert out.returncode == 0, out.stderr
    states = [paint.parse_board(board.read_text())]
    for entry in record["moves"]:
        states.append(paint.apply_move(states[-1], paint.parse_move(entry["output"])))
    values = [players.python_solve_lines(states[k], 20)[0].split()[1] for k in range(len(states))]
    assert "unknown" not in values
    expected, thrown = [], []
    for k, entry in enumerate(record["moves"]):
        mover, other = record["seats"][entry["seat"]], record["seats"][1 - entry["seat"]]
        line = f"  solver: before this move a {values[k]} for {mover}; after it a {values[k + 1]} for {other}"
        if values[k] == "win" and values[k + 1] != "loss":
            line += f" ({mover} threw the win)"
            thrown.append(f"move {k + 1} by {mover} (a win)")
        expected.append(line)
    assert [line for line in out.stdout.splitlines() if line.startswith("  solver:")] == expected
    assert thrown[:2] == ["move 1 by greedy (a win)", "move 2 by eager (a win)"]
    assert out.stdout.endswith(f"== solver (20 s a position): {len(expected)} of {len(expected)} positions "
                               f"before a move settled\n  moves that threw a proven win or draw: {'; '.join(thrown)}\n")
    page = tmp_path / "solved.html"
    html = _arena("replay", str(folder), record["id"], "--solve", "20", "--html", str(page), cwd=folder)
    assert html.returncode == 0 and expected[0].strip() in page.read_text()
    # a refused move gets no value (it changes nothing), and a game without a solver says so
    fault = next(r for r in Store.open_existing(folder).records() if r["seats"] == ["greedy", "cheater"])
    assert [entry["verdict"] for entry in fault["moves"]] == ["ok", "illegal"]
    refused = _arena("replay", str(folder), fault["id"], "--solve", "20", cwd=folder)
    assert refused.returncode == 0, refused.stderr
    assert [line for line in refused.stdout.splitlines() if line.startswith("  solver:")] == [
        "  solver: before this move a win for greedy; after it a win for cheater (greedy threw the win)"]
    assert "positions before a move settled" in refused.stdout.split("== move 2: ")[1]
    ttt = [_copy(ROOT / "bots/tictactoe3d/random.py", tmp_path / "ttt", n) for n in ("random.py", "lucky.py")]
    cube = _tournament(tmp_path, "tictactoe3d", ttt, [_write(tmp_path / "cube" / "cube3.in", "3 3\n")])
    ttt_id = Store.open_existing(cube).records()[0]["id"]
    none = _arena("replay", str(cube), ttt_id, "--solve", "1", cwd=cube)
    assert none.returncode == 2 and "game 'tictactoe3d' has no solver (--solve works for: paint" in none.stderr


def test_input_gives_a_bot_what_it_read_and_it_moves_as_it_did(tournaments: dict[str, Path], tmp_path: Path) -> None:
    """``arena replay --input N --to DIR``: the files of the Nth move; greedy.py (which decides the
    same way every time on these small boards) run there again writes the move it was recorded
    writing, at every one of its moves."""
    folder = tournaments["paint"]
    record = next(r for r in Store.open_existing(folder).records() if r["seats"] == ["chatty", "greedy"])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    checked = 0
    for number, entry in enumerate(record["moves"], 1):
        if entry["seat"] != 1:
            continue
        moved = tmp_path / f"move{number}"
        out = _arena("replay", str(folder), record["id"], "--input", str(number), "--to", str(moved), cwd=folder)
        assert out.returncode == 0, out.stderr
        assert f"what greedy (seat 2) read at move {number} of game" in out.stdout
        assert sorted(p.name for p in moved.iterdir()) == ["game.in"]
        subprocess.run([sys.executable, str(ROOT / "bots/greedy.py")], cwd=moved, env=env, check=True, timeout=60)
        assert (moved / "game.out").read_text() == entry["output"], number
        checked += 1
    assert checked >= 2
    printed = _arena("replay", str(folder), record["id"], "--input", "1", cwd=folder)
    assert printed.returncode == 0 and printed.stdout == textwrap.dedent(PAINT_BOARD).lstrip().replace("\n\n", "\n")
    pvp = tournaments["crossword-pvp"]
    pvp_id = Store.open_existing(pvp).records()[0]["id"]
    words = _arena("replay", str(pvp), pvp_id, "--input", "2", "--to", str(tmp_path / "pvp"), cwd=pvp)
    assert words.returncode == 0, words.stderr
    assert sorted(p.name for p in (tmp_path / "pvp").iterdir()) == ["game.in", crossword.WORDS_FILE]
    alone = _arena("replay", str(pvp), pvp_id, "--input", "2", cwd=pvp)
    assert alone.stdout == (tmp_path / "pvp" / "game.in").read_text() and crossword.WORDS_FILE in alone.stderr
    beyond = _arena("replay", str(folder), record["id"], "--input", "999", cwd=folder)
    moves = len(record["moves"])
    assert beyond.returncode == 2 and f"are numbered 1 to {moves}: --input takes one of those, not 999" in beyond.stderr
    both = _arena("replay", str(folder), record["id"], "--input", "1", "--html", str(tmp_path / "r.html"), cwd=folder)
    assert both.returncode == 2 and "one or the other" in both.stderr and not (tmp_path / "r.html").exists()


def test_input_numbers_moves_as_the_replay_does(tmp_path: Path) -> None:
    """A tic-tac-toe board with an opening of two moves: the bots' first move is move 3, in the
    replay and for --input."""
    bots = [_copy(ROOT / "bots/tictactoe3d/random.py", tmp_path / "bots", n) for n in ("random.py", "lucky.py")]
    board = _copy(ROOT / "boards/tictactoe3d/board1.in", tmp_path / "boards", "board1.in")
    folder = _tournament(tmp_path, "tictactoe3d", bots, [board])
    record = Store.open_existing(folder).records()[0]
    shown = _arena("replay", str(folder), record["id"], cwd=folder)
    assert "after an opening of 2 moves" in shown.stdout and "== move 3: " in shown.stdout
    first = _arena("replay", str(folder), record["id"], "--input", "3", cwd=folder)
    referee = games.referee("tictactoe3d")
    assert first.returncode == 0 and first.stdout == referee.render(referee.load(board.read_text()), 0)["game.in"]
    early = _arena("replay", str(folder), record["id"], "--input", "2", cwd=folder)
    assert early.returncode == 2 and "are numbered 3 to " in early.stderr


def test_show_formats_csv_and_json(tournaments: dict[str, Path]) -> None:
    folder = tournaments["paint"]
    data = json.loads(_arena("show", str(folder), "--format", "json", cwd=folder).stdout)
    assert set(data["tables"]) == {"standings", "crosstable", "ratings", "per_board"}
    standings = data["tables"]["standings"]
    assert standings["headers"][:3] == ["#", "bot", "points"]
    assert sum(row[2] for row in standings["rows"]) == 3 * data["played"]
    csv = _arena("show", str(folder), "--format", "csv", "--table", "crosstable", cwd=folder).stdout
    assert csv.splitlines()[0] == "bot,chatty,cheater,greedy"
    solo = json.loads(_arena("show", str(tournaments["threes"]), "--format", "json", cwd=folder).stdout)
    assert list(solo["tables"]) == ["scores", "means"]
    bad = _arena("show", str(folder), "--format", "csv", "--table", "scores", cwd=folder)
    assert bad.returncode == 2 and "the tables are: standings, crosstable, ratings, per_board" in bad.stderr


def test_rerun_plays_the_game_again(tournaments: dict[str, Path], tmp_path: Path) -> None:
    folder = tournaments["paint"]
    record = next(r for r in Store.open_existing(folder).records() if r.get("fault"))
    out = _arena("rerun", str(folder), record["id"], "--keep", str(tmp_path / "kept"), cwd=folder)
    assert out.returncode == 0, out.stderr
    assert "illegal" in out.stdout and "== result now: " in out.stdout
    kept = tmp_path / "kept" / f"seat{record['fault']['seat']}-cheater"
    (move,) = kept.iterdir()  # the cheater's one move
    assert (move / "game.out").read_text() == "1\n0 0\n" and (move / "game.in").read_text().startswith("8\n")
    assert (move / "stdout.txt").read_text() == "I will paint (0, 0) alone\n"
    config = json.loads((folder / "tournament.json").read_text())
    cheater = Path(next(b["path"] for b in config["bots"] if b["name"] == "cheater"))
    original = cheater.read_text()
    try:
        cheater.write_text(original + "# changed\n")
        changed = _arena("rerun", str(folder), record["id"], cwd=folder)
        assert changed.returncode == 0, changed.stderr
        assert "bot 'cheater'" in changed.stderr and "playing the tournament's copy" in changed.stderr
        cheater.unlink()
        gone = _arena("rerun", str(folder), record["id"], cwd=folder)
        assert gone.returncode == 0, gone.stderr
        assert "is gone: playing the tournament's copy" in gone.stderr and "illegal" in gone.stdout
    finally:
        cheater.write_text(original)


def test_report_of_an_interrupted_tournament(tournaments: dict[str, Path], tmp_path: Path) -> None:
    """Two games on disk, one torn line after them: the report says so and shows those two."""
    folder = tmp_path / "results" / "cut"
    shutil.copytree(tournaments["paint"], folder)
    lines = (folder / "games.jsonl").read_text().splitlines(keepends=True)
    (folder / "games.jsonl").write_text("".join(lines[:2]) + lines[2][:40])
    built = _arena("report", str(folder), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    index = (folder / "report" / "index.html").read_text()
    assert "2 of 6 games played" in index and "interrupted or still running" in index
    assert len(list((folder / "report" / "games").iterdir())) == 2


# ------------------------------------------------------------- the report in a browser
def _browser() -> tuple[Any, str]:
    """(sync_playwright, Chromium's path), or the test skipped: for a test that launches its own
    browser (test_text's); the tests here use the module's ``browser`` fixture (conftest)."""
    return playwright_chromium()


def _page_keys(page: Any) -> list[list[str]]:
    return page.eval_on_selector_all(".grid", "gs => gs.map(g => [...g.querySelectorAll('.c')].map(c => c.dataset.k))")


def test_report_pages_of_games_whose_ids_look_alike_are_distinct() -> None:
    from arena.report import game_pages

    ids = ["a|b", "a-b", "a--b", "a b", "a|b ", "board/1|x|y", "board-1|x|y"]
    ids += [".hidden|x|y", "a~b", "a,b", "b/é|x|y", "x" * 300, "x" * 299 + "y"]
    pages = game_pages([{"id": game_id} for game_id in ids])
    assert len(set(pages.values())) == len(ids)
    # a name is made from the id alone (any process finds the page of a game, with no list of the others)
    assert pages["a|b"] == "games/a~b.html" and pages["a--b"] == "games/a--b.html"
    assert pages["board/1|x|y"] == "games/board,1~x~y.html" and pages[".hidden|x|y"] == "games/_2e_hidden~x~y.html"
    assert all(len(page.encode()) < 255 for page in pages.values())
    assert all(page.startswith("games/") and "/" not in page[len("games/"):] for page in pages.values())


def test_report_in_a_real_browser(tournaments: dict[str, Path], browser: Any, tmp_path: Path) -> None:
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        for game, folder in sorted(tournaments.items()):
            out = tmp_path / game
            built = _arena("report", str(folder), "--out", str(out), cwd=folder)
            assert built.returncode == 0, built.stderr
            _check_report(page, game, folder, out, shots)
        assert errors == []
    finally:
        page.close()
    expected = [f"{g}-{kind}-{size}.png" for g in tournaments for kind in ("report", "replay")
                for size in ("1400x1000", "700x900")]
    assert sorted(path.name for path in shots.iterdir()) == sorted(expected)
    if os.environ.get("ARENA_SCREENSHOTS"):  # to look at them: ARENA_SCREENSHOTS=folder
        shutil.copytree(shots, os.environ["ARENA_SCREENSHOTS"], dirs_exist_ok=True)


def _check_report(page: Any, game: str, folder: Path, out: Path, shots: Path) -> None:
    page.goto((out / "index.html").as_uri())
    assert "games played" in page.text_content("header")
    replays = {r.record["id"]: r for r in _replays(folder)}
    for size in ((1400, 1000), (700, 900)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.screenshot(path=str(shots / f"{game}-report-{size[0]}x{size[1]}.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 1000})
    # every table scrolls in its own box: the page itself is never wider than the window
    assert page.evaluate("document.documentElement.scrollWidth") <= 1400
    # bot names open the bot's page, which lists its games
    page.click("table.t td a[href^='bots/']")
    assert "/bots/" in page.url and "Its games" in page.text_content("main")
    page.go_back()
    # the list of every game sorts by a click on a header
    page.click("table.sortable th:nth-child(1)")
    page.click("table.sortable th:nth-child(1)")  # twice: descending
    boards = page.eval_on_selector_all("table.sortable tbody tr td:first-child", "tds => tds.map(t => t.textContent)")
    assert boards == sorted(boards, reverse=True)
    if games.referee(game).players == 2:
        page.click("table.t td a[href^='pairs/']")  # a crosstable cell: the games of that pair
        assert "/pairs/" in page.url
        page.click("table.t td a[href*='games/']")
    else:
        page.click("table.t td a[href^='games/']")  # a score cell opens its game
    assert "/games/" in page.url
    title = page.text_content("h1")
    game_replay = replays[title]
    steps = game_replay.steps
    assert page.evaluate("window.replay.count") == len(steps)
    forward = max(0, min(3, len(steps) - 2))  # room for one more step
    for _ in range(forward):
        page.keyboard.press("ArrowRight")
    page.click("#next")
    page.click("#prev")
    at = page.evaluate("window.replay.step()")
    assert at == forward
    _compare_board(page, game, steps[at])
    page.click("#last")
    _compare_board(page, game, steps[-1])
    page.locator("#slider").fill("1")  # the slider
    assert page.evaluate("window.replay.step()") == 1
    _compare_board(page, game, steps[1])
    page.click("#first")
    page.select_option("#speed", "150")
    page.click("#play")  # autoplay runs to the end and stops there
    page.wait_for_function(f"window.replay.step() === {len(steps) - 1}", timeout=len(steps) * 1000 + 5000)
    assert page.text_content("#play") == "▶ play"
    # the screenshot: the richest replay of this mode, at its busiest step
    best = max(replays.values(), key=lambda r: len(r.steps))
    late = len(best.steps) * 2 // 3
    busiest = max(range(len(best.steps)), key=lambda k: (len(best.steps[k].frame.grids), k <= late, k))
    for width, height in ((1400, 1000), (700, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto((out / _page_of(out, best.record["id"])).as_uri() + f"#{busiest}")
        page.wait_for_selector(".grid")
        # coordinates: a label per row and per column of every grid
        labels = page.eval_on_selector_all(".framed", "fs => fs.map(f => f.querySelectorAll('.lab').length)")
        grids = page.eval_on_selector_all(".grid", "gs => gs.map(g => [g.children.length, "
                                          "getComputedStyle(g).gridTemplateColumns.split(' ').length])")
        assert labels == [cells // cols + cols for cells, cols in grids]
        if width == 1400:  # the whole board and the move panel are in sight without scrolling
            bottom = page.evaluate("Math.max(...[...document.querySelectorAll('.grid')]"
                                   ".map(g => g.getBoundingClientRect().bottom))")
            assert bottom <= height, (game, bottom)
            assert page.evaluate("document.querySelector('.panel').getBoundingClientRect().top") < height / 2
        page.screenshot(path=str(shots / f"{game}-replay-{width}x{height}.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 1000})


def _page_of(out: Path, game_id: str) -> str:
    from arena.report import game_pages

    return game_pages([{"id": game_id}])[game_id]


def _compare_board(page: Any, game: str, step: replay.Step) -> None:
    """The page's grids hold the referee's state; match-3 draws the board just after
    the swap first, so there the state is its last grid (the board after every round)."""
    shown, keys = _page_keys(page), referee_keys(game, step.state)
    assert (shown[-1:] if game == "match3" else shown) == keys

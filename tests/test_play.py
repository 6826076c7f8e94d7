"""``arena play``: a person plays through the page in a real Chromium (clicks and keys), against a
sandboxed bot or alone; the refused moves, the saved plan and the record are checked against the referee."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from arena import games, replay
from arena.store import Store

ROOT = Path(__file__).resolve().parent.parent

# An 8x8 painting board with eight numbers (test_replay's): a game of several moves each.
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


class Played:
    """``arena play`` running in the background, its page's address read from its first line."""

    def __init__(self, tmp: Path, *args: str):
        env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
        self.process = subprocess.Popen([sys.executable, "-m", "arena.cli", "play", *args, "--results",
                                         str(tmp / "results"), "--name", "played", "--no-browser"],
                                        cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env=env)
        line = self.process.stdout.readline()
        assert line.startswith("play at http://127.0.0.1:"), line + self.process.stderr.read()
        self.address = line.split()[-1]
        self.folder = tmp / "results" / "played"

    def end(self) -> str:
        out, err = self.process.communicate(timeout=60)
        assert self.process.returncode == 0, err
        return out

    def record(self) -> dict[str, Any]:
        """The one record of the game, once the command has ended."""
        self.end()
        (record,) = Store(self.folder).records()
        return record


def _outcome(end: Any) -> dict[str, Any]:
    """A referee's ``Outcome`` as a record keeps it."""
    return {"winner": end.winner, "score": end.score, "reason": end.reason}


@pytest.fixture
def shots(tmp_path: Path) -> Any:
    folder = tmp_path / "screenshots"
    folder.mkdir()
    yield folder
    if os.environ.get("ARENA_SCREENSHOTS"):  # to look at them: ARENA_SCREENSHOTS=folder
        shutil.copytree(folder, os.environ["ARENA_SCREENSHOTS"], dirs_exist_ok=True)


def _keys(page: Any) -> list[str]:
    return page.eval_on_selector_all(".grid .c", "cs => cs.map(c => c.dataset.k)")


def _turn(page: Any, *wanted: str) -> str:
    page.wait_for_function(f"{list(wanted)}.includes(document.getElementById('turn').dataset.turn)",
                           timeout=30000)
    return page.get_attribute("#turn", "data-turn")


def _moves(page: Any, count: int, turn: str | None = None) -> dict[str, Any] | None:
    """Wait until the page shows ``count`` moves (and the ``turn``); the last of them."""
    page.wait_for_function(f"arenaPlay.state() && arenaPlay.state().replay.moves.length === {count}"
                           + (f" && arenaPlay.state().turn === '{turn}'" if turn else ""), timeout=30000)
    return page.evaluate("arenaPlay.state().replay.moves.at(-1) || null")


def _shoot(page: Any, shots: Path, name: str) -> None:
    for width, height in ((1400, 1000), (700, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_selector(".grid .c")
        page.screenshot(path=str(shots / f"{name}-{width}x{height}.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 1000})


def test_a_person_plays_paint_against_a_sandboxed_bot(tmp_path: Path, browser: Any, shots: Path) -> None:
    board = tmp_path / "board.in"
    board.write_text(textwrap.dedent(PAINT_BOARD).lstrip())
    played = Played(tmp_path, "paint", "--board", str(board), "--against", str(ROOT / "bots/random.py"))
    referee = games.referee("paint")
    state = referee.load(board.read_text())
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(played.address)
    assert _turn(page, "you") == "you" and "human" in page.text_content("header")
    # an illegal move: one empty cell, no number in it; refused with its rule, the board as it was
    before = _keys(page)
    page.click('.grid .sq[data-i="1"]')
    assert page.get_attribute('.grid .sq[data-i="1"] .c', "class").endswith("picked")
    page.keyboard.press("Enter")
    page.wait_for_selector("#refused:not([hidden])")
    assert page.text_content("#refused").startswith("refused: illegal: ") and _keys(page) == before
    page.keyboard.press("Escape")
    _shoot(page, shots, "paint-refused")
    rng, mine, done = random.Random(3), 0, 0
    while referee.outcome(state) is None:
        if referee.to_move(state) == 0:  # mine: a legal region, picked cell by cell and painted
            _moves(page, done, "you")
            move = referee.random_move(state, rng)
            for x, y in move.cells:
                page.click(f'.grid .sq[data-i="{x * state.n + y}"]')
            page.click("#controls button:text('paint')")
            mine += 1
        else:  # the bot's, from its sandbox: read from the page once it has moved
            entry = _moves(page, done + 1)
            assert entry["bot"] == "random" and entry["verdict"] == "ok"
            move = referee.parse(state, entry["output"])
        state = referee.apply(state, move)
        done += 1
    assert _turn(page, "over") == "over" and page.text_content("#turn").startswith("Result: ")
    _shoot(page, shots, "paint-over")
    assert errors == []
    out = played.end()
    (record,) = Store(played.folder).records()
    assert record["seats"] == ["human", "random"] and "recorded in" in out
    assert sum(1 for m in record["moves"] if m["seat"] == 0) == mine \
        and all(m["verdict"] == "ok" for m in record["moves"])
    end = referee.outcome(state)
    assert record["outcome"] == _outcome(end)
    # it replays through the referee
    assert replay.load(Store(played.folder), record).steps[-1].state == state
    shown = subprocess.run([sys.executable, "-m", "arena.cli", "show", str(played.folder)],
                           capture_output=True, text=True, check=False)
    assert shown.returncode == 0 and "human" in shown.stdout


def test_a_person_plays_threes_and_the_plan_is_saved_as_it_goes(tmp_path: Path, browser: Any,
                                                                shots: Path) -> None:
    board, plan = ROOT / "boards/threes/board1.in", tmp_path / "game.out"
    played = Played(tmp_path, "threes", "--board", str(board), "--out", str(plan))
    referee = games.referee("threes")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(played.address)
    _turn(page, "you")
    saved = []
    for key in ("ArrowUp", "d", "S", "ArrowRight", "a", "Backspace"):
        count = page.evaluate("arenaPlay.plan().trim().length")
        page.keyboard.press(key)
        page.wait_for_function("arenaPlay.plan().trim().length === "
                               f"{count + (-1 if key == 'Backspace' else 1)}")
        saved.append(plan.read_text())
    assert saved == ["W\n", "WD\n", "WDS\n", "WDSD\n", "WDSDA\n", "WDSD\n"]
    assert page.evaluate("window.arenaPlay.frame().label").startswith("move 4 of 4: D")
    # a plan the referee cannot read, typed as game.out: refused, the saved plan as it was
    page.fill("#text", "WDSX\n")
    page.click("#entry button")
    page.wait_for_selector("#refused:not([hidden])")
    assert "bad-output" in page.text_content("#refused") and plan.read_text() == "WDSD\n"
    page.locator("#slider").fill("2")  # step back through the operations played so far
    assert page.evaluate("window.arenaPlay.frame().label").startswith("move 2 of 4")
    _shoot(page, shots, "threes-plan")
    page.click("#finish")
    assert _turn(page, "over") == "over"
    _shoot(page, shots, "threes-over")
    assert errors == []
    record = played.record()
    state = referee.load(board.read_text())
    end = referee.outcome(referee.apply(state, referee.parse(state, plan.read_text())))
    assert record["seats"] == ["human"] and record["moves"][0]["output"] == "WDSD\n"
    assert record["outcome"]["score"] == end.score and json.loads(json.dumps(record)) == record


def _column(state: Any, move: Any) -> str:
    """The cell a click drops the move's ball or disc through: tic-tac-toe's column (x, y) on the
    bottom layer, Connect Four's column in its top row."""
    if hasattr(move, "x"):
        return f'.gridbox:first-child .sq[data-i="{(move.x - 1) * state.n + move.y - 1}"]'
    return f'.grid .sq[data-i="{move}"]'


@pytest.mark.parametrize(("game", "board", "bot", "refused"), [
    ("tictactoe3d", "boards/tictactoe3d/board1.in", "bots/tictactoe3d/random.py", "9 9\n"),
    ("connect4", "games/connect4/connect4/boards/board1.in", "games/connect4/connect4/bots/random.py",
     "99\n")])
def test_a_person_drops_into_columns_against_a_sandboxed_bot(tmp_path: Path, browser: Any, shots: Path,
                                                             game: str, board: str, bot: str,
                                                             refused: str) -> None:
    played = Played(tmp_path, game, "--board", str(ROOT / board), "--against", str(ROOT / bot), "--seat", "2")
    referee = games.referee(game)
    state = referee.load((ROOT / board).read_text())
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(played.address)
    rng, done = random.Random(5), 0
    while referee.outcome(state) is None:
        if referee.to_move(state) == 1:  # mine: seat 2
            _moves(page, done, "you")
            if done < 2:  # an illegal move first, as game.out text: refused, and the board as it was
                before = _keys(page)
                page.fill("#text", refused)
                page.click("#entry button")
                page.wait_for_selector("#refused:not([hidden])")
                assert page.text_content("#refused").startswith("refused: illegal: ") \
                    and _keys(page) == before
                _shoot(page, shots, f"{game}-refused")
            move = referee.random_move(state, rng)
            page.click(_column(state, move))
        else:
            entry = _moves(page, done + 1)
            assert entry["bot"] == "random" and entry["verdict"] == "ok"
            move = referee.parse(state, entry["output"])
        state = referee.apply(state, move)
        done += 1
    assert _turn(page, "over") == "over"
    _shoot(page, shots, f"{game}-over")
    assert errors == []
    record = played.record()
    end = referee.outcome(state)
    assert record["seats"] == ["random", "human"] and len(record["moves"]) == done
    assert record["outcome"] == _outcome(end)


def test_a_person_swaps_match3_pieces_by_clicks_and_the_plan_is_saved_as_it_goes(tmp_path: Path, browser: Any,
                                                                                  shots: Path) -> None:
    from referees.match3 import Game, Plan, Swap

    board, plan = ROOT / "boards/match3/board1.in", tmp_path / "game.out"
    played = Played(tmp_path, "match3", "--board", str(board), "--out", str(plan))
    referee = games.referee("match3")
    state = referee.load(board.read_text())
    m, q = state.m, state.q
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(played.address)
    _turn(page, "you")

    def cell(i: int) -> str:
        return f'.grid .sq[data-i="{i}"]'

    def picked() -> list[int]:
        return page.eval_on_selector_all(".grid .sq", "sqs => sqs.filter(s => s.firstChild.classList.contains"
                                                      "('picked')).map(s => Number(s.dataset.i))")

    def after(swaps: list[Swap]) -> Any:
        """The state the referee makes of the plan so far (its own parse and apply)."""
        return referee.apply(state, referee.parse(state, Plan(tuple(swaps)).to_text()))

    def board_after(swaps: list[Swap]) -> list[str]:
        return [str(c) for c in after(swaps).colours]  # as the page keys its cells

    # a pick is ringed; Escape unpicks it; a click on a piece not beside the picked one picks that instead
    page.click(cell(0))
    assert picked() == [0]
    page.keyboard.press("Escape")
    assert picked() == []
    page.click(cell(0))
    page.click(cell(2 * m + 2))
    assert picked() == [2 * m + 2]
    page.click(cell(2 * m + 2))  # the picked piece again: unpicked
    assert picked() == [] and not plan.exists()
    rng, swaps = random.Random(7), []
    for k in range(q):
        game = Game.of(after(swaps))
        pairs = list(game.adjacent_pairs())
        valid = [p for p in pairs if game.swap_is_valid(*p)]
        # the third: any pair (likely clearing nothing)
        a, b = rng.choice(pairs if k == 2 or not valid else valid)
        if rng.random() < 0.5:
            a, b = b, a
        page.click(cell(a))
        assert picked() == [a]
        page.click(cell(b))
        swaps.append(Swap(a // m + 1, a % m + 1, b // m + 1, b % m + 1))
        expected = Plan(tuple(swaps)).to_text()
        page.wait_for_function("text => arenaPlay.plan() === text", arg=expected, timeout=30000)
        assert plan.read_text() == expected and _keys(page) == board_after(swaps) and picked() == []
        if k == 3:  # Backspace takes the last swap back, and the saved plan with it; then it is played again
            page.keyboard.press("Backspace")
            page.wait_for_function("text => arenaPlay.plan() === text", arg=Plan(tuple(swaps[:-1])).to_text())
            assert plan.read_text() == Plan(tuple(swaps[:-1])).to_text() \
                and _keys(page) == board_after(swaps[:-1])
            page.click(cell(a))
            page.click(cell(b))
            page.wait_for_function("text => arenaPlay.plan() === text", arg=expected, timeout=30000)
            assert plan.read_text() == expected
    assert len(referee.parse(state, plan.read_text()).swaps) == q
    # one swap more than q: refused with the rule, the board and the saved plan as they were
    before, saved = _keys(page), plan.read_text()
    page.click(cell(0))
    page.click(cell(1))
    page.wait_for_selector("#refused:not([hidden])")
    assert page.text_content("#refused").startswith("refused: bad-output: ") \
        and f"q = {q}" in page.text_content("#refused")
    assert _keys(page) == before and plan.read_text() == saved and picked() == []
    # a piece picked, for the shots
    page.click(cell(next(i for i, c in enumerate(after(swaps).colours) if c)))
    _shoot(page, shots, "match3-refused")
    page.keyboard.press("Escape")
    page.click("#finish")
    assert _turn(page, "over") == "over"
    _shoot(page, shots, "match3-over")
    assert errors == []
    record = played.record()
    end = referee.outcome(after(swaps))
    assert record["seats"] == ["human"] and record["moves"][0]["output"] == Plan(tuple(swaps)).to_text()
    assert record["outcome"]["score"] == end.score
    shown = subprocess.run([sys.executable, "-m", "arena.cli", "show", str(played.folder)],
                           capture_output=True, text=True, check=False)
    assert shown.returncode == 0 and "human" in shown.stdout


def _type_action(page: Any, action: Any, words: str | None = None) -> None:
    """An action typed as a person would: each letter's cell clicked, the letter pressed; then the
    words claimed in their box (``words``: as given, else the action's own)."""
    for x, y, letter in action.fills:
        k = x * 20 + y
        if page.get_attribute(f'.grid .sq[data-i="{k}"] .c', "class").split().count("picked") == 0:
            page.click(f'.grid .sq[data-i="{k}"]')
        page.keyboard.press(letter.lower())
    page.fill("#words", " ".join(action.words) if words is None else words)


def test_a_person_types_crossword_actions_and_the_plan_is_saved_as_it_goes(tmp_path: Path, browser: Any,
                                                                           shots: Path) -> None:
    from referees.crossword import SIZE, Plan, random_action

    board, plan = ROOT / "boards/crossword/board1.in", tmp_path / "game.out"
    played = Played(tmp_path, "crossword-pve", "--board", str(board), "--out", str(plan))
    referee = games.referee("crossword-pve")
    state = referee.load(board.read_text(), {"words.txt": (board.parent / "words.txt").read_text()})
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(played.address)
    _turn(page, "you")

    def at(k: int) -> dict[str, Any]:
        return page.eval_on_selector(f'.grid .sq[data-i="{k}"] .c', "c => ({text: c.textContent, "
                                     "classes: c.className.split(' '), way: c.dataset.way})")

    # the cursor: a click puts it on a cell, a letter fills it and moves on along the row, stepping over
    # the board's letters; Space (or a click on its cell) turns the way; Backspace and Escape take back
    empty = next(k for k in range(SIZE * SIZE - 2) if state.cells[k] == "-" and state.cells[k + 1] != "-")
    after = next(k for k in range(empty + 1, (empty // SIZE + 1) * SIZE) if state.cells[k] == "-")
    page.click(f'.grid .sq[data-i="{empty}"]')
    assert "picked" in at(empty)["classes"] and at(empty)["way"] == "→"
    page.keyboard.press("q")
    page.keyboard.press("z")
    assert at(empty)["text"] == "Q" and "typed" in at(empty)["classes"] and at(after)["text"] == "Z"
    assert at(empty + 1)["text"] == state.cells[empty + 1]  # the board's letter, untouched
    page.keyboard.press("Backspace")
    assert at(after)["text"] == "" and "picked" in at(after)["classes"]
    page.keyboard.press(" ")
    assert at(after)["way"] == "↓"
    page.click(f'.grid .sq[data-i="{after}"]')
    assert at(after)["way"] == "↘"
    page.keyboard.press("Escape")
    assert at(empty)["text"] == "" and not plan.exists()

    rng, actions = random.Random(11), []
    now = state
    for k in range(4):
        action = random_action(now, rng)
        assert action is not None
        if k == 0:
            # no word claimed: refused with the rule, the board and the plan as they were; the word the
            # referee names is put in the box, and played again until the line's words are all claimed
            before = _keys(page)
            _type_action(page, action, words="")
            page.keyboard.press("Enter")
            page.wait_for_selector("#refused:not([hidden])")
            assert "undeclared-word" in page.text_content("#refused") and _keys(page) == before
            assert not plan.exists()
            _shoot(page, shots, "crossword-refused")
            for _ in range(len(action.words) + 1):
                if page.evaluate("arenaPlay.plan()"):
                    break
                claimed = page.input_value("#words")
                page.click("#controls button:text('play')")
                page.wait_for_function("old => arenaPlay.plan() || document.getElementById('words').value "
                                       "!== old", arg=claimed, timeout=30000)
            (action,) = referee.parse(state, page.evaluate("arenaPlay.plan()")).actions
        else:
            _type_action(page, action)
            page.keyboard.press("Enter")
        actions.append(action)
        expected = Plan(tuple(actions)).to_text()
        page.wait_for_function("text => arenaPlay.plan() === text", arg=expected, timeout=30000)
        assert plan.read_text() == expected
        now = referee.apply(state, referee.parse(state, expected))
        assert _keys(page) == list(now.cells)
    # Backspace with nothing typed takes the plan's last action back, and the saved plan with it
    page.keyboard.press("Backspace")
    page.wait_for_function("text => arenaPlay.plan() === text", arg=Plan(tuple(actions[:-1])).to_text())
    assert plan.read_text() == Plan(tuple(actions[:-1])).to_text()
    # a step back and forward through the actions so far
    page.locator("#slider").fill("1")
    assert page.evaluate("arenaPlay.frame().label").startswith("action 1:")
    page.locator("#slider").fill("3")
    assert page.evaluate("arenaPlay.frame().label").startswith("action 3:")
    _shoot(page, shots, "crossword-plan")
    page.click("#finish")
    assert _turn(page, "over") == "over"
    assert errors == []
    record = played.record()
    end = referee.outcome(referee.apply(state, referee.parse(state, plan.read_text())))
    assert record["seats"] == ["human"] \
        and record["moves"][0]["output"] == Plan(tuple(actions[:-1])).to_text()
    assert record["outcome"]["score"] == end.score


def test_a_person_plays_crossword_pvp_against_a_sandboxed_bot_and_passes(tmp_path: Path, browser: Any,
                                                                         shots: Path) -> None:
    from referees.crossword import random_action

    board = ROOT / "boards/crossword/board2.in"
    played = Played(tmp_path, "crossword-pvp", "--board", str(board), "--against",
                    str(ROOT / "bots/crossword/random.py"), "--seat", "2")
    referee = games.referee("crossword-pvp")
    state = referee.load(board.read_text(), {"words.txt": (board.parent / "words.txt").read_text()})
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(played.address)
    rng, done, mine = random.Random(4), 0, 0
    while referee.outcome(state) is None:
        if referee.to_move(state) == 1:
            _moves(page, done, "you")
            if mine == 0:  # a letter on a cell that holds one: refused with the rule, the board as it was
                before, full = _keys(page), state.cells.index(next(c for c in state.cells if c != "-"))
                page.click(f'.grid .sq[data-i="{full}"]')
                page.keyboard.press("Escape")
                page.fill("#text", f"1\n1\n{full // 20} {full % 20} A\n0\n")
                page.click("#entry button")
                page.wait_for_selector("#refused:not([hidden])")
                assert page.text_content("#refused").startswith("refused: illegal: ") \
                    and _keys(page) == before
            if mine < 2:
                move = referee.parse(state, f"1\n{random_action(state, rng).to_text()}")
                _type_action(page, move.actions[0])
                page.keyboard.press("Enter")
                if mine == 1:
                    _shoot(page, shots, "crossword-pvp")
            else:  # then a pass, which by the second seat ends the game
                move = referee.parse(state, "0\n")
                page.click("#controls button:text('pass')")
            mine += 1
        else:
            entry = _moves(page, done + 1)
            assert entry["bot"] == "random" and entry["verdict"] == "ok"
            move = referee.parse(state, entry["output"])
        state = referee.apply(state, move)
        done += 1
    assert _turn(page, "over") == "over"
    assert errors == []
    record = played.record()
    end = referee.outcome(state)
    assert record["seats"] == ["random", "human"] and len(record["moves"]) == done
    assert record["outcome"] == _outcome(end)
    assert replay.load(Store(played.folder), record).steps[-1].state == state
    # the played game is an ordinary record: show, replay and report read it, the human named as a seat
    for command in (["show"], ["replay"], ["report"]):
        done_ = subprocess.run([sys.executable, "-m", "arena.cli", *command, str(played.folder)],
                               capture_output=True, text=True, check=False)
        assert done_.returncode == 0 and "human" in done_.stdout + done_.stderr, done_.stderr
    page.goto((played.folder / "report" / "index.html").as_uri())
    assert "human" in page.text_content("body") and errors == []

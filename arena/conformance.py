"""The conformance checks every game must pass, the arena's own and any installed package's.

``run(entry)`` yields ``(check, problem)`` pairs, ``problem`` empty when the check passed:

* ``declaration``: every part the game declares loads, and its referee answers to its name;
* ``random games``: random legal games on its boards and on generated ones end, every move
  passing ``check``, ``move_text`` and ``parse`` agreeing, ``render`` giving a ``game.in``;
* ``generator``: a seed gives the same board every time, and boards the rules read;
* ``view``: a replay of a random game draws every step, in the terminal and as a page;
* ``judge``: the judge mode gives the referee's result on a random game (where the referee
  says how to write one as the judge's input: ``Referee.judge_case``);
* ``tournament``: its example bots play a short tournament whose records replay and whose
  report is written (``tournament(entry, folder)``), and opens in Chromium where there is one.

``arena games --check GAME`` prints them; ``tests/test_conformance.py`` runs them on every
installed game (where the browser is required).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from arena import games
from arena.boards import find_boards, load_board
from arena.errors import ArenaError
from referees.base import Outcome, Referee

#: A game that has not ended after this many turns of random moves is reported.
MAX_TURNS = 10_000
#: Boards of each declared folder, and generated boards, played at random.
BOARDS_PER_FOLDER = 3
SEEDS = (1, 2, 3)


def run(entry: games.Installed, *, tournament: bool = True) -> Iterator[tuple[str, str]]:
    """Each check's name and problem ("" when it passed); a check that cannot start says why."""
    checks: list[tuple[str, Callable[[games.Installed], str]]] = [
        ("declaration", check_declaration), ("random games", check_random_games), ("generator", check_generator),
        ("view", check_view), ("judge", check_judge)]
    if tournament:
        checks.append(("tournament", lambda e: _tournament_problem(e)))
    for name, check in checks:
        try:
            note = check(entry)
        except Failed as exc:
            yield name, str(exc)
            continue
        except Exception as exc:  # noqa: BLE001 - a game's bug is a failed check, with where it happened
            yield name, f"{type(exc).__name__}: {exc}\n{_where(exc)}"
            continue
        yield (f"{name} ({note})" if note else name), ""


class Failed(Exception):
    """A check found the game wrong (the message says how)."""


def _where(exc: Exception) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    return "".join(traceback.format_list(frames[-3:])).rstrip()


def check_declaration(entry: games.Installed) -> str:
    referee = entry.referee()
    if referee.players not in (1, 2):
        raise Failed(f"players is {referee.players!r}: 1 or 2")
    if referee.protocol not in ("per-move", "one-shot"):
        raise Failed(f"protocol is {referee.protocol!r}: 'per-move' or 'one-shot'")
    entry.view()
    entry.generator()
    entry.solver()
    if entry.game.rules and not entry.rules().strip():
        raise Failed(f"its rules ({entry.game.rules}) are empty")
    missing = [part for kind in ("bots", "boards") for part in getattr(entry.game, kind)
               if not (entry.root / part).exists()]
    return f"missing: {', '.join(missing)}" if missing else ""


def boards(entry: games.Installed) -> list[Path]:
    """Up to ``BOARDS_PER_FOLDER`` of each of the game's board folders."""
    found: list[Path] = []
    for folder in entry.paths("boards"):
        try:
            found += find_boards([str(folder)])[:BOARDS_PER_FOLDER]
        except ArenaError:
            continue
    return found


def generated(entry: games.Installed) -> list[tuple[int, Any]]:
    """``(seed, GeneratedBoard)`` for each of ``SEEDS``, with the generator's example parameters."""
    module = entry.generator()
    if module is None:
        return []
    parser = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    module.add_arguments(parser)
    params = parser.parse_args(list(getattr(module, "EXAMPLE", [])))
    return [(seed, module.generate(params, seed)) for seed in SEEDS]


def initial_states(entry: games.Installed) -> list[tuple[str, Any]]:
    """The shipped and generated boards of a game, read by its referee: ``(where, state)``."""
    referee = entry.referee()
    states = [(str(path), load_board(referee, path)[1]) for path in boards(entry)]
    states += [(f"generated seed {seed}", referee.load(board.text, board.extras)) for seed, board in generated(entry)]
    return states


def check_random_games(entry: games.Installed) -> str:
    referee = entry.referee()
    states = initial_states(entry)
    if not states:
        raise Failed("the game has no boards to play on: declare its boards or its generator")
    rng = random.Random(2026)
    for where, state in states:
        for _ in range(2):
            try:
                random_game(referee, state, rng)
            except Failed as exc:
                raise Failed(f"{where}: {exc}") from None
    return f"{2 * len(states)} games on {len(states)} boards"


def random_game(referee: Referee, state: Any, rng: random.Random) -> tuple[list[tuple[int, str]], Outcome]:
    """A random legal game from ``state``, every move checked: ``([(seat, game.out text)], outcome)``."""
    moves = []
    for _ in range(MAX_TURNS):
        end = referee.outcome(state)
        if end is not None:
            break
        seat = referee.to_move(state)
        if seat not in range(referee.players):
            raise Failed(f"to_move gave seat {seat!r} in a {referee.players}-player game")
        if "game.in" not in referee.render(state, seat):
            raise Failed("render gave no game.in")
        move = referee.random_move(state, rng)
        referee.check(state, move)
        text = referee.move_text(move)
        if referee.parse(state, text) != move:
            raise Failed(f"parse(move_text(move)) is not the move, for {text[:80]!r}")
        moves.append((seat, text))
        state = referee.apply(state, move)
    else:
        raise Failed(f"no end after {MAX_TURNS} turns")
    if referee.players == 2 and not (end.winner in (0, 1, None) and end.score is None):
        raise Failed(f"a two-player game ended with {end!r}: a winner (0 or 1) or a draw, no score")
    if referee.players == 1 and (end.score is None or end.winner is not None):
        raise Failed(f"a one-player game ended with {end!r}: a score and no winner")
    if not end.reason:
        raise Failed("the outcome gives no reason")
    return moves, end


def check_generator(entry: games.Installed) -> str:
    if entry.generator() is None:
        return "the game has none"
    referee = entry.referee()
    first, again = generated(entry), generated(entry)
    for (seed, one), (_, other) in zip(first, again):
        if (one.text, one.extras) != (other.text, other.extras):
            raise Failed(f"seed {seed} gave two different boards")
        json.dumps(one.params)  # (written into the manifest)
        referee.load(one.text, one.extras)
    if len({board.text for _, board in first}) == 1 and len(first) > 1:
        raise Failed(f"seeds {', '.join(map(str, SEEDS))} all gave the same board")
    return f"seeds {', '.join(map(str, SEEDS))}"


def record_of(referee: Referee, moves: list[tuple[int, str]], end: Outcome, seats: list[str]) -> dict[str, Any]:
    """A game record, as the arena writes one, of a game played outside it (no board file)."""
    return {"id": "|".join(["check/board", *seats]), "game": referee.name,
            "board": {"name": "check/board", "path": "", "sha256": ""}, "seats": seats,
            "moves": [{"seat": seat, "verdict": "ok", "move": text, "output": text, "cpu": 0.0, "wall": 0.0}
                      for seat, text in moves],
            "outcome": {"winner": end.winner, "score": end.score, "reason": end.reason}, "fault": None}


def check_view(entry: games.Installed) -> str:
    from arena import html, replay

    referee = entry.referee()
    states = initial_states(entry)
    if not states:
        raise Failed("the game has no boards to play on")
    seats = ["first", "second"][:referee.players]
    steps = 0
    for where, state in states[:2]:
        moves, end = random_game(referee, state, random.Random(7))
        game = replay.replay(referee, state, record_of(referee, moves, end, seats))
        for step in game.steps:
            if not step.frame.grids and not step.frame.text:
                raise Failed(f"{where}: step {step.number} draws nothing (no grid, no text)")
            json.dumps(step.frame.to_json())
        replay.game_text(game, colour=True)
        html.replay_page(game)
        steps += len(game.steps)
    return f"{steps} steps drawn"


def check_judge(entry: games.Installed) -> str:
    referee = entry.referee()
    if not referee.judge_inputs:
        return "the game has none"
    checked = 0
    for path in boards(entry)[:2]:
        board, state = load_board(referee, path)
        moves, end = random_game(referee, state, random.Random(11))
        case = referee.judge_case(board.text, board.extras, [text for _, text in moves], end)
        if case is None:
            return "not checked: the referee gives no judge_case"
        texts, last = case
        lines = list(referee.judge(texts, board.extras))
        if not lines or lines[-1] != last:
            raise Failed(f"{path}: the judge ends with {lines[-1] if lines else 'nothing'!r} where the referee's "
                         f"result is {last!r}")
        checked += 1
    return f"{checked} games"


# ---------------------------------------------------------------- a short tournament
def example_bots(entry: games.Installed) -> list[Path]:
    """The game's example bots for its tournament: as many as it has players, Python files first,
    random ones first (a single bot of a two-player game plays a copy of itself)."""
    referee = entry.referee()
    files = [path for folder in entry.paths("bots") for path in sorted(folder.glob("*.py"))
             if not path.name.startswith(("_", "."))]
    files.sort(key=lambda path: ("random" not in path.stem, path.stem))
    return files[:referee.players]


def tournament(entry: games.Installed, folder: Path, *, sandbox: bool = True) -> Path:
    """A short tournament of the game's example bots on one of its boards, in ``folder``, its
    records replayed and its report written: the report's index page."""
    from arena import replay
    from arena.store import Store

    referee = entry.referee()
    bots = example_bots(entry)
    if not bots:
        raise Failed("the game has no example bots (*.py in its bots folders)")
    if len(bots) < referee.players:
        twin = folder / "bots" / f"{bots[0].stem}_twin{bots[0].suffix}"
        twin.parent.mkdir(parents=True, exist_ok=True)
        twin.write_bytes(bots[0].read_bytes())
        bots.append(twin)
    chosen = boards(entry)[:1]
    if not chosen:
        folder.joinpath("boards").mkdir(parents=True, exist_ok=True)
        for seed, board in generated(entry)[:1]:
            (folder / "boards" / f"seed{seed}.in").write_text(board.text, encoding="utf-8")
            for name, text in board.extras.items():
                (folder / "boards" / name).write_text(text, encoding="utf-8")
        chosen = find_boards([str(folder / "boards")])
    arena = [sys.executable, "-m", "arena.cli"]
    command = [*arena, "run", "--game", entry.name, "--bots", *map(str, bots), "--boards", *map(str, chosen),
               "--results", str(folder / "results"), "--name", "check", "--jobs", "2",
               *([] if sandbox else ["--no-sandbox"])]
    _call(command, folder)
    store = Store(folder / "results" / "check")
    records = store.records()
    if not records:
        raise Failed("the tournament recorded no game")
    for record in records:
        replay.load(store, record)
    _call([*arena, "report", str(store.folder), "--out", str(folder / "report")], folder)
    index = folder / "report" / "index.html"
    if not index.is_file():
        raise Failed("arena report wrote no index.html")
    return index


def _call(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, check=False, cwd=cwd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise Failed(f"{' '.join(command[2:5])}... exited with status {done.returncode}: "
                     f"{(done.stderr or done.stdout).strip()[-2000:]}")


def _tournament_problem(entry: games.Installed) -> str:
    with tempfile.TemporaryDirectory(prefix="arena-check-") as tmp:
        index = tournament(entry, Path(tmp))
        pages = len(list(index.parent.glob("games/*.html")))
        opened = in_chromium(entry.name, index)
    return f"{pages} replay page{'' if pages == 1 else 's'}, {opened}"


def in_chromium(game: str, index: Path) -> str:
    """Open the report in the system's Chromium (through Playwright), where there are both."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "not opened in a browser: pip install playwright to have them opened"
    if chromium is None:
        return "not opened in a browser: no Chromium here (Debian: apt-get install chromium)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            open_pages(browser, game, index)
        finally:
            browser.close()
    return "opened in Chromium"


def open_pages(browser: Any, game: str, index: Path) -> None:
    """The report's index and its first replay in a Playwright browser: they name the game, the
    replay draws its board and steps to its end, and no page raises an error."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(index.as_uri())
        if game not in page.inner_text("body"):
            raise Failed(f"the report's index does not name the game {game!r}")
        replays = sorted(index.parent.glob("games/*.html"))
        if not replays:
            raise Failed("the report has no replay page")
        page.goto(replays[0].as_uri())
        page.wait_for_selector(".grid .c", timeout=10_000)
        page.click("#last")
        if not (page.inner_text("#result") or page.inner_text("#label")):
            raise Failed(f"{replays[0].name}: the last step says nothing")
    finally:
        page.close()
    if errors:
        raise Failed(f"the pages raised errors: {'; '.join(errors)}")


"""What the replays say, checked against the referees on real boards: tic-tac-toe's one
numbering and one colour per game, match-3's score traced to its last point, and the
terminal replay's colour only on a terminal without NO_COLOR."""

from __future__ import annotations

import json
import os
import pty
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from arena import games, html, replay, views
from views.tictactoe3d import BALL_FILLS

ROOT = Path(__file__).resolve().parent.parent


def _played(game: str, board: str, seed: int, seats: list[str]) -> tuple[Any, Any, dict[str, Any]]:
    """A game played by random moves through the referee, as a record (its initial state, its last, the record)."""
    referee = games.referee(game)
    initial = state = referee.load((ROOT / board).read_text())
    rng, moves = random.Random(seed), []
    while referee.outcome(state) is None:
        move = referee.random_move(state, rng)
        moves.append({"seat": referee.to_move(state), "verdict": "ok", "cpu": 0.01, "wall": 0.01,
                      "output": referee.move_text(move)})
        state = referee.apply(state, move)
    outcome = referee.outcome(state)
    record = {"id": f"{board}|{'|'.join(seats)}", "game": game, "board": {"name": board}, "seats": seats,
              "moves": moves, "outcome": {"winner": outcome.winner, "score": outcome.score,
                                          "reason": outcome.reason}}
    return initial, state, record


def test_tictactoe_counts_moves_as_its_rules_do_and_draws_the_players_in_their_balls_colours() -> None:
    referee = games.referee("tictactoe3d")
    initial, final, record = _played("tictactoe3d", "boards/tictactoe3d/board1.in", 3, ["a", "b"])
    assert initial.opening > 0  # a board with an opening: where the two numberings parted
    game = replay.replay(referee, initial, record)
    last = len(final.moves)
    assert game.steps[-1].move == last and game.steps[0].move == initial.opening
    if f"on move {last}" in record["outcome"]["reason"]:
        assert f"== move {last}: " in replay.game_text(game)
    page = html.replay_page(game)
    numbers = [m["number"] for m in html._replay_data(game)["moves"]]
    assert numbers == list(range(initial.opening + 1, last + 1))
    # the header's chips are the balls' colours: the first seat plays the colour to move after the opening
    first = BALL_FILLS[initial.colour_to_move]
    assert game.colours[0] == first and set(game.colours) == set(BALL_FILLS.values())
    assert f"background:{first}" in page.split("</header>")[0]
    assert views.SEAT_COLOURS[0] not in page.split("</header>")[0]


def test_match3_traces_every_point_of_the_score() -> None:
    referee = games.referee("match3")
    for seed in range(3):
        initial, final, record = _played("match3", "boards/match3/board1.in", seed, ["solo"])
        game = replay.replay(referee, initial, record)
        scores = final.scores
        last = game.steps[-1].frame
        assert last.label == f"the score: {scores.total}" and last.part
        notes = "\n".join(last.notes)
        assert f"hands: {scores.hands} " in notes and f"end bonuses: {scores.end} " in notes
        assert notes.endswith(f"= {scores.total}")
        swaps = scores.removal + scores.chain + scores.combo
        assert f"swaps: removal {scores.removal} + chain {scores.chain} + combo {scores.combo} = {swaps}" in notes
        hands = [int(m) for step in game.steps for n in step.frame.notes for m in re.findall(r"^hand \d+ .*\+(\d+)$", n)]
        assert sum(hands) == scores.hands
        for step in game.steps[1:-1]:
            chain = re.search(r"\((\d+) rounds? clearing", " ".join(step.frame.notes))
            if chain:  # every round drawn, and the board after the last
                assert len(step.frame.grids) == int(chain.group(1)) + 1
                colours = re.search(r"main colours?.*: (.*)$", step.frame.notes[1]).group(1)
                assert all(re.fullmatch(r"\d \((red|green|yellow|blue|orange|purple)\)", c)
                           for c in colours.split(" or "))
        legend = views.legend("match3")
        assert "1 red" in legend and "5 orange" in legend


def test_the_terminal_replay_is_in_colour_only_on_a_terminal_without_no_color(tmp_path: Path) -> None:
    board = tmp_path / "boards" / "b.in"
    board.parent.mkdir()
    board.write_text("3\n2 # #\n# # #\n# # 2\n")
    bots = [str(ROOT / "bots" / "greedy.py"), str(ROOT / "bots" / "random.py")]
    run = subprocess.run([sys.executable, "-m", "arena.cli", "run", "--bots", *bots, "--boards", str(board),
                          "--results", str(tmp_path), "--name", "t", "--jobs", "1"], check=False, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    command = [sys.executable, "-m", "arena.cli", "replay", str(tmp_path / "t"), "--board", "boards/b",
               "--seats", "greedy,random"]
    piped = subprocess.run(command, check=True, capture_output=True, text=True, timeout=60).stdout
    assert "\x1b" not in piped and "[X]" in piped and "X: greedy's regions, O: random's regions" in piped

    def on_a_terminal(**env: str) -> str:
        main, sub = pty.openpty()
        with subprocess.Popen(command, stdout=sub, stderr=subprocess.DEVNULL, env={**os.environ, **env}) as process:
            os.close(sub)
            chunks = []
            while True:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the terminal's other end closed
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            process.wait(timeout=60)
        os.close(main)
        return b"".join(chunks).decode()
    assert "\x1b[48;2;" in on_a_terminal(TERM="xterm")
    assert "\x1b" not in on_a_terminal(TERM="xterm", NO_COLOR="1")


# ---------------------------------------------------------------- the pages: templates, styles, escaping
PAGES = Path(html.__file__).parent


def test_each_game_brings_the_style_of_its_cells_and_the_pages_name_no_game() -> None:
    styles = "".join(path.read_text() for path in (PAGES / "static").glob("*.css"))
    shared = "".join(path.read_text() for folder in ("static", "templates") for path in (PAGES / folder).iterdir())
    shared += (PAGES / "html.py").read_text()
    for game in games.names():
        style = views.style(game)
        if game in ("paint", "tictactoe3d", "match3", "threes", "crossword-pve", "crossword-pvp"):
            assert style, game  # the shipped games style their cells
        own = set(re.findall(r"\.([a-z][\w-]*)", style)) - {"c", "sq", "new", "bad"}
        assert not {name for name in own if re.search(rf"\.{name}\b", styles)}, game  # no game's class
        assert not re.search(rf"\b{re.escape(game)}\b", shared), game
    initial, _, record = _played("paint", "boards/group1/board1.in", 1, ["a", "b"])
    page = html.replay_page(replay.replay(games.referee("paint"), initial, record))
    assert views.style("paint") in page and views.style("threes") not in page


def test_a_page_shows_what_bots_are_named_and_wrote_as_text() -> None:
    hostile = ['<script>alert(1)</script>', 'x" onmouseover="alert(2)']
    initial, _, record = _played("paint", "boards/group1/board1.in", 2, hostile)
    record["id"] = "<b>board</b>|" + "|".join(hostile)
    record["moves"][0].update(stdout="</script><script>alert(3)</script>", stderr="<!--")
    page = html.replay_page(replay.replay(games.referee("paint"), initial, record), back='"><img src=x>')
    header = page.split("</header>")[0]
    assert "<script" not in header and "<b>" not in header and "<img" not in header
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in header and 'x&#34; onmouseover' in header
    data = page.split('<script id="replay-data" type="application/json">')[1].split("</script>")[0]
    assert "<" not in data and json.loads(data)["moves"][0]["stdout"] == "</script><script>alert(3)</script>"
    assert page.count("<script") == 2  # the data and the page's own script, nothing a bot wrote

"""The check on submission (``arena.check``, ``arena check``) with real bots in the real sandbox."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena import html, replay
from arena.boards import load_board
from arena.bots import Compilers
from arena.check import LEVELS, Report, check
from arena.errors import ArenaError
from arena.games import referee as get_referee
from arena.sandbox import Limits, close_kept, configure, prepare_bot_in

REPO = Path(__file__).resolve().parent.parent
FAKE = REPO / "tests" / "fakebots"
ARENA = [sys.executable, "-m", "arena.cli"]
#: Short limits: a Python bot starts in about 0.07 s of CPU; the wall-clock cap ends a sleeping bot.
LIMITS = Limits(cpu=0.5, wall=1.5)
#: A 5x5 board on which the template's opening move leaves the second player a move.
BOARD = REPO / "boards" / "group1" / "board4.in"
#: A paint move naming a cell off any shipped board.
OFF_BOARD = "1\n9 9\n"


@pytest.fixture(scope="module")
def sandbox():
    yield configure()
    close_kept()


@pytest.fixture(scope="module")
def paint():
    return get_referee("paint")


@pytest.fixture(scope="module")
def house(sandbox, tmp_path_factory):
    """The deterministic template as the house bot: the same opening move every time."""
    return prepare_bot_in(sandbox, REPO / "bots" / "template.py", tmp_path_factory.mktemp("house"), Compilers())


def _check(bot: Path, referee, sandbox, house, workdir: Path, *, level: str = "first-move",
           boards: tuple[Path, ...] = (BOARD,), limits: Limits = LIMITS, on_case=None, on_compiled=None) -> Report:
    loaded = [load_board(referee, path) for path in boards]
    return check(bot, referee, loaded, level=level, house=house, limits=limits, sandbox=sandbox,
                 compilers=Compilers(), workdir=workdir, on_case=on_case, on_compiled=on_compiled)


def _bot(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(source, encoding="utf-8")
    return path


def _writes(text: str) -> str:
    """A Python bot that writes ``text`` as its game.out."""
    return f"open('game.out', 'w').write({text!r})\n"


def test_a_good_bot_is_accepted_in_both_seats_and_each_game_stops_after_its_first_move(tmp_path, sandbox, paint,
                                                                                       house):
    seen = []
    report = _check(REPO / "bots" / "template.py", paint, sandbox, [house], tmp_path, on_case=seen.append)
    assert report.accepted and report.compiled and report.language == "python"
    assert [(case.seat, case.verdict, case.opponent) for case in report.cases] == \
        [(0, "ok", "template (house)"), (1, "ok", "template (house)")]  # (the same file in both seats: renamed)
    assert list(report.cases) == seen  # each case was announced as it was done
    first, second = (case.record for case in report.cases)
    assert [move["seat"] for move in first["moves"]] == [0] and [move["seat"] for move in second["moves"]] == [0, 1]
    for record, seat in ((first, 1), (second, 2)):
        assert record["outcome"] == {"winner": None, "score": None, "stopped": True,
                                     "reason": f"stopped after the first move of seat {seat} (template)"}
        assert "points" not in record  # an unfinished game has no result
    assert all(case.message == "its first move is valid" for case in report.cases)
    text = report.render()
    assert text.startswith("bot 'template' (python), checked at level first-move: accepted (2 cases)\n")
    assert "group1/board4, moving second against template (house): ok: its first move is valid (cpu " in text
    steps = replay.replay(paint, load_board(paint, BOARD)[1], second)  # a stopped game replays too
    assert "== result: unfinished: stopped after the first move of seat 2" in replay.game_text(steps)


@pytest.mark.parametrize(("source", "verdict", "message", "printed"), [
    ((FAKE / "spin.py").read_text(), "time-limit", "used 0.5", None),
    ((FAKE / "sleep.py").read_text(), "time-limit", "wall-clock cap of 1.5 s reached", None),
    ((FAKE / "fail.py").read_text(), "crash", "exit status 3", "something went wrong"),
    ((FAKE / "silent.py").read_text(), "no-output", "no game.out written", None),
    (_writes("hello, referee\n"), "bad-output", "", None),
    (_writes(OFF_BOARD), "illegal", "off-board: cell (9, 9) is off the 5x5 board", None),
], ids=["cpu", "wall", "crash", "nothing", "garbage", "illegal"])
def test_each_fault_of_the_first_move_is_its_verdict_in_both_seats(tmp_path, sandbox, paint, house, source,
                                                                  verdict, message, printed):
    report = _check(_bot(tmp_path, "faulty.py", source), paint, sandbox, [house], tmp_path)
    assert not report.accepted and report.compiled
    assert [(case.seat, case.verdict) for case in report.cases] == [(0, verdict), (1, verdict)]
    assert all(message in case.message for case in report.cases)
    text = report.render()
    assert "checked at level first-move: refused: at fault in 2 of 2 cases" in text
    assert f"group1/board4, moving second against template: {verdict}" in text
    if message:
        assert f"  fault: {message}" in text
    if printed:
        assert f"  | {printed}" in text  # what the bot printed, under its case


def test_a_house_bot_that_cannot_open_is_the_arenas_error_not_the_bots(tmp_path, sandbox, paint):
    broken = prepare_bot_in(sandbox, FAKE / "fail.py", tmp_path / "house", Compilers())
    with pytest.raises(ArenaError, match=r"house bot 'fail' failed to make the opening move on board "
                       r"'group1/board4' \(crash: 'exit status 3'\): the arena's problem"):
        _check(REPO / "bots" / "template.py", paint, sandbox, [broken], tmp_path)


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler")
def test_a_c_bot_that_does_not_compile_is_told_the_compilers_message(tmp_path, sandbox, paint, house):
    source = _bot(tmp_path, "broken.c", "int main(void) { return nonsense; } /* \x1b[2J<script> */\n")
    report = _check(source, paint, sandbox, [house], tmp_path, level="compile")
    assert not report.compiled and not report.accepted and report.cases == () and report.language == "c"
    assert report.message.startswith("compilation failed (") and "nonsense’ undeclared" in report.message
    text = report.render()
    assert text.startswith("bot 'broken' (c), checked at level compile: refused: it cannot run\n")
    assert "\x1b" not in text and "\\x1b[2J<script>" in text  # the compiler quoted the source: escaped
    assert all(line.startswith("  ") for line in text.splitlines()[1:])  # the message, indented under it


def test_the_server_hears_when_compiling_ends_and_playing_starts(tmp_path, sandbox, paint, house):
    """(The contest server shows a submission as compiling, then checking.)"""
    heard = []
    _check(REPO / "bots" / "random.py", paint, sandbox, [house], tmp_path / "good",
           on_case=lambda case: heard.append("case"), on_compiled=lambda: heard.append("compiled"))
    assert heard == ["compiled", "case", "case"]
    heard.clear()
    broken = _bot(tmp_path, "broken.c", "int main(void) { return nonsense; }\n")
    _check(broken, paint, sandbox, [house], tmp_path / "broken", on_compiled=lambda: heard.append("compiled"))
    assert heard == []


def test_the_compile_level_plays_nothing(tmp_path, sandbox, paint):
    report = _check(REPO / "bots" / "random.py", paint, sandbox, [], tmp_path, level="compile")
    assert report.accepted and report.cases == ()
    assert report.render() == "bot 'random' (python), checked at level compile: accepted (ready to run)\n"


def test_a_one_player_game_is_one_invocation_per_board(tmp_path, sandbox, house):
    threes = get_referee("threes")
    boards = (REPO / "boards" / "threes" / "sample.in",)
    good = _check(REPO / "bots" / "threes" / "random.py", threes, sandbox, [], tmp_path, boards=boards)
    assert good.accepted and [(case.seat, case.opponent) for case in good.cases] == [(0, None)]
    assert len(good.cases[0].record["moves"]) == 1 and good.cases[0].message.startswith("score ")
    bad = _check(_bot(tmp_path, "plan.py", _writes("nonsense\n")), threes, sandbox, [], tmp_path, boards=boards)
    assert not bad.accepted and bad.cases[0].verdict == "bad-output"
    assert bad.render().splitlines()[1].startswith("threes/sample: bad-output (cpu ")
    with pytest.raises(ArenaError, match="threes is a one-player game: no house bot plays it"):
        _check(REPO / "bots" / "threes" / "random.py", threes, sandbox, [house], tmp_path, boards=boards)


def test_the_games_level_keeps_each_record_and_its_replay_page_renders(tmp_path, sandbox, paint, house):
    report = _check(REPO / "bots" / "random.py", paint, sandbox, [house], tmp_path, level="games")
    assert report.accepted and len(report.cases) == 2
    for case in report.cases:
        outcome = case.record["outcome"]
        assert "stopped" not in outcome and case.record["points"] in ([3.0, 0.0], [0.0, 3.0], [1.5, 1.5])
        assert case.message.split(" ")[0] in ("won", "lost", "a")
    game = replay.replay(paint, load_board(paint, BOARD)[1], report.cases[1].record)
    page = html.replay_page(game)
    assert page.startswith("<!DOCTYPE html>") and "random" in page


def test_what_a_bot_prints_is_escaped_in_the_report_and_survives_json(tmp_path, sandbox, paint, house):
    hostile = "\x1b[2J\x1b]0;owned\x07<script>alert(1)</script>\nbot 'x' (python), checked: accepted\u202e"
    source = f"import sys\nprint({hostile!r})\nprint({hostile!r}, file=sys.stderr)\n" + _writes(hostile)
    report = _check(_bot(tmp_path, "loud.py", source), paint, sandbox, [house], tmp_path)
    assert [case.verdict for case in report.cases] == ["bad-output", "bad-output"]
    text = report.render()
    assert not any(char in text for char in "\x1b\x07\u202e")  # no escape sequence, no bidi override
    assert "  | \\x1b[2J\\x1b]0;owned\\x07<script>alert(1)</script>" in text
    assert "\nbot 'x'" not in text and "  | bot 'x' (python), checked: accepted\\u202e" in text  # no forged line
    data = json.loads(json.dumps(report.to_json()))
    assert data["accepted"] is False and Report.from_json(data) == report
    assert Report.from_json(data).render() == text
    with pytest.raises(ArenaError, match="not a check report"):
        Report.from_json({"bot": "x"})


def test_an_unknown_level_is_refused(tmp_path, sandbox, paint, house):
    with pytest.raises(ArenaError, match="unknown check level 'everything': one of compile, first-move, games"):
        _check(REPO / "bots" / "random.py", paint, sandbox, [house], tmp_path, level="everything")


# -- the command


def _arena(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([*ARENA, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False)


def test_the_command_picks_the_shipped_random_bot_and_exits_0_when_accepted():
    done = _arena("check", "bots/greedy.py", "--boards", "boards/group1/board4.in", "--cpu", "0.5")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("bot 'greedy' (python), checked at level first-move: accepted (2 cases)\n")
    assert f"arena: house bot: {REPO / 'bots' / 'random.py'} (the game's own" in done.stderr
    progress = [line for line in done.stderr.splitlines() if line.startswith("arena: check: ")]
    assert [line.split(": ", 2)[2].split(":")[0] for line in progress] == \
        ["group1/board4, moving first against random", "group1/board4, moving second against random"]


def test_the_command_exits_1_for_a_refused_bot_with_its_json(tmp_path):
    bot = _bot(tmp_path, "offboard.py", _writes(OFF_BOARD))
    done = _arena("check", str(bot), "--boards", "boards/group1/board4.in", "--house", "bots/template.py",
                  "--cpu", "0.5", "--json")
    assert done.returncode == 1, done.stderr
    report = Report.from_json(json.loads(done.stdout))
    assert [case.verdict for case in report.cases] == ["illegal", "illegal"] and report.level == "first-move"


def test_the_command_exits_2_for_the_arenas_errors(tmp_path):
    done = _arena("check", "bots/random.py", "--boards", "boards/group1/board4.in", "--house", str(FAKE / "fail.py"))
    assert done.returncode == 2 and "arena: error: house bot 'fail' failed to make the opening move" in done.stderr
    missing = _arena("check", str(tmp_path / "nobot.py"), "--boards", "boards/group1/board4.in", "--level", "compile")
    assert missing.returncode == 2 and "does not exist" in missing.stderr


def test_the_help_explains_every_level():
    done = _arena("check", "--help")
    assert done.returncode == 0
    for level in LEVELS:
        assert f"\n  {level} " in done.stdout

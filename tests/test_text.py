"""Untrusted text reaches the organiser only as text (issue 20, part 4).

The module (``arena.text``) on its own: every class of control character,
bidi, backslashes, CSV formulas, JSON inside a page.  Then a real tournament
of hostile bots: one prints escape sequences (clear screen, window title,
clipboard, a carriage return over a fake verdict, C1, bidi) and a page
breaker (``<!--<script>``), one writes them as its move (so they reach the
fault message, the progress line and arena.log), one is named like a
spreadsheet formula.  Its replay, rerun, tables (every format), CSV, log and
replay page are checked; names that could forge a line are refused.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import shutil
import subprocess
import sys
import textwrap
import unicodedata
from pathlib import Path

import pytest
from tabulate import tabulate_formats

from arena import text
from arena.cli import main as arena_main
from arena.errors import ArenaError
from arena.store import Store

ROOT = Path(__file__).resolve().parent.parent
BOARD = ROOT / "boards" / "group1" / "board1.in"

#: What a hostile bot prints: each an attack on the organiser's terminal, spreadsheet or page.
ATTACKS = {
    "clear": "\x1b[2J\x1b[H",
    "title": "\x1b]0;pwned\x07",
    "clipboard": "\x1b]52;c;cm0gLXJmIH4K\x07",
    "hide": "\x1b[8mhidden\x1b[0m",
    "overwrite": "\rrandom crashed, evil wins",
    "csi-c1": "\x9b2J",
    "bidi": "\u202egnp.exe",
    "formula": "=cmd|' -C calc'!A0",
    "page": "<!--<script></script>]]>",
}
FAKE = "random crashed, evil wins"
EVIL = f"""
    import random, sys
    from referees.paint import PaintReferee
    referee = PaintReferee()
    state = referee.load(open("game.in").read())
    print({"".join(ATTACKS.values())!r})
    print({ATTACKS["clear"] + ATTACKS["overwrite"]!r}, file=sys.stderr)
    open("game.out", "w").write(referee.move_text(referee.random_move(state, random.Random())))
"""
# Writes the attacks as its move: refused (bad output), and the fault's message quotes it.
LIAR = f"""
    open("game.out", "w").write({"".join(ATTACKS.values())!r})
"""
FORMULA_BOT = ATTACKS["formula"]  # a bot named like a spreadsheet formula (a legal name)


def unsafe(shown: str, keep: str = "\n") -> list[str]:
    """The raw control, format and separator characters in ``shown`` (an independent definition)."""
    return sorted({repr(c) for c in shown
                   if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") and c not in keep})


def _arena(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], check=False, cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def _write(path: Path, source: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip())
    return path


# ------------------------------------------------------------------ the module
@pytest.mark.parametrize("char", ["\x00", "\x07", "\x08", "\x1b", "\x7f", "\x80", "\x85", "\x9b", "\x9f"])
def test_c0_del_and_c1_are_shown_as_hex_escapes(char: str) -> None:
    assert text.display(f"a{char}b") == f"a\\x{ord(char):02x}b"
    assert text.display(f"a{char}b", multiline=True) == f"a\\x{ord(char):02x}b"


@pytest.mark.parametrize("char", ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
                                  "\u2069", "\u200e", "\u200f", "\u061c", "\u200b", "\u2028", "\u2029", "\ufeff"])
def test_bidi_and_invisible_characters_are_shown_as_unicode_escapes(char: str) -> None:
    assert text.display(f"x{char}y") == f"x\\u{ord(char):04x}y"


def test_line_layout_and_astral_and_surrogates() -> None:
    assert text.display("a\nb\tc\rd") == "a\\nb\\tc\\rd"  # one line: nothing can start a new one
    assert text.display("a\nb\tc\rd", multiline=True) == "a\nb\tc\\rd"  # a carriage return never goes raw
    assert text.display("tag\U000e0041") == "tag\\U000e0041"  # invisible "tag" characters
    assert text.display("lone \udcff") == "lone \\udcff"  # (printing it raw would even raise)
    assert text.display("") == ""


def test_printable_text_of_any_script_is_left_as_it_is() -> None:
    for plain in ("greedy", "group1/board1", "бот № 1 — «Игра»", "日本語", "emoji 🙂", "a b|c,d 'e' \"f\""):
        assert text.display(plain) == plain
        assert text.display(plain, multiline=True) == plain


def test_backslashes_are_doubled_so_an_escape_is_never_ambiguous() -> None:
    printed = "\\x1b"  # four characters a bot printed
    real = "\x1b"  # the one character
    assert text.display(printed) == "\\\\x1b" and text.display(real) == "\\x1b"
    assert text.display(printed) != text.display(real)
    # a last net over a line already quoted with repr leaves its backslashes alone
    assert text.display(repr("a\x1b"), backslash=False) == "'a\\x1b'"
    assert text.display("a\\b\x1b", backslash=False) == "a\\b\\x1b"


@pytest.mark.parametrize("cell", ["=cmd|' -C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "=1+2",
                                  "-", "--", "+", "-1e", "- 1"])
def test_csv_cells_that_start_a_formula_are_neutralised(cell: str) -> None:
    safe = text.csv_cell(cell)
    if cell == "-":
        assert safe == "-"  # the tables' "none": no formula can follow it
        return
    # a quote first; a tab or carriage return is shown as an escape, so the cell starts with a backslash
    assert safe.startswith("'" if cell[0] not in "\t\r" else "\\") and unsafe(safe) == []


@pytest.mark.parametrize("cell", [3, -3, 1.5, -0.25, None, "-3", "+12", "-0.5", "1e-05", "-1E+3", "12.5", ".5",
                                  "greedy", "[+3, -7]", "12.5 %", "x=1"])
def test_csv_numbers_and_plain_text_stay_as_they_are(cell: object) -> None:
    assert text.csv_cell(cell) == cell


def test_csv_cells_are_one_line_of_display_text() -> None:
    assert text.csv_cell("a\x1b[2Jb\nc") == "a\\x1b[2Jb\\nc"
    assert text.csv_cell("\x1b=1") == "\\x1b=1"  # starts with a backslash now, not with '='


@pytest.mark.parametrize("value", ["<!--<script>", "</script>", "]]>", "a & b", "\u2028\u2029", "<\\/",
                                   {"k<>": ["</SCRIPT>", 1, None, "é 🙂"]}])
def test_json_for_html_round_trips_and_has_no_markup(value: object) -> None:
    embedded = text.json_for_html(value)
    assert json.loads(embedded) == value
    assert not set("<>&\u2028\u2029") & set(embedded)


@pytest.mark.parametrize("value", ["\x1b]0;t\x07", "\x9b2J", "\u202eabc", "tag\U000e0041", "é\n", {"\x85": "\\"}])
def test_json_for_terminal_round_trips_and_prints_no_control(value: object) -> None:
    shown = text.json_for_terminal(value)
    assert json.loads(shown) == value
    assert unsafe(shown) == []
    assert "é" not in json.dumps(value, ensure_ascii=False) or "é" in shown  # letters stay readable


@pytest.mark.parametrize(("name", "problem"), [
    ("evil\nname", "line break"), ("a\rb", "line break"), ("esc\x1b[31m", "\\x1b"), ("del\x7f", "\\x7f"),
    ("c1\x9b", "\\x9b"), ("gnp\u202eexe", "\\u202e"), ("zw\u200bsp", "\\u200b"), ("a\\b", "path separator"),
    ("a/b", "path separator"), ("", "empty"), ("para\u2029", "line break"),
])
def test_names_with_controls_or_separators_are_refused_and_shown_escaped(name: str, problem: str) -> None:
    with pytest.raises(ArenaError) as refused:
        text.check_name(name, f"bots/{name}.py")
    message = str(refused.value)
    assert problem in message and unsafe(message, keep="") == []
    if name:
        assert f"'{text.display(name)}'" in message and "rename it" in message


@pytest.mark.parametrize("name", ["greedy", "strong-2", "my_bot.v2", "бот", "=cmd|' -C calc'!A0", "a b"])
def test_plain_names_are_accepted(name: str) -> None:
    text.check_name(name, f"bots/{name}.py")


def test_log_lines_are_one_line_of_text() -> None:
    formatter = text.SafeFormatter("%(levelname)s %(message)s")
    record = logging.LogRecord("arena", logging.INFO, __file__, 1, "%s wins\n%s", ("evil\x1b[2J", FAKE), None)
    assert formatter.format(record) == "INFO evil\\x1b[2J wins\\nrandom crashed, evil wins"


# ------------------------------------------------------------------ a tournament of hostile bots
@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """One finished tournament (sandboxed): evil, liar, the formula-named bot and random."""
    base = tmp_path_factory.mktemp("hostile")
    bots = base / "bots"
    paths = [_write(bots / "evil.py", EVIL), _write(bots / "liar.py", LIAR),
             Path(shutil.copy(ROOT / "bots/random.py", bots / f"{FORMULA_BOT}.py")),
             Path(shutil.copy(ROOT / "bots/random.py", bots / "random.py"))]
    run = _arena("run", "--bots", *map(str, paths), "--boards", str(BOARD), "--name", "hostile", "--results",
                 str(base / "results"), "--jobs", "2", "--cpu", "5", cwd=base)  # (no timeout on a busy machine)
    assert run.returncode == 0, run.stderr
    folder = base / "results" / "hostile"
    return {"base": base, "folder": folder, "run": run, "records": Store.open_existing(folder).records()}


def _game(hostile: dict, *seats: str) -> dict:
    """The game with these seats (the hostile bot moves first unless named second)."""
    return next(r for r in hostile["records"] if r["seats"] == list(seats))


#: What the tables of an older arena's results show when its records hold a name with controls.
OLD_NAME = "ev\\x1b[2J\\x9bil\\u202e"


def test_records_keep_what_the_bot_printed_as_it_was(hostile: dict) -> None:
    record = _game(hostile, "evil", "random")
    printed = next(m["stdout"] for m in record["moves"] if m.get("stdout"))
    assert printed == "".join(ATTACKS.values()) + "\n"  # escaped where shown, never where stored


def test_run_progress_and_arena_log_show_no_control_character(hostile: dict) -> None:
    run = hostile["run"]
    assert unsafe(run.stdout) == [] and unsafe(run.stderr) == []
    log = (hostile["folder"] / "arena.log").read_text(encoding="utf-8")
    assert unsafe(log) == []
    assert "liar bad-output" in run.stderr  # the liar's games are there, with their reason
    for lines in (run.stderr, log):
        assert not any(line.startswith(FAKE) for line in lines.split("\n"))
    assert (hostile["folder"] / "tables.txt").exists() and unsafe((hostile["folder"] / "tables.txt").read_text()) == []


def test_replay_shows_the_escapes_not_the_effects(hostile: dict) -> None:
    record = _game(hostile, "evil", "random")
    shown = _arena("replay", str(hostile["folder"]), record["id"], cwd=hostile["base"])
    assert shown.returncode == 0, shown.stderr
    assert unsafe(shown.stdout) == [] and unsafe(shown.stderr) == []
    assert "\\x1b[2J" in shown.stdout and "\\x1b]52;c;" in shown.stdout and "\\x9b2J" in shown.stdout
    assert "\\u202egnp.exe" in shown.stdout
    assert not any(line.lstrip("| ").startswith(FAKE) for line in shown.stdout.split("\n"))
    assert "\\rrandom crashed, evil wins" in shown.stdout


def test_rerun_shows_the_escapes_not_the_effects(hostile: dict) -> None:
    record = _game(hostile, "evil", "random")  # (evil moves first: it always prints)
    again = _arena("rerun", str(hostile["folder"]), record["id"], cwd=hostile["base"])
    assert again.returncode == 0, again.stderr
    assert "== result now: " in again.stdout and "\\x1b]0;pwned\\x07" in again.stdout
    assert unsafe(again.stdout) == [] and unsafe(again.stderr) == []


def test_show_in_every_table_format_prints_no_control_character(hostile: dict,
                                                                  capsys: pytest.CaptureFixture) -> None:
    for fmt in tabulate_formats:
        assert arena_main(["show", str(hostile["folder"]), "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert unsafe(out, keep="\n\t") == [], fmt
    shown = _arena("show", str(hostile["folder"]), "--format", "json", cwd=hostile["base"])
    assert unsafe(shown.stdout) == []
    data = json.loads(shown.stdout)  # the data stay exact
    assert FORMULA_BOT in [row[1] for row in data["tables"]["standings"]["rows"]]


@pytest.fixture(scope="module")
def old_results(hostile: dict, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile tournament as an older arena (which took any name) could have left it:
    the bot named "evil" is named with an escape sequence, a C1 CSI and a bidi override."""
    folder = tmp_path_factory.mktemp("old") / "results" / "hostile"
    folder.mkdir(parents=True)
    for name in ("tournament.json", "games.jsonl"):
        original = (hostile["folder"] / name).read_text(encoding="utf-8")
        renamed = original.replace('"evil"', '"ev\\u001b[2J\\u009bil\\u202e"').replace(
            "|evil", "|ev\\u001b[2J\\u009bil\\u202e")
        (folder / name).write_text(renamed, encoding="utf-8")
    return folder


def test_tables_of_names_with_controls_show_escapes(old_results: Path, capsys: pytest.CaptureFixture) -> None:
    for fmt in ["simple", "github", "plain", "html", "csv", "json"]:
        assert arena_main(["show", str(old_results), "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert unsafe(out) == [], fmt
        assert (OLD_NAME if fmt != "json" else "ev\\u001b[2J\\u009bil\\u202e") in out, fmt
    shown = json.loads(_arena("show", str(old_results), "--format", "json", cwd=old_results).stdout)
    assert "ev\x1b[2J\x9bil\u202e" in [row[1] for row in shown["tables"]["standings"]["rows"]]  # exact data


def test_replay_and_report_of_names_with_controls(old_results: Path, tmp_path: Path) -> None:
    record = next(r for r in Store.open_existing(old_results).records() if r["seats"][1] == "random"
                  and "il" in r["seats"][0])
    shown = _arena("replay", str(old_results), record["id"], cwd=ROOT)
    assert shown.returncode == 0, shown.stderr
    assert unsafe(shown.stdout) == [] and OLD_NAME in shown.stdout
    # the solver's notes name both bots of every move, in the terminal and in the page
    solved = _arena("replay", str(old_results), record["id"], "--solve", "5", cwd=ROOT)
    assert solved.returncode == 0, solved.stderr
    notes = [line for line in solved.stdout.split("\n") if line.startswith("  solver: ")]
    assert notes and all(OLD_NAME in line for line in notes) and unsafe(solved.stdout + solved.stderr) == []
    page = tmp_path / "solved.html"
    assert _arena("replay", str(old_results), record["id"], "--solve", "5", "--html", str(page), cwd=ROOT).returncode == 0
    assert unsafe(page.read_text(encoding="utf-8"), keep="\n") == []  # (before: the view's labels kept the name raw)
    report = _arena("report", str(old_results), "--out", str(tmp_path / "report"), cwd=ROOT)
    assert report.returncode == 0 and unsafe(report.stdout + report.stderr) == []


def test_the_log_of_a_run_is_one_line_per_record(tmp_path: Path) -> None:
    from arena.commands.run import _setup_logging

    log = tmp_path / "arena.log"
    _setup_logging(log)
    try:
        logging.getLogger("arena.tournament").info("%s wins", "evil\n" + FAKE + "\x1b]0;t\x07")
    finally:
        for handler in list(logging.getLogger("arena").handlers):
            logging.getLogger("arena").removeHandler(handler)
            handler.close()
    written = log.read_text(encoding="utf-8")
    assert unsafe(written) == [] and written.count("\n") == 1 and "evil\\nrandom crashed" in written


def test_show_csv_neutralises_formulas_and_keeps_numbers(hostile: dict) -> None:
    shown = _arena("show", str(hostile["folder"]), "--format", "csv", cwd=hostile["base"])
    assert shown.returncode == 0, shown.stderr
    assert unsafe(shown.stdout) == []
    cells = [cell for row in csv.reader(io.StringIO(shown.stdout)) for cell in row]
    assert "'" + FORMULA_BOT in cells and FORMULA_BOT not in cells
    for cell in cells:
        assert not cell.startswith(("=", "+", "@", "\t", "\r")) or text.NUMBER.fullmatch(cell), cell
        assert not cell.startswith("-") or cell == "-" or text.NUMBER.fullmatch(cell), cell
    table = _arena("show", str(hostile["folder"]), "--format", "csv", "--table", "standings", cwd=hostile["base"])
    rows = list(csv.reader(io.StringIO(table.stdout)))
    assert rows[0][:3] == ["#", "bot", "points"] and all(float(row[2]) >= 0 for row in rows[1:])  # numbers


@pytest.mark.parametrize(("name", "shown"), [("evil\nname", "evil\\nname"), ("esc\x1b[31mred", "esc\\x1b[31mred"),
                                             ("back\\slash", "back\\\\slash"), ("rtl\u202eyp", "rtl\\u202eyp"),
                                             ("not-utf8\udcff", "not-utf8\\udcff")])
def test_bot_names_that_could_forge_a_line_are_refused(tmp_path: Path, name: str, shown: str) -> None:
    bad = Path(shutil.copy(ROOT / "bots/random.py", tmp_path / f"{name}.py"))
    run = _arena("run", "--bots", str(bad), str(ROOT / "bots/random.py"), "--boards", str(BOARD),
                 "--results", str(tmp_path / "results"), "--no-sandbox", cwd=tmp_path, timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"its name '{shown}'" in run.stderr and "rename it" in run.stderr
    assert unsafe(run.stderr) == [] and not any(tmp_path.rglob("games.jsonl"))
    match = _arena("match", str(bad), str(ROOT / "bots/random.py"), "--boards", str(BOARD),
                   "--results", str(tmp_path / "results"), "--no-sandbox", cwd=tmp_path, timeout=60)
    assert match.returncode == 2 and f"its name '{shown}'" in match.stderr


@pytest.mark.parametrize(("folder", "file", "shown"), [("boards", "evil\nboard.in", "boards/evil\\nboard"),
                                                       ("bo\x1b]0;x\x07ards", "board1.in", "bo\\x1b]0;x\\x07ards/board1")])
def test_board_names_that_could_forge_a_line_are_refused(tmp_path: Path, folder: str, file: str, shown: str) -> None:
    board = tmp_path / folder / file
    board.parent.mkdir()
    shutil.copy(BOARD, board)
    run = _arena("run", "--bots", str(ROOT / "bots/random.py"), str(ROOT / "bots/greedy.py"), "--boards",
                 str(board.parent), "--results", str(tmp_path / "results"), "--no-sandbox", cwd=tmp_path, timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"its name '{shown}'" in run.stderr and "board file" in run.stderr
    assert unsafe(run.stderr) == []


# ------------------------------------------------------------------ the page
def test_replay_pages_of_a_page_breakers_games_still_draw_their_board(hostile: dict, tmp_path: Path) -> None:
    from test_replay import _browser

    sync_playwright, chromium = _browser()
    pages = []
    for bot in ("evil", "liar"):
        record = _game(hostile, bot, "random")
        page = tmp_path / f"{bot}.html"
        made = _arena("replay", str(hostile["folder"]), record["id"], "--html", str(page), cwd=hostile["base"])
        assert made.returncode == 0, made.stderr
        pages.append((page, record))
    report = _arena("report", str(hostile["folder"]), "--out", str(tmp_path / "report"), cwd=hostile["base"])
    assert report.returncode == 0, report.stderr
    pages += [(path, None) for path in sorted((tmp_path / "report" / "games").glob("*evil*.html"))[:2]]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            view = browser.new_page(viewport={"width": 1300, "height": 900})
            errors: list[str] = []
            view.on("pageerror", lambda exc: errors.append(str(exc)))
            for path, record in pages:
                view.goto(path.as_uri() + "#1")  # the first move: the hostile bot's
                view.wait_for_selector(".grid .c", timeout=5000)
                assert view.evaluate("window.replay.count") >= 2
                if record is not None:
                    printed = view.text_content("#output") or ""
                    assert "<!--<script></script>]]>" in printed  # shown as text, whole
                    assert "\\u202egnp.exe" in printed and "\u202e" not in printed  # nothing reversed
            view.goto(pages[0][0].as_uri() + "#1")
            view.wait_for_selector(".grid .c")
            view.screenshot(path=str(tmp_path / "evil.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()

"""Bots in every language of the table: each shipped template builds and plays in the sandbox; the
table can be read (``arena languages``) and extended (``--languages``); a toolchain the sandbox cannot
see, a runtime that reserves more memory than it uses, a #! line with a carriage return and a CPU
limit below a runtime's start are each a clear message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena import languages
from arena.bots import Compilers

REPO = Path(__file__).resolve().parent.parent
TEMPLATES = REPO / "bots" / "templates"
ARENA = [sys.executable, "-m", "arena.cli"]
BOARD = str(REPO / "boards" / "group1" / "board1.in")
#: Each shipped language's template (python, c and cpp have theirs in bots/).
TEMPLATE = {"python": REPO / "bots" / "template.py", "c": None, "cpp": REPO / "bots" / "template-cpp.cpp",
            "java": TEMPLATES / "TemplateJava.java", "rust": TEMPLATES / "template-rust.rs",
            "go": TEMPLATES / "template-go.go", "javascript": TEMPLATES / "template-js.js",
            "csharp": TEMPLATES / "template-cs.cs"}


def missing(name: str) -> str | None:
    """Why this machine cannot build or run the language in the sandbox, or None."""
    row = languages.shipped().get(name)
    variables = {**Compilers().variables(), "source": "/S", "sources": ["/S"], "stem": "S",
                 "output": "/O", "build": "/B"}
    for command in (row.compile, row.run):
        if command:
            found = languages.locate(languages.expand(command, variables), row, sandboxed=True)
            if isinstance(found, str):
                return found
    return None


def need(*names: str) -> None:
    """Skip, saying what to install, where a toolchain is missing; but never in CI, which installs them."""
    problems = [problem for name in names if (problem := missing(name))]
    if problems and os.environ.get("CI"):
        pytest.fail("CI installs every shipped language's toolchain (.ci/run): " + "; ".join(problems))
    if problems:
        pytest.skip("; ".join(problems))


def arena(tmp_path: Path, *options: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([*ARENA, *options], capture_output=True, text=True, timeout=600, cwd=tmp_path, check=False)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def test_every_shipped_language_has_a_template_that_plays_sandboxed(tmp_path):
    need(*(name for name in TEMPLATE if TEMPLATE[name]))
    bots = [str(path) for path in TEMPLATE.values() if path] + [str(REPO / "bots" / "random.py")]
    done = arena(tmp_path, "run", "--bots", *bots, "--boards", BOARD, "--name", "t", "--jobs", "2")
    assert "arena: sandbox: bubblewrap" in done.stderr and "excluded" not in done.stderr, done.stderr
    games = records(tmp_path / "results" / "t")
    assert {name for game in games for name in game["seats"]} == {
        "template", "template-cpp", "TemplateJava", "template-rust", "template-go", "template-js", "template-cs", "random"}
    assert [game["fault"] for game in games if game["fault"]] == []
    used = json.loads((tmp_path / "results" / "t" / "tournament.json").read_text())["languages"]
    assert set(used) == {"python", "cpp", "java", "rust", "go", "javascript", "csharp"}
    assert all(row["version"] and row["version"] != "not installed" for row in used.values()), used


def test_the_table_lists_every_language_with_what_this_machine_has(tmp_path):
    done = arena(tmp_path, "languages")
    lines = done.stdout.splitlines()
    for row in languages.shipped().rows:
        line = next(line for line in lines if line.startswith(row.name + " "))
        problem = missing(row.name)
        assert (problem[:40] if problem else "not installed") in line or (not problem and "not installed" not in line)
    assert "How each is built and run:" in done.stdout and "javac" in done.stdout


SHELL = """
[shell]
suffixes = [".sh"]
main = "main.sh"
run = ["/bin/sh", "{source}"]
version = ["/bin/sh", "-c", "echo dash"]
"""


def test_an_organiser_adds_a_language_with_a_file(tmp_path):
    (tmp_path / "languages.toml").write_text(SHELL)
    bot = tmp_path / "threes.sh"  # not executable: its language runs it
    bot.write_text("echo ASDWASDW > game.out\n")
    done = arena(tmp_path, "run", "--game", "threes", "--bots", str(bot), "--boards",
                 str(REPO / "boards" / "threes" / "sample.in"), "--name", "t", "--languages", "languages.toml")
    (game,) = records(tmp_path / "results" / "t")
    assert game["fault"] is None, game
    used = json.loads((tmp_path / "results" / "t" / "tournament.json").read_text())["languages"]
    assert used == {"shell": {"suffixes": [".sh"], "compile": None, "run": "/bin/sh {source}", "version": "dash"}}
    listed = arena(tmp_path, "languages", "--languages", "languages.toml")
    assert any(line.startswith("shell ") for line in listed.stdout.splitlines()), listed.stdout
    assert done.returncode == 0


@pytest.mark.parametrize(("text", "message"), [
    ("[shell]\nsuffixes = ['.sh']\nmain = 'main.sh'\n", "[shell]: suffixes, main and run are needed"),
    ("[shell]\nsuffixes = '.sh'\nmain = 'm'\nrun = ['x']\n", "[shell]: suffixes must be a list of words"),
    ("[shell]\nsuffix = ['.sh']\n", "[shell]: unknown field 'suffix'"),
    ("[shell\n", "not TOML"),
    ("[shell]\nsuffixes = ['.sh']\nmain = 'm'\nrun = ['{nope}']\n", "unknown variable {nope}"),
])
def test_a_wrong_languages_file_is_a_clear_error(tmp_path, text, message):
    (tmp_path / "languages.toml").write_text(text)
    bot = tmp_path / "a.sh"
    bot.write_text("true\n")
    done = arena(tmp_path, "run", "--bots", str(bot), str(REPO / "bots" / "random.py"), "--boards", BOARD,
                 "--languages", "languages.toml", check=False)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "languages.toml" in done.stderr


def test_a_toolchain_the_sandbox_cannot_see_is_named_with_the_package(tmp_path):
    """rustup, sdkman and nvm install outside /usr, which the sandbox does not see."""
    tools = tmp_path / "opt-toolchain"
    tools.mkdir()
    (tools / "mycc").write_text("#!/bin/sh\nexit 0\n")
    (tools / "mycc").chmod(0o755)
    (tmp_path / "languages.toml").write_text(textwrap.dedent("""
        [mine]
        suffixes = [".mine"]
        main = "main.mine"
        compile = ["mycc", "-o", "{output}/bot", "{source}"]
        run = ["{build}/bot"]
        package = "mine-compiler"
    """))
    (tmp_path / "bot.mine").write_text("source\n")
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run([*ARENA, "run", "--bots", "bot.mine", str(REPO / "bots" / "random.py"),
                           str(REPO / "bots" / "greedy.py"), "--boards", BOARD, "--languages", "languages.toml",
                           "--name", "t"], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert (f"bot.mine' is excluded: cannot compile: mycc is at {tools / 'mycc'}, outside /usr, where the sandbox "
            "cannot see it: install the Debian package (apt-get install mine-compiler)") in done.stderr


def test_a_runtime_over_its_memory_is_a_memory_verdict_and_one_within_plays(tmp_path):
    """A JVM reserves far more address space than it uses: its limit is what the kernel charges it,
    and its heap is sized from the limit; going over is memory-limit, not a crash."""
    need("java")
    hog = tmp_path / "Hog.java"
    hog.write_text(textwrap.dedent("""
        import java.util.ArrayList;
        public class Hog {
            public static void main(String[] args) {
                ArrayList<long[]> kept = new ArrayList<>();
                while (true) kept.add(new long[1 << 20]);
            }
        }
    """))
    arena(tmp_path, "run", "--bots", str(hog), str(TEMPLATE["java"]), "--boards", BOARD, "--name", "t")
    games = records(tmp_path / "results" / "t")
    verdicts = {move["verdict"] for game in games for move in game["moves"] if game["seats"][move["seat"]] == "Hog"}
    assert verdicts == {"memory-limit"}, verdicts
    assert all(game["fault"]["verdict"] == "memory-limit" for game in games)


def test_a_script_whose_first_line_ends_in_a_carriage_return_is_excluded_saying_why(tmp_path):
    bot = tmp_path / "windows.sh"
    bot.write_bytes(b"#!/bin/sh\r\necho hi > game.out\r\n")
    bot.chmod(0o755)
    done = arena(tmp_path, "run", "--bots", str(bot), str(REPO / "bots" / "random.py"), str(REPO / "bots" / "greedy.py"),
                 "--boards", BOARD, "--name", "t")
    assert "windows.sh' is excluded: its #! line ends in a carriage return" in done.stderr
    assert "'/bin/sh\\r'" in done.stderr and "dos2unix" in done.stderr
    # recorded, not only said: in tournament.json, arena.log, the tables and the report
    folder = tmp_path / "results" / "t"
    (excluded,) = json.loads((folder / "tournament.json").read_text())["excluded"]
    assert excluded["name"] == "windows" and "carriage return" in excluded["reason"]
    assert "bot 'windows'" in (folder / "arena.log").read_text()
    shown = arena(tmp_path, "show", str(folder)).stdout
    assert "Excluded" in shown and "windows" in shown.split("Excluded")[1] and "\r" not in shown
    csv = arena(tmp_path, "show", str(folder), "--format", "json").stdout
    assert json.loads(csv)["tables"]["excluded"]["rows"][0][0] == "windows"
    arena(tmp_path, "report", str(folder), "--out", str(tmp_path / "report"))
    assert "windows" in (tmp_path / "report" / "index.html").read_text().split("Excluded")[1]


def test_a_cpu_limit_below_a_runtimes_start_is_refused_naming_it(tmp_path):
    done = arena(tmp_path, "run", "--bots", str(REPO / "bots" / "random.py"), str(REPO / "bots" / "greedy.py"),
                 "--boards", BOARD, "--cpu", "0.001", check=False)
    assert done.returncode == 2
    assert "--cpu 0.001 is below what starting a python bot costs here" in done.stderr, done.stderr
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").glob("*/games.jsonl"))

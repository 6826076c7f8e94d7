"""prepare_bots: Python, C and C++ sources, executables, and what is not a bot."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bots import Bot, Excluded, prepare_bots
from arena.errors import ArenaError
from arena.sandbox import Limits, run_bot

FAKE = Path(__file__).parent / "fakebots"
needs_cc = pytest.mark.skipif(not (shutil.which("cc") and shutil.which("c++")), reason="no C/C++ compiler")

ADD_C = r"""
#include <stdio.h>
int main(void) {
    int a, b;
    FILE *in = fopen("game.in", "r");
    if (fscanf(in, "%d %d", &a, &b) != 2) return 1;
    FILE *out = fopen("game.out", "w");
    fprintf(out, "%d\n", a + b);
    return 0;
}
"""
ADD_CPP = r"""
#include <fstream>
#include <utility>
int main() {
    std::ifstream in("game.in");
    std::pair<int, int> p;
    in >> p.first >> p.second;
    auto [a, b] = p;  // C++17
    std::ofstream("game.out") << a * b << "\n";
}
"""


def write(path: Path, text: str, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def prepare(*paths: Path, build: Path) -> tuple[list[Bot], list[Excluded], list[str]]:
    notices: list[str] = []
    bots, excluded = prepare_bots([str(p) for p in paths], build, log=notices.append)
    return bots, excluded, notices


def test_python_bot_runs_with_this_interpreter(tmp_path: Path) -> None:
    source = FAKE / "ok.py"
    (bot,), excluded, notices = prepare(source, build=tmp_path / "build")
    assert (excluded, notices) == ([], [])
    assert bot.name == "ok" and bot.path == source.absolute()
    copy = tmp_path / "build" / f"ok-{bot.sha256[:16]}" / "ok.py"
    assert bot.command == (sys.executable, "-P", str(copy))  # the read-only copy runs, not the source
    assert copy.read_bytes() == source.read_bytes() and not os.access(copy, os.W_OK) or os.getuid() == 0
    assert copy.stat().st_mode & 0o222 == 0 and copy.parent.stat().st_mode & 0o222 == 0
    assert bot.sha256 == hashlib.sha256(source.read_bytes()).hexdigest()


def test_relative_paths_become_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "bots" / "rel.py", "pass\n")
    monkeypatch.chdir(tmp_path)
    (bot,), _ = prepare_bots(["bots/rel.py"], tmp_path / "build", log=lambda _: None)
    assert bot.path == tmp_path / "bots" / "rel.py"
    assert Path(bot.command[-1]).is_absolute()


@needs_cc
def test_c_bot_is_compiled_once_and_plays(tmp_path: Path) -> None:
    source = write(tmp_path / "bots" / "adder.c", ADD_C)
    build = tmp_path / "build"
    (bot,), excluded, _ = prepare(source, build=build)
    assert excluded == [] and bot.name == "adder"
    (binary,) = bot.command
    assert Path(binary).parent.parent == build / f"adder-{bot.sha256[:16]}"  # what the compiler wrote, in the copy
    assert Path(binary).parent.name.startswith("adder.") and Path(binary).parent.name.endswith(".build")
    result = run_bot(bot.command, tmp_path / "play", {"game.in": "20 22\n"}, Limits(cpu=1))
    assert (result.verdict, result.output) == ("ok", "42\n")
    built = Path(binary).stat().st_mtime_ns
    (again,), _, _ = prepare(source, build=build)
    assert again.command == bot.command and Path(binary).stat().st_mtime_ns == built  # reused
    source.write_text(ADD_C.replace("a + b", "a - b"))
    (changed,), _, _ = prepare(source, build=build)
    assert changed.command != bot.command and changed.sha256 != bot.sha256  # rebuilt


@needs_cc
def test_cpp_bot_is_compiled_as_cpp17(tmp_path: Path) -> None:
    source = write(tmp_path / "times.cpp", ADD_CPP)
    (bot,), excluded, _ = prepare(source, build=tmp_path / "build")
    assert excluded == []
    result = run_bot(bot.command, tmp_path / "play", {"game.in": "6 7\n"}, Limits(cpu=1))
    assert (result.verdict, result.output) == ("ok", "42\n")


@needs_cc
def test_compile_error_excludes_the_bot_with_the_message(tmp_path: Path) -> None:
    broken = write(tmp_path / "broken.c", "int main(void) { return undefined_name; }\n")
    fine = FAKE / "ok.py"
    bots, (bad,), _ = prepare(broken, fine, build=tmp_path / "build")
    assert [b.name for b in bots] == ["ok"]
    assert bad.path == broken.absolute()
    assert bad.reason.startswith("compilation failed (") and "exit status 1):" in bad.reason
    assert "undefined_name" in bad.reason and "error" in bad.reason
    assert not list((tmp_path / "build").glob("broken*/*.build"))


def test_folders_and_helpers_are_skipped_with_a_notice(tmp_path: Path) -> None:
    folder = tmp_path / "bots"
    folder.mkdir()
    helper = write(tmp_path / "_helper.py", "pass\n")
    hidden = write(tmp_path / ".hidden.py", "pass\n")
    bots, excluded, notices = prepare(folder, helper, hidden, FAKE / "ok.py", build=tmp_path / "build")
    assert [b.name for b in bots] == ["ok"] and excluded == []
    assert len(notices) == 3
    assert "a folder is a bot only if it holds main.py" in notices[0] and repr(str(folder)) in notices[0]
    assert "_helper.py" in notices[1] and "helper" in notices[1]
    assert ".hidden.py" in notices[2]


def test_executable_files_run_as_they_are(tmp_path: Path) -> None:
    script = write(tmp_path / "shbot", "#!/bin/sh\ncp game.in game.out\n", mode=0o755)
    (bot,), _, _ = prepare(script, build=tmp_path / "build")
    assert bot.command == (str(tmp_path / "build" / f"shbot-{bot.sha256[:16]}" / "shbot"),)
    result = run_bot(bot.command, tmp_path / "play", {"game.in": "hi\n"}, Limits(cpu=1))
    assert (result.verdict, result.output) == ("ok", "hi\n")


def test_non_executable_file_is_excluded(tmp_path: Path) -> None:
    notes = write(tmp_path / "notes.txt", "not a bot\n")
    bots, (bad,), _ = prepare(notes, build=tmp_path / "build")
    assert bots == []
    assert bad.path == notes.absolute() and bad.reason.startswith("not executable")


def test_two_bots_with_one_name_are_an_error(tmp_path: Path) -> None:
    first = write(tmp_path / "a" / "greedy.py", "pass\n")
    second = write(tmp_path / "b" / "greedy.c", "int main(void) { return 0; }\n")
    with pytest.raises(ArenaError, match=r"two bots are named 'greedy'.*a/greedy\.py.*b/greedy\.c"):
        prepare(first, second, build=tmp_path / "build")
    with pytest.raises(ArenaError, match="listed twice"):
        prepare(first, first, build=tmp_path / "build")
    assert not (tmp_path / "build").exists()  # checked before anything is compiled


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match=r"bot '.*nowhere\.py' does not exist"):
        prepare(FAKE / "ok.py", tmp_path / "nowhere.py", build=tmp_path / "build")


# -- compiled bots under the limits: what a Python bot cannot show

OOM_C = r"""
#include <stdlib.h>
#include <string.h>
int main(void) {
    for (;;) {
        char *block = malloc(1 << 20);
        memset(block, 1, 1 << 20);  /* a NULL from malloc crashes here */
    }
}
"""
OOM_CPP = r"""
#include <vector>
int main() {
    std::vector<std::vector<char>> blocks;
    for (;;) blocks.emplace_back(1 << 20, 1);
}
"""
BIG_FILE_C = r"""
#include <stdio.h>
int main(void) {
    FILE *out = fopen("game.out", "w");
    for (int i = 0; i < 4 << 20; i++) fputc('x', out);
    return fclose(out) != 0;
}
"""


def run_from_a_fresh_arena(command: list[str], folder: Path, limits: Limits) -> dict:
    """``run_bot`` called from a new process, as small as an arena's worker: this test session grows
    past a bot's memory limit, and then the unsandboxed runner cannot see a bot's memory peak below
    its caller's own (``arena.sandbox.process``, ``peak_memory``)."""
    code = ("import dataclasses, json, sys; from arena.sandbox import Limits, run_bot; "
            "a = json.loads(sys.argv[1]); "
            "print(json.dumps(dataclasses.asdict(run_bot(a[0], a[1], {'game.in': ''}, Limits(**a[2])))))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps([command, str(folder), dataclasses.asdict(limits)])],
                          capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)


@needs_cc
@pytest.mark.parametrize(("name", "source"), [("oom.c", OOM_C), ("oom.cpp", OOM_CPP)])
def test_native_allocation_failure_is_a_memory_limit(tmp_path: Path, name: str, source: str) -> None:
    (bot,), _, _ = prepare(write(tmp_path / name, source), build=tmp_path / "build")
    result = run_from_a_fresh_arena(bot.command, tmp_path / "play", Limits(cpu=2, memory=64 * 2**20))
    assert result["verdict"] == "memory-limit", result
    assert result["exit_code"] in (-6, -11), result  # bad_alloc aborts; a NULL dereference segfaults


@needs_cc
@pytest.mark.parametrize("strict", [False, True])
def test_native_bot_is_killed_by_sigxfsz(tmp_path: Path, strict: bool) -> None:
    (bot,), _, _ = prepare(write(tmp_path / "big.c", BIG_FILE_C), build=tmp_path / "build")
    result = run_bot(bot.command, tmp_path / "play", {"game.in": ""}, Limits(cpu=1, strict=strict))
    assert (result.verdict, result.exit_code) == ("crash", -25), result
    assert "file size limit of 1 MiB" in result.message
    assert (tmp_path / "play" / "game.out").stat().st_size <= 2**20


def test_a_python_bot_named_like_a_standard_module_does_not_shadow_it(tmp_path):
    """bots/random.py must be able to `import random` (the standard one)."""
    source = tmp_path / "random.py"
    source.write_text("import random\nopen('game.out', 'w').write(str(random.randint(5, 5)))\n")
    (bot,), _ = prepare_bots([str(source)], tmp_path / "build")
    result = run_bot(bot.command, tmp_path / "folder", {"game.in": ""}, Limits(cpu=5))
    assert result.verdict == "ok" and result.output == "5", result


def _prepare_and_play(source: str, copies: str, start, index: int) -> tuple[tuple[str, ...], list[str]]:
    """One of many processes preparing the same bot into one copies folder at once (as the worker
    processes of a cluster machine share their cache), then playing it while the others prepare."""
    from arena.bots import prepare_bot

    start.wait()
    bot = prepare_bot(Path(source), Path(copies))
    assert isinstance(bot, Bot), bot
    outputs = [run_bot(bot.command, Path(copies).parent / f"play{index}", {"game.in": f"{n} {index}\n"}, Limits(cpu=1))
               for n in range(3)]
    return bot.command, [f"{result.verdict} {result.output}" for result in outputs]


@needs_cc
def test_many_processes_preparing_one_bot_at_once_share_one_copy_and_one_build(tmp_path: Path) -> None:
    import multiprocessing

    source = write(tmp_path / "bots" / "adder.c", ADD_C)
    copies = tmp_path / "cache" / "copies"
    context = multiprocessing.get_context("fork")
    start = context.Manager().Barrier(16)
    with context.Pool(16) as pool:
        done = pool.starmap(_prepare_and_play, [(str(source), str(copies), start, i) for i in range(16)])
    commands = {command for command, _ in done}
    assert len(commands) == 1  # one copy, one build, used by all
    for index, (_, outputs) in enumerate(done):
        assert outputs == [f"ok {n + index}\n" for n in range(3)], outputs
    (folder,) = [p for p in copies.iterdir() if p.is_dir()]
    built = Path(next(iter(commands))[0]).parent.name
    assert sorted(p.name for p in folder.iterdir() if p.name != ".complete") == sorted(["adder.c", built])
    assert not [p for p in copies.iterdir() if p.name.endswith((".partial", ".output"))]

"""Every shell command the README (and the other documents a reader follows:
docs/rules.md, boards/examples/README.md) shows runs as written from the
repository root, after the README's quick start (the environment made and
activated); their links lead somewhere.

The README's shell blocks are its indented code blocks and its ```sh / ```bash
fences.  A block preceded by ``<!-- not run: REASON -->`` is not run (a long
tournament, the quick start that made this very environment); its ``arena``
commands are still parsed, so that an option that does not exist is caught.
The others run in order, each in a fresh ``bash -e`` with the environment
activated, in a copy of the repository (they write results, boards, a bot).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(?P<reason>\S.*?)\s*-->")
FENCE = re.compile(r"^```(\w*)\s*$")
SHELL_FENCES = {"sh", "bash", "shell", "console"}


@dataclass(frozen=True)
class Block:
    """A shell block of a Markdown file: where it starts, its text, and why it is not run (if so)."""

    line: int
    text: str
    not_run: str | None


def shell_blocks(markdown: str) -> list[Block]:
    """The shell blocks of a Markdown text, in order."""
    lines = markdown.splitlines()
    blocks: list[Block] = []
    i, marker = 0, None
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
            if fence.group(1) in SHELL_FENCES:
                blocks.append(Block(i + 1, "\n".join(lines[i + 1:end]), marker))
            i, marker = end + 1, None
        elif line.startswith("    ") and (i == 0 or not lines[i - 1].strip() or NOT_RUN.search(lines[i - 1])):
            end = i
            while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            text = "\n".join(row[4:] for row in lines[i:end]).strip("\n")
            blocks.append(Block(i + 1, text, marker))
            i, marker = end, None
        else:
            found = NOT_RUN.search(line)
            if found:
                marker = found.group("reason")
            elif line.strip():
                marker = None
            i += 1
    return blocks


def commands(block: str) -> list[str]:
    """The commands of a block, continuation lines joined."""
    return [command for command in block.replace("\\\n", " ").splitlines() if command.strip()]


README_BLOCKS = shell_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
#: Documents whose commands are run as well (in this order, after the README's).
OTHER_DOCUMENTS = ("docs/rules.md", "boards/examples/README.md")
LINK = re.compile(r"\]\((?P<target>[^)#\s]+)(?:#(?P<anchor>[^)\s]+))?\)")


def test_the_readme_has_blocks_to_run_and_says_why_others_are_not_run():
    assert sum(block.not_run is None for block in README_BLOCKS) >= 10
    assert all(block.not_run for block in README_BLOCKS if block.not_run is not None)


def test_the_parser_sees_what_a_reader_sees():
    text = "intro\n\n    arena a\n      --x\n\nprose\n<!-- not run: slow -->\n    arena b\n\n```\ngame.in\n```\n" \
           "```sh\narena c\n```\n"
    assert shell_blocks(text) == [Block(3, "arena a\n  --x", None), Block(8, "arena b", "slow"),
                                  Block(13, "arena c", None)]


@pytest.mark.parametrize("block", [b for b in README_BLOCKS if b.not_run], ids=lambda b: f"README.md:{b.line}")
def test_arena_commands_not_run_still_parse(block):
    for command in commands(block.text):
        words = shlex.split(command, comments=True)
        for start in [k for k, word in enumerate(words) if word.endswith("arena") and "/" not in word[:-5]]:
            try:
                build_parser().parse_args(words[start + 1:])
            except SystemExit as exc:
                pytest.fail(f"README.md:{block.line}: {command!r} does not parse (exit {exc.code})")


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A copy of the repository as a fresh clone has it, with this environment as its ``.venv``."""
    copy = tmp_path_factory.mktemp("readme") / "arena"
    ignore = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache", "*.egg-info", "build")
    shutil.copytree(ROOT, copy, ignore=ignore, symlinks=True)
    shutil.rmtree(copy / "results")
    (copy / "results").mkdir()
    (copy / ".venv").symlink_to(VENV)
    return copy


def test_readme_commands_run_as_written(checkout):
    """Every block not marked "not run", in order (later blocks use what earlier ones made)."""
    _run_blocks(checkout, "README.md", README_BLOCKS)


@pytest.mark.parametrize("document", OTHER_DOCUMENTS)
def test_other_documents_commands_run_as_written(checkout, document):
    blocks = shell_blocks((ROOT / document).read_text(encoding="utf-8"))
    assert blocks
    _run_blocks(checkout, document, blocks)


def _run_blocks(checkout: Path, document: str, blocks: list[Block]) -> None:
    for block in blocks:
        if block.not_run:
            continue
        script = f". .venv/bin/activate\nset -e -o pipefail\n{block.text}\n"
        done = subprocess.run(["bash", "-c", script], check=False, cwd=checkout, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, (f"{document}:{block.line} failed (exit {done.returncode}):\n{block.text}\n"
                                      f"--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr[-2000:]}")


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("document", ["README.md", *OTHER_DOCUMENTS, "boards/match3/README.md",
                                      "boards/tictactoe3d/README.md"])
def test_links_lead_to_files_and_headings_that_exist(document):
    path = ROOT / document
    for found in LINK.finditer(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", found.group("target")):
            continue  # a web address: not checked offline
        target = (path.parent / found.group("target")).resolve()
        assert target.exists(), f"{document}: link to {found.group('target')!r}, which does not exist"
        if found.group("anchor"):
            headings = [line.lstrip("#") for line in target.read_text(encoding="utf-8").splitlines()
                        if line.startswith("#")]
            assert found.group("anchor") in map(_anchor, headings), f"{document}: no heading #{found.group('anchor')}"


def test_the_rules_are_cited_where_they_are():
    """The rules document of the project is docs/rules.md; nothing cites a file the project lacks (a
    game package's files may cite the RULES.md it holds)."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False).stdout
    files = [ROOT / name for name in tracked.split()] or [p for p in ROOT.rglob("*") if ".venv" not in p.parts]
    own = [p for p in files if p.name == "RULES.md"]  # a game package's own rules (games/connect4)

    def cites_another(p: Path) -> bool:
        """``p`` names a RULES.md, other than by a path to one the project has."""
        text = p.read_text(encoding="utf-8", errors="replace")
        for r in own:
            text = text.replace(os.path.relpath(r, p.parent), "").replace(str(r.relative_to(ROOT)), "")
        return "RULES.md" in text

    citing = [str(p.relative_to(ROOT)) for p in files
              if p.is_file() and p.suffix in {".py", ".md", ".cpp", ".c", ".txt", ".toml"}
              and p.name != "test_readme.py" and cites_another(p)
              and not any(p.is_relative_to(r.parent.parent) for r in own if r.parent != ROOT)]  # its package
    assert citing == [], f"these files cite RULES.md, which is not in the project: {citing}"

"""Shared by every test module."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest


def reap_adopted() -> None:
    """Reap the zombies this test process adopted.  Once a test has run a bot in this process, it is a
    child subreaper (arena.sandbox.process), so processes orphaned under it end up its zombies: the inner
    process of a sandbox whose bubblewrap was killed with the arena's worker (a test killing an
    arena, a worker or a cluster's nanny), for one.  Their own arena, killed, could not reap them."""
    time.sleep(0.2)
    for child in psutil.Process().children():
        try:
            if child.status() == psutil.STATUS_ZOMBIE:
                os.waitpid(child.pid, os.WNOHANG)
        except (psutil.NoSuchProcess, ChildProcessError):
            pass


@pytest.fixture(autouse=True, scope="module")
def _no_zombies_between_modules():
    """What one module's killed arenas leave must not be counted by the next module's checks
    (test_process's counts its own children)."""
    yield
    reap_adopted()


def playwright_chromium() -> tuple[Any, str]:
    """``(sync_playwright, the path of Chromium)``: Debian's chromium package and Playwright's Python
    package, skipped without them, except in CI (``CI`` set), where that fails."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        message = ("the browser test needs Debian's chromium package and the playwright Python package "
                   "(apt-get install chromium; pip install -e '.[test]')")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return sync_playwright, chromium


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium from the system through Playwright (``playwright_chromium``).  One per
    module: Playwright's sync API allows one at a time; a test opens its own pages or contexts."""
    sync_playwright, chromium = playwright_chromium()
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def install_new_game(name: str, folder: Path) -> Path:
    """``arena new-game NAME`` written into ``folder`` and installed with pip into ``folder/site``
    (a real installation, kept out of the test environment): the folder to put on PYTHONPATH."""
    made = subprocess.run([sys.executable, "-m", "arena.cli", "new-game", name, "--out", str(folder / f"arena-{name}")],
                          capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    site = folder / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                          "--target", str(site), str(folder / f"arena-{name}")], check=False, capture_output=True,
                         text=True)
    assert pip.returncode == 0, pip.stderr
    return site


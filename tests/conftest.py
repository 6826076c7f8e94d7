"""Shared by every test module."""

from __future__ import annotations

import os
import time

import psutil
import pytest


def reap_adopted() -> None:
    """Reap the zombies this test process adopted.  Once a test has run a bot in this process, it is a
    child subreaper (arena.process), so processes orphaned under it end up its zombies: the inner
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

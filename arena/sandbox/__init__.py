"""Running one move of a bot: one package, one seam.

``Runner(sandbox, programs, folder, limits, name, env).run(command, files) -> Invocation`` gives a
bot its files, runs it under the limits and says what happened (the verdict, its output, its CPU
and memory); ``sandbox=None`` (``--no-sandbox``) runs it as a plain process instead, behind the
same call.  The parts:

* ``policy``: what a bot may see and do (its mounts, uid, environment, keyring, room);
* ``seccomp``: the system calls it may not make;
* ``bubblewrap``: starting, keeping and emptying the sandboxes, and counting what they use (cgroups);
* ``supervisor``: the first process inside a sandbox, which starts the bot for each move;
* ``process``: the limits, the verdicts, and the unsandboxed runner (``run_bot``).
"""

from __future__ import annotations

from arena.sandbox.bubblewrap import (
    Runner,
    Session,
    close_kept,
    configure,
    prepare_bot_in,
    sandboxed_compiler,
)
from arena.sandbox.policy import FIRST_UID, UIDS, Sandbox, SandboxError
from arena.sandbox.process import Invocation, Limits, prepare_folder, read_output, run_bot

__all__ = ["FIRST_UID", "UIDS", "Invocation", "Limits", "Runner", "Sandbox", "SandboxError", "Session",
           "close_kept", "configure", "prepare_bot_in", "prepare_folder", "read_output", "run_bot",
           "sandboxed_compiler"]

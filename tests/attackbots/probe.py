# ruff: noqa: SIM115  (an attack bot: short on purpose)
"""An attack bot: game.in lists host paths and pids (one per line, "kind value");
it tries to read, write, signal and connect to each, and reports in game.out what worked."""

import json
import os
import signal
import socket

found = {"uid": os.getuid(), "env": dict(os.environ), "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit())}
status = open("/proc/self/status").read()
found["caps"] = [line.split()[1] for line in status.splitlines() if line.startswith("CapEff")]
found["no_new_privs"] = [line.split()[1] for line in status.splitlines() if line.startswith("NoNewPrivs")]
done = []
for line in open("game.in"):
    kind, _, value = line.strip().partition(" ")
    try:
        if kind == "read":
            if os.path.isdir(value):
                os.listdir(value)
            else:
                open(value, "rb").read(1)
        elif kind == "write":
            with open(value, "a") as handle:
                handle.write("forged\n")
        elif kind == "create":
            with open(value, "x") as handle:
                handle.write("import os\n")
        elif kind == "kill":
            os.kill(int(value), signal.SIGSTOP)
        elif kind == "mem":
            open(f"/proc/{value}/mem", "rb").read(1)
        elif kind == "connect":
            host, port = value.rsplit(":", 1)
            socket.create_connection((host, int(port)), timeout=1).close()
        elif kind == "pid1":
            os.kill(1, signal.SIGKILL)
            os.kill(1, signal.SIGSTOP)
            open("/proc/1/mem", "rb").read(1)
        elif kind == "fds":
            os.listdir("/proc/1/fd")
        else:
            continue
        done.append(line.strip())
    except OSError:
        pass
found["done"] = done
open("game.out", "w").write(json.dumps(found))

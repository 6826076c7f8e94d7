"""An attack bot (a probe): what its own /proc/self/status says of its capabilities, no_new_privs and
seccomp, and what that of a child it starts says; in game.out, as JSON."""

import json
import subprocess
import sys

FIELDS = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")


def status() -> dict:
    with open("/proc/self/status") as handle:
        lines = [line.split(":", 1) for line in handle if ":" in line]
    return {name: value.strip() for name, value in lines if name in FIELDS}


if sys.argv[1:] == ["child"]:
    print(json.dumps(status()))
else:
    command = [sys.executable, "-I", "-S", __file__, "child"]
    child = subprocess.run(command, capture_output=True, text=True, check=True)
    with open("game.out", "w") as handle:
        handle.write(json.dumps({"bot": status(), "child": json.loads(child.stdout)}))

"""A bounded fork bomb: 100 sleeping children, each appending its pid to forkbomb.pid."""

import os
import time

for _ in range(100):
    if os.fork() == 0:
        with open("forkbomb.pid", "a") as out:
            out.write(f"{os.getpid()}\n")
        time.sleep(1000)
        os._exit(0)
time.sleep(1000)

"""Sleeps forever (uses no CPU)."""

import time

time.sleep(1000)

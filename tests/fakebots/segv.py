"""Dies of a segmentation fault (SIGSEGV)."""

import os
import signal

os.kill(os.getpid(), signal.SIGSEGV)

"""Complains on stderr and exits with status 3."""

import sys

print("something went wrong", file=sys.stderr)
sys.exit(3)

"""Seeded boards of __game__: ``arena generate __game__ --seed 1 --count 4 --out DIR``."""

from __future__ import annotations

import argparse
import random

from generator import BadParameters, GeneratedBoard

GAME = "__game__"
HELP = "a race to a target: TARGET from 10 to --max-target, MOST from 2 to 5"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-target", type=int, default=40, help="the largest target (default 40, at least 10)")


def generate(args: argparse.Namespace, seed: int) -> GeneratedBoard:
    if args.max_target < 10:
        raise BadParameters(f"--max-target must be at least 10, got {args.max_target}")
    rng = random.Random(seed)
    target, most = rng.randint(10, args.max_target), rng.randint(2, 5)
    return GeneratedBoard(f"{target} {most}\n", {"target": target, "most": most})

"""A busy machine must not decide who wins: the same tournament idle and loaded gives the same results."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("bench_load", REPO / "benchmarks" / "bench_load.py")
bench_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_load)


def test_cpu_bound_bots_get_the_same_verdicts_idle_and_under_load(tmp_path):
    boards = [str(REPO / "boards" / "group1" / "board1.in"), str(REPO / "boards" / "group1" / "board3.in")]
    idle, loaded = bench_load.compare(boards, tmp_path)
    assert idle["records"] and set(idle["records"]) == set(loaded["records"])
    assert bench_load.outcomes(idle) == bench_load.outcomes(loaded), (bench_load.summary(idle),
                                                                      bench_load.summary(loaded))
    moves = [m for r in idle["records"].values() for m in r["moves"]]
    assert all(m["verdict"] == "ok" for m in moves)
    assert all(0.75 < m["cpu"] < 1.0 for m in moves)  # each move really is CPU-bound, close to the limit
    loaded_moves = [m for r in loaded["records"].values() for m in r["moves"]]
    assert max(m["wall"] for m in loaded_moves) > 1.0 and max(m["wait"] for m in loaded_moves) > 0.2  # it was busy

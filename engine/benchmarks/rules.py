"""Move generation speed: perft on Connect Four through the public ``State`` interface."""

from __future__ import annotations

import time

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.games import Connect4, State


def perft(state: State, depth: int) -> int:
    """Leaf positions ``depth`` plies below ``state`` (terminal positions stop early and count as leaves)."""
    if depth == 0 or state.is_terminal():
        return 1
    if depth == 1:
        return len(state.legal_moves())
    return sum(perft(state.play(move), depth - 1) for move in state.legal_moves())


def measure(quick: bool) -> list[BenchTable]:
    depth = 5 if quick else 7
    table = BenchTable(
        "Move generation (perft through State.play)", ["position", "depth", "leaves", "seconds", "nodes/s"]
    )
    for name, state in (("connect4 start", Connect4().start()),):
        started = time.perf_counter()
        leaves = perft(state, depth)
        seconds = time.perf_counter() - started
        table.rows.append([name, depth, leaves, round(seconds, 3), round(leaves / seconds)])
    return [table]

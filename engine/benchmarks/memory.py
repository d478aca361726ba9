"""Resident memory per tree node, per searcher: what a long search really costs the machine.

Each searcher runs in a fresh Python process (so that one searcher's freed memory cannot
flatter the next) from the empty Connect Four board with its registry defaults, seed 0,
until its tree holds ``nodes`` nodes (``Limit(nodes=...)``, or two minutes for a tree that
stops growing).  The figure is the growth of the process's resident set size (``VmRSS``
in ``/proc/self/status``) over that run, divided by the tree's nodes: object sizes, the
allocator's slack, lists and dicts, all
of it.  A warm-up run first pays for imports and caches.  The target is at most 200
bytes a node; the registry's ``node_bytes`` (which sets each searcher's default node cap)
is this figure rounded up.

Run one measurement by hand with ``python -m plyscope.engine.benchmarks.memory SPEC NODES``: it
prints ``bytes_per_node nodes seconds`` on one line.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import time

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.games import Connect4
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec, algorithms, make_searcher

TARGET_BYTES = 200
"""Bytes of resident memory per tree node a searcher may take (issue: at most 200)."""
FULL_NODES = 1_000_000
QUICK_NODES = 200_000
LEFT_OUT = ("solver", "perfect")
"""The exact solver and the perfect player keep a fixed-size table, not a tree that grows: the solver's tree pane is its
line of play, the perfect player's the position's moves."""
RUN_SECONDS = 120.0
"""A searcher whose tree stops growing (flat Monte Carlo keeps one level) is stopped after this long."""
TIMEOUT_SECONDS = 600
ENOUGH_NODES = 100_000
"""A tree that stays under this many nodes (search ended, one level only) gets no figure: fixed costs swamp it."""


def resident_bytes() -> int:
    """This process's resident set size, in bytes (``VmRSS``; 0 where ``/proc`` is not to be had)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure_here(spec_text: str, nodes: int) -> tuple[float, int, float]:
    """In this process: resident bytes per tree node of ``spec_text`` grown to ``nodes`` nodes from the empty
    board, the nodes it reached, and the seconds the run took."""
    spec = AgentSpec.parse(spec_text)
    state = Connect4().start()
    make_searcher(spec.name, state, spec.params, seed=0).run(Limit(nodes=1_000, seconds=2))  # warm up: imports, caches
    gc.collect()
    before = resident_bytes()
    searcher = make_searcher(spec.name, state, spec.params, seed=0)
    started = time.perf_counter()
    searcher.run(Limit(nodes=nodes, seconds=RUN_SECONDS))
    seconds = time.perf_counter() - started
    gc.collect()
    grown = resident_bytes() - before
    return grown / max(searcher.stats.nodes, 1), searcher.stats.nodes, seconds


def measure_apart(spec_text: str, nodes: int) -> tuple[float, int, float] | str:
    """``measure_here`` in a fresh process; a one-line reason instead if it failed."""
    found = run_apart("plyscope.engine.benchmarks.memory", [spec_text, str(nodes)], TIMEOUT_SECONDS)
    if isinstance(found, str):
        return found
    size, reached, seconds = found
    return float(size), int(reached), float(seconds)


def run_apart(module: str, args: list[str], timeout: float) -> list[str] | str:
    """The words ``python -m module args`` printed, run in a fresh process (so that no earlier run's freed memory
    flatters it); a one-line reason instead if it failed or took more than ``timeout`` seconds."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return f"over {timeout:g} s"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return lines[-1] if lines else f"exit status {done.returncode}"
    return done.stdout.split()


def measure(quick: bool) -> list[BenchTable]:
    """One row per searcher that plays Connect Four, each measured in its own process."""
    nodes = QUICK_NODES if quick else FULL_NODES
    table = BenchTable(
        f"Resident memory per tree node ({nodes:,} nodes from the empty board, one process each)",
        ["algorithm", "nodes", "seconds", "bytes/node", "registry", "goal", "met"],
    )
    for name, info in algorithms().items():
        if name in LEFT_OUT or (info.games and "connect4" not in info.games):
            continue
        found = measure_apart(name, nodes)
        if isinstance(found, str):
            table.rows.append([name, "-", "-", found, info.node_bytes, f"<= {TARGET_BYTES}", "n/a"])
            continue
        size, reached, seconds = found
        if reached < ENOUGH_NODES:
            table.rows.append(
                [name, reached, round(seconds, 1), "-", info.node_bytes, f"<= {TARGET_BYTES}", "n/a (small tree)"]
            )
            continue
        table.rows.append(
            [
                name,
                reached,
                round(seconds, 1),
                round(size),
                info.node_bytes,
                f"<= {TARGET_BYTES}",
                "yes" if size <= TARGET_BYTES else "no",
            ]
        )
    table.notes += [
        "bytes/node: growth of the process's resident set size (VmRSS) over the run, over the tree's nodes",
        "registry: the searcher's node_bytes, which sets its default node cap (about 1 GB of tree)",
        "nodes: the tree's size at the end (a search that ends first, a proven root, has fewer)",
        f"n/a: the tree stayed under {ENOUGH_NODES:,} nodes (search ended, or one level only), too few to measure",
    ]
    return [table]


def main(argv: list[str]) -> int:
    """``python -m plyscope.engine.benchmarks.memory SPEC NODES``: one measurement, printed on one line."""
    size, reached, seconds = measure_here(argv[0], int(argv[1]))
    print(f"{size:.1f} {reached} {seconds:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

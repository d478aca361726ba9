"""``plyscope bench --ui``'s memory figures: resident bytes per tree node of the explorer itself, per searcher.

Each run is a fresh process: the explorer (``PlyscopeApp``, headless at 120x40 with ``App.run_test``, as
``bench --ui`` measures it) on the empty Connect Four board, run flat out with ``r`` until its tree holds
``nodes`` nodes (its node cap set there), follow mode on or off.  The figure is the growth of the process's
resident set (``VmRSS``) from the screen's first frame to the end of the run, over the tree's nodes: the tree,
the timeline, the value history, what the screen keeps and what the allocator and the cycle collector have
not given back, all of it.  ``AlgorithmInfo.ui_node_bytes`` (which sets every screen's default node cap) is
the larger of the two figures of a searcher, rounded up; the table prints it beside them, so that drift shows.

Run one measurement by hand with ``python -m plyscope.tui.bench_memory SPEC NODES on|off``: it prints
``bytes_per_node nodes seconds`` on one line.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.benchmarks.memory import LEFT_OUT, resident_bytes, run_apart
from plyscope.engine.search.base import TREE_MEMORY_BYTES
from plyscope.engine.search.registry import AgentSpec, algorithm, algorithms
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.session import SearchConfig, Session
from plyscope.tui.widgets.search_tree import SearchTree

SIZE = (120, 40)
"""Terminal size of the headless runs."""
TARGET_BYTES = 400
"""Bytes of the explorer's resident memory per tree node, follow mode on (issue: at most 400)."""
CAP_TOLERANCE = 0.25
"""How far the memory the cap states may be from the process's measured growth (issue: within 25%)."""
FULL_NODES = 500_000
QUICK_NODES = 50_000
QUICK_SEARCHERS = ("rivest",)
"""What ``--quick`` measures: Rivest's min/max approximation alone (the full run measures every searcher)."""
TIMEOUT_SECONDS = 1800
DEEPER = {"minimax": "minimax:depth=7", "expectiminimax": "expectiminimax:depth=7"}
"""Searchers whose default tree is small (a few thousand nodes), run deeper so that their trees reach the cap."""
ONE_LEVEL = ("flat-mc",)
"""Searchers whose tree never grows beyond the root's children: nothing to measure."""
MB = 1 << 20


async def grow(spec_text: str, nodes: int, follow: bool) -> tuple[float, int, float]:
    """In this process: the explorer's resident bytes per tree node while ``spec_text`` grows its tree to ``nodes``
    nodes, run flat out with follow mode ``follow``; the nodes it reached, and the seconds the run took."""
    spec = AgentSpec.parse(spec_text)
    session = Session.create(SearchConfig(algorithm=spec.name, params=spec.params, budget=None, node_cap=nodes))
    app = PlyscopeApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ExploreScreen)
        screen.query_one(SearchTree).follow = follow
        screen.speed = None
        loading = app.exact.prepare(session.searcher.root_state.game)  # (the pane loads it ahead: a fixed cost)
        if loading is not None:
            loading.result()
        await pilot.pause()
        gc.collect()
        before = resident_bytes()
        started = time.perf_counter()
        await pilot.press("r")
        while not session.ended:
            await asyncio.sleep(0.1)
        await app.workers.wait_for_complete()
        await pilot.pause()
        seconds = time.perf_counter() - started
        gc.collect()
        grown = resident_bytes() - before
    reached = session.searcher.stats.nodes
    return grown / max(reached, 1), reached, seconds


def grow_apart(spec_text: str, nodes: int, follow: bool) -> tuple[float, int, float] | str:
    """``grow`` in a fresh process; a one-line reason instead if it failed."""
    found = run_apart("plyscope.tui.bench_memory", [spec_text, str(nodes), "on" if follow else "off"], TIMEOUT_SECONDS)
    if isinstance(found, str):
        return found
    size, reached, seconds = found
    return float(size), int(reached), float(seconds)


def measured_searchers() -> list[str]:
    """The spec each searcher that grows a tree on Connect Four is measured with."""
    return [
        DEEPER.get(name, name)
        for name, info in algorithms().items()
        if name not in LEFT_OUT and name not in ONE_LEVEL and (not info.games or "connect4" in info.games)
    ]


def measure(quick: bool) -> list[BenchTable]:
    """One row per searcher and follow mode, each measured in its own process."""
    nodes = QUICK_NODES if quick else FULL_NODES
    table = BenchTable(
        f"explorer: resident memory per tree node ({nodes:,} nodes, {SIZE[0]}x{SIZE[1]} headless, flat out, "
        "one process each)",
        [
            "searcher",
            "follow",
            "nodes",
            "seconds",
            "grown MB",
            "bytes/node",
            "cap uses",
            "cap states MB",
            "met (<= 400, within 25%)",
        ],
    )
    for spec in QUICK_SEARCHERS if quick else measured_searchers():
        info = algorithm(AgentSpec.parse(spec).name)
        for follow in (True, False):
            found = grow_apart(spec, nodes, follow)
            mode = "on" if follow else "off"
            if isinstance(found, str):
                table.rows.append([spec, mode, "-", "-", "-", found, info.ui_node_bytes, "-", "n/a"])
                continue
            size, reached, seconds = found
            stated = reached * info.ui_node_bytes
            near = abs(size * reached - stated) <= CAP_TOLERANCE * stated
            target = size <= TARGET_BYTES or not follow
            table.rows.append(
                [
                    spec,
                    mode,
                    reached,
                    round(seconds, 1),
                    round(size * reached / MB, 1),
                    round(size),
                    info.ui_node_bytes,
                    round(stated / MB, 1),
                    "yes" if near and target else "no",
                ]
            )
    table.notes += [
        "bytes/node: growth of the explorer's resident set size (VmRSS) over the run, over the tree's nodes "
        "(tree, timeline, value history, screen, and what Python has not given back)",
        f"cap uses: AlgorithmInfo.ui_node_bytes, which sets the explorer's default node cap "
        f"({TREE_MEMORY_BYTES // MB:,} MB over it; ] doubles it and states the memory at this figure); "
        "cap states MB: the nodes reached at that figure, against grown MB",
        f"met: bytes/node at most {TARGET_BYTES} with follow on, and grown MB within {CAP_TOLERANCE:.0%} of "
        "what the cap states",
        "plyscope search and the arena's agents (no screen) are capped at the engine's bytes per node "
        "(bench --only memory)",
    ]
    if quick:
        table.notes.append(
            f"--quick: Rivest alone, to {QUICK_NODES:,} nodes, where the screen's fixed costs weigh more per node; "
            f"the caps use the full run's figures ({FULL_NODES:,} nodes, every searcher)"
        )
    return [table]


def main(argv: list[str]) -> int:
    """``python -m plyscope.tui.bench_memory SPEC NODES on|off``: one measurement, printed on one line."""
    size, reached, seconds = asyncio.run(grow(argv[0], int(argv[1]), argv[2] == "on"))
    print(f"{size:.1f} {reached} {seconds:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The node cap the app states (the stats panel, ``]``) is about 1 GB of the app's own memory per tree node, as
``plyscope bench --ui`` measures it (``AlgorithmInfo.ui_node_bytes``), not the engine's (the figures come from the
bench, never from timed tests); and what the app lets go is freed."""

from __future__ import annotations

import gc

from plyscope.engine.search.base import DEFAULT_NODE_BYTES, TREE_MEMORY_BYTES
from plyscope.engine.search.minimax import MinimaxNode
from plyscope.engine.search.registry import AgentSpec, algorithm
from plyscope.tui.bench_memory import TARGET_BYTES, measured_searchers
from plyscope.tui.formatting import format_count
from plyscope.tui.session import SearchConfig, Session
from plyscope.tui.widgets.stats import FigureGrid
from tests.tui.helpers import explorer, make_app, run_async


def test_every_searcher_with_a_tree_states_the_apps_measured_bytes_per_node() -> None:
    for spec in measured_searchers():
        info = algorithm(AgentSpec.parse(spec).name)
        assert info.ui_node_bytes != DEFAULT_NODE_BYTES, f"{info.name} states no measured ui_node_bytes"
        assert info.ui_node_bytes <= TARGET_BYTES
        assert info.ui_node_cap == TREE_MEMORY_BYTES // info.ui_node_bytes
        if info.node_bytes != DEFAULT_NODE_BYTES:  # measured without a screen too: the app holds the tree, and more
            assert info.node_bytes < info.ui_node_bytes and info.ui_node_cap < info.node_cap


def test_the_raised_cap_states_its_memory_at_the_apps_bytes_per_node() -> None:
    session = Session.create(SearchConfig(algorithm="rivest", budget=None))
    info = session.info
    assert session.node_cap == info.ui_node_cap
    session.take(3000)
    grown = session.searcher.stats.nodes
    session.set_node_cap(grown)
    assert session.stop_reason() == "cap"
    said = session.double_budget()
    megabytes = round(2 * grown * info.ui_node_bytes / (1 << 20))
    assert megabytes != round(2 * grown * info.node_bytes / (1 << 20))  # (the two figures are told apart)
    assert said == f"node cap raised to {2 * grown:,} nodes: this tree may take about {megabytes:,} MB of memory"


@run_async
async def test_the_stats_panel_shows_the_apps_node_cap() -> None:
    app = make_app(algorithm="rivest")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        cells = dict(explorer(pilot).pane.query_one(FigureGrid).cells)
        assert cells["node cap"] == format_count(algorithm("rivest").ui_node_cap)


def test_the_trees_the_timeline_lets_go_are_freed_though_kept_out_of_the_collector() -> None:
    """Minimax goes back a step by a replay: the tree it replaces is let go, and the tree it goes forward to
    replaces the replayed one.  The session keeps its trees out of the cycle collector's walks (``gc.freeze``),
    so each let go must be freed without it (here: with the collector off)."""
    gc.unfreeze()
    gc.collect()
    gc.disable()
    try:
        session = Session.create(SearchConfig(algorithm="minimax", params={"depth": 4}, budget=None))
        session.take(None)
        newest = session.steps_taken
        for _ in range(3):
            session.go_to(newest - 1)
            session.go_to(newest)
        session.take(0)  # the next job: what the last one let go is unlinked
        gc.unfreeze()
        alive = sum(1 for found in gc.get_objects() if isinstance(found, MinimaxNode))
        held = [session.searcher] if session.ahead is None else [session.searcher, session.ahead]
        assert alive == sum(len(list(searcher.walk())) for searcher in held)
    finally:
        gc.enable()

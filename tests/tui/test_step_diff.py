"""One search diffed with itself at two steps of its timeline: ``M`` marks a step, ``D`` diffs it with the one
shown; the diff lists exactly the nodes the steps between added."""

from __future__ import annotations

from collections.abc import Hashable

from plyscope.engine.games import make_game
from plyscope.engine.search.base import Node
from plyscope.engine.search.registry import make_searcher
from plyscope.engine.tree_diff import diff_snapshots, snapshot
from plyscope.tui.screens.diff import DiffScreen
from tests.tui.contest_helpers import wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle, top
from tests.tui.test_compare import diff_text


def added_between(first: int, last: int) -> list[tuple[Hashable, ...]]:
    """The move paths of the nodes best-first minimax adds on 4453 in its steps ``first + 1`` to ``last``."""
    searcher = make_searcher("bestfirst", make_game("connect4").parse("4453"), {})
    for _ in range(first):
        searcher.step()
    added: list[Node] = []
    for _ in range(last - first):
        step = searcher.step()
        assert step is not None
        added += step.added
    return [tuple(node.moves()) for node in added]


@run_async
async def test_a_marked_step_diffed_with_a_later_one_lists_exactly_the_nodes_added_between() -> None:
    app = make_app(algorithm="bestfirst", position="4453")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        await pilot.press("D")
        assert "no step of this search is marked" in screen.note
        for key in ("d", "d"):  # 20 steps
            await pilot.press(key)
            await settle(pilot)
        await pilot.press("M")
        await wait_until(pilot, lambda: screen.marked is not None, "the step marked")
        assert screen.marked is not None and screen.marked.step == 20
        await pilot.press("d")  # to step 30
        await settle(pilot)
        for later, keys in ((30, ()), (25, ("comma",) * 5)):  # on, then back along the timeline
            for key in keys:
                await pilot.press(key)
                await settle(pilot)
            session = screen.session
            assert session.step_shown == later
            diff = diff_snapshots(screen.marked.tree, snapshot(session.searcher))
            assert diff.only_a == [] and sorted(diff.only_b, key=repr) == sorted(added_between(20, later), key=repr)
            await pilot.press("D")
            await wait_until(pilot, lambda: isinstance(top(pilot), DiffScreen), "the diff")
            shown = diff_text(top(pilot))
            assert f"0 nodes only in A (−), {len(diff.only_b):,} only in B (+)" in shown
            assert "A step 20 (marked) and B step" in str(top(pilot).query_one("VerticalScroll").border_title)
            await pilot.press("escape")

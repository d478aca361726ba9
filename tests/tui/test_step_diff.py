"""One search diffed with itself at two steps of its timeline: ``M`` marks a step, ``D`` diffs it with the one
shown; the diff lists exactly the nodes the steps between added."""

from __future__ import annotations

import threading
from collections.abc import Hashable

import pytest

from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Node
from plyscope.engine.search.registry import make_searcher
from plyscope.engine.tree_diff import Snapshot, diff_snapshots, snapshot
from plyscope.tui import diffing
from plyscope.tui.components import diffs
from plyscope.tui.components.diffs import MarkedStep, StepDiff
from plyscope.tui.diffing import Progress
from plyscope.tui.screens.diff import DiffScreen
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.session import Session
from tests.tui.contest_helpers import wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle, top
from tests.tui.test_compare import diff_text
from tests.tui.test_explore import status_text


def marked(screen: ExploreScreen) -> MarkedStep | None:
    """The step the explorer's ``M`` marked (``None``: none)."""
    return screen.query_one(StepDiff).marked


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
        assert "no step of this search is marked" in screen.status.note
        for key in ("d", "d"):  # 20 steps
            await pilot.press(key)
            await settle(pilot)
        await pilot.press("M")
        await wait_until(pilot, lambda: marked(screen) is not None, "the step marked")
        mark = marked(screen)
        assert mark is not None and mark.step == 20
        await pilot.press("d")  # to step 30
        await settle(pilot)
        for later, keys in ((30, ()), (25, ("comma",) * 5)):  # on, then back along the timeline
            for key in keys:
                await pilot.press(key)
                await settle(pilot)
            session = screen.session
            assert session.step_shown == later
            diff = diff_snapshots(mark.tree, snapshot(session.searcher))
            assert diff.only_a == [] and sorted(diff.only_b, key=repr) == sorted(added_between(20, later), key=repr)
            await pilot.press("D")
            await wait_until(pilot, lambda: isinstance(top(pilot), DiffScreen), "the diff")
            shown = diff_text(top(pilot))
            assert f"0 nodes only in A (−), {len(diff.only_b):,} only in B (+)" in shown
            assert "A step 20 (marked) and B step" in str(top(pilot).query_one("VerticalScroll").border_title)
            await pilot.press("escape")


class HeldCopy:
    """The explorer's copies of a tree (``copy_tree``), held after their first slice until ``release`` is set."""

    def __init__(self) -> None:
        self.copying = threading.Event()
        """Set once a copy has taken its first slice and is held (the session's lock free)."""
        self.release = threading.Event()

    def __call__(self, session: Session, stop: threading.Event, progress: Progress) -> tuple[int, Snapshot] | None:
        def held(note: str) -> None:
            progress(note)
            self.copying.set()
            self.release.wait()

        return diffing.copy_tree(session, stop, held)


def test_keys_are_answered_while_the_diff_copies_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """``D`` on a large tree once held the session's lock while it copied the whole tree: ``o`` waited seconds. The
    copy now goes a slice at a time, saying how far it got, and a key is answered between two slices."""
    held = HeldCopy()
    monkeypatch.setattr(diffing, "COPY_SLICE", 16)
    monkeypatch.setattr(diffs, "copy_tree", held)

    @run_async
    async def scenario() -> None:
        app = make_app(algorithm="bestfirst", position="4453")
        async with app.run_test(size=(120, 36)) as pilot:
            screen = explorer(pilot)
            held.release.set()  # the mark goes through
            await pilot.press("M")
            await wait_until(pilot, lambda: marked(screen) is not None, "the step marked")
            held.release.clear()
            held.copying.clear()
            await pilot.press("f")
            await settle(pilot)
            await pilot.press("D")
            await wait_until(pilot, held.copying.is_set, "the copy under way")
            nodes = screen.session.searcher.stats.nodes
            assert screen.status.note == f"copying the tree of step 100: 16 of {nodes:,} nodes…"
            following = screen.pane.search_tree.follow
            await pilot.press("o")  # answered while the copy is held: the session's lock is free between two slices
            assert screen.pane.search_tree.follow is not following
            assert ("· follow" in status_text(screen)) is not following  # (the status line read under the lock)
            assert not isinstance(top(pilot), DiffScreen)
            held.release.set()
            await wait_until(pilot, lambda: isinstance(top(pilot), DiffScreen), "the diff")
            assert f"0 nodes only in A (−), {nodes - 1:,} only in B (+)" in diff_text(top(pilot))

    scenario()


def test_a_step_taken_while_the_tree_is_copied_stops_the_diff_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    held = HeldCopy()
    monkeypatch.setattr(diffing, "COPY_SLICE", 16)
    monkeypatch.setattr(diffs, "copy_tree", held)

    @run_async
    async def scenario() -> None:
        app = make_app(algorithm="bestfirst", position="4453")
        async with app.run_test(size=(120, 36)) as pilot:
            screen = explorer(pilot)
            await pilot.press("d")
            await settle(pilot)
            await pilot.press("M")
            await wait_until(pilot, held.copying.is_set, "the copy under way")
            await pilot.press("s")
            await wait_until(pilot, lambda: screen.session.step_shown == 11, "the step taken")
            held.release.set()
            await wait_until(pilot, lambda: "moved on" in screen.status.note, "the copy given up")
            assert screen.status.note == "the search moved on from step 10 while its tree was copied: ask again"
            assert marked(screen) is None

    scenario()

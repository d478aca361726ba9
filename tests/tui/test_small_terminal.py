"""A terminal made too small, then large again: the screen is laid out as before, the focus where it was (it once
stayed nowhere, every pane with a light border, until tab)."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widget import Widget

from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.widgets.search_pane import TREE_LINES
from plyscope.tui.widgets.search_tree import SearchTree
from plyscope.tui.widgets.stats import StatsPanel
from tests.tui.contest_helpers import wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle, top


async def too_small_and_back(pilot: Pilot[None], small: tuple[int, int], large: tuple[int, int]) -> None:
    await pilot.resize_terminal(*small)
    await wait_until(pilot, lambda: top(pilot).has_class("-too-small"), "the screen told too small")
    await pilot.resize_terminal(*large)
    await wait_until(pilot, lambda: not top(pilot).has_class("-too-small"), "the screen laid out again")
    await pilot.pause()


@run_async
async def test_the_explorers_tree_has_the_focus_again_and_takes_keys() -> None:
    app = make_app(position="4453")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = explorer(pilot)
        await pilot.press("d")
        await settle(pilot)
        tree = screen.query_one(SearchTree)
        assert screen.focused is tree
        await too_small_and_back(pilot, (50, 15), (140, 45))
        assert screen.focused is tree
        line = tree.cursor_line
        await pilot.press("down")
        assert tree.cursor_line == line + 1


@run_async
async def test_compare_gives_the_focus_back_to_the_pane_that_had_it() -> None:
    app = make_app(position="4453")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("C", "enter")
        await wait_until(pilot, lambda: isinstance(top(pilot), CompareScreen), "compare")
        screen = top(pilot)
        await pilot.press("tab")  # the second pane's tree, say
        had: Widget | None = screen.focused
        assert isinstance(had, SearchTree)
        await too_small_and_back(pilot, (79, 24), (200, 60))
        assert screen.focused is had


@run_async
async def test_at_the_smallest_size_the_tree_keeps_lines_and_the_stats_give_way() -> None:
    """At 60 x 18 the explorer's tree once had no line at all: the stats panel took them."""
    app = make_app(position="4453")
    async with app.run_test(size=(60, 18)) as pilot:
        screen = explorer(pilot)
        await pilot.press("d")
        await settle(pilot)
        pane = screen.pane
        assert pane.search_tree.content_size.height >= TREE_LINES
        assert not pane.query_one(StatsPanel).display
        await pilot.resize_terminal(140, 45)
        await wait_until(pilot, lambda: pane.query_one(StatsPanel).display, "the stats shown again")
        assert pane.search_tree.content_size.height >= TREE_LINES


@run_async
async def test_from_tall_to_short_the_stats_stay_where_a_short_pane_has_room_for_them() -> None:
    """At 60 x 22 a short pane (no sparkline) leaves its tree 5 lines with the stats shown; coming from 60 x 45 the
    pane once measured its tree before the sparkline was hidden (2 lines) and left the stats out."""
    app = make_app(position="4453")
    async with app.run_test(size=(60, 45)) as pilot:
        screen = explorer(pilot)
        await pilot.press("d")
        await settle(pilot)
        pane = screen.pane
        await pilot.resize_terminal(60, 22)
        await wait_until(pilot, lambda: pane.has_class("-short"), "the pane short")
        for _ in range(3):  # (each waits until the process is idle: every layout asked for is made)
            await pilot.pause()
        assert pane.query_one(StatsPanel).display
        assert pane.search_tree.content_size.height >= TREE_LINES

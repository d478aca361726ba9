"""Helpers for driving the explorer in tests: a fixed clock (no rate shown) and waiting for the search threads."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Iterator
from typing import Any
from unittest import mock

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets.tree import TreeNode

from plyscope.engine.search.base import Node
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.screens.help import help_sections
from plyscope.tui.session import SearchConfig, Session
from plyscope.tui.widgets.search_tree import SearchTree, TreeItem


def make_app(**config: object) -> PlyscopeApp:
    """The app on ``SearchConfig(**config)`` (minimax unless told), with a clock that never moves."""
    config.setdefault("algorithm", "minimax")
    return PlyscopeApp(Session.create(SearchConfig(**config)), clock=lambda: 0.0)  # type: ignore[arg-type]


async def settle(pilot: Pilot[None]) -> None:
    """Wait until every search thread has finished and its last batch is on screen."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def explorer(pilot: Pilot[None]) -> ExploreScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ExploreScreen)
    return screen


def run_async(test: Callable[[], Coroutine[Any, Any, None]]) -> Callable[[], None]:
    """A plain test function that runs the coroutine ``test`` (no asyncio plugin is needed)."""

    def run() -> None:
        asyncio.run(test())

    run.__name__ = test.__name__
    run.__doc__ = test.__doc__
    return run


def view_of(tree: SearchTree, node: Node) -> TreeNode[TreeItem] | None:
    """The line of ``tree`` showing the searcher's ``node``, if it shows it (found among the widget's nodes, open
    or not)."""
    stack = [tree.root]
    while stack:
        view = stack.pop()
        if view.data is node:
            return view
        stack.extend(view.children)
    return None


def top(pilot: Pilot[None]) -> Screen[object]:
    """The screen on top (a function, so that type checkers do not keep an earlier narrowing)."""
    return pilot.app.screen


async def _no_idle_wait(*_: object) -> None:
    await asyncio.sleep(0)


@contextlib.contextmanager
def keys_without_idle_waits() -> Iterator[None]:
    """``Pilot.press`` without its waits for an idle process after each key (``textual.app.wait_for_idle``: with a
    search running flat out the process is never idle, so each key costs two one-second timeouts).  The key is
    still handled, and its screen's messages processed, before ``press`` returns."""
    with mock.patch("textual.app.wait_for_idle", _no_idle_wait):
        yield


async def assert_key_offered(key: str, description: str) -> None:
    """The explorer lists ``key`` with ``description`` in its help, and ``description`` in the command palette."""
    app = make_app()
    async with app.run_test() as pilot:
        titles = [command.title for command in pilot.app.get_system_commands(pilot.app.screen)]
        assert description in titles
        rows = {keys: words for _, listed in help_sections(pilot.app, pilot.app.screen) for keys, words in listed}
        assert rows[key] == description

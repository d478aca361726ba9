"""Helpers for the play and compare screens in tests: the app opened on them, and waiting for their threads."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot
from textual.screen import Screen

from tui.app import PlyscopeApp
from tui.session import SearchConfig, Session

PATIENCE = 120.0
"""Seconds a test waits for the search threads before failing (generous: the machine may be loaded)."""


def app_with(game: str, opening: Callable[[], Screen[None]]) -> PlyscopeApp:
    """The app with the screen ``opening`` makes over the explorer (on ``game``), with a clock that never moves."""
    return PlyscopeApp(Session.create(SearchConfig(game=game, algorithm="minimax")), clock=lambda: 0.0,
                       opening=opening)


async def wait_until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    """Let the app run until ``done()``; fail saying ``what`` was awaited after ``PATIENCE`` seconds."""
    deadline = time.monotonic() + PATIENCE
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {PATIENCE:g} s for {what}")
        await pilot.pause(0.01)
    await pilot.pause()

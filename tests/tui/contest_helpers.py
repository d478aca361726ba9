"""Helpers for the play and compare screens in tests: the app opened on them, and waiting for their threads."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Static

from plyscope.engine.kits import make_game
from plyscope.engine.search.registry import algorithm, plays
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.session import SearchConfig, Session
from plyscope.tui.widgets.prompt_bar import PromptBar

PATIENCE = 120.0
"""Seconds a test waits for the search threads before failing (generous: the machine may be loaded)."""


def app_with(game: str, opening: Callable[[], Screen[None]]) -> PlyscopeApp:
    """The app with the screen ``opening`` makes over the explorer (on ``game``), with a clock that never moves."""
    minimax = plays(algorithm("minimax"), make_game(game))
    explorer = Session.create(SearchConfig(game=game, algorithm="minimax" if minimax else None))
    return PlyscopeApp(explorer, clock=lambda: 0.0, opening=opening)


async def wait_until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    """Let the app run until ``done()``; fail saying ``what`` was awaited after ``PATIENCE`` seconds."""
    deadline = time.monotonic() + PATIENCE
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {PATIENCE:g} s for {what}")
        await pilot.pause(0.01)
    await pilot.pause(0)  # every message sent so far handled (not a wait for idle: the solver's analysis may run on)


async def repainted(pilot: Pilot[None]) -> None:
    """Once no search thread runs: let scrolls that wait for a refresh (follow mode) and the scroll bars
    after them reach the screen (each ``pause()`` waits until the process is idle)."""
    await pilot.wait_for_scheduled_animations()
    for _ in range(3):
        await pilot.pause()


def prompt_field(screen: Screen[None]) -> Input:
    """The input of ``screen``'s prompt bar."""
    return screen.query_one(PromptBar).query_one(Input)


def prompt_error(screen: Screen[None]) -> str:
    """What ``screen``'s prompt bar says is wrong with the last answer."""
    return str(screen.query_one(PromptBar).query_one("#error", Static).render())

"""The help screen (``?``) and the command palette (ctrl+p) offer the same keys on every screen: both are built from
one list (``plyscope.tui.screens.help.key_sections``), so that no key can be in one and not the other."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen

from plyscope.tui.app import PlyscopeApp
from plyscope.tui.components.diffs import StepDiff
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.compare_match import CompareMatchScreen
from plyscope.tui.screens.diff import DiffScreen
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.screens.help import HelpScreen, help_sections
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.screens.setup import SetupScreen
from tests.tui.contest_helpers import wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle, top


def palette_keys(app: PlyscopeApp, screen: Screen[object]) -> set[tuple[str, str]]:
    """The palette's commands that do what keys do: (the keys, what they do), as the help would write them."""
    return {
        (command.help.removeprefix("key ").split(" in the ")[0], command.title)
        for command in app.get_system_commands(screen)
        if command.help.startswith("key ")
    }


def help_keys(app: PlyscopeApp, screen: Screen[object]) -> set[tuple[str, str]]:
    """The help screen's rows: (the keys, what they do)."""
    return {row for _, rows in help_sections(app, screen) for row in rows}


async def step_diff(pilot: Pilot[None]) -> None:
    """Mark the explorer's step 0, take a step, and diff the two."""
    await pilot.press("M")
    marked = explorer(pilot).query_one(StepDiff)
    await wait_until(pilot, lambda: marked.marked is not None, "the step marked")
    await pilot.press("s")
    await settle(pilot)
    await pilot.press("D")


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await pilot.pause()


Route = tuple[dict[str, object], Callable[[Pilot[None]], Awaitable[None]], type[Screen[Any]]]
"""The explorer's configuration, how to reach the screen from it, and the screen's class."""

ROUTES: dict[str, Route] = {
    "explorer": ({}, lambda pilot: keys(pilot), ExploreScreen),
    "explorer on Nim": ({"game": "nim"}, lambda pilot: keys(pilot), ExploreScreen),
    "explorer on a tree": ({"game": "tree", "position": "((3,12),(2,4))"}, lambda pilot: keys(pilot), ExploreScreen),
    "explorer on tic-tac-toe": ({"game": "tictactoe"}, lambda pilot: keys(pilot), ExploreScreen),
    "play on tic-tac-toe": ({"game": "tictactoe"}, lambda pilot: keys(pilot, "P"), PlayScreen),
    "help": ({}, lambda pilot: keys(pilot, "question_mark"), HelpScreen),
    "setup": ({}, lambda pilot: keys(pilot, "e"), SetupScreen),
    "play": ({}, lambda pilot: keys(pilot, "P"), PlayScreen),
    "compare": ({}, lambda pilot: keys(pilot, "C", "enter"), CompareScreen),
    "compare's match": ({}, lambda pilot: keys(pilot, "C", "enter", "m"), CompareMatchScreen),
    "compare's diff": ({}, lambda pilot: keys(pilot, "C", "enter", "D"), DiffScreen),
    "a step diff": ({}, step_diff, DiffScreen),
}


@pytest.mark.parametrize("route", list(ROUTES))
def test_the_palette_offers_exactly_the_keys_the_help_lists(route: str) -> None:
    config, go, kind = ROUTES[route]

    @run_async
    async def scenario() -> None:
        app = make_app(**config)
        async with app.run_test(size=(120, 36)) as pilot:
            await go(pilot)
            await wait_until(pilot, lambda: isinstance(top(pilot), kind), kind.__name__)
            screen = top(pilot)
            listed = help_keys(app, screen)
            assert listed and palette_keys(app, screen) == listed

    scenario()


@run_async
async def test_the_explorers_mark_diff_and_leaf_keys_are_in_the_palette_and_run_from_it() -> None:
    app = make_app(game="tree", position="((3,12),(2,4))")
    async with app.run_test(size=(120, 36)) as pilot:
        offered = palette_keys(app, app.screen)
        for key in ("M", "D", "n"):
            assert [words for shown, words in offered if shown == key], f"{key} is not in the palette"
        await pilot.press("ctrl+p", *"mark the step", "enter")
        marked = explorer(pilot).query_one(StepDiff)
        await wait_until(pilot, lambda: marked.marked is not None, "the step marked from the palette")


@run_async
async def test_the_palette_plays_a_column_as_its_digit_key_does() -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        await pilot.press("ctrl+p", *"play that column", "enter")
        await pilot.pause()
        await pilot.press(*"column 4", "enter")
        await wait_until(pilot, lambda: screen.session.config.position == "4", "column 4 played")


@run_async
async def test_the_help_lists_the_boards_own_keys_for_each_game() -> None:
    """The board's keys come from its view: a column's digit on Connect Four, a cell's on tic-tac-toe, none on Nim."""
    rows = {}
    for game in ("connect4", "tictactoe", "nim", "tree"):
        app = make_app(game=game)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            rows[game] = dict(dict(help_sections(app, app.screen))["Board"])
    assert rows["connect4"]["1-7"] == "Play that column on the board" and "↑" not in rows["connect4"]
    assert rows["tictactoe"]["1-9"] == "Play that cell (reading order: 1 top left)"
    assert rows["tictactoe"]["↑"] == "Cursor up"
    assert rows["nim"]["↑"] == "Pile above" and not [keys for keys in rows["nim"] if keys[0].isdigit()]
    assert rows["tree"]["1-3"] == "Play that child (1 the leftmost)" and "←" not in rows["tree"]


async def palette_list(pilot: Pilot[None], typed: str) -> list[str]:
    """The palette's commands for ``typed``, in the order it lists them (the palette opened, then closed)."""
    await pilot.press("ctrl+p", *typed)
    palette = top(pilot)
    assert isinstance(palette, CommandPalette)
    await wait_until(pilot, lambda: palette.has_class("-ready"), "the palette's search")
    await palette.workers.wait_for_complete()  # (the search for the whole word, once that for its first letter ended)
    await pilot.pause()
    listed = [str(option.prompt) for option in palette.query_one(CommandList).options]
    await pilot.press("escape")
    await wait_until(pilot, lambda: not isinstance(top(pilot), CommandPalette), "the palette closed")
    return listed


@run_async
async def test_the_palette_ranks_the_command_named_by_the_word_typed_first() -> None:
    """``diff`` scored *Mark the step shown, to diff it* as high as *Diff the marked step's tree*, and ``mark``
    *Diff the marked step* as high as *Mark the step*: the first listed was the first bound."""
    app = make_app(game="tree", position="((3,12),(2,4))")
    async with app.run_test(size=(120, 36)) as pilot:
        for typed, first in (("diff", "Diff the marked step's tree"), ("mark", "Mark the step shown")):
            listed = await palette_list(pilot, typed)
            assert listed[0].startswith(first), listed

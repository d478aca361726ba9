"""The prompt bar: keys that arrive in one burst act in the order typed; ``w``'s file refused inline, its proposal a
name a shell takes unquoted."""

from __future__ import annotations

import asyncio
import re

import pytest
from textual import events

from plyscope.tui.session import SearchConfig, Session, file_position
from plyscope.tui.widgets.prompt_bar import PromptBar
from tests.tui.contest_helpers import prompt_error, prompt_field
from tests.tui.helpers import explorer, make_app, run_async, settle

BURST_KEYS = {"ctrl+u": "\x15", "backspace": "\x7f", "comma": ","}
"""The character a terminal sends for each key named (a printable key sends itself)."""


async def burst(app: object, *keys: str) -> None:
    """Post ``keys`` to the app as a terminal's driver does for one read of several keys: all at once."""
    from plyscope.tui.app import PlyscopeApp

    assert isinstance(app, PlyscopeApp)
    for key in keys:
        app.post_message(events.Key(key, BURST_KEYS.get(key, key)))


@run_async
async def test_text_typed_in_the_burst_after_ctrl_u_is_kept() -> None:
    """ctrl+u (a binding) once took effect after the letters behind it in the same read: the bar ended empty."""
    app = make_app(game="nim", position="3,4,5")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        await pilot.press("p")
        field = prompt_field(screen)
        assert field.value == "5,4,3"  # (the piles as the game writes them)
        await burst(app, "ctrl+u", "7", "comma", "8", "comma", "9")
        await pilot.pause()
        assert field.value == "7,8,9"
        await burst(app, "backspace", "backspace", "1", "2")
        await pilot.pause()
        assert field.value == "7,812"


@pytest.mark.parametrize(
    ("typed", "refusal"),
    [
        ("/nonexistent/x.json", "file /nonexistent/x.json: the folder /nonexistent does not exist"),
        ("  notes.txt ", "file notes.txt: the file's name ends in .json (to replay) or .dot (Graphviz)"),
    ],
)
def test_w_to_a_file_that_cannot_be_written_is_refused_in_the_bar(typed: str, refusal: str) -> None:
    """It once closed the bar and said so in a notification, as the file was written in a thread.  The name is
    checked where ``search --export`` checks it (``search_file.export_path``)."""

    async def write() -> None:
        app = make_app(algorithm="bestfirst")
        async with app.run_test(size=(120, 36)) as pilot:
            screen = explorer(pilot)
            await pilot.press("s")
            await settle(pilot)
            await pilot.press("w")
            prompt_field(screen).value = typed
            await pilot.press("enter")
            await settle(pilot)
            assert screen.query_one(PromptBar).is_open
            assert prompt_error(screen) == refusal
            assert not app._notifications and typed.strip() not in screen.status.note

    asyncio.run(write())


def test_ws_proposal_on_a_tree_is_a_name_a_shell_takes_unquoted() -> None:
    config = SearchConfig(game="tree", position="A(B(3,12,8),C(2,4,6),D(14,5,2))", algorithm="alphabeta")
    session = Session.create(config)
    assert session.export_name() == "alphabeta-A-B-3-12-8-C-2-4-6-D-14-5-2-step0.json"
    large = "(" + ",".join(f"({i},{i + 1})" for i in range(40)) + ")"
    summarised = file_position(large)
    assert re.fullmatch(r"[A-Za-z0-9._-]{1,40}", summarised) and summarised != file_position(large + " ")
    assert file_position("") == "start" and file_position("3,4,5") == "3-4-5" and file_position("4453") == "4453"

"""Every input bar of every screen, answered with what a careless or hostile user types: nothing may crash.

Each bar (the explorer's position, agents to compare with and file to write; play's sides, save and load;
compare's agents) gets the same list of answers: empty, blank, huge, control characters and escape
sequences, digits of other scripts, numbers out of range, unknown names and parameters, folders, devices and
paths that do not exist.  A bar either takes the answer (and closes: it is opened again for the next) or says
what is wrong inline (and stays open for the next); a screen an answer opened is closed again.  The app must
still run and hold the screen it started on.  Each run works in its own directory: an answer that names a file
writes it there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.worker import WorkerCancelled

from plyscope.tui.app import PlyscopeApp
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.widgets.prompt_bar import PromptBar
from tests.tui.contest_helpers import prompt_field
from tests.tui.helpers import keys_without_idle_waits
from tests.tui.test_key_fuzz import compare_app, explorer_app, nim_app, play_app

ANSWERS = [
    "",
    "   ",
    "\t",
    "x" * 5000,
    "4" * 500,
    "\x00\x01\x7f",
    "\x1b[31mred\x1b[0m",
    "\u202e4453",
    "\uff14\uff14\uff15\uff13",  # fullwidth digits
    "\u0664\u0664\u0665\u0663",  # Arabic-Indic digits
    "😀",
    "1e400",
    "-1",
    "99999999999999999999999999999",
    "4453",
    "4444444",
    "0,0,0",
    "3,4,5",
    "/",
    "..",
    "/dev/null",
    "/dev/zero",
    "/proc/self/mem",
    "no/such/folder/x.json",
    "saved.json",
    "saved.dot",
    "saved.txt",
    "nosuch",
    "rivest mcts",
    "mcts:k=0",
    "mcts:k=abc",
    "mcts:c=nan",
    "mcts:c=inf",
    "alphabeta:depth=99999999",
    "rivest:",
    ":",
    "=",
    "human human",
    "human mcts:k=4",
    "rivest " * 50,
]

BARS: dict[str, tuple[Callable[[], PlyscopeApp], list[str]]] = {
    "explore": (explorer_app, ["p", "C", "w"]),
    "nim": (nim_app, ["p", "C"]),
    "play": (play_app, ["e", "w", "o"]),
    "compare": (compare_app, ["a"]),
}


async def answer_every_bar(make: Callable[[], PlyscopeApp], openers: list[str]) -> None:
    app = make()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ExploreScreen | PlayScreen | CompareScreen)
        home: ExploreScreen | PlayScreen | CompareScreen = screen
        bar = home.query_one(PromptBar)
        for opener in openers:
            for answer in ANSWERS:
                if not bar.is_open:  # (the first answer, or one taken: the bar closed)
                    await pilot.press(opener)
                    if not bar.is_open:  # (a bar the screen refused to open, as while a search runs: said why)
                        continue
                prompt_field(home).value = answer
                await pilot.press("enter")
                while app.screen is not home:
                    app.pop_screen()
                    await pilot.pause()
                assert app.is_running and app.return_code is None, (opener, answer)
            if bar.is_open:
                await pilot.press("escape")
        with contextlib.suppress(WorkerCancelled):  # (the last search, stopped by the screen)
            await app.workers.wait_for_complete()
        await pilot.pause(0)  # the last keys answered (every message sent so far handled), before the app ends


@pytest.mark.parametrize("case", list(BARS))
def test_every_input_bar_survives_whatever_is_typed(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make, openers = BARS[case]
    with keys_without_idle_waits():
        asyncio.run(asyncio.wait_for(answer_every_bar(make, openers), 300))

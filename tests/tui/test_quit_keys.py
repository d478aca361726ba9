"""What ctrl+c does, and that the help says exactly that: it quits in a terminal (as q and ctrl+q do, but with exit
status 130, an interruption), and in a browser (``plyscope serve``) it is left to the screen, which copies the text
selected, and never quits."""

from __future__ import annotations

import pytest

from plyscope.tui.app import PlyscopeApp
from plyscope.tui.screens.help import HelpScreen, help_sections
from plyscope.tui.screens.play import PlayScreen
from tests.tui.helpers import make_app, run_async


def rows_with(sections: list[tuple[str, list[tuple[str, str]]]], words: str) -> list[tuple[str, str, str]]:
    """Every help row whose description holds ``words``: (section, keys, description)."""
    return [(title, keys, text) for title, rows in sections for keys, text in rows if words in text]


@run_async
async def test_in_a_terminal_ctrl_c_quits_and_the_help_lists_it_only_as_quit() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        sections = help_sections(app, app.screen)
        assert rows_with(sections, "Quit") == [("Everywhere", "^q, ^c, q", "Quit")]
        # the screen's own ctrl+c (copy) never runs in a terminal: the app takes the key first
        assert [keys for _, keys, _ in rows_with(sections, "Copy selected text")] == ["super+c"]
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_code == 130 and not app.is_running  # an interruption, as the README says of every command


@pytest.fixture
def in_a_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app as textual-serve runs it: its driver is the web driver."""
    monkeypatch.setattr(PlyscopeApp, "is_web", property(lambda self: True))


@pytest.mark.usefixtures("in_a_browser")
def test_in_a_browser_ctrl_c_copies_never_quits_and_the_help_says_so() -> None:
    @run_async
    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=(100, 40)) as pilot:
            sections = help_sections(app, app.screen)
            assert rows_with(sections, "Quit") == [("Everywhere", "^q, q", "Quit")]
            assert [keys for _, keys, _ in rows_with(sections, "Copy selected text")] == ["^c, super+c"]
            for _ in range(3):
                await pilot.press("ctrl+c")
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen) and app.is_running
            await pilot.press("escape", "q")
            await pilot.pause()
        assert app.return_code == 0 and not app.is_running

    scenario()


@run_async
async def test_escape_handled_after_its_screen_has_gone_does_nothing() -> None:
    """A second escape typed before the first was handled reaches a screen already popped: nothing happens (it
    once looked for the board the screen no longer had)."""
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        explorer = app.screen
        await pilot.press("P")
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen)
        app.pop_screen()
        await pilot.pause()
        play.action_back()
        await pilot.pause()
        assert app.screen is explorer and app.is_running

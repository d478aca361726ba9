"""The Textual driver of a spare app process of ``plyscope serve`` (``plyscope.tui.web.session`` chooses it).

textual-serve's ``WebDriver`` writes the app's screen to stdout in its packet format, from the
moment the app starts.  A spare starts before any page asks for it, so ``SpareDriver`` lets the
app start in full (its screens composed, styled, laid out and drawn, on a screen of ``COLUMNS`` x
``ROWS``) while it writes nothing, and waits in a thread for the server to give it a page (a line
``COLUMNS ROWS`` on stdin, ``plyscope.tui.web.spare.read_size``).  Then it starts as ``WebDriver`` does,
on the page's screen: the server's packets, the terminal's set-up, the page's size (the app lays
itself out again if it differs), and a whole frame; but the app keeps the focus it started with
(``WebDriver`` takes it away until the page says it has it).
"""

from __future__ import annotations

import asyncio
import signal
import threading
from typing import TypeVar

from textual import events, messages
from textual.app import App
from textual.drivers.web_driver import WebDriver
from textual.geometry import Size

from plyscope.tui.web.spare import PAGE_NAME, read_size, rename

R = TypeVar("R")
"""What the app returns when it exits (any)."""


class SpareDriver(WebDriver):
    """``WebDriver``, silent until the server gives the app its page and the app has been laid out on it."""

    def __init__(
        self, app: App[R], *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.held = True
        """Whether the app waits for its page, or to be laid out on it: nothing it draws is written."""
        self.page: Size | None = None
        """The page's screen, once the server has given it."""

    def write(self, data: str) -> None:
        if self.held and self.page is not None and self._app.screen.outer_size == self.page:
            self._show()  # the app's first drawing on the page's screen: the whole of it
        if not self.held:
            super().write(data)

    def write_meta(self, data: dict[str, object]) -> None:
        if not self.held:
            super().write_meta(data)

    def start_application_mode(self) -> None:
        """Lay the app out on the screen it was started with, and wait for its page in a thread.

        The app keeps the focus (``WebDriver`` takes it away until the page says it has it): the page's keys come
        with the focus, and the first would otherwise restyle the whole screen, and send it again, before its
        answer (50 ms of CPU time and 23 KB, measured); the page says when it loses the focus (``blur``)."""
        loop = asyncio.get_running_loop()
        size = Size(*(self._size or (80, 24)))
        asyncio.run_coroutine_threadsafe(self._app._post_message(events.Resize(size, size)), loop=loop)
        threading.Thread(target=self._wait_for_page, args=(loop,), name="plyscope-page", daemon=True).start()

    def _wait_for_page(self, loop: asyncio.AbstractEventLoop) -> None:
        page = read_size()
        if page is None:  # the server never gave this app a page
            asyncio.run_coroutine_threadsafe(self._app._post_message(messages.ExitApp()), loop=loop)
        else:
            loop.call_soon_threadsafe(self._app.call_after_refresh, self._given, Size(*page))  # once it has started

    def _given(self, page: Size) -> None:
        """The app's page: lay the app out on its screen (shown once drawn there), or show it now if the screen is
        the one it was started with."""
        rename(PAGE_NAME)
        self.page = page
        self._size = (page.width, page.height)
        if self._app.screen.outer_size == page:
            self._show()
            self._app.refresh()  # drawn whole
        else:
            self._app.post_message(events.Resize(page, page))

    def _show(self) -> None:
        """Start writing: start as ``WebDriver`` does (the server's packets, the terminal's set-up, the page's size,
        its keys), the focus kept."""
        self.held = False
        loop = asyncio.get_running_loop()

        def end() -> None:
            asyncio.run_coroutine_threadsafe(self._app._post_message(messages.ExitApp()), loop=loop)

        for ending in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(ending, end)
        self._write(b"__GANGLION__\n")
        self.write("\x1b[?1049h")  # the alternate screen
        self._enable_mouse_support()
        self.write("\x1b[?25l")  # no cursor
        size = Size(*(self._size or (80, 24)))
        asyncio.run_coroutine_threadsafe(self._app._post_message(events.Resize(size, size)), loop=loop)
        self._request_terminal_sync_mode_support()
        self._enable_bracketed_paste()
        self._key_thread.start()

"""Tree diffs over the screen: ``DiffingScreen`` makes them in a thread (the explorer's ``M`` and ``D``, compare's
``D``), ``DiffScreen`` shows one in a scrollable box."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from plyscope.engine.errors import UserError
from plyscope.engine.search.base import cyclic_gc_paused
from plyscope.tui.diffing import Progress
from plyscope.tui.messages import DiffProgress

Finish = Callable[[], object]
"""What a diff thread's work ends with, on the screen's thread (show the diff, keep the copy)."""
DiffJob = Callable[[threading.Event, Progress], Finish | None]
"""A diff thread's work: stops when the event is set (returning ``None``), tells ``Progress`` how far it got."""


class DiffScreen(ModalScreen[None]):
    """What ``tui.diff_view.shown_diff`` draws, until escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,D", "dismiss", "Close the diff")]

    DEFAULT_CSS = """
    DiffScreen { align: center middle; }
    DiffScreen > VerticalScroll {
        width: 100; max-width: 100%; height: 90%; border: round $primary; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, title: str, shown: RenderableType) -> None:
        super().__init__()
        self.title_text = title
        self.shown = shown

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = f"{self.title_text} (escape closes)"
            yield Static(self.shown)


class DiffingScreen(Screen[None]):
    """A screen that copies live trees and diffs them in a thread of its own (one at a time), off its own thread."""

    def say(self, note: str) -> None:
        """Show ``note`` on the status line (``SearchScreen``'s)."""
        raise NotImplementedError

    def refuse(self, reason: str) -> None:
        """Say why an action did nothing (``SearchScreen``'s)."""
        raise NotImplementedError

    def in_diff_thread(self, job: DiffJob, started: str) -> None:
        """Say ``started`` and run ``job`` in the ``diff`` thread (the one before it stops), its progress on the
        status line; what it ends with runs on the screen's thread, and a ``UserError`` it raises is refused.
        Python's cycle collector is held off meanwhile: its walks of the copies would hold the interpreter for a
        tenth of a second and more."""

        def body() -> None:
            worker = get_current_worker()

            def tell(note: str, finish: Finish | None = None) -> None:
                shown = threading.Event()
                self.post_message(DiffProgress(note, shown, finish))
                while not shown.wait(0.05) and not worker.is_cancelled:
                    pass

            try:
                with cyclic_gc_paused():
                    finish = job(worker.cancelled_event, tell)
            except UserError as error:
                finish = partial(self.refuse, str(error))
            if finish is not None and not worker.is_cancelled:
                tell("", finish)

        self.say(started)
        self.run_worker(body, thread=True, group="diff", exclusive=True)

    def show_diff(self, title: str, shown: RenderableType, note: str) -> None:
        """Say ``note`` and show the diff ``shown`` in a box titled ``title`` over the screen."""
        self.say(note)
        self.app.push_screen(DiffScreen(title, shown))

    def on_diff_progress(self, message: DiffProgress) -> None:
        if message.finish is not None:
            message.finish()
        else:
            self.say(message.note)
        message.shown.set()

"""The status line at the top of every screen that shows searches: the screen's two lines, then what happened last."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.dom import DOMNode
from textual.widgets import Static

from plyscope.engine.files import NO_FILES

Lines = Callable[[], tuple[Text, Text]]
"""The screen's two lines (long ones wrap): what it shows and how it stands."""


class StatusLine(Static):
    """The screen's ``lines``, then the last note: a step's note, a refused action, a move played."""

    def __init__(self, lines: Lines) -> None:
        super().__init__(id="status")
        self.lines = lines
        self.note = ""
        """What happened last."""

    def show(self) -> None:
        """Write the line again (the screen's lines, then the note)."""
        first, second = self.lines()
        if self.note:
            second.append(f" · {self.note}", "italic")
        self.update(Text("\n").join([first, second]))

    def say(self, note: str) -> None:
        """Show ``note``."""
        self.note = note
        self.show()

    def refuse(self, reason: str) -> None:
        """Say why an action did nothing (nothing else changes), here and in a notification."""
        self.notify(reason, severity="warning", timeout=4)
        self.say(reason)


def files_allowed(node: DOMNode) -> bool:
    """Whether this app may write and read files; if not (a served session), the status line of ``node``'s screen says
    so."""
    if getattr(node.app, "files", True):
        return True
    node.screen.query_one(StatusLine).refuse(NO_FILES)
    return False

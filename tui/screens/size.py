"""A screen's smallest size (``SizedScreen``): below it, the screen says so instead of squeezing its panes, and once
the terminal is large enough again the widget that held the focus holds it again."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static


class SizedScreen(Screen[None]):
    """A screen laid out only in a terminal of at least ``MIN_SIZE``."""

    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 18)
    """The smallest terminal (columns, rows) the screen is laid out in."""

    _focus_before_small: Widget | None = None
    """The widget that held the focus when the terminal became too small (hidden, it lost it)."""

    def on_resize(self, event: events.Resize) -> None:
        columns, rows = self.MIN_SIZE
        small = event.size.width < columns or event.size.height < rows
        if small and not self.has_class("-too-small"):
            self._focus_before_small = self.focused
        elif not small and self.has_class("-too-small"):
            self.call_after_refresh(self._focus_again)
        self.set_class(small, "-too-small")
        if small:
            if not self.query("#too-small"):
                self.mount(Static(id="too-small"))
            self.query_one("#too-small", Static).update(
                f"plyscope needs a terminal of at least {columns} x {rows} here; this one is "
                f"{event.size.width} x {event.size.height}. Make it larger (q quits)."
            )

    def _focus_again(self) -> None:
        """Give the focus back to the widget that held it before the terminal was too small (if none has it)."""
        widget, self._focus_before_small = self._focus_before_small, None
        if self.focused is None and widget is not None and widget.is_attached and widget.focusable:
            widget.focus()

"""A screen's smallest size: below it, the screen says so instead of squeezing its panes, and once the terminal is
large enough again the widget that held the focus holds it again."""

from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static


class TooSmall(Static):
    """What a screen shows instead of its other widgets in a terminal smaller than ``least`` (the screen's ``on_resize``
    hands it each new size)."""

    def __init__(self, least: tuple[int, int] = (60, 18)) -> None:
        """``least``: the smallest terminal (columns, rows) the screen is laid out in."""
        super().__init__(id="too-small")
        self.least = least
        self._focus_before: Widget | None = None
        """The widget that held the focus when the terminal became too small (hidden, it lost it)."""

    def fit(self, size: Size) -> None:
        """The terminal is now ``size``: hide the screen's other widgets and say why, or show them again."""
        screen = self.screen
        columns, rows = self.least
        small = size.width < columns or size.height < rows
        if small and not screen.has_class("-too-small"):
            self._focus_before = screen.focused
        elif not small and screen.has_class("-too-small"):
            self.call_after_refresh(self._focus_again)
        screen.set_class(small, "-too-small")
        if small:
            self.update(
                f"plyscope needs a terminal of at least {columns} x {rows} here; this one is "
                f"{size.width} x {size.height}. Make it larger (q quits)."
            )

    def _focus_again(self) -> None:
        """Give the focus back to the widget that held it before the terminal was too small (if none has it)."""
        widget, self._focus_before = self._focus_before, None
        if self.screen.focused is None and widget is not None and widget.is_attached and widget.focusable:
            widget.focus()

"""The compare screen's tree diff (``D``): panes A and B lined up node by node, in a scrollable box over the screen."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

DIFF_SHOWN = 200
"""The most differing nodes a diff screen draws (the summary counts them all)."""


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

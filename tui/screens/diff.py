"""A tree diff over the screen, in a scrollable box (made by ``plyscope.tui.components.diffs``: the explorer's ``M``
and ``D``, compare's ``D``)."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


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

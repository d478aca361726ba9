"""The stats panel: what a search has spent and built, and a sparkline of its root value over the steps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.widget import Widget
from textual.widgets import Sparkline, Static

from engine.search.base import Stats
from tui.formatting import format_count, format_number, format_rate, format_value

GAP = 2
"""Cells between two columns of figures."""


@dataclass(frozen=True, slots=True)
class Figures:
    """The figures of one search, as the panel shows them."""

    stats: Stats
    node_cap: int
    """The most nodes the tree may hold."""
    steps_per_second: float | None
    signed: bool = True
    """Whether root values are shown signed (``False`` on a scale of positive values, as Rivest's 1..1023)."""


class FigureGrid(Widget):
    """Labelled figures laid out in as many columns as the width allows (one at least); never cut off."""

    DEFAULT_CSS = """
    FigureGrid { height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cells: list[tuple[str, str]] = []

    def show(self, cells: list[tuple[str, str]]) -> None:
        if cells != self.cells:
            rows_before = self._rows(self.size.width)
            self.cells = cells
            self.refresh(layout=self._rows(self.size.width) != rows_before)

    def _layout(self, width: int) -> tuple[int, int, int]:
        """Columns, label width and value width for ``width`` cells."""
        label = max((len(name) for name, _ in self.cells), default=0)
        value = max((len(figure) for _, figure in self.cells), default=0)
        cell = label + 1 + value
        columns = max(1, (max(width, cell) + GAP) // (cell + GAP))
        return columns, label, value

    def _rows(self, width: int) -> int:
        columns = self._layout(width)[0]
        return -(-len(self.cells) // columns)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return max(1, self._rows(width))

    def render(self) -> RenderResult:
        columns, label_width, value_width = self._layout(self.size.width)
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, (label, value) in enumerate(self.cells):
            if index and index % columns == 0:
                text.append("\n")
            elif index:
                text.append(" " * GAP)
            text.append(f"{label:<{label_width}} ", "dim")
            text.append(f"{value:>{value_width}}")
        return text


class StatsPanel(Widget):
    """Moves generated, nodes (and the node cap), maximum depth, steps, steps per second; the root value's sparkline."""

    DEFAULT_CSS = """
    StatsPanel { height: auto; }
    StatsPanel > #value-label { height: 1; color: $text-muted; }
    StatsPanel > Sparkline { height: 2; }
    """

    def compose(self) -> ComposeResult:
        yield FigureGrid(id="figures")
        yield Static(id="value-label")
        yield Sparkline([], id="values")

    def show(self, figures: Figures, values: Sequence[float]) -> None:
        """Show ``figures`` and the root values (first player's point of view) over the steps."""
        stats = figures.stats
        cells = [
            ("moves", format_count(stats.moves)),
            ("nodes", format_count(stats.nodes)),
            ("node cap", format_count(figures.node_cap)),
            ("depth", format_count(stats.max_depth)),
            ("steps", format_count(stats.iterations)),
            ("steps/s", format_rate(figures.steps_per_second)),
        ]
        if stats.playouts:
            cells.append(("playouts", format_count(stats.playouts)))
        self.query_one(FigureGrid).show(cells)
        label = "root value"
        if values:
            shown = format_value if figures.signed else format_number
            label += f" {shown(values[-1])} ({shown(min(values))}..{shown(max(values))})"
        self.query_one("#value-label", Static).update(label, layout=False)
        sparkline = self.query_one("#values", Sparkline)
        sparkline.visible = len(values) > 1  # the start's value alone is no line (Textual draws it as a solid bar)
        sparkline.data = list(values)

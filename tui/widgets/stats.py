"""The stats panel: what a search has spent and built, and a sparkline of its root value over the steps (with the
truth column on: of the share of its work below root moves that lose)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.widget import Widget
from textual.widgets import Sparkline, Static

from plyscope.engine.search.base import Stats
from plyscope.tui.formatting import format_count, format_number, format_rate, format_value

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
    truth: tuple[tuple[str, str], ...] = ()
    """With the truth column on: the root moves against perfect play (``share_cells``), as labelled figures."""


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


BARS = "▁▂▃▄▅▆▇█"


def sparkline_rows(values: Sequence[float], width: int, height: int) -> list[str]:
    """``values`` as bars ``width`` cells wide and ``height`` rows high (top row first), from the smallest
    value (one eighth of a row) to the largest (full height): each cell the largest of the values it covers,
    a value spread over several cells when there are fewer values than cells (as Textual's ``Sparkline``)."""
    if not values or width <= 0 or height <= 0:
        return [" " * max(0, width)] * max(0, height)
    count = len(values)
    lowest = min(values)
    extent = max(values) - lowest or 1
    top = len(BARS) * height - 1
    levels = []
    for column in range(width):
        start = column * count // width
        window = values[start : max(start + 1, (column + 1) * count // width)]
        levels.append(int((max(window) - lowest) / extent * top))
    rows = []
    for row in reversed(range(height)):
        floor = row * len(BARS)
        rows.append(
            "".join(
                " " if level < floor else "█" if level >= floor + len(BARS) else BARS[level - floor] for level in levels
            )
        )
    return rows


class ValueSparkline(Sparkline):
    """Textual's sparkline drawn in one colour (``sparkline--max-color``): the heights carry the values.

    With a colour for each bar, every cell was sent to the terminal with a colour of its own, about 35
    bytes a cell (7 KB of the 24 KB a served session was sent for each step); one colour is one run a row.
    """

    def render(self) -> RenderResult:
        _, background = self.background_colors
        colour = background + self.get_component_styles("sparkline--max-color").color
        rows = sparkline_rows(self.data or [], self.size.width, self.size.height)
        return Text("\n".join(rows), Style(color=colour.rich_color))


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
        yield ValueSparkline([], id="values")

    def show(self, figures: Figures, values: Sequence[float], *, losing: bool = False) -> None:
        """Show ``figures`` and the root values (first player's point of view) over the steps; with ``losing``,
        ``values`` are instead the shares of the work below root moves that lose, over the run (the truth column's)."""
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
        cells += figures.truth
        self.query_one(FigureGrid).show(cells)
        if losing:
            label = "losing work"
            if values:
                label += f" {values[-1]:.0%} ({min(values):.0%}..{max(values):.0%}) over the run"
            else:
                label += " over the run: drawn once every root move is settled"
        else:
            label = "root value"
            if values:
                shown = format_value if figures.signed else format_number
                label += f" {shown(values[-1])} ({shown(min(values))}..{shown(max(values))})"
        shown_label = self.query_one("#value-label", Static)
        if label != shown_label.content:  # an update repaints it, at every step
            shown_label.update(label, layout=False)
        sparkline = self.query_one("#values", ValueSparkline)
        sparkline.visible = len(values) > 1  # the start's value alone is no line (Textual draws it as a solid bar)
        sparkline.data = list(values)

"""The stats panel: what a search has spent and built, and a sparkline of its root value over the steps."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Sparkline, Static

from engine.search.base import Stats
from tui.formatting import format_count, format_number, format_rate


class StatsPanel(Widget):
    """Moves generated, nodes, maximum depth, steps and steps per second; the root value's sparkline."""

    DEFAULT_CSS = """
    StatsPanel { height: auto; }
    StatsPanel > #figures { height: 3; }
    StatsPanel > #value-label { height: 1; color: $text-muted; }
    StatsPanel > Sparkline { height: 2; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="figures")
        yield Static(id="value-label")
        yield Sparkline([], id="values")

    def show(self, stats: Stats, steps_per_second: float | None, values: Sequence[float]) -> None:
        """Show ``stats``, the measured rate and the root values (first player's point of view) over the steps."""
        cells = [
            ("moves", format_count(stats.moves)), ("nodes", format_count(stats.nodes)),
            ("depth", format_count(stats.max_depth)), ("steps", format_count(stats.iterations)),
            ("steps/s", format_rate(steps_per_second)),
        ]
        if stats.playouts:
            cells.append(("playouts", format_count(stats.playouts)))
        figures = Text()
        for index, (label, value) in enumerate(cells):
            figures.append(f"{label:<8}", "dim")
            figures.append(f"{value:>8}")
            figures.append("  " if index % 2 == 0 else "\n")
        figures.rstrip()
        self.query_one("#figures", Static).update(figures, layout=False)
        label = "root value"
        if values:
            label += f" {format_number(values[-1])} ({format_number(min(values))}..{format_number(max(values))})"
        self.query_one("#value-label", Static).update(label, layout=False)
        self.query_one("#values", Sparkline).data = list(values)

"""The timeline under a search's tree: which step is shown, out of how many, and where the best move changed."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from plyscope.tui.formatting import format_count

CHANGE = "◆"
"""A step after which the best move changed."""
HERE = "●"
"""The step shown."""


def bar_text(shown: int, total: int, changes: list[int], width: int) -> Text:
    """``step 1,234/5,000 ━━◆━━●───◆──``: the label, then the steps spread over the rest of ``width`` cells.

    Cells up to the step shown are solid, later ones thin (the future that ``.`` or ``}`` brings back);
    ``◆`` marks a cell holding a change of the best move, ``●`` the step shown.
    """
    label = f"step {format_count(shown)}/{format_count(total)} " if shown < total else f"step {format_count(total)} "
    text = Text(label, "bold" if shown < total else "")
    cells = width - len(label)
    if cells < 4 or total == 0:
        return text
    marks = [" "] * cells

    def cell(step: int) -> int:
        return min(cells - 1, max(0, (step * (cells - 1) + total // 2) // total))

    here = cell(shown)
    for index in range(cells):
        marks[index] = "━" if index <= here else "─"
    for step in changes:
        if step <= total:  # the list may be the timeline's own, grown by the search thread since
            marks[cell(step)] = CHANGE
    marks[here] = HERE
    for index, mark in enumerate(marks):
        style = "bold $accent" if index == here else ("yellow" if mark == CHANGE else ("" if index <= here else "dim"))
        text.append(mark, style.replace("$accent", "cyan"))
    return text


class TimelineBar(Widget):
    """One line: the step shown, the newest step, and the changes of the best move along the way."""

    DEFAULT_CSS = "TimelineBar { height: 1; padding: 0 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown = 0
        self._total = 0
        self._changes: list[int] = []

    def show(self, shown: int, total: int, changes: list[int]) -> None:
        """Show step ``shown`` of ``total``, with the steps in ``changes`` marked."""
        if (shown, total, len(changes)) != (self._shown, self._total, len(self._changes)):
            self._shown, self._total, self._changes = shown, total, list(changes)
            self.refresh()

    def render(self) -> Text:
        return bar_text(self._shown, self._total, self._changes, self.content_region.width or self.size.width)

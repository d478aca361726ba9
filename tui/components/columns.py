"""The digit keys wherever the focus is: each plays a column (or a child, a pile) on the board inside, as the board's
own digit keys do when it holds the focus."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType

from plyscope.tui.components.base import Component
from plyscope.tui.widgets.board import COLUMN_BINDINGS, Board


class ColumnKeys(Component):
    """The board inside, played with the digit keys from any widget beside it."""

    BINDINGS: ClassVar[list[BindingType]] = [*COLUMN_BINDINGS]

    def action_play_column(self, column: int) -> None:
        self.query_one(Board).action_play_column(column)

"""The digit keys wherever the focus is: each plays what the board inside numbers so (a column, a child, a cell), as
the board's own digit keys do when it holds the focus."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType

from plyscope.tui.components.base import Component
from plyscope.tui.widgets.boards.base import DIGIT_BINDINGS, Board


class BoardKeys(Component):
    """The board inside, played with the digit keys from any widget beside it."""

    BINDINGS: ClassVar[list[BindingType]] = [*DIGIT_BINDINGS]

    def action_play_digit(self, index: int) -> None:
        self.query_one(Board).play_digit(index)

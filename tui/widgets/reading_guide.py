"""The explorer's guide to reading the tree: what each number on a line means, and the chosen node's numbers."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.widgets import Static

from tui.formatting import Number, format_number, number_meanings


class ReadingGuide(Static):
    """How to read the search tree's lines for one algorithm, and the numbers of the node chosen in it."""

    def show(self, names: list[str], chosen: Mapping[str, Number] | None = None, where: str = "") -> None:
        """``names``: the algorithm's numbers, in order; ``chosen``: the chosen node's, at ``where`` (its moves)."""
        text = Text()
        if chosen is not None:
            text.append(f"node {where or 'root'}\n", "bold")
            for name, value in chosen.items():
                text.append(f"  {name} = {format_number(value)}\n")
            text.append("\n")
        text.append("each line: the mover (● first, ○ second), the move, then\n", "dim")
        for name, meaning in number_meanings(names):
            text.append(name, "bold")
            text.append(f" {meaning}\n", "dim")
        self.update(text)

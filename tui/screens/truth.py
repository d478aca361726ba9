"""The truth column's key (``T``), which every screen showing searches has (``SearchScreen``)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from plyscope.tui.widgets.search_pane import SearchPane

TRUTH_DESCRIPTION = "Truth column on/off: each node's exact value for the player to move there"


class TruthScreen(Screen[None]):
    """A screen whose ``SearchPane`` widgets can show the truth column, all together."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("T", "truth", TRUTH_DESCRIPTION, show=False)]

    def say(self, note: str) -> None:
        """Show ``note`` on the status line (``SearchScreen``'s)."""
        raise NotImplementedError

    def refuse(self, reason: str) -> None:
        """Say why an action did nothing (``SearchScreen``'s)."""
        raise NotImplementedError

    def action_truth(self) -> None:
        """Show or hide the truth column in every pane (refused, and left off, where the game has no exact values)."""
        panes = list(self.query(SearchPane).results(SearchPane))
        on = not any(pane.search_tree.truth for pane in panes)
        reasons = sorted({pane.show_truth(on) for pane in panes} - {""})
        if reasons:
            self.refuse(reasons[0])
        elif on:
            self.say("truth column on (for the player to move): ? not found yet, … beyond the budget, ✗ fooled below")
        else:
            self.say("truth column off")

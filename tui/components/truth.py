"""The truth column's key (``T``): every pane inside shows, or stops showing, each node's exact value."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from plyscope.tui.components.base import Component
from plyscope.tui.widgets.search_pane import SearchPane

TRUTH_DESCRIPTION = "Truth column on/off: each node's exact value for the player to move there"


class TruthColumn(Component):
    """The truth column of the ``SearchPane`` widgets inside, all together."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("T", "truth", TRUTH_DESCRIPTION, show=False)]

    def action_truth(self) -> None:
        """Show or hide the truth column in every pane (refused, and left off, where the game has no exact values)."""
        panes = list(self.query(SearchPane).results(SearchPane))
        on = not any(pane.search_tree.truth for pane in panes)
        reasons = sorted({pane.show_truth(on) for pane in panes} - {""})
        if reasons:
            self.status.refuse(reasons[0])
        elif on:
            notes = sorted({pane.truth_note() for pane in panes} - {""})
            self.status.say(
                "truth column on (for the player to move): ? not found yet, … beyond the budget, ✗ fooled below"
                + "".join(f"; {note}" for note in notes)
            )
        else:
            self.status.say("truth column off")

"""``Component``: a part of a screen that wraps the widgets it acts on and owns the keys of its behaviour.

Textual looks for a key's binding from the focused widget up through its ancestors to the screen, so a component's
keys work wherever the focus is inside it: a screen wraps its board and its panes in the components whose behaviour it
has (``with Timeline(), TruthColumn(), Searches(): ...``).  A component takes what it needs as arguments or finds it by
query, and tells the screen what happened by a message.  The help and the command palette list a component's keys with
the screen's own (``plyscope.tui.screens.help.key_sections``).
"""

from __future__ import annotations

from textual.containers import Container

from plyscope.tui.components.status import StatusLine


class Component(Container):
    """A container taking the room its content would take (Textual's ``Container``: all the room it is given)."""

    @property
    def status(self) -> StatusLine:
        """The screen's status line."""
        return self.screen.query_one(StatusLine)

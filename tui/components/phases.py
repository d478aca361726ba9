"""Phase mode (``i``), which the explorer and compare have: ``s`` tells one phase of a step (``Searcher.phased``),
the timeline's ``,`` and ``.`` move one phase (``Timeline`` asks ``along``), and ``i`` again finishes the steps under
way."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import partial
from typing import ClassVar

from textual.binding import Binding, BindingType

from plyscope.tui.components.base import Component
from plyscope.tui.components.searches import Searches
from plyscope.tui.session import Batch, Deliver, Session
from plyscope.tui.widgets.search_pane import SearchPane

PHASES_DESCRIPTION = "Phase mode on/off: s tells one phase of a step, and why"


class Phases(Component):
    """Phase mode for the searches of the panes inside (``Searches``, around it, hosts their threads)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("i", "phases", PHASES_DESCRIPTION, show=False)]

    def __init__(self, *, under_trees: bool = False) -> None:
        """``under_trees``: each pane tells its phase under its tree (compare; the explorer's guide tells it)."""
        super().__init__()
        self.under_trees = under_trees
        self.on = False
        """Whether ``s`` tells one phase of a step, and ``,`` and ``.`` move one phase."""

    def action_phases(self) -> None:
        """Phase mode on or off (off: the steps under way are done, and shown)."""
        self.on = not self.on
        panes = list(self.query(SearchPane).results(SearchPane))
        if not self.on:
            for pane in panes:
                pane.show_phase(None)
            under_way = [pane.session for pane in panes if pane.session is not None and pane.session.phases_shown]
            if under_way:
                searches = self.query_ancestor(Searches)
                searches.stop()
                searches.host(partial(_finish_phases, under_way))
        if self.under_trees:
            for pane in panes:
                pane.set_class(self.on, "-phases")
        self.status.say(
            "phase mode: s tells one phase of a step, and why; , and . move one phase along the timeline"
            if self.on
            else "phase mode off: s takes a whole step"
        )

    def take(self, sessions: Sequence[Session]) -> None:
        """One phase of each of ``sessions`` (phase mode's ``s``), in a search thread."""

        def job(deliver: Deliver, stop: threading.Event) -> None:
            deliver([(session, session.take_phase()) for session in sessions])

        self.query_ancestor(Searches).host(job)

    def along(self, session: Session, where: str) -> bool:
        """Phase mode's ``,`` and ``.``: ``session`` one phase ``back`` or ``forward`` along its timeline; ``False``
        (nothing done) out of phase mode, or for another timeline key."""
        if not self.on or where not in ("back", "forward"):
            return False
        under_way = session.phases_shown > 0
        if where == "back" and not under_way and session.step_shown == 0:
            self.status.refuse("already at step 0, the start")
            return True
        if where == "forward" and not under_way and session.step_shown >= session.steps_taken:
            self.status.refuse(
                f"already at the newest step, {session.steps_taken:,}: s tells the next step's first phase"
            )
            return True
        searches = self.query_ancestor(Searches)
        searches.stop()

        def job(deliver: Deliver, stop: threading.Event) -> None:
            batch = session.phase_back(stop) if where == "back" else session.take_phase()
            if batch is not None:
                deliver([(session, batch)])

        searches.host(job)
        return True


def _finish_phases(sessions: Sequence[Session], deliver: Deliver, stop: threading.Event) -> None:
    """The search thread that does what is left of the steps under way in phase mode, once it is turned off."""
    batches = []
    for session in sessions:
        with session.lock:
            step = session.finish_phases()
        if step is not None:
            batches.append((session, Batch(1, step, (step.node, *step.changed, *step.added), session.ended)))
    deliver(batches)

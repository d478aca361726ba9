"""Phase mode (``i``), which the explorer and compare have: ``s`` tells one phase of a step (``Searcher.phased``), the
timeline's ``,`` and ``.`` move one phase, and ``i`` again finishes the steps under way."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import partial

from textual.screen import Screen
from textual.worker import Worker

from plyscope.tui.session import Batch, Deliver, Job, Session
from plyscope.tui.widgets.search_pane import SearchPane

PHASES_DESCRIPTION = "Phase mode on/off: s tells one phase of a step, and why"


class PhaseScreen(Screen[None]):
    """A screen whose searches can be told a phase at a time (``SearchScreen`` hosts their threads)."""

    phase_mode = False
    """Whether ``s`` tells one phase of a step, and ``,`` and ``.`` move one phase."""

    def say(self, note: str) -> None:
        """Show ``note`` on the status line (``SearchScreen``'s)."""
        raise NotImplementedError

    def refuse(self, reason: str) -> None:
        """Say why an action did nothing (``SearchScreen``'s)."""
        raise NotImplementedError

    def host(self, job: Job, *, group: str = "search") -> Worker[None]:
        """Run ``job`` in a search thread (``SearchScreen``'s)."""
        raise NotImplementedError

    def stop_searches(self) -> None:
        """Stop the search threads (``SearchScreen``'s)."""
        raise NotImplementedError

    def action_phases(self) -> None:
        """Phase mode on or off (off: the steps under way are done, and shown)."""
        self.phase_mode = not self.phase_mode
        if not self.phase_mode:
            panes = list(self.query(SearchPane).results(SearchPane))
            for pane in panes:
                pane.show_phase(None)
            under_way = [pane.session for pane in panes if pane.session is not None and pane.session.phases_shown]
            if under_way:
                self.stop_searches()
                self.host(partial(_finish_phases, under_way))
        self.say(
            "phase mode: s tells one phase of a step, and why; , and . move one phase along the timeline"
            if self.phase_mode
            else "phase mode off: s takes a whole step"
        )

    def take_phases(self, sessions: Sequence[Session]) -> None:
        """One phase of each of ``sessions`` (phase mode's ``s``), in a search thread."""

        def job(deliver: Deliver, stop: threading.Event) -> None:
            deliver([(session, session.take_phase()) for session in sessions])

        self.host(job)

    def phase_along(self, session: Session, where: str) -> bool:
        """Phase mode's ``,`` and ``.``: ``session`` one phase ``back`` or ``forward`` along its timeline; ``False``
        (nothing done) out of phase mode, or for another timeline key."""
        if not self.phase_mode or where not in ("back", "forward"):
            return False
        under_way = session.phases_shown > 0
        if where == "back" and not under_way and session.step_shown == 0:
            self.refuse("already at step 0, the start")
            return True
        if where == "forward" and not under_way and session.step_shown >= session.steps_taken:
            self.refuse(f"already at the newest step, {session.steps_taken:,}: s tells the next step's first phase")
            return True
        self.stop_searches()

        def job(deliver: Deliver, stop: threading.Event) -> None:
            batch = session.phase_back(stop) if where == "back" else session.take_phase()
            if batch is not None:
                deliver([(session, batch)])

        self.host(job)
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

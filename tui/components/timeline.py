"""The timeline keys: they move the search of the pane holding the focus (else the first showing one) to another of its
steps, rebuilt in a search thread (``Session.go_to``); in phase mode ``,`` and ``.`` move one phase (``Phases``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from plyscope.engine.errors import UserError
from plyscope.engine.search_file import export_path
from plyscope.tui.components.base import Component
from plyscope.tui.components.phases import Phases
from plyscope.tui.components.searches import Searches
from plyscope.tui.components.status import files_allowed
from plyscope.tui.session import Deliver, Session
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.search_pane import SearchPane

Refusal = Callable[[Session], str]
"""Why the timeline of a session cannot be moved along now (``""``: it can; the screen pauses what it must)."""


def never(session: Session) -> str:
    """Every timeline can be moved along."""
    return ""


class Timeline(Component):
    """Moves the searches of the panes inside along their timelines (``Searches``, around it, hosts the rebuilds)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("comma", "timeline('back')", "Timeline: one step back", show=False),
        Binding("full_stop", "timeline('forward')", "Timeline: one step forward", show=False),
        Binding("left_curly_bracket", "timeline('start')", "Timeline: to the start", show=False),
        Binding("right_curly_bracket", "timeline('newest')", "Timeline: to the newest step", show=False),
        Binding(
            "less_than_sign", "timeline('previous-change')", "Timeline: previous change of the best move", show=False
        ),
        Binding("greater_than_sign", "timeline('next-change')", "Timeline: next change of the best move", show=False),
    ]

    class Arrived(Message):
        """The step ``step`` of ``session`` a timeline key asked for was shown."""

        def __init__(self, session: Session, step: int) -> None:
            super().__init__()
            self.session = session
            self.step = step

    def __init__(self, refusal: Refusal = never) -> None:
        """``refusal``: why a session's timeline cannot be moved along now (the screen's rule)."""
        super().__init__()
        self.refusal = refusal
        self._goal: tuple[Session, int] | None = None
        """The step a move along a session's timeline is bringing back (until it is shown)."""

    def pane(self) -> SearchPane | None:
        """The pane whose search the keys move: the one holding the focus, else the first showing one."""
        panes = [pane for pane in self.query(SearchPane).results(SearchPane) if pane.session is not None]
        focused = self.screen.focused
        for pane in panes:
            if focused is not None and (focused is pane or pane in focused.ancestors):
                return pane
        return panes[0] if panes else None

    def action_timeline(self, where: str) -> None:
        """Show the search of ``pane`` as it was at another step, rebuilt in a search thread: ``where`` is ``back``,
        ``forward``, ``start``, ``newest``, ``previous-change`` or ``next-change`` (of the best move)."""
        pane = self.pane()
        session = None if pane is None else pane.session
        if session is None:
            self.status.refuse("no search here to move along")
            return
        refusal = self.refusal(session)
        if refusal:
            self.status.refuse(refusal)
            return
        phases = list(self.query(Phases).results(Phases))
        if phases and phases[0].along(session, where):
            return
        goal = self._goal
        shown = goal[1] if goal is not None and goal[0] is session else session.step_shown
        total = session.steps_taken
        target = session.timeline_target(where, shown)
        if target is None:
            self.status.refuse(
                f"no change of the best move {'before' if where == 'previous-change' else 'after'} step {shown:,}"
                if "change" in where
                else "already at step 0, the start"
                if where in ("back", "start")
                else f"already at the newest step, {total:,}: s steps the search on"
            )
            return
        searches = self.query_ancestor(Searches)
        searches.stop()
        self._goal = (session, target)

        def job(deliver: Deliver, stop: threading.Event) -> None:
            batch = session.go_to(target, stop)
            if batch is not None:
                deliver([(session, batch)])
                if not stop.is_set():
                    self.post_message(self.Arrived(session, target))

        searches.host(job)
        self.status.say(f"step {target:,} of {total:,}" + (" (rebuilding…)" if target < shown else ""))

    def on_timeline_arrived(self, message: Arrived) -> None:
        message.stop()
        session = message.session
        if self._goal == (session, message.step) and session.step_shown == message.step:
            self._goal = None
            self.status.say(f"showing step {session.step_shown:,} of {session.steps_taken:,}")


class WritableTimeline(Timeline):
    """The explorer's timeline: one step back and forth in the footer, and ``w`` writes the search as it stands at the
    step shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("comma", "timeline('back')", "Back", tooltip="Timeline: one step back"),
        Binding("full_stop", "timeline('forward')", "Fwd", tooltip="Timeline: one step forward"),
        Binding("w", "export", "Write the search to a file (.json to replay, .dot for Graphviz)", show=False),
    ]

    def action_export(self) -> None:
        """Ask for a file to write the search of ``pane`` to, as it stands at the step shown."""
        if not files_allowed(self):
            return
        pane = self.pane()
        session = None if pane is None else pane.session
        if session is None or self.refusal(session):
            self.status.refuse("no search here to write" if session is None else self.refusal(session))
            return
        self.screen.query_one(PromptBar).ask(
            "write the search to",
            session.export_name(),
            partial(self._write, session),
            placeholder="FILE.json (plyscope replay FILE opens it) or FILE.dot (Graphviz)",
        )

    def _write(self, session: Session, name: str) -> None:
        """Write ``session``'s search to the file ``name``, in a thread (a big tree takes seconds)."""
        path = export_path(str(Path(name.strip()).expanduser()), "file")
        self.query_ancestor(Searches).stop()

        def write() -> None:
            try:
                said = session.write(path)
            except UserError as error:
                self.app.call_from_thread(self.status.refuse, str(error))
                return
            self.app.call_from_thread(self.status.say, said)

        self.run_worker(write, thread=True, group="export", name="export")
        self.status.say(f"writing {path}…")

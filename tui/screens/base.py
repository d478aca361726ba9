"""What every screen that shows searches shares: hosting search threads, the timeline, the status line.

**Search threads.**  ``host(job)`` runs ``job(deliver, stop)`` in a thread worker.  The job
steps sessions (``Session.take``, ``Session.drive``, ``plyscope.tui.contest``) and hands each frame's
batches to ``deliver``, which posts one ``BatchesReady`` and waits until the screen has
painted it (or the worker is cancelled): the tree the screen reads only changes between two
repaints, and the search never competes with a repaint for the GIL.  ``on_batches_ready``
gives every batch to the ``SearchPane`` showing its session, then calls ``batches_shown``.

**The timeline.**  The timeline keys move the search of the pane holding the focus to another
of its steps (``Session.go_to``, in a search thread); ``w`` writes it to a file.

**Size.**  Below ``MIN_SIZE`` the screen says so instead of squeezing its panes (``SizedScreen``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static
from textual.worker import Worker, WorkerState, get_current_worker

from plyscope.engine.errors import UserError
from plyscope.engine.files import NO_FILES
from plyscope.tui.messages import BatchesReady
from plyscope.tui.screens.phases import PhaseScreen
from plyscope.tui.screens.size import SizedScreen
from plyscope.tui.screens.truth import TruthScreen
from plyscope.tui.session import Batch, Deliver, Job, Session, export_path
from plyscope.tui.widgets.board import Board
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.search_pane import SearchPane


class SearchScreen(PhaseScreen, TruthScreen, SizedScreen):
    """A screen whose ``SearchPane`` widgets show searches run by threads it hosts."""

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

    def __init__(self) -> None:
        super().__init__()
        self.note = ""
        """What happened last, for the status line (a step's note, a refused action, a move played)."""
        self._goal: tuple[Session, int] | None = None
        """The step a move along a session's timeline is bringing back (until it is shown)."""
        self._run: Worker[None] | None = None
        """The search thread of a run (``start_run``), until it ends or is paused."""

    # ----------------------------------------------------------------- search threads

    def host(self, job: Job, *, group: str = "search") -> Worker[None]:
        """Run ``job`` in a thread worker of ``group`` (cancel the group to stop it between two steps)."""

        def body() -> None:
            worker = get_current_worker()

            def deliver(batches: Sequence[tuple[Session, Batch]]) -> None:
                shown = threading.Event()
                self.post_message(BatchesReady(batches, shown))
                while not shown.wait(0.05):
                    if worker.is_cancelled:
                        return

            job(deliver, worker.cancelled_event)

        return self.run_worker(body, thread=True, group=group, name=group)

    def stop_searches(self) -> None:
        """Stop every search thread of this screen (each stops before its next step)."""
        self.workers.cancel_group(self, "search")

    def on_batches_ready(self, message: BatchesReady) -> None:
        try:
            panes = list(self.query(SearchPane).results(SearchPane))
            for session, batch in message.batches:
                if batch.rebuilt and self._goal == (session, session.step_shown):
                    self._goal = None
                    self.note = f"showing step {session.step_shown:,} of {session.steps_taken:,}"
                if batch.steps or batch.rebuilt or batch.phase is not None:
                    for pane in panes:
                        if pane.session is session:
                            pane.apply(batch)
            self.batches_shown(message.batches)
        finally:
            self.call_after_refresh(message.shown.set)

    def batches_shown(self, batches: Sequence[tuple[Session, Batch]]) -> None:
        """After the panes showed ``batches``: bring the rest of the screen up to date."""
        self.show_status()

    def start_run(self, job: Job) -> None:
        """Host ``job`` as the screen's run (``r``): ``running`` until it ends or is paused."""
        self._run = self.host(job)

    @property
    def running(self) -> bool:
        """Whether a run (to the budget, not a number of steps) is going on."""
        run = self._run
        return run is not None and run.state in (WorkerState.PENDING, WorkerState.RUNNING)

    def pause(self) -> None:
        """Stop the run, if one is going on (other search threads go on)."""
        if self._run is not None:
            self._run.cancel()
            self._run = None
            self.run_ended()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._run and event.state in (WorkerState.SUCCESS, WorkerState.CANCELLED, WorkerState.ERROR):
            self._run = None
            self.run_ended()
            self.show_status()

    def run_ended(self) -> None:
        """After the run ended or was paused (the screens say what follows)."""

    # ----------------------------------------------------------------- the timeline

    def timeline_pane(self) -> SearchPane | None:
        """The pane whose search the timeline keys move: the one holding the focus, else the first showing one."""
        panes = [pane for pane in self.query(SearchPane).results(SearchPane) if pane.session is not None]
        focused = self.focused
        for pane in panes:
            if focused is not None and (focused is pane or pane in focused.ancestors):
                return pane
        return panes[0] if panes else None

    def timeline_refusal(self, session: Session) -> str:
        """Why the timeline of ``session`` cannot be moved along now (``""``: it can; the screen pauses what
        it must)."""
        return ""

    def action_timeline(self, where: str) -> None:
        """Show the search of ``timeline_pane`` as it was at another step, rebuilt in a search thread: ``where`` is
        ``back``, ``forward``, ``start``, ``newest``, ``previous-change`` or ``next-change`` (of the best move)."""
        pane = self.timeline_pane()
        session = None if pane is None else pane.session
        if session is None:
            self.refuse("no search here to move along")
            return
        refusal = self.timeline_refusal(session)
        if refusal:
            self.refuse(refusal)
            return
        if self.phase_along(session, where):
            return
        goal = self._goal
        shown = goal[1] if goal is not None and goal[0] is session else session.step_shown
        total = session.steps_taken
        target = session.timeline_target(where, shown)
        if target is None:
            self.refuse(
                f"no change of the best move {'before' if where == 'previous-change' else 'after'} step {shown:,}"
                if "change" in where
                else "already at step 0, the start"
                if where in ("back", "start")
                else f"already at the newest step, {total:,}: s steps the search on"
            )
            return
        self.stop_searches()
        self._goal = (session, target)

        def job(deliver: Deliver, stop: threading.Event) -> None:
            batch = session.go_to(target, stop)
            if batch is not None:
                deliver([(session, batch)])

        self.host(job)
        self.say(f"step {target:,} of {total:,}" + (" (rebuilding…)" if target < shown else ""))

    def action_export(self) -> None:
        """Ask for a file to write the search of ``timeline_pane`` to, as it stands at the step shown."""
        if not self.files_allowed():
            return
        pane = self.timeline_pane()
        session = None if pane is None else pane.session
        if session is None or self.timeline_refusal(session):
            self.refuse("no search here to write" if session is None else self.timeline_refusal(session))
            return
        self.query_one(PromptBar).ask(
            "write the search to",
            session.export_name(),
            partial(self.export_search, session),
            placeholder="FILE.json (plyscope replay FILE opens it) or FILE.dot (Graphviz)",
        )

    def export_search(self, session: Session, name: str) -> None:
        """Write ``session``'s search to the file ``name``, in a thread (a big tree takes seconds)."""
        path = export_path(name)
        self.stop_searches()

        def write() -> None:
            try:
                said = session.write(path)
            except UserError as error:
                self.app.call_from_thread(self.refuse, str(error))
                return
            self.app.call_from_thread(self.say, said)

        self.run_worker(write, thread=True, group="export", name="export")
        self.say(f"writing {path}…")

    def files_allowed(self) -> bool:
        """Whether this app may write and read files; if not (a served session), say so."""
        if getattr(self.app, "files", True):
            return True
        self.refuse(NO_FILES)
        return False

    def open_saved(self, session: Session, pane: SearchPane) -> None:
        """If ``session`` replays a saved search (shown in ``pane`` as saved meanwhile): rebuild it and check it, in a
        thread of its own group (the timeline keys do not stop it; the rebuild of another search stops)."""
        self.workers.cancel_group(self, "replay")
        if session.saved is not None:
            pane.reveal_step()
            self.call_after_refresh(self._open_saved, session)  # the saved tree on the screen first

    def _open_saved(self, session: Session) -> None:
        self.say(f"rebuilding the saved search of {session.steps_taken:,} steps to check it…")
        self.host(session.replay_job(partial(self.app.call_from_thread, self.say)), group="replay")

    # ----------------------------------------------------------------- the status line

    def show_status(self) -> None:
        """Rewrite the status line (``status_lines``, then the last note)."""
        first, second = self.status_lines()
        if self.note:
            second.append(f" · {self.note}", "italic")
        self.query_one("#status", Static).update(Text("\n").join([first, second]))

    def status_lines(self) -> tuple[Text, Text]:
        """The status line's two lines (long ones wrap)."""
        return Text(), Text()

    def say(self, note: str) -> None:
        """Show ``note`` on the status line."""
        self.note = note
        self.show_status()

    def refuse(self, reason: str) -> None:
        """Say why an action did nothing (nothing else changes), on the status line and in a notification."""
        self.notify(reason, severity="warning", timeout=4)
        self.say(reason)

    def action_play_column(self, column: int) -> None:
        """A digit key plays on the board whichever pane has the focus (the screens that bind the digits)."""
        self.query_one(Board).action_play_column(column)

    def action_back(self) -> None:
        """Back to the screen below: the searches and the solver's analysis stop."""
        self.stop_searches()
        if not self.is_current:  # (a key typed again before the first was handled: this screen has gone)
            return
        self.query_one(Board).analyse(None)
        self.leave()

    def leave(self) -> None:
        """Back to the screen below, if this one is still on top (an escape typed twice closes one screen)."""
        if self.is_current:
            self.app.pop_screen()

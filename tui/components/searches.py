"""The threads at work on the searches a screen shows: stepping them, a run, agents' turns, and copying their trees.

**Search threads.**  ``host(job)`` runs ``job(deliver, stop)`` in a thread worker.  The job steps sessions
(``Session.take``, ``Session.drive``, ``plyscope.tui.contest``) and hands each frame's batches to ``deliver``, which
posts one ``BatchesReady`` and waits until the screen has painted it (or the worker is cancelled): the tree the screen
reads only changes between two repaints, and the search never competes with a repaint for the GIL.  Each batch goes to
the ``SearchPane`` showing its session, then ``Searches.Shown`` tells the screen.  The components inside it find it
among their ancestors.

**Turns.**  ``start_turn`` searches an agent's turn (``plyscope.tui.match.Turn``) in a pane: live (every frame painted)
or at full speed (``live`` off: the tree is shown when the turn ends), then posts ``Decided`` with the move.

**Diffs.**  ``diff`` copies live trees and lines them up in a thread of its own (one at a time), its progress on the
status line (``plyscope.tui.diffing``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import partial

from rich.console import RenderableType
from textual.message import Message
from textual.worker import Worker, WorkerState, get_current_worker

from plyscope.engine.agents import Decision
from plyscope.engine.collector import cyclic_gc_paused
from plyscope.engine.errors import UserError
from plyscope.tui.components.base import Component
from plyscope.tui.contest import turn_job
from plyscope.tui.diffing import Progress
from plyscope.tui.match import Turn
from plyscope.tui.messages import BatchesReady, Decided, DiffProgress
from plyscope.tui.screens.diff import DiffScreen
from plyscope.tui.session import Batch, Job, Session
from plyscope.tui.widgets.search_pane import SearchPane

Batches = Sequence[tuple[Session, Batch]]
"""A frame's batches, each with the session it stepped."""
Finish = Callable[[], object]
"""What a diff thread's work ends with, on the screen's thread (show the diff, keep the copy)."""
DiffJob = Callable[[threading.Event, Progress], Finish | None]
"""A diff thread's work: stops when the event is set (returning ``None``), tells ``Progress`` how far it got."""


class Searches(Component):
    """The searches shown in the ``SearchPane`` widgets inside, and the threads that work on them."""

    class Shown(Message):
        """The panes showed ``batches``: the rest of the screen may follow."""

        def __init__(self, batches: Batches) -> None:
            super().__init__()
            self.batches = batches

    class RunEnded(Message):
        """The run (``start_run``) ended or was paused."""

    def __init__(self, *, live: bool = True) -> None:
        """``live``: agents' turns painted frame by frame (else only when they end)."""
        super().__init__()
        self.live = live
        """Agents' turns are painted frame by frame (else only when they end); the turn threads read it."""
        self._run: Worker[None] | None = None
        """The search thread of a run (``start_run``), until it ends or is paused."""

    # ----------------------------------------------------------------- search threads

    def host(self, job: Job, *, group: str = "search") -> Worker[None]:
        """Run ``job`` in a thread worker of ``group`` (cancel the group to stop it between two steps)."""

        def body() -> None:
            worker = get_current_worker()

            def deliver(batches: Batches) -> None:
                shown = threading.Event()
                self.post_message(BatchesReady(batches, shown))
                while not shown.wait(0.05):
                    if worker.is_cancelled:
                        return

            job(deliver, worker.cancelled_event)

        return self.run_worker(body, thread=True, group=group, name=group)

    def stop(self, group: str = "search") -> None:
        """Stop every thread of ``group`` (by default the search threads; each stops before its next step)."""
        self.workers.cancel_group(self, group)

    @property
    def searching(self) -> bool:
        """Whether a search thread (steps, a run, or a turn) is at work."""
        return any(
            worker.group == "search" and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for worker in self.workers
            if worker.node is self
        )

    def on_batches_ready(self, message: BatchesReady) -> None:
        message.stop()
        try:
            panes = list(self.query(SearchPane).results(SearchPane))
            for session, batch in message.batches:
                if batch.steps or batch.rebuilt or batch.phase is not None:
                    for pane in panes:
                        if pane.session is session:
                            pane.apply(batch)
            self.post_message(self.Shown(message.batches))
        finally:
            self.call_after_refresh(message.shown.set)

    # ----------------------------------------------------------------- a run

    def start_run(self, job: Job) -> None:
        """Host ``job`` as the run (``r``): ``running`` until it ends or is paused."""
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
            self.post_message(self.RunEnded())

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._run and event.state in (WorkerState.SUCCESS, WorkerState.CANCELLED, WorkerState.ERROR):
            self._run = None
            self.post_message(self.RunEnded())

    # ----------------------------------------------------------------- agents' turns

    def start_turn(self, turn: Turn, pane: SearchPane, title: str) -> None:
        """Search ``turn`` in a thread, shown in ``pane`` (titled ``title``), then post ``Decided``."""
        pane.show(turn.session)
        pane.border_subtitle = title
        decided = partial(self._decided, turn)
        self.host(turn_job(turn.session, turn.agent.limit.seconds, lambda: self.live, decided))
        self.status.show()

    def _decided(self, turn: Turn, decision: Decision) -> None:
        """From the turn's thread: the search of ``turn`` ended with ``decision``."""
        self.post_message(Decided(turn, decision))

    def on_decided(self, message: Decided) -> None:
        """At full speed the turn's tree is shown when it ends; the screen then plays the move (the message goes on
        up to it)."""
        for pane in self.query(SearchPane).results(SearchPane):
            if pane.session is message.turn.session and not self.live:
                pane.show(message.turn.session)

    def toggle_live(self) -> None:
        """Agents' searches painted live, or at full speed (shown when each turn ends)."""
        self.live = not self.live
        self.status.say("live search" if self.live else "full speed: each turn's tree is shown when it ends")

    # ----------------------------------------------------------------- a saved search

    def open_saved(self, session: Session, pane: SearchPane) -> None:
        """If ``session`` replays a saved search (shown in ``pane`` as saved meanwhile): rebuild it and check it, in a
        thread of its own group (the timeline keys do not stop it; the rebuild of another search stops)."""
        self.stop("replay")
        if session.saved is not None:
            pane.reveal_step()
            self.call_after_refresh(self._open_saved, session)  # the saved tree on the screen first

    def _open_saved(self, session: Session) -> None:
        self.status.say(f"rebuilding the saved search of {session.steps_taken:,} steps to check it…")
        self.host(session.replay_job(partial(self.app.call_from_thread, self.status.say)), group="replay")

    # ----------------------------------------------------------------- diffs

    def diff(self, job: DiffJob, started: str) -> None:
        """Say ``started`` and run ``job`` in the ``diff`` thread (the one before it stops), its progress on the status
        line; what it ends with runs on the screen's thread, and a ``UserError`` it raises is refused.  Python's cycle
        collector is held off meanwhile: its walks of the copies would hold the interpreter for a tenth of a second and
        more."""

        def body() -> None:
            worker = get_current_worker()

            def tell(note: str, finish: Finish | None = None) -> None:
                shown = threading.Event()
                self.post_message(DiffProgress(note, shown, finish))
                while not shown.wait(0.05) and not worker.is_cancelled:
                    pass

            try:
                with cyclic_gc_paused():
                    finish = job(worker.cancelled_event, tell)
            except UserError as error:
                finish = partial(self.status.refuse, str(error))
            if finish is not None and not worker.is_cancelled:
                tell("", finish)

        self.status.say(started)
        self.run_worker(body, thread=True, group="diff", exclusive=True)

    def show_diff(self, title: str, shown: RenderableType, note: str) -> None:
        """Say ``note`` and show the diff ``shown`` in a box titled ``title`` over the screen."""
        self.status.say(note)
        self.app.push_screen(DiffScreen(title, shown))

    def on_diff_progress(self, message: DiffProgress) -> None:
        message.stop()
        if message.finish is not None:
            message.finish()
        else:
            self.status.say(message.note)
        message.shown.set()

"""The explorer's diff of one search with itself at two steps of its timeline: ``M`` marks the step shown, then
``D``, at any other step, lines the two trees up node by node (``plyscope.engine.tree_diff``), in a thread
(``DiffingScreen``): the keys are answered meanwhile."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from textual.binding import Binding, BindingType

from plyscope.engine.tree_diff import Snapshot
from plyscope.tui.diffing import Progress, copy_tree, drawn_diff, let_go
from plyscope.tui.screens.diff import DiffingScreen, Finish
from plyscope.tui.session import Session

MARK_NODES = 200_000
"""The most nodes a marked step's copy of the tree may hold: at about 450 bytes a node (a path and its numbers,
measured with tracemalloc on Connect Four trees of MCTS, best-first minimax and alpha-beta), 90 MB at most."""


@dataclass(frozen=True, slots=True)
class MarkedStep:
    """A step of a session's timeline and its tree as it stood then."""

    session: Session
    step: int
    tree: Snapshot


class StepDiffScreen(DiffingScreen):
    """A screen showing one ``session`` whose timeline steps can be marked and diffed (the explorer)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("M", "mark_step", "Mark the step shown, to diff it with another (D)", show=False),
        Binding("D", "diff_marked", "Diff the marked step's tree with the step shown, node by node", show=False),
    ]

    marked: MarkedStep | None = None
    """The step ``M`` marked, with a copy of its tree (``None``: none)."""

    @property
    def session(self) -> Session:
        raise NotImplementedError

    def pause(self) -> None:
        """Stop the run, if one is going on (``SearchScreen``'s)."""
        raise NotImplementedError

    def action_mark_step(self) -> None:
        """Keep a copy of the tree at the step shown (a run pauses; in a thread: a big tree takes a while to copy)."""
        session = self.session
        nodes = session.searcher.stats.nodes
        if nodes > MARK_NODES:
            self.refuse(f"the tree holds {nodes:,} nodes: a marked step keeps a copy of at most {MARK_NODES:,}")
            return
        self.pause()

        def job(stop: threading.Event, progress: Progress) -> Finish | None:
            copied = copy_tree(session, stop, progress)
            return None if copied is None else partial(self._marked, MarkedStep(session, *copied))

        self.in_diff_thread(job, "copying the tree of the step shown…")

    def _marked(self, marked: MarkedStep) -> None:
        self.marked = marked
        self.say(f"step {marked.step:,} marked: step on or move along the timeline, then D diffs the two trees")

    def action_diff_marked(self) -> None:
        """Show how the tree at the step shown differs from the marked step's (a run pauses)."""
        marked, session = self.marked, self.session
        if marked is None or marked.session is not session:
            self.refuse("no step of this search is marked: M marks the step shown; then D diffs it with another")
            return
        self.pause()

        def job(stop: threading.Event, progress: Progress) -> Finish | None:
            copied = copy_tree(session, stop, progress)
            if copied is None:
                return None
            step, now = copied
            shown = drawn_diff(marked.tree, now, session.state, progress)
            let_go(now)
            title = f"A step {marked.step:,} (marked) and B step {step:,}"
            return partial(self.show_diff, title, shown, f"steps {marked.step:,} and {step:,} lined up")

        self.in_diff_thread(job, f"lining up the trees of steps {marked.step:,} and {session.step_shown:,}…")

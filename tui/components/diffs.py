"""Tree diffs, lined up node by node (``plyscope.engine.tree_diff``) in the diff thread of ``Searches``: the keys are
answered meanwhile.

``StepDiff`` (the explorer's): ``M`` marks the step shown of the one search inside, then ``D``, at any other step,
diffs the two trees.  ``PaneDiff`` (compare's): ``D`` diffs the trees of panes A and B, as they stand.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from textual.binding import Binding, BindingType

from plyscope.engine.tree_diff import Snapshot
from plyscope.tui.components.base import Component
from plyscope.tui.components.searches import Finish, Searches
from plyscope.tui.diffing import Progress, copy_tree, drawn_diff, let_go
from plyscope.tui.session import Session
from plyscope.tui.widgets.search_pane import SearchPane

MARK_NODES = 200_000
"""The most nodes a marked step's copy of the tree may hold: at about 450 bytes a node (a path and its numbers,
measured with tracemalloc on Connect Four trees of MCTS, best-first minimax and alpha-beta), 90 MB at most."""


@dataclass(frozen=True, slots=True)
class MarkedStep:
    """A step of a session's timeline and its tree as it stood then."""

    session: Session
    step: int
    tree: Snapshot


class StepDiff(Component):
    """The search of the one pane inside, whose timeline steps can be marked and diffed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("M", "mark_step", "Mark the step shown, to diff it with another (D)", show=False),
        Binding("D", "diff_marked", "Diff the marked step's tree with the step shown, node by node", show=False),
    ]

    marked: MarkedStep | None = None
    """The step ``M`` marked, with a copy of its tree (``None``: none)."""

    def action_mark_step(self) -> None:
        """Keep a copy of the tree at the step shown (a run pauses; in a thread: a big tree takes a while to copy)."""
        session = self.query_one(SearchPane).session
        if session is None:
            self.status.refuse("no search here to mark")
            return
        nodes = session.searcher.stats.nodes
        if nodes > MARK_NODES:
            self.status.refuse(f"the tree holds {nodes:,} nodes: a marked step keeps a copy of at most {MARK_NODES:,}")
            return
        searches = self.query_ancestor(Searches)
        searches.pause()

        def job(stop: threading.Event, progress: Progress) -> Finish | None:
            copied = copy_tree(session, stop, progress)
            return None if copied is None else partial(self._marked, MarkedStep(session, *copied))

        searches.diff(job, "copying the tree of the step shown…")

    def _marked(self, marked: MarkedStep) -> None:
        self.marked = marked
        self.status.say(f"step {marked.step:,} marked: step on or move along the timeline, then D diffs the two trees")

    def action_diff_marked(self) -> None:
        """Show how the tree at the step shown differs from the marked step's (a run pauses)."""
        marked, session = self.marked, self.query_one(SearchPane).session
        if marked is None or session is None or marked.session is not session:
            self.status.refuse("no step of this search is marked: M marks the step shown; then D diffs it with another")
            return
        searches = self.query_ancestor(Searches)
        searches.pause()

        def job(stop: threading.Event, progress: Progress) -> Finish | None:
            copied = copy_tree(session, stop, progress)
            if copied is None:
                return None
            step, now = copied
            shown = drawn_diff(marked.tree, now, session.state, progress)
            let_go(now)
            title = f"A step {marked.step:,} (marked) and B step {step:,}"
            return partial(searches.show_diff, title, shown, f"steps {marked.step:,} and {step:,} lined up")

        searches.diff(job, f"lining up the trees of steps {marked.step:,} and {session.step_shown:,}…")


class PaneDiff(Component):
    """Compared searches, shown in the panes inside, the first two of which ``D`` diffs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("D", "diff", "Diff the trees of panes A and B, node by node", show=False),
    ]

    def __init__(self, sessions: Callable[[], Sequence[Session]], halt: Callable[[], None]) -> None:
        """``sessions``: the compared searches, in the panes' order; ``halt`` stops them before their trees are
        copied."""
        super().__init__()
        self.sessions = sessions
        self.halt = halt

    def action_diff(self) -> None:
        """Show how pane B's tree differs from pane A's, as they stand (the searches stop)."""
        sessions = self.sessions()
        if len(sessions) < 2:
            self.status.refuse("no two searches to diff yet")
            return
        self.halt()
        a, b = sessions[0], sessions[1]
        title = f"A {a.config.label()} and B {b.config.label()}"
        searches = self.query_ancestor(Searches)

        def job(stop: threading.Event, progress: Progress) -> Finish | None:
            copied_a = copy_tree(a, stop, progress)
            copied_b = None if copied_a is None else copy_tree(b, stop, progress)
            if copied_a is None or copied_b is None:
                return None
            shown = drawn_diff(copied_a[1], copied_b[1], a.state, progress)
            let_go(copied_a[1])
            let_go(copied_b[1])
            said = "the trees of A and B lined up (D again: as they stand then)"
            return partial(searches.show_diff, title, shown, said)

        searches.diff(job, "lining up the trees of A and B…")

"""The tree diffs the screens show (the explorer's ``M`` and ``D``, compare's ``D``), made off the screen's thread; no
Textual here.

A live tree is copied a slice at a time (``COPY_SLICE`` nodes) under its session's lock (``copy_tree``): between two
slices the lock is free, and ``progress`` hears how far the copy got (the screens' waits until the status line shows
it, so the screen has its turn there). Keys are answered while a tree of 400,000 nodes is copied. The copies are
then lined up and drawn (``drawn_diff``) holding no lock, and freed (``let_go``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from rich.console import Group

from plyscope.engine.errors import UserError
from plyscope.engine.games import State
from plyscope.engine.tree_diff import Snapshot, TreeCopy, diff_snapshots
from plyscope.tui.diff_view import shown_diff
from plyscope.tui.session import Session

COPY_SLICE = 1024
"""Nodes copied in one hold of a session's lock: about 10 ms of Rivest's tree on 4453 (400,001 nodes in 4.3 s at a
load of 4 on 2 cores)."""
DIFF_SHOWN = 200
"""The most differing nodes a diff box draws (the summary counts them all)."""

Progress = Callable[[str], object]
"""Hears how far a copy or a diff got, in a few words (in the thread that makes it)."""


class TreeMoved(UserError):
    """The search shown changed while its tree was being copied (a step taken, a move along the timeline)."""


def copy_tree(session: Session, stop: threading.Event, progress: Progress) -> tuple[int, Snapshot] | None:
    """The step ``session`` shows and a copy of its tree, made a slice at a time under its lock; ``None`` if ``stop``
    came first; ``TreeMoved`` if the search shown changed between two slices."""
    with session.lock:
        searcher, step, phases = session.searcher, session.step_shown, session.phases_shown
        total = searcher.stats.nodes
        copy = TreeCopy(searcher)
    while True:
        with session.lock:
            if session.searcher is not searcher or (session.step_shown, session.phases_shown) != (step, phases):
                raise TreeMoved(f"the search moved on from step {step:,} while its tree was copied: ask again")
            copy.take(COPY_SLICE)
            if copy.done:
                return step, copy.snapshot()
        if stop.is_set():
            return None
        copied = len(copy.nodes)
        progress(f"copying the tree of step {step:,}: {copied:,} of {max(copied, total):,} nodes…")


def drawn_diff(a: Snapshot, b: Snapshot, root: State, progress: Progress) -> Group:
    """How tree ``b`` differs from tree ``a`` (both searched from ``root``), drawn (``shown_diff``: the first
    ``DIFF_SHOWN`` differing nodes)."""
    progress(f"lining up {len(a.nodes):,} and {len(b.nodes):,} nodes…")
    return shown_diff(diff_snapshots(a, b), root, DIFF_SHOWN)


def let_go(copy: Snapshot) -> None:
    """Free a copy an entry at a time: freed at once, a copy of 400,000 nodes holds the interpreter for 0.15 s (the
    screen's thread waits for it), one entry at a time it lets the screen's thread in between."""
    nodes = copy.nodes
    for _ in range(len(nodes)):
        nodes.popitem()

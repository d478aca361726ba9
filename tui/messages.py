"""Messages the search and analysis threads post to their screen."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from textual.message import Message

from plyscope.engine.agents import Decision
from plyscope.engine.analysis import ScoresSnapshot
from plyscope.tui.match import Turn
from plyscope.tui.session import Batch, Session


class BatchesReady(Message):
    """Steps taken by a search thread, to paint: a batch for each session it stepped (one, or all of a lockstep).

    The thread waits until ``shown`` is set, once the batches are on screen, before it steps on:
    the tree the screen reads changes only between two repaints.
    """

    def __init__(self, batches: Sequence[tuple[Session, Batch]], shown: threading.Event) -> None:
        super().__init__()
        self.batches = tuple(batches)
        self.shown = shown


class Decided(Message):
    """The search of ``turn`` (an agent's move, or a hint) ended with ``decision``."""

    def __init__(self, turn: Turn, decision: Decision) -> None:
        super().__init__()
        self.turn = turn
        self.decision = decision


class Analysed(Message):
    """The analysis thread learnt more about the position's columns."""

    def __init__(self, analysis: ScoresSnapshot) -> None:
        super().__init__()
        self.analysis = analysis


class DiffProgress(Message):
    """How far a diff thread got (``plyscope.tui.diffing``), for the status line, or (``finish``) what its work ended
    with, to run on the screen's thread.  The thread waits until ``shown`` is set, once the screen has taken it:
    between two slices of a copy the screen has its turn."""

    def __init__(self, note: str, shown: threading.Event, finish: Callable[[], object] | None = None) -> None:
        super().__init__()
        self.note = note
        self.shown = shown
        self.finish = finish

"""Messages the search and analysis threads post to their screen."""

from __future__ import annotations

import threading
from collections.abc import Sequence

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

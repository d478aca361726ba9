"""The one way a searcher moves along its own timeline: ``Travel`` (cost, back, forth, the bytes it keeps).

Step numbers count steps taken: step 0 is the fresh searcher, step ``k`` its tree after ``k`` steps.  Every searcher
is deterministic for its seed and ``run`` takes exactly the steps that stepping takes, so any step can be had again
by replaying the search from its start (``plyscope.engine.travel.replay``): that costs ``k`` steps and works for any
searcher. A ``Travel`` is a quicker way, in place: it keeps what going back needs as the search steps (a journal,
checkpoints) and takes the tree back and forth with it, a slice of work per call, so that a caller holding the tree's
lock can let it go between two calls.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from plyscope.engine.search.base import Limit, Node, Searcher

REWIND_SLICE = 16_384
"""The most steps one ``back`` or ``forth`` call takes back or again in place (some 20 to 100 ms of work)."""
REBUILD_CHUNK = 1024
"""Steps a replay, or a ``forth`` that runs the search on, takes between two looks at its stop event."""


S = TypeVar("S", bound=Searcher[Node], covariant=True)
"""The kind of searcher a way moves (a way of an alpha-beta search is a way of a search)."""


class Travel(ABC, Generic[S]):
    """A searcher's way back and forth along its timeline, in place.

    ``cost`` says what going back to a step costs, to compare with a replay from the start; ``back`` and ``forth``
    move a slice at a time; ``nbytes`` is what is kept only for this (the timeline's memory figure counts it).
    Every step reached is exactly the tree, numbers and stats (but ``seconds``) the search had after that step,
    and stepping from there takes the steps it took."""

    __slots__ = ("searcher",)

    def __init__(self, searcher: S) -> None:
        self.searcher = searcher
        """The searcher this way moves."""

    @abstractmethod
    def cost(self, step: int) -> float:
        """About what taking the searcher back to ``step`` costs, in steps of the search replayed on ``run``'s fast
        path (a replay from the start costs ``step``); ``math.inf`` when it cannot."""

    @abstractmethod
    def back(self, step: int) -> int:
        """Take the searcher back toward ``step`` (before the step shown), one slice; the step now shown.  Above
        ``step``: call again; below it (a way that went further back to replay from there): go ``forth``."""

    def forth(self, step: int) -> int:
        """Take the searcher on toward ``step`` (after the step shown), one slice; the step now shown.  Here: the
        search run on for at most ``REBUILD_CHUNK`` steps (it retraces the steps it took); a way that kept the steps
        it took back takes them again in place first."""
        searcher = self.searcher
        searcher.run(Limit(iterations=max(0, min(REBUILD_CHUNK, step - searcher.stats.iterations))))
        return searcher.stats.iterations

    @abstractmethod
    def nbytes(self) -> int:
        """The memory kept only to move along the timeline, in bytes."""


class DepthRecord:
    """The steps that went deeper than any before them, with the depth reached before each (``Stats.max_depth``),
    to give the depth back when steps are taken back."""

    __slots__ = ("deepest", "_steps")

    def __init__(self, deepest: int) -> None:
        self.deepest = deepest
        """The deepest node reached by the steps noted, in plies below the root."""
        self._steps: list[tuple[int, int]] = []
        """``(step index, deepest before it)`` for each step noted that went deeper, in order."""

    def note(self, index: int, depth: int) -> None:
        """Step ``index`` (0 for the first) reached ``depth``."""
        if depth > self.deepest:
            self._steps.append((index, self.deepest))
            self.deepest = depth

    def back(self, steps: int) -> int:
        """The deepest depth the first ``steps`` steps reached; the later steps are forgotten."""
        record = self._steps
        while record and record[-1][0] >= steps:
            self.deepest = record.pop()[1]
        return self.deepest

    def nbytes(self) -> int:
        record = self._steps
        return sys.getsizeof(record) + sum(sys.getsizeof(entry) + sys.getsizeof(entry[0]) for entry in record)

"""The default way back, for any searcher: the search replayed from its start.

Every searcher is deterministic for its seed, and ``run`` visits exactly what ``step`` visits, so the tree after
step ``k`` is rebuilt exactly by a fresh searcher run for ``k`` steps: no copy of any tree is kept, and nothing is
journaled.  It costs ``k`` steps of the search on the fast path.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

from plyscope.engine.search.base import Limit, Node, Searcher
from plyscope.engine.travel.protocol import REBUILD_CHUNK, Travel


class Replay(Travel[Searcher[Node]]):
    """The way of a searcher that keeps nothing to go back: none in place (``rebuild`` replays the search from its
    start instead); forth, it runs on."""

    def cost(self, step: int) -> float:
        return math.inf

    def back(self, step: int) -> int:
        raise NotImplementedError(f"{type(self.searcher).__name__} goes back by a replay from its start (rebuild)")

    def nbytes(self) -> int:
        return 0


def rebuild(
    make: Callable[[], Searcher[Node]],
    steps: int,
    stop: threading.Event | None = None,
    after_chunk: Callable[[Searcher[Node]], None] | None = None,
) -> Searcher[Node] | None:
    """A fresh searcher from ``make`` after ``steps`` steps (``None`` if ``stop`` was set first); ``after_chunk`` is
    given the searcher after each chunk of steps (to say how far it is, or to check it: an exception it raises
    ends the rebuild).

    The fast path (``run``) visits exactly what stepping visits, so the tree is the one the
    original search had after that many steps.
    """
    searcher = make()
    while searcher.stats.iterations < steps and not searcher.finished:
        if stop is not None and stop.is_set():
            return None
        before = searcher.stats.iterations
        searcher.run(Limit(iterations=min(REBUILD_CHUNK, steps - before)))
        if after_chunk is not None:
            after_chunk(searcher)
        if searcher.stats.iterations == before:
            break
    return searcher

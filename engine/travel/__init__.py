"""Going back and forth along a search's timeline, behind one protocol (``protocol.Travel``).

The default, for any searcher, is a replay from the start (``replay``): every searcher is deterministic for its seed.
A searcher of a family below also gets, when the registry makes it, a journal that takes its steps back and again in
place, more cheaply:

* ``expansions``: proof-number search, Rivest's method, best-first minimax (one expansion a step);
* ``checkpoints``: alpha-beta (checkpoints of its frame stack, then a short replay);
* ``monte_carlo``: MCTS and flat Monte Carlo (a few bytes a step, on a random stream that seeks back).

A searcher with a journal has it as its ``journal`` and tells it what each step does; ``travel_of`` gives any
searcher's way.
"""

from __future__ import annotations

from typing import Any

from plyscope.engine.search.alphabeta import checkpoints
from plyscope.engine.search.base import Searcher
from plyscope.engine.search.bestfirst import expansions
from plyscope.engine.search.montecarlo import journal as monte_carlo
from plyscope.engine.travel.protocol import Travel
from plyscope.engine.travel.replay import Replay


def attach(searcher: Searcher[Any]) -> None:
    """Give a fresh ``searcher`` its family's journal, if its family has one (else it goes back by replay)."""
    assert searcher.stats.iterations == 0, "a journal notes every step from the first"
    for family in (expansions, checkpoints, monte_carlo):
        if family.attach(searcher) is not None:
            return


def travel_of(searcher: Searcher[Any]) -> Travel[Any]:
    """``searcher``'s way along its timeline: its journal, or a replay from the start."""
    journal = getattr(searcher, "journal", None)
    return journal if isinstance(journal, Travel) else Replay(searcher)

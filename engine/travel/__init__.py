"""Going back and forth along a search's timeline, behind one protocol (``protocol.Travel``).

The default, for any searcher, is a replay from the start (``replay``): every searcher is deterministic for its seed.
A family may keep a quicker way in its own kit, a journal that takes its steps back and again in place, which its
registry entry declares (``AlgorithmInfo.journal``) and the registry sets as a fresh searcher's ``journal``:
alpha-beta's checkpoints (``plyscope.engine.search.alphabeta.checkpoints``), the expansions of best-first minimax,
Rivest's method and proof-number search (``plyscope.engine.search.bestfirst.expansions``), the Monte Carlo searches'
journal (``plyscope.engine.search.montecarlo.journal``).  ``travel_of`` gives any searcher's way.
"""

from __future__ import annotations

from plyscope.engine.search.base import Node, Searcher
from plyscope.engine.travel.protocol import Travel
from plyscope.engine.travel.replay import Replay


def travel_of(searcher: Searcher[Node]) -> Travel[Searcher[Node]]:
    """``searcher``'s way along its timeline: its journal, or a replay from the start."""
    journal = searcher.journal
    return journal if isinstance(journal, Travel) else Replay(searcher)

"""The family of searches that expand one node a step: best-first minimax (``bestfirst``), Rivest's min/max
approximation (``rivest``, with its generalized means, ``genmean``) and proof-number search (``pns``); the sentences
their phases share (``telling``), their way back along the timeline (``expansions``) and Rivest's compiled twin's
kernel (``rivest_kernel``)."""

from plyscope.engine.search.bestfirst.bestfirst import ALGORITHMS as BEST_FIRST
from plyscope.engine.search.bestfirst.pns import ALGORITHMS as PNS
from plyscope.engine.search.bestfirst.rivest import ALGORITHMS as RIVEST

ALGORITHMS = (*BEST_FIRST, *RIVEST, *PNS)

__all__ = ["ALGORITHMS"]

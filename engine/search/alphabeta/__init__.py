"""Alpha-beta's kit: the searcher (``searcher``: ``AlphaBeta`` and Rivest's ``RivestAlphaBeta``), its way back along
the timeline (``checkpoints``) and its compiled twin's kernel (``kernel``)."""

from plyscope.engine.search.alphabeta.searcher import ALGORITHMS

__all__ = ["ALGORITHMS"]

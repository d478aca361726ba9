"""The Monte Carlo family: Monte Carlo tree search and flat Monte Carlo sampling (``mcts``), their random playouts
(``playouts``), their way back along the timeline (``journal``) and MCTS's compiled twin's kernel (``kernel``)."""

from plyscope.engine.search.montecarlo.mcts import ALGORITHMS

__all__ = ["ALGORITHMS"]

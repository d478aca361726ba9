"""Compiled twins of the stepping searchers (numba), for the searches nobody watches step by step.

* ``board``: Connect Four and its evaluators, compiled;
* ``alphabeta``, ``rivest``, ``mcts``: a kernel each, the twin of ``AlphaBeta``, ``Rivest`` and
  ``MonteCarloTreeSearch`` (one playout per leaf);
* ``searchers``: ``compiled_twin(searcher)``, the twin of a fresh stepping searcher, whose ``run`` returns the same
  ``Result``.

The package sets numba's cache folder (``plyscope.engine.numba_cache``) before any of its kernels is compiled.
"""

from plyscope.engine import numba_cache

numba_cache.configure()

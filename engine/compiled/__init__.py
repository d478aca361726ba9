"""What the compiled twins of the stepping searchers share (numba): ``base``, the twins' base (``CompiledSearch``: a run
in chunks of a kernel's steps, its arrays doubled as they fill, its kernels loaded once per process), and ``board``,
Connect Four and its evaluators compiled.  Each twin, with its kernel, is in its family's kit
(``plyscope.engine.search.alphabeta``, ``bestfirst``, ``montecarlo``), declared on its registry entry
(``AlgorithmInfo.twin``); ``plyscope.engine.search.registry.compiled_twin(searcher)`` makes a fresh searcher's.

The package sets numba's cache folder (``plyscope.engine.numba_cache``) before any of its kernels is compiled.
"""

from plyscope.engine import numba_cache

numba_cache.configure()

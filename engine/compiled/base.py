"""The compiled twins' base: a stepping searcher's twin, compiled by numba, for whatever needs no step-by-step view
(the arena's agents, ``plyscope rivest``, ``plyscope search --compiled``).

A family's kit may hold a twin, which its registry entry declares (``AlgorithmInfo.twin``): a ``CompiledSearch``,
made for a fresh stepping searcher by ``plyscope.engine.search.registry.compiled_twin`` where the twin ``fits`` (a
game other than Connect Four on a board that fits, an evaluator without a compiled twin, MCTS's numpy-batched
playouts: none).  A twin's ``run(limit)`` returns the ``Result`` the stepping searcher's ``run(limit)`` would: the
same move, value, principal variation and counts (moves, steps, nodes, depth) for the same position, parameters and
budget; only its seconds differ (and so what a time bound reaches); MCTS's twin draws the same random sequence, so
the same seed gives the same tree.  Its tree is in preallocated arrays that double as they fill, which a kernel (a
numba function, the family's ``advance``) steps a chunk of steps per call; no ``Node`` objects: nothing there for a
view to show.  Every kernel keeps the counts first in its scalars (``MOVES`` to ``MAX_DEPTH``) and says why it
stopped with the same codes (``STEPS_DONE`` to ``FULL``).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from types import ModuleType
from typing import ClassVar, Final, cast

import numpy as np

from plyscope.engine.compiled.board import compiled_fits, evaluator_code, geometry
from plyscope.engine.games.connect4 import Connect4State
from plyscope.engine.search.base import Limit, Node, Result, Searcher, Stats

CHUNK_STEPS: Final = 4096
"""Steps a kernel takes between two looks at the clock (a few milliseconds at most)."""
FIRST_TABLE: Final = 1 << 12
"""Slots of a fresh transposition table (it doubles whenever it is half full)."""
FIRST_TREE: Final = 1 << 12
"""Rows of a fresh tree (it doubles whenever it is full, up to the node cap and a row)."""

STEPS_DONE, ENDED, BLOCKED, NODE_CAP, FULL = range(5)
"""Why a kernel's ``advance`` stopped: the steps asked are taken, the search is over, the next step would pass the
moves cap, the node cap is reached, its arrays are full (they must grow before the next step)."""
MOVES, ITERATIONS, NODES, MAX_DEPTH = range(4)
"""The first scalars of every kernel: the stats it counts."""

_loaded: set[type[CompiledSearch]] = set()
"""The twins whose kernels' machine code is loaded in this process."""


class CompiledSearch(ABC):
    """A compiled twin: ``run`` as the stepping ``searcher``'s, ``stats`` as its stats would be."""

    kernels: ClassVar[tuple[ModuleType, ...]]
    """The modules of numba code the twin runs (numba's cache keys their machine code by their sources)."""
    s: np.ndarray
    """The kernel's scalars: the counts first (``MOVES`` to ``MAX_DEPTH``), then its own."""

    def __init__(self, searcher: Searcher[Node]) -> None:
        self.searcher = searcher
        """The stepping twin, fresh: its parameters, its evaluator and its ``scored`` are the twin's too."""
        self.stats = Stats()
        self.state = cast(Connect4State, searcher.root_state)  # (made only where it ``fits``: Connect Four's kit)
        """The root position."""
        self.geometry = geometry(self.state.game)
        """The board's constants, for the kernels (``board.geometry``)."""
        type(self).load()

    def _evaluation(self) -> np.ndarray:
        """The searcher's evaluator for the kernels (``board.evaluator_code``: it has one, where the twin ``fits``)."""
        evaluator = self.searcher.evaluator
        evaluation = None if evaluator is None else evaluator_code(evaluator)
        assert evaluation is not None
        return evaluation

    @classmethod
    def fits(cls, searcher: Searcher[Node]) -> bool:
        """Whether the fresh ``searcher`` (of this twin's registry entry) has this twin here, found without loading the
        kernels: its game, its evaluator and its parameters.  Here: on a Connect Four board that fits
        (``compiled_fits``), with an evaluator that has a compiled twin (``evaluator_code``)."""
        evaluator = searcher.evaluator
        game = searcher.root_state.game
        return compiled_fits(game) and evaluator is not None and evaluator_code(evaluator) is not None

    @classmethod
    def load(cls) -> None:
        """Load the kernels' machine code (from numba's cache, or compiling it) before any search runs: a search on a
        throwaway position, once per process."""
        if cls in _loaded:
            return
        _loaded.add(cls)
        cls._warm_up()

    @classmethod
    @abstractmethod
    def _warm_up(cls) -> None:
        """A search of the twin on a throwaway position, its arrays grown: every kernel's machine code loaded."""

    @classmethod
    def sources(cls) -> tuple[str, ...]:
        """The source files of the kernels ``load`` loads (numba's cache entries are keyed by their content)."""
        return tuple(str(module.__file__) for module in cls.kernels)

    @property
    @abstractmethod
    def finished(self) -> bool:
        """True when the search has nothing left to do."""

    @abstractmethod
    def _kernel(self, steps: int, moves_cap: int, node_cap: int) -> int:
        """The kernel's ``advance``: up to ``steps`` steps within the caps (-1: none); why it stopped."""

    @abstractmethod
    def _grow(self) -> None:
        """Double the arrays that are full, every entry kept."""

    @abstractmethod
    def result(self) -> Result:
        """Where the search is, as ``Searcher.result``."""

    def _advance(self, steps: int, moves_cap: int, node_cap: int) -> bool:
        """Up to ``steps`` steps within the caps (-1: none), the arrays grown whenever they fill; False when no
        further step can be taken now."""
        target = self.stats.iterations + steps
        while True:
            why = self._kernel(target - self.stats.iterations, moves_cap, node_cap)
            self._sync()
            if why != FULL:
                return why == STEPS_DONE
            self._grow()

    def _sync(self) -> None:
        """The stats, as the kernel's scalars count them."""
        s = self.s
        stats = self.stats
        stats.moves = int(s[MOVES])
        stats.iterations = int(s[ITERATIONS])
        stats.nodes = int(s[NODES])
        stats.max_depth = int(s[MAX_DEPTH])

    def run(self, limit: Limit) -> Result:
        """``Searcher.run(limit)``: the same steps, a chunk of them per call of the kernel."""
        started = time.perf_counter()
        deadline = None if limit.seconds is None else started + limit.seconds
        moves_cap = -1 if limit.moves is None else self.stats.moves + limit.moves
        node_cap = -1 if limit.nodes is None else limit.nodes
        steps_left = limit.iterations
        while not self.finished:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            chunk = CHUNK_STEPS if steps_left is None else min(CHUNK_STEPS, steps_left)
            if chunk <= 0:
                break
            before = self.stats.iterations
            going = self._advance(chunk, moves_cap, node_cap)
            if steps_left is not None:
                steps_left -= self.stats.iterations - before
            if not going:
                break
        self.stats.seconds += time.perf_counter() - started
        return self.result()


def doubled(array: np.ndarray, fill: int) -> np.ndarray:
    """``array`` with twice its rows: its own first, then rows of ``fill``."""
    grown = np.full((2 * array.shape[0], *array.shape[1:]), fill, dtype=array.dtype)
    grown[: array.shape[0]] = array
    return grown

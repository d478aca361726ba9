"""The compiled twins of the stepping searchers, for whatever needs no step-by-step view (arena, ``rivest``, agents).

``compiled_twin(searcher)`` gives a fresh stepping searcher's twin (alpha-beta, ``ab-rivest``, Rivest's method, MCTS
with ``k=1``), or ``None`` where it has none (a game other than Connect Four on a board that fits, an evaluator
without a compiled twin, another searcher, MCTS's numpy-batched playouts).  A twin's
``run(limit)`` returns the ``Result`` the stepping searcher's ``run(limit)`` would: the same move, value, principal
variation and counts (moves, steps, nodes, depth) for the same position, parameters and budget; only its seconds
differ (and so what a time bound reaches); MCTS's twin draws the same random sequence, so the same seed gives the
same tree.  Its tree is in preallocated arrays (numba, ``plyscope.engine.compiled``'s
kernels), with no ``Node`` objects: nothing there for a view to show.
"""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Final, cast

import numpy as np

from plyscope.engine.compiled import board
from plyscope.engine.compiled.board import compiled_fits, evaluator_code, geometry
from plyscope.engine.games.base import Move
from plyscope.engine.games.connect4 import Connect4State
from plyscope.engine.search.alphabeta import kernel as ab
from plyscope.engine.search.alphabeta.searcher import AlphaBeta
from plyscope.engine.search.base import Limit, Node, Result, Searcher, Stats
from plyscope.engine.search.bestfirst import rivest_kernel as mm
from plyscope.engine.search.bestfirst.rivest import MODES, Rivest
from plyscope.engine.search.montecarlo import kernel as uct
from plyscope.engine.search.montecarlo.mcts import LOSS, MonteCarloTreeSearch, proven_result, secure_value
from plyscope.engine.search.stream import RandomStream

CHUNK_STEPS: Final = 4096
"""Steps a kernel takes between two looks at the clock (a few milliseconds at most)."""
FIRST_TABLE: Final = 1 << 12
"""Slots of a fresh transposition table (it doubles whenever it is half full)."""
FIRST_TREE: Final = 1 << 12
"""Rows of a fresh min/max approximation's tree (it doubles whenever it is full, up to the node cap and a row)."""


class CompiledSearch(ABC):
    """A compiled twin: ``run`` as the stepping ``searcher``'s, ``stats`` as its stats would be."""

    def __init__(self, searcher: Searcher[Node]) -> None:
        self.searcher = searcher
        """The stepping twin, fresh: its parameters, its evaluator and its ``scored`` are the twin's too."""
        self.stats = Stats()
        load()

    @property
    @abstractmethod
    def finished(self) -> bool:
        """True when the search has nothing left to do."""

    @abstractmethod
    def _advance(self, steps: int, moves_cap: int, node_cap: int) -> bool:
        """Up to ``steps`` steps within the caps (-1: none); False when no further step can be taken now."""

    @abstractmethod
    def result(self) -> Result:
        """Where the search is, as ``Searcher.result``."""

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


class CompiledAlphaBeta(CompiledSearch):
    """``AlphaBeta``'s twin (``alphabeta`` and ``ab-rivest``): see ``plyscope.engine.search.alphabeta.kernel``."""

    def __init__(self, searcher: AlphaBeta, evaluation: np.ndarray) -> None:
        super().__init__(searcher)
        self.python = searcher
        state = cast(Connect4State, searcher.root_state)  # (made only where ``compiled_fits``: Connect Four's kit)
        self.state = state
        self.geometry = geometry(state.game)
        self.evaluation = evaluation
        frames = state.game.cells - state.ply + 2
        width = state.game.width
        s = np.zeros(ab.SCALARS, dtype=np.int64)
        s[ab.ITERATION] = searcher.start_depth
        s[ab.DEPTH_CAP] = searcher.depth
        s[ab.SORT_FROM] = searcher.sort_from
        s[ab.HISTORY] = searcher.ordering == "history"
        s[ab.TT] = searcher.table is not None
        s[ab.ACCOUNTING] = searcher.accounting
        s[ab.ROOT_CURRENT] = state.current
        s[ab.ROOT_MASK] = state.mask
        s[ab.NODES] = 1
        self.s = s
        self.fi = np.zeros((frames, ab.FRAME_INTS), dtype=np.int64)
        self.ff = np.zeros((frames, ab.FRAME_FLOATS), dtype=np.float64)
        self.fmoves = np.zeros((frames, width), dtype=np.int64)
        self.fevals = np.zeros((frames, width), dtype=np.float64)
        self.pv = np.zeros((frames, frames), dtype=np.int64)
        self.cpv = np.zeros(frames, dtype=np.int64)
        self.cvalue = np.zeros(1, dtype=np.float64)
        self.history = np.zeros((2, width), dtype=np.int64)
        slots = FIRST_TABLE if searcher.table is not None else 1
        self.keys = np.zeros(slots, dtype=np.int64)
        self.values = np.zeros(slots, dtype=np.float64)
        self.meta = np.zeros(slots, dtype=np.int64)
        self._sync()

    @property
    def finished(self) -> bool:
        return bool(self.s[ab.FINISHED])

    def _advance(self, steps: int, moves_cap: int, node_cap: int) -> bool:
        target = self.stats.iterations + steps
        while True:
            why = ab.advance(
                target - int(self.s[ab.ITERATIONS]),
                moves_cap,
                node_cap,
                self.s,
                self.fi,
                self.ff,
                self.fmoves,
                self.fevals,
                self.pv,
                self.cpv,
                self.cvalue,
                self.keys,
                self.values,
                self.meta,
                self.history,
                self.geometry,
                self.evaluation,
            )
            self._sync()
            if why != ab.TABLE_FULL:
                return bool(why == ab.STEPS_DONE)
            self._grow_table()

    def _grow_table(self) -> None:
        """Double the transposition table, every entry kept."""
        slots = 2 * self.keys.shape[0]
        keys = np.zeros(slots, dtype=np.int64)
        values = np.zeros(slots, dtype=np.float64)
        meta = np.zeros(slots, dtype=np.int64)
        ab.regrow(self.keys, self.values, self.meta, keys, values, meta)
        self.keys, self.values, self.meta = keys, values, meta

    def _sync(self) -> None:
        s = self.s
        stats = self.stats
        stats.moves = int(s[ab.MOVES])
        stats.iterations = int(s[ab.ITERATIONS])
        stats.nodes = int(s[ab.NODES])
        stats.max_depth = int(s[ab.MAX_DEPTH])

    def _line(self) -> list[Move]:
        """The principal variation: the last complete iteration's, else the current root's best so far."""
        if self.s[ab.HAS_COMPLETED]:
            return [int(m) for m in self.cpv[: self.s[ab.CPV_LEN]]]
        if self.s[ab.SP] and self.fi[0, ab.HAS_VALUE]:
            return [int(m) for m in self.pv[0, : self.fi[0, ab.PV_LEN]]]
        return []

    def result(self) -> Result:
        line = self._line()
        if self.s[ab.HAS_COMPLETED]:
            value = float(self.cvalue[0])
        elif self.s[ab.SP] and self.fi[0, ab.HAS_VALUE]:
            value = float(self.ff[0, ab.VALUE])
        else:
            value = self.python.evaluator(self.state)
        return Result(
            best_move=line[0] if line else None,
            value=self.python.scored(value),
            principal_variation=tuple(line),
            stats=replace(self.stats),
            finished=self.finished,
        )


class CompiledRivest(CompiledSearch):
    """``Rivest``'s twin: see ``plyscope.engine.search.bestfirst.rivest_kernel``."""

    def __init__(self, searcher: Rivest, evaluation: np.ndarray) -> None:
        super().__init__(searcher)
        self.python = searcher
        state = cast(Connect4State, searcher.root_state)  # (made only where ``compiled_fits``: Connect Four's kit)
        self.state = state
        self.geometry = geometry(state.game)
        self.evaluation = evaluation
        s = np.zeros(mm.SCALARS, dtype=np.int64)
        s[mm.ACCOUNTING] = searcher.accounting
        s[mm.MODE] = MODES.index(searcher.mode)
        s[mm.ROOT_CURRENT] = state.current
        s[mm.ROOT_MASK] = state.mask
        s[mm.NODES] = 1
        self.s = s
        self.x = np.array([searcher.p, searcher.weight, searcher.shift], dtype=np.float64)
        self.v = np.zeros(FIRST_TREE, dtype=np.float64)
        self.pi = np.zeros(FIRST_TREE, dtype=np.float64)
        self.a = np.full(FIRST_TREE, -1, dtype=np.int32)
        self.parent = np.full(FIRST_TREE, -1, dtype=np.int32)
        self.first = np.full(FIRST_TREE, -1, dtype=np.int32)
        self.count = np.zeros(FIRST_TREE, dtype=np.int8)
        self.move = np.zeros(FIRST_TREE, dtype=np.int8)
        root = searcher.root
        self.v[0], self.pi[0] = root.v, root.pi
        s[mm.FINISHED] = searcher.finished

    @property
    def finished(self) -> bool:
        return bool(self.s[mm.FINISHED])

    def _advance(self, steps: int, moves_cap: int, node_cap: int) -> bool:
        target = self.stats.iterations + steps
        while True:
            why = mm.advance(
                target - int(self.s[mm.ITERATIONS]),
                moves_cap,
                node_cap,
                self.s,
                self.x,
                self.v,
                self.pi,
                self.a,
                self.parent,
                self.first,
                self.count,
                self.move,
                self.geometry,
                self.evaluation,
            )
            s = self.s
            stats = self.stats
            stats.moves = int(s[mm.MOVES])
            stats.iterations = int(s[mm.ITERATIONS])
            stats.nodes = int(s[mm.NODES])
            stats.max_depth = int(s[mm.MAX_DEPTH])
            if why != mm.TREE_FULL:
                return bool(why == mm.STEPS_DONE)
            self._grow()

    def _grow(self) -> None:
        """Double the tree's rows."""
        rows = 2 * self.v.shape[0]
        for name in ("v", "pi", "a", "parent", "first", "count", "move"):
            old = getattr(self, name)
            new = np.full(rows, -1 if name in ("a", "parent", "first") else 0, dtype=old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def _children(self, node: int) -> range:
        start = int(self.first[node])
        return range(start, start + int(self.count[node]))

    def _best_child(self, node: int, player: int) -> int | None:
        """``Rivest._best_child``: the first child with the best value for ``player``, to move at ``node``."""
        children = self._children(node)
        if not children:
            return None
        v = self.v
        return max(children, key=lambda c: v[c]) if player > 0 else min(children, key=lambda c: v[c])

    def _best_root_child(self) -> int | None:
        """``Rivest._best_root_child``: by ``final``, ties broken by the children's static values."""
        children = self._children(0)
        if not children:
            return None
        python = self.python
        sign = self.state.player
        if python.final == "value" or python.mode == "mean":
            keys = [sign * math.log(self.v[c]) for c in children]
        else:
            means = mm.subtree_log_means(
                int(self.s[mm.NODES]),
                sign,
                python.p,
                self.v,
                self.parent,
                self.first,
                self.count,
                self.state.game.width,
            )
            keys = [sign * float(means[c]) for c in children]
        best = max(keys)
        tied = [c for c, key in zip(children, keys, strict=True) if key == best]
        if len(tied) == 1:
            return tied[0]
        evaluator = python.evaluator
        return max(tied, key=lambda c: sign * evaluator(self.state.play(int(self.move[c]))))

    def result(self) -> Result:
        line: list[Move] = []
        node = self._best_root_child()
        player = -self.state.player
        while node is not None:
            line.append(int(self.move[node]))
            node = self._best_child(node, player)
            player = -player
        return Result(
            best_move=line[0] if line else None,
            value=self.python.scored(float(self.v[0]) - self.python.shift),
            principal_variation=tuple(line),
            stats=replace(self.stats),
            finished=self.finished,
        )


class CompiledMcts(CompiledSearch):
    """``MonteCarloTreeSearch``'s twin with one playout per leaf: see ``plyscope.engine.search.montecarlo.kernel``."""

    def __init__(self, searcher: MonteCarloTreeSearch) -> None:
        super().__init__(searcher)
        self.python = searcher
        state = cast(Connect4State, searcher.root_state)  # (made only where ``compiled_fits``: Connect Four's kit)
        self.state = state
        self.geometry = geometry(state.game)
        s = np.zeros(uct.SCALARS, dtype=np.int64)
        s[uct.PARTIAL] = searcher.partial
        s[uct.SOLVER] = searcher.solver
        s[uct.ROOT_CURRENT] = state.current
        s[uct.ROOT_MASK] = state.mask
        s[uct.ROOT_PLY] = state.ply
        s[uct.NODES] = 1
        self.s = s
        self.random = RandomStream(searcher.stream.seed).numpy()
        """The Python searcher's random sequence from its start (the same seed, drawn in the same order)."""
        self.visits = np.zeros(FIRST_TREE, dtype=np.int64)
        self.total = np.zeros(FIRST_TREE, dtype=np.float64)
        self.t = np.full((FIRST_TREE, uct.TREE_INTS), -1, dtype=np.int64)
        self.untried = np.zeros((FIRST_TREE, state.game.width), dtype=np.int8)
        self.has = np.zeros(FIRST_TREE, dtype=np.int8)
        self.lo = np.zeros(FIRST_TREE, dtype=np.int32)
        self.hi = np.zeros(FIRST_TREE, dtype=np.int32)
        self.path = np.zeros(state.game.cells + 2, dtype=np.int64)

    @property
    def finished(self) -> bool:
        return bool(self.s[uct.FINISHED])

    def _advance(self, steps: int, moves_cap: int, node_cap: int) -> bool:
        target = self.stats.iterations + steps
        while True:
            why = uct.advance(
                target - int(self.s[uct.ITERATIONS]),
                moves_cap,
                node_cap,
                self.python.c,
                self.s,
                self.visits,
                self.total,
                self.t,
                self.untried,
                self.has,
                self.lo,
                self.hi,
                self.path,
                self.random,
                self.geometry,
            )
            s = self.s
            stats = self.stats
            stats.moves = int(s[uct.MOVES])
            stats.iterations = int(s[uct.ITERATIONS])
            stats.nodes = int(s[uct.NODES])
            stats.max_depth = int(s[uct.MAX_DEPTH])
            stats.playouts = int(s[uct.PLAYOUTS])
            stats.playout_moves = int(s[uct.PLAYOUT_MOVES])
            if why != uct.TREE_FULL:
                return bool(why == uct.STEPS_DONE)
            self._grow()

    def _grow(self) -> None:
        """Double the tree's rows."""
        rows = 2 * self.visits.shape[0]
        for name in ("visits", "total", "t", "untried", "has", "lo", "hi"):
            old = getattr(self, name)
            new = np.full((rows, *old.shape[1:]), -1 if name == "t" else 0, dtype=old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def _children(self, node: int) -> list[int]:
        children = []
        child = int(self.t[node, uct.FIRST])
        while child >= 0:
            children.append(child)
            child = int(self.t[child, uct.NEXT])
        return children

    def _bounds(self, node: int, ply: int) -> tuple[int, int]:
        lo, hi = uct.bounds_of(node, ply, self.has, self.lo, self.hi)
        return int(lo), int(hi)

    def _proven(self, node: int) -> int | None:
        """``MctsNode.proven``: what ``node``'s bounds prove for its mover (a win, a draw, a loss), or ``None``."""
        return proven_result((int(self.lo[node]), int(self.hi[node])) if self.has[node] else None)

    def _final_child(self, node: int, ply: int) -> int | None:
        """``MonteCarloTreeSearch._final_child`` at ``node`` (at ``ply``)."""
        children = self._children(node)
        if not children:
            return None
        visits, total = self.visits, self.total

        def robust(child: int) -> tuple[int, float]:
            return int(visits[child]), float(total[child])

        def secure(child: int) -> float:
            return secure_value(float(total[child]) / int(visits[child]), int(visits[child]))

        key = secure if self.python.solver else robust
        spans = [self._bounds(child, ply + 1) for child in children]
        lo, hi = self._bounds(node, ply)
        surest = max(span[0] for span in spans)
        if surest > 0 or lo > 0 or lo == hi:
            return max([c for c, span in zip(children, spans, strict=True) if span[0] == surest], key=key)
        if self.python.solver:
            return max([c for c in children if self._proven(c) != LOSS] or children, key=key)
        return max(children, key=key)

    def result(self) -> Result:
        line: list[Move] = []
        ply = self.state.ply
        node = self._final_child(0, ply)
        while node is not None:
            line.append(int(self.t[node, uct.MOVE]))
            ply += 1
            node = self._final_child(node, ply)
        mover = -self.state.player
        proven = self._proven(0)
        if proven is not None:
            value = self.python.scored(float(proven), mover)
        else:
            visits = int(self.visits[0])
            value = self.python.scored(2 * float(self.total[0]) / visits - 1 if visits else 0.0, mover)
        return Result(
            best_move=line[0] if line else None,
            value=value,
            principal_variation=tuple(line),
            stats=replace(self.stats),
            finished=self.finished,
        )


def compiled_twin(searcher: Searcher[Node]) -> CompiledSearch | None:
    """The compiled twin of the fresh ``searcher`` (not stepped yet), or ``None`` if it has none."""
    make = _twin_maker(searcher)
    return None if make is None else make()


def twinned(searcher: Searcher[Node]) -> bool:
    """Whether the fresh ``searcher`` has a compiled twin (``compiled_twin``), found without loading the kernels."""
    return _twin_maker(searcher) is not None


def _twin_maker(searcher: Searcher[Node]) -> Callable[[], CompiledSearch] | None:
    """What makes ``searcher``'s compiled twin (and loads the kernels), or ``None`` if it has none."""
    if searcher.stats.iterations or not compiled_fits(searcher.root_state.game):
        return None
    if type(searcher) is MonteCarloTreeSearch:
        return partial(CompiledMcts, searcher) if searcher.k == 1 else None
    evaluation = None if searcher.evaluator is None else evaluator_code(searcher.evaluator)
    if evaluation is None:
        return None
    if isinstance(searcher, AlphaBeta):
        return partial(CompiledAlphaBeta, searcher, evaluation)
    if isinstance(searcher, Rivest):
        return partial(CompiledRivest, searcher, evaluation)
    return None


_loaded = False
"""Whether the kernels' machine code is loaded in this process."""
KERNELS = tuple(str(module.__file__) for module in (uct, ab, mm, board))
"""The source files of the kernels ``load`` loads (numba's cache entries are keyed by their content)."""


def load() -> None:
    """Load the kernels' machine code (from numba's cache, or compiling it) before any search runs: a search on a
    throwaway position, once per process."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    _run_each_kernel()


def _run_each_kernel() -> None:
    """A search of each twin on a throwaway position, its arrays grown: every kernel's machine code loaded."""
    from plyscope.engine.games.connect4 import Connect4
    from plyscope.engine.games.evaluators import RivestEvaluator

    state = Connect4().start()
    evaluator = RivestEvaluator(state.game)
    code = evaluator_code(evaluator)
    assert code is not None
    table = CompiledAlphaBeta(AlphaBeta(state, tt=True, evaluator=evaluator), code)
    table.run(Limit(iterations=2))
    table._grow_table()
    twin = CompiledRivest(Rivest(state, final="mean", evaluator=evaluator), code)
    twin.run(Limit(iterations=2))
    twin.result()
    tree = CompiledMcts(MonteCarloTreeSearch(state, solver=True, partial=True))
    tree.run(Limit(iterations=2))
    tree._grow()

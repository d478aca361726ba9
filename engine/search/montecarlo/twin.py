"""MCTS's compiled twin, with one playout per leaf (``k=1``): ``MonteCarloTreeSearch``'s search in arrays, stepped by
the kernel (``plyscope.engine.search.montecarlo.kernel``), on Connect Four boards that fit (``compiled_fits``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from plyscope.engine.compiled import board
from plyscope.engine.compiled.base import FIRST_TREE, CompiledSearch, doubled
from plyscope.engine.compiled.board import compiled_fits
from plyscope.engine.games.base import Move
from plyscope.engine.games.connect4 import Connect4
from plyscope.engine.search.base import Limit, Node, Result, Searcher
from plyscope.engine.search.montecarlo import kernel as uct
from plyscope.engine.search.montecarlo.mcts import LOSS, MonteCarloTreeSearch, proven_result, secure_value
from plyscope.engine.search.stream import RandomStream

GROWN = {"visits": 0, "total": 0, "t": -1, "untried": 0, "has": 0, "lo": 0, "hi": 0}
"""The tree's arrays, each with the value of its rows not used yet."""


class CompiledMcts(CompiledSearch):
    """``MonteCarloTreeSearch``'s twin with one playout per leaf: see ``plyscope.engine.search.montecarlo.kernel``."""

    kernels = (uct, board)

    @classmethod
    def fits(cls, searcher: Searcher[Node]) -> bool:
        """On a board that fits, with one playout per leaf (``k=1``: MCTS's numpy batches have no twin)."""
        return (
            compiled_fits(searcher.root_state.game) and isinstance(searcher, MonteCarloTreeSearch) and searcher.k == 1
        )

    @classmethod
    def _warm_up(cls) -> None:
        tree = cls(MonteCarloTreeSearch(Connect4().start(), solver=True, partial=True))
        tree.run(Limit(iterations=2))
        tree._grow()

    def __init__(self, searcher: Searcher[Node]) -> None:
        super().__init__(searcher)
        assert isinstance(searcher, MonteCarloTreeSearch)
        self.python = searcher
        state = self.state
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

    def _kernel(self, steps: int, moves_cap: int, node_cap: int) -> int:
        return int(
            uct.advance(
                steps,
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
        )

    def _sync(self) -> None:
        """The stats, the playouts' too."""
        super()._sync()
        stats = self.stats
        stats.playouts = int(self.s[uct.PLAYOUTS])
        stats.playout_moves = int(self.s[uct.PLAYOUT_MOVES])

    def _grow(self) -> None:
        """Double the tree's rows."""
        for name, fill in GROWN.items():
            setattr(self, name, doubled(getattr(self, name), fill))

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

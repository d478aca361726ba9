"""Rivest's compiled twin: ``Rivest``'s min/max approximation in arrays, stepped by the kernel
(``plyscope.engine.search.bestfirst.rivest_kernel``), on Connect Four boards that fit (``compiled_fits``)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from plyscope.engine.compiled import board
from plyscope.engine.compiled.base import FIRST_TREE, CompiledSearch, doubled
from plyscope.engine.games import evaluators
from plyscope.engine.games.base import Move
from plyscope.engine.games.connect4 import Connect4
from plyscope.engine.games.evaluators import RivestEvaluator
from plyscope.engine.search.base import Limit, Node, Result, Searcher
from plyscope.engine.search.bestfirst import rivest_kernel as mm
from plyscope.engine.search.bestfirst.rivest import MODES, Rivest

GROWN = {"v": 0, "pi": 0, "a": -1, "parent": -1, "first": -1, "count": 0, "move": 0}
"""The tree's arrays, each with the value of its rows not used yet."""


class CompiledRivest(CompiledSearch):
    """``Rivest``'s twin: see ``plyscope.engine.search.bestfirst.rivest_kernel``."""

    kernels = (mm, board, evaluators)

    @classmethod
    def _warm_up(cls) -> None:
        state = Connect4().start()
        twin = cls(Rivest(state, final="mean", evaluator=RivestEvaluator(state.game)))
        twin.run(Limit(iterations=2))
        twin.result()

    def __init__(self, searcher: Searcher[Node]) -> None:
        super().__init__(searcher)
        assert isinstance(searcher, Rivest)
        self.python = searcher
        state = self.state
        self.evaluation = self._evaluation()
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

    def _kernel(self, steps: int, moves_cap: int, node_cap: int) -> int:
        return int(
            mm.advance(
                steps,
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
        )

    def _grow(self) -> None:
        """Double the tree's rows."""
        for name, fill in GROWN.items():
            setattr(self, name, doubled(getattr(self, name), fill))

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

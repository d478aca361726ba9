"""Alpha-beta's compiled twin (``alphabeta`` and ``ab-rivest``): ``AlphaBeta``'s search in arrays, stepped by the
kernel (``plyscope.engine.search.alphabeta.kernel``), on Connect Four boards that fit (``compiled_fits``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from plyscope.engine.compiled import board
from plyscope.engine.compiled.base import FIRST_TABLE, CompiledSearch
from plyscope.engine.games import evaluators
from plyscope.engine.games.base import Move
from plyscope.engine.games.connect4 import Connect4
from plyscope.engine.games.evaluators import RivestEvaluator
from plyscope.engine.search.alphabeta import kernel as ab
from plyscope.engine.search.alphabeta.searcher import AlphaBeta
from plyscope.engine.search.base import Limit, Node, Result, Searcher


class CompiledAlphaBeta(CompiledSearch):
    """``AlphaBeta``'s twin: see ``plyscope.engine.search.alphabeta.kernel``."""

    kernels = (ab, board, evaluators)

    @classmethod
    def _warm_up(cls) -> None:
        state = Connect4().start()
        table = cls(AlphaBeta(state, tt=True, evaluator=RivestEvaluator(state.game)))
        table.run(Limit(iterations=2))
        table._grow()

    def __init__(self, searcher: Searcher[Node]) -> None:
        super().__init__(searcher)
        assert isinstance(searcher, AlphaBeta)
        self.python = searcher
        state = self.state
        self.evaluation = self._evaluation()
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

    def _kernel(self, steps: int, moves_cap: int, node_cap: int) -> int:
        return int(
            ab.advance(
                steps,
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
        )

    def _grow(self) -> None:
        """Double the transposition table, every entry kept (rehashed into the larger one)."""
        slots = 2 * self.keys.shape[0]
        keys = np.zeros(slots, dtype=np.int64)
        values = np.zeros(slots, dtype=np.float64)
        meta = np.zeros(slots, dtype=np.int64)
        ab.regrow(self.keys, self.values, self.meta, keys, values, meta)
        self.keys, self.values, self.meta = keys, values, meta

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

"""Alpha-beta's kit: the searchers (``searcher``: ``AlphaBeta``, and Rivest's opponent ``RivestAlphaBeta``), their way
back along the timeline (``checkpoints``), their compiled twin (``twin``, stepped by ``kernel``) and their registry
entries (``ALGORITHMS``, here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plyscope.engine.search.alphabeta.checkpoints import Checkpoints
from plyscope.engine.search.alphabeta.searcher import ORDERINGS, AlphaBeta, RivestAlphaBeta
from plyscope.engine.search.entry import AlgorithmInfo, Param
from plyscope.engine.search.minimax import EVAL_PARAM, EVAL_PARAMS, TRANSFORM_PARAM, WEIGHTS_PARAM

if TYPE_CHECKING:
    from plyscope.engine.compiled.base import CompiledSearch


def _twin() -> type[CompiledSearch]:
    """``CompiledAlphaBeta``, imported when asked (numba loads only for a compiled search)."""
    from plyscope.engine.search.alphabeta.twin import CompiledAlphaBeta

    return CompiledAlphaBeta


DEPTH_PARAM = Param("depth", int, 0, "deepest iteration in plies (0: no cap, deepen until the budget)", lo=0, hi=128)

ALGORITHMS = (
    AlgorithmInfo(
        name=AlphaBeta.name,
        description=AlphaBeta.description,
        factory=AlphaBeta,
        node_bytes=192,
        ui_node_bytes=288,
        journal=Checkpoints,
        twin=_twin,
        params=(
            DEPTH_PARAM,
            Param("start_depth", int, 1, "depth of the first iteration", lo=1, hi=128),
            Param(
                "ordering",
                str,
                "none",
                "children order: legal moves; static values above the parents of "
                "leaves (static) or at every inner node (static-all, Rivest's); or history heuristic",
                choices=ORDERINGS,
            ),
            Param("tt", bool, False, "transposition table (exact-depth values, best move first)"),
            Param(
                "accounting",
                bool,
                False,
                "Rivest's move accounting: a child visited costs a move even when it was generated already to sort",
            ),
            *EVAL_PARAMS,
        ),
    ),
    AlgorithmInfo(
        name=RivestAlphaBeta.name,
        description=RivestAlphaBeta.description,
        factory=RivestAlphaBeta,
        node_bytes=216,
        ui_node_bytes=328,
        journal=Checkpoints,
        twin=_twin,
        params=(
            DEPTH_PARAM,
            Param(
                "accounting",
                bool,
                True,
                "Rivest's move accounting: a child visited costs a move even when it was generated already to sort",
            ),
            Param(EVAL_PARAM.name, str, "rivest", EVAL_PARAM.help, choices=EVAL_PARAM.choices),
            WEIGHTS_PARAM,
            TRANSFORM_PARAM,
        ),
        games=("connect4",),
    ),
)

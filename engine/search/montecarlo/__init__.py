"""The Monte Carlo family and its kit: Monte Carlo tree search and flat Monte Carlo sampling (``mcts``), their random
playouts (``playouts``), their way back along the timeline (``journal``), MCTS's compiled twin (``twin``, stepped by
``kernel``) and their registry entries (``ALGORITHMS``, here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plyscope.engine.search.entry import AlgorithmInfo, Param
from plyscope.engine.search.montecarlo.journal import MonteCarloJournal
from plyscope.engine.search.montecarlo.mcts import DEFAULT_C, FlatMonteCarlo, MonteCarloTreeSearch

if TYPE_CHECKING:
    from plyscope.engine.compiled.base import CompiledSearch


def _twin() -> type[CompiledSearch]:
    """``CompiledMcts``, imported when asked (numba loads only for a compiled search)."""
    from plyscope.engine.search.montecarlo.twin import CompiledMcts

    return CompiledMcts


K_PARAM = Param(
    "k", int, 1, "random playouts per new leaf (one numpy batch on Connect Four boards up to 64 bits)", lo=1, hi=65536
)

ALGORITHMS = (
    AlgorithmInfo(
        name=MonteCarloTreeSearch.name,
        description=MonteCarloTreeSearch.description,
        factory=MonteCarloTreeSearch,
        node_bytes=200,
        ui_node_bytes=296,
        journal=MonteCarloJournal,
        twin=_twin,
        random=True,
        params=(
            Param("c", float, DEFAULT_C, "UCT exploration constant (sqrt(2) ~ 1.414 in theory)", lo=0, hi=100),
            K_PARAM,
            Param("partial", bool, False, "partial expansion: add a child only when UCB_c beats the best UCB1"),
            Param("solver", bool, False, "MCTS-Solver: prove wins, losses and draws, play the secure child"),
        ),
        chance=True,
    ),
    AlgorithmInfo(
        name=FlatMonteCarlo.name,
        description=FlatMonteCarlo.description,
        factory=FlatMonteCarlo,
        random=True,
        params=(K_PARAM,),
        journal=MonteCarloJournal,
        chance=True,
    ),
)

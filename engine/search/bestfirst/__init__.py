"""The family of searches that expand one node a step, and their kit: best-first minimax (``bestfirst``), Rivest's
min/max approximation (``rivest``, with its generalized means, ``genmean``) and proof-number search (``pns``); the step,
its phases and the hooks they share (``base``), their way back along the timeline (``expansions``), Rivest's compiled
twin (``rivest_twin``, stepped by ``rivest_kernel``) and their registry entries (``ALGORITHMS``, here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plyscope.engine.search.bestfirst.bestfirst import BestFirst
from plyscope.engine.search.bestfirst.expansions import Expansions, best_first_journal
from plyscope.engine.search.bestfirst.pns import TARGETS, ProofNumberSearch
from plyscope.engine.search.bestfirst.rivest import FINALS, MODES, Rivest
from plyscope.engine.search.entry import AlgorithmInfo, Param
from plyscope.engine.search.minimax import EVAL_PARAMS

if TYPE_CHECKING:
    from plyscope.engine.compiled.base import CompiledSearch


def _rivest_twin() -> type[CompiledSearch]:
    """``CompiledRivest``, imported when asked (numba loads only for a compiled search)."""
    from plyscope.engine.search.bestfirst.rivest_twin import CompiledRivest

    return CompiledRivest


ALGORITHMS = (
    AlgorithmInfo(
        name=BestFirst.name,
        description=BestFirst.description,
        factory=BestFirst,
        node_bytes=192,
        ui_node_bytes=264,
        journal=best_first_journal,
        params=(
            Param(
                "ab_depth",
                int,
                0,
                "best-first extension: grow the tree full width to this depth first (0 = pure best-first)",
                lo=0,
                hi=8,
            ),
            *EVAL_PARAMS,
        ),
    ),
    AlgorithmInfo(
        name=Rivest.name,
        description=Rivest.description,
        factory=Rivest,
        node_bytes=176,
        ui_node_bytes=216,
        journal=Expansions,
        twin=_rivest_twin,
        params=(
            Param(
                "p",
                float,
                10.0,
                "generalized-mean exponent: M_p at MAX nodes, M_-p at MIN (modes mean, "
                "reverse-derivative, and final=mean)",
                lo=0.0,
                hi=1000.0,
            ),
            Param(
                "mode",
                str,
                "reverse",
                "reverse: true min/max values, weight 0.05+|dln v| (Rivest's experiments); "
                "reverse-derivative: exact derivative weights; mean: generalized-mean values",
                choices=MODES,
            ),
            Param("weight", float, 0.05, "constant part of the reverse mode's edge weight", lo=0.0, hi=100.0),
            Param("accounting", bool, False, "Rivest's move accounting: pay one move per edge walked from the root"),
            Param("final", str, "value", "final move by backed-up value, or by generalized mean", choices=FINALS),
            *EVAL_PARAMS,
        ),
    ),
    AlgorithmInfo(
        name=ProofNumberSearch.name,
        description=ProofNumberSearch.description,
        factory=ProofNumberSearch,
        node_bytes=104,
        ui_node_bytes=144,
        journal=Expansions,
        params=(
            Param(
                "target",
                str,
                "win",
                "what to prove for the player to move: win, or draw-or-win (at least a draw)",
                choices=TARGETS,
            ),
        ),
    ),
)

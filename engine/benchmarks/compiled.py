"""Each compiled searcher beside its Python twin: moves per CPU second on the same budget, and memory per node.

Both run the same search (``plyscope.engine.compiled``: the same moves, steps and nodes, which the row checks), from
the ``searchers`` section's Connect Four positions with the same moves budget per position, so their moves per CPU
second compare directly.  Memory per node: the Python trees' is the registry's (``node_bytes``, measured by the
``memory`` section); the compiled twins' is the bytes their arrays hold at the end of the run (tree or table and
frames, slack included) over the nodes the Python tree would hold.
"""

from __future__ import annotations

import time

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.benchmarks.searchers import MM_SPEC, POSITIONS
from plyscope.engine.compiled.base import CompiledSearch
from plyscope.engine.games import Connect4
from plyscope.engine.search.base import Limit, Result
from plyscope.engine.search.registry import AgentSpec, algorithms, compiled_twin, make_searcher

VARIANTS = {
    "alphabeta": ("alphabeta:ordering=history,tt=true",),
    "rivest": (MM_SPEC, "rivest:mode=mean"),
    "mcts": ("mcts:partial=true,solver=true",),
}
"""Beside each searcher with a compiled twin (its registry entry's ``twin``), with its defaults: alpha-beta with its
table, Rivest's MM and mean mode, and MCTS (one move an iteration) with partial expansion and MCTS-Solver."""


def specs() -> list[str]:
    """The searchers measured: every one with a compiled twin, then its ``VARIANTS``."""
    return [
        spec for name, info in algorithms().items() if info.twin is not None for spec in (name, *VARIANTS.get(name, ()))
    ]


SPEED_TARGET = 10.0
"""The compiled twin's moves per CPU second over its Python twin's."""


def _counts(result: Result) -> tuple[object, ...]:
    stats = result.stats
    return result.best_move, result.value, stats.moves, stats.iterations, stats.nodes, stats.playout_moves


def measure(quick: bool) -> list[BenchTable]:
    budget = 5_000 if quick else 50_000
    game = Connect4()
    states = [game.parse(text) for text in POSITIONS]
    table = BenchTable(
        f"Compiled searchers beside their Python twins, {budget:,} moves per position ({len(POSITIONS)} positions)",
        ["algorithm", "moves", "Python moves/CPU s", "compiled moves/CPU s", "x", "same", "bytes/node", "Python bytes"],
    )
    for text in specs():
        spec = AgentSpec.parse(text)
        moves = nodes = 0
        python_cpu = compiled_cpu = 0.0
        same = True
        array_bytes = 0
        for state in states:
            python = make_searcher(spec.name, state, spec.params)
            twin = compiled_twin(make_searcher(spec.name, state, spec.params))
            assert twin is not None
            started = time.process_time()
            expected = python.run(Limit(moves=budget))
            python_cpu += time.process_time() - started
            started = time.process_time()
            got = twin.run(Limit(moves=budget))
            compiled_cpu += time.process_time() - started
            same = same and _counts(expected) == _counts(got)
            moves += got.stats.moves
            nodes += got.stats.nodes
            array_bytes += _array_bytes(twin)
        python_rate = moves / max(python_cpu, 1e-9)
        compiled_rate = moves / max(compiled_cpu, 1e-9)
        table.rows.append(
            [
                text,
                moves,
                round(python_rate),
                round(compiled_rate),
                round(compiled_rate / python_rate, 1),
                "yes" if same else "NO",
                round(array_bytes / max(nodes, 1), 1),
                spec.info.node_bytes,
            ]
        )
    table.notes += [
        "positions: " + ", ".join(POSITIONS) + f"; x: compiled over Python moves per CPU second (target >= "
        f"{SPEED_TARGET:g})",
        "same: the same best move, value, moves, steps, nodes and playout moves as the Python twin on every position",
        "bytes/node: the compiled twin's arrays at the end of its run over the nodes the Python tree holds "
        "(alpha-beta keeps no tree: its frames and table); Python bytes: the registry's node_bytes (memory section)",
    ]
    return [table]


def _array_bytes(twin: CompiledSearch) -> int:
    """The bytes of every numpy array the twin holds."""
    return sum(value.nbytes for value in vars(twin).values() if hasattr(value, "nbytes"))

"""The compiled twins (``plyscope.engine.compiled``): the same result and counts as the stepping searchers.

Each twin is held to its stepping searcher's ``run`` on the same position, parameters, budget (and seed): the best
move, the value, the principal variation, moves, steps, nodes, depth reached, playouts and ``finished``, over every
ordering and table setting of alpha-beta, every mode and final of Rivest's method, every evaluator and transform,
MCTS with and without partial expansion and MCTS-Solver, on positions from the start, from Pons' benchmark sets and
near the end of a game (where the searches prove results: wins, losses and draws).
"""

from __future__ import annotations

import math
import random

import pytest

from plyscope.engine.compiled.base import (
    BLOCKED,
    ENDED,
    FIRST_TABLE,
    FIRST_TREE,
    FULL,
    ITERATIONS,
    MAX_DEPTH,
    MOVES,
    NODE_CAP,
    NODES,
    STEPS_DONE,
)
from plyscope.engine.compiled.board import evaluate, evaluator_code, geometry
from plyscope.engine.games import Connect4, Nim
from plyscope.engine.kits.evaluation import make_evaluator
from plyscope.engine.search.alphabeta.searcher import ORDERINGS
from plyscope.engine.search.alphabeta.twin import CompiledAlphaBeta
from plyscope.engine.search.base import Limit, Result
from plyscope.engine.search.bestfirst.rivest_kernel import fsum
from plyscope.engine.search.bestfirst.rivest_twin import CompiledRivest
from plyscope.engine.search.montecarlo.mcts import DRAW
from plyscope.engine.search.montecarlo.twin import CompiledMcts
from plyscope.engine.search.registry import algorithms, compiled_twin, make_searcher, plays, twin_kinds
from tests.pons import pons_positions

C4 = Connect4()
POSITIONS = [
    "",
    "4453",
    "12211221",
    "2252576253462244111563",
    "225257625346224411156336534367135",
    *(moves for moves, _ in pons_positions("Test_L3_R1", 1)),
    *(moves for moves, _ in pons_positions("Test_L2_R1", 1)),
]
"""The start, openings, Pons' positions (end game and middle game) and one near the end."""
BUDGETS = [Limit(moves=400), Limit(iterations=300), Limit(moves=3000, nodes=600)]
EVALUATIONS = [
    {"eval": "threats"},
    {"eval": "features", "weights": "threes:20,centre:0"},
    {"eval": "neutral"},
    {"transform": "cube"},
    {"transform": "exp"},
    {"transform": "log"},
    {"transform": "affine:2,10"},
]
ALPHABETA = [
    ("ab-rivest", {}),
    ("ab-rivest", {"accounting": False, "depth": 3}),
    *(
        ("alphabeta", {"ordering": ordering, "tt": tt, "start_depth": start})
        for ordering in ORDERINGS
        for tt in (False, True)
        for start in (1, 3)
    ),
    *(("alphabeta", {"ordering": "static", "tt": True, **evaluation}) for evaluation in EVALUATIONS),
]
RIVEST = [
    *(
        {"mode": mode, "accounting": accounting, "final": final}
        for mode in ("reverse", "mean", "reverse-derivative")
        for accounting in (False, True)
        for final in ("value", "mean")
    ),
    {"mode": "mean", "p": 0.0},
    {"mode": "reverse-derivative", "p": 2.5},
    {"weight": 0.0},
    {"weight": 3.0},
    *({"mode": "mean", **evaluation} for evaluation in EVALUATIONS),
]


MCTS = [{"partial": partial, "solver": solver} for partial in (False, True) for solver in (False, True)] + [{"c": 0.3}]


def outcome(result: Result) -> tuple[object, ...]:
    """Everything a run reports but its seconds."""
    stats = result.stats
    return (
        result.best_move,
        result.value,
        result.principal_variation,
        stats.moves,
        stats.iterations,
        stats.nodes,
        stats.max_depth,
        stats.playouts,
        stats.playout_moves,
        result.finished,
    )


def assert_twins(name: str, params: dict[str, object], position: str, limit: Limit, seed: int = 0) -> None:
    state = C4.parse(position)
    twin = compiled_twin(make_searcher(name, state, params, seed=seed))
    assert twin is not None
    assert outcome(twin.run(limit)) == outcome(make_searcher(name, state, params, seed=seed).run(limit))


TWINNED = [name for name, info in algorithms().items() if info.twin is not None]
"""The searchers whose registry entry declares a compiled twin."""


@pytest.mark.parametrize("name", TWINNED)
def test_every_registered_twin_is_its_stepping_searcher_s_twin(name: str) -> None:
    """With the registry's defaults, on every position and budget (the families' own tests below vary the rest)."""
    for position in POSITIONS:
        for limit in BUDGETS:
            assert_twins(name, {}, position, limit)


def test_every_kernel_counts_and_stops_as_the_twins_base_reads_it() -> None:
    """The first scalars of each kernel are the counts, and its ``advance`` says why it stopped, with the codes of
    ``plyscope.engine.compiled.base`` (which the base's run loop reads)."""
    for kind in twin_kinds():
        kernel = kind.kernels[0]
        assert (kernel.MOVES, kernel.ITERATIONS, kernel.NODES, kernel.MAX_DEPTH) == (
            MOVES,
            ITERATIONS,
            NODES,
            MAX_DEPTH,
        )
        full = getattr(kernel, "TREE_FULL", getattr(kernel, "TABLE_FULL", None))
        assert (kernel.STEPS_DONE, kernel.ENDED, kernel.BLOCKED, kernel.NODE_CAP, full) == (
            STEPS_DONE,
            ENDED,
            BLOCKED,
            NODE_CAP,
            FULL,
        )


@pytest.mark.parametrize(("name", "params"), ALPHABETA, ids=lambda x: str(x))
def test_compiled_alphabeta_is_the_stepping_searcher_s_twin(name: str, params: dict[str, object]) -> None:
    for position in POSITIONS:
        for limit in BUDGETS:
            assert_twins(name, params, position, limit)


@pytest.mark.parametrize("params", RIVEST, ids=str)
def test_compiled_rivest_is_the_stepping_searcher_s_twin(params: dict[str, object]) -> None:
    for position in POSITIONS:
        for limit in BUDGETS:
            assert_twins("rivest", params, position, limit)


@pytest.mark.parametrize("params", MCTS, ids=str)
@pytest.mark.parametrize("seed", [0, 12345])
def test_compiled_mcts_is_the_stepping_searcher_s_twin_for_the_same_seed(params: dict[str, object], seed: int) -> None:
    """The same random sequence drawn in the same order: the same tree, so the same move, value, line and counts."""
    for position in POSITIONS:
        for limit in BUDGETS:
            assert_twins("mcts", params, position, limit, seed)


@pytest.mark.parametrize("partial", [False, True])
@pytest.mark.parametrize(
    "position", ["62736211431665431641332425417457", "23163416124767223154467471272416755633"]
)  # draws with best play (the second from Pons' End-Easy set)
def test_compiled_mcts_solver_proves_the_same_draws_valued_exactly_zero(position: str, partial: bool) -> None:
    """MCTS-Solver to the end on drawn positions: both twins finish with the root a proven draw, value 0.0 exactly."""
    limit = Limit(iterations=200_000)
    state = C4.parse(position)
    params = {"solver": True, "partial": partial}
    twin = compiled_twin(make_searcher("mcts", state, params))
    assert isinstance(twin, CompiledMcts)
    compiled = twin.run(limit)
    assert outcome(compiled) == outcome(make_searcher("mcts", state, params).run(limit))
    assert compiled.finished and twin._proven(0) == DRAW
    value = compiled.value.first()
    assert value == 0 and math.copysign(1.0, value) == 1.0


def test_a_twin_run_in_slices_is_one_run() -> None:
    """Runs continue where the last stopped, as the stepping searcher's do (``plyscope search`` runs in slices)."""
    state = C4.parse("4453")
    runs: list[tuple[str, dict[str, object]]] = [
        ("alphabeta", {"ordering": "history", "tt": True}),
        ("rivest", {"mode": "mean"}),
    ]
    for name, params in runs:
        twin = compiled_twin(make_searcher(name, state, params))
        python = make_searcher(name, state, params)
        assert twin is not None
        for _ in range(8):
            assert outcome(twin.run(Limit(moves=1000))) == outcome(python.run(Limit(moves=1000)))


def test_the_tables_and_trees_grow_without_losing_a_step() -> None:
    """A transposition table and trees several times their first size: every entry and node kept."""
    state = C4.start()
    table = compiled_twin(make_searcher("alphabeta", state, {"ordering": "static", "tt": True}))
    tree = compiled_twin(make_searcher("rivest", state))
    uct = compiled_twin(make_searcher("mcts", state))
    assert isinstance(table, CompiledAlphaBeta) and isinstance(tree, CompiledRivest) and isinstance(uct, CompiledMcts)
    limit = Limit(moves=30_000)
    assert outcome(table.run(limit)) == outcome(
        make_searcher("alphabeta", state, {"ordering": "static", "tt": True}).run(limit)
    )
    assert outcome(tree.run(limit)) == outcome(make_searcher("rivest", state).run(limit))
    assert outcome(uct.run(Limit(moves=6000))) == outcome(make_searcher("mcts", state).run(Limit(moves=6000)))
    # A step budget met after the arrays grew within one call of the kernel: none taken beyond it.
    for name in ("rivest", "mcts"):
        twin = compiled_twin(make_searcher(name, state))
        assert twin is not None
        assert outcome(twin.run(Limit(iterations=5000))) == outcome(
            make_searcher(name, state).run(Limit(iterations=5000))
        )
    assert table.keys.shape[0] > FIRST_TABLE and tree.v.shape[0] > FIRST_TREE and uct.visits.shape[0] > FIRST_TREE


def test_searchers_without_a_twin_get_none() -> None:
    """Every searcher whose entry declares no twin; Nim, a board too large for 64-bit bitboards, MCTS's batched
    playouts, a searcher stepped."""
    for name, info in algorithms().items():
        if info.twin is None and plays(info, C4):
            assert compiled_twin(make_searcher(name, C4.start())) is None, name
    assert compiled_twin(make_searcher("alphabeta", Nim("grundy").parse("7"))) is None
    assert compiled_twin(make_searcher("rivest", Connect4(8, 7).start())) is None
    assert compiled_twin(make_searcher("mcts", C4.start(), {"k": 2})) is None
    stepped = make_searcher("alphabeta", C4.start())
    stepped.step()
    assert compiled_twin(stepped) is None


@pytest.mark.parametrize("size", [(7, 6), (4, 4), (6, 5), (8, 6), (9, 6)])
def test_compiled_evaluators_give_the_python_values(size: tuple[int, int]) -> None:
    game = Connect4(*size)
    rng = random.Random(size[0] * 10 + size[1])
    g = geometry(game)
    evaluators = [
        make_evaluator(
            str(e.get("eval", "rivest")),
            game,
            weights=str(e.get("weights", "")),
            transform=str(e.get("transform", "identity")),
        )
        for e in [{}, *EVALUATIONS]
    ]
    for _ in range(150):
        state = game.start()
        while True:
            winner = state.winner()
            code = 2 if winner is None else winner
            for evaluator in evaluators:
                e = evaluator_code(evaluator)
                assert e is not None
                assert evaluate(state.current, state.mask, state.ply, code, g, e) == evaluator(state)
            if state.is_terminal():
                break
            state = state.play(rng.choice(list(state.legal_moves())))


def test_fsum_is_python_s() -> None:
    import numpy as np

    rng = random.Random(7)
    for n in range(1, 12):
        for _ in range(40):
            values = [rng.choice([1.0, 1e-16, 3e-9]) * rng.random() * 10 ** rng.randint(-3, 3) for _ in range(n)]
            assert fsum(np.array(values), n) == math.fsum(values)


def test_rivest_s_games_under_a_moves_bound_are_the_same_compiled_or_not() -> None:
    """MM against AB at 600 moves a turn: every move of both games, and every turn's counts, the Python agents'."""
    from plyscope.engine.arena.play import play_game
    from plyscope.engine.rivest_experiment import rivest_tasks

    def played(compiled: bool) -> list[tuple[object, ...]]:
        tasks = rivest_tasks(C4, "moves", (600,), [(3, 2)], 0, compiled=compiled)
        assert all(agent.compiled is compiled for task in tasks for agent in (task.first, task.second))
        return [(r.moves, r.result, r.first_stats.moves, r.second_stats.nodes) for r in map(play_game, tasks)]

    assert played(True) == played(False)


def test_an_mcts_agent_decides_the_same_compiled_or_not() -> None:
    from dataclasses import replace

    from plyscope.engine.agents import Agent

    agent = Agent.parse("mcts:solver=true", Limit(moves=400))
    for position in ("4453", "2252576253462244111563"):
        state = C4.parse(position)
        fast, slow = agent.decide(state, 99), replace(agent, compiled=False).decide(state, 99)
        assert (fast.move, fast.stats.moves, fast.stats.nodes) == (slow.move, slow.stats.moves, slow.stats.nodes)


def test_the_bench_section_finds_each_twin_the_same_as_its_searcher(monkeypatch: pytest.MonkeyPatch) -> None:
    from plyscope.engine.benchmarks import compiled

    monkeypatch.setattr(compiled, "specs", lambda: ["ab-rivest", "mcts"])
    (table,) = compiled.measure(quick=True)
    assert [row[0] for row in table.rows] == ["ab-rivest", "mcts"]
    assert [row[5] for row in table.rows] == ["yes", "yes"]

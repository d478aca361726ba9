"""Every registered searcher at one moves budget: moves/s, steps/s and tree size.

Each algorithm runs with its registry defaults (seed 0) through ``run`` (the fast path),
from each of these Connect Four midgame positions (Pons move strings), with the same
moves budget per position:

* ``4453``, an opening;
* ``44444323``, the centre column nearly full;
* ``32164625``, the first position of Pons' Begin-Easy set (``Test_L1_R1``);
* ``274552224131661``, the first of his Middle-Medium set (``Test_L2_R2``).

Moves are calls to ``State.play`` by the tree search; steps are the searcher's units of
work (expansions, iterations or node visits).  Memory per tree node is the ``memory``
section's (``plyscope.engine.benchmarks.memory``: resident size over a million-node run).  The exact
solver is left out: it is not a budgeted tree search.  One more row, ``rivest:accounting=true``, is MM as in
Rivest's experiment (``plyscope rivest``), to be set beside ``ab-rivest``, which counts moves
the same way: his move-rate figures (800 against 3,500 a second) are for that pair.
"""

from __future__ import annotations

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.games import Connect4
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec, algorithms, make_searcher

POSITIONS = ("4453", "44444323", "32164625", "274552224131661")
LEFT_OUT = ("solver",)
RIVEST_RATE_TARGET = 0.5
"""Rivest's moves/s over alpha-beta's (his C code managed 800 against 3,500: 0.23)."""
MM_SPEC = "rivest:accounting=true"
"""MM as in Rivest's experiment: his move accounting, like ``ab-rivest``'s."""
RATE_PAIRS = (("rivest", "alphabeta"), (MM_SPEC, "ab-rivest"))
"""(MM, AB) pairs whose moves/s ratio is checked: each pair counts moves the same way."""


def measure(quick: bool) -> list[BenchTable]:
    budget = 5_000 if quick else 50_000
    game = Connect4()
    states = [game.parse(text) for text in POSITIONS]
    table = BenchTable(
        f"Searchers at {budget:,} moves per position ({len(POSITIONS)} Connect Four positions, registry defaults)",
        ["algorithm", "moves", "steps", "nodes", "seconds", "moves/s", "steps/s", "done"],
    )
    move_rates: dict[str, float] = {}
    specs = [
        name
        for name, info in algorithms().items()
        if name not in LEFT_OUT and (not info.games or "connect4" in info.games)
    ]
    specs.insert(specs.index("rivest") + 1, MM_SPEC)
    for name in specs:
        spec = AgentSpec.parse(name)
        moves = steps = nodes = finished = 0
        seconds = 0.0
        for state in states:
            result = make_searcher(spec.name, state, spec.params, seed=0).run(Limit(moves=budget))
            moves += result.stats.moves
            steps += result.stats.iterations
            nodes += result.stats.nodes
            seconds += result.stats.seconds
            finished += result.finished
        seconds = max(seconds, 1e-9)
        move_rates[name] = moves / seconds
        table.rows.append(
            [
                name,
                moves,
                steps,
                round(nodes / len(states)),
                round(seconds, 3),
                round(moves / seconds),
                round(steps / seconds),
                f"{finished}/{len(states)}",
            ]
        )
    table.notes += [
        "positions: " + ", ".join(POSITIONS) + "; memory per tree node: the memory section",
        "moves: calls to State.play by the tree search; steps: expansions, iterations or node visits",
        "nodes: mean tree size per position (Stats.nodes at the end of the run)",
        "done: positions where the search ended before the budget (tree complete or root proven)",
    ]
    return [table, targets(move_rates)]


def targets(move_rates: dict[str, float]) -> BenchTable:
    """The issue's targets that this section measures, met or not."""
    table = BenchTable("Searcher targets", ["target", "figure", "goal", "met"])
    for mm, ab in RATE_PAIRS:
        if mm in move_rates and ab in move_rates:
            ratio = move_rates[mm] / move_rates[ab]
            table.rows.append(
                [
                    f"{mm} moves/s / {ab} moves/s",
                    round(ratio, 2),
                    f">= {RIVEST_RATE_TARGET}",
                    "yes" if ratio >= RIVEST_RATE_TARGET else "no",
                ]
            )
    return table

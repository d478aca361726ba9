"""Alpha-beta speed: node visits per second at a fixed depth with the ``threats`` heuristic.

One search per position to a fixed depth (``start_depth = depth``: a single iteration), for
each move ordering with and without the transposition table, on these Connect Four
positions (Pons move strings):

* the empty board;
* ``4453``, an opening;
* ``32164625``, the first position of Pons' Begin-Easy set (``Test_L1_R1``);
* ``52753311433677442422121``, the second of his Middle-Easy set (``Test_L2_R1``).

A visit is one step of the searcher (one node reached, or an iteration's root opened);
moves are calls to ``State.play``, which ``ordering=static`` also spends on the children it
generates to sort them.  A second table compares the fast path (``run``) with stepping.
"""

from __future__ import annotations

import time

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.games import Connect4
from plyscope.engine.search.alphabeta.searcher import ORDERINGS, AlphaBeta
from plyscope.engine.search.base import Limit

POSITIONS = ("", "4453", "32164625", "52753311433677442422121")
EVAL = "threats"


def _depth(quick: bool) -> int:
    return 4 if quick else 6


def measure(quick: bool) -> list[BenchTable]:
    return [_orderings(quick), _run_against_step(quick)]


def _orderings(quick: bool) -> BenchTable:
    depth = _depth(quick)
    game = Connect4()
    table = BenchTable(
        f"Alpha-beta to depth {depth} with the {EVAL} heuristic ({len(POSITIONS)} Connect Four positions)",
        ["ordering", "table", "visits", "moves", "seconds", "visits/s", "moves/s"],
    )
    for ordering in ORDERINGS:
        for tt in (False, True):
            visits = moves = 0
            seconds = 0.0
            for text in POSITIONS:
                searcher = AlphaBeta(
                    game.parse(text), depth=depth, start_depth=depth, ordering=ordering, tt=tt, evaluator=EVAL
                )
                result = searcher.run(Limit())
                visits += result.stats.iterations
                moves += result.stats.moves
                seconds += result.stats.seconds
            table.rows.append(
                [
                    ordering,
                    "on" if tt else "off",
                    visits,
                    moves,
                    round(seconds, 3),
                    round(visits / seconds),
                    round(moves / seconds),
                ]
            )
    table.notes.append("positions: " + ", ".join(text or "(empty board)" for text in POSITIONS))
    table.notes.append("visits: searcher steps (nodes reached, roots opened); moves: calls to State.play")
    return table


def _run_against_step(quick: bool) -> BenchTable:
    """The same search on the fast path (``run``) and stepped with a ``Step`` record per visit."""
    depth = _depth(quick)
    game = Connect4()
    table = BenchTable(
        f"Alpha-beta fast path against stepping (depth {depth}, ordering none, no table, {EVAL})",
        ["mode", "visits", "seconds", "visits/s"],
    )
    for mode in ("run", "step"):
        visits = 0
        seconds = 0.0
        for text in POSITIONS:
            searcher = AlphaBeta(game.parse(text), depth=depth, start_depth=depth, evaluator=EVAL)
            started = time.perf_counter()
            if mode == "run":
                searcher.run(Limit())
            else:
                while searcher.step() is not None:
                    pass
            seconds += time.perf_counter() - started
            visits += searcher.stats.iterations
        table.rows.append([mode, visits, round(seconds, 3), round(visits / seconds)])
    return table

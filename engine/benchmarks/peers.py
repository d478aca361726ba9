"""Our MCTS beside OpenSpiel's on the same Connect Four positions, in the same run.

Needs the optional extra ``peers`` (``pip install open-spiel``); without it the section
prints one row saying so.  OpenSpiel's bots are plain UCT (``solve=False``, c = 1.4) with
its ``RandomRolloutEvaluator`` (one rollout per simulation), so one of their simulations
is one iteration with one playout.
"""

from __future__ import annotations

import importlib.util
import time
from typing import Any

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.benchmarks.playouts import CPU_NOTE, POSITIONS, SEED, Rate, mcts_rate, positions_note

UCT_C = 1.4
INSTALL_HINT = "pip install open-spiel (or pip install -e '.[peers]')"


def _openspiel_state(game: Any, moves: str) -> Any:
    state = game.new_initial_state()
    for char in moves:
        state.apply_action(int(char) - 1)  # OpenSpiel's connect_four actions are columns 0..6
    return state


def openspiel_rate(simulations: int, *, native: bool) -> Rate:
    """OpenSpiel's MCTSBot (Python, or the C++ one with ``native``): ``simulations`` on each position."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")
    spent = cpu_spent = 0.0
    for moves in POSITIONS:
        state = _openspiel_state(game, moves)
        if native:
            bot = pyspiel.MCTSBot(
                game, pyspiel.RandomRolloutEvaluator(1, SEED), UCT_C, simulations, 1000, False, SEED, False
            )
        else:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(SEED))
            bot = mcts.MCTSBot(
                game, UCT_C, simulations, evaluator, solve=False, random_state=np.random.RandomState(SEED)
            )
        started, cpu_started = time.perf_counter(), time.process_time()
        bot.mcts_search(state)
        spent += time.perf_counter() - started
        cpu_spent += time.process_time() - cpu_started
    total = simulations * len(POSITIONS)
    return Rate(spent, cpu_spent, playouts=total, iterations=total)


def measure(quick: bool) -> list[BenchTable]:
    table = BenchTable(
        "MCTS against OpenSpiel on Connect Four midgame positions",
        ["searcher", "iter/s", "iter/CPU s", "playouts/CPU s", "x iter", "x playouts"],
    )
    if importlib.util.find_spec("pyspiel") is None:
        table.rows.append(["OpenSpiel is not installed", "-", "-", "-", "-", "-"])
        table.notes.append(f"install the optional extra peers to compare: {INSTALL_HINT}")
        return [table]
    simulations = 1000 if quick else 4000
    seconds = 0.2 if quick else 1.0
    reference = openspiel_rate(simulations, native=False)
    base = reference.per_cpu_second(reference.iterations)
    rates = [
        ("OpenSpiel Python", reference),
        ("OpenSpiel C++", openspiel_rate(simulations * 10, native=True)),
        *((f"mcts k={k}", mcts_rate(k, seconds)) for k in (1, 32, 256)),
        ("mcts k=1 compiled", mcts_rate(1, seconds, compiled=True)),
    ]
    for name, rate in rates:
        iterations = rate.per_cpu_second(rate.iterations)
        playouts = rate.per_cpu_second(rate.playouts)
        table.rows.append(
            [
                name,
                round(rate.per_second(rate.iterations)),
                round(iterations),
                round(playouts),
                round(iterations / base, 1),
                round(playouts / base, 1),
            ]
        )
    native = rates[1][1].per_cpu_second(rates[1][1].iterations)
    compiled = rates[-1][1].per_cpu_second(rates[-1][1].iterations)
    table.notes.append(
        f"mcts k=1 compiled (the twin of mcts k=1: the same tree for the same seed) against OpenSpiel's C++: "
        f"{compiled / native:.1f}x its iterations per CPU second (target >= 1.0)"
    )
    table.notes.append(positions_note())
    table.notes.append(
        f"OpenSpiel's MCTSBot: uct_c {UCT_C}, solve=False, RandomRolloutEvaluator(n_rollouts=1), "
        f"{simulations} simulations per position ({simulations * 10} in C++); ours: c 1.4, {seconds:g} s per position"
    )
    table.notes.append(
        "x: ratio to OpenSpiel's Python MCTSBot, per CPU second; iter: iterations (simulations); " + CPU_NOTE
    )
    return [table]

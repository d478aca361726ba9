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

from engine.benchmarks import BenchTable
from engine.benchmarks.playouts import POSITIONS, SEED, mcts_rate, positions_note

UCT_C = 1.4
INSTALL_HINT = "pip install open-spiel (or pip install -e '.[peers]')"


def _openspiel_state(game: Any, moves: str) -> Any:
    state = game.new_initial_state()
    for char in moves:
        state.apply_action(int(char) - 1)  # OpenSpiel's connect_four actions are columns 0..6
    return state


def openspiel_rate(simulations: int, *, native: bool) -> float:
    """Simulations per second of OpenSpiel's MCTSBot (Python, or the C++ one with ``native``) over the positions."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")
    spent = 0.0
    for moves in POSITIONS:
        state = _openspiel_state(game, moves)
        if native:
            bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, SEED), UCT_C, simulations, 1000, False,
                                  SEED, False)
        else:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(SEED))
            bot = mcts.MCTSBot(game, UCT_C, simulations, evaluator, solve=False,
                               random_state=np.random.RandomState(SEED))
        started = time.perf_counter()
        bot.mcts_search(state)
        spent += time.perf_counter() - started
    return simulations * len(POSITIONS) / spent


def measure(quick: bool) -> list[BenchTable]:
    table = BenchTable(
        "MCTS against OpenSpiel on Connect Four midgame positions",
        ["searcher", "iterations/s", "playouts/s", "x OpenSpiel Python (iterations)", "x OpenSpiel Python (playouts)"],
    )
    if importlib.util.find_spec("pyspiel") is None:
        table.rows.append(["OpenSpiel is not installed", "-", "-", "-", "-"])
        table.notes.append(f"install the optional extra peers to compare: {INSTALL_HINT}")
        return [table]
    simulations = 1000 if quick else 4000
    seconds = 0.2 if quick else 1.0
    python_bot = openspiel_rate(simulations, native=False)
    native_bot = openspiel_rate(simulations * 10, native=True)
    table.rows.append(["OpenSpiel MCTSBot (Python)", round(python_bot), round(python_bot), 1.0, 1.0])
    table.rows.append(["OpenSpiel MCTSBot (C++)", round(native_bot), round(native_bot),
                       round(native_bot / python_bot, 1), round(native_bot / python_bot, 1)])
    for k in (1, 32, 256):
        rate = mcts_rate(k, seconds)
        iterations = rate.per_second(rate.iterations)
        playouts = rate.per_second(rate.playouts)
        table.rows.append([f"plyscope mcts k={k}", round(iterations), round(playouts),
                           round(iterations / python_bot, 1), round(playouts / python_bot, 1)])
    table.notes.append(positions_note())
    table.notes.append(
        f"OpenSpiel: uct_c {UCT_C}, solve=False, RandomRolloutEvaluator(n_rollouts=1); {simulations} simulations "
        f"per position (C++: {simulations * 10}); ours: {seconds:g} s per position, c 1.4"
    )
    return [table]

"""Our MCTS beside OpenSpiel's ``MCTSBot`` at equal work: speed at the same iterations, and short matches.

Needs OpenSpiel (``pyspiel``, the optional extra ``peers``); ``plyscope.engine.benchmarks.peers`` checks for it.

**Matched exploration.**  Both are plain UCT with one random playout per new leaf, selecting by
UCB1 = mean + c * sqrt(ln N / n).  OpenSpiel's rewards span -1..1 (loss, draw, win) and ours 0..1,
so its mean is ``2 m - 1`` of ours, ``m``: its UCB1 is twice ours plus a constant when its c is
twice ours.  OpenSpiel's ``c = 1.4`` (its bots' usual value) thus ranks children exactly as our
``c = 0.7`` does, and that is what both get here.  An OpenSpiel simulation is one iteration (one
new leaf, one rollout), as ours is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from plyscope.engine.agents import Agent
from plyscope.engine.arena.openings import balanced_openings, two_move_openings
from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.benchmarks.playouts import POSITIONS, SEED, Rate
from plyscope.engine.games import Connect4, Connect4State, Move
from plyscope.engine.numbers import signed
from plyscope.engine.search.base import Limit
from plyscope.engine.search.montecarlo.mcts import MonteCarloTreeSearch
from plyscope.engine.seeds import game_seed, turn_seed
from plyscope.engine.stats import Pentanomial, Tally

if TYPE_CHECKING:
    from plyscope.engine.search.montecarlo.twin import CompiledMcts

OPENSPIEL_C = 1.4
"""OpenSpiel's UCT constant, on rewards -1..1."""
MATCHED_C = OPENSPIEL_C / 2
"""Ours, on rewards 0..1: the same selection as ``OPENSPIEL_C`` (see the module)."""
SPEED_POSITIONS = ("", *POSITIONS)
"""The start and the five midgame positions of the playouts section."""
OPENSPIEL_MEMORY_MB = 1000
"""The C++ ``MCTSBot``'s memory bound (it stops growing its tree past it): above what any search here needs."""
SEED_BITS = 0x7FFF_FFFF
"""OpenSpiel takes its seeds as C ``int``: ours are cut to 31 bits for it."""
PLYSCOPE = "plyscope mcts"
OPENSPIEL = "OpenSpiel C++"


@dataclass(frozen=True, slots=True)
class Scale:
    """How much work each measurement does."""

    native_iterations: int
    """Iterations a position for the compiled MCTS and OpenSpiel's C++ bot."""
    python_iterations: int
    """Iterations a position for our Python MCTS and OpenSpiel's Python bot."""
    match_iterations: int
    """Iterations a move for both sides in the equal-iterations match (OpenSpiel's in the equal-time one)."""
    match_openings: int
    """Openings of each match, each played twice with colours swapped."""


FULL = Scale(native_iterations=40_000, python_iterations=4_000, match_iterations=2_000, match_openings=20)
QUICK = Scale(native_iterations=10_000, python_iterations=1_000, match_iterations=500, match_openings=3)


class SpielState(Protocol):
    """What is asked here of an OpenSpiel state (``pyspiel`` has no type hints)."""

    def apply_action(self, action: int) -> None: ...


class SpielGame(Protocol):
    """What is asked here of an OpenSpiel game."""

    def new_initial_state(self) -> SpielState: ...


class SpielBot(Protocol):
    """What is asked here of an OpenSpiel bot."""

    def step(self, state: SpielState) -> int:
        """Its move in ``state``: an action (a column, from 0)."""

    def mcts_search(self, state: SpielState) -> object:
        """A search of ``state`` (its tree's root, unused here)."""


def _openspiel_state(game: SpielGame, moves: str) -> SpielState:
    state = game.new_initial_state()
    for char in moves:
        state.apply_action(int(char) - 1)  # OpenSpiel's connect_four actions are columns 0..6
    return state


def _cpp_bot(game: SpielGame, simulations: int, seed: int) -> SpielBot:
    """OpenSpiel's C++ ``MCTSBot``: plain UCT (no solver), one random rollout per simulation."""
    import pyspiel

    seed &= SEED_BITS
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot: SpielBot = pyspiel.MCTSBot(game, evaluator, OPENSPIEL_C, simulations, OPENSPIEL_MEMORY_MB, False, seed, False)
    return bot


def openspiel_rate(simulations: int, *, native: bool) -> Rate:
    """OpenSpiel's MCTSBot (Python, or the C++ one with ``native``): ``simulations`` on each of ``SPEED_POSITIONS``."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")
    spent = cpu_spent = 0.0
    for moves in SPEED_POSITIONS:
        state = _openspiel_state(game, moves)
        if native:
            bot = _cpp_bot(game, simulations, SEED)
        else:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(SEED))
            bot = mcts.MCTSBot(
                game, OPENSPIEL_C, simulations, evaluator, solve=False, random_state=np.random.RandomState(SEED)
            )
        started, cpu_started = time.perf_counter(), time.process_time()
        bot.mcts_search(state)
        spent += time.perf_counter() - started
        cpu_spent += time.process_time() - cpu_started
    total = simulations * len(SPEED_POSITIONS)
    return Rate(spent, cpu_spent, playouts=total, iterations=total)


def plyscope_rate(iterations: int, *, compiled: bool) -> Rate:
    """Our MCTS (k = 1, ``MATCHED_C``; ``compiled``: its compiled twin) for ``iterations`` on each of
    ``SPEED_POSITIONS``: a fresh search on each."""
    game = Connect4()
    done = 0
    spent = cpu_spent = 0.0
    for moves in SPEED_POSITIONS:
        searcher = MonteCarloTreeSearch(game.parse(moves), seed=SEED, c=MATCHED_C)
        search: MonteCarloTreeSearch | CompiledMcts = searcher
        if compiled:
            from plyscope.engine.search.montecarlo.twin import CompiledMcts

            search = CompiledMcts(searcher)
        started, cpu_started = time.perf_counter(), time.process_time()
        result = search.run(Limit(iterations=iterations))
        spent += time.perf_counter() - started
        cpu_spent += time.process_time() - cpu_started
        done += result.stats.iterations
    return Rate(spent, cpu_spent, playouts=done, iterations=done)


def measure_speed(scale: Scale) -> BenchTable:
    """Iterations per CPU second of each, OpenSpiel's Python bot beside our Python MCTS, its C++ bot beside our
    compiled MCTS, at the same iterations a position."""
    table = BenchTable(
        "MCTS against OpenSpiel's MCTSBot at equal work: the same iterations on the same Connect Four positions",
        ["searcher", "exploration", "iterations a position", "iter/s", "iter/CPU s", "x OpenSpiel"],
    )
    pairs = (
        ("OpenSpiel Python", openspiel_rate(scale.python_iterations, native=False)),
        ("mcts k=1 (Python)", plyscope_rate(scale.python_iterations, compiled=False)),
        ("OpenSpiel C++", openspiel_rate(scale.native_iterations, native=True)),
        ("mcts k=1 compiled", plyscope_rate(scale.native_iterations, compiled=True)),
    )
    for index, (name, rate) in enumerate(pairs):
        speed = rate.per_cpu_second(rate.iterations)
        peer = pairs[index - index % 2][1]  # the OpenSpiel row of the pair (itself for an OpenSpiel row)
        table.rows.append(
            [
                name,
                f"c {OPENSPIEL_C:g}, rewards -1..1" if index % 2 == 0 else f"c {MATCHED_C:g}, rewards 0..1",
                round(rate.iterations / len(SPEED_POSITIONS)),
                round(rate.per_second(rate.iterations)),
                round(speed),
                round(speed / peer.per_cpu_second(peer.iterations), 1),
            ]
        )
    table.notes += [
        "positions: the start and " + ", ".join(POSITIONS) + " (Pons' Begin-Medium 1-3 and Middle-Medium 1-2);"
        f" a fresh search of the same number of iterations on each (seed {SEED})",
        f"matched exploration: UCB1 = mean + c sqrt(ln N / n) on both sides; OpenSpiel's mean is 2m - 1 of ours (m),"
        f" so its c {OPENSPIEL_C:g} selects exactly as our c {MATCHED_C:g}",
        "both plain UCT with one random playout per new leaf (OpenSpiel: solve=False, RandomRolloutEvaluator(1));"
        " x OpenSpiel: iterations per CPU second over the OpenSpiel row above it (Python beside Python, compiled"
        " beside C++); /CPU s: per second of this process's CPU time",
    ]
    return table


@dataclass(slots=True)
class Match:
    """Games of our MCTS agent against the C++ ``MCTSBot``, from our point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    plyscope_cpu: float = 0.0
    plyscope_moves: int = 0
    openspiel_cpu: float = 0.0
    openspiel_moves: int = 0

    def tally(self) -> Tally:
        return Tally(PLYSCOPE, OPENSPIEL, self.wins, self.draws, self.losses)


def play_game(
    opening: tuple[int, ...], plyscope_first: bool, seed: int, iterations: int, simulations: int, match: Match
) -> float:
    """One game from ``opening``: our agent (``MATCHED_C``, ``iterations`` a move) against the C++ bot
    (``simulations`` a move), each searching afresh every turn with a seed drawn from ``seed`` and the ply;
    counted in ``match``.  Our points: 1, 1/2 or 0."""
    import pyspiel

    game = pyspiel.load_game("connect_four")
    agent = Agent.parse(f"mcts:c={MATCHED_C:g}", Limit(moves=iterations), PLYSCOPE)
    state: Connect4State = Connect4().start()
    theirs = game.new_initial_state()
    for move in opening:
        state = state.play(move)
        theirs.apply_action(move)
    ours = 1 if plyscope_first else -1
    while not state.is_terminal():
        turn = turn_seed(seed, state.ply)
        started = time.process_time()
        if state.player == ours:
            decided = agent.decide(state, turn).move
            assert isinstance(decided, int)
            move = decided
            match.plyscope_cpu += time.process_time() - started
            match.plyscope_moves += 1
        else:
            move = int(_cpp_bot(game, simulations, turn).step(theirs))
            match.openspiel_cpu += time.process_time() - started
            match.openspiel_moves += 1
        state = state.play(move)
        theirs.apply_action(move)
    points = {ours: 1.0, 0: 0.5, -ours: 0.0}[state.utility()]
    match.wins += points == 1.0
    match.draws += points == 0.5
    match.losses += points == 0.0
    return points


def _columns(opening: tuple[Move, ...]) -> tuple[int, ...]:
    """A Connect Four opening's moves: columns, from 0."""
    columns = tuple(move for move in opening if isinstance(move, int))
    assert len(columns) == len(opening)
    return columns


def play_match(openings: list[tuple[int, ...]], iterations: int, simulations: int) -> tuple[Match, Pentanomial]:
    """Each opening twice, colours swapped; the games' counts and the pairs' points (ours)."""
    match = Match()
    points = []
    for index, opening in enumerate(openings):
        pair = 0.0
        for first in (0, 1):  # 0: ours moves first
            seed = game_seed(SEED, 0, (0, 1), index, first)
            pair += play_game(opening, first == 0, seed, iterations, simulations, match)
        points.append(pair)
    return match, Pentanomial.of_points(points)


def measure_strength(scale: Scale) -> BenchTable:
    """Two short matches against the C++ bot: at equal iterations a move, then at equal CPU time a move (ours
    given as many more iterations as its CPU time a move was less in the first match)."""
    table = BenchTable(
        "MCTS agent against OpenSpiel's C++ MCTSBot: short matches on balanced openings, colours swapped",
        ["match", "iterations a move", "games", "W-D-L", "score", "score 95%", "Elo (pairs)", "CPU ms a move"],
    )
    game = Connect4()
    chosen = balanced_openings(game, two_move_openings(game), scale.match_openings, SEED)
    openings = [_columns(opening) for opening in chosen]
    simulations = scale.match_iterations
    equal, equal_pairs = play_match(openings, simulations, simulations)
    ours_ms = equal.plyscope_cpu / max(equal.plyscope_moves, 1)
    theirs_ms = equal.openspiel_cpu / max(equal.openspiel_moves, 1)
    timed_iterations = max(1, round(simulations * theirs_ms / max(ours_ms, 1e-9)))
    timed, timed_pairs = play_match(openings, timed_iterations, simulations)
    for name, iterations, match, pairs in (
        ("equal iterations", simulations, equal, equal_pairs),
        ("equal CPU time", timed_iterations, timed, timed_pairs),
    ):
        tally = match.tally()
        low, high = tally.interval() or (float("nan"), float("nan"))
        estimate = pairs.estimate()
        table.rows.append(
            [
                name,
                f"{iterations:,} / {simulations:,}",
                tally.games,
                f"{tally.wins}-{tally.draws}-{tally.losses}",
                round(tally.score() or 0.0, 3),
                f"{low:.2f}..{high:.2f}",
                "-" if estimate is None else f"{signed(estimate.elo)} +/- {estimate.error:.0f}",
                f"{1000 * match.plyscope_cpu / max(match.plyscope_moves, 1):.1f}"
                f" / {1000 * match.openspiel_cpu / max(match.openspiel_moves, 1):.1f}",
            ]
        )
    table.notes += [
        f"ours: plyscope's mcts agent (compiled, c {MATCHED_C:g}, one playout a leaf); theirs: the C++ MCTSBot"
        f" (c {OPENSPIEL_C:g}, solve=False, one rollout a simulation); each searches afresh every turn, seeded"
        f" from the game's seed (run seed {SEED}) and the ply",
        f"openings: the {len(openings)} two-move openings nearest a draw ("
        + ", ".join("".join(str(m + 1) for m in o) for o in openings)
        + "), each played twice, colours swapped; W-D-L, score and Elo are ours",
        "equal CPU time: ours gets the iterations that make its CPU time a move that of the C++ bot's, as measured"
        " in the equal-iterations match; iterations a move and CPU ms a move: ours / theirs",
        "score 95%: Wilson's interval over games; Elo (pairs): the pentanomial estimate with half its 95% interval"
        " (as plyscope arena prints it)",
    ]
    return table

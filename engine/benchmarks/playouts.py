"""Random playout and MCTS speed on a fixed set of Connect Four midgame positions.

The positions are the first three of Pons' Begin-Medium set and the first two of his
Middle-Medium set (``shared/data/connect4-pons``: 10 to 16 stones, the game far from
decided), written here so that the bench needs no data files.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.games import Connect4, Connect4State
from plyscope.engine.games.connect4_playouts import connect4_batch, connect4_playout
from plyscope.engine.search.base import Limit
from plyscope.engine.search.montecarlo.mcts import MonteCarloTreeSearch
from plyscope.engine.search.stream import RandomStream

if TYPE_CHECKING:
    from plyscope.engine.compiled.base import CompiledSearch

POSITIONS = ("32751571231557", "335662333565", "2416615552", "274552224131661", "5455174361263362")
"""Pons move strings (Begin-Medium lines 1-3, Middle-Medium lines 1-2)."""

SEED = 2024
CPU_NOTE = "/s: per wall-clock second; /CPU s: per second of this process's CPU time (what a shared machine gave it)"


def positions() -> list[Connect4State]:
    game = Connect4()
    return [game.parse(text) for text in POSITIONS]


def positions_note() -> str:
    return f"positions: {', '.join(POSITIONS)} (Pons' Begin-Medium 1-3 and Middle-Medium 1-2)"


@dataclass(frozen=True, slots=True)
class Rate:
    """Work done in a measured stretch of time."""

    seconds: float
    """Wall-clock seconds."""
    cpu_seconds: float
    """Seconds of this process's CPU time: on a shared machine, the time it really ran."""
    playouts: int = 0
    moves: int = 0
    """Moves played in playouts."""
    iterations: int = 0

    def per_second(self, amount: int) -> float:
        return amount / self.seconds if self.seconds else 0.0

    def per_cpu_second(self, amount: int) -> float:
        return amount / self.cpu_seconds if self.cpu_seconds else 0.0


def plain_playouts(seconds: float) -> Rate:
    """Plain-Python bitboard playouts, cycling through the positions for about ``seconds``."""
    stream = RandomStream(SEED)
    states = positions()
    playouts = moves = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for state in states:
            for _ in range(20):
                moves += connect4_playout(state, stream)[1]
            playouts += 20
    return Rate(time.perf_counter() - started, time.process_time() - cpu_started, playouts, moves)


def batched_playouts(size: int, seconds: float) -> Rate:
    """Numpy batches of ``size`` playouts, cycling through the positions for about ``seconds``."""
    stream = RandomStream(SEED)
    states = positions()
    batch = connect4_batch(states[0].game)
    playouts = moves = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for state in states:
            moves += batch.run(state, size, stream).moves
            playouts += size
    return Rate(time.perf_counter() - started, time.process_time() - cpu_started, playouts, moves)


def mcts_rate(k: int, seconds_per_position: float, *, compiled: bool = False) -> Rate:
    """MCTS (c = 1.4) with ``k`` playouts per leaf, a fresh search of ``seconds_per_position`` on each position
    (``compiled``: its compiled twin, ``k`` 1)."""
    iterations = playouts = moves = 0
    spent = cpu_spent = 0.0
    for state in positions():
        search: MonteCarloTreeSearch | CompiledSearch = MonteCarloTreeSearch(state, seed=SEED, k=k)
        if compiled:
            from plyscope.engine.search.montecarlo.twin import CompiledMcts

            assert isinstance(search, MonteCarloTreeSearch)
            search = CompiledMcts(search)
        cpu_started = time.process_time()
        result = search.run(Limit(seconds=seconds_per_position))
        cpu_spent += time.process_time() - cpu_started
        iterations += result.stats.iterations
        playouts += result.stats.playouts
        moves += result.stats.playout_moves
        spent += result.stats.seconds
    return Rate(spent, cpu_spent, playouts, moves, iterations)


def measure(quick: bool) -> list[BenchTable]:
    seconds = 0.4 if quick else 2.0
    plain = plain_playouts(seconds)
    playout_table = BenchTable(
        "Random Connect Four playouts: numpy uint64 batches vs plain Python on int bitboards",
        ["engine", "batch", "playouts", "per s", "per CPU s", "moves per CPU s", "x plain"],
    )
    plain_speed = plain.per_cpu_second(plain.playouts)
    playout_table.rows.append(
        [
            "plain Python",
            1,
            plain.playouts,
            round(plain.per_second(plain.playouts)),
            round(plain_speed),
            round(plain.per_cpu_second(plain.moves)),
            1.0,
        ]
    )
    for size in (32, 256, 4096) if quick else (32, 256, 1024, 4096, 16384):
        rate = batched_playouts(size, seconds)
        speed = rate.per_cpu_second(rate.playouts)
        playout_table.rows.append(
            [
                "numpy",
                size,
                rate.playouts,
                round(rate.per_second(rate.playouts)),
                round(speed),
                round(rate.per_cpu_second(rate.moves)),
                round(speed / plain_speed, 1),
            ]
        )
    playout_table.notes.append(positions_note())
    playout_table.notes.append(CPU_NOTE)

    mcts_table = BenchTable(
        "MCTS on Connect Four midgame positions (c = 1.4)",
        ["k", "iterations", "playouts", "iter/s", "iter/CPU s", "playouts/s", "playouts/CPU s"],
    )
    for k in (1, 32, 256):
        rate = mcts_rate(k, seconds / 2)
        mcts_table.rows.append(
            [
                k,
                rate.iterations,
                rate.playouts,
                round(rate.per_second(rate.iterations)),
                round(rate.per_cpu_second(rate.iterations)),
                round(rate.per_second(rate.playouts)),
                round(rate.per_cpu_second(rate.playouts)),
            ]
        )
    mcts_table.notes.append(positions_note() + f"; a fresh search of {seconds / 2:g} s on each")
    mcts_table.notes.append("k = 1: one plain-Python playout per iteration; k > 1: one numpy batch of k per iteration")
    mcts_table.notes.append(CPU_NOTE)
    return [playout_table, mcts_table]

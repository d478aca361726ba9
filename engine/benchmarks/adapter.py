"""The OpenSpiel adapter's speed beside plyscope's own Connect Four, on the same positions: moves per second through
the ``State`` interface (perft, as the ``rules`` section counts it) and in random playouts (each kit's own, as
MCTS plays them).  Without OpenSpiel (the extra ``plyscope[openspiel]``) the table is one row saying so."""

from __future__ import annotations

import importlib.util
import time

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.benchmarks.peers import loaded
from plyscope.engine.benchmarks.rules import perft
from plyscope.engine.games.base import Game
from plyscope.engine.kits import kit_of, make_game
from plyscope.engine.kits.playouts import SeededDraws, state_playout

POSITIONS = ("", "4453322", "44444433333")
"""Connect Four positions in the native notation (columns 1-7): the start, an opening and a midgame."""
PLAYOUTS = 2000
"""Random playouts from each position (``--quick``: a quarter)."""
COLUMNS = ["position", "game", "perft leaves/s", "perft x native", "playout moves/s", "playouts x native"]


def spiel_line(line: str) -> str:
    """The native move string ``line`` as OpenSpiel's actions (column - 1)."""
    return " ".join(str(int(column) - 1) for column in line)


def rates(game: Game, position: str, depth: int, playouts: int) -> tuple[float, float]:
    """Moves per second through ``State.play`` in perft to ``depth``, and in ``playouts`` random playouts (the kit's
    own where it has them), from ``position``."""
    state = game.parse(position)
    started = time.perf_counter()
    leaves = perft(state, depth)
    perft_rate = leaves / (time.perf_counter() - started)
    fast = kit_of(game).playouts(game)
    draws = SeededDraws(1)
    moves = 0
    started = time.perf_counter()
    for _ in range(playouts):
        moves += (state_playout(state, draws) if fast is None else fast.one(state, draws))[1]
    return perft_rate, moves / (time.perf_counter() - started)


def measure(quick: bool) -> list[BenchTable]:
    return loaded(lambda: [adapter_table(quick)])


def adapter_table(quick: bool) -> BenchTable:
    """The table: each position's rates natively, then through the adapter, and the adapter's as a share."""
    depth = 5 if quick else 7
    playouts = PLAYOUTS // 4 if quick else PLAYOUTS
    title = f"The OpenSpiel adapter beside native Connect Four (the same positions; perft to depth {depth})"
    table = BenchTable(title, COLUMNS)
    if importlib.util.find_spec("pyspiel") is None:
        table.rows.append(["OpenSpiel is not installed", *("-" for _ in COLUMNS[1:])])
        table.notes.append("install the optional extra openspiel to measure it: pip install 'plyscope[openspiel]'")
        return table
    native, spiel = make_game("connect4"), make_game("openspiel:connect_four")
    for position in POSITIONS:
        native_perft, native_playouts = rates(native, position, depth, playouts)
        spiel_perft, spiel_playouts = rates(spiel, spiel_line(position), depth, playouts)
        shown = position or "start"
        table.rows.append([shown, native.name, round(native_perft), 1.0, round(native_playouts), 1.0])
        table.rows.append(
            [
                shown,
                spiel.name,
                round(spiel_perft),
                round(spiel_perft / native_perft, 3),
                round(spiel_playouts),
                round(spiel_playouts / native_playouts, 3),
            ]
        )
    table.notes.append(
        "perft: every line to the depth through State.play, the last ply's moves counted, not played (the adapter "
        "clones OpenSpiel's state at each move); "
        "playouts: the native game's on bitboards, the adapter's on one OpenSpiel state a playout"
    )
    return table

"""Connect Four's kit: the 7x6 board and every board from 4x4 to 10x10, valued exactly by Pons' solver.

Exact values are Pons' scores for the player to move (``plyscope.engine.solver``: ``0`` a draw, ``s > 0`` the player
to move wins with their ``s``-th-to-last stone), found by ``plyscope.engine.solver.values.Connect4Values`` within a
budget of solver nodes.  Its evaluators are Rivest's (1988, the default), the threat heuristic, the weighted
features (which ``plyscope tune`` fits) and the neutral one.
"""

from __future__ import annotations

import re

from plyscope.engine.games.base import Game, Move, State
from plyscope.engine.games.connect4 import Connect4, Connect4State
from plyscope.engine.games.connect4_playouts import Connect4Playouts
from plyscope.engine.games.evaluators import (
    Evaluator,
    FeatureEvaluator,
    RivestEvaluator,
    ThreatEvaluator,
    parse_weights,
)
from plyscope.engine.kits.base import ExactValues, FastPlayouts, GameKit
from plyscope.engine.solver.values import Connect4Values

SIZE = re.compile(r"connect4:([0-9]+)x([0-9]+)")


class Connect4Kit(GameKit):
    name = "connect4"
    summary = "Connect Four on 7x6 (or any board from 4x4 to 10x10): exact values by Pons' solver"
    positions = "Pons' move string, the columns played from 1: 4453 ('' or - the empty board)"
    player_names = ("first player (X)", "second player (O)")
    position_hint = "move string, e.g. 4453 (blank: empty board)"
    board = "connect4"

    def names(self) -> tuple[str, ...]:
        return ("connect4", "connect4:WxH")

    def choices(self) -> tuple[str, ...]:
        return ("connect4", "connect4:4x4", "connect4:5x4", "connect4:6x5", "connect4:8x7")

    def make(self, name: str) -> Game | None:
        if name == "connect4":
            return Connect4()
        size = SIZE.fullmatch(name)
        return Connect4.written(*size.groups()) if size else None

    def key_fixes_ply(self, game: Game) -> bool:
        return True

    def playouts(self, game: Game) -> FastPlayouts:
        return Connect4Playouts()

    def evaluators(self, game: Game) -> tuple[str, ...]:
        return ("rivest", "threats", "features", "neutral", "playouts")

    def evaluator(self, game: Game, name: str, *, weights: str = "") -> Evaluator:
        assert isinstance(game, Connect4)
        if name == "features":
            return FeatureEvaluator(game, parse_weights(weights))
        if name == "rivest":
            return RivestEvaluator(game)
        return ThreatEvaluator(game) if name == "threats" else super().evaluator(game, name)

    def features(self, game: Game) -> Connect4:
        assert isinstance(game, Connect4)
        return game

    def exact(self, game: Game) -> ExactValues:
        assert isinstance(game, Connect4)
        return Connect4Values(game)

    def fallback_move(self, state: State) -> Move:
        """The playable column nearest the centre (the left one of two equally near)."""
        assert isinstance(state, Connect4State)
        centre = (state.game.width - 1) / 2
        return min(state.legal_moves(), key=lambda column: (abs(column - centre), column))


KITS = (Connect4Kit(),)

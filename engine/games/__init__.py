"""Games' rules: Connect Four (also with chance), the Nim family and hand-written trees, behind the ``State`` and
``Game`` interfaces.  Everything else plyscope asks of a game (its names on the command line, ``make_game``, its
evaluators, exact values...) is its kit's: ``plyscope.engine.kits``."""

from __future__ import annotations

from plyscope.engine.games.base import (
    CHANCE,
    ChanceState,
    Game,
    Move,
    Player,
    PositionError,
    State,
    is_chance,
    outcome_probability,
)
from plyscope.engine.games.chance import ChanceDrop, Connect4Chance, Connect4ChanceState
from plyscope.engine.games.connect4 import Connect4, Connect4State
from plyscope.engine.games.nim import Nim, NimState
from plyscope.engine.games.tree import TreeGame, TreeState

__all__ = [
    "CHANCE",
    "ChanceDrop",
    "ChanceState",
    "Connect4",
    "Connect4Chance",
    "Connect4ChanceState",
    "Connect4State",
    "Game",
    "Move",
    "Nim",
    "NimState",
    "Player",
    "PositionError",
    "State",
    "TreeGame",
    "TreeState",
    "is_chance",
    "outcome_probability",
]

"""Games: Connect Four (also with chance), the Nim family and hand-written trees, behind the ``State`` and ``Game``
interfaces."""

from __future__ import annotations

import re

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
from plyscope.engine.games.chance import ChanceDrop, Connect4Chance, Connect4ChanceState, parse_chance_game
from plyscope.engine.games.connect4 import Connect4, Connect4State
from plyscope.engine.games.nim import Nim, NimState
from plyscope.engine.games.tree import TreeGame, TreeState
from plyscope.engine.numbers import shown

GAME_NAMES = ("connect4", "connect4-chance", "grundy", "nim", "nim-misere", "tree")
"""The names ``make_game`` takes; ``connect4:WxH`` picks another board size, ``connect4-chance:...`` other
sizes and probabilities (``plyscope.engine.games.chance``)."""
GAME_CHOICES = (
    "connect4",
    "connect4:4x4",
    "connect4:5x4",
    "connect4:6x5",
    "connect4:8x7",
    "connect4-chance",
    "connect4-chance:5x4",
    "grundy",
    "nim",
    "nim-misere",
    "tree",
)
"""The games a menu offers: every game, and Connect Four on a few other boards (the small ones solve at once)."""


def make_game(name: str) -> Game:
    """The game called ``name``: ``connect4`` (7x6), ``connect4:6x5``, ``connect4-chance`` (and
    ``connect4-chance:5x4:0.5,0.25``), ``grundy``, ``nim``, ``nim-misere`` or ``tree`` (its start: the classic
    three-by-three tree; its positions are hand-written trees, ``plyscope.engine.games.tree``)."""
    chance = parse_chance_game(name)
    if chance is not None:
        return chance
    size = re.fullmatch(r"connect4:([0-9]+)x([0-9]+)", name)
    if size:
        return Connect4.written(*size.groups())
    if name == "connect4":
        return Connect4()
    if name == "grundy":
        return Nim("grundy")
    if name == "nim":
        return Nim("classic")
    if name == "nim-misere":
        return Nim("classic", misere=True)
    if name == "tree":
        return TreeGame.built_in()
    raise PositionError(
        f"unknown game '{shown(name)}': choose one of {', '.join(GAME_NAMES)} "
        "(or connect4:WxH, connect4-chance:WxH:KEEP,SIDE)"
    )


__all__ = [
    "CHANCE",
    "GAME_CHOICES",
    "GAME_NAMES",
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
    "make_game",
    "outcome_probability",
]

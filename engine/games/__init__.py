"""Games: Connect Four and the Nim family, behind the ``State`` and ``Game`` interfaces."""

from __future__ import annotations

import re

from engine.games.base import Game, Move, Player, PositionError, State
from engine.games.connect4 import Connect4, Connect4State
from engine.games.nim import Nim, NimState

GAME_NAMES = ("connect4", "grundy", "nim", "nim-misere")
"""The names ``make_game`` takes; ``connect4:WxH`` picks another board size."""
GAME_CHOICES = (
    "connect4", "connect4:4x4", "connect4:5x4", "connect4:6x5", "connect4:8x7", "grundy", "nim", "nim-misere",
)
"""The games a menu offers: every game, and Connect Four on a few other boards (the small ones solve at once)."""


def make_game(name: str) -> Game:
    """The game called ``name``: ``connect4`` (7x6), ``connect4:6x5``, ``grundy``, ``nim`` or ``nim-misere``."""
    size = re.fullmatch(r"connect4:(\d+)x(\d+)", name)
    if size:
        return Connect4(int(size.group(1)), int(size.group(2)))
    if name == "connect4":
        return Connect4()
    if name == "grundy":
        return Nim("grundy")
    if name == "nim":
        return Nim("classic")
    if name == "nim-misere":
        return Nim("classic", misere=True)
    raise PositionError(f"unknown game '{name}': choose one of {', '.join(GAME_NAMES)} (or connect4:WxH)")


__all__ = [
    "GAME_CHOICES",
    "GAME_NAMES",
    "Connect4",
    "Connect4State",
    "Game",
    "Move",
    "Nim",
    "NimState",
    "Player",
    "PositionError",
    "State",
    "make_game",
]

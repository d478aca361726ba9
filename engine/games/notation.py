"""Moves as text: a Pons move string for Connect Four (``4453``), move labels separated by spaces otherwise.

Saved games, arena results and files of openings write a game's moves so (``spell``) and read them back
(``read_moves``).
"""

from __future__ import annotations

from collections.abc import Sequence

from plyscope.engine.errors import UserError
from plyscope.engine.games.base import Move, PositionError, State
from plyscope.engine.games.connect4 import Connect4, Connect4State
from plyscope.engine.numbers import shown


def spell(state: State, moves: Sequence[Move]) -> str:
    """``moves`` played from ``state`` as text: a Pons move string for Connect Four, labels otherwise."""
    labels = []
    for move in moves:
        labels.append(state.move_label(move))
        state = state.play(move)
    return ("" if isinstance(state.game, Connect4) else " ").join(labels)


def read_moves(start: State, text: str) -> list[Move]:
    """The moves ``text`` spells from ``start`` (as ``spell`` writes them); raises ``PositionError`` at the
    first one that cannot be played."""
    words = list(text.replace(" ", "")) if isinstance(start, Connect4State) else text.split()
    moves: list[Move] = []
    state = start
    for index, word in enumerate(words, start=1):
        if state.is_terminal():
            raise PositionError(f"move {index} ('{shown(word)}'): the game was already over after move {index - 1}")
        if isinstance(state, Connect4State):
            move: Move = state.parse_move(word, index=index)
        else:
            try:
                move = state.parse_move(word)
            except UserError as error:
                raise PositionError(f"move {index}: {error}") from None
        moves.append(move)
        state = state.play(move)
    return moves

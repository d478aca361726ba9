"""Exact values of a position and of each of its moves, for ``plyscope solve``.

Points of view: a position's ``score`` is for its **player to move**; a move's score is for
the player who **plays** it (minus the score of the position it leads to).

* Connect Four: Pons' scores (``engine.search.solver``): ``0`` draw, ``s > 0`` the player
  wins with their ``s``-th-to-last possible stone, ``s < 0`` the other player does.
* Nim games: ``+1`` the player wins, ``-1`` they lose, with perfect play on both sides.
  Grundy's game is valued by Sprague-Grundy numbers (the XOR of the piles' numbers is 0
  exactly for a loss), classic Nim by the XOR of the piles, and misère Nim by Bouton's
  rule (when every pile has one token, the player to move wins exactly when the number of
  piles is even; otherwise as in normal play).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache, reduce
from operator import xor

from engine.games.base import PositionError, State
from engine.games.connect4 import Connect4State
from engine.games.nim import NimState
from engine.search.solver import Connect4Solver

NIM_WIN = 1
NIM_LOSS = -1


@dataclass(frozen=True, slots=True)
class Solution:
    """The exact value of a position and of each legal move, with what it cost."""

    game: str
    position: str
    player: int
    """The player to move in ``position``: +1 first, -1 second."""
    score: int
    """For the player to move in ``position``."""
    moves: dict[str, int]
    """Move label -> score for the player who plays that move (Connect Four: columns left to right)."""
    nodes: int
    """Connect Four: Pons' negamax nodes; Nim: positions valued (the position and its children)."""
    seconds: float

    @property
    def best_moves(self) -> list[str]:
        """The moves that keep the position's score."""
        return [label for label, score in self.moves.items() if score == self.score]

    def as_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "position": self.position,
            "player": self.player,
            "score": self.score,
            "moves": self.moves,
            "best_moves": self.best_moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def solve_position(state: State) -> Solution:
    """Solve ``state`` exactly; raises ``PositionError`` when the game is already over."""
    if state.is_terminal():
        raise PositionError(f"the game is already over in position '{state.text() or '-'}': there is nothing to solve")
    started = time.perf_counter()
    if isinstance(state, Connect4State):
        solver = Connect4Solver(state.game)
        by_column = solver.move_scores(state)
        moves = {state.move_label(column): by_column[column] for column in sorted(by_column)}
        nodes = solver.nodes
    elif isinstance(state, NimState):
        moves = {state.move_label(move): -nim_score(state.play(move)) for move in state.legal_moves()}
        nodes = 1 + len(moves)
    else:
        raise PositionError(f"no exact solver for the game {state.game.name}")
    score = max(moves.values())
    return Solution(state.game.name, state.text(), state.player, score, moves, nodes, time.perf_counter() - started)


@cache
def grundy_number(pile: int) -> int:
    """The Sprague-Grundy number of one pile in Grundy's game (split into two unequal piles)."""
    options = {grundy_number(part) ^ grundy_number(pile - part) for part in range(pile // 2 + 1, pile)}
    number = 0
    while number in options:
        number += 1
    return number


def nim_score(state: NimState) -> int:
    """``+1`` when the player to move in ``state`` wins with perfect play, ``-1`` when they lose."""
    if state.is_terminal():
        return NIM_WIN if state.winner() == state.player else NIM_LOSS
    game = state.game
    if game.variant == "grundy":
        for pile in range(1, max(state.piles) + 1):  # fill the cache bottom-up: no deep recursion
            grundy_number(pile)
        wins = reduce(xor, (grundy_number(pile) for pile in state.piles), 0) != 0
    elif game.misere and max(state.piles) == 1:
        wins = len(state.piles) % 2 == 0
    else:
        wins = reduce(xor, state.piles, 0) != 0
    return NIM_WIN if wins else NIM_LOSS

"""Random playouts for Monte Carlo search: through the ``State`` interface, or the game's own fast ones.

A playout plays uniformly random legal moves from a position to the end of the game.
Every result here is a **winner from the first player's point of view**: ``+1`` the
first player won, ``-1`` the second, ``0`` a draw.

All of them draw from a ``RandomStream`` (``plyscope.engine.search.stream``): a seeded sequence of
floats that can be wound back, so that a search can take a step back exactly.

* ``state_playout`` (``plyscope.engine.kits.playouts``, where the ``playouts`` evaluator uses it too) plays
  through the ``State`` interface (Nim, and any other game): one draw ``r`` per move, picking
  ``legal_moves()[int(r * count)]``.
* A game's kit may offer playouts of its own that draw alike (``GameKit.playouts``, a
  ``FastPlayouts``): Connect Four's play on raw bitboards, and many at once as numpy
  batches (``plyscope.engine.games.connect4_playouts``); ``Playouts`` uses them where the
  game has them.
"""

from __future__ import annotations

from dataclasses import dataclass

from plyscope.engine.games.base import Game, Player, State
from plyscope.engine.kits import kit_of
from plyscope.engine.kits.base import FastPlayouts
from plyscope.engine.kits.playouts import state_playout
from plyscope.engine.search.stream import RandomStream


@dataclass(frozen=True, slots=True)
class Tally:
    """How a set of playouts ended, counted for one player."""

    wins: int
    draws: int
    losses: int
    moves: int
    """Moves played in all the playouts together."""

    def score(self) -> float:
        """Win 1, draw 0.5, loss 0, summed."""
        return self.wins + 0.5 * self.draws


class Playouts:
    """Random playouts for one game, drawing on an injected seeded ``RandomStream``: the game's own fast ones where its
    kit offers them (``GameKit.playouts``: bitboards, numpy batches), else through ``State.play``."""

    def __init__(self, stream: RandomStream) -> None:
        self.stream = stream
        self._game: Game | None = None
        """The game ``_fast`` serves (a searcher's states are all of one game)."""
        self._fast: FastPlayouts | None = None

    def _fast_for(self, game: Game) -> FastPlayouts | None:
        if game is not self._game:
            self._game, self._fast = game, kit_of(game).playouts(game)
        return self._fast

    def one(self, state: State) -> tuple[Player, int]:
        """One playout from ``state``: (winner, moves played)."""
        fast = self._fast_for(state.game)
        return state_playout(state, self.stream) if fast is None else fast.one(state, self.stream)

    def many(self, state: State, count: int, player: Player) -> Tally:
        """``count`` playouts from ``state``, counted for ``player``: one numpy batch where the game has them."""
        fast = self._fast_for(state.game)
        batch = fast.many(state, count, self.stream) if fast is not None and count > 1 else None
        if batch is not None:
            import numpy as np

            winners, moves = batch
            wins = int(np.count_nonzero(winners == player))
            draws = int(np.count_nonzero(winners == 0))
            return Tally(wins, draws, count - wins - draws, moves)
        wins = draws = moves = 0
        for _ in range(count):
            winner, played = self.one(state)
            moves += played
            wins += winner == player
            draws += winner == 0
        return Tally(wins, draws, count - wins - draws, moves)

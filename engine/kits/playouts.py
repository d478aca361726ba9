"""Random playouts through any game's ``State`` interface, and the ``playouts`` evaluator built on them.

A playout plays uniformly random legal moves from a position to the end of the game; its result is the **winner
from the first player's point of view** (``+1`` the first player, ``-1`` the second, ``0`` a draw).

* ``state_playout`` plays through ``State.play`` with one draw per move: ``legal_moves()[int(r * count)]``, and at a
  chance node the outcome a draw picks (``outcome_for``).  A kit's own playouts (``GameKit.playouts``) draw alike.
* ``PlayoutEvaluator`` (``eval=playouts``) values a position by the mean of a few random playouts from it, seeded by
  the position itself (the same position gets the same value in every search and every process): for a game with
  no heuristic of its own (OpenSpiel's games by default), where a searcher needs an evaluator (alpha-beta at a
  depth, best-first, Rivest's).  It costs ``PLAYOUTS`` games played to the end per call: CPU time per call on
  OpenSpiel's Connect Four 0.08 ms, 8x8 breakthrough 0.4 ms, hex 0.6 ms, chess 7 ms (GUIDE.md, "Games").
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from plyscope.engine.games.base import Draws, Player, State, is_chance
from plyscope.engine.games.evaluators import finished_on_rivest_scale

if TYPE_CHECKING:
    import numpy as np


PLAYOUTS = 4
"""Random playouts a ``PlayoutEvaluator`` plays per position."""
EVEN = 512.0
"""The value of an even position on Rivest's 1..1023 scale (the neutral evaluator's)."""
SPREAD = 510.0
"""How far the playouts' mean result (-1 to 1) moves a value from ``EVEN``: open positions stay in 2..1022, inside
the finished games' values (``finished_on_rivest_scale``)."""


def state_playout(state: State, draws: Draws) -> tuple[Player, int]:
    """One random game from ``state`` through ``State.play``: (winner, moves played); one draw per move, a chance
    node's outcome drawn with its probability (``outcome_for``)."""
    draw = draws.draw
    played = 0
    while not state.is_terminal():
        if is_chance(state):
            state = state.play(state.outcome_for(draw()))
        else:
            moves = state.legal_moves()
            state = state.play(moves[int(draw() * len(moves))])
        played += 1
    return state.utility(), played


class SeededDraws:
    """``Draws`` from Python's generator seeded once (an evaluator's playouts: nothing to wind back)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self.next = self._random.random
        self.draw = self._random.random
        self.left: Callable[[], int] = lambda: 1 << 62
        """Draws ``next`` gives before a ``reserve``: no end."""

    def reserve(self, count: int) -> None:
        return None

    def numpy(self) -> np.random.Generator:
        import numpy as np

        return np.random.default_rng(self._random.getrandbits(64))

    def skip(self, count: int) -> None:
        return None


def position_seed(state: State) -> int:
    """A seed that is a function of ``state``'s position alone, the same in every process (``hash`` of a string is
    not)."""
    return zlib.crc32(repr(state.key()).encode())


class PlayoutEvaluator:
    """The mean result of ``count`` random playouts from the position, seeded by it, on Rivest's 1..1023 scale as the
    neutral evaluator's (512 even, ``512 + 510 * mean``), a finished game valued as the neutral evaluator values it
    (its length as thousandths).  From the first player's point of view."""

    name = "playouts"
    lo = 1.0
    hi = 1023.0

    def __init__(self, fast: Callable[[State, Draws], tuple[Player, int]] | None, count: int = PLAYOUTS) -> None:
        """``fast``: one playout of the game's own (``GameKit.playouts``' ``one``), ``None``: through ``State.play``."""
        self.count = count
        self._fast = fast

    def __call__(self, state: State) -> float:
        winner = state.winner()
        if winner is not None:
            return finished_on_rivest_scale(winner, state.ply)
        draws = SeededDraws(position_seed(state))
        fast = self._fast
        total = 0
        for _ in range(self.count):
            total += (state_playout(state, draws) if fast is None else fast(state, draws))[0]
        return EVEN + SPREAD * total / self.count

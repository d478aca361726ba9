"""The Nim games' kit: Grundy's game, classic Nim and misère Nim, valued exactly by theory.

Exact values (``NimValues``), for the player to move: ``+1`` a win, ``-1`` a loss.  Classic Nim by Bouton's rule
(1901): the player to move loses exactly when the XOR of the piles (their nim-sum) is 0; misère Nim likewise, except
that when every pile has one token the player to move wins exactly when the number of piles is even.  Grundy's game
by the XOR of the piles' Sprague-Grundy numbers (Berlekamp, Conway and Guy, *Winning Ways*, 1982).
"""

from __future__ import annotations

from functools import cache, reduce
from operator import xor

from plyscope.engine.games.base import Game, State
from plyscope.engine.games.nim import Nim, NimState
from plyscope.engine.kits.base import ExactValues, GameKit, Number, Truth
from plyscope.engine.pov import PovScore

NIM_WIN = 1
NIM_LOSS = -1


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


class NimValues(ExactValues):
    """The Nim games' exact values, at once: ``+1`` the player to move wins, ``-1`` they lose."""

    legend = "+1 win, -1 loss"

    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        assert isinstance(state, NimState)
        return Truth(PovScore(nim_score(state), state.player))


class NimKit(GameKit):
    name = "nim"
    summary = "Grundy's game, classic Nim and misère Nim: exact values by theory (nim-sums, Sprague-Grundy numbers)"
    positions = "the piles: 7, 3,4,5 or 3 4 5 (the first player to move; /2 after them: the second)"
    position_hint = "piles, e.g. 3,4,5 (blank: start)"
    board = "nim"

    def names(self) -> tuple[str, ...]:
        return ("grundy", "nim", "nim-misere")

    def make(self, name: str) -> Game | None:
        if name == "grundy":
            return Nim("grundy")
        if name == "nim":
            return Nim("classic")
        if name == "nim-misere":
            return Nim("classic", misere=True)
        return None

    def exact(self, game: Game) -> ExactValues:
        return NimValues()


KITS = (NimKit(),)

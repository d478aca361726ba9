"""Scores that carry whose point of view they are from, flipped only through them (after python-chess's ``PovScore``).

A bare number says nothing of whose view it takes: the engine has four conventions (the first
player; the player to move; the player who plays a move; the player who moved into a node;
``ARCHITECTURE.md`` tables them).  At the API boundaries (``Searcher.value()`` and
``value_bounds()``, the solver's scores, ``ColumnScores``, ``plyscope solve``'s ``Solution``) a
score is a ``PovScore`` or a ``PovBounds``: the number as one player sees it, that player, and
the score that is even between the two.  The other player's view is the mirror image about
that even score: ``-x`` on a scale even at 0 (Pons' scores, MCTS rewards, the threat
evaluator), ``1024 - x`` on Rivest's 1..1023, even at 512.  Read a number out with
``pov(player)`` or ``first()``; nothing else flips it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from plyscope.engine.games.base import Player

FIRST: Player = 1
"""The first player (MAX)."""

S = TypeVar("S", int, float)
"""A score's number type: ``int`` for Pons' scores and Nim's results, ``float`` for evaluations."""


def _mirror(score: S, centre: float) -> S:
    """``score`` as the other player sees it: its mirror image about ``centre`` (an even 0.0 stays 0.0, not -0.0)."""
    return 0 - score if centre == 0 else type(score)(2 * centre - score)


@dataclass(frozen=True, slots=True, eq=False)
class PovScore(Generic[S]):
    """One score, as ``player`` sees it.  Two scores are equal when they are the same from every point of view."""

    relative: S
    """The score from ``player``'s point of view: higher is better for ``player``."""
    player: Player
    """Whose point of view ``relative`` takes: ``+1`` the first player, ``-1`` the second."""
    centre: float = 0
    """The score even between the players (0 on most scales, 512 on Rivest's 1..1023)."""

    def pov(self, player: Player) -> S:
        """The score from ``player``'s point of view."""
        return self.relative if player == self.player else _mirror(self.relative, self.centre)

    def first(self) -> S:
        """The score from the first player's point of view."""
        return self.pov(FIRST)

    def seen_by(self, player: Player) -> PovScore[S]:
        """The same score, kept from ``player``'s point of view."""
        return self if player == self.player else PovScore(self.pov(player), player, self.centre)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.first() == other.first() and self.centre == other.centre

    def __hash__(self) -> int:
        return hash((self.first(), self.centre))

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, player={self.player:+d}, centre={self.centre:g})"


@dataclass(frozen=True, slots=True, eq=False)
class PovBounds(Generic[S]):
    """What is known of a score so far: at least ``lowest`` and at most ``highest``, as ``player`` sees it.

    Seen by the other player the bounds swap as they mirror: ``(2, 5)`` for one is ``(-5, -2)`` for the other.
    """

    lowest: S
    highest: S
    player: Player
    """Whose point of view the bounds take: ``+1`` the first player, ``-1`` the second."""
    centre: float = 0
    """The score even between the players (see ``PovScore.centre``)."""

    @classmethod
    def exactly(cls, score: PovScore[S]) -> PovBounds[S]:
        """Bounds that have met at ``score``."""
        return cls(score.relative, score.relative, score.player, score.centre)

    def pov(self, player: Player) -> tuple[S, S]:
        """``(lowest, highest)`` from ``player``'s point of view."""
        if player == self.player:
            return self.lowest, self.highest
        return _mirror(self.highest, self.centre), _mirror(self.lowest, self.centre)

    def first(self) -> tuple[S, S]:
        """``(lowest, highest)`` from the first player's point of view."""
        return self.pov(FIRST)

    def seen_by(self, player: Player) -> PovBounds[S]:
        """The same bounds, kept from ``player``'s point of view."""
        return self if player == self.player else PovBounds(*self.pov(player), player, self.centre)

    @property
    def score(self) -> PovScore[S] | None:
        """The exact score once the bounds have met, else ``None``."""
        return PovScore(self.lowest, self.player, self.centre) if self.lowest == self.highest else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovBounds):
            return NotImplemented
        return self.first() == other.first() and self.centre == other.centre

    def __hash__(self) -> int:
        return hash((self.first(), self.centre))

    def __repr__(self) -> str:
        return f"PovBounds({self.lowest!r}, {self.highest!r}, player={self.player:+d}, centre={self.centre:g})"

"""The game interface every searcher is written against.

Points of view, stated once for the whole engine:

* ``State.player`` is ``+1`` when the first player is to move and ``-1`` for the second;
  ``CHANCE`` (``0``) at a chance node, where nature moves next (see ``ChanceState``).
* ``State.utility()`` of a terminal state is from the **first player's** point of view:
  ``+1`` first player won, ``-1`` second player won, ``0`` draw.
* Evaluators (``plyscope.engine.games.evaluators``) also score from the first player's point of
  view: the first player is MAX, the second MIN.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeGuard

from plyscope.engine.errors import UserError

if TYPE_CHECKING:
    import numpy as np

Move = Hashable
"""A move of some game: an ``int`` column in Connect Four, a ``(pile, part)`` pair in Nim."""

Player = int
"""``+1`` for the first player (MAX), ``-1`` for the second (MIN); ``CHANCE`` at a chance node."""

CHANCE: Player = 0
"""``State.player`` at a chance node: no player chooses there, nature draws one of ``ChanceState.outcomes()``."""


class PositionError(UserError):
    """Text that does not describe a position, or a move that cannot be played; the message says why."""


class State(Protocol):
    """An immutable game position; ``play`` returns a new state and never changes this one."""

    @property
    def game(self) -> Game: ...

    @property
    def player(self) -> Player: ...

    @property
    def ply(self) -> int:
        """Moves played since the game's start position."""
        ...

    def legal_moves(self) -> Sequence[Move]: ...

    def play(self, move: Move) -> State:
        """The position after ``move`` (a legal move); in a game with chance it may be a chance node."""
        ...

    def is_terminal(self) -> bool: ...

    def winner(self) -> Player | None:
        """``+1``/``-1`` for the player who won, ``0`` for a draw, ``None`` while the game goes on."""
        ...

    def utility(self) -> int:
        """Terminal value from the first player's point of view: +1, 0 or -1."""
        ...

    def key(self) -> Hashable:
        """A transposition key: equal for equal positions with the same side to move."""
        ...

    def move_label(self, move: Move) -> str: ...

    def parse_move(self, text: str) -> Move:
        """The legal move written as ``text``; raises ``PositionError`` otherwise."""
        ...

    def text(self) -> str:
        """The position as text that ``Game.parse`` reads back."""
        ...


class Game(Protocol):
    """A family of positions: its start, and how positions are written as text."""

    name: str
    """Short name used on the command line: ``connect4``, ``grundy``, ``nim``, ``nim-misere``."""
    kit: str
    """The name of the game's kit (``plyscope.engine.kits``): everything else plyscope asks of the game."""

    def start(self) -> State: ...

    def parse(self, text: str) -> State:
        """The position written as ``text``; raises ``PositionError`` naming the problem."""
        ...


class ChanceState(State, Protocol):
    """A chance node: ``player`` is ``CHANCE`` and the next move is nature's, drawn from ``outcomes()``.

    ``legal_moves()`` lists the same moves as ``outcomes()``, and ``play`` plays one of them.
    """

    @property
    def mover(self) -> Player:
        """The player who moved into the chance node (whose disc is falling, say)."""
        ...

    def outcomes(self) -> Sequence[tuple[Move, float]]:
        """Every move nature can make here with its probability (all positive, summing to 1)."""
        ...

    def outcome_for(self, draw: float) -> Move:
        """The move a uniform random ``draw`` in [0, 1) picks (each with its probability in ``outcomes()``)."""
        ...


class Draws(Protocol):
    """Where a random playout draws its uniform floats in [0, 1) from: a ``plyscope.engine.search.stream.RandomStream``
    (seeded, and wound back exactly when a search steps back)."""

    next: Callable[[], float]
    """The next draw, unchecked: for a loop that has ``reserve``d all it takes."""
    left: Callable[[], int]
    """How many draws ``next`` can give before a ``reserve``."""

    def reserve(self, count: int) -> None:
        """Make ``next`` good for ``count`` draws."""
        ...

    def draw(self) -> float:
        """The next draw."""
        ...

    def numpy(self) -> np.random.Generator:
        """A numpy generator that gives the draws from here on (``skip`` the draws it made)."""
        ...

    def skip(self, count: int) -> None:
        """Move past the ``count`` draws just made from ``numpy()``'s generator."""
        ...


def is_chance(state: State) -> TypeGuard[ChanceState]:
    """Whether nature moves next in ``state`` (a chance node)."""
    return state.player == CHANCE


def outcome_probability(state: State, move: Move) -> float | None:
    """The probability of ``move`` when ``state`` is a chance node (0 if nature cannot make it there);
    ``None`` when a player chooses in ``state``: what a tree shows on the edge ``move`` out of ``state``."""
    if not is_chance(state):
        return None
    return dict(state.outcomes()).get(move, 0.0)


class DrawnAsText(State, Protocol):
    """A state that draws its board as text of its own (OpenSpiel's ``str(state)``): an optional capability, which the
    board view of any game (``text``) shows instead of ``text()``."""

    def board_text(self) -> str:
        """The board as text, one or more lines."""
        ...


def board_text(state: State) -> str:
    """``state``'s board as text: its own ``board_text()`` where it has one (``DrawnAsText``), else ``text()``."""
    drawn = getattr(state, "board_text", None)
    return str(drawn()) if callable(drawn) else state.text()

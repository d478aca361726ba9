"""Exact values of a position and of each of its moves, for ``plyscope solve``, within a budget: a thin layer over
the one door to exact values (``plyscope.engine.exact.Exact.moves``), for every game that has them.

Points of view: a ``Solution`` keeps its scores as ``PovBounds`` (``plyscope.engine.pov``): a position's score for
its **player to move**, a move's score for the player who **plays** it (the score of the position it leads to, seen
by the other player).  Its JSON has them as bare numbers, all for the player to move in the position solved, who is
also the one who plays each move; ``value`` is the position's exact value for the first player.  A hand-written
tree's values are all MAX's (the first player's), as its leaves are written (``ExactValues.first_player``).

* Connect Four: Pons' scores (``plyscope.engine.solver``): ``0`` draw, ``s > 0`` the player wins with their
  ``s``-th-to-last possible stone, ``s < 0`` the other player does.  The moves are solved one after the other,
  centre first, ``PositionSolve.run`` driving a slice of nodes at a time and checking its budget (nodes, seconds)
  between two slices; when the budget stops it, each move keeps the bounds found so far.  On 7x6 the solver takes
  the scores of positions with 12 stones from Thill's opening book (``plyscope.engine.solver.book``), so the opening
  is solved at once.
* The Nim games: ``+1`` the player wins, ``-1`` they lose, by theory (``plyscope.engine.kits.nim``), at once; a
  tic-tac-toe board's win, draw or loss by search; a tree's minimax values.
"""

from __future__ import annotations

import enum
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from plyscope.engine.exact import Exact
from plyscope.engine.games.base import PositionError, State
from plyscope.engine.kits.base import ExactValues, Number, between
from plyscope.engine.pov import PovBounds, PovScore
from plyscope.engine.solver import TABLE_LIMIT


class Stop(enum.Enum):
    """Why ``PositionSolve.run`` returned."""

    FINISHED = "finished"
    """Every move's score is exact."""
    NODES = "nodes"
    """The node budget is spent."""
    SECONDS = "seconds"
    """The time budget is spent."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What is known of a position and of each legal move, with what it cost."""

    game: str
    position: str
    player: int
    """The player to move in ``position``: +1 first, -1 second (0: nature, at a tree's chance node)."""
    bounds: dict[str, PovBounds[int] | PovBounds[float]]
    """Move label -> what is known of its score, for the player who plays it; the bounds meet once it is exact
    (Connect Four: columns left to right)."""
    nodes: int
    """Work spent: Pons' negamax nodes (Connect Four), positions valued (Nim, tic-tac-toe), a tree's nodes."""
    seconds: float
    first_player: bool = False
    """Whether the values read from the first player's point of view (a tree's: ``ExactValues.first_player``)."""
    node_value: Number | None = None
    """With ``first_player``: the position's own exact value, MAX's (a chance node's is its children's expectation,
    which their values alone do not give)."""

    def _mover(self) -> dict[str, tuple[Number, Number]]:
        """Move label -> ``(lowest, highest)`` for the player to move in ``position``, who plays every move."""
        return {label: bounds.pov(self.player) for label, bounds in self.bounds.items()}

    @property
    def finished(self) -> bool:
        """Whether every move's score is exact."""
        return all(bounds.score is not None for bounds in self.bounds.values())

    @property
    def moves(self) -> dict[str, PovScore[int] | PovScore[float] | None]:
        """Move label -> its exact score, for the player who plays it; ``None`` while only bounds are known."""
        return {label: bounds.score for label, bounds in self.bounds.items()}

    @property
    def score_bounds(self) -> PovBounds[int] | PovBounds[float]:
        """What is known of the position's score (the best move's), for its player to move."""
        pairs = self._mover().values()
        return between(max(lowest for lowest, _ in pairs), max(highest for _, highest in pairs), self.player)

    @property
    def score(self) -> PovScore[int] | PovScore[float] | None:
        """The position's exact score, for its player to move; ``None`` while only bounds are known."""
        return self.score_bounds.score

    @property
    def value(self) -> Number | None:
        """The position's exact value for the first player (MAX); ``None`` while only bounds are known."""
        if self.first_player:
            return self.node_value
        return None if self.score is None else self.score.first()

    @property
    def best_moves(self) -> list[str]:
        """The moves proven at least as good as every other (once finished: those that keep the position's score);
        at a tree's node, those whose value is the node's."""
        if self.first_player:
            value = self.value
            return [label for label, child in self.moves.items() if child is not None and child.first() == value]
        pairs = self._mover()
        return [
            label
            for label, (lowest, _) in pairs.items()
            if all(lowest >= highest for other, (_, highest) in pairs.items() if other != label)
        ]

    def as_json(self) -> dict[str, object]:
        """``score``, ``value`` and ``moves`` hold ``null`` where only bounds are known; ``bounds`` has every move's
        ``[lowest, highest]``, ``score_bounds`` the position's.  A tree's: ``value`` and ``moves`` (MAX's values),
        ``best_moves``, the cost."""
        if self.first_player:
            return {
                "game": self.game,
                "position": self.position,
                "player": self.player,
                "value": self.value,
                "moves": {label: None if score is None else score.first() for label, score in self.moves.items()},
                "best_moves": self.best_moves,
                "nodes": self.nodes,
                "seconds": round(self.seconds, 6),
                "finished": self.finished,
            }
        pairs = self._mover()
        return {
            "game": self.game,
            "position": self.position,
            "player": self.player,
            "score": None if self.score is None else self.score.pov(self.player),
            "value": self.value,
            "moves": {label: lowest if lowest == highest else None for label, (lowest, highest) in pairs.items()},
            "best_moves": self.best_moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "finished": self.finished,
            "score_bounds": list(self.score_bounds.pov(self.player)),
            "bounds": {label: list(pair) for label, pair in pairs.items()},
        }


class PositionSolve:
    """Solving every legal move of one position through ``exact`` (``Exact.moves``), a slice at a time, so a caller
    can stop it.

    Raises ``PositionError`` when the game is already over or has no exact values.
    """

    def __init__(self, state: State, exact: Exact | None = None) -> None:
        """``exact``: the door to go through (``None``: a fresh one, its solvers' tables of ``TABLE_LIMIT``
        slots)."""
        exact = Exact(table=TABLE_LIMIT) if exact is None else exact
        if state.is_terminal():
            raise PositionError(
                f"the game is already over in position '{state.text() or '-'}': there is nothing to solve"
            )
        try:
            self.values: ExactValues = exact.values(state.game)
        except ValueError as error:
            raise PositionError(str(error)) from None
        self.state = state
        self.seconds = 0.0
        """Time spent solving: making the solve (instant values are found then) and in ``run``."""
        started = time.perf_counter()
        self._moves = exact.moves(state)
        self._own = exact.truth(state).score if self.values.first_player else None
        """The position's own value where values read from the first player's point of view (a tree's)."""
        self.seconds = time.perf_counter() - started

    @property
    def nodes(self) -> int:
        """Work spent (``Solution.nodes``)."""
        return self._moves.nodes

    @property
    def finished(self) -> bool:
        return self._moves.finished

    def run(
        self, *, nodes: int | None = None, seconds: float | None = None, tick: Callable[[], object] | None = None
    ) -> Stop:
        """Solve the moves (Connect Four: centre first) until all are exact or ``nodes`` more nodes or ``seconds``
        more seconds are spent (``None``: no bound); ``tick`` is called between two slices (every 80 ms or so)."""
        started = time.perf_counter()
        try:
            return self._run(nodes, None if seconds is None else started + seconds, tick)
        finally:
            self.seconds += time.perf_counter() - started

    def _run(self, nodes: int | None, deadline: float | None, tick: Callable[[], object] | None) -> Stop:
        moves = self._moves
        until = None if nodes is None else moves.nodes + nodes
        while not moves.finished:
            if until is not None and moves.nodes >= until:
                return Stop.NODES
            if deadline is not None and time.perf_counter() >= deadline:
                return Stop.SECONDS
            moves.advance(sys.maxsize if until is None else until - moves.nodes)
            if tick is not None:
                tick()
        return Stop.FINISHED

    def solution(self) -> Solution:
        """What is known now."""
        state = self.state
        bounds = {state.move_label(move): known for move, known in self._moves.bounds().items()}
        own = None if self._own is None else self._own.first()
        first = self.values.first_player
        return Solution(state.game.name, state.text(), state.player, bounds, self.nodes, self.seconds, first, own)

"""Exact values of a position and of each of its moves, for ``plyscope solve``, within a budget.

Points of view: a ``Solution`` keeps its scores as ``PovScore`` and ``PovBounds``
(``plyscope.engine.pov``): a position's score for its **player to move**, a move's score for the
player who **plays** it (the score of the position it leads to, seen by the other player).
Its JSON has them as bare numbers, all for the player to move in the position solved, who
is also the one who plays each move.

* Connect Four: Pons' scores (``plyscope.engine.solver``): ``0`` draw, ``s > 0`` the player
  wins with their ``s``-th-to-last possible stone, ``s < 0`` the other player does.  The
  moves are solved one after the other, centre first, each by a ``ScoreSearch`` that
  ``PositionSolve.run`` drives a slice of nodes at a time, checking its budget (nodes,
  seconds) between two slices; when the budget stops it, each move keeps the bounds found
  so far.  On 7x6 the solver takes the scores of positions with 12 stones from Thill's
  opening book (``plyscope.engine.solver.book``), so the opening is solved at once.
* Nim games: ``+1`` the player wins, ``-1`` they lose, with perfect play on both sides,
  known at once.  Grundy's game is valued by Sprague-Grundy numbers (the XOR of the piles'
  numbers is 0 exactly for a loss), classic Nim by the XOR of the piles, and misère Nim by
  Bouton's rule (when every pile has one token, the player to move wins exactly when the
  number of piles is even; otherwise as in normal play).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, reduce
from operator import xor

from plyscope.engine.games.base import PositionError, State
from plyscope.engine.games.connect4 import Connect4State
from plyscope.engine.games.nim import NimState
from plyscope.engine.games.tree import TreeState
from plyscope.engine.pov import PovBounds, PovScore
from plyscope.engine.solver import TABLE_LIMIT, Connect4Solver, ScoreSearch, centre_first

NIM_WIN = 1
NIM_LOSS = -1
SLICES_PER_CHECK = 16
"""A ``run`` checks its budget every this many of the solver's ``slice_nodes`` (about 80 ms compiled)."""


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
    """The player to move in ``position``: +1 first, -1 second."""
    bounds: dict[str, PovBounds[int]]
    """Move label -> what is known of its score, for the player who plays it; the bounds meet once it is exact
    (Connect Four: columns left to right)."""
    nodes: int
    """Connect Four: Pons' negamax nodes; Nim: positions valued (the position and its children)."""
    seconds: float

    def _mover(self) -> dict[str, tuple[int, int]]:
        """Move label -> ``(lowest, highest)`` for the player to move in ``position``, who plays every move."""
        return {label: bounds.pov(self.player) for label, bounds in self.bounds.items()}

    @property
    def finished(self) -> bool:
        """Whether every move's score is exact."""
        return all(bounds.score is not None for bounds in self.bounds.values())

    @property
    def moves(self) -> dict[str, PovScore[int] | None]:
        """Move label -> its exact score, for the player who plays it; ``None`` while only bounds are known."""
        return {label: bounds.score for label, bounds in self.bounds.items()}

    @property
    def score_bounds(self) -> PovBounds[int]:
        """What is known of the position's score (the best move's), for its player to move."""
        pairs = self._mover().values()
        return PovBounds(max(lowest for lowest, _ in pairs), max(highest for _, highest in pairs), self.player)

    @property
    def score(self) -> PovScore[int] | None:
        """The position's exact score, for its player to move; ``None`` while only bounds are known."""
        return self.score_bounds.score

    @property
    def best_moves(self) -> list[str]:
        """The moves proven at least as good as every other (once finished: those that keep the position's score)."""
        pairs = self._mover()
        return [
            label
            for label, (lowest, _) in pairs.items()
            if all(lowest >= highest for other, (_, highest) in pairs.items() if other != label)
        ]

    def as_json(self) -> dict[str, object]:
        """``score`` and ``moves`` hold ``null`` where only bounds are known; ``bounds`` has every move's
        ``[lowest, highest]``, ``score_bounds`` the position's."""
        mover = self.player
        pairs = self._mover()
        return {
            "game": self.game,
            "position": self.position,
            "player": mover,
            "score": None if self.score is None else self.score.pov(mover),
            "moves": {label: lowest if lowest == highest else None for label, (lowest, highest) in pairs.items()},
            "best_moves": self.best_moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "finished": self.finished,
            "score_bounds": list(self.score_bounds.pov(mover)),
            "bounds": {label: list(pair) for label, pair in pairs.items()},
        }


class PositionSolve:
    """Solving every legal move of one position, a slice of solver nodes at a time, so a caller can stop it.

    Raises ``PositionError`` when the game is already over or no exact solver plays the game.
    """

    def __init__(self, state: State, *, table_limit: int = TABLE_LIMIT) -> None:
        if state.is_terminal():
            raise PositionError(
                f"the game is already over in position '{state.text() or '-'}': there is nothing to solve"
            )
        self.state = state
        self.seconds = 0.0
        """Time spent solving: in ``run`` (Nim: valuing the moves, done at once)."""
        self._solver: Connect4Solver | None = None
        self._searches: dict[int, ScoreSearch] = {}
        """Connect Four: each column's search (on the position it leads to), centre first as Pons orders moves."""
        self._nim: dict[str, PovScore[int]] = {}
        """Nim: each move's score, for the player who plays it."""
        if isinstance(state, Connect4State):
            solver = self._solver = Connect4Solver(state.game, table_limit=table_limit)
            self._searches = {
                column: ScoreSearch(solver, state.play(column))
                for column in centre_first(state.game.width)
                if state.can_play(column)
            }
        elif isinstance(state, NimState):
            started = time.perf_counter()
            after = {state.move_label(move): state.play(move) for move in state.legal_moves()}
            self._nim = {
                label: PovScore(nim_score(child), child.player).seen_by(state.player) for label, child in after.items()
            }
            self.seconds = time.perf_counter() - started
        else:
            raise PositionError(f"no exact solver for the game {state.game.name}")

    @property
    def book(self) -> bool | None:
        """Connect Four: whether the solver scores positions with 12 stones from the opening book (7x6 only, unless
        ``--no-book``); ``None`` for Nim."""
        return None if self._solver is None else self._solver.has_book

    @property
    def nodes(self) -> int:
        """Connect Four: Pons' negamax nodes spent; Nim: positions valued."""
        return 1 + len(self._nim) if self._solver is None else self._solver.nodes

    @property
    def finished(self) -> bool:
        return all(search.done for search in self._searches.values())

    def run(
        self, *, nodes: int | None = None, seconds: float | None = None, tick: Callable[[], object] | None = None
    ) -> Stop:
        """Solve the moves, centre first, until all are exact or ``nodes`` more nodes or ``seconds`` more seconds
        are spent (``None``: no bound); ``tick`` is called between two slices (every 80 ms or so)."""
        started = time.perf_counter()
        try:
            return self._run(nodes, None if seconds is None else started + seconds, tick)
        finally:
            self.seconds += time.perf_counter() - started

    def _run(self, nodes: int | None, deadline: float | None, tick: Callable[[], object] | None) -> Stop:
        solver = self._solver
        if solver is None:
            return Stop.FINISHED
        until = None if nodes is None else solver.nodes + nodes
        chunk = SLICES_PER_CHECK * solver.slice_nodes
        for search in self._searches.values():
            while not search.done:
                if until is not None and solver.nodes >= until:
                    return Stop.NODES
                if deadline is not None and time.perf_counter() >= deadline:
                    return Stop.SECONDS
                search.advance(chunk if until is None else min(chunk, until - solver.nodes))
                if tick is not None:
                    tick()
        return Stop.FINISHED

    def solution(self) -> Solution:
        """What is known now."""
        state = self.state
        mover = state.player
        if self._solver is None:
            bounds = {label: PovBounds.exactly(score) for label, score in self._nim.items()}
        else:
            searches = self._searches
            bounds = {state.move_label(column): searches[column].bounds.seen_by(mover) for column in sorted(searches)}
        return Solution(state.game.name, state.text(), state.player, bounds, self.nodes, self.seconds)


@dataclass(frozen=True, slots=True)
class TreeSolution:
    """The exact value of a hand-written tree's node and of each of its moves (``plyscope solve --game tree``).

    Every value is from MAX's (the first player's) point of view, as the tree's leaves are: minimax, or
    expectiminimax where the tree has chance nodes."""

    position: str
    player: int
    """The player to move at the node: +1 MAX, -1 MIN (0: nature, at a chance node)."""
    value: float
    """The node's exact value, MAX's point of view."""
    moves: dict[str, float]
    """Move label -> the exact value of the child it leads to, MAX's point of view."""
    nodes: int
    """Nodes valued (the whole tree)."""
    seconds: float

    @property
    def best_moves(self) -> list[str]:
        """The moves whose child has the node's value."""
        return [label for label, value in self.moves.items() if value == self.value]

    def as_json(self) -> dict[str, object]:
        return {
            "game": "tree",
            "position": self.position,
            "player": self.player,
            "value": self.value,
            "moves": self.moves,
            "best_moves": self.best_moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "finished": True,
        }


def solve_tree(state: TreeState) -> TreeSolution:
    """The exact values at ``state`` (a node where a player moves) and of its moves."""
    if state.is_terminal():
        raise PositionError(f"the tree '{state.text()}' is a leaf: there is nothing to solve")
    started = time.perf_counter()
    tree = state.tree
    exact = tree.exact
    moves = {state.move_label(move): exact[state.play(move).node] for move in state.legal_moves()}
    return TreeSolution(state.text(), state.player, exact[state.node], moves, len(exact), time.perf_counter() - started)


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

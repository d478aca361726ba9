"""The exact score of every move of a position (Connect Four's columns), found a slice of work at a time.

For every game with exact values, through the one door (``plyscope.engine.exact.Exact.moves``).  Solving Connect Four
is slow early in the game (seconds to hours), so the work is cut into slices of solver nodes: a caller (a UI thread)
takes one slice at a time, can stop between two slices, and shows each move's score as soon as it is known.  The
moves are worked on round-robin with slices that double each round (from the solve's ``slice`` up to ``MAX_SLICES``
of them), so the easy moves come first; a move not solved when ``node_budget`` nodes have been spent in all keeps the
score ``None``.  On Connect Four each column is one ``ScoreSearch`` (``plyscope.engine.solver``) on the position the
column leads to; the Nim games' and a tree's values come at once.

Scores are on the game's scale (Pons' on Connect Four), kept for the **player who plays the move** (``PovScore``,
``PovBounds``): positive, that player wins (the larger, the sooner); ``0``, a draw; negative, they lose.
``ScoresSnapshot``, handed to the UI, holds them as bare pairs for that player, the player to move in its position.
"""

from __future__ import annotations

from dataclasses import dataclass

from plyscope.engine.exact import Exact
from plyscope.engine.games.base import Move, State
from plyscope.engine.kits.base import Number
from plyscope.engine.numbers import signed
from plyscope.engine.pov import PovBounds, PovScore

MAX_SLICES = 32
"""A move's slice grows to at most this many of the solve's ``slice`` (about 150 ms of Connect Four's compiled
solver), so the caller gets control back at least that often."""
NODE_BUDGET = 30_000_000
"""Solver nodes an analysis spends at most, over all columns, before giving up on the rest (some 5 s of
the compiled 7x6 solver; on boards too large for it, a minute or two of pure Python)."""


@dataclass(frozen=True, slots=True)
class ScoresSnapshot:
    """What a ``ColumnScores`` knew at one moment, to hand from a worker thread to a UI."""

    state: State
    bounds: dict[Move, tuple[Number, Number]]
    """Each legal move's score bounds ``(lowest, highest)`` for the player to move (equal: exact)."""
    done: bool
    """True when every column is solved or the node budget is spent."""
    nodes: int
    """Solver nodes spent."""

    def exact(self, column: Move) -> Number | None:
        """``column``'s exact score, or ``None`` while (or if) it is not known."""
        lowest, highest = self.bounds.get(column, (0, 1))
        return lowest if lowest == highest else None

    def note(self, column: Move) -> str:
        """``column``'s score written short: ``+3``, ``0``, ``-5``; ``…`` while unknown; after giving up
        ``+?`` (a win), ``-?`` (a loss) or ``?``; blank for a full column."""
        if column not in self.bounds:
            return ""
        lowest, highest = self.bounds[column]
        if lowest == highest:
            return signed(lowest, None)
        if not self.done:
            return "…"
        return "+?" if lowest > 0 else ("-?" if highest < 0 else "?")

    def mark(self, column: Move) -> tuple[str, str]:
        """``column``'s score for a note under the board, two or three cells with no sign (the kind says it):
        ``("12", "good")`` a win, ``("15", "bad")`` a loss, ``("0", "")`` a draw, ``("4", "best")`` among the best;
        ``…`` while unknown, ``?`` given up (kind ``good``/``bad`` when at least its sign is known); blank when full."""
        if column not in self.bounds:
            return ("", "")
        lowest, highest = self.bounds[column]
        kind = "good" if lowest > 0 else ("bad" if highest < 0 else "")
        if column in self.best():
            kind = "best"
        if lowest == highest:
            return (str(abs(lowest)), kind)
        return ("…" if not self.done else "?", kind)

    def best(self) -> set[Move]:
        """The columns proven at least as good as every other."""
        return {
            column
            for column, (lowest, _) in self.bounds.items()
            if all(lowest >= highest for other, (_, highest) in self.bounds.items() if other != column)
        }

    def worse(self, column: Move) -> bool:
        """Whether ``column`` is proven worse than some other column."""
        highest = self.bounds[column][1]
        return any(lowest > highest for other, (lowest, _) in self.bounds.items() if other != column)

    def solved(self) -> int:
        """Columns whose exact score is known."""
        return sum(1 for lowest, highest in self.bounds.values() if lowest == highest)

    @property
    def complete(self) -> bool:
        return self.solved() == len(self.bounds)


class ColumnScores:
    """Exact scores of the legal moves of ``state`` (Connect Four's playable columns), filled in by ``advance`` one
    slice at a time."""

    def __init__(self, state: State, exact: Exact | None = None, *, node_budget: int | None = NODE_BUDGET) -> None:
        """``exact``: the door to go through (``None``: a fresh one; a Connect Four analysis's solver table is its
        default, 18 MB compiled, 20 to 26 MB in pure Python); ``node_budget``: work to spend at most (``None``: until
        every move is solved).  Raises ``ValueError`` for a game without exact values."""
        if state.is_terminal():
            raise ValueError("ColumnScores of a position where the game is over")
        self.state = state
        self.node_budget = node_budget
        self.solve = (Exact() if exact is None else exact).moves(state)
        """Every move's solve (on Connect Four, each column's search on the position it leads to, centre first)."""
        self._slice = self.solve.slice
        self._round: list[Move] = []
        """Moves left in the current round."""

    @property
    def scores(self) -> dict[Move, PovScore[int] | PovScore[float] | None]:
        """Each legal move's exact score, for the player who plays it (``None``: not known yet)."""
        return {move: bounds.score for move, bounds in self.solve.bounds().items()}

    @property
    def done(self) -> bool:
        """True when every move is solved or the node budget is spent."""
        return self.complete or (self.node_budget is not None and self.solve.nodes >= self.node_budget)

    @property
    def complete(self) -> bool:
        """True when every legal move's score is known."""
        return self.solve.finished

    def advance(self) -> Move | None:
        """Spend one slice on the next unsolved move; the move, once its score is known, else ``None``."""
        if self.done:
            return None
        if not self._round:
            if self.solve.nodes:
                self._slice = min(2 * self._slice, MAX_SLICES * self.solve.slice)
            self._round = self.solve.pending()
        move = self._round.pop(0)
        nodes = self._slice if self.node_budget is None else min(self._slice, self.node_budget - self.solve.nodes)
        self.solve.advance(nodes, move)
        return move if self.bounds(move).score is not None else None

    def bounds(self, move: Move) -> PovBounds[int] | PovBounds[float]:
        """What is known of ``move``'s score so far, for the player who plays it; they meet once it is exact."""
        return self.solve.bounds()[move]

    def snapshot(self) -> ScoresSnapshot:
        mover = self.state.player
        return ScoresSnapshot(
            self.state,
            {move: bounds.pov(mover) for move, bounds in self.solve.bounds().items()},
            self.done,
            self.solve.nodes,
        )

"""The solver's exact score of every column of a Connect Four position, found a slice of nodes at a time.

Solving is slow early in the game (seconds to hours), so the work is cut into
slices of solver nodes: a caller (a UI thread) takes one slice at a time, can stop between
two slices, and shows each column's score as soon as it is known.  The columns are worked
on round-robin with slices that double each round (from the solver's ``slice_nodes`` up to
``MAX_SLICES`` of them), so the easy columns come first; a column not solved when
``node_budget`` nodes have been spent in all keeps the score ``None``.  Each column is one
``ScoreSearch`` (``plyscope.engine.solver``) on the position the column leads to.

Scores are Pons' (see ``plyscope.engine.solver``), kept for the **player who plays the column**
(``PovScore``, ``PovBounds``): positive, that player wins (the larger, the sooner); ``0``, a
draw; negative, they lose.  ``ScoresSnapshot``, handed to the UI, holds them as bare pairs
for that player, the player to move in its position.
"""

from __future__ import annotations

from dataclasses import dataclass

from plyscope.engine.games.connect4 import Connect4State
from plyscope.engine.pov import PovBounds, PovScore
from plyscope.engine.solver import Connect4Solver, ScoreSearch, centre_first

MAX_SLICES = 32
"""A column's slice grows to at most this many of the solver's ``slice_nodes`` (about 150 ms compiled), so the
caller gets control back at least that often."""
NODE_BUDGET = 30_000_000
"""Solver nodes an analysis spends at most, over all columns, before giving up on the rest (some 5 s of
the compiled 7x6 solver; on boards too large for it, a minute or two of pure Python)."""
TABLE_LIMIT = 1 << 20
"""An analysis's solver table size (``plyscope.engine.solver.TABLE_LIMIT``): a quarter of the default, 18 MB compiled,
20 to 26 MB in pure Python."""


@dataclass(frozen=True, slots=True)
class ScoresSnapshot:
    """What a ``ColumnScores`` knew at one moment, to hand from a worker thread to a UI."""

    state: Connect4State
    bounds: dict[int, tuple[int, int]]
    """Each playable column's score bounds ``(lowest, highest)`` for the player to move (equal: exact)."""
    done: bool
    """True when every column is solved or the node budget is spent."""
    nodes: int
    """Solver nodes spent."""

    def exact(self, column: int) -> int | None:
        """``column``'s exact score, or ``None`` while (or if) it is not known."""
        lowest, highest = self.bounds.get(column, (0, 1))
        return lowest if lowest == highest else None

    def note(self, column: int) -> str:
        """``column``'s score written short: ``+3``, ``0``, ``-5``; ``…`` while unknown; after giving up
        ``+?`` (a win), ``-?`` (a loss) or ``?``; blank for a full column."""
        if column not in self.bounds:
            return ""
        lowest, highest = self.bounds[column]
        if lowest == highest:
            return f"{lowest:+d}" if lowest else "0"
        if not self.done:
            return "…"
        return "+?" if lowest > 0 else ("-?" if highest < 0 else "?")

    def mark(self, column: int) -> tuple[str, str]:
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

    def best(self) -> set[int]:
        """The columns proven at least as good as every other."""
        return {
            column
            for column, (lowest, _) in self.bounds.items()
            if all(lowest >= highest for other, (_, highest) in self.bounds.items() if other != column)
        }

    def worse(self, column: int) -> bool:
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
    """Exact scores of the playable columns of ``state``, filled in by ``advance`` one slice at a time."""

    def __init__(
        self, state: Connect4State, *, node_budget: int | None = NODE_BUDGET, table_limit: int = TABLE_LIMIT
    ) -> None:
        """``node_budget``: solver nodes to spend at most (``None``: until every column is solved)."""
        if state.is_terminal():
            raise ValueError("ColumnScores of a position where the game is over")
        self.state = state
        self.node_budget = node_budget
        self.solver = Connect4Solver(state.game, table_limit=table_limit)
        self._searches = {
            column: ScoreSearch(self.solver, state.play(column))
            for column in centre_first(state.game.width)
            if state.can_play(column)
        }
        """Each playable column's search, centre first, on the position it leads to (the opponent to move there)."""
        self._slice = self.solver.slice_nodes
        self._round: list[int] = []
        """Columns left in the current round."""

    @property
    def scores(self) -> dict[int, PovScore[int] | None]:
        """Each playable column's exact score, for the player who plays it (``None``: not known yet)."""
        return {column: self.bounds(column).score for column in self._searches}

    @property
    def done(self) -> bool:
        """True when every column is solved or the node budget is spent."""
        return self.complete or (self.node_budget is not None and self.solver.nodes >= self.node_budget)

    @property
    def complete(self) -> bool:
        """True when every playable column's score is known."""
        return all(search.done for search in self._searches.values())

    def advance(self) -> int | None:
        """Spend one slice on the next unsolved column; the column, once its score is known, else ``None``."""
        if self.done:
            return None
        if not self._round:
            if self.solver.nodes:
                self._slice = min(2 * self._slice, MAX_SLICES * self.solver.slice_nodes)
            self._round = [column for column, search in self._searches.items() if not search.done]
        column = self._round.pop(0)
        nodes = self._slice if self.node_budget is None else min(self._slice, self.node_budget - self.solver.nodes)
        search = self._searches[column]
        search.advance(nodes)
        return column if search.done else None

    def bounds(self, column: int) -> PovBounds[int]:
        """What is known of ``column``'s score so far, for the player who plays it; they meet once it is exact."""
        return self._searches[column].bounds.seen_by(self.state.player)

    def snapshot(self) -> ScoresSnapshot:
        mover = self.state.player
        return ScoresSnapshot(
            self.state,
            {column: self.bounds(column).pov(mover) for column in self._searches},
            self.done,
            self.solver.nodes,
        )

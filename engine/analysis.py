"""The solver's exact score of every column of a Connect Four position, found a slice of nodes at a time.

Solving is slow early in the game (seconds to hours), so the work is cut into
slices of solver nodes: a caller (a UI thread) takes one slice at a time, can stop between
two slices, and shows each column's score as soon as it is known.  The columns are worked
on round-robin with slices that double each round, so the easy columns come first; a column
not solved when ``node_budget`` nodes have been spent in all keeps the score ``None``.

Scores are Pons' (see ``engine.search.solver``), for the **player who plays the column**:
positive, that player wins (the larger, the sooner); ``0``, a draw; negative, they lose.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.connect4 import Connect4State
from engine.search.solver import Connect4Solver, NodeBudgetSpent, centre_first, win_now_score

FIRST_SLICE = 20_000
"""Solver nodes of a column's first slice (about 10 ms compiled, a tenth of a second in pure Python)."""
NODE_BUDGET = 30_000_000
"""Solver nodes an analysis spends at most, over all columns, before giving up on the rest (some 12 s of
the compiled 7x6 solver; on boards too large for it, a few minutes of pure Python)."""
TABLE_LIMIT = 1 << 20
"""An analysis's solver table size (``solver.TABLE_LIMIT``): a quarter of the default, about 20 MB compiled
or up to 80 MB in pure Python."""


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
            column for column, (lowest, _) in self.bounds.items()
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


class _ColumnSolve:
    """The null-window search on one column's position, resumable after a slice runs out."""

    __slots__ = ("child", "highest", "lowest", "wins_at_once")

    def __init__(self, solver: Connect4Solver, child: Connect4State) -> None:
        self.child = child
        """The position after the column is played; the opponent is to move there."""
        self.lowest, self.highest = solver.score_range(child)
        """Bounds on the child's score, for the opponent (its player to move)."""
        self.wins_at_once = solver.win_now(child)
        """Whether the opponent can complete four with their next stone (the search assumes not)."""

    def advance(self, solver: Connect4Solver, nodes: int) -> int | None:
        """Search for up to ``nodes`` nodes; the child's score (opponent's view) once found, else ``None``."""
        if self.wins_at_once:
            return win_now_score(solver.game.cells, self.child.ply)
        started = solver.nodes
        while self.lowest < self.highest:
            left = nodes - (solver.nodes - started)
            if left <= 0:
                return None
            probe = solver.next_probe(self.lowest, self.highest)
            try:
                found = solver.probe(self.child, probe, probe + 1, budget=left)
            except NodeBudgetSpent:
                return None
            if found <= probe:
                self.highest = found
            else:
                self.lowest = found
        return self.lowest


class ColumnScores:
    """Exact scores of the playable columns of ``state``, filled in by ``advance`` one slice at a time."""

    def __init__(self, state: Connect4State, *, node_budget: int = NODE_BUDGET) -> None:
        if state.is_terminal():
            raise ValueError("ColumnScores of a position where the game is over")
        self.state = state
        self.node_budget = node_budget
        self.solver = Connect4Solver(state.game, table_limit=TABLE_LIMIT)
        self.scores: dict[int, int | None] = {}
        """Each playable column's score for the player to move in ``state`` (``None``: not known)."""
        self._open: dict[int, _ColumnSolve] = {}
        """Columns still being solved, in centre-first order."""
        self._slice = FIRST_SLICE
        self._round: list[int] = []
        """Columns left in the current round."""
        for column in centre_first(state.game.width):
            if not state.can_play(column):
                continue
            child = state.play(column)
            if child.winner() == state.player:
                self.scores[column] = win_now_score(state.game.cells, state.ply)
            elif child.is_terminal():
                self.scores[column] = 0
            else:
                self.scores[column] = None
                self._open[column] = _ColumnSolve(self.solver, child)

    @property
    def done(self) -> bool:
        """True when every column is solved or the node budget is spent."""
        return not self._open or self.solver.nodes >= self.node_budget

    @property
    def complete(self) -> bool:
        """True when every playable column's score is known."""
        return not self._open

    def advance(self) -> int | None:
        """Spend one slice on the next unsolved column; the column, once its score is known, else ``None``."""
        if self.done:
            return None
        if not self._round:
            if self.solver.nodes:
                self._slice *= 2
            self._round = list(self._open)
        column = self._round.pop(0)
        nodes = min(self._slice, self.node_budget - self.solver.nodes)
        score = self._open[column].advance(self.solver, nodes)
        if score is None:
            return None
        del self._open[column]
        self.scores[column] = -score
        return column

    def bounds(self, column: int) -> tuple[int, int]:
        """What is known of ``column``'s score so far: ``(lowest, highest)``, equal once it is exact."""
        score = self.scores[column]
        if score is not None:
            return score, score
        search = self._open[column]
        return -search.highest, -search.lowest

    def snapshot(self) -> ScoresSnapshot:
        return ScoresSnapshot(self.state, {column: self.bounds(column) for column in self.scores}, self.done,
                              self.solver.nodes)

    def best_columns(self) -> set[int]:
        """The columns with the best score, once every column is known (else empty)."""
        if not self.complete:
            return set()
        best = max(score for score in self.scores.values() if score is not None)
        return {column for column, score in self.scores.items() if score == best}

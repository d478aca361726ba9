"""Judging a search against perfect play: its choices (``Judgement``) and where its work went (``WorkShares``).

The exact values come through the one door, ``plyscope.engine.exact.Exact`` (a ``Truth`` for each position, for its
player to move).  A ``Judgement`` compares a searcher's choice among a position's moves with perfect play: each
move's ``ExactValues.outcome`` (win, draw or loss by default; a hand-written tree's value itself) for the player who
chooses; the moves with the best outcome are optimal, and a choice worse than a sibling's is the search being fooled.
``WorkShares`` adds where the work went: below the root moves that win, draw, lose or are not settled (a tree's
values by their sign).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from plyscope.engine.games.base import Move, Player
from plyscope.engine.kits.base import ExactValues, Number, Truth
from plyscope.engine.search.base import Node


@dataclass(frozen=True, slots=True)
class Judgement:
    """A searcher's choice among a position's moves, against perfect play: outcomes for the player who chooses."""

    outcomes: tuple[Number | None, ...]
    """Each move's outcome with perfect play after it, for the chooser (``ExactValues.outcome``: ``+1`` win, ``0``
    draw, ``-1`` loss; a tree's value), higher better (``None``: not settled)."""
    chosen: int | None
    """The index of the move the searcher prefers (``None``: none yet)."""
    ceiling: Number | None = 1
    """The best outcome there is (a win, ``ExactValues.ceiling``): a move known to reach it is optimal at once;
    ``None``: none (a tree's values)."""

    @classmethod
    def of(cls, truths: Sequence[Truth | None], chooser: Player, chosen: int | None, values: ExactValues) -> Judgement:
        """From the truths of the positions the moves lead to (each for its own player to move), by ``values``'
        outcomes."""
        outcomes = tuple(
            None if truth is None or truth.score is None else values.outcome(truth.score.pov(chooser))
            for truth in truths
        )
        return cls(outcomes, chosen, values.ceiling)

    @property
    def settled(self) -> bool:
        """Whether every move's outcome is known."""
        return None not in self.outcomes

    @property
    def best(self) -> Number | None:
        """The best outcome known among the moves (``None``: none known)."""
        known = [outcome for outcome in self.outcomes if outcome is not None]
        return max(known) if known else None

    @property
    def optimal_moves(self) -> int | None:
        """How many moves keep the position's value (``None`` until every outcome is known)."""
        return self.outcomes.count(self.best) if self.settled else None

    @property
    def optimal(self) -> bool | None:
        """Whether the chosen move keeps the value: ``False`` as soon as a sibling is known to do better, ``True`` once
        none can (a win, or every outcome known); ``None`` while it is open."""
        if self.chosen is None:
            return None
        mine, best = self.outcomes[self.chosen], self.best
        if mine is None or best is None:
            return None
        if mine < best:
            return False
        return True if (self.ceiling is not None and mine >= self.ceiling) or self.settled else None


def subtree_work(node: Node) -> float:
    """The work spent below ``node``: its visits where its kind of node counts them (MCTS: ``Node.work()``), else the
    moves generated there (the nodes of its subtree, itself included)."""
    if type(node).work is not Node.work:
        return node.work()
    count = 0
    stack = [node]
    while stack:
        current = stack.pop()
        count += 1
        stack.extend(current.children)
    return float(count)


OUTCOME_NAMES = {1: "win", 0: "draw", -1: "loss", None: "unsettled"}
"""A root move's outcome for the player to move at the root (by its sign), as ``work_by_outcome`` names it."""


@dataclass(frozen=True, slots=True)
class WorkShares:
    """A search's root moves against perfect play: its choice, and where its work went."""

    judgement: Judgement
    """The best move among the root moves, outcomes for the player to move at the root."""
    work: tuple[float, ...]
    """The work below each root move (``subtree_work``), in the order of ``judgement.outcomes``."""
    unit: str
    """``visits`` or ``moves`` (moves generated)."""

    def by_outcome(self) -> dict[str, float]:
        """The work below the root moves that win, draw, lose (for the player to move at the root) or are not
        settled; the four add up to ``total``."""
        shares = dict.fromkeys(OUTCOME_NAMES.values(), 0.0)
        for outcome, work in zip(self.judgement.outcomes, self.work, strict=True):
            shares[OUTCOME_NAMES[None if outcome is None else (outcome > 0) - (outcome < 0)]] += work
        return shares

    @property
    def total(self) -> float:
        return sum(self.work)

    @property
    def losing_share(self) -> float | None:
        """The share of the work spent below root moves that lose, for the player to move at the root; ``None`` while
        it is not known: no work yet, or some of it below a root move not settled (the share could be anything from
        what is known to lose to that and the unsettled work together)."""
        shares = self.by_outcome()
        total = self.total
        return shares["loss"] / total if total and not shares["unsettled"] else None

    def as_json(self) -> dict[str, object]:
        """``plyscope search --json``'s fields: ``null`` where not known (not settled within the solver's budget)."""
        judgement = self.judgement
        return {
            "best_move_optimal": judgement.optimal,
            "optimal_root_moves": judgement.optimal_moves,
            "root_moves": len(judgement.outcomes),
            "losing_work_share": self.losing_share,
            "work_by_outcome": self.by_outcome(),
            "work_unit": self.unit,
        }


def work_shares(
    root: Node,
    moves: Sequence[Move],
    best: Move | None,
    truths: Sequence[Truth | None],
    player: Player,
    values: ExactValues,
) -> WorkShares:
    """The root's legal ``moves`` judged from ``truths`` (the value after each, ``None``: not known) by ``values``'
    outcomes, ``best`` the move the searcher prefers, ``player`` the one to move at the root; the work below each (0
    where it has no node)."""
    below = {child.move: child for child in root.children}
    chosen = moves.index(best) if best in moves else None
    unit = "visits" if type(root).work is not Node.work else "moves"
    work = tuple(subtree_work(below[move]) if move in below else 0.0 for move in moves)
    return WorkShares(Judgement.of(truths, player, chosen, values), work, unit)

"""What the two kernels of the exact solver share: their interface, Pons' score bounds, the move order.

A kernel is Pons' negamax for one board size with its own transposition table and node
counter (``Kernel``).  ``plyscope.engine.solver.native_kernel`` compiles it with numba for boards of
at most ``NATIVE_MAX_BITS`` bits; ``plyscope.engine.solver.python_kernel`` runs the same search, node
for node, in pure Python for any board.  ``make_kernel`` picks one.

Scores are Pons' (see ``plyscope.engine.solver``): for the **player to move** in the position scored.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from plyscope.engine.games.connect4 import Bitboard, Connect4

TABLE_LIMIT: Final = 1 << 22
"""The table's size: half its slots (``table_slots``: ``2 * TABLE_LIMIT`` rounded up to a prime is Pons'
2^23 + 9), the same in both kernels (compiled: 9 bytes a slot, 72 MB; pure Python: 10 to 13 bytes a slot,
80 to 104 MB)."""
NATIVE_MAX_BITS: Final = 62
"""The largest board (``width * (height + 1)`` bits) the compiled kernel plays: every right shift then
stays on a non-negative ``int64``."""

Negamax = Callable[[Bitboard, Bitboard, int, int, int, Bitboard], int]
"""``negamax(current, mask, moves, alpha, beta, threats)``: see ``Kernel.negamax``."""


class NodeBudgetSpent(Exception):
    """Raised inside a search when its node budget is used up; the table keeps what it learnt."""


class Kernel:
    """The search for one board size: the negamax, its table and its node counter."""

    __slots__ = ("negamax", "entries", "nodes", "set_budget", "clear", "slice_nodes")

    def __init__(
        self,
        negamax: Negamax,
        entries: Callable[[], int],
        nodes: Callable[[], int],
        set_budget: Callable[[int | None], None],
        clear: Callable[[], None],
        slice_nodes: int,
    ) -> None:
        self.negamax = negamax
        """``negamax(current, mask, moves, alpha, beta, threats)`` scores the position whose player to
        move owns ``current``, with ``mask`` all stones and ``moves`` their number, when nobody has won
        yet and the player to move cannot win at once.  ``threats`` are the opponent's winning cells
        (``game.winning_cells(current ^ mask, mask)``).  It returns Pons' score of the position for its
        player to move if it lies within ``(alpha, beta)``, an upper bound ``<= alpha`` if the score is
        at most ``alpha``, a lower bound ``>= beta`` if it is at least ``beta``."""
        self.entries = entries
        """Positions whose bound the transposition table holds now."""
        self.nodes = nodes
        """Negamax calls since the last ``clear``."""
        self.set_budget = set_budget
        """Allow this many more nodes (``None``: no bound); past it ``NodeBudgetSpent`` is raised."""
        self.clear = clear
        """Empty the transposition table and zero the node count."""
        self.slice_nodes = slice_nodes
        """Nodes this kernel searches in a few milliseconds: the slice a step of work takes at most."""


def table_slots(table_limit: int) -> int:
    """Slots in a kernel's fixed table (Pons'): the least prime ``>= 2 * table_limit``.

    A position's slot is its key modulo this prime; a new entry overwrites whatever the slot held.
    """
    n = max(2, 2 * table_limit)
    while any(n % d == 0 for d in range(2, math.isqrt(n) + 1)):
        n += 1
    return n


def native_fits(game: Connect4) -> bool:
    """Whether the compiled kernel (``plyscope.engine.solver.native_kernel``) plays ``game``'s board."""
    return game.width * game.column_bits <= NATIVE_MAX_BITS


def centre_first(width: int) -> tuple[int, ...]:
    """Columns in Pons' exploration order, centre first: ``(3, 2, 4, 1, 5, 0, 6)`` for width 7."""
    return tuple(width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width))


def win_now_score(cells: int, moves: int) -> int:
    """The score of the player who wins by placing the stone after ``moves`` stones (for that player)."""
    return (cells + 1 - moves) // 2


def score_bounds(cells: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Pons' bounds on a score for the player to move, each indexed by the stones on the board.

    ``(loss_now, lowest, highest, win_next)``: the score when the opponent wins with the next
    stone (two threats, or no move that does not lose); the least score when the opponent
    cannot win with the next stone; the most when the player to move cannot win with this
    stone; and, for the parent of a ``loss_now`` position, that child's score (for the
    parent's player to move).
    """
    stones = range(cells + 1)
    loss_now = tuple(-((cells - moves) // 2) for moves in stones)
    lowest = tuple(-((cells - 2 - moves) // 2) for moves in stones)
    highest = tuple((cells - 1 - moves) // 2 for moves in stones)
    return loss_now, lowest, highest, tuple(-loss for loss in loss_now)

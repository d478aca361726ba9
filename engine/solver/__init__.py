"""The exact Connect Four solver, after Pascal Pons' "Solving Connect 4: how to build a perfect AI".

Scores follow Pons' convention and are always from the point of view of the **player to
move** in the position scored: ``0`` is a draw; a positive score ``s`` means the player to
move wins with their ``s``-th-to-last possible stone (``(cells + 1 - moves) // 2`` for a win
on the next move, where ``moves`` counts the stones already on the board); a negative score
means the opponent wins, mirrored.  On 7x6 this is "22 minus the stones the winner will
have placed".  A move's score is for the player who plays it: minus the score of the
position it leads to.

The search is Pons' final version: negamax with alpha-beta on raw bitboards, a null-window
binary search on the score, a transposition table of bounds, only moves that do not lose
at once (a forced block is played alone), children ordered by the threats they create
(ties broken centre first) and a "can win next move" check before any search.  One node
is one negamax call, as Pons counts them, so node counts compare with his figures.

The package:

* ``kernel``: what the two kernels share (``Kernel``, Pons' score bounds, the move order);
* ``native_kernel``: the negamax compiled by numba, for boards of at most ``NATIVE_MAX_BITS``
  bits (7x6 and most others);
* ``python_kernel``: the same negamax in pure Python, for any board; both keep Pons'
  fixed-size table (``table_slots``), overwritten alike, and the tests hold the two to the
  same scores and the same node counts;
* ``scores``: ``Connect4Solver`` (a kernel and its table for one board size; ``make_kernel``
  picks the kernel) and ``ScoreSearch``, the one resumable search on a position's score that
  every caller drives.

The imports run one way: ``scores`` imports the kernels, which import ``kernel``.
"""

from plyscope.engine.solver.kernel import (
    NATIVE_MAX_BITS,
    TABLE_LIMIT,
    NodeBudgetSpent,
    centre_first,
    native_fits,
    score_bounds,
    table_slots,
    win_now_score,
)
from plyscope.engine.solver.scores import Connect4Solver, ScoreSearch, terminal_score

__all__ = [
    "NATIVE_MAX_BITS",
    "TABLE_LIMIT",
    "Connect4Solver",
    "NodeBudgetSpent",
    "ScoreSearch",
    "centre_first",
    "native_fits",
    "score_bounds",
    "table_slots",
    "terminal_score",
    "win_now_score",
]

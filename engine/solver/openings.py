"""The exact scores of 7x6 Connect Four's positions of at most two stones, found once: Pons' scores by move strings.

``Connect4Values`` (``plyscope.engine.solver.values``) answers these positions from the table at once, so that the
arena's ``--openings balanced:N`` picks its openings without an hour of solving (and without the opening book too),
and the truth column values the empty board and its seven moves before any solver has loaded.
"""

from __future__ import annotations

# fmt: off
_SCORES_BY_FIRST_MOVE = (
    # the reply in column 1 to 7
    ( 1, -2, -1, -2,  1, -1,  2),  # the first move in column 1
    ( 2,  0, -1,  0,  2,  2,  3),
    ( 2,  2,  0,  0,  0,  0,  3),
    ( 4,  2,  2,  1,  2,  2,  4),
    ( 3,  0,  0,  0,  0,  2,  2),
    ( 3,  2,  2,  0, -1,  0,  2),
    ( 2, -1,  1, -2, -1, -2,  1),  # the first move in column 7
)
# fmt: on
OPENING_SCORES: dict[str, int] = {
    f"{first}{reply}": score
    for first, row in enumerate(_SCORES_BY_FIRST_MOVE, start=1)
    for reply, score in enumerate(row, start=1)
}
"""Pons' score of every two-move opening of 7x6 Connect Four by its move string (``41``: the first move in
column 4, the reply in column 1), for the first player (to move after it): 0 a draw, ``s > 0`` a win with
the ``s``-th-to-last possible stone, ``s < 0`` a loss.  Computed once with ``Connect4Solver.solve``
(2026-11-24: the 25 openings that are not mirror images of another, an hour of solver time); the tests check
them for symmetry and one of them against the solver."""


def _negamax(scores: dict[str, int], moves: str) -> int:
    """Pons' score of the position after ``moves`` for its player to move, from its children's in ``scores``."""
    return max(-scores[f"{moves}{column}"] for column in range(1, 8))


_FIRST_MOVES: dict[str, int] = {str(first): _negamax(OPENING_SCORES, str(first)) for first in range(1, 8)}
EARLY_SCORES: dict[str, int] = {**OPENING_SCORES, **_FIRST_MOVES, "": _negamax(_FIRST_MOVES, "")}
"""Pons' score of every 7x6 position of at most two stones, for its player to move, by move string: the two-move
openings' (``OPENING_SCORES``) and, by negamax over them, the first moves' and the empty board's (``+1``: the first
player wins, with their 21st and last stone, by playing the centre)."""

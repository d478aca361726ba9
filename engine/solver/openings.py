"""The exact scores of 7x6 Connect Four's two-move openings, found once: Pons' scores by their move strings.

``Connect4Values`` (``plyscope.engine.solver.values``) answers these positions from the table at once, so that the
arena's ``--openings balanced:N`` picks its openings without an hour of solving (and without the opening book too).
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

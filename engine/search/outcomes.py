"""Finished games as scores that carry their length, and bounds on a position's score.

The searchers that prove results (best-first minimax once it has settled the result, proof-number
search, MCTS-Solver) rank a finished game by its result first and its length second, as Pons' scores
do: for one player, a win is worth more the sooner it comes and a loss more the later it comes.

**Scores** are integers for one player (whose, each searcher says): ``+(1000 - ply)`` for a game that
player wins when its ``ply``-th move is played (``State.ply``: moves since the start of the game, or of
the position typed for Nim), ``-(1000 - ply)`` for a game they lose then, ``0`` for a draw.  A game
that ends at ply 999 or later scores as if it ended at ply 999 (no game here lasts that long but a Nim
game of more than 999 tokens; its wins still beat its draws and its losses).  ``+962`` is a win at
ply 38, ``-962`` a loss at ply 38.

**Bounds** ``(lo, hi)`` are what a search knows of a position's score: ``lo <= score <= hi``, exact
when equal.  A finished game's are its score twice; a position where the game goes on has its
``intrinsic`` bounds (it cannot end before the next ply, and its player to move cannot lose then);
a position whose moves have all been searched has the bounds its children's give (``backed_up``).
Bounds are shared tuples (``bounds``): a tree keeps a reference a node, not two numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

SCALE = 1000
"""A win at ply ``p`` scores ``SCALE - p`` for the winner."""
LONGEST = SCALE - 1
"""The last ply a score tells apart: later games score as if they ended then."""

Bounds = tuple[int, int]
"""``(lo, hi)``: the least and the most a position's score can be, for the player the scores are for."""


def score(result: int, ply: int) -> int:
    """The score of a game that ended at ``ply`` with ``result`` for the player scored (+1 won, 0 drawn, -1
    lost)."""
    return result * (SCALE - min(ply, LONGEST))


def result_of(value: int) -> int:
    """+1, 0 or -1: the result a score is (a win, a draw, a loss)."""
    return (value > 0) - (value < 0)


def ply_of(value: int) -> int:
    """The ply at which a game that scores ``value`` (a win or a loss) ends."""
    return SCALE - abs(value)


@lru_cache(maxsize=1 << 16)
def bounds(lo: int, hi: int) -> Bounds:
    """``(lo, hi)`` as the one tuple every node with these bounds shares."""
    return (lo, hi)


def exact(value: int) -> Bounds:
    """The bounds of a position whose score is ``value`` (a finished game's)."""
    return bounds(value, value)


@lru_cache(maxsize=1 << 12)
def intrinsic(ply: int, viewer_to_move: bool) -> Bounds:
    """The bounds of a position at ``ply`` where the game goes on, before any search: the player to move
    there wins at ply ``ply + 1`` at the soonest, the other player at ``ply + 2``; and ``viewer_to_move``
    says whether the player to move is the one the scores are for."""
    if viewer_to_move:
        return bounds(score(-1, ply + 2), score(1, ply + 1))
    return bounds(score(-1, ply + 1), score(1, ply + 2))


def backed_up(
    children: Iterable[Bounds | None], unknown: Bounds, viewer_to_move: bool, own: Bounds | None = None
) -> Bounds:
    """A position's bounds from its children's (at least one; ``None`` for a child's ``unknown`` bounds, the
    intrinsic ones of a position a ply deeper): the player to move takes the best child for them, the most
    for the viewer (``viewer_to_move``) and the least for the other player.

    ``own``, the position's intrinsic bounds, when some moves have no child yet: those moves could be anything
    their player wants, so the side they could improve keeps ``own``'s.  ``None``: every move has a child.
    """
    # One pass, no list of pairs: this runs at every node a search backs up through.
    if viewer_to_move:
        lo = hi = -SCALE
        for span in children:
            child_lo, child_hi = unknown if span is None else span
            if child_lo > lo:
                lo = child_lo
            if child_hi > hi:
                hi = child_hi
        return bounds(lo, hi if own is None else own[1])
    lo = hi = SCALE
    for span in children:
        child_lo, child_hi = unknown if span is None else span
        if child_lo < lo:
            lo = child_lo
        if child_hi < hi:
            hi = child_hi
    return bounds(lo if own is None else own[0], hi)


def improvable(child: Bounds, parent: Bounds, viewer_to_move: bool) -> bool:
    """Whether searching below ``child`` can still change its parent's bounds: the child's score is not known
    and it could be better, for the player to move at the parent, than what the parent is already sure of."""
    lo, hi = child
    if lo == hi:
        return False
    return hi > parent[0] if viewer_to_move else lo < parent[1]


def from_pons(pons: int, ply: int, cells: int) -> int:
    """Pons' score ``pons`` of a position of ``ply`` stones on a board of ``cells``, for its player to move, as a
    score for the same player (``plyscope.engine.solver.values.Connect4Values.proven``'s inverse): the winner's
    stones go on alternate plies, so the one ply whose winning stone leaves the winner that score is the game's
    length."""
    if pons == 0:
        return 0
    result = 1 if pons > 0 else -1
    end = cells + 2 - 2 * abs(pons)  # (or one ply sooner: the one on the winner's side)
    winners_parity = (ply + 1) % 2 if result > 0 else ply % 2
    return score(result, end if end % 2 == winners_parity else end - 1)


def words(value: int) -> str:
    """``win at ply 38``, ``loss at ply 38`` or ``draw``."""
    if value == 0:
        return "draw"
    return f"{'win' if value > 0 else 'loss'} at ply {ply_of(value)}"


def span_words(span: Bounds) -> str | None:
    """Bounds as a tree shows them once they settle the result: ``win@38`` (exact), ``win@36..40`` (a win,
    somewhere in those plies), ``loss@..``, ``draw``; ``None`` while the result is open."""
    lo, hi = span
    result = result_of(lo)
    if result != result_of(hi):
        return None
    if result == 0:
        return "draw"
    name = "win" if result > 0 else "loss"
    soonest, latest = sorted((ply_of(lo), ply_of(hi)))
    return f"{name}@{soonest}" if soonest == latest else f"{name}@{soonest}..{latest}"

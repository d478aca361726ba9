"""Monte Carlo tree search compiled by numba: the twin of ``mcts.MonteCarloTreeSearch``.

The same search, iteration for iteration, with one playout per new leaf (``k=1``; read ``MonteCarloTreeSearch``'s
docstrings for the method): UCT selection, partial expansion, MCTS-Solver's proofs with score-bounded MCTS's
bounds (kept on every Connect Four search, as the Python searcher keeps them), a random untried move expanded, one
random playout.  Every random number comes from the same sequence as the Python searcher's ``RandomStream``: a
numpy ``Generator`` on PCG64 with the same seed, drawn in the same order (numba draws from it as numpy does), so
the same seed gives the same tree.  A node is a row of arrays: visits, results, father, first child, next sibling,
last child, move, its untried moves and its bounds.

Points of view: a node's ``visits`` and ``total`` and its bounds are for the player who moved into it, as in the
Python searcher.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from plyscope.engine.compiled.board import CELLS, WIDTH, drop, legal_moves, won

# Indices into the scalars array ``s``.
(
    MOVES,
    ITERATIONS,
    NODES,
    MAX_DEPTH,
    PLAYOUTS,
    PLAYOUT_MOVES,
    FINISHED,
    PARTIAL,
    SOLVER,
    ROOT_CURRENT,
    ROOT_MASK,
    ROOT_PLY,
) = range(12)
SCALARS = 12
STEPS_DONE, ENDED, BLOCKED, NODE_CAP, TREE_FULL = range(5)
SCALE = 1000
"""``plyscope.engine.search.outcomes.SCALE``: a win at ply ``p`` scores ``SCALE - p``."""


@njit(cache=True, nogil=True)
def score(result: int, ply: int) -> int:
    """``outcomes.score``."""
    return result * (SCALE - min(ply, SCALE - 1))


@njit(cache=True, nogil=True)
def intrinsic(ply: int, viewer_to_move: bool) -> tuple[int, int]:
    """``outcomes.intrinsic``."""
    if viewer_to_move:
        return score(-1, ply + 2), score(1, ply + 1)
    return score(-1, ply + 1), score(1, ply + 2)


@njit(cache=True, nogil=True)
def bounds_of(node: int, ply: int, has: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[int, int]:
    """``MonteCarloTreeSearch._bounds_of``: ``node``'s bounds (at ``ply``), or its intrinsic ones."""
    if has[node]:
        return lo[node], hi[node]
    return intrinsic(ply, False)


@njit(cache=True, nogil=True)
def _backed(node: int, ply: int, t: np.ndarray, has: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[int, int]:
    """``MonteCarloTreeSearch.backed_bounds``: the opposite of the best bounds ``node``'s children give its mover."""
    unknown_lo, unknown_hi = intrinsic(ply + 1, False)
    best_lo = -SCALE
    best_hi = -SCALE
    child = t[node, FIRST]
    while child >= 0:
        child_lo, child_hi = (lo[child], hi[child]) if has[child] else (unknown_lo, unknown_hi)
        if child_lo > best_lo:
            best_lo = child_lo
        if child_hi > best_hi:
            best_hi = child_hi
        child = t[child, NEXT]
    if t[node, UNTRIED] != 0:
        best_hi = intrinsic(ply, True)[1]
    return -best_hi, -best_lo


# Columns of the tree's integers ``t``.
PARENT, FIRST, NEXT, LAST, MOVE, UNTRIED = range(6)
TREE_INTS = 6
"""``t[node, UNTRIED]``: how many untried moves ``untried[node]`` holds (-1: none listed, never expanded)."""


@njit(cache=True, nogil=True)
def advance(  # noqa: C901 -- ``MonteCarloTreeSearch._advance`` with its selection, expansion, playout and proofs
    steps: int,
    moves_cap: int,
    node_cap: int,
    c: float,
    s: np.ndarray,
    visits: np.ndarray,
    total: np.ndarray,
    t: np.ndarray,
    untried: np.ndarray,
    has: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    path: np.ndarray,
    random: np.random.Generator,
    g: np.ndarray,
) -> int:
    """Take up to ``steps`` iterations, as ``Searcher.run`` would: none past ``moves_cap`` moves in all (-1: no cap),
    none once ``node_cap`` nodes are held (-1: no cap).  Returns why it stopped (``STEPS_DONE``, ``ENDED``,
    ``BLOCKED``, ``NODE_CAP``, or ``TREE_FULL``: the arrays must grow before the next iteration)."""
    cells = g[CELLS]
    moves = np.empty(g[WIDTH], dtype=np.int64)
    root_ply = s[ROOT_PLY]
    for _ in range(steps):
        if s[FINISHED]:
            return ENDED
        if moves_cap >= 0 and moves_cap - s[MOVES] < 1:
            return BLOCKED
        if node_cap >= 0 and s[NODES] >= node_cap:
            return NODE_CAP
        if s[NODES] + 1 > visits.shape[0]:
            return TREE_FULL
        # Selection.
        node = 0
        depth = 0
        path[0] = 0
        current = s[ROOT_CURRENT]
        mask = s[ROOT_MASK]
        winner = 2
        while True:
            left = t[node, UNTRIED]
            if left == -1 or (left > 0 and not s[PARTIAL]):
                break
            ply = root_ply + depth
            exploration = c * math.sqrt(math.log(visits[node]))
            best = -1
            best_score = -np.inf
            sure = 0
            may_not_lose = False
            unsettled_lo, unsettled_hi = intrinsic(ply + 1, False)
            if s[SOLVER]:
                node_lo, node_hi = bounds_of(node, ply, has, lo, hi)
                sure = -node_hi
                may_not_lose = node_lo <= 0
            child = t[node, FIRST]
            while child >= 0:
                searched = True
                if s[SOLVER]:
                    span_lo, span_hi = (lo[child], hi[child]) if has[child] else (unsettled_lo, unsettled_hi)
                    improvable = span_lo != span_hi and span_hi > sure
                    searched = improvable and not (may_not_lose and span_hi < 0)
                if searched:
                    n = visits[child]
                    value = total[child] / n + exploration / math.sqrt(n)
                    if value > best_score:
                        best = child
                        best_score = value
                child = t[child, NEXT]
            if left > 0:
                children = 0
                child = t[node, FIRST]
                while child >= 0:
                    children += 1
                    child = t[child, NEXT]
                if best < 0 or 0.5 + math.sqrt(math.log(visits[node]) / (1 + children)) > best_score:
                    break
            node = best
            depth += 1
            path[depth] = node
            current, mask, winner = drop(current, mask, t[node, MOVE], g)
        ply = root_ply + depth
        if winner == 2:
            # Expansion: a random untried move.
            if t[node, UNTRIED] == -1:
                t[node, UNTRIED] = legal_moves(mask, 2, g, moves)
                for i in range(t[node, UNTRIED]):
                    untried[node, i] = moves[i]
            left = t[node, UNTRIED]
            index = int(random.random() * left)
            move = untried[node, index]
            untried[node, index] = untried[node, left - 1]
            untried[node, left - 1] = move
            t[node, UNTRIED] = left - 1
            current, mask, winner = drop(current, mask, move, g)
            child = s[NODES]
            visits[child] = 0
            total[child] = 0.0
            t[child, PARENT] = node
            t[child, FIRST] = -1
            t[child, NEXT] = -1
            t[child, LAST] = -1
            t[child, MOVE] = move
            t[child, UNTRIED] = -1
            has[child] = 0
            if t[node, LAST] >= 0:
                t[t[node, LAST], NEXT] = child
            else:
                t[node, FIRST] = child
            t[node, LAST] = child
            s[NODES] += 1
            depth += 1
            path[depth] = child
            ply += 1
            if depth > s[MAX_DEPTH]:
                s[MAX_DEPTH] = depth
            if winner != 2:
                mover_into = 1 if ply % 2 == 1 else -1
                has[child] = 1
                lo[child] = score(winner * mover_into, ply)
                hi[child] = lo[child]
        s[MOVES] += 1
        # Simulation: the leaf's result for the player who moved into it.
        mover = 1 if ply % 2 == 1 else -1
        if winner == 2:
            played = 0
            stones = ply
            while True:
                count = legal_moves(mask, 2, g, moves)
                column = moves[int(random.random() * count)]
                current, mask, _ = drop(current, mask, column, g)
                stones += 1
                played += 1
                if won(current ^ mask, g):
                    winner = 1 if stones % 2 == 1 else -1
                    break
                if stones == cells:
                    winner = 0
                    break
            s[PLAYOUTS] += 1
            s[PLAYOUT_MOVES] += played
        reward = 1.0 if winner == mover else (0.0 if winner != 0 else 0.5)
        # Back-up, the point of view flipped every ply.
        for index in range(depth, -1, -1):
            node = path[index]
            visits[node] += 1
            total[node] += reward
            if index:
                reward = 1 - reward
        # Proofs: bounds passed up the path while they change.
        for index in range(depth - 1, -1, -1):
            node = path[index]
            node_ply = root_ply + index
            span_lo, span_hi = _backed(node, node_ply, t, has, lo, hi)
            old_lo, old_hi = bounds_of(node, node_ply, has, lo, hi)
            if span_lo == old_lo and span_hi == old_hi:
                break
            has[node] = 1
            lo[node] = span_lo
            hi[node] = span_hi
        if s[SOLVER] and has[0] and lo[0] == hi[0]:
            s[FINISHED] = 1
        s[ITERATIONS] += 1
    return STEPS_DONE

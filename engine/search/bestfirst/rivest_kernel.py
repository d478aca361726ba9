"""Rivest's min/max approximation compiled by numba: the twin of ``plyscope.engine.search.bestfirst.rivest.Rivest``.

The same search, step for step (read ``Rivest``'s docstrings for the method): follow ``a`` from the root to the tip
of least penalty, generate and evaluate all its children, rescore ``v``, ``a`` and ``pi`` from the tip up to the
root; the three modes (``reverse``, ``reverse-derivative``, ``mean``), Rivest's move accounting.  The tree is in
arrays, one row per node, a node's children in consecutive rows (so a node is 30 bytes: value, penalty, its ``a``,
its father, its first child, its children's number and its move); no position is kept, the tip's is made again
from the root's on the way down (uncounted, as the Python searcher makes a tip's from its father's).  The
generalized mean's sums are exact (``fsum``, Shewchuk's algorithm as CPython's ``math.fsum``), so every number is
the Python searcher's to the last bit.

Values are from the first player's point of view, shifted to be positive, as in ``Rivest``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from plyscope.engine.compiled.board import WIDTH, drop, evaluate, legal_moves, popcount

# Indices into the scalars array ``s``.
MOVES, ITERATIONS, NODES, MAX_DEPTH, FINISHED, ACCOUNTING, MODE, ROOT_CURRENT, ROOT_MASK = range(9)
SCALARS = 9
# Indices into the parameters array ``x``: the exponent, the reverse mode's constant weight, the shift.
P, WEIGHT, SHIFT = range(3)
REVERSE, MEAN, REVERSE_DERIVATIVE = range(3)
"""Modes, in the order of ``plyscope.engine.search.bestfirst.rivest.MODES``."""
STEPS_DONE, ENDED, BLOCKED, NODE_CAP, TREE_FULL = range(5)
INF = np.inf


@njit(cache=True, nogil=True)
def fsum(values: np.ndarray, n: int) -> float:  # noqa: C901 -- CPython's math.fsum, step for step
    """The correctly rounded sum of the first ``n`` (finite) ``values``: CPython's ``math.fsum`` (Shewchuk)."""
    partials = np.empty(n + 1, dtype=np.float64)
    count = 0
    for k in range(n):
        x = values[k]
        i = 0
        for j in range(count):
            y = partials[j]
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        count = i
        if x != 0.0:
            partials[count] = x
            count += 1
    hi = 0.0
    if count > 0:
        count -= 1
        hi = partials[count]
        lo = 0.0
        while count > 0:
            x = hi
            count -= 1
            y = partials[count]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        if count > 0 and ((lo < 0.0 and partials[count - 1] < 0.0) or (lo > 0.0 and partials[count - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return float(hi)


@njit(cache=True, nogil=True)
def log_generalized_mean(logs: np.ndarray, n: int, p: float, scratch: np.ndarray) -> float:
    """``plyscope.engine.search.bestfirst.genmean.log_generalized_mean`` of the first ``n`` ``logs``."""
    if p == 0:
        return fsum(logs, n) / n
    anchor = logs[0]
    for i in range(1, n):
        if (p > 0 and logs[i] > anchor) or (p < 0 and logs[i] < anchor):
            anchor = logs[i]
    for i in range(n):
        scratch[i] = math.exp(p * (logs[i] - anchor))
    return float(anchor + math.log(fsum(scratch, n) / n) / p)


@njit(cache=True, nogil=True)
def _rescore(  # noqa: C901 -- ``Rivest._rescore_reverse`` and ``_rescore_mean``: the search's inner loop
    node: int, player: int, s: np.ndarray, x: np.ndarray, v: np.ndarray, pi: np.ndarray, a: np.ndarray,
    first: np.ndarray, count: np.ndarray, logs: np.ndarray, scratch: np.ndarray,
) -> None:  # fmt: skip
    """Back up ``node``'s value, weigh its edges, choose its ``a`` (``player`` the one to move there)."""
    start = first[node]
    n = count[node]
    least = INF
    chosen = start
    if s[MODE] == MEAN:
        q = x[P] * player
        for i in range(n):
            logs[i] = math.log(v[start + i])
        log_mean = log_generalized_mean(logs, n, q, scratch)
        base = math.log(n)
        slope = q - 1.0
        for i in range(n):
            cost = pi[start + i] + base - slope * (logs[i] - log_mean)
            if cost < least:
                least = cost
                chosen = start + i
        v[node] = math.exp(log_mean)
    else:
        best_v = v[start]
        if player > 0:
            for i in range(n):
                if v[start + i] > best_v:
                    best_v = v[start + i]
            slope = x[P] - 1.0
        else:
            for i in range(n):
                if v[start + i] < best_v:
                    best_v = v[start + i]
            slope = x[P] + 1.0
        best_log = math.log(best_v)
        if s[MODE] == REVERSE:
            base = x[WEIGHT]
            for i in range(n):
                cost = pi[start + i] + (base + abs(math.log(v[start + i]) - best_log))
                if cost < least:
                    least = cost
                    chosen = start + i
        else:
            base = math.log(n)
            for i in range(n):
                cost = pi[start + i] + (base + slope * abs(math.log(v[start + i]) - best_log))
                if cost < least:
                    least = cost
                    chosen = start + i
        v[node] = best_v
    pi[node] = least
    a[node] = chosen


@njit(cache=True, nogil=True)
def advance(  # noqa: C901 -- ``Rivest._advance``: the search's inner loop
    steps: int,
    moves_cap: int,
    node_cap: int,
    s: np.ndarray,
    x: np.ndarray,
    v: np.ndarray,
    pi: np.ndarray,
    a: np.ndarray,
    parent: np.ndarray,
    first: np.ndarray,
    count: np.ndarray,
    move: np.ndarray,
    g: np.ndarray,
    e: np.ndarray,
) -> int:
    """Take up to ``steps`` expansions, as ``Searcher.run`` would: none past ``moves_cap`` moves in all (-1: no cap),
    none once ``node_cap`` nodes are held (-1: no cap).  Returns why it stopped (``STEPS_DONE``, ``ENDED``,
    ``BLOCKED``, ``NODE_CAP``, or ``TREE_FULL``: the arrays must grow before the next step)."""
    width = g[WIDTH]
    moves = np.empty(width, dtype=np.int64)
    logs = np.empty(width, dtype=np.float64)
    scratch = np.empty(width, dtype=np.float64)
    root_player = 1 if popcount(s[ROOT_MASK]) % 2 == 0 else -1
    for _ in range(steps):
        if s[FINISHED]:
            return ENDED
        if node_cap >= 0 and s[NODES] >= node_cap:
            return NODE_CAP
        if s[NODES] + width > v.shape[0]:
            return TREE_FULL
        tip = 0
        depth = 0
        current = s[ROOT_CURRENT]
        mask = s[ROOT_MASK]
        while a[tip] >= 0:
            tip = a[tip]
            current, mask, _ = drop(current, mask, move[tip], g)
            depth += 1
        n = legal_moves(mask, 2, g, moves)
        cost = n + depth if s[ACCOUNTING] else n
        if moves_cap >= 0 and cost > moves_cap - s[MOVES]:
            return BLOCKED
        ply = popcount(mask) + 1
        start = s[NODES]
        for i in range(n):
            child = start + i
            child_current, child_mask, winner = drop(current, mask, moves[i], g)
            v[child] = evaluate(child_current, child_mask, ply, winner, g, e) + x[SHIFT]
            pi[child] = 0.0 if winner == 2 else INF
            a[child] = -1
            parent[child] = tip
            first[child] = -1
            count[child] = 0
            move[child] = moves[i]
        first[tip] = start
        count[tip] = n
        s[MOVES] += cost
        s[NODES] += n
        if depth + 1 > s[MAX_DEPTH]:
            s[MAX_DEPTH] = depth + 1
        s[ITERATIONS] += 1
        node = tip
        while node >= 0:
            player = root_player if depth % 2 == 0 else -root_player
            _rescore(node, player, s, x, v, pi, a, first, count, logs, scratch)
            node = parent[node]
            depth -= 1
        if pi[0] == INF:
            s[FINISHED] = 1
    return STEPS_DONE


@njit(cache=True, nogil=True)
def subtree_log_means(nodes: int, root_player: int, p: float, v: np.ndarray, parent: np.ndarray, first: np.ndarray,
                      count: np.ndarray, width: int) -> np.ndarray:  # fmt: skip
    """``ln`` of every node's generalized-mean value of its subtree (``Rivest._subtree_log_mean``): a father's row
    comes before its children's, so one pass back from the last row has every child's before its father's."""
    player = np.empty(nodes, dtype=np.int64)
    player[0] = root_player
    for i in range(1, nodes):
        player[i] = -player[parent[i]]
    means = np.empty(nodes, dtype=np.float64)
    logs = np.empty(width, dtype=np.float64)
    scratch = np.empty(width, dtype=np.float64)
    for i in range(nodes - 1, -1, -1):
        n = count[i]
        if n:
            for k in range(n):
                logs[k] = means[first[i] + k]
            means[i] = log_generalized_mean(logs, n, p * player[i], scratch)
        else:
            means[i] = math.log(v[i])
    return means

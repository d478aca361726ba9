"""Alpha-beta's ``run()`` compiled by numba: the twin of ``plyscope.engine.search.alphabeta.searcher.AlphaBeta``, on
Connect Four.

The same search, step for step (read ``AlphaBeta``'s docstrings for the method): iterative deepening, fail-soft
alpha-beta with the first player MAX, the four orderings, the transposition table (exact-depth values, best move
first), Rivest's move accounting; the same move, value, principal variation, moves, steps, nodes and depth
reached for the same position, parameters and budget (the tests hold the two to it).  What differs is what is
kept: no tree.  The open nodes are a stack of frames in arrays, one row per ply; the principal variation is a
triangular table (each frame's best line, copied up as a child becomes its parent's best), which is exactly the
line ``AlphaBeta.principal_path`` walks down the kept tree (its first child of the best value at every node); the
transposition table is open addressing on arrays that double as they fill, never losing an entry, as the Python
dict does not.  ``stats.nodes`` still counts the nodes the Python tree would hold, so a node cap stops both at the
same step.

Points of view: every value, ``alpha`` and ``beta`` from the **first player's**, as in ``AlphaBeta``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plyscope.engine.compiled.board import HEIGHT, WIDTH, drop, evaluate, legal_moves, popcount

# Indices into the scalars array ``s``.
(
    MOVES,
    ITERATIONS,
    NODES,
    MAX_DEPTH,
    COMPLETED_NODES,
    ITERATION,
    FINISHED,
    SOLVED,
    SP,
    HAS_COMPLETED,
    ENTRIES,
    DEPTH_CAP,
    SORT_FROM,
    HISTORY,
    TT,
    ACCOUNTING,
    ROOT_CURRENT,
    ROOT_MASK,
    CPV_LEN,
) = range(19)
SCALARS = 19
# Columns of a frame's integers ``fi``.
CUR, MASK, PLY, REM, NEXT, COUNT, SORTED, KEY, BEST, HORIZON, HAS_VALUE, PV_LEN = range(12)
FRAME_INTS = 12
# Columns of a frame's floats ``ff``: the open node's value and window, and its window on entry.
VALUE, ALPHA, BETA, ALPHA_IN, BETA_IN = range(5)
FRAME_FLOATS = 5
# Bounds, as ``AlphaBetaNode.bound`` writes them.
EXACT, LOWER, UPPER = range(3)
# What a call of ``advance`` stopped on.
STEPS_DONE, ENDED, BLOCKED, NODE_CAP, TABLE_FULL = range(5)
INF = np.inf
HASH = -7046029254386353131
"""``0x9E3779B97F4A7C15`` as a signed 64-bit number: Fibonacci hashing of the table's keys."""


@njit(cache=True, nogil=True)
def _slot(key: int, keys: np.ndarray, meta: np.ndarray) -> int:
    """The table slot holding ``key``, or the empty slot where it goes (linear probing; the table is never full)."""
    capacity = keys.shape[0]
    bits = 0
    while (1 << bits) < capacity:
        bits += 1
    slot = ((key * HASH) >> (64 - bits)) & (capacity - 1)
    while meta[slot] != 0 and keys[slot] != key:
        slot = (slot + 1) & (capacity - 1)
    return int(slot)


@njit(cache=True, nogil=True)
def regrow(keys: np.ndarray, values: np.ndarray, meta: np.ndarray, new_keys: np.ndarray, new_values: np.ndarray,
           new_meta: np.ndarray) -> None:  # fmt: skip
    """Copy every entry of the table into a larger one."""
    for i in range(keys.shape[0]):
        if meta[i] != 0:
            slot = _slot(keys[i], new_keys, new_meta)
            new_keys[slot] = keys[i]
            new_values[slot] = values[i]
            new_meta[slot] = meta[i]


# A table entry's ``meta``: 1 (used) | horizon << 1 | bound << 2 | (best move + 1) << 4 | remaining depth << 12.


@njit(cache=True, nogil=True)
def _open(  # noqa: C901 -- ``AlphaBeta._open``: the children's order, one function
    d: int,
    current: int,
    mask: int,
    ply: int,
    remaining: int,
    key: int,
    first: int,
    alpha: float,
    beta: float,
    s: np.ndarray,
    fi: np.ndarray,
    ff: np.ndarray,
    fmoves: np.ndarray,
    fevals: np.ndarray,
    cpv: np.ndarray,
    history: np.ndarray,
    g: np.ndarray,
    e: np.ndarray,
) -> None:
    """Open frame ``d`` on the position, its children in search order (``first``, a table move, goes first; -1:
    none).  With a static ordering and ``remaining`` at least ``SORT_FROM``, every child is played and evaluated
    (the caller counted those moves)."""
    count = legal_moves(mask, 2, g, fmoves[d])
    moves = fmoves[d]
    player = 1 if ply % 2 == 0 else -1
    sort_from = s[SORT_FROM]
    if sort_from and remaining >= sort_from:
        evals = fevals[d]
        for i in range(count):
            child, child_mask, winner = drop(current, mask, moves[i], g)
            evals[i] = evaluate(child, child_mask, ply + 1, winner, g, e)
        # Stable insertion sort by -player * value (Python's ``sorted``), then ``first`` to the front.
        for i in range(1, count):
            move = moves[i]
            value = evals[i]
            rank = -player * value
            j = i
            while j > 0 and -player * evals[j - 1] > rank:
                moves[j] = moves[j - 1]
                evals[j] = evals[j - 1]
                j -= 1
            moves[j] = move
            evals[j] = value
        if first >= 0:
            _to_front(moves, evals, count, first)
        fi[d, SORTED] = 1
    else:
        if s[HISTORY] and count > 1:
            scores = history[0 if player > 0 else 1]
            for i in range(1, count):
                move = moves[i]
                rank = -scores[move]
                j = i
                while j > 0 and -scores[moves[j - 1]] > rank:
                    moves[j] = moves[j - 1]
                    j -= 1
                moves[j] = move
            if first < 0 and d == 0 and s[HAS_COMPLETED]:
                first = cpv[0]
        if first >= 0 and moves[0] != first:
            _to_front(moves, fevals[d], count, first)
        fi[d, SORTED] = 0
    fi[d, CUR] = current
    fi[d, MASK] = mask
    fi[d, PLY] = ply
    fi[d, REM] = remaining
    fi[d, NEXT] = 0
    fi[d, COUNT] = count
    fi[d, KEY] = key
    fi[d, BEST] = -1
    fi[d, HORIZON] = 0
    fi[d, HAS_VALUE] = 0
    fi[d, PV_LEN] = 0
    ff[d, VALUE] = 0.0
    ff[d, ALPHA] = alpha
    ff[d, BETA] = beta
    ff[d, ALPHA_IN] = alpha
    ff[d, BETA_IN] = beta


@njit(cache=True, nogil=True)
def _to_front(moves: np.ndarray, evals: np.ndarray, count: int, first: int) -> None:
    """Move ``first`` (if it is among the ``count`` moves) to the front, the others keeping their order."""
    at = -1
    for i in range(count):
        if moves[i] == first:
            at = i
            break
    if at <= 0:
        return
    value = evals[at]
    for j in range(at, 0, -1):
        moves[j] = moves[j - 1]
        evals[j] = evals[j - 1]
    moves[0] = first
    evals[0] = value


@njit(cache=True, nogil=True)
def _close(d: int, s: np.ndarray, fi: np.ndarray, ff: np.ndarray, keys: np.ndarray, values: np.ndarray,
           meta: np.ndarray, history: np.ndarray) -> None:  # fmt: skip
    """``AlphaBeta._close``: frame ``d``'s bound, its table entry, its history credit."""
    value = ff[d, VALUE]
    if value <= ff[d, ALPHA_IN]:
        bound = UPPER
    elif value >= ff[d, BETA_IN]:
        bound = LOWER
    else:
        bound = EXACT
    remaining = fi[d, REM]
    best = fi[d, BEST]
    if s[TT]:
        slot = _slot(fi[d, KEY], keys, meta)
        if meta[slot] == 0:
            s[ENTRIES] += 1
        keys[slot] = fi[d, KEY]
        values[slot] = value
        meta[slot] = 1 | (fi[d, HORIZON] << 1) | (bound << 2) | ((best + 1) << 4) | (remaining << 12)
    player = 1 if fi[d, PLY] % 2 == 0 else -1
    if s[HISTORY] and bound != (UPPER if player > 0 else LOWER):
        history[0 if player > 0 else 1, best] += remaining * remaining


@njit(cache=True, nogil=True)
def _back_up(  # noqa: C901 -- ``AlphaBeta._back_up``: a completed node folded into its ancestors, no call per level
    d: int,
    move: int,
    value: float,
    horizon: int,
    s: np.ndarray,
    fi: np.ndarray,
    ff: np.ndarray,
    fmoves: np.ndarray,
    pv: np.ndarray,
    cpv: np.ndarray,
    cvalue: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    meta: np.ndarray,
    history: np.ndarray,
) -> None:
    """Fold the completed child ``move`` (``value``; its line in ``pv[d + 1]``) into frame ``d``; close every frame
    this completes, up to the root."""
    while True:
        if horizon:
            fi[d, HORIZON] = 1
        improved = False
        if fi[d, PLY] % 2 == 0:
            if not fi[d, HAS_VALUE] or value > ff[d, VALUE]:
                improved = True
            if value > ff[d, ALPHA]:
                ff[d, ALPHA] = value
        else:
            if not fi[d, HAS_VALUE] or value < ff[d, VALUE]:
                improved = True
            if value < ff[d, BETA]:
                ff[d, BETA] = value
        if improved:
            ff[d, VALUE] = value
            fi[d, HAS_VALUE] = 1
            fi[d, BEST] = move
            pv[d, 0] = move
            length = fi[d + 1, PV_LEN]
            for i in range(length):
                pv[d, i + 1] = pv[d + 1, i]
            fi[d, PV_LEN] = length + 1
        if ff[d, ALPHA] < ff[d, BETA] and fi[d, NEXT] < fi[d, COUNT]:
            return
        _close(d, s, fi, ff, keys, values, meta, history)
        s[SP] = d
        if d == 0:
            _complete_iteration(s, fi, ff, pv, cpv, cvalue)
            return
        value = ff[d, VALUE]
        horizon = fi[d, HORIZON]
        d -= 1
        move = fmoves[d, fi[d, NEXT] - 1]


@njit(cache=True, nogil=True)
def _complete_iteration(s: np.ndarray, fi: np.ndarray, ff: np.ndarray, pv: np.ndarray, cpv: np.ndarray,
                        cvalue: np.ndarray) -> None:  # fmt: skip
    """The root is complete: keep its value and line, and deepen or finish."""
    s[HAS_COMPLETED] = 1
    cvalue[0] = ff[0, VALUE]
    length = fi[0, PV_LEN]
    for i in range(length):
        cpv[i] = pv[0, i]
    s[CPV_LEN] = length
    s[NODES] -= s[COMPLETED_NODES]
    s[COMPLETED_NODES] = s[NODES]
    if not fi[0, HORIZON]:
        s[SOLVED] = 1
        s[FINISHED] = 1
    elif s[DEPTH_CAP] and s[ITERATION] >= s[DEPTH_CAP]:
        s[FINISHED] = 1
    else:
        s[ITERATION] += 1


@njit(cache=True, nogil=True)
def _lookup(key: int, keys: np.ndarray, meta: np.ndarray) -> int:
    """The table's ``meta`` for ``key`` (0: no entry)."""
    return int(meta[_slot(key, keys, meta)])


@njit(cache=True, nogil=True)
def advance(  # noqa: C901 -- ``AlphaBeta._advance``, ``_enter`` and ``_start_iteration``: the search's inner loop
    steps: int,
    moves_cap: int,
    node_cap: int,
    s: np.ndarray,
    fi: np.ndarray,
    ff: np.ndarray,
    fmoves: np.ndarray,
    fevals: np.ndarray,
    pv: np.ndarray,
    cpv: np.ndarray,
    cvalue: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    meta: np.ndarray,
    history: np.ndarray,
    g: np.ndarray,
    e: np.ndarray,
) -> int:
    """Take up to ``steps`` steps, as ``Searcher.run`` would: none past ``moves_cap`` moves in all (-1: no cap), none
    once ``node_cap`` nodes are held (-1: no cap).  Returns why it stopped (``STEPS_DONE``, ``ENDED``, ``BLOCKED``,
    ``NODE_CAP``, or ``TABLE_FULL``: the table must grow before the next step)."""
    cells = g[HEIGHT] * g[WIDTH]
    for _ in range(steps):
        if s[FINISHED]:
            return ENDED
        if node_cap >= 0 and s[NODES] >= node_cap:
            return NODE_CAP
        if s[TT] and 2 * (s[ENTRIES] + cells + 2) > keys.shape[0]:
            return TABLE_FULL
        left = -1 if moves_cap < 0 else moves_cap - s[MOVES]
        sp = s[SP]
        if sp == 0:
            # Open the root of the iteration ``s[ITERATION]``.
            depth = s[ITERATION]
            current = s[ROOT_CURRENT]
            mask = s[ROOT_MASK]
            cost = 0
            if s[SORT_FROM] and depth >= s[SORT_FROM]:
                cost = legal_moves(mask, 2, g, fmoves[0])
            if left >= 0 and cost > left:
                return BLOCKED
            s[MOVES] += cost
            s[NODES] = s[COMPLETED_NODES] + 1
            key = current + mask
            first = -1
            if s[TT]:
                entry = _lookup(key, keys, meta)
                if entry:
                    first = ((entry >> 4) & 0xFF) - 1
            _open(0, current, mask, popcount(mask), depth, key, first, -INF, INF, s, fi, ff, fmoves, fevals, cpv,
                  history, g, e)  # fmt: skip
            s[SP] = 1
            s[ITERATIONS] += 1
            continue
        d = sp - 1
        index = fi[d, NEXT]
        move = fmoves[d, index]
        cost = s[ACCOUNTING] if fi[d, SORTED] else 1
        if left >= 0 and left < cost:
            return BLOCKED
        current, mask, winner = drop(fi[d, CUR], fi[d, MASK], move, g)
        ply = fi[d, PLY] + 1
        remaining = fi[d, REM] - 1
        leaf = True
        horizon = 0
        value = 0.0
        key = 0
        table_move = -1
        if winner != 2 or remaining == 0:
            value = fevals[d, index] if fi[d, SORTED] else evaluate(current, mask, ply, winner, g, e)
            horizon = 1 if winner == 2 else 0
        else:
            leaf = False
            key = current + mask
            if s[TT]:
                entry = _lookup(key, keys, meta)
                if entry:
                    table_move = ((entry >> 4) & 0xFF) - 1
                    if (entry >> 12) == remaining:
                        value = values[_slot(key, keys, meta)]
                        bound = (entry >> 2) & 3
                        if (
                            bound == EXACT
                            or (bound == LOWER and value >= ff[d, BETA])
                            or (bound == UPPER and value <= ff[d, ALPHA])
                        ):
                            leaf = True
                            horizon = (entry >> 1) & 1
            if not leaf and s[SORT_FROM] and remaining >= s[SORT_FROM]:
                extra = legal_moves(mask, 2, g, fmoves[d + 1])
                if left >= 0 and cost + extra > left:
                    return BLOCKED
                cost += extra
        # Attach the child: the visit is committed.
        s[MOVES] += cost
        s[NODES] += 1
        fi[d, NEXT] = index + 1
        if d + 1 > s[MAX_DEPTH]:
            s[MAX_DEPTH] = d + 1
        s[ITERATIONS] += 1
        if leaf:
            fi[d + 1, PV_LEN] = 0
            _back_up(d, move, value, horizon, s, fi, ff, fmoves, pv, cpv, cvalue, keys, values, meta, history)
        else:
            _open(d + 1, current, mask, ply, remaining, key, table_move, ff[d, ALPHA], ff[d, BETA], s, fi, ff, fmoves,
                  fevals, cpv, history, g, e)  # fmt: skip
            s[SP] = sp + 1
    return STEPS_DONE

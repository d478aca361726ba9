"""The exact solver's negamax compiled to machine code by numba, for boards of at most ``NATIVE_MAX_BITS`` bits.

The same search, node for node, as the pure Python kernel of ``plyscope.engine.solver.python_kernel``
(read its docstrings for the method): Pons' bounds, a transposition table of bounds, only
moves that do not lose at once, children ordered by the threats they create (ties centre
first), one node per child looked at.  What differs is the table, which is Pons' own: a
fixed array indexed by ``key % capacity`` (a prime), each slot holding one full key and its
stored bound, a new entry overwriting the old.  Bitboards are ``int64``; a board of at most
``kernel.NATIVE_MAX_BITS`` bits keeps every right shift on non-negative values (bits a left
shift pushes past the top only land in threat sets, which are masked to the board).

On 7x6, a position with ``book_ply`` stones (12) is scored by Thill's opening book
(``plyscope.engine.solver.book``) instead of searched, as in the pure Python kernel: ``_book_score``
codes it as the book does and looks it up, by a binary search in the packed arrays the caller passes.

The recursion is unrolled into one loop (``_negamax``), each node's state kept in a row of ``frames``: a
recursive call passed a dozen arrays and counted a reference to each, on the way in and out, which took half
of every node's time (measured: 6.4 against 13.9 million nodes per CPU second, the same nodes).

The search runs without the GIL (``nogil=True``: measured, a thread running Python keeps
running while another is inside ``root``), so a UI thread stays responsive while it solves.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from plyscope.engine import numba_cache
from plyscope.engine.games.connect4 import Connect4
from plyscope.engine.solver.book import BOOK_PLY, BookArrays, OpeningBook
from plyscope.engine.solver.kernel import Kernel, NodeBudgetSpent, centre_first, score_bounds, table_slots

numba_cache.configure()  # before the first kernel below is compiled: numba's cache in plyscope's folder

SLICE_NODES: Final = 1 << 15
"""Nodes this kernel searches in a few milliseconds (2 to 5 ms at 7 to 14 million nodes a second)."""
ABORT = 1 << 20
"""What a search stopped by its node budget returns, level after level (no score is near it)."""
NO_BUDGET = 1 << 62
"""The node limit of a search without a budget."""
LOWER = 192
"""Offset of a stored lower bound (stored values are never 0: 0 is an empty slot)."""
UPPER = 64
"""Offset of a stored upper bound."""

MISSING = 100
"""What ``_book_score`` returns for a position the book does not hold (no score is near it)."""
NO_BOOK = -1
"""``book_ply`` when the search uses no book."""

# Indices into the ``geometry`` array.
BOARD, BOTTOM, DRAW_FROM, S1, S2, S3 = range(6)
# Rows of the ``bounds`` array (``kernel.score_bounds``), by the number of stones on the board.
LOSS_NOW, LOWEST, HIGHEST, WIN_NEXT = range(4)
# Indices into the ``counters`` array.
NODES, LIMIT = range(2)


@njit(cache=True, nogil=True)
def _threats(p: int, empty: int, s1: int, s2: int, s3: int) -> int:
    """The empty cells where the owner of ``p`` would complete four."""
    w = ((p & (p << 1)) & (p << 2)) << 1
    x = (p >> (3 * s1)) | (p << s1)
    y = p & (p >> s1)
    w |= ((y >> s1) & x) | ((y & x) << (2 * s1))
    x = (p >> (3 * s2)) | (p << s2)
    y = p & (p >> s2)
    w |= ((y >> s2) & x) | ((y & x) << (2 * s2))
    x = (p >> (3 * s3)) | (p << s3)
    y = p & (p >> s3)
    w |= ((y >> s3) & x) | ((y & x) << (2 * s3))
    return w & empty


@njit(cache=True, nogil=True)
def _book_code(current: int, mask: int, mirrored: bool) -> int:
    """The book's Huffman code of a 7x6 position (``plyscope.engine.solver.book``), its sign bit flipped."""
    code = 0
    for i in range(7):
        shift = 7 * (6 - i if mirrored else i)
        stones = (mask >> shift) & 63
        mover = (current >> shift) & 63
        for row in range(6):
            if not (stones >> row) & 1:
                break
            code = (code << 2) | (2 if (mover >> row) & 1 else 3)
        code <<= 1
    return (code << 1) ^ (1 << 31)


@njit(cache=True, nogil=True)
def _book_score(current: int, mask: int, index: np.ndarray, low: np.ndarray, scores: np.ndarray) -> int:
    """The book's score of a 7x6 position with 12 stones for its player to move (``current``), else ``MISSING``."""
    for mirrored in (False, True):
        key = _book_code(current, mask, mirrored)
        target = key & 0xFFFF
        start = index[key >> 16]
        end = index[(key >> 16) + 1]
        while start < end:
            middle = (start + end) >> 1
            if low[middle] < target:
                start = middle + 1
            else:
                end = middle
        if start < index[(key >> 16) + 1] and low[start] == target:
            return int(scores[start])
    return MISSING


# Columns of the ``frames`` array: what a node being searched keeps while its children are (row: their stones).
CURRENT, MASK, ALPHA, BETA, SLOT, NEXT, COUNT = range(7)
FRAME_COLUMNS = 7


@njit(cache=True, nogil=True)
def _negamax(  # noqa: C901 -- the solver kernel, compiled: one function, no call per node
    current: int,
    mask: int,
    moves: int,
    alpha: int,
    beta: int,
    possible: int,
    geometry: np.ndarray,
    columns: np.ndarray,
    bounds: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    counters: np.ndarray,
    order: np.ndarray,
    cells: np.ndarray,
    lanes: np.ndarray,
    frames: np.ndarray,
    book_ply: int,
    book_index: np.ndarray,
    book_low: np.ndarray,
    book_scores: np.ndarray,
) -> int:
    """``python_kernel``'s ``negamax``: the caller counted this node and made Pons' first checks.

    The recursion is unrolled: a node whose child needs a search keeps its state in ``frames`` (the row of its
    children's stones) and the loop enters the child; when a node's value is known, the loop goes back to its
    parent's row.  The same nodes in the same order as the recursive search."""
    board = geometry[BOARD]
    bottom = geometry[BOTTOM]
    draw_from = geometry[DRAW_FROM]
    s1 = geometry[S1]
    s2 = geometry[S2]
    s3 = geometry[S3]
    capacity = keys.shape[0]
    top = moves
    """The stones of the position searched: its value is the search's."""
    value = 0
    entering = True
    while True:
        if entering:
            # Enter the node (current, mask, moves, alpha, beta, possible); ``value`` if it is settled at once.
            settled = False
            bound = bounds[LOWEST, moves]
            if alpha < bound:
                alpha = bound
            bound = bounds[HIGHEST, moves]
            if beta > bound:
                beta = bound
                if alpha >= beta:
                    value = beta
                    settled = True
            key = current + mask
            slot = key % capacity
            if not settled and values[slot] != 0 and keys[slot] == key:
                entry = int(np.int64(values[slot]))
                if entry >= 128:
                    bound = entry - LOWER
                    if alpha < bound:
                        alpha = bound
                        if alpha >= beta:
                            value = alpha
                            settled = True
                else:
                    bound = entry - UPPER
                    if beta > bound:
                        beta = bound
                        if alpha >= beta:
                            value = beta
                            settled = True
            if settled:
                entering = False
                continue
            else:
                empty = board ^ mask
                moves += 1
                # The children, most threats first, then centre first (Pons' MoveSorter), by insertion.
                count = 0
                for i in range(columns.shape[0]):
                    cell = possible & columns[i]
                    if cell:
                        lane = _threats(current | cell, empty, s1, s2, s3)
                        threats = 0
                        rest = lane
                        while rest:
                            rest &= rest - 1
                            threats += 1
                        rank = (threats << 4) | (15 - count)
                        j = count
                        while j > 0 and order[moves, j - 1] < rank:
                            order[moves, j] = order[moves, j - 1]
                            cells[moves, j] = cells[moves, j - 1]
                            lanes[moves, j] = lanes[moves, j - 1]
                            j -= 1
                        order[moves, j] = rank
                        cells[moves, j] = cell
                        lanes[moves, j] = lane
                        count += 1
                frames[moves, CURRENT] = current
                frames[moves, MASK] = mask
                frames[moves, SLOT] = slot
                frames[moves, NEXT] = 0
                frames[moves, COUNT] = count
        else:
            # ``value`` is the value of the node with ``moves`` stones: back to its parent (row ``moves``).
            if moves == top:
                return value
            score = -value
            beta = frames[moves, BETA]
            alpha = frames[moves, ALPHA]
            if score >= beta:
                slot = frames[moves, SLOT]
                keys[slot] = frames[moves, CURRENT] + frames[moves, MASK]
                values[slot] = score + LOWER
                value = score
                moves -= 1
                continue
            if score > alpha:
                alpha = score
            current = frames[moves, CURRENT]
            mask = frames[moves, MASK]
        # The children of the node whose row is ``moves`` (its position: current, mask; its window: alpha, beta),
        # from the next one not yet looked at, until one needs a search or the node's value is known.
        opponent = current ^ mask
        child_lost = bounds[WIN_NEXT, moves]
        child_floor = -bounds[LOWEST, moves]
        drawn = moves >= draw_from
        j = frames[moves, NEXT]
        count = frames[moves, COUNT]
        entering = False
        cut = False
        while j < count:
            if counters[NODES] >= counters[LIMIT]:
                return ABORT
            counters[NODES] += 1
            lane = lanes[moves, j]
            child_mask = mask | cells[moves, j]
            j += 1
            child_possible = (child_mask + bottom) & board
            forced = child_possible & lane
            if forced:
                child_possible = 0 if forced & (forced - 1) else forced
            child_possible &= ~(lane >> 1)
            if not child_possible:
                score = child_lost
            elif drawn:
                score = 0
            elif alpha >= child_floor:
                score = child_floor
            else:
                found = MISSING
                if moves == book_ply:
                    found = _book_score(opponent, child_mask, book_index, book_low, book_scores)
                if found == MISSING:
                    frames[moves, NEXT] = j
                    frames[moves, ALPHA] = alpha
                    frames[moves, BETA] = beta
                    current, mask, alpha, beta, possible = opponent, child_mask, -beta, -alpha, child_possible
                    entering = True
                    break
                score = -found
            if score >= beta:
                cut = True
                break
            if score > alpha:
                alpha = score
        if entering:
            continue
        slot = frames[moves, SLOT]
        keys[slot] = current + mask
        if cut:
            values[slot] = score + LOWER
            value = score
        else:
            values[slot] = alpha + UPPER
            value = alpha
        moves -= 1


@njit(cache=True, nogil=True)
def root(
    current: int,
    mask: int,
    moves: int,
    alpha: int,
    beta: int,
    threats: int,
    geometry: np.ndarray,
    columns: np.ndarray,
    bounds: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    counters: np.ndarray,
    order: np.ndarray,
    cells: np.ndarray,
    lanes: np.ndarray,
    frames: np.ndarray,
    book_ply: int,
    book_index: np.ndarray,
    book_low: np.ndarray,
    book_scores: np.ndarray,
) -> int:
    """``python_kernel``'s ``root``: negamax on a position whose player to move cannot win at once."""
    if counters[NODES] >= counters[LIMIT]:
        return ABORT
    counters[NODES] += 1
    board = geometry[BOARD]
    possible = (mask + geometry[BOTTOM]) & board
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return int(bounds[LOSS_NOW, moves])
        possible = forced
    possible &= ~(threats >> 1)
    if not possible:
        return int(bounds[LOSS_NOW, moves])
    if moves >= geometry[DRAW_FROM]:
        return 0
    if bounds[LOWEST, moves] >= beta:
        return int(bounds[LOWEST, moves])
    if moves == book_ply:
        found = _book_score(current, mask, book_index, book_low, book_scores)
        if found != MISSING:
            return found
    return _negamax(
        current,
        mask,
        moves,
        alpha,
        beta,
        possible,
        geometry,
        columns,
        bounds,
        keys,
        values,
        counters,
        order,
        cells,
        lanes,
        frames,
        book_ply,
        book_index,
        book_low,
        book_scores,
    )


def compile_native(game: Connect4, table_limit: int, book: OpeningBook | None) -> Kernel:
    """The compiled kernel for ``game``'s board, with Pons' fixed table of ``table_slots(table_limit)`` slots;
    with ``book`` (7x6 only), positions with ``BOOK_PLY`` stones are scored by it (read when first needed)."""
    cells = game.cells
    height = game.height
    geometry = np.zeros(6, dtype=np.int64)
    geometry[BOARD] = game.board_mask
    geometry[BOTTOM] = game.bottom_mask
    geometry[DRAW_FROM] = cells - 2
    geometry[S1], geometry[S2], geometry[S3] = height, height + 1, height + 2
    columns = np.array([game.column_mask[c] for c in centre_first(game.width)], dtype=np.int64)
    bounds = np.array(score_bounds(cells), dtype=np.int64)  # rows LOSS_NOW, LOWEST, HIGHEST, WIN_NEXT
    capacity = table_slots(table_limit)
    # Zeroed pages the system maps only when first written: a short search (an agent's turn) pays for the few it
    # touches, not for all 72 MB of Pons' table; the first slices of a long one pay some 10 ms more for theirs.
    keys = np.zeros(capacity, dtype=np.int64)
    values = np.zeros(capacity, dtype=np.uint8)
    counters = np.array([0, NO_BUDGET], dtype=np.int64)
    order, placed, lanes = (np.zeros((cells + 2, game.width), dtype=np.int64) for _ in range(3))
    frames = np.zeros((cells + 2, FRAME_COLUMNS), dtype=np.int64)
    no_book = BookArrays(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint16), np.zeros(0, dtype=np.int8))
    """What a search that never reaches ``BOOK_PLY`` stones passes: arrays of the book's types, empty."""

    # Load the machine code now (from numba's cache, or compiling it: a second or more), so no search pays for it:
    # with no node allowed, the call returns at once.
    stopped = np.array([0, 0], dtype=np.int64)
    empty = (NO_BOOK, no_book.index, no_book.low, no_book.scores)
    root(0, 0, 0, 0, 1, 0, geometry, columns, bounds, keys, values, stopped, order, placed, lanes, frames, *empty)

    def negamax(current: int, mask: int, moves: int, alpha: int, beta: int, threats: int) -> int:
        ply, leaves = NO_BOOK, no_book
        if book is not None and moves <= BOOK_PLY:
            ply, leaves = BOOK_PLY, book.arrays()
        found = int(
            root(
                current,
                mask,
                moves,
                alpha,
                beta,
                threats,
                geometry,
                columns,
                bounds,
                keys,
                values,
                counters,
                order,
                placed,
                lanes,
                frames,
                ply,
                leaves.index,
                leaves.low,
                leaves.scores,
            )
        )
        if found == ABORT:
            raise NodeBudgetSpent
        return found

    def set_budget(more: int | None) -> None:
        counters[LIMIT] = NO_BUDGET if more is None else counters[NODES] + more

    def clear() -> None:
        values[:] = 0
        counters[NODES] = 0

    return Kernel(
        negamax, lambda: int(np.count_nonzero(values)), lambda: int(counters[NODES]), set_budget, clear, SLICE_NODES
    )

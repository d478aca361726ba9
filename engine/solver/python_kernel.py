"""The exact solver's negamax in pure Python, for boards of any size (those over ``NATIVE_MAX_BITS`` bits need it).

The same search, node for node, as the compiled kernel (``plyscope.engine.solver.native_kernel``):
Pons' final version, negamax with alpha-beta on raw bitboards, a transposition table of
bounds, only moves that do not lose at once (a forced block is played alone), children
ordered by the threats they create (ties broken centre first), and on 7x6 the positions
with ``BOOK_PLY`` stones scored by Thill's opening book (``plyscope.engine.solver.book``)
instead of searched.  One node is one negamax call, as Pons counts them.  The table is
the compiled kernel's too: ``table_slots`` slots, a position's slot its key modulo that
prime, a new entry overwriting the slot's; so the two kernels take the same decisions in
the same order whatever the table holds.  A slot keeps the key's quotient by the prime
(which, with the slot, is the key), in two words when the board has too many bits for
one, and the stored bound; the arrays are zeroed memory the system maps only as it is
first written, so their size is fixed from the start.

For speed in Python the whole search is one closure over locals: every child's threats
(the cells where its mover would complete four) are computed by its parent, all children
at once in one wide integer (one lane per child), and handed down, so no node recomputes
the threats of the player who just moved.
"""

from __future__ import annotations

import mmap
from array import array
from typing import Final, Literal

from plyscope.engine.games.connect4 import Connect4
from plyscope.engine.solver.book import BOOK_PLY, OpeningBook
from plyscope.engine.solver.kernel import Kernel, NodeBudgetSpent, centre_first, score_bounds, table_slots

CHECK_INTERVAL: Final = 1 << 16
"""Nodes between two checks of the node budget."""
LAYOUT_LIMIT: Final = 1 << 12
"""Cached move layouts (one per set of playable non-losing cells, up to 2 KB each on 10x10) at most: a full cache is
emptied before the next is added (a few MB; at 2^18 they took some 200 MB, for no measurable speed)."""
SLICE_NODES: Final = 1 << 10
"""Nodes this kernel searches in a few milliseconds (about 4 ms at some 250,000 nodes a second on 8x7)."""
_LOWER: Final = 192
"""Offset of a stored lower bound in the transposition table (stored values are never 0)."""
_UPPER: Final = 64
"""Offset of a stored upper bound; stored values at or above 128 are lower bounds."""
_LOW: Final = (1 << 64) - 1
"""The low word of a key's quotient."""


Word = Literal["B", "H", "I", "Q"]
"""An unsigned ``array`` code: 1, 2, 4 or 8 bytes."""
WORDS: Final[tuple[tuple[Word, int], ...]] = (("B", 8), ("H", 16), ("I", 32), ("Q", 64))
"""Each unsigned ``array`` code with its bits."""


def _zeroed(slots: int, typecode: Word) -> memoryview[int]:
    """``slots`` zeros of ``typecode`` (``array`` codes), in anonymous memory mapped only when first written."""
    return memoryview(mmap.mmap(-1, slots * array(typecode).itemsize)).cast(typecode)


def _unknown(current: int, mask: int) -> int | None:
    """No book: no position's score is known without a search."""
    return None


def _word(largest: int) -> Word:
    """The smallest unsigned ``array`` code that holds ``largest``."""
    return next(code for code, bits in WORDS if largest < 1 << bits)


# Complex (C901) by design: one closure over locals for speed (see the module); its kernel, negamax, counts here.
def compile_python(game: Connect4, table_limit: int, book: OpeningBook | None) -> Kernel:  # noqa: C901
    """The negamax closure for ``game``'s board size (see ``Kernel.negamax``), every constant bound to a local; with
    ``book`` (7x6 only), positions with ``BOOK_PLY`` stones are scored by it (read when first needed)."""
    height = game.height
    cells = game.cells
    board = game.board_mask
    bottom = game.bottom_mask
    lane_bits = game.width * game.column_bits
    lane_width = lane_bits + 3 * (height + 2) + 1
    """Lane width so that no shift of the threat formula carries one lane into another."""
    lane_mask = (1 << lane_bits) - 1
    column_masks = tuple(game.column_mask[c] for c in centre_first(game.width))
    loss_now, lowest, highest, win_next = score_bounds(cells)
    draw_from = cells - 2
    """From this many stones on, a player to move who cannot win at once but has a safe move draws."""
    book_ply = -1 if book is None else BOOK_PLY
    """The stones of the positions the book scores (-1: none)."""
    book_score = _unknown if book is None else book.score
    # Shifts of the three non-vertical directions: one diagonal, horizontal, the other diagonal.
    s1, s2, s3 = height, height + 1, height + 2
    d1, d2, d3 = 2 * s1, 2 * s2, 2 * s3
    t1, t2, t3 = 3 * s1, 3 * s2, 3 * s3
    slots = table_slots(table_limit)
    high_word = _word(((1 << lane_bits) - 1) // slots >> 64)
    values = _zeroed(slots, "B")
    """Each slot's stored bound (0: empty)."""
    low_keys = _zeroed(slots, "Q")
    """Each slot's key quotient by ``slots``, its low 64 bits."""
    high_keys = _zeroed(slots, high_word)
    """The quotient's bits above the 64th (all 0 unless the board has more bits than fit beside the slot)."""
    layouts: dict[int, tuple[int, int, tuple[tuple[int, int, int], ...]]] = {}
    """Non-losing moves -> (lane replicator, their cells one per lane, (lane shift, tie rank, cell) per move).

    Moves come centre first; the tie rank (15 - position, in 4 bits) makes a sort put the more
    central of two moves with as many threats first, as Pons' ``MoveSorter`` does."""
    layout_get = layouts.get

    left = CHECK_INTERVAL
    """Nodes left before the next checkpoint."""
    window = CHECK_INTERVAL
    """The countdown ``left`` started from."""
    counted = 0
    """Nodes counted before the current countdown."""
    budget: int | None = None
    """Node count at which the search must stop (``None``: never)."""

    def layout(possible: int) -> tuple[int, int, tuple[tuple[int, int, int], ...]]:
        if len(layouts) >= LAYOUT_LIMIT:
            layouts.clear()
        cells_in_order = [possible & column for column in column_masks if possible & column]
        replicator = sum(1 << (lane_width * i) for i in range(len(cells_in_order)))
        spread = sum(cell << (lane_width * i) for i, cell in enumerate(cells_in_order))
        lanes = tuple((lane_width * i, 15 - i, cell) for i, cell in enumerate(cells_in_order))
        found = (replicator, spread, lanes)
        layouts[possible] = found
        return found

    def checkpoint() -> None:
        nonlocal left, window, counted
        counted += window - left
        if budget is not None and counted >= budget:
            window = left = 0
            raise NodeBudgetSpent
        window = left = CHECK_INTERVAL if budget is None else min(CHECK_INTERVAL, budget - counted)

    def nodes() -> int:
        return counted + window - left

    def set_budget(more: int | None) -> None:
        nonlocal budget, left, window, counted
        counted += window - left
        budget = None if more is None else counted + more
        window = left = CHECK_INTERVAL if more is None else min(CHECK_INTERVAL, more)

    def entries() -> int:
        return slots - bytes(values).count(0)

    def clear() -> None:
        nonlocal left, window, counted
        values[:] = bytes(slots)
        counted = 0
        window = left = CHECK_INTERVAL if budget is None else min(CHECK_INTERVAL, budget)

    # Complex (C901) by design: the solver kernel, one function with no call per node (children checked in its loop).
    def negamax(current: int, mask: int, moves: int, alpha: int, beta: int, possible: int) -> int:  # noqa: C901
        # Called only past Pons' first checks, which the caller made (and counted the node for):
        # ``possible`` holds the non-losing moves (some), the game cannot be drawn yet and
        # the lowest possible score is below ``beta``.
        nonlocal left
        bound = lowest[moves]
        if alpha < bound:
            alpha = bound
        bound = highest[moves]
        if beta > bound:
            beta = bound
            if alpha >= beta:
                return beta
        high, slot = divmod(current + mask, slots)
        entry = values[slot]
        if entry and low_keys[slot] == high & _LOW and high_keys[slot] == high >> 64:
            if entry >= 128:
                bound = entry - _LOWER
                if alpha < bound:
                    alpha = bound
                    if alpha >= beta:
                        return alpha
            else:
                bound = entry - _UPPER
                if beta > bound:
                    beta = bound
                    if alpha >= beta:
                        return beta
        opponent = current ^ mask
        empty = board ^ mask
        moves += 1
        shape = layout_get(possible)
        if shape is None:
            shape = layout(possible)
        replicator, spread, lanes = shape
        # Every child's threats at once (the cells where the mover would then complete four),
        # one lane per child in one wide integer: vertical first, then the three other directions.
        p = current * replicator | spread
        w = ((p & (p << 1)) & (p << 2)) << 1
        x = (p >> t1) | (p << s1)
        y = p & (p >> s1)
        w |= ((y >> s1) & x) | ((y & x) << d1)
        x = (p >> t2) | (p << s2)
        y = p & (p >> s2)
        w |= ((y >> s2) & x) | ((y & x) << d2)
        x = (p >> t3) | (p << s3)
        y = p & (p >> s3)
        w |= ((y >> s3) & x) | ((y & x) << d3)
        if replicator == 1:  # one move: nothing to sort
            children = [(0, possible, w & empty)]
        else:
            w &= empty * replicator
            children = []
            for shift, tie, cell in lanes:
                lane = (w >> shift) & lane_mask
                children.append((lane.bit_count() << 4 | tie, cell, lane))
            children.sort(reverse=True)  # most threats first, then centre first (Pons' MoveSorter)
        child_lost = win_next[moves]
        child_floor = -lowest[moves]
        """The most a child can give us when it has a move that does not lose at once."""
        drawn = moves >= draw_from
        for _, cell, lane in children:
            # Pons' first checks of the child, made here to spare a call (the child is still a node).
            if not left:
                checkpoint()
            left -= 1
            child_mask = mask | cell
            child_possible = (child_mask + bottom) & board
            forced = child_possible & lane
            if forced:
                # A single threat must be blocked; two cannot be.
                child_possible = 0 if forced & (forced - 1) else forced
            child_possible &= ~(lane >> 1)
            if not child_possible:
                score = child_lost
            elif drawn:
                score = 0
            elif alpha >= child_floor:
                score = child_floor
            else:
                found = book_score(opponent, child_mask) if moves == book_ply else None
                if found is None:
                    found = negamax(opponent, child_mask, moves, -beta, -alpha, child_possible)
                score = -found
            if score >= beta:
                values[slot] = score + _LOWER
                low_keys[slot] = high & _LOW
                high_keys[slot] = high >> 64
                return score
            if score > alpha:
                alpha = score
        values[slot] = alpha + _UPPER
        low_keys[slot] = high & _LOW
        high_keys[slot] = high >> 64
        return alpha

    def root(current: int, mask: int, moves: int, alpha: int, beta: int, threats: int) -> int:
        """Negamax on a position nobody has won where the player to move cannot win at once.

        ``threats`` are the opponent's winning cells.  The same first checks as in the loop
        of ``negamax``, for the one node that has no parent.
        """
        nonlocal left
        if not left:
            checkpoint()
        left -= 1
        possible = (mask + bottom) & board
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return loss_now[moves]
            possible = forced
        possible &= ~(threats >> 1)
        if not possible:
            return loss_now[moves]
        if moves >= draw_from:
            return 0
        if lowest[moves] >= beta:
            return lowest[moves]
        if moves == book_ply:
            found = book_score(current, mask)
            if found is not None:
                return found
        return negamax(current, mask, moves, alpha, beta, possible)

    return Kernel(root, entries, nodes, set_budget, clear, SLICE_NODES)

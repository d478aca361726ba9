"""The exact Connect Four solver, after Pascal Pons' "Solving Connect 4: how to build a perfect AI".

Scores follow Pons' convention and are always from the point of view of the **player to
move** in the position scored: ``0`` is a draw; a positive score ``s`` means the player to
move wins with their ``s``-th-to-last possible stone (``(cells + 1 - moves) // 2`` for a win
on the next move, where ``moves`` counts the stones already on the board); a negative score
means the opponent wins, mirrored.  On 7x6 this is "22 minus the stones the winner will
have placed".

The search is Pons' final version: negamax with alpha-beta on raw bitboards, a null-window
binary search on the score, a transposition table of bounds, only moves that do not lose
at once (a forced block is played alone), children ordered by the threats they create
(ties broken centre first) and a "can win next move" check before any search.  One node
is one negamax call, as Pons counts them, so node counts compare with his figures.

Two kernels run this search.  Boards of at most ``NATIVE_MAX_BITS`` bits (7x6 and most
others) use ``engine.search.solver_native``, compiled by numba, with Pons' fixed-size table
(a new entry overwrites the one in its slot).  Larger boards use the pure Python kernel
below (``native=False`` chooses it anywhere), whose dictionary table loses nothing until it
is full; the tests hold the two to the same scores and, on small searches, the same nodes.

For speed in Python the whole search is one closure over locals: every child's threats
(the cells where its mover would complete four) are computed by its parent, all children
at once in one wide integer (one lane per child), and handed down, so no node recomputes
the threats of the player who just moved.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import islice
from typing import Final, cast

import numpy as np

from engine.games.base import Move, State
from engine.games.connect4 import Bitboard, Connect4, Connect4State
from engine.search.base import AlgorithmInfo, Node, Searcher, SearchError, Step, Verdict

TABLE_LIMIT: Final = 1 << 22
"""The table's size.  Pure Python kernel: entries (about 75 bytes each) past which the older half is
dropped.  Compiled kernel: half its slots (9 bytes each; ``2 * TABLE_LIMIT`` rounded up to a prime is
Pons' 2^23 + 9)."""
CHECK_INTERVAL: Final = 1 << 16
"""Nodes between two checks of the node budget and of the tables' sizes."""
LAYOUT_LIMIT: Final = 1 << 18
"""Cached move layouts (one per set of playable non-losing cells) kept before the cache is emptied."""
NATIVE_MAX_BITS: Final = 62
"""The largest board (``width * (height + 1)`` bits) the compiled kernel plays: every right shift then
stays on a non-negative ``int64``."""
_LOWER: Final = 192
"""Offset of a stored lower bound in the transposition table (stored values are never 0)."""
_UPPER: Final = 64
"""Offset of a stored upper bound; stored values at or above 128 are lower bounds."""

Negamax = Callable[[Bitboard, Bitboard, int, int, int, Bitboard], int]
"""``negamax(current, mask, moves, alpha, beta, threats)``: see ``_compile``."""


class NodeBudgetSpent(Exception):
    """Raised inside a search when its node budget is used up; the table keeps what it learnt."""


def centre_first(width: int) -> tuple[int, ...]:
    """Columns in Pons' exploration order, centre first: ``(3, 2, 4, 1, 5, 0, 6)`` for width 7."""
    return tuple(width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width))


def _truncated_half(value: int) -> int:
    """``value / 2`` rounded towards zero, as C++ integer division does in Pons' code."""
    return value // 2 if value >= 0 else -(-value // 2)


def win_now_score(cells: int, moves: int) -> int:
    """The score of the player who wins by placing the stone after ``moves`` stones."""
    return (cells + 1 - moves) // 2


class _Kernel:
    """The compiled search for one board size: the negamax closure and its node counter."""

    __slots__ = ("negamax", "entries", "nodes", "set_budget", "clear")

    def __init__(
        self,
        negamax: Negamax,
        entries: Callable[[], int],
        nodes: Callable[[], int],
        set_budget: Callable[[int | None], None],
        clear: Callable[[], None],
    ) -> None:
        self.negamax = negamax
        self.entries = entries
        """Positions whose bound the transposition table holds now."""
        self.nodes = nodes
        """Negamax calls since the last ``clear``."""
        self.set_budget = set_budget
        """Allow this many more nodes (``None``: no bound); past it ``NodeBudgetSpent`` is raised."""
        self.clear = clear
        """Empty the transposition table and zero the node count."""


def score_bounds(cells: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Pons' bounds on a score for the player to move, each indexed by the stones on the board.

    ``(loss_now, lowest, highest, win_next)``: the score when the opponent wins with the next
    stone (two threats, or no move that does not lose); the least score when the opponent
    cannot win with the next stone; the most when the player to move cannot win with this
    stone; and, for the parent of a ``loss_now`` position, that child's score.
    """
    stones = range(cells + 1)
    loss_now = tuple(-((cells - moves) // 2) for moves in stones)
    lowest = tuple(-((cells - 2 - moves) // 2) for moves in stones)
    highest = tuple((cells - 1 - moves) // 2 for moves in stones)
    return loss_now, lowest, highest, tuple(-loss for loss in loss_now)


def native_fits(game: Connect4) -> bool:
    """Whether the compiled kernel (``engine.search.solver_native``) plays ``game``'s board."""
    return game.width * game.column_bits <= NATIVE_MAX_BITS


def _next_prime(n: int) -> int:
    """The least prime ``>= n`` (``n >= 2``)."""
    while any(n % d == 0 for d in range(2, math.isqrt(n) + 1)):
        n += 1
    return n


def _compile_native(game: Connect4, table_limit: int) -> _Kernel:
    """The numba kernel for ``game`` (see ``solver_native``): Pons' fixed table of ``2 * table_limit`` slots or so."""
    from engine.search import solver_native as native  # numba loads only when a solver is made

    cells = game.cells
    height = game.height
    geometry = np.zeros(6, dtype=np.int64)
    geometry[native.BOARD] = game.board_mask
    geometry[native.BOTTOM] = game.bottom_mask
    geometry[native.DRAW_FROM] = cells - 2
    geometry[native.S1], geometry[native.S2], geometry[native.S3] = height, height + 1, height + 2
    columns = np.array([game.column_mask[c] for c in centre_first(game.width)], dtype=np.int64)
    bounds = np.array(score_bounds(cells), dtype=np.int64)  # rows LOSS_NOW, LOWEST, HIGHEST, WIN_NEXT
    capacity = _next_prime(2 * table_limit)
    keys = np.zeros(capacity, dtype=np.int64)
    values = np.zeros(capacity, dtype=np.uint8)
    counters = np.array([0, native.NO_BUDGET], dtype=np.int64)
    scratch = [np.zeros((cells + 2, game.width), dtype=np.int64) for _ in range(3)]

    def negamax(current: int, mask: int, moves: int, alpha: int, beta: int, threats: int) -> int:
        found = int(native.root(current, mask, moves, alpha, beta, threats,
                                geometry, columns, bounds, keys, values, counters, *scratch))
        if found == native.ABORT:
            raise NodeBudgetSpent
        return found

    def set_budget(more: int | None) -> None:
        counters[native.LIMIT] = native.NO_BUDGET if more is None else counters[native.NODES] + more

    def clear() -> None:
        values[:] = 0
        counters[native.NODES] = 0

    return _Kernel(negamax, lambda: int(np.count_nonzero(values)), lambda: int(counters[native.NODES]), set_budget,
                   clear)


def _compile(game: Connect4, table_limit: int) -> _Kernel:
    """Build the negamax closure for ``game``'s board size, with every constant bound to a local.

    ``negamax(current, mask, moves, alpha, beta, threats)`` scores the position whose player
    to move owns ``current``, with ``mask`` all stones and ``moves`` their number, when
    nobody has won yet and the player to move cannot win at once.  ``threats`` are the
    opponent's winning cells (``game.winning_cells(current ^ mask, mask)``).  It returns Pons'
    score of the position for its player to move if it lies within ``(alpha, beta)``, an
    upper bound ``<= alpha`` if the score is at most ``alpha``, a lower bound ``>= beta``
    if it is at least ``beta``.
    """
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
    # Shifts of the three non-vertical directions: one diagonal, horizontal, the other diagonal.
    s1, s2, s3 = height, height + 1, height + 2
    d1, d2, d3 = 2 * s1, 2 * s2, 2 * s3
    t1, t2, t3 = 3 * s1, 3 * s2, 3 * s3
    table: dict[int, int] = {}
    table_get = table.get
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
        if len(table) > table_limit:
            # Pons' fixed-size table overwrites old entries; here the older half goes at once.
            for stale in list(islice(table, len(table) // 2)):
                del table[stale]
        if len(layouts) > LAYOUT_LIMIT:
            layouts.clear()
        window = left = CHECK_INTERVAL if budget is None else min(CHECK_INTERVAL, budget - counted)

    def nodes() -> int:
        return counted + window - left

    def set_budget(more: int | None) -> None:
        nonlocal budget, left, window, counted
        counted += window - left
        budget = None if more is None else counted + more
        window = left = CHECK_INTERVAL if more is None else min(CHECK_INTERVAL, more)

    def clear() -> None:
        nonlocal left, window, counted
        table.clear()
        counted = 0
        window = left = CHECK_INTERVAL if budget is None else min(CHECK_INTERVAL, budget)

    def negamax(current: int, mask: int, moves: int, alpha: int, beta: int, possible: int) -> int:
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
        key = current + mask
        entry = table_get(key, 0)
        if entry:
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
                score = -negamax(opponent, child_mask, moves, -beta, -alpha, child_possible)
            if score >= beta:
                table[key] = score + _LOWER
                return score
            if score > alpha:
                alpha = score
        table[key] = alpha + _UPPER
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
        return negamax(current, mask, moves, alpha, beta, possible)

    return _Kernel(root, table.__len__, nodes, set_budget, clear)


class Connect4Solver:
    """Pons' exact solver for one board size; its transposition table lasts until ``reset``.

    Every score it returns is Pons' score for the player to move in the position given.
    """

    __slots__ = ("game", "_kernel")

    def __init__(self, game: Connect4, *, table_limit: int = TABLE_LIMIT, native: bool | None = None) -> None:
        """``native``: search with the compiled kernel (``None``: wherever the board fits it, ``native_fits``)."""
        self.game = game
        if native is None:
            native = native_fits(game)
        elif native and not native_fits(game):
            raise ValueError(f"the compiled solver plays boards of at most {NATIVE_MAX_BITS} bits")
        self._kernel = _compile_native(game, table_limit) if native else _compile(game, table_limit)

    @property
    def nodes(self) -> int:
        """Negamax calls since the last ``reset`` (Pons' node count)."""
        return self._kernel.nodes()

    @property
    def table_entries(self) -> int:
        """Positions whose bound the transposition table holds now."""
        return self._kernel.entries()

    def reset(self) -> None:
        """Empty the transposition table and zero the node count, as Pons does between positions."""
        self._kernel.clear()

    def win_now(self, state: Connect4State) -> bool:
        """Whether the player to move can complete four with their next stone."""
        game = self.game
        possible = (state.mask + game.bottom_mask) & game.board_mask
        return bool(game.winning_cells(state.current, state.mask) & possible)

    def score_range(self, state: Connect4State) -> tuple[int, int]:
        """Pons' initial bounds ``(lowest, highest)`` on the score of a position nobody can win at once."""
        cells = self.game.cells
        return -((cells - state.ply) // 2), win_now_score(cells, state.ply)

    @staticmethod
    def next_probe(lowest: int, highest: int) -> int:
        """Pons' null window ``(probe, probe + 1)`` for a score known to lie in ``[lowest, highest]``.

        The middle of the range, moved out to half the bound on its side (``lowest / 2`` or
        ``highest / 2``, rounded towards zero as in C++) when that is further from zero.
        """
        probe = lowest + (highest - lowest) // 2
        if probe <= 0 and _truncated_half(lowest) < probe:
            return _truncated_half(lowest)
        if probe >= 0 and _truncated_half(highest) > probe:
            return _truncated_half(highest)
        return probe

    def probe(self, state: Connect4State, alpha: int, beta: int, *, budget: int | None = None) -> int:
        """Negamax on ``state`` within ``(alpha, beta)``; the player to move must not win at once.

        Returns the exact score if it lies within the window, an upper bound ``<= alpha`` or a
        lower bound ``>= beta`` otherwise.  With ``budget``, raises ``NodeBudgetSpent`` after
        that many nodes (they stay counted, and the table keeps what they found).
        """
        kernel = self._kernel
        kernel.set_budget(budget)
        try:
            opponent_threats = self.game.winning_cells(state.current ^ state.mask, state.mask)
            return kernel.negamax(state.current, state.mask, state.ply, alpha, beta, opponent_threats)
        finally:
            kernel.set_budget(None)

    def solve(self, state: Connect4State) -> int:
        """The exact score of ``state`` for its player to move (the game must not be over)."""
        if state.is_terminal():
            raise ValueError("solve() of a position where the game is over")
        if self.win_now(state):
            return win_now_score(self.game.cells, state.ply)
        lowest, highest = self.score_range(state)
        while lowest < highest:
            probe = self.next_probe(lowest, highest)
            found = self.probe(state, probe, probe + 1)
            if found <= probe:
                highest = found
            else:
                lowest = found
        return lowest

    def move_score(self, state: Connect4State, column: int) -> int:
        """The exact score of playing ``column`` in ``state``, for the player who plays it."""
        child = state.play(column)
        if child.winner() == state.player:
            return win_now_score(self.game.cells, state.ply)
        if child.is_terminal():
            return 0
        return -self.solve(child)

    def move_scores(self, state: Connect4State) -> dict[int, int]:
        """The exact score of every legal move of ``state`` (for the player who plays it), centre first."""
        legal = set(state.legal_moves())
        return {column: self.move_score(state, column) for column in centre_first(self.game.width) if column in legal}


def terminal_score(state: Connect4State) -> int:
    """Pons' score of a finished game for the player to move in it: 0 for a draw, negative if the other player won."""
    if state.winner() == 0:
        return 0
    return -win_now_score(state.game.cells, state.ply - 1)


class SolverNode(Node):
    """A position the solver has scored or is scoring.

    ``lower`` and ``upper`` bound the exact score in Pons' convention, from the point of view
    of the player to move **at this node**; they are equal once the score is known.
    """

    __slots__ = ("state", "lower", "upper")

    state: Connect4State
    lower: int
    upper: int

    def __init__(
        self, parent: SolverNode | None, move: Move | None, state: Connect4State, lower: int, upper: int
    ) -> None:
        super().__init__(parent, move)
        self.state = state
        self.lower = lower
        self.upper = upper

    @property
    def score(self) -> int | None:
        """The exact score for the player to move here, ``None`` while only bounds are known."""
        return self.lower if self.lower == self.upper else None

    def kids(self) -> list[SolverNode]:
        """``children``, typed: a solver node's children are solver nodes."""
        return cast("list[SolverNode]", self.children)

    def line(self) -> tuple[SolverNode, ...]:
        """``path()``, typed: the solver nodes from the root down to this one."""
        return cast("tuple[SolverNode, ...]", tuple(self.path()))

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"score": self.score, "lo": self.lower, "hi": self.upper}


class SolverSearcher(Searcher[SolverNode]):
    """Pons' exact solver on the common searcher surface (Connect Four only).

    The tree is the root, one child per legal move, and the principal variation below the
    best child.  Steps:

    1. the first step expands the root: children that end the game, or whose player can win
       at once, are scored on the spot;
    2. each following step is **one null-window probe** of the first child (centre first)
       whose score is still open, until every child's score is exact;
    3. then each step tests one move of the last position of the principal variation (one
       probe at most) and adds that child when it is a best move, until the line ends the game.

    Moves: one per negamax node (each stands for a position reached by one move) plus each
    position the tree creates.  A probe cannot know its cost in advance, so under a budget
    it runs with a node budget of the moves left and stops when that is spent: that step is
    charged exactly the nodes it visited, its bounds do not change, and the transposition
    table keeps what it found for the next probe.  ``Limit(moves=N)`` is never exceeded.
    """

    name = "solver"
    description = "exact Connect Four solver (Pons: null-window search, transposition table, threat ordering)"

    def __init__(self, state: State, *, seed: int = 0) -> None:
        if not isinstance(state, Connect4State):
            raise SearchError(f"the solver plays Connect Four only, not {state.game.name}")
        super().__init__(state)
        self.solver = Connect4Solver(state.game)
        self.stats.nodes = 1
        if state.is_terminal():
            score = terminal_score(state)
            self.root = SolverNode(None, None, state, score, score)
            self.finished = True
        else:
            cells = state.game.cells
            self.root = SolverNode(None, None, state, -((cells - state.ply) // 2), win_now_score(cells, state.ply))
        self._line_end: SolverNode | None = None
        """The last node of the principal variation, once the root's score is exact."""
        self._tried = 0
        """Moves of ``_line_end``'s position already found not to be best."""

    def _advance(self, record: bool, moves_left: int | None) -> Step[SolverNode] | bool:
        if self.finished or (moves_left is not None and moves_left < 1):
            return False
        if not self.root.children:
            return self._expand(record, moves_left)
        for child in self.root.kids():
            if child.score is None:
                return self._probe(child, record, moves_left)
        return self._extend_line(record, moves_left)

    def _expand(self, record: bool, moves_left: int | None) -> Step[SolverNode] | bool:
        root = self.root
        state = root.state
        legal = set(state.legal_moves())
        columns = [c for c in centre_first(state.game.width) if c in legal]
        if moves_left is not None and moves_left < len(columns):
            return False
        decided = 0
        for column in columns:
            child_state = state.play(column)
            if child_state.is_terminal():
                lower = upper = terminal_score(child_state)
            elif self.solver.win_now(child_state):
                lower = upper = win_now_score(state.game.cells, child_state.ply)
            else:
                lower, upper = self.solver.score_range(child_state)
            decided += lower == upper
            root.children.append(SolverNode(root, column, child_state, lower, upper))
        self.stats.moves += len(columns)
        self.stats.nodes += len(columns)
        self.stats.max_depth = 1
        self._update_root()
        if not record:
            return True
        children = tuple(root.kids())
        note = f"expanded {len(columns)} moves; {decided} scored at once"
        return Step(path=(root,), node=root, added=children, changed=(root, *children), note=note)

    def _probe(self, child: SolverNode, record: bool, moves_left: int | None) -> Step[SolverNode] | bool:
        probe = self.solver.next_probe(child.lower, child.upper)
        before = self.solver.nodes
        try:
            found: int | None = self.solver.probe(child.state, probe, probe + 1, budget=moves_left)
        except NodeBudgetSpent:
            found = None
        spent = self.solver.nodes - before
        self.stats.moves += spent
        self.stats.nodes += spent
        label = child.state.move_label(child.move)
        if found is None:
            note = f"move {label}: probe at {probe} stopped after {spent} nodes (budget spent)"
        elif found <= probe:
            child.upper = found
            note = f"move {label}: score <= {found} for the opponent ({spent} nodes)"
        else:
            child.lower = found
            note = f"move {label}: score >= {found} for the opponent ({spent} nodes)"
        self._update_root()
        if not record:
            return True
        return Step(path=(self.root, child), node=child, changed=(child, self.root), note=note)

    def _update_root(self) -> None:
        """Set the root's bounds from its children's (its score is the best of minus theirs).

        Once every child is exact, the principal variation starts from the best child.
        """
        root = self.root
        root.lower = max(-child.upper for child in root.kids())
        root.upper = max(-child.lower for child in root.kids())
        if self._line_end is None and all(child.score is not None for child in root.kids()):
            self._line_end = self._best_child(root)
            self.finished = self._line_end.state.is_terminal()

    def _extend_line(self, record: bool, moves_left: int | None) -> Step[SolverNode] | bool:
        end = self._line_end
        assert end is not None and end.score is not None
        state = end.state
        target = -end.score
        """The child's score (for its player to move) when the move is a best one."""
        column = self._candidates(state)[self._tried]
        child_state = state.play(column)
        self.stats.moves += 1
        label = state.move_label(column)
        best: bool | None
        """Whether ``column`` keeps the score; ``None`` when its probe ran out of moves."""
        if child_state.is_terminal():
            best = terminal_score(child_state) == target
        elif self.solver.win_now(child_state):
            best = win_now_score(state.game.cells, child_state.ply) == target
        else:
            # The child scores at least ``target``: it is a best move exactly when it scores at most that.
            before = self.solver.nodes
            try:
                budget = None if moves_left is None else moves_left - 1
                best = self.solver.probe(child_state, target, target + 1, budget=budget) <= target
            except NodeBudgetSpent:
                best = None
            spent = self.solver.nodes - before
            self.stats.moves += spent
            self.stats.nodes += spent
        if not best:
            if best is None:
                note = f"line: the probe of move {label} stopped (budget spent); it is tested again next"
            else:
                self._tried += 1
                note = f"line: move {label} is not a best move"
            if not record:
                return True
            return Step(path=end.line(), node=end, note=note)
        child = SolverNode(end, column, child_state, target, target)
        end.children.append(child)
        self.stats.nodes += 1
        self.stats.max_depth = max(self.stats.max_depth, child.depth)
        self._line_end = child
        self._tried = 0
        self.finished = child_state.is_terminal()
        if not record:
            return True
        note = f"line: move {label} is best"
        return Step(path=child.line(), node=child, added=(child,), changed=(child,), note=note)

    def _candidates(self, state: Connect4State) -> list[int]:
        """Moves to test for the principal variation: the winning ones if any, else every move, centre first."""
        game = state.game
        legal = set(state.legal_moves())
        columns = [c for c in centre_first(game.width) if c in legal]
        if self.solver.win_now(state):
            winning = game.winning_cells(state.current, state.mask)
            return [c for c in columns if winning & ((state.mask + game.bottom[c]) & game.column_mask[c])]
        return columns

    @staticmethod
    def _best_child(node: SolverNode) -> SolverNode:
        """The child whose score is surest best for ``node``'s player to move (first in centre-first order on ties)."""
        return max(node.kids(), key=lambda child: (-child.upper, -child.lower))

    def best_move(self) -> Move | None:
        if not self.root.children:
            return None
        return self._best_child(self.root).move

    def value(self) -> float:
        """The root's score from the first player's point of view, in Pons' units.

        Until it is exact: the score the player to move is sure of so far (the root's lower bound).
        """
        return float(self.root.state.player * self.root.lower)

    def proven(self) -> Verdict | None:
        """What the root's score bounds settle (Pons: positive, the player to move wins), for the first player."""
        root = self.root
        lowest = 1 if root.lower > 0 else (0 if root.lower >= 0 else -1)
        highest = -1 if root.upper < 0 else (0 if root.upper <= 0 else 1)
        if (lowest, highest) == (-1, 1):
            return None
        return (lowest, highest) if root.state.player == 1 else (-highest, -lowest)

    def principal_path(self) -> list[SolverNode]:
        path = [self.root]
        if self.root.children:
            node = self._best_child(self.root)
            path.append(node)
            while node.children:
                node = node.kids()[0]
                path.append(node)
        return path


ALGORITHMS = (
    AlgorithmInfo(
        name=SolverSearcher.name,
        description=SolverSearcher.description,
        factory=SolverSearcher,  # type: ignore[arg-type]
        games=("connect4",),
    ),
)

"""Pons' solver for one board size (``Connect4Solver``) and the one search every caller drives (``ScoreSearch``).

``ScoreSearch`` is Pons' ``solve()``: a binary search on a position's score by null-window
probes, each a negamax call of the solver's kernel (on 7x6 with Thill's opening book as its
leaves, ``plyscope.engine.solver.book``).  It is resumable: ``advance(budget)``
spends at most ``budget`` nodes and can be called again, so a caller may cut the work in
slices.  ``Connect4Solver.solve`` and ``move_score(s)``, the column analysis
(``plyscope.engine.analysis``), ``plyscope solve`` (``plyscope.engine.solve``) and the searcher
(``plyscope.engine.search.solver``) all drive it.

Points of view: scores leave this module as ``PovScore`` and ``PovBounds`` (``plyscope.engine.pov``).  A
position's score (``solve``, ``ScoreSearch.score`` and ``bounds``) is kept for its **player to
move**; a move's score (``move_score``) for the player who **plays** it: the score of the
position the move leads to, seen by the other player.  Inside, ``ScoreSearch.lower``/``upper``
are bare numbers for the player to move, as Pons' negamax works.
"""

from __future__ import annotations

from plyscope.engine.games.connect4 import Connect4, Connect4State
from plyscope.engine.pov import PovBounds, PovScore
from plyscope.engine.solver.book import BOOK_PLY, OpeningBook, opening_book, uses_book
from plyscope.engine.solver.kernel import (
    NATIVE_MAX_BITS,
    TABLE_LIMIT,
    Kernel,
    NodeBudgetSpent,
    centre_first,
    native_fits,
    win_now_score,
)


def make_kernel(game: Connect4, table_limit: int, native: bool | None, book: OpeningBook | None = None) -> Kernel:
    """The kernel for ``game``'s board: compiled where it fits (``native=None``), else as ``native`` says; ``book``
    scores the positions with ``BOOK_PLY`` stones (7x6 only)."""
    if native is None:
        native = native_fits(game)
    elif native and not native_fits(game):
        raise ValueError(f"the compiled solver plays boards of at most {NATIVE_MAX_BITS} bits")
    if native:
        from plyscope.engine.solver.native_kernel import compile_native  # numba loads only when a solver is made

        return compile_native(game, table_limit, book)
    from plyscope.engine.solver.python_kernel import compile_python

    return compile_python(game, table_limit, book)


def _truncated_half(value: int) -> int:
    """``value / 2`` rounded towards zero, as C++ integer division does in Pons' code."""
    return value // 2 if value >= 0 else -(-value // 2)


def terminal_score(state: Connect4State) -> int:
    """Pons' score of a finished game for the player to move in it: 0 for a draw, negative if the other player won."""
    if state.winner() == 0:
        return 0
    return -win_now_score(state.game.cells, state.ply - 1)


class Connect4Solver:
    """Pons' exact solver for one board size: a kernel and its transposition table, which lasts until ``reset``.

    Every score it returns is Pons' score, kept for the player to move in the position given
    (``move_score(s)``: for the player who plays the move).  On 7x6 it scores the positions with
    ``BOOK_PLY`` (12) stones from Thill's opening book (``plyscope.engine.solver.book``) rather than
    by search, so a position with fewer stones is searched down to the book alone.
    """

    __slots__ = ("game", "_kernel", "_book")

    def __init__(
        self, game: Connect4, *, table_limit: int = TABLE_LIMIT, native: bool | None = None, book: bool | None = None
    ) -> None:
        """``native``: search with the compiled kernel (``None``: wherever the board fits it, ``native_fits``);
        ``book``: use the opening book where the board has one (``None``: unless ``--no-book`` forbade it,
        ``book_allowed``).  The book is read when a search first needs it."""
        self.game = game
        self._book = opening_book() if uses_book(game, book) else None
        self._kernel = make_kernel(game, table_limit, native, self._book)

    @property
    def has_book(self) -> bool:
        """Whether this solver scores positions with ``BOOK_PLY`` stones from the opening book."""
        return self._book is not None

    def read_book(self) -> None:
        """Read the opening book now (some 0.1 s, once a process), if this solver uses one; else its first search of
        a position with at most ``BOOK_PLY`` stones reads it."""
        if self._book is not None:
            self._book.arrays()

    def book_score(self, state: Connect4State) -> int | None:
        """The book's score of ``state`` for its player to move; ``None`` without a book, off ``BOOK_PLY`` stones,
        or where the book holds no score (the player to move can win at once)."""
        if self._book is None or state.ply != BOOK_PLY or state.is_terminal():
            return None
        return self._book.score(state.current, state.mask)

    @property
    def nodes(self) -> int:
        """Negamax calls since the last ``reset`` (Pons' node count)."""
        return self._kernel.nodes()

    @property
    def table_entries(self) -> int:
        """Positions whose bound the transposition table holds now."""
        return self._kernel.entries()

    @property
    def slice_nodes(self) -> int:
        """Nodes this solver's kernel searches in a few milliseconds: 32,768 compiled, 1,024 in pure Python."""
        return self._kernel.slice_nodes

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
        """Negamax on ``state`` within ``(alpha, beta)``; nobody has won and the player to move cannot win at once.

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

    def solve(self, state: Connect4State) -> PovScore[int]:
        """The exact score of ``state``, for its player to move (the game must not be over)."""
        if state.is_terminal():
            raise ValueError("solve() of a position where the game is over")
        return self._exact(state)

    def move_score(self, state: Connect4State, column: int) -> PovScore[int]:
        """The exact score of playing ``column`` in ``state``, for the player who plays it."""
        return self._exact(state.play(column)).seen_by(state.player)

    def _exact(self, state: Connect4State) -> PovScore[int]:
        search = ScoreSearch(self, state)
        search.advance()
        score = search.score
        assert score is not None  # no budget: the search ends exact
        return score

    def move_scores(self, state: Connect4State) -> dict[int, PovScore[int]]:
        """The exact score of every legal move of ``state`` (for the player who plays it), centre first."""
        legal = set(state.legal_moves())
        return {column: self.move_score(state, column) for column in centre_first(self.game.width) if column in legal}


class ScoreSearch:
    """Pons' null-window search for the score of one position, resumable: ``advance`` may stop and go on.

    ``lower`` and ``upper`` bound the score of ``state`` in Pons' convention, for the **player
    to move in ``state``**; they are equal once it is exact.  The positions the kernel must
    not see are settled at once: a finished game (``terminal_score``), a player to move
    who can complete four (``win_now_score``); so is a position the opening book holds.
    Every other position starts from Pons' ``score_range`` and is narrowed by probes: a
    probe at ``p`` is a negamax call with the null window ``(p, p + 1)``, whose answer is a
    new upper bound (``<= p``) or a new lower bound (``> p``).  A probe that the budget cuts
    short leaves the bounds as they were and starts again at the next ``advance``; the
    solver's transposition table keeps what its nodes found, so going back down to where it
    stopped costs some 40 nodes.

    With ``threshold``, the search settles only on which side of ``threshold`` the score
    lies (every probe is at ``threshold``, so one probe does it): ``done`` once
    ``upper <= threshold`` or ``lower > threshold``.
    """

    __slots__ = ("solver", "state", "lower", "upper", "threshold", "nodes", "probe_nodes")

    def __init__(self, solver: Connect4Solver, state: Connect4State, *, threshold: int | None = None) -> None:
        self.solver = solver
        self.state = state
        self.threshold = threshold
        self.lower: int
        """The least the score can be, for the player to move in ``state``."""
        self.upper: int
        """The most the score can be, for the player to move in ``state``."""
        if state.is_terminal():
            self.lower = self.upper = terminal_score(state)
        elif solver.win_now(state):
            self.lower = self.upper = win_now_score(state.game.cells, state.ply)
        elif (known := solver.book_score(state)) is not None:
            self.lower = self.upper = known
        else:
            self.lower, self.upper = solver.score_range(state)
        self.nodes = 0
        """Solver nodes this search has spent."""
        self.probe_nodes = 0
        """Nodes spent on the probe under way, cut short by a budget (0 when none is under way)."""

    @property
    def done(self) -> bool:
        """True when the score is exact (with a ``threshold``: when its side of the threshold is known)."""
        if self.lower == self.upper:
            return True
        threshold = self.threshold
        return threshold is not None and (self.upper <= threshold or self.lower > threshold)

    @property
    def bounds(self) -> PovBounds[int]:
        """``lower`` and ``upper``, for the player to move in ``state``."""
        return PovBounds(self.lower, self.upper, self.state.player)

    @property
    def score(self) -> PovScore[int] | None:
        """The exact score, for the player to move in ``state``; ``None`` while only bounds are known."""
        return self.bounds.score

    @property
    def probe(self) -> int | None:
        """The probe under way or next, at ``p`` (the window ``(p, p + 1)``); ``None`` once ``done``."""
        if self.done:
            return None
        if self.threshold is not None:
            return self.threshold
        return self.solver.next_probe(self.lower, self.upper)

    def advance(self, budget: int | None = None, *, probes: int | None = None) -> int:
        """Probe until ``done``, ``budget`` nodes are spent (``None``: no bound) or ``probes`` probes have ended.

        Returns the nodes spent.  A probe cut short by the budget does not count as ended.
        """
        solver = self.solver
        spent = 0
        ended = 0
        while (budget is None or spent < budget) and (probes is None or ended < probes):
            probe = self.probe
            if probe is None:
                break
            before = solver.nodes
            try:
                found = solver.probe(self.state, probe, probe + 1, budget=None if budget is None else budget - spent)
            except NodeBudgetSpent:
                used = solver.nodes - before
                spent += used
                self.nodes += used
                self.probe_nodes += used
                break
            used = solver.nodes - before
            spent += used
            self.nodes += used
            self.probe_nodes = 0
            ended += 1
            if found <= probe:
                self.upper = found
            else:
                self.lower = found
        return spent

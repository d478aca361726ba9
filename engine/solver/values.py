"""Connect Four's exact values behind the one door (``plyscope.engine.exact.Exact``): Pons' scores, within budgets.

Every value is Pons' score for the **player to move** in the position valued (``plyscope.engine.solver``), found
by a ``ScoreSearch`` on the board's solver.  One ``Connect4Values`` serves one board size: its solver (its
transposition table carries over from one position to the next) is made once, compiled where the board fits.  The
compiled solver takes most of a second to load in a fresh process (numba and its machine code), so ``quick`` starts
the load in a thread of its own and, until it is done, looks with the pure Python kernel (the same search, node for
node): within its small budget that settles many positions deep in a tree.

On 7x6 with the opening book, a position of at most 12 stones is always settled, whatever the budget: its search goes
down to the book, at most 12 plies (the empty board's, the longest, takes 162,790 nodes: some 30 ms compiled).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future

from plyscope.engine.collector import cyclic_gc_paused
from plyscope.engine.games.base import Move, State
from plyscope.engine.games.connect4 import Connect4, Connect4State
from plyscope.engine.kits.base import ExactValues, MovesSolve, Number, Truth
from plyscope.engine.pov import PovBounds, PovScore
from plyscope.engine.solver.book import BOOK_PLY, NO_BOOK_NOTE, has_book, uses_book
from plyscope.engine.solver.kernel import NATIVE_MAX_BITS, centre_first, native_fits
from plyscope.engine.solver.openings import EARLY_PLY, EARLY_SCORES
from plyscope.engine.solver.scores import Connect4Solver, ScoreSearch

SOLVER_TABLE = 1 << 20
"""The solver's transposition table size (``table_limit``: Pons' fixed table, 2^21 + a few slots of 9 bytes
compiled, 19 MB)."""
STAND_IN_MISSES = 6
"""Positions in a row the pure Python kernel may fail to settle before ``quick`` leaves the rest to the compiled
solver (their search would only slow its load)."""
STAND_IN_REACH = 4
"""Plies above the opening book within which the pure Python solver looks at a position while the compiled one loads:
its search down to the book takes at most some 800 nodes (sampled), where one from 7 stones or fewer takes thousands,
each costing the load its share of the GIL."""
STAND_IN_TABLE = 1 << 16
"""The pure Python solver's table while the compiled one loads (``table_limit``: about 1.5 MB)."""
SLICES_PER_MOVE = 16
"""A ``Connect4Moves.advance`` gives one column at most this many of the solver's ``slice_nodes`` at a time."""


def score_words(score: int, before: int, cells: int) -> str:
    """A Pons score in words for the player it is for, who moves next after ``before`` stones on a board of
    ``cells``: ``win in 3`` (their third move from now wins), ``loss in 2`` (the opponent's second), ``draw``."""
    if score == 0:
        return "draw"
    if score > 0:
        return f"win in {(cells + 1 - before) // 2 - score + 1}"
    return f"loss in {(cells - before) // 2 + score + 1}"


class Connect4Values(ExactValues):
    """Pons' exact scores of one board's positions, for the player to move; safe to call from several threads."""

    scale = "Pons' score"
    legend = "Pons' scores; win in N: the player's N-th move from now completes four, loss in N: the opponent's"
    instant = False

    def __init__(self, game: Connect4) -> None:
        self.game = game
        self.span = (-(game.cells // 2), game.cells // 2)
        self._solver: Future[Connect4Solver] | None = None
        """The board's solver (compiled where the board fits), made once: by ``truth``, or in a thread of its own
        from ``quick`` or ``prepare`` on."""
        self._stand_in: Connect4Solver | None = None
        """The pure Python solver ``quick`` uses while the board's solver loads."""
        self._misses = 0
        """Positions in a row the stand-in has not settled."""
        self._lock = threading.Lock()
        self._solving = threading.Lock()
        """Held while a solver's table serves one position (it serves one at a time)."""

    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        assert isinstance(state, Connect4State)
        known = self._known(state)
        if known is not None:
            return known
        solver = self._load().result()
        reached = solver.has_book and state.ply <= BOOK_PLY  # (settled whatever the budget: a search to the book)
        return self._solve(solver, state, None if reached else budget, None if at_least is None else int(at_least))

    def quick(self, state: State, budget: int) -> Truth | None:
        assert isinstance(state, Connect4State)
        known = self._known(state)
        if known is not None:
            return known
        loading = self._load(background=True)
        if loading.done():
            return self._solve(loading.result(), state, budget)
        stand_in = self._stand_in_solver()
        if stand_in.has_book and state.ply < BOOK_PLY - STAND_IN_REACH:
            return None  # (seconds of pure Python, milliseconds of the compiled solver's)
        with self._lock:
            if self._misses >= STAND_IN_MISSES:
                return None
        started = time.perf_counter()
        truth = self._solve(stand_in, state, budget)
        with self._lock:
            self._misses = 0 if truth.settled else self._misses + 1
        time.sleep(time.perf_counter() - started)  # as long again for the load, which shares the GIL
        return truth if truth.settled else None  # (the stand-in's small table may settle less than the solver)

    def moves(self, state: State) -> Connect4Moves:
        assert isinstance(state, Connect4State)
        return Connect4Moves(Connect4Solver(self.game, table_limit=self.table or SOLVER_TABLE), state)

    def prepare(self) -> Future[Connect4Solver]:
        """The solver's load, started in a thread of its own unless under way, with the opening book read there
        too (7x6: the explorer's positions mostly start within its reach)."""
        return self._load(background=True, book=True)

    def clear(self) -> None:
        with self._solving, self._lock:
            self._misses = 0
            if self._solver is not None and self._solver.done() and self._solver.exception() is None:
                self._solver.result().reset()
            if self._stand_in is not None:
                self._stand_in.reset()

    def compiled(self) -> tuple[str, ...]:
        if not native_fits(self.game):
            return ()
        from plyscope.engine.solver import native_kernel  # (numba loads only when a solver is made)

        return (str(native_kernel.__file__),)

    def unreachable(self) -> str | None:
        if native_fits(self.game):
            return None
        return (
            f"its compiled kernel plays boards of at most {NATIVE_MAX_BITS} bits, width x (height + 1), this one has "
            f"{self.game.width * self.game.column_bits}; in pure Python it would take far too long"
        )

    def _known(self, state: Connect4State) -> Truth | None:
        """``state``'s value from 7x6's table of the positions of at most four stones (``EARLY_SCORES``), else
        ``None``."""
        if state.ply > EARLY_PLY or (self.game.width, self.game.height) != (7, 6):
            return None
        return Truth(PovScore(EARLY_SCORES[state.text()], state.player))

    def note(self) -> str:
        if uses_book(self.game, None):
            return "Thill's opening book for 12 stones"
        return NO_BOOK_NOTE if not has_book(self.game) else "no opening book (--no-book)"

    def words(self, score: PovScore[int] | PovScore[float], state: State) -> str:
        if state.is_terminal():
            return super().words(score, state)
        return score_words(int(score.pov(state.player)), state.ply, self.game.cells)

    def proven(self, result: int, ply: int, state: State) -> Truth:
        """Pons' score of a game ending with ``result`` at ``ply``: the winner's ``(cells + 2 - ply) // 2`` (the stone
        after ``ply - 1`` stones wins), the loser's opposite, a draw 0."""
        return Truth(PovScore(result * ((self.game.cells + 2 - ply) // 2), state.player))

    def _load(self, *, background: bool = False, book: bool = False) -> Future[Connect4Solver]:
        """The board's solver, made the first time: here, or in a thread of its own (``background``; a second or
        so in a fresh process, for numba and its machine code); with ``book``, the opening book read too (else its
        first search down to the book reads it: a served session whose positions are past it never does)."""
        with self._lock:
            if self._solver is not None:
                return self._solver
            made = self._solver = Future()

        def make() -> None:
            try:
                with cyclic_gc_paused():  # (numba's 85,000 or so objects: walks that free nothing would pause the UI)
                    solver = Connect4Solver(self.game, table_limit=self.table or SOLVER_TABLE)
                    if book:
                        solver.read_book()
                    if self.loaded is not None:
                        self.loaded()
            except BaseException as error:  # (raised again to whoever waits for the solver)
                made.set_exception(error)
                return
            with self._lock:
                self._misses = 0  # (the stand-in looks again for the next board that loads)
            made.set_result(solver)

        if background:
            threading.Thread(target=make, name="plyscope-solver", daemon=True).start()
        else:
            make()
        return made

    def _stand_in_solver(self) -> Connect4Solver:
        with self._lock:
            if self._stand_in is None:
                self._stand_in = Connect4Solver(self.game, table_limit=STAND_IN_TABLE, native=False)
            return self._stand_in

    def _solve(
        self, solver: Connect4Solver, state: Connect4State, budget: int | None, at_least: int | None = None
    ) -> Truth:
        """``state``'s score by ``solver`` within ``budget`` nodes (``None``: no bound).  With ``at_least`` (what one
        of its moves is worth), the first probe asks whether the score is more: most moves judged keep the value, and
        one probe then settles it."""
        with self._solving:
            search = ScoreSearch(solver, state)
            spent = 0
            if at_least is not None and search.lower < at_least <= search.upper:
                search.lower = at_least
                search.threshold = at_least
                spent = search.advance(budget)
                search.threshold = None
            search.advance(None if budget is None else budget - spent)
            return Truth(search.score, search.nodes)


class Connect4Moves(MovesSolve):
    """Every column of a position solved, centre first as Pons orders moves, each by a ``ScoreSearch`` on the
    position it leads to; each keeps the bounds found so far when the budget stops it."""

    def __init__(self, solver: Connect4Solver, state: Connect4State) -> None:
        self.solver = solver
        self.state = state
        self.searches = {
            column: ScoreSearch(solver, state.play(column))
            for column in centre_first(state.game.width)
            if state.can_play(column)
        }

    @property
    def nodes(self) -> int:
        return self.solver.nodes

    @property
    def slice(self) -> int:
        return self.solver.slice_nodes

    @property
    def finished(self) -> bool:
        return all(search.done for search in self.searches.values())

    def pending(self) -> list[Move]:
        return [column for column, search in self.searches.items() if not search.done]

    def advance(self, budget: int, move: Move | None = None) -> None:
        if move is not None:
            assert isinstance(move, int)
            self.searches[move].advance(budget)
            return
        for search in self.searches.values():
            if not search.done:
                search.advance(min(budget, SLICES_PER_MOVE * self.solver.slice_nodes))
                return

    def bounds(self) -> dict[Move, PovBounds[int] | PovBounds[float]]:
        mover = self.state.player
        return {column: self.searches[column].bounds.seen_by(mover) for column in sorted(self.searches)}

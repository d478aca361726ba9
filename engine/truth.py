"""The game-theoretic value of a position (its "truth"), for the tree pane's truth column.

Every value is for the **player to move** in the position valued, as a ``PovScore``
(``plyscope.engine.pov``):

* Nim and misère Nim: ``+1`` a win, ``-1`` a loss, by Bouton's rule (1901): the player to
  move loses exactly when the XOR of the piles (their nim-sum) is 0; in misère play, when
  every pile has one token, exactly when the number of piles is odd.  Grundy's game: the
  XOR of the piles' Sprague-Grundy numbers (memoised; Berlekamp, Conway and Guy, *Winning
  Ways*).  Always exact, at once (``plyscope.engine.solve.nim_score``).
* Connect Four: Pons' exact score (``plyscope.engine.solver``: ``0`` a draw, ``s > 0`` the
  player to move wins with their ``s``-th-to-last stone), found by a ``ScoreSearch`` within a
  per-position node budget; a position the budget cannot settle is ``unsettled``.
* Connect Four with chance: expected values, not exact; ``refusal`` says so.

An ``Oracle`` holds one solver per board (its transposition table carries over from one
position to the next) and a bounded cache of the values found (least recently used out
first), shared by every pane; it is safe to call from several threads.  Its compiled solver
takes most of a second to load in a fresh process (numba and its machine code), so the first
``quick`` look starts the load in a thread of its own and, until it is done, looks with the
pure Python kernel (the same search, node for node): within its small budget that settles
many positions deep in a tree.

A search that proves values is a source of truth for its own nodes too (``Searcher.proof``: the exact solver's
scores, best-first minimax's, proof-number search's and MCTS-Solver's bounds once they meet): ``proven_truth`` takes
what it proved as the position's truth, so the column agrees with a searcher beside it that has settled more than the
oracle's budget can.

A ``Judgement`` compares a searcher's choice among a position's moves with perfect play: the
moves that keep the position's game-theoretic value (win, draw or loss) are optimal; a choice
worse than a sibling's is the search being fooled.  ``WorkShares`` adds where the work went: below the
root moves that win, draw, lose or are not settled.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass

from plyscope.engine.games.base import Game, Move, Player, State
from plyscope.engine.games.connect4 import Connect4, Connect4State
from plyscope.engine.games.nim import Nim, NimState
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import Node, cyclic_gc_paused
from plyscope.engine.search.outcomes import result_of, to_pons
from plyscope.engine.solve import nim_score
from plyscope.engine.solver import Connect4Solver, ScoreSearch

NODE_BUDGET = 200_000
"""Solver nodes one Connect Four position may take before it is left unsettled (a few tens of ms compiled)."""
CACHE_ENTRIES = 100_000
"""Positions whose truth the cache keeps at most (30 MB full, measured with tracemalloc on Connect Four), the least
recently used going first."""
SOLVER_TABLE = 1 << 20
"""The truth solver's transposition table size (``table_limit``: Pons' fixed table, 2^21 + a few slots of 9 bytes
compiled, 19 MB)."""
QUICK_BUDGET = 2_000
"""Solver nodes ``Oracle.quick`` gives a Connect Four position: some 15 ms in pure Python, under 1 ms compiled."""
STAND_IN_MISSES = 6
"""Positions in a row the pure Python kernel may fail to settle before ``quick`` leaves the rest to the compiled
solver (their search would only slow its load)."""
STAND_IN_TABLE = 1 << 16
"""The pure Python solver's table while the compiled one loads (``table_limit``: about 1.5 MB)."""


@dataclass(frozen=True, slots=True)
class Truth:
    """What perfect play gives the player to move in a position, or that the budget could not say."""

    score: PovScore[int] | None
    """For the player to move: Pons' score (Connect Four) or ``+1``/``-1`` (Nim); ``None``: not settled within the
    budget."""
    nodes: int = 0
    """Solver nodes spent finding it (0 for Nim)."""

    @property
    def settled(self) -> bool:
        return self.score is not None

    def outcome(self, player: int) -> int | None:
        """``+1`` a win, ``0`` a draw, ``-1`` a loss for ``player``; ``None`` when not settled."""
        if self.score is None:
            return None
        value = self.score.pov(player)
        return (value > 0) - (value < 0)


def proven_truth(proof: PovScore[int], state: State) -> Truth:
    """What a search proved of ``state`` (``Searcher.proof``: an exact score in ``outcomes``' units) as its truth: Pons'
    score on Connect Four (the game's length is in both), the result alone on Nim (``+1``, ``-1``)."""
    value = proof.pov(state.player)
    if isinstance(state, Connect4State):
        return Truth(PovScore(to_pons(value, state.game.cells), state.player))
    return Truth(PovScore(result_of(value), state.player))


def refusal(game: Game) -> str | None:
    """Why no exact value is offered for ``game`` (``None``: it has one)."""
    if isinstance(game, Connect4 | Nim):
        return None
    if "chance" in game.name:
        return "Connect Four with chance has expected values, not exact ones: no truth to show"
    return f"the truth column is for Connect Four and the Nim games, not {game.name} (plyscope solve values a tree)"


class Oracle:
    """Exact values of positions, within ``budget`` solver nodes each, cached (at most ``capacity`` positions)."""

    def __init__(
        self,
        *,
        budget: int = NODE_BUDGET,
        capacity: int = CACHE_ENTRIES,
        table: int = SOLVER_TABLE,
        loaded: Callable[[], object] | None = None,
    ) -> None:
        """``loaded``: called (in the loading thread, the cycle collector paused) each time a board's solver has been
        made."""
        self.budget = budget
        self.loaded = loaded
        """Called (in the loading thread, the cycle collector paused) each time a board's solver has been made
        (``None``: nothing)."""
        self.capacity = capacity
        self._table = table
        self._cache: OrderedDict[tuple[Game, Hashable], Truth] = OrderedDict()
        """By the game and the position's ``key()``: a state would keep the positions before it alive."""
        self._solvers: dict[Connect4, Future[Connect4Solver]] = {}
        """Each board's solver (compiled where the board fits), made once: by ``truth``, or in a thread of its own
        from ``quick`` on."""
        self._stand_ins: dict[Connect4, Connect4Solver] = {}
        """Each board's pure Python solver, which ``quick`` uses while the board's solver loads."""
        self._misses = 0
        """Positions in a row the pure Python solvers have not settled."""
        self._slow: set[tuple[Game, Hashable]] = set()
        """Positions ``quick`` has not settled (at most ``capacity``): it does not look at them again."""
        self.load_ahead = True
        """Whether the panes start loading a board's solver before their truth column asks for it (``SearchPane``);
        off in a session ``plyscope serve`` started (its address space is capped, and every page would pay)."""
        self._lock = threading.Lock()
        self._solving = threading.Lock()

    def __len__(self) -> int:
        return len(self._cache)

    def cached(self, state: State) -> Truth | None:
        """What is known of ``state`` already (``None``: not looked at yet); solves nothing."""
        key = (state.game, state.key())
        with self._lock:
            truth = self._cache.get(key)
            if truth is not None:
                self._cache.move_to_end(key)
            return truth

    def truth(self, state: State, *, at_least: int | None = None) -> Truth:
        """``state``'s value for its player to move, solved now if it is not cached (Connect Four: within the
        budget, waiting for the board's solver to load).  ``at_least``: a score its player to move is known to get
        (what one of its moves is worth), where the solve starts from.  Raises ``ValueError`` for a game ``refusal``
        names."""
        known = self.cached(state)
        if known is not None:
            return known
        if isinstance(state, NimState):
            truth = Truth(PovScore(nim_score(state), state.player))
        elif isinstance(state, Connect4State):
            truth = self._solve(self._solver(state.game).result(), state, self.budget, at_least)
        else:
            raise ValueError(refusal(state.game))
        self._keep(state, truth)
        return truth

    def quick(self, state: State) -> Truth | None:
        """``state``'s value if it is cached, exact at once (Nim) or settled within ``QUICK_BUDGET`` solver nodes;
        ``None``: not yet (``truth`` finds it).  It never waits for the board's solver to load (it starts the load in
        the background): meanwhile the pure Python kernel looks.  Raises ``ValueError`` for a game ``refusal``
        names."""
        if not isinstance(state, Connect4State):
            return self.truth(state)
        known = self.cached(state)
        key = (state.game, state.key())
        if known is not None or key in self._slow:
            return known
        loading = self._solver(state.game, background=True)
        if loading.done():
            truth = self._solve(loading.result(), state, min(QUICK_BUDGET, self.budget))
        elif self._misses >= STAND_IN_MISSES:
            return None
        else:
            started = time.perf_counter()
            truth = self._solve(self._stand_in(state.game), state, min(QUICK_BUDGET, self.budget))
            with self._lock:
                self._misses = 0 if truth.settled else self._misses + 1
            time.sleep(time.perf_counter() - started)  # as long again for the load, which shares the GIL
            if not truth.settled:
                return None  # (the stand-in's small table may settle less than the board's solver would)
        if not truth.settled and self.budget > QUICK_BUDGET:
            with self._lock:
                if len(self._slow) >= self.capacity:
                    self._slow.clear()
                self._slow.add(key)
            return None
        self._keep(state, truth)
        return truth

    def clear(self) -> None:
        """Forget every value found and empty the solvers' tables, as in a fresh process (the solvers stay loaded)."""
        with self._solving, self._lock:
            self._cache.clear()
            self._slow.clear()
            self._misses = 0
            for loading in self._solvers.values():
                if loading.done() and loading.exception() is None:
                    loading.result().reset()
            for solver in self._stand_ins.values():
                solver.reset()

    def prepare(self, game: Game) -> Future[Connect4Solver] | None:
        """Start loading the solver ``truth`` uses on ``game`` in a thread of its own, unless it is loaded or loading;
        the load (``None``: ``game`` has no solver to load).  Makes ``quick``'s first looks compiled ones."""
        if not isinstance(game, Connect4) or refusal(game) is not None:
            return None
        return self._solver(game, background=True)

    def _keep(self, state: State, truth: Truth) -> None:
        key = (state.game, state.key())
        with self._lock:
            self._cache[key] = truth
            self._cache.move_to_end(key)
            while len(self._cache) > self.capacity:
                self._cache.popitem(last=False)

    def _solver(self, game: Connect4, *, background: bool = False) -> Future[Connect4Solver]:
        """``game``'s solver, made the first time: here, or in a thread of its own (``background``; a second or so in a
        fresh process, for numba and its machine code)."""
        with self._lock:
            made = self._solvers.get(game)
            if made is not None:
                return made
            made = self._solvers[game] = Future()

        def make() -> None:
            try:
                with cyclic_gc_paused():  # (numba's 85,000 or so objects: walks that free nothing would pause the UI)
                    solver = Connect4Solver(game, table_limit=self._table)
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

    def _stand_in(self, game: Connect4) -> Connect4Solver:
        """``game``'s pure Python solver, made the first time."""
        with self._lock:
            solver = self._stand_ins.get(game)
            if solver is None:
                solver = self._stand_ins[game] = Connect4Solver(game, table_limit=STAND_IN_TABLE, native=False)
            return solver

    def _solve(self, solver: Connect4Solver, state: Connect4State, budget: int, at_least: int | None = None) -> Truth:
        with self._solving:  # a solver's table serves one position at a time
            search = ScoreSearch(solver, state)
            if at_least is not None and search.lower < at_least <= search.upper:
                search.lower = at_least  # (fewer null-window probes: most moves judged keep the value)
            search.advance(budget)
            return Truth(search.score, search.nodes)


@dataclass(frozen=True, slots=True)
class Judgement:
    """A searcher's choice among a position's moves, against perfect play: outcomes for the player who chooses."""

    outcomes: tuple[int | None, ...]
    """Each move's outcome with perfect play after it, for the chooser: ``+1`` win, ``0`` draw, ``-1`` loss (``None``:
    not settled)."""
    chosen: int | None
    """The index of the move the searcher prefers (``None``: none yet)."""

    @classmethod
    def of(cls, truths: Sequence[Truth | None], chooser: int, chosen: int | None) -> Judgement:
        """From the truths of the positions the moves lead to (each for its own player to move)."""
        return cls(tuple(None if truth is None else truth.outcome(chooser) for truth in truths), chosen)

    @property
    def settled(self) -> bool:
        """Whether every move's outcome is known."""
        return None not in self.outcomes

    @property
    def best(self) -> int | None:
        """The best outcome known among the moves (``None``: none known)."""
        known = [outcome for outcome in self.outcomes if outcome is not None]
        return max(known) if known else None

    @property
    def optimal_moves(self) -> int | None:
        """How many moves keep the position's value (``None`` until every outcome is known)."""
        return self.outcomes.count(self.best) if self.settled else None

    @property
    def optimal(self) -> bool | None:
        """Whether the chosen move keeps the value: ``False`` as soon as a sibling is known to do better, ``True`` once
        none can (a win, or every outcome known); ``None`` while it is open."""
        if self.chosen is None:
            return None
        mine, best = self.outcomes[self.chosen], self.best
        if mine is None or best is None:
            return None
        if mine < best:
            return False
        return True if mine == 1 or self.settled else None


def subtree_work(node: Node) -> float:
    """The work spent below ``node``: its visits where its kind of node counts them (MCTS: ``Node.work()``), else the
    moves generated there (the nodes of its subtree, itself included)."""
    if type(node).work is not Node.work:
        return node.work()
    count = 0
    stack = [node]
    while stack:
        current = stack.pop()
        count += 1
        stack.extend(current.children)
    return float(count)


OUTCOME_NAMES = {1: "win", 0: "draw", -1: "loss", None: "unsettled"}
"""A root move's outcome for the player to move at the root, as ``work_by_outcome`` names it."""


@dataclass(frozen=True, slots=True)
class WorkShares:
    """A search's root moves against perfect play: its choice, and where its work went."""

    judgement: Judgement
    """The best move among the root moves, outcomes for the player to move at the root."""
    work: tuple[float, ...]
    """The work below each root move (``subtree_work``), in the order of ``judgement.outcomes``."""
    unit: str
    """``visits`` or ``moves`` (moves generated)."""

    def by_outcome(self) -> dict[str, float]:
        """The work below the root moves that win, draw, lose (for the player to move at the root) or are not
        settled; the four add up to ``total``."""
        shares = dict.fromkeys(OUTCOME_NAMES.values(), 0.0)
        for outcome, work in zip(self.judgement.outcomes, self.work, strict=True):
            shares[OUTCOME_NAMES[outcome]] += work
        return shares

    @property
    def total(self) -> float:
        return sum(self.work)

    @property
    def losing_share(self) -> float | None:
        """The share of the work spent below root moves that lose, for the player to move at the root; ``None`` while
        it is not known: no work yet, or some of it below a root move not settled (the share could be anything from
        what is known to lose to that and the unsettled work together)."""
        shares = self.by_outcome()
        total = self.total
        return shares["loss"] / total if total and not shares["unsettled"] else None

    def as_json(self) -> dict[str, object]:
        """``plyscope search --json``'s fields: ``null`` where not known (not settled within the solver's budget)."""
        judgement = self.judgement
        return {
            "best_move_optimal": judgement.optimal,
            "optimal_root_moves": judgement.optimal_moves,
            "root_moves": len(judgement.outcomes),
            "losing_work_share": self.losing_share,
            "work_by_outcome": self.by_outcome(),
            "work_unit": self.unit,
        }


def work_shares(
    root: Node, moves: Sequence[Move], best: Move | None, truths: Sequence[Truth | None], player: Player
) -> WorkShares:
    """The root's legal ``moves`` judged from ``truths`` (the value after each, ``None``: not known), ``best`` the move
    the searcher prefers, ``player`` the one to move at the root; the work below each (0 where it has no node)."""
    below = {child.move: child for child in root.children}
    chosen = moves.index(best) if best in moves else None
    unit = "visits" if type(root).work is not Node.work else "moves"
    work = tuple(subtree_work(below[move]) if move in below else 0.0 for move in moves)
    return WorkShares(Judgement.of(truths, player, chosen), work, unit)

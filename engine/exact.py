"""The one door to exact values: "what is this position worth, within this budget?", for every game that has them.

``Exact`` asks each game's kit for its values (``GameKit.exact``: Connect Four's solver, the Nim games' theory, a
hand-written tree's minimax, a plugin's own) and keeps, for every caller alike (``plyscope solve``, the board's
analysis, the truth column, the fooled marks, the arena's judging, ``plyscope study``):

* one provider per game (a solver's table carries over from one position to the next);
* the budget of work one position may take (``budget``: solver nodes) before it is left unsettled (a provider may
  settle some positions whatever it is: on 7x6 Connect Four, those of at most 12 stones, which the opening book
  reaches);
* a bounded cache of the values found, least recently used out first, and the positions ``quick`` could not
  settle (it does not look at them again).

Every value is for the **player to move** in the position valued, on its game's scale (``ExactValues.scale``), as
a ``Truth``.  An ``Exact`` is safe to call from several threads.  The app owns one (``PlyscopeApp.exact``) and hands
it to what it shows; a command makes its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import Any

from plyscope.engine.games.base import Game, State
from plyscope.engine.kits import kit_of
from plyscope.engine.kits.base import ExactValues, MovesSolve, Number, Truth
from plyscope.engine.pov import PovScore
from plyscope.engine.search.outcomes import ply_of, result_of

NODE_BUDGET = 200_000
"""Solver nodes one position may take before it is left unsettled (a few tens of ms of Connect Four's compiled
solver)."""
QUICK_BUDGET = 2_000
"""Solver nodes ``Exact.quick`` gives a position: some 15 ms of Connect Four's pure Python solver, under 1 ms
compiled."""
CACHE_ENTRIES = 100_000
"""Positions whose truth the cache keeps at most (30 MB full, measured with tracemalloc on Connect Four), the least
recently used going first."""


class Exact:
    """Exact values of positions, within ``budget`` work each, cached (at most ``capacity`` positions)."""

    def __init__(
        self,
        *,
        budget: int = NODE_BUDGET,
        capacity: int = CACHE_ENTRIES,
        table: int | None = None,
        loaded: Callable[[], object] | None = None,
        load_ahead: bool = True,
    ) -> None:
        self.budget = budget
        """Work (solver nodes) one position may take before it is left unsettled."""
        self.capacity = capacity
        self.table = table
        """The slots of each solver's transposition table (``None``: the game's default)."""
        self.loaded = loaded
        """Called (in the loading thread, the cycle collector paused) each time a game's solver has been made
        (``None``: nothing)."""
        self.load_ahead = load_ahead
        """Whether a pane starts loading a game's solver before its truth column asks (``prepare``); off in a session
        ``plyscope serve`` started (its memory is capped, and every page would pay)."""
        self._values: dict[Game, ExactValues | None] = {}
        self._cache: OrderedDict[tuple[Game, Hashable], Truth] = OrderedDict()
        """By the game and the position's ``key()``: a state would keep the positions before it alive."""
        self._slow: set[tuple[Game, Hashable]] = set()
        """Positions ``quick`` has not settled (at most ``capacity``): it does not look at them again."""
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._cache)

    def refusal(self, game: Game) -> str | None:
        """Why no exact value is offered for ``game`` (``None``: it has them)."""
        return None if self._provider(game) is not None else kit_of(game).no_exact(game)

    def values(self, game: Game) -> ExactValues:
        """``game``'s provider of exact values, made once; raises ``ValueError`` (saying why) for a game without."""
        provider = self._provider(game)
        if provider is None:
            raise ValueError(kit_of(game).no_exact(game))
        return provider

    def cached(self, state: State) -> Truth | None:
        """What is known of ``state`` already (``None``: not looked at yet); solves nothing."""
        key = (state.game, state.key())
        with self._lock:
            truth = self._cache.get(key)
            if truth is not None:
                self._cache.move_to_end(key)
            return truth

    def truth(self, state: State, *, at_least: Number | None = None, budget: int | None = None) -> Truth:
        """``state``'s value for its player to move, found now if it is not cached, within ``budget`` (``None``: the
        service's) and waiting for the game's solver to load.  ``at_least``: a value its player to move is known to
        get (what one of its moves is worth), where a search starts.  Raises ``ValueError`` for a game without exact
        values."""
        known = self.cached(state)
        if known is not None:
            return known
        truth = self.values(state.game).truth(state, self.budget if budget is None else budget, at_least)
        self._keep(state, truth)
        return truth

    def quick(self, state: State) -> Truth | None:
        """``state``'s value if it is cached, known at once or settled within ``QUICK_BUDGET``; ``None``: not yet
        (``truth`` finds it).  It never waits for a solver to load.  Raises ``ValueError`` for a game without exact
        values."""
        provider = self.values(state.game)
        known = self.cached(state)
        key = (state.game, state.key())
        if known is not None or key in self._slow:
            return known
        truth = provider.quick(state, min(QUICK_BUDGET, self.budget))
        if truth is None:
            return None
        if not truth.settled:  # (``truth`` may still settle it: a larger budget, or a position the provider settles)
            with self._lock:
                if len(self._slow) >= self.capacity:
                    self._slow.clear()
                self._slow.add(key)
            return None
        self._keep(state, truth)
        return truth

    def moves(self, state: State) -> MovesSolve:
        """A solve of every legal move of ``state``, a slice at a time (a fresh one each call).  Raises ``ValueError``
        for a game without exact values."""
        return self.values(state.game).moves(state)

    def prepare(self, game: Game) -> Future[Any] | None:
        """Start loading what ``truth`` needs on ``game`` in the background, unless it is loaded or loading; the load
        (``None``: nothing to load)."""
        provider = self._provider(game)
        return None if provider is None else provider.prepare()

    def words(self, truth: Truth, state: State) -> str | None:
        """``truth`` (of ``state``) in words for its player to move: ``win in 3``, ``draw``, ``lost``, ``value 5``;
        ``None`` when not settled.  Raises ``ValueError`` for a game without exact values."""
        if truth.score is None:
            return None
        return self.values(state.game).words(truth.score, state)

    def proven(self, proof: PovScore[int], state: State) -> Truth | None:
        """What a search proved of ``state`` (``Searcher.proof``: a score in ``plyscope.engine.search.outcomes``'
        units, ``±(1000 - ply)``) as its truth on the game's scale (Connect Four: Pons' score; a win, a draw or a loss
        elsewhere); ``None`` where a proof says less than the values (a tree's).  Raises ``ValueError`` for a game
        without exact values."""
        value = proof.pov(state.player)
        return self.values(state.game).proven(result_of(value), ply_of(value), state)

    def note(self, game: Game) -> str:
        """What a caption says of how ``game``'s values are found (Connect Four: whether with the opening book);
        ``""``: nothing, or no exact values."""
        provider = self._provider(game)
        return "" if provider is None else provider.note()

    def clear(self) -> None:
        """Forget every value found and empty the solvers' tables, as in a fresh process (the solvers stay loaded)."""
        with self._lock:
            self._cache.clear()
            self._slow.clear()
            providers = [provider for provider in self._values.values() if provider is not None]
        for provider in providers:
            provider.clear()

    def _provider(self, game: Game) -> ExactValues | None:
        with self._lock:
            if game not in self._values:
                self._values[game] = kit_of(game).exact(game)
                provider = self._values[game]
                if provider is not None:
                    provider.loaded, provider.table = self.loaded, self.table
            return self._values[game]

    def _keep(self, state: State, truth: Truth) -> None:
        key = (state.game, state.key())
        with self._lock:
            self._cache[key] = truth
            self._cache.move_to_end(key)
            while len(self._cache) > self.capacity:
                self._cache.popitem(last=False)

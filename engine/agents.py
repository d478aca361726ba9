"""Agents: a registry searcher with a budget per turn, as the arena (and a play screen) use them.

An agent builds a **new searcher for every turn** and carries nothing over from one turn to
the next (Rivest's rule, section 5.3 of his paper): the tree, the transposition table and
the random generator all start afresh from the position and the seed it is given.

When the searcher proposes no move (a budget too small to finish even one step, e.g.
``alphabeta`` under ``Limit(moves=3)``), the agent still moves: it plays
``fallback_move(state)``, the first legal move in centre-first order, and says so in its
``Decision`` so that the arena can count it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from plyscope.engine.games.base import Move, State
from plyscope.engine.kits import kit_of
from plyscope.engine.numbers import parse_moves, parse_seconds, parse_seed
from plyscope.engine.search import registry
from plyscope.engine.search.base import Limit, Stats
from plyscope.engine.search.registry import AgentSpec

DEFAULT_TURN_MOVES = 1000
"""An agent's budget per turn when neither ``--moves`` nor ``--seconds`` is given: calls to the move operator."""


def turn_limit(moves: int | None, seconds: float | None) -> Limit:
    """The per-turn limit of ``--moves`` or ``--seconds`` (``DEFAULT_TURN_MOVES`` moves if neither)."""
    if seconds is not None:
        return Limit(seconds=parse_seconds(seconds))
    return Limit(moves=DEFAULT_TURN_MOVES if moves is None else parse_moves(moves))


def limit_text(limit: Limit) -> str:
    """A per-turn limit written short: ``1000 moves`` or ``0.5 s``."""
    return f"{limit.seconds:g} s" if limit.seconds is not None else f"{limit.moves} moves"


def check_seed(seed: int) -> int:
    """``seed`` if it is a seed (``plyscope.engine.numbers.parse_seed``: 0 to 2^63 - 1); raises ``UserError``
    otherwise."""
    return parse_seed(seed)


def fallback_move(state: State) -> Move:
    """The move played when a searcher proposes none: deterministic, and never a bad habit (the game's kit says
    which: ``GameKit.fallback_move``; Connect Four's is the playable column nearest the centre, other games' the first
    legal move)."""
    return kit_of(state.game).fallback_move(state)


@dataclass(frozen=True, slots=True)
class Decision:
    """One turn of an agent: the move it plays and what its searcher spent to find it."""

    move: Move
    fallback: bool
    """True when the searcher proposed no move and ``move`` is ``fallback_move(state)``."""
    stats: Stats
    """The turn's searcher's stats at the end of its run (moves, nodes, seconds...)."""


@dataclass(frozen=True, slots=True)
class Agent:
    """A registry spec (``mcts:c=1.4,k=32``) with a budget per turn (``Limit(moves=1000)``).

    Plain data, so that it pickles to worker processes and Dask workers.
    """

    spec: AgentSpec
    limit: Limit
    name: str = ""
    """The agent's name in tables and results; empty means the spec's label."""
    compiled: bool = True
    """Search with the searcher's compiled twin where it has one (``plyscope.engine.compiled``): the same move and
    counts as stepping, many times sooner, so only a time bound sees a difference."""

    @classmethod
    def parse(cls, text: str, limit: Limit, name: str = "") -> Agent:
        """The agent written ``text`` (checked against the registry; raises ``SearchError``)."""
        return cls(AgentSpec.parse(text), limit, name)

    @property
    def label(self) -> str:
        return self.name or self.spec.label()

    def decide(self, state: State, seed: int) -> Decision:
        """Search ``state`` afresh with a new searcher seeded ``seed`` and pick a move (the tree is held to the
        algorithm's node cap, about 1 GB, whatever the budget)."""
        searcher = self.spec.make(state, seed=seed)
        limit = self.limit if self.limit.nodes is not None else replace(self.limit, nodes=self.spec.info.node_cap)
        twin = None
        if self.compiled:
            twin = registry.compiled_twin(searcher)  # (numba loads only for an agent that plays)
        result = (searcher if twin is None else twin).run(limit)
        if result.best_move is None:
            return Decision(fallback_move(state), True, result.stats)
        return Decision(result.best_move, False, result.stats)

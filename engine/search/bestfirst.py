"""Best-first minimax (Korf & Chickering, Artificial Intelligence 84, 1996).

The whole tree is kept, with a backed-up minimax value at every node.  One step (one
expansion): follow the principal variation from the root (the max child at MAX nodes, the
min child at MIN nodes) to a leaf, generate and statically evaluate all its children, and
back the new values up the path, stopping at the first ancestor whose value and principal
child are unchanged.

``ab_depth > 0`` is the "best-first extension": the tree is first grown full width to
``ab_depth`` plies, one expansion per step in breadth-first order (every non-terminal node
above that depth is expanded; the backed-up values are those alpha-beta would return at
that depth, found without its pruning, so this phase costs every move of the full-width
tree), and then best-first from its frontier.

Terminal leaves are never expanded.  The search is finished when the principal leaf is
terminal: the principal variation then ends in the game's end.  When that end is a win or a
loss, the *result* is proven (the evaluators score wins and losses beyond every heuristic
value, so on the line every alternative of the losing side is a proven loss too), but the
root *value* is not exact: the winner may have a quicker win in a branch still valued by the
heuristic.  With ``eval=threats``, which prefers quicker wins, ``3734156763667367115423357654447``
(second player to move) finishes at -960, a win for the second player at ply 40, while the
exact value is -966 (alpha-beta, or the solver: a win at ply 34).  A principal variation
ending in a draw proves nothing: it is only as sure as the heuristic values beside it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from operator import attrgetter
from typing import Self

from engine.games.base import Move, State
from engine.games.evaluators import Evaluator
from engine.pov import PovScore
from engine.search.base import (
    NO_CHILDREN,
    TAKEN,
    AlgorithmInfo,
    ExpandingSearcher,
    Expansions,
    Node,
    Param,
    Step,
    Taken,
    Verdict,
    best_child,
)
from engine.search.minimax import EVAL_PARAMS, resolve_evaluator

_VALUE = attrgetter("v")


class BestFirstNode(Node):
    """A node of the best-first minimax tree."""

    __slots__ = ("best", "state", "terminal", "v")

    state: State | None
    """The position, kept from the node's expansion on: a leaf's position is made again from its parent's when
    the leaf is expanded (that ``play`` is not counted in ``Stats.moves``), so that leaves, most of the tree, stay
    small.  ``Searcher.state_at`` gives any node's position."""
    terminal: bool
    """True when the game is over here."""
    v: float
    """Minimax value of the tree below, from the first player's point of view (the static value at a leaf)."""
    best: Self | None
    """The principal child: the first child with the best value for the player to move (``None`` at a leaf)."""

    def __init__(self, parent: Self | None, move: Move | None, v: float, terminal: bool) -> None:
        # Every slot is set here (not through Node.__init__): nodes are created in the inner loop.
        self.parent = parent
        self.move = move
        self.children = NO_CHILDREN
        self.depth = 0 if parent is None else parent.depth + 1
        self.state = None
        self.terminal = terminal
        self.v = v
        self.best = None

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"v": self.v}


class BestFirst(ExpandingSearcher[BestFirstNode]):
    """Best-first minimax: always expand the leaf at the end of the principal variation."""

    evaluator: Evaluator
    """The static evaluation at the leaves (first player's point of view)."""
    name = "bestfirst"
    description = "best-first minimax (Korf & Chickering): expand the principal leaf"

    def __init__(self, state: State, *, ab_depth: int = 0, evaluator: str | Evaluator = "auto") -> None:
        super().__init__(state)
        self.evaluator = resolve_evaluator(evaluator, state) if isinstance(evaluator, str) else evaluator
        self.ab_depth = ab_depth
        self.root = BestFirstNode(None, None, self.evaluator(state), state.is_terminal())
        self.root.state = state
        self._players = (state.player, -state.player)
        """The player to move at an even depth, and at an odd one (+1 first, MAX; -1 second, MIN)."""
        self.stats.nodes = 1
        self._full_width: deque[BestFirstNode] = deque()
        """Nodes still to expand in the full-width phase, shallowest first."""
        if ab_depth > 0 and not state.is_terminal():
            self._full_width.append(self.root)
        self._principal: list[BestFirstNode] = [self.root]
        """The principal variation from the root to its leaf, kept up to date after every step."""
        self._expansions = Expansions(self._leaf_again, self._reattach, self._kept, self._given_back, self._rescore)
        """Every step's expansion, for ``undo``, ``rewind`` and ``redo``."""

    def _advance(self, record: bool, moves_left: int | None) -> Step[BestFirstNode] | Taken | None:
        if self.finished:
            return None
        full_width = bool(self._full_width)
        leaf = self._full_width[0] if full_width else self._principal[-1]
        state = leaf.state
        if state is None:
            parent = leaf.parent
            assert parent is not None and parent.state is not None
            state = parent.state.play(leaf.move)
        moves = state.legal_moves()
        if moves_left is not None and len(moves) > moves_left:
            return None
        leaf.state = state
        self._expansions.record(leaf, leaf.v)
        if full_width:
            self._full_width.popleft()
        evaluator = self.evaluator
        children = []
        for move in moves:
            child_state = state.play(move)
            children.append(BestFirstNode(leaf, move, evaluator(child_state), child_state.is_terminal()))
        leaf.children = children
        stats = self.stats
        stats.moves += len(moves)
        stats.nodes += len(moves)
        if leaf.depth + 1 > stats.max_depth:
            self._deeper(leaf.depth + 1)
        if full_width:
            self._full_width.extend(c for c in children if c.depth < self.ab_depth and not c.terminal)
        changed = self._back_up(leaf)
        self._principal = self._principal_from_root()
        self.finished = not self._full_width and self._principal[-1].terminal
        if not record:
            return TAKEN
        return Step(
            path=tuple(leaf.path()),
            node=leaf,
            added=tuple(children),
            changed=(*changed, *children),
        )

    def _back_up(self, leaf: BestFirstNode) -> list[BestFirstNode]:
        """Recompute values and principal children from ``leaf`` up; the nodes that changed, ``leaf`` first."""
        changed: list[BestFirstNode] = []
        node: BestFirstNode | None = leaf
        players = self._players
        while node is not None:
            children = node.children
            best = best_child(children, players[node.depth & 1], _VALUE)
            assert best is not None  # a node backed up has children
            if best is node.best and best.v == node.v:
                break
            node.best = best
            node.v = best.v
            changed.append(node)
            node = node.parent
        return changed

    def undo(self, path: Sequence[Move]) -> bool:
        """Not with ``ab_depth``: its full-width phase is replayed."""
        return self.ab_depth == 0 and super().undo(path)

    def rewind_cost(self, step: int) -> float | None:
        """Not with ``ab_depth``: its full-width phase is replayed."""
        return None if self.ab_depth > 0 else super().rewind_cost(step)

    def _moved(self) -> None:
        """The principal variation and ``finished`` after the tree went back or forth along the timeline."""
        self._principal = self._principal_from_root()
        self.finished = not self._full_width and self._principal[-1].terminal

    @staticmethod
    def _leaf_again(leaf: BestFirstNode, value: float) -> State | None:
        """``leaf`` a leaf of its static ``value`` again; the position it no longer keeps (none at the root)."""
        leaf.best = None
        leaf.v = value
        state = leaf.state
        if leaf.parent is not None:
            leaf.state = None
        return state

    @staticmethod
    def _reattach(leaf: BestFirstNode, state: State | None) -> None:
        leaf.state = state

    @staticmethod
    def _kept(node: BestFirstNode) -> tuple[float, int]:
        """An inner node's numbers, for the journal: its value and the place of its principal child."""
        return (node.v, node.children.index(node.best))

    @staticmethod
    def _given_back(node: BestFirstNode, kept: tuple[float | int, ...]) -> None:
        """``node``'s numbers as ``_kept`` took them."""
        node.v, place = kept
        node.best = node.children[int(place)]

    def _rescore(self, node: BestFirstNode) -> None:
        """Back up ``node``'s value and principal child from its children."""
        best = best_child(node.children, self._players[node.depth & 1], _VALUE)
        assert best is not None  # a node rescored has children
        node.best = best
        node.v = best.v

    def player(self, node: BestFirstNode) -> int:
        """The player to move at ``node`` (+1 first player, MAX; -1 second, MIN)."""
        return self._players[node.depth & 1]

    def _principal_from_root(self) -> list[BestFirstNode]:
        path = [self.root]
        node = self.root.best
        while node is not None:
            path.append(node)
            node = node.best
        return path

    def best_move(self) -> Move | None:
        best = self.root.best
        return None if best is None else best.move

    def value(self) -> PovScore[float]:
        """The root's backed-up minimax value, first player's point of view, on the evaluator's scale."""
        return self.scored(self.root.v)

    def principal_path(self) -> list[BestFirstNode]:
        return list(self._principal)

    def proven(self) -> Verdict | None:
        """Once finished on a win or a loss, that result (a draw at the end of the line proves nothing)."""
        verdict = self.line_verdict(self.principal_variation()) if self.finished else None
        return verdict if verdict is not None and verdict != (0, 0) else None


ALGORITHMS = (
    AlgorithmInfo(
        name=BestFirst.name,
        description=BestFirst.description,
        factory=BestFirst,
        node_bytes=192,
        ui_node_bytes=264,
        params=(
            Param(
                "ab_depth",
                int,
                0,
                "best-first extension: grow the tree full width to this depth first (0 = pure best-first)",
                lo=0,
                hi=8,
            ),
            *EVAL_PARAMS,
        ),
    ),
)

"""Plain minimax with a depth cut-off: the reference every other searcher is checked against.

Depth first, one node visit per step: a step plays one move from the deepest open node,
evaluates the new node if it is a leaf (terminal or at the cut-off depth), and backs up
the values of every node that it completes.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from plyscope.engine.games.base import Move, State
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.kits.evaluation import default_evaluator, evaluator_names, make_evaluator
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import TAKEN, VALUE_MEANING, Node, Searcher, Step, Taken, best_child
from plyscope.engine.search.entry import AlgorithmInfo, Param

_VALUE = attrgetter("value")
"""A node's value, first player's point of view: the key ``best_child`` compares."""

EVAL_PARAM = Param(
    "eval",
    str,
    "auto",
    "static evaluator (auto: the game's default: rivest for Connect Four, features with chance, neutral for Nim, tree "
    "on a tree, lines for tic-tac-toe)",
    choices=("auto", *evaluator_names()),
)
WEIGHTS_PARAM = Param(
    "weights",
    str,
    "",
    "eval=features only: a weights file (plyscope tune writes one) or NAME:VALUE pairs, e.g. "
    "threes:20,centre:0 (blank: hand-set)",
)
TRANSFORM_PARAM = Param(
    "transform",
    str,
    "identity",
    "strictly increasing transform of every evaluation: identity, cube, exp, log, affine:A,B (A > 0)",
)
EVAL_PARAMS = (EVAL_PARAM, WEIGHTS_PARAM, TRANSFORM_PARAM)
"""The evaluator's parameters, for every searcher that evaluates positions: the registry turns them into
one ``Evaluator`` (``resolve_evaluator``) passed as ``eval``."""


def resolve_evaluator(
    name: str | Evaluator, state: State, *, weights: str = "", transform: str = "identity"
) -> Evaluator:
    """The evaluator called ``name`` for ``state``'s game (``auto``: the game's default) with ``weights``
    and ``transform`` (see ``make_evaluator``), or ``name`` itself when it is already an evaluator
    (injected by the registry or by tests)."""
    if not isinstance(name, str):
        return name
    chosen = default_evaluator(state.game) if name == "auto" else name
    return make_evaluator(chosen, state.game, weights=weights, transform=transform)


class MinimaxNode(Node):
    """A node of the minimax tree."""

    __slots__ = ("value", "player")

    value: float | None
    """Minimax value from the first player's point of view; for an open node, the best found so far."""
    player: int
    """The player to move at this node (+1 first, -1 second)."""

    def __init__(self, parent: MinimaxNode | None, move: Move | None, player: int) -> None:
        super().__init__(parent, move)
        self.value = None
        self.player = player

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"v": self.value}


class _Frame:
    """An open node on the depth-first stack: its position and the moves still to try."""

    __slots__ = ("node", "state", "moves", "tried")

    def __init__(self, node: MinimaxNode, state: State) -> None:
        self.node = node
        self.state = state
        self.moves: Sequence[Move] = state.legal_moves()
        self.tried = 0
        """How many of ``moves`` have been played."""


class Minimax(Searcher[MinimaxNode]):
    """Full-width minimax to a fixed depth, stepped one node visit at a time."""

    evaluator: Evaluator
    """The static evaluation at the leaves (first player's point of view)."""
    name = "minimax"
    description = "plain minimax to a fixed depth (the reference; no pruning)"
    meanings = VALUE_MEANING

    def __init__(self, state: State, *, depth: int = 4, evaluator: str | Evaluator = "auto") -> None:
        """``evaluator`` (the ``eval`` parameter) names an evaluator or is one (injected)."""
        super().__init__(state)
        self.depth = depth
        self.evaluator = resolve_evaluator(evaluator, state)
        self.root = MinimaxNode(None, None, state.player)
        self.stats.nodes = 1
        self._stack: list[_Frame] = []
        if state.is_terminal() or depth == 0:
            self.root.value = self.evaluator(state)
            self.finished = True
        else:
            self._stack.append(_Frame(self.root, state))

    def _advance(self, record: bool, moves_left: int | None) -> Step[MinimaxNode] | Taken | None:
        if self.finished or (moves_left is not None and moves_left < 1):
            return None
        frame = self._stack[-1]
        move = frame.moves[frame.tried]
        frame.tried += 1
        parent = frame.node
        child_state = frame.state.play(move)
        self.stats.moves += 1
        child = MinimaxNode(parent, move, child_state.player)
        parent.add_child(child)
        self.stats.nodes += 1
        self.stats.max_depth = max(self.stats.max_depth, child.depth)
        changed = [child]
        if child_state.is_terminal() or child.depth >= self.depth:
            child.value = self.evaluator(child_state)
            self._back_up(child, changed)
        else:
            self._stack.append(_Frame(child, child_state))
        if not record:
            return TAKEN
        return Step(path=tuple(child.path()), node=child, added=(child,), changed=tuple(changed))

    def _back_up(self, leaf: MinimaxNode, changed: list[MinimaxNode]) -> None:
        """Fold ``leaf``'s value into its parent, and close every frame that has no move left."""
        node = leaf
        while node.parent is not None:
            parent = node.parent
            assert isinstance(parent, MinimaxNode) and node.value is not None
            if parent.value is None or (node.value - parent.value) * parent.player > 0:
                parent.value = node.value
                changed.append(parent)
            frame = self._stack[-1]
            if frame.node is not parent:
                break
            if frame.tried < len(frame.moves):
                break
            self._stack.pop()
            node = parent
        if not self._stack:
            self.finished = True

    def best_move(self) -> Move | None:
        """The root's best completed child's move (``None`` before the first child completes)."""
        best = self._best_child(self.root)
        return None if best is None else best.move

    def _best_child(self, node: MinimaxNode) -> MinimaxNode | None:
        """``node``'s first completed child with the best value for the player to move there.

        A child still open (its frame on the stack) has only a partial value, not yet folded
        into ``node.value``, so it is left out."""
        open_nodes = {id(frame.node) for frame in self._stack}
        valued = [
            c for c in node.children if isinstance(c, MinimaxNode) and c.value is not None and id(c) not in open_nodes
        ]
        return best_child(valued, node.player, _VALUE)

    def value(self) -> PovScore[float]:
        """The root's minimax value, first player's point of view (its static value before any step)."""
        return self.scored(self.root.value if self.root.value is not None else self.evaluator(self.root_state))

    def preferred_child(self, node: Node) -> MinimaxNode | None:
        assert isinstance(node, MinimaxNode)
        return self._best_child(node)


ALGORITHMS = (
    AlgorithmInfo(
        name=Minimax.name,
        description=Minimax.description,
        factory=Minimax,
        params=(Param("depth", int, 4, "search depth in plies", lo=0, hi=12), *EVAL_PARAMS),
        ui_node_bytes=192,
    ),
)

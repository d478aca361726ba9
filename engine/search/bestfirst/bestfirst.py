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

Terminal leaves are never expanded.  Korf and Chickering's search ends when the principal
leaf is terminal: the principal variation then ends in the game's end.  When that end is a
win or a loss, the *result* is proven (the evaluators score wins and losses beyond every
heuristic value, so on the line every alternative of the losing side is a proven loss too),
but not its length: the winner may have a quicker win, or the loser a slower loss, in a branch
still valued by the heuristic.  With ``eval=threats`` (a win worth ``1000 - ply``),
``3734156763667367115423357654447`` (second player to move) reaches a win for the second player
at ply 40 (-960) there, while the exact value is a win at ply 34 (-966).  When that end is a
draw, nothing is proven: the line is only as sure as the heuristic values beside it.  With
Rivest's evaluator, ``67152117737262713366376314254`` (second player to move) reaches a draw by
4, a move that loses (at ply 41), while 5 wins at ply 32.

So the search goes on, until the score is exact, its length included: a **refinement** after
Korf and Chickering's search.  Every node keeps bounds on its game-theoretic score (``bounds``,
in ``plyscope.engine.search.outcomes``' units, for the first player: a win at ply p is ``1000 - p``): a
finished game's exact score, an open leaf's intrinsic bounds (the game cannot end before the
next ply), an inner node those its children give.  A refinement step walks down from the root,
at each node among the children whose search can still change its bounds (``improvable``: not
exact, and possibly better for the player to move than what the node is sure of) to the one of
best value, and expands the leaf it reaches, as a step of the search does.  The search is
finished when the root's bounds meet.  Until the principal leaf ends the game the steps are
exactly Korf and Chickering's; once the result is proven, the move played is the one whose
bound is surest (the most the first player is sure of, or the least the second), so a lost
position is defended longest and a won one won quickest.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from operator import attrgetter
from typing import Self

from plyscope.engine.games.base import Move, State
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.kits import kit_of
from plyscope.engine.pov import FIRST, PovScore
from plyscope.engine.search.base import NO_CHILDREN, VALUE_MEANING, Node, Verdict, best_child, listed
from plyscope.engine.search.bestfirst.base import Numbers, PositionNode, PositionSearch
from plyscope.engine.search.minimax import resolve_evaluator
from plyscope.engine.search.outcomes import Bounds, backed_up, bounds, exact, improvable, intrinsic, result_of, score

_VALUE = attrgetter("v")


class BestFirstNode(PositionNode):
    """A node of the best-first minimax tree."""

    __slots__ = ("best", "bounds", "v")

    v: float
    """Minimax value of the tree below, from the first player's point of view (the static value at a leaf)."""
    best: Self | None
    """The principal child: the first child with the best value for the player to move (``None`` at a leaf)."""
    bounds: Bounds | None
    """Bounds on the game-theoretic score for the first player (``plyscope.engine.search.outcomes``): exact at a
    finished game, from the children at an inner node, ``None`` at a leaf where the game goes on (its intrinsic
    bounds)."""

    def __init__(self, parent: Self | None, move: Move | None, v: float, bounds: Bounds | None) -> None:
        """``bounds``: a finished game's (``_finished``), ``None`` where the game goes on."""
        # Every slot is set here (not through Node.__init__): nodes are created in the inner loop.
        self.parent = parent
        self.move = move
        self.children = NO_CHILDREN
        self.depth = 0 if parent is None else parent.depth + 1
        self.state = None
        self.v = v
        self.best = None
        self.bounds = bounds

    @property
    def terminal(self) -> bool:
        """True when the game is over here: a leaf whose bounds are known (an open leaf has none of its own)."""
        return self.bounds is not None and not self.children

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"v": self.v}


class BestFirst(PositionSearch[BestFirstNode]):
    """Best-first minimax: always expand the leaf at the end of the principal variation."""

    evaluator: Evaluator
    """The static evaluation at the leaves (first player's point of view)."""
    name = "bestfirst"
    description = "best-first minimax (Korf & Chickering): expand the principal leaf"
    meanings = VALUE_MEANING

    def __init__(self, state: State, *, ab_depth: int = 0, evaluator: str | Evaluator = "auto") -> None:
        super().__init__(state)
        self.evaluator = resolve_evaluator(evaluator, state) if isinstance(evaluator, str) else evaluator
        self.ab_depth = ab_depth
        self._ranking = kit_of(state.game).ranking(state.game)
        """On a hand-written tree, how its leaves' results are ranked by their values (``GameKit.ranking``), so
        that the bounds meet at the exact minimax value; ``None``: by result and length."""
        self._open_tree = None if self._ranking is None else self._ranking.open
        """The bounds of a node not searched yet where leaves are ranked (``Ranking.open``)."""
        self.root = BestFirstNode(
            None, None, self.evaluator(state), self._finished(state) if state.is_terminal() else None
        )
        self.root.state = state
        self._players = (state.player, -state.player)
        """The player to move at an even depth, and at an odd one (+1 first, MAX; -1 second, MIN)."""
        self._root_ply = state.ply
        self.stats.nodes = 1
        self._full_width: deque[BestFirstNode] = deque()
        """Nodes still to expand in the full-width phase, shallowest first."""
        if ab_depth > 0 and not state.is_terminal():
            self._full_width.append(self.root)
        self._principal: list[BestFirstNode] = [self.root]
        """The principal variation from the root to its leaf, kept up to date after every step."""
        self.finished = state.is_terminal()

    def _finished(self, state: State) -> Bounds:
        """A finished game's bounds: its exact score for the first player (a ranked game's leaf: its rank,
        ``GameKit.ranking``)."""
        if self._ranking is not None:
            return exact(self._ranking.rank(state))
        winner = state.winner()
        assert winner is not None
        return exact(score(winner, state.ply))

    def _expand(self, leaf: BestFirstNode, state: State, moves: Sequence[Move]) -> list[BestFirstNode]:
        """Generate and statically evaluate every child of ``leaf``, which keeps its position from now on."""
        leaf.state = state
        full_width = bool(self._full_width)
        if full_width:
            self._full_width.popleft()
        evaluator = self.evaluator
        children = []
        for move in moves:
            child_state = state.play(move)
            finished = self._finished(child_state) if child_state.is_terminal() else None
            children.append(BestFirstNode(leaf, move, evaluator(child_state), finished))
        leaf.children = children
        if full_width:
            self._full_width.extend(c for c in children if c.depth < self.ab_depth and not c.terminal)
        return children

    def _tip_text(self, path: Sequence[BestFirstNode]) -> str:
        """Why the end of ``path`` is the leaf expanded: the next of the full-width phase, the principal leaf, or the
        refinement's."""
        leaf = path[-1]
        where = self.label(leaf)
        if self._full_width:
            return f"tip: {where}, the next node of the full-width phase to depth {self.ab_depth} (breadth first)"
        if leaf is not self._principal[-1]:
            return (
                f"tip: {where}; the principal variation ends in a finished game, so the search refines the result: "
                "at each node the child of best value among those whose bounds can still change"
            )
        parts = []
        for node in leaf.path()[:-1]:
            chosen = node.best
            assert chosen is not None
            rivals = [child for child in node.children if child is not chosen]
            part = f"{self.label(chosen)} v {chosen.v:g}"
            rival = best_child(rivals, self.player(node), _VALUE)
            if rival is not None:
                part += f" (next best {self.state_at(node).move_label(rival.move)}: v {rival.v:g})"
            parts.append(part)
        if not parts:
            return "tip: the root, the only leaf"
        side = "MAX" if self.player(self.root) > 0 else "MIN"
        return (
            f"tip: the leaf at the end of the principal variation, {where}: from the root ({side} to move), at each "
            "node the child of best value for the player to move: " + listed(parts)
        )

    def _tip_node(self) -> BestFirstNode:
        """The leaf a step expands: the next of the full-width phase (never a finished game), else the principal
        leaf, or where the game is over there, the refinement's (``_refinement_leaf``)."""
        if self._full_width:
            return self._full_width[0]
        leaf = self._principal[-1]
        return self._refinement_leaf() if leaf.terminal else leaf

    def _back_up(
        self, leaf: BestFirstNode, children: Sequence[BestFirstNode], record: bool
    ) -> tuple[BestFirstNode, ...] | None:
        """Recompute values, principal children and bounds from ``leaf`` up (with ``record``: the nodes that changed,
        ``leaf`` first, then its ``children``).  A node's bounds are recomputed only while the child below it had its
        bounds changed."""
        changed: list[BestFirstNode] = []
        node: BestFirstNode | None = leaf
        players = self._players
        rebound = True
        while node is not None:
            best = best_child(node.children, players[node.depth & 1], _VALUE)
            assert best is not None  # a node backed up has children
            span = self._backed_bounds(node) if rebound else self.bounds_of(node)
            rebound = span != node.bounds
            if best is node.best and best.v == node.v and not rebound:
                break
            node.best = best
            node.v = best.v
            node.bounds = span
            changed.append(node)
            node = node.parent
        return (*changed, *children) if record else None

    def _backed_up(
        self, changed: tuple[BestFirstNode, ...], children: Sequence[BestFirstNode]
    ) -> tuple[BestFirstNode, ...]:
        """The nodes backed up, without the new children (last in the step's)."""
        return changed[: len(changed) - len(children)]

    def _backed_bounds(self, node: BestFirstNode) -> Bounds:
        """``node``'s bounds from its children's (every move has a child)."""
        first_to_move = self._players[node.depth & 1] > 0
        ply = self._root_ply + node.depth
        spans = [child.bounds for child in node.children]
        return backed_up(spans, self._open_tree or intrinsic(ply + 1, not first_to_move), first_to_move)

    def bounds_of(self, node: BestFirstNode) -> Bounds:
        """``node``'s bounds on the first player's score (a leaf's intrinsic ones if the game goes on there)."""
        if node.bounds is not None:
            return node.bounds
        return self._open_tree or intrinsic(self._root_ply + node.depth, self._players[node.depth & 1] > 0)

    def _refinement_leaf(self) -> BestFirstNode:
        """The leaf a refinement step expands: from the root, at each node the child of best value among those
        whose search can still change the node's bounds (there is one while the node's bounds are apart)."""
        node = self.root
        players = self._players
        while node.children:
            first_to_move = players[node.depth & 1] > 0
            span = self.bounds_of(node)
            open_children = [c for c in node.children if improvable(self.bounds_of(c), span, first_to_move)]
            best = best_child(open_children, players[node.depth & 1], _VALUE)
            assert best is not None, "a node whose bounds are apart has a child that can change them"
            node = best
        return node

    def refresh(self) -> None:
        """The principal variation and ``finished`` after a step, or after the tree went back or forth along the
        timeline: finished once the root's bounds meet."""
        self._principal = self._principal_from_root()
        lo, hi = self.bounds_of(self.root)
        self.finished = not self._full_width and lo == hi

    def decided(self) -> bool:
        """Whether the root's bounds prove a win or a loss (its length may still be open)."""
        lo, hi = self.bounds_of(self.root)
        return result_of(lo) == result_of(hi) != 0

    def _words(self, node: BestFirstNode) -> str:
        """``v 12``."""
        return f"v {node.v:g}"

    # --- the journal's hooks (``ExpandingSearch``) ---

    def leaf_value(self, leaf: BestFirstNode) -> float:
        return leaf.v

    def leaf_again(self, node: BestFirstNode, value: float) -> State | None:
        """``node`` a leaf of its static ``value`` again, without its position (but at the root)."""
        node.best = None
        node.v = value
        node.bounds = None
        return self._position_taken(node)

    def kept(self, node: BestFirstNode) -> Numbers:
        """Its value, the place of its principal child, its bounds."""
        assert node.bounds is not None and node.best is not None  # (an inner node's are its children's)
        return (node.v, node.children.index(node.best), *node.bounds)

    def give_back(self, node: BestFirstNode, numbers: Numbers) -> None:
        node.v, place, lo, hi = numbers
        node.best = node.children[int(place)]
        node.bounds = bounds(int(lo), int(hi))

    def rescore(self, node: BestFirstNode) -> None:
        """Back up ``node``'s value, principal child and bounds from its children."""
        best = best_child(node.children, self._players[node.depth & 1], _VALUE)
        assert best is not None  # a node rescored has children
        node.best = best
        node.v = best.v
        node.bounds = self._backed_bounds(node)

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

    def _surest_child(self, node: BestFirstNode) -> BestFirstNode | None:
        """The child whose bound is surest for the player to move at ``node`` (the greatest lower bound for the
        first player, the least upper bound for the second), the best value among equals, then the first."""
        if not node.children:
            return None
        player = self._players[node.depth & 1]
        spans = [self.bounds_of(child) for child in node.children]
        side = 0 if player > 0 else 1
        surest = max(player * span[side] for span in spans)
        tied = [child for child, span in zip(node.children, spans, strict=True) if player * span[side] == surest]
        return best_child(tied, player, _VALUE)

    def best_move(self) -> Move | None:
        """The principal child's move; once the result is proven (or the root's bounds meet), the surest child's."""
        best = self._surest_child(self.root) if self._settled() else self.root.best
        return None if best is None else best.move

    def _settled(self) -> bool:
        lo, hi = self.bounds_of(self.root)
        return lo == hi or self.decided()

    def value(self) -> PovScore[float]:
        """The root's backed-up minimax value, first player's point of view, on the evaluator's scale."""
        return self.scored(self.root.v)

    def preferred_child(self, node: Node) -> BestFirstNode | None:
        """The principal child; once the result is proven, the surest child."""
        assert isinstance(node, BestFirstNode)
        return self._surest_child(node) if self._settled() else node.best

    def principal_path(self) -> list[BestFirstNode]:
        """The principal variation; once the result is proven, the surest child at each node."""
        if not self._settled():
            return list(self._principal)
        path = [self.root]
        while (child := self._surest_child(path[-1])) is not None:
            path.append(child)
        return path

    def proven(self) -> Verdict | None:
        """A win or a loss once the root's bounds prove it, a draw once they meet at 0 (a draw at the end of the
        principal variation proves nothing)."""
        lo, hi = self.bounds_of(self.root)
        result = result_of(lo)
        return (result, result) if result == result_of(hi) else None

    def proof(self, node: Node) -> PovScore[int] | None:
        """A node's exact score once its bounds meet, for the first player."""
        assert isinstance(node, BestFirstNode)
        lo, hi = self.bounds_of(node)
        return PovScore(lo, FIRST) if lo == hi else None

"""Rivest's min/max approximation (Game tree searching by min/max approximation, AI 34, 1988).

Every edge gets a weight ``w(c) = -ln D(father(c), c)``, ``D`` the derivative of a
generalized mean at the father with respect to ``c``'s value, and the expandable tip
with the least penalty (the sum of the weights on its path) is expanded next.  Per node
the search keeps ``v`` (its value), ``pi`` (the least penalty of an expandable tip below
it, counted from it) and ``a`` (the child that leads to that tip):

* expandable tip: ``pi = 0``, ``a`` = none (the tip itself); terminal: ``pi = inf``;
* interior: ``a = argmin over children d of pi(d) + w(d)`` and ``pi = pi(a) + w(a)``.

One step: stop if ``pi(root) = inf`` (nothing left to expand); follow ``a`` from the root
to a tip; generate and evaluate all its children; recompute ``v``, the children's weights,
``a`` and ``pi`` from that tip up to the root (and nowhere else).

Modes (``p`` is the generalized mean's exponent: MAX nodes use ``M_p``, MIN nodes ``M_-p``):

* ``reverse`` (Rivest's experiments): true min/max values are backed up and the edge weight
  is ``weight + |ln v(c) - ln v(father)|`` (``v(father)`` is the value of the sibling best
  for the player to move there, so the best child's edge costs exactly ``weight``);
* ``reverse-derivative``: true min/max values, and the exact weight of the mean's
  derivative at those values: ``ln n + (p - 1)|ln v(c) - ln v(father)|`` at MAX nodes,
  ``ln n + (p + 1)|...|`` at MIN nodes (n children);
* ``mean``: values backed up as generalized means, ``w(c) = ln n - (q - 1)(ln v(c) - ln v(father))``
  with ``q = p`` at MAX nodes and ``-p`` at MIN nodes: ``-ln`` of the exact derivative
  ``(1/n)(v(c)/M)^(q-1)``.

Values are from the first player's point of view on a positive scale: the evaluator's own
when its range is positive (Rivest's 1..1023), otherwise shifted by ``1 - lo`` (the
threat evaluator's -1000..1000 becomes 1..2001); ``Searcher.value()`` shifts back.

Rivest's move accounting (``accounting=true``): a step pays one move for every edge it
walks down from the root to the tip, as well as one per child generated.
"""

from __future__ import annotations

import math
from operator import attrgetter

from engine.games.base import Move, State
from engine.games.evaluators import Evaluator
from engine.search.base import AlgorithmInfo, Node, Param, Searcher, SearchError, Step, Verdict
from engine.search.genmean import log_generalized_mean
from engine.search.minimax import EVAL_PARAMS, resolve_evaluator

INF = math.inf
_LOG_VALUE = attrgetter("lnv")
MODES = ("reverse", "mean", "reverse-derivative")
FINALS = ("value", "mean")


class RivestNode(Node):
    """A node of the min/max approximation's tree."""

    __slots__ = ("a", "lnv", "pi", "player", "state", "v", "w")

    state: State | None
    """The position, kept from the node's expansion on: a tip's position is made again from its father's when
    the tip is expanded (that ``play`` is not counted in ``Stats.moves``), so that tips, most of the tree, stay
    small.  ``Searcher.state_at`` gives any node's position."""
    player: int
    """The player to move here (+1 first player, MAX; -1 second, MIN)."""
    v: float
    """Backed-up value, first player's point of view, on the searcher's positive scale (static value at a tip)."""
    lnv: float
    """``ln v``."""
    pi: float
    """Least penalty of an expandable tip below this node, counted from this node (0 at an expandable tip,
    ``inf`` when no tip below can be expanded)."""
    w: float
    """Weight of the edge from the parent to this node (0 at the root)."""
    a: RivestNode | None
    """The child on the way to the tip that ``pi`` counts (``None`` at a tip)."""

    def __init__(self, parent: RivestNode | None, move: Move | None, player: int, v: float, terminal: bool) -> None:
        # Every slot is set here (not through Node.__init__): nodes are created in the inner loop.
        self.parent = parent
        self.move = move
        self.children = []
        self.depth = 0 if parent is None else parent.depth + 1
        self.state = None
        self.player = player
        self.v = v
        self.lnv = math.log(v)
        self.pi = INF if terminal else 0.0
        self.w = 0.0
        self.a = None

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"v": self.v, "pi": self.pi, "w": self.w}

    def penalty_from_root(self) -> float:
        """The sum of the edge weights from the root down to this node (Rivest's ``P``).

        Not among ``numbers()``: one changed value re-weights a father's edges, which moves
        this sum for every node below them, far more nodes than a step reports as changed.
        """
        total = 0.0
        node: RivestNode | None = self
        while node is not None:
            total += node.w
            node = node.parent  # type: ignore[assignment]
        return total


class Rivest(Searcher[RivestNode]):
    """Min/max approximation: expand the tip the root's value is most sensitive to."""

    name = "rivest"
    description = "Rivest's min/max approximation: expand the tip of least penalty"

    def __init__(
        self,
        state: State,
        *,
        seed: int = 0,
        p: float = 10.0,
        mode: str = "reverse",
        weight: float = 0.05,
        accounting: bool = False,
        final: str = "value",
        eval: str | Evaluator = "auto",
    ) -> None:
        super().__init__(state)
        if mode not in MODES:
            raise SearchError(f"mode '{mode}' is not one of {', '.join(MODES)}")
        if final not in FINALS:
            raise SearchError(f"final '{final}' is not one of {', '.join(FINALS)}")
        self.evaluator = resolve_evaluator(eval, state) if isinstance(eval, str) else eval
        self.shift = 0.0 if self.evaluator.lo > 0 else 1.0 - self.evaluator.lo
        """Added to every evaluation so that values are positive."""
        self.p = p
        self.mode = mode
        self.weight = weight
        self.accounting = accounting
        self.final = final
        self._rescore = self._rescore_mean if mode == "mean" else self._rescore_reverse
        """Backs up one node's value, edge weights, ``a`` and ``pi`` (True if its value changed)."""
        self.root = RivestNode(None, None, state.player, self.evaluator(state) + self.shift, state.is_terminal())
        self.root.state = state
        self.stats.nodes = 1
        self.finished = self.root.pi == INF

    def _advance(self, record: bool, moves_left: int | None) -> Step[RivestNode] | bool:
        if self.finished:
            return False
        tip = self.root
        while tip.a is not None:
            tip = tip.a
        state = tip.state
        if state is None:
            father: RivestNode = tip.parent  # type: ignore[assignment]
            state = father.state.play(tip.move)  # type: ignore[union-attr]
        moves = state.legal_moves()
        cost = len(moves) + tip.depth if self.accounting else len(moves)
        if moves_left is not None and cost > moves_left:
            return False
        tip.state = state
        evaluator = self.evaluator
        shift = self.shift
        children: list[RivestNode] = tip.children  # type: ignore[assignment]
        for move in moves:
            child_state = state.play(move)
            children.append(
                RivestNode(tip, move, child_state.player, evaluator(child_state) + shift, child_state.is_terminal())
            )
        stats = self.stats
        stats.moves += cost
        stats.nodes += len(moves)
        if tip.depth + 1 > stats.max_depth:
            stats.max_depth = tip.depth + 1
        rescore = self._rescore
        changed: list[RivestNode] = list(children) if record else []
        node: RivestNode | None = tip
        came_from: RivestNode | None = None
        while node is not None:
            value_changed = rescore(node, came_from)
            if record:
                changed.append(node)
                if value_changed and came_from is not None:
                    changed.extend(c for c in node.children if c is not came_from)  # type: ignore[misc]
            came_from = node
            node = node.parent  # type: ignore[assignment]
        self.finished = self.root.pi == INF
        if not record:
            return True
        path = tip.path()
        return Step(path=tuple(path), node=tip, added=tuple(children), changed=tuple(changed))  # type: ignore[arg-type]

    def _rescore_reverse(self, node: RivestNode, came_from: RivestNode | None) -> bool:
        """Back up the true min/max value of ``node``, re-weight its edges, choose ``a``; True if ``v`` changed.

        ``came_from`` is the child whose numbers changed (``None`` for a just-expanded tip):
        when ``v`` stays the same, only that child's edge weight can have changed.
        """
        children: list[RivestNode] = node.children  # type: ignore[assignment]
        best = max(children, key=_LOG_VALUE) if node.player > 0 else min(children, key=_LOG_VALUE)
        best_log = best.lnv
        value_changed = best_log != node.lnv
        if value_changed:
            node.lnv = best_log
            node.v = best.v
        if self.mode == "reverse":
            base = self.weight
            slope = 1.0
        else:
            base = math.log(len(children))
            slope = self.p - node.player
        if value_changed or came_from is None:
            for child in children:
                child.w = base + slope * abs(child.lnv - best_log)
        else:
            came_from.w = base + slope * abs(came_from.lnv - best_log)
        costs = [c.pi + c.w for c in children]
        least = min(costs)
        node.pi = least
        node.a = children[costs.index(least)]
        return value_changed

    def _rescore_mean(self, node: RivestNode, came_from: RivestNode | None) -> bool:
        """Back up the generalized mean of ``node``'s children, re-weight its edges, choose ``a``; True if v changed.

        ``came_from`` is not needed: every edge weight moves with the mean.
        """
        children: list[RivestNode] = node.children  # type: ignore[assignment]
        q = self.p * node.player
        log_mean = log_generalized_mean([c.lnv for c in children], q)
        value_changed = log_mean != node.lnv
        node.lnv = log_mean
        node.v = math.exp(log_mean)
        base = math.log(len(children))
        slope = q - 1.0
        for child in children:
            child.w = base - slope * (child.lnv - log_mean)
        costs = [c.pi + c.w for c in children]
        least = min(costs)
        node.pi = least
        node.a = children[costs.index(least)]
        return value_changed

    def _final_key(self, node: RivestNode) -> float:
        """How good ``node`` is for the root's player, by ``final``: its value, or the generalized mean below it."""
        if self.final == "value" or self.mode == "mean":
            return node.lnv
        return self._subtree_log_mean(node)

    def _subtree_log_mean(self, top: RivestNode) -> float:
        """``ln`` of the generalized-mean value of ``top``'s subtree (``M_p`` at MAX nodes, ``M_-p`` at MIN)."""
        order: list[RivestNode] = []
        stack = [top]
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(node.children)  # type: ignore[arg-type]
        means: dict[int, float] = {}
        for node in reversed(order):
            if node.children:
                logs = [means[id(c)] for c in node.children]
                means[id(node)] = log_generalized_mean(logs, self.p * node.player)
            else:
                means[id(node)] = node.lnv
        return means[id(top)]

    @staticmethod
    def _best_child(node: RivestNode) -> RivestNode | None:
        """The first child with the best value for the player to move at ``node``."""
        children: list[RivestNode] = node.children  # type: ignore[assignment]
        if not children:
            return None
        sign = node.player
        return max(children, key=lambda c: sign * c.lnv)

    def best_move(self) -> Move | None:
        best = self._best_root_child()
        return None if best is None else best.move

    def _best_root_child(self) -> RivestNode | None:
        """The root child best for the root's player by ``final``; among equals, the one whose position
        has the best static value for that player (then the leftmost).

        The tie-break is alpha-beta's under static ordering (its first child of the best value), and it
        matters: with wins worth 1023 and losses 1 at any depth, a won or lost root has many equal
        children, and the leftmost may be the one that loses at once (or wins only later).  Each tied
        child's position is made again from the root's to evaluate it (not counted in
        ``Stats.moves``: the child was paid for when it was generated).
        """
        children: list[RivestNode] = self.root.children  # type: ignore[assignment]
        if not children:
            return None
        sign = self.root.player
        keys = [sign * self._final_key(c) for c in children]
        best = max(keys)
        tied = [c for c, key in zip(children, keys, strict=True) if key == best]
        if len(tied) == 1:
            return tied[0]
        state = self.root_state
        evaluator = self.evaluator
        return max(tied, key=lambda c: sign * evaluator(state.play(c.move)))

    def value(self) -> float:
        """The root's backed-up value, first player's point of view, on the evaluator's own scale."""
        return self.root.v - self.shift

    def proven(self) -> Verdict | None:
        """Once every tip ends the game (finished), the result at the end of the line of best values."""
        if not self.finished:
            return None
        line = []
        node = self._best_child(self.root)
        while node is not None:
            line.append(node.move)
            node = self._best_child(node)
        return self.line_verdict(line)

    def principal_path(self) -> list[RivestNode]:
        """The best root child by ``final``, then the best child by value at each node."""
        path = [self.root]
        node = self._best_root_child()
        while node is not None:
            path.append(node)
            node = self._best_child(node)
        return path


ALGORITHMS = (
    AlgorithmInfo(
        name=Rivest.name,
        description=Rivest.description,
        factory=Rivest,  # type: ignore[arg-type]
        params=(
            Param("p", float, 10.0, "generalized-mean exponent: M_p at MAX nodes, M_-p at MIN (modes mean, "
                  "reverse-derivative, and final=mean)", lo=0.0, hi=1000.0),
            Param("mode", str, "reverse", "reverse: true min/max values, weight 0.05+|dln v| (Rivest's experiments); "
                  "reverse-derivative: exact derivative weights; mean: generalized-mean values", choices=MODES),
            Param("weight", float, 0.05, "constant part of the reverse mode's edge weight", lo=0.0, hi=100.0),
            Param("accounting", bool, False, "Rivest's move accounting: pay one move per edge walked from the root"),
            Param("final", str, "value", "final move by backed-up value, or by generalized mean", choices=FINALS),
            *EVAL_PARAMS,
        ),
    ),
)

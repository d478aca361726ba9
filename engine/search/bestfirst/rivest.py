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
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import ClassVar, Self

from plyscope.engine.games.base import Move, State
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import NO_CHILDREN, VALUE_MEANING, Node, SearchError, Verdict, best_child
from plyscope.engine.search.bestfirst.base import Numbers, PositionNode, PositionSearch
from plyscope.engine.search.bestfirst.genmean import log_generalized_mean
from plyscope.engine.search.minimax import resolve_evaluator

_V = attrgetter("v")
"""A node's value, first player's point of view: the key ``best_child`` compares."""

INF = math.inf
MODES = ("reverse", "mean", "reverse-derivative")
FINALS = ("value", "mean")


class RivestNode(PositionNode):
    """A node of the min/max approximation's tree.

    Only what cannot be recomputed cheaply is kept (so that a node costs under 200 bytes): the
    value ``v``, ``pi`` and ``a``; ``ln v`` and the edge weights are computed when needed from the
    values (``Rivest.weight_of``), and the player to move from the depth.
    """

    __slots__ = ("a", "pi", "v")

    v: float
    """Backed-up value, first player's point of view, on the searcher's positive scale (static value at a tip)."""
    pi: float
    """Least penalty of an expandable tip below this node, counted from this node (0 at an expandable tip,
    ``inf`` when no tip below can be expanded)."""
    a: Self | None
    """The child on the way to the tip that ``pi`` counts (``None`` at a tip)."""

    def __init__(self, parent: Self | None, move: Move | None, v: float, terminal: bool) -> None:
        # Every slot is set here (not through Node.__init__): nodes are created in the inner loop.
        self.parent = parent
        self.move = move
        self.children = NO_CHILDREN
        self.depth = 0 if parent is None else parent.depth + 1
        self.state = None
        self.v = v
        self.pi = INF if terminal else 0.0
        self.a = None

    @property
    def player(self) -> int:
        """The player to move here (+1 first player, MAX; -1 second, MIN): the root's, flipped every ply."""
        node = self
        while node.parent is not None:
            node = node.parent
        assert node.state is not None
        return node.state.player if self.depth % 2 == 0 else -node.state.player

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"v": self.v, "pi": self.pi}


class Rivest(PositionSearch[RivestNode]):
    """Min/max approximation: expand the tip the root's value is most sensitive to."""

    evaluator: Evaluator
    """The static evaluation at the leaves (first player's point of view)."""
    name = "rivest"
    description = "Rivest's min/max approximation: expand the tip of least penalty"
    meanings: ClassVar[Mapping[str, str]] = {
        **VALUE_MEANING,
        "pi": "least penalty of a tip below (Rivest)",
        "w": "the edge's weight (Rivest)",
    }

    def __init__(
        self,
        state: State,
        *,
        p: float = 10.0,
        mode: str = "reverse",
        weight: float = 0.05,
        accounting: bool = False,
        final: str = "value",
        evaluator: str | Evaluator = "auto",
    ) -> None:
        super().__init__(state)
        if mode not in MODES:
            raise SearchError(f"mode '{mode}' is not one of {', '.join(MODES)}")
        if final not in FINALS:
            raise SearchError(f"final '{final}' is not one of {', '.join(FINALS)}")
        self.evaluator = resolve_evaluator(evaluator, state) if isinstance(evaluator, str) else evaluator
        self.shift = 0.0 if self.evaluator.lo > 0 else 1.0 - self.evaluator.lo
        """Added to every evaluation so that values are positive."""
        self.p = p
        self.mode = mode
        self.weight = weight
        self.accounting = accounting
        self.edge_moves = accounting
        self.final = final
        self._slope_one = mode == "reverse"
        """The edge weights' slope is 1 (``reverse`` mode)."""
        self._rescore = self._rescore_mean if mode == "mean" else self._rescore_reverse
        """Backs up one node's value, edge weights, ``a`` and ``pi`` (True if its value changed): ``rescore``."""
        self.root = RivestNode(None, None, self.evaluator(state) + self.shift, state.is_terminal())
        self.root.state = state
        self._players = (state.player, -state.player)
        """The player to move at an even depth, and at an odd one."""
        self.stats.nodes = 1
        self.finished = self.root.pi == INF

    def _tip_node(self) -> RivestNode:
        """The tip of least penalty: from the root, the ``a`` child of each node."""
        tip = self.root
        while tip.a is not None:
            tip = tip.a
        return tip

    def _expand(self, tip: RivestNode, state: State, moves: Sequence[Move]) -> list[RivestNode]:
        """Generate and statically evaluate every child of ``tip``, which keeps its position from now on."""
        tip.state = state
        evaluator = self.evaluator
        shift = self.shift
        children = []
        for move in moves:
            child_state = state.play(move)
            children.append(RivestNode(tip, move, evaluator(child_state) + shift, child_state.is_terminal()))
        tip.children = children
        return children

    def _words(self, node: RivestNode) -> str:
        """A node's value (on the evaluator's scale) and penalty as a phase's sentence gives them."""
        return f"v {node.v - self.shift:g}, pi {node.pi:.3g}"

    def _child_words(self, child: RivestNode) -> str:
        """A new child's static value, and whether the game is over there."""
        return f"v {child.v - self.shift:g}" + (" (game over)" if child.pi == INF else "")

    def _tip_text(self, path: Sequence[RivestNode]) -> str:
        """Why the end of ``path`` is the tip expanded: its penalty, the sum of the edge weights down to it, against
        the least penalty of any other tip (the best way off ``path``)."""
        weights = [self.weight_of(node) for node in path[1:]]
        where = self.label(path[-1])
        if not weights:
            return "tip: the root, the only tip"
        total = sum(weights)
        rival = None
        walked = 0.0
        for node, weight in zip(path, [*weights, 0.0], strict=True):
            chosen = node.a
            for child in node.children:
                if child is chosen or child.pi == INF:
                    continue
                penalty = walked + self.weight_of(child) + child.pi
                if rival is None or penalty < rival[0]:
                    rival = (penalty, child)
            walked += weight
        edges = " + ".join(f"{w:.3g}" for w in weights[:8]) + (" + …" if len(weights) > 8 else "")
        text = (
            f"tip: {where}, the tip of least penalty (the sum of the edge weights down to it, "
            f"w = {self.weight:g} + |ln v(child) - ln v(best child)|"
            if self.mode == "reverse"
            else f"tip: {where}, the tip of least penalty (the sum of the edge weights down to it"
        )
        text += f"): {edges} = {total:.3g}"
        if rival is not None:
            text += f"; the next best tip is below {self.label(rival[1])}, penalty {rival[0]:.3g}"
        return text

    def _back_up(self, tip: RivestNode, children: Sequence[RivestNode], record: bool) -> tuple[RivestNode, ...] | None:
        """Rescore ``tip`` and every node above it, up to the root; with ``record``, the new ``children``, each node
        rescored, and a changed value's other children, whose edge weights it changes.  Plain loops: this is the
        search's inner loop."""
        rescore = self._rescore
        node: RivestNode | None = tip
        if not record:
            while node is not None:
                rescore(node)
                node = node.parent
            return None
        changed = list(children)
        came_from: RivestNode | None = None
        while node is not None:
            value_changed = rescore(node)
            changed.append(node)
            if value_changed and came_from is not None:
                changed.extend(c for c in node.children if c is not came_from)
            came_from = node
            node = node.parent
        return tuple(changed)

    def refresh(self) -> None:
        """``finished``: once no tip below the root can be expanded."""
        self.finished = self.root.pi == INF

    # --- the journal's hooks (``ExpandingSearch``) ---

    def leaf_value(self, leaf: RivestNode) -> float:
        return leaf.v

    def leaf_again(self, node: RivestNode, value: float) -> State | None:
        """``node`` a tip of its static (shifted) ``value`` again, without its position (but at the root)."""
        node.v = value
        node.pi = 0.0
        node.a = None
        return self._position_taken(node)

    def kept(self, node: RivestNode) -> Numbers:
        """``v``, ``pi`` and the place of ``a`` among the children."""
        assert node.a is not None  # (an inner node's)
        return (node.v, node.pi, node.children.index(node.a))

    def give_back(self, node: RivestNode, numbers: Numbers) -> None:
        node.v, node.pi, place = numbers
        node.a = node.children[int(place)]

    def rescore(self, node: RivestNode) -> bool:
        """Back up ``node``'s value, edge weights, ``a`` and ``pi`` from its children; True if its value changed."""
        return self._rescore(node)

    def _player(self, node: RivestNode) -> int:
        """The player to move at ``node`` (+1 first, MAX; -1 second, MIN)."""
        return self._players[node.depth & 1]

    def _rescore_reverse(self, node: RivestNode) -> bool:  # noqa: C901 -- the search's and the timeline's inner loop: no call per child
        """Back up the true min/max value of ``node``, weigh its edges, choose ``a``; True if ``v`` changed.

        The weights are ``base + slope |ln v(c) - ln v(best)|`` (``weight_of``), computed here rather than
        kept: a node is then a value, a penalty and a pointer.  In ``reverse`` mode the slope is 1 and left out
        (``1.0 * x`` is ``x`` exactly).  Plain loops: this is the search's and the timeline's inner loop.
        """
        children = node.children
        first = children[0]
        best_v = first.v
        if self._players[node.depth & 1] > 0:
            for child in children:
                if child.v > best_v:
                    best_v = child.v
            slope = self.p - 1.0
        else:
            for child in children:
                if child.v < best_v:
                    best_v = child.v
            slope = self.p + 1.0
        log = math.log
        best_log = log(best_v)
        least = INF
        chosen = first
        if self._slope_one:
            base = self.weight
            for child in children:
                cost = child.pi + (base + abs(log(child.v) - best_log))
                if cost < least:
                    least = cost
                    chosen = child
        else:
            base = log(len(children))
            for child in children:
                cost = child.pi + (base + slope * abs(log(child.v) - best_log))
                if cost < least:
                    least = cost
                    chosen = child
        value_changed = best_v != node.v
        node.v = best_v
        node.pi = least
        node.a = chosen
        return value_changed

    def _rescore_mean(self, node: RivestNode) -> bool:
        """Back up the generalized mean of ``node``'s children, weigh its edges, choose ``a``; True if v changed."""
        children = node.children
        q = self.p * self._players[node.depth & 1]
        log = math.log
        logs = [log(c.v) for c in children]
        log_mean = log_generalized_mean(logs, q)
        mean = math.exp(log_mean)
        base = log(len(children))
        slope = q - 1.0
        least = INF
        chosen = children[0]
        for child, log_v in zip(children, logs, strict=True):
            cost = child.pi + base - slope * (log_v - log_mean)
            if cost < least:
                least = cost
                chosen = child
        value_changed = mean != node.v
        node.v = mean
        node.pi = least
        node.a = chosen
        return value_changed

    def weight_of(self, node: RivestNode) -> float:
        """The weight of the edge into ``node`` (0 at the root), as the search computes it from the values."""
        father = node.parent
        if father is None:
            return 0.0
        player = self._player(father)
        children = father.children
        if self.mode == "mean":
            q = self.p * player
            return math.log(len(children)) - (q - 1.0) * (math.log(node.v) - math.log(father.v))
        best_v = max(c.v for c in children) if player > 0 else min(c.v for c in children)
        base, slope = (self.weight, 1.0) if self.mode == "reverse" else (math.log(len(children)), self.p - player)
        return base + slope * abs(math.log(node.v) - math.log(best_v))

    def numbers(self, node: Node) -> dict[str, float | int | str | None]:
        """``v`` and ``pi`` (the node's), and ``w``, the weight of the edge into it."""
        assert isinstance(node, RivestNode)
        return {**node.numbers(), "w": self.weight_of(node)}

    def _final_key(self, node: RivestNode) -> float:
        """How good ``node`` is for the root's player, by ``final``: its value, or the generalized mean below it."""
        if self.final == "value" or self.mode == "mean":
            return math.log(node.v)
        return self._subtree_log_mean(node)

    def _subtree_log_mean(self, top: RivestNode) -> float:
        """``ln`` of the generalized-mean value of ``top``'s subtree (``M_p`` at MAX nodes, ``M_-p`` at MIN)."""
        order: list[RivestNode] = []
        stack = [top]
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(node.children)
        means: dict[int, float] = {}
        for node in reversed(order):
            if node.children:
                logs = [means[id(c)] for c in node.children]
                means[id(node)] = log_generalized_mean(logs, self.p * self._player(node))
            else:
                means[id(node)] = math.log(node.v)
        return means[id(top)]

    def _best_child(self, node: RivestNode) -> RivestNode | None:
        """The first child with the best value for the player to move at ``node``."""
        return best_child(node.children, self._player(node), _V)

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
        children = self.root.children
        if not children:
            return None
        sign = self._players[0]
        keys = [sign * self._final_key(c) for c in children]
        best = max(keys)
        tied = [c for c, key in zip(children, keys, strict=True) if key == best]
        if len(tied) == 1:
            return tied[0]
        state = self.root_state
        evaluator = self.evaluator
        return max(tied, key=lambda c: sign * evaluator(state.play(c.move)))

    def value(self) -> PovScore[float]:
        """The root's backed-up value, first player's point of view, on the evaluator's own scale."""
        return self.scored(self.root.v - self.shift)

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

    def preferred_child(self, node: Node) -> RivestNode | None:
        """The best root child by ``final`` at the root, the best child by value below."""
        assert isinstance(node, RivestNode)
        return self._best_root_child() if node is self.root else self._best_child(node)

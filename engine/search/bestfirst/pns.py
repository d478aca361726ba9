"""Proof-number search (Allis, van der Meulen and van den Herik 1994): proves or disproves one claim.

The claim is about the player to move at the root (the **root player**): "the root player
wins" (``target=win``) or "the root player at least draws" (``target=draw-or-win``).  OR
nodes are the positions where the root player moves (even depths: the games alternate),
AND nodes those where the opponent moves.

Every node keeps a proof number ``pn`` and a disproof number ``dn`` for the claim: how
many leaves at least must still be proven (disproven) to prove (disprove) it at that node.
Leaves are unknown ``(1, 1)``, proven ``(0, inf)`` or disproven ``(inf, 0)``; an OR node
takes the least ``pn`` of its children and the sum of their ``dn``, an AND node the sum of
their ``pn`` and the least ``dn``.  One step descends from the root to the most-proving node
(least ``pn`` at OR nodes, least ``dn`` at AND nodes, the first such child on ties), expands
it (every child is generated; terminal children are proven or disproven at once) and
updates its ancestors, stopping at the first whose numbers do not change.

Settling the claim settles the result, not its length: a proof tree need not hold the
quickest win, nor a disproof the slowest loss.  So every node also keeps bounds on its
game-theoretic score for the root player (``bounds``, in ``plyscope.engine.search.outcomes``' units: a
win at ply p is ``1000 - p``, a loss ``p - 1000``, a draw 0): a finished game's exact score, an
unknown leaf's intrinsic bounds (the game cannot end before the next ply), an inner node those
its children give (the most of theirs at OR nodes, the least at AND nodes).  Once the claim is
settled, the search goes on until the root's bounds meet: a **refinement** step walks down from
the root, at each node among the children whose search can still change its bounds
(``improvable``) to the most hopeful for the player to move (the highest upper bound at an OR
node, the lowest lower bound at an AND node; the first on ties), and expands the leaf it reaches,
as a step of the search does.  The search is finished when the root's bounds meet: the move
played is then the one of the root's exact score (the quickest win, the slowest loss).

The tree keeps no positions: the descent replays the selected path's moves from the root
position.  Those replays are not charged; ``Stats.moves`` counts the children generated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import ClassVar

from plyscope.engine.games.base import Move, State
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import Node, SearchError, Verdict, listed
from plyscope.engine.search.bestfirst.base import ExpandingSearch, Numbers, back_up_text
from plyscope.engine.search.outcomes import (
    SCALE,
    Bounds,
    backed_up,
    bounds,
    exact,
    improvable,
    intrinsic,
    result_of,
    score,
    span_words,
    words,
)

INF = math.inf
"""The proof number of a disproven node, the disproof number of a proven one."""

TARGETS = ("win", "draw-or-win")
"""What a proof shows for the root player: a win, or at least a draw."""


class PnsNode(Node):
    """A node of the proof-number tree; both numbers are for the claim about the **root player**."""

    __slots__ = ("pn", "dn", "bounds")

    parent: PnsNode | None
    children: list[PnsNode]
    pn: float
    """Proof number: leaves still to prove for the claim to hold here (0 proven, inf disproven)."""
    dn: float
    """Disproof number: leaves still to disprove for the claim to fail here (0 disproven, inf proven)."""
    bounds: Bounds | None
    """Bounds on the game-theoretic score for the root player (``plyscope.engine.search.outcomes``): exact at a finished
    game, from the children at an inner node, ``None`` at an unknown leaf (its intrinsic bounds)."""

    def __init__(self, parent: PnsNode | None, move: Move | None) -> None:
        super().__init__(parent, move)
        self.pn = 1
        self.dn = 1
        self.bounds = None

    def is_or(self) -> bool:
        """True where the root player moves (pn is a minimum, dn a sum), false where the opponent moves."""
        return self.depth % 2 == 0

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"pn": self.pn, "dn": self.dn}


class ProofNumberSearch(ExpandingSearch[PnsNode]):
    """Proof-number search on a tree (no transposition table), one expansion per step."""

    name = "pns"
    description = "proof-number search (Allis): proves or disproves a win (or a draw) for the player to move"
    meanings: ClassVar[Mapping[str, str]] = {
        "pn": "proof number: leaves still to prove",
        "dn": "disproof number: leaves still to disprove",
        "result": "the result proven, for the root's mover (win@38: at ply 38)",
    }
    leaf_values = False
    phase_names = ("most-proving", "expansion", "back-up")

    def __init__(self, state: State, *, target: str = "win") -> None:
        super().__init__(state)
        if target not in TARGETS:
            raise SearchError(f"target '{target}' is not one of {', '.join(TARGETS)}")
        self.target = target
        self.root_player = state.player
        """The player whose claim is being proven: the player to move at the root (+1 first, -1 second)."""
        self._threshold = 1 if target == "win" else 0
        """The least terminal utility, from the root player's point of view, that proves the claim."""
        self._root_ply = state.ply
        self.root = PnsNode(None, None)
        self.stats.nodes = 1
        if state.is_terminal():
            self._settle(self.root, state)
            self.finished = True

    def _settle(self, node: PnsNode, state: State) -> None:
        """Give the leaf ``node`` (at the terminal ``state``) the numbers of a proven or disproven node, and its
        exact score."""
        result = state.utility() * self.root_player
        if result >= self._threshold:
            node.pn, node.dn = 0, INF
        else:
            node.pn, node.dn = INF, 0
        node.bounds = exact(score(result, state.ply))

    def _tip(self) -> tuple[PnsNode, State]:
        """The node a step expands and its position (the path's moves replayed from the root's, not counted): the
        most-proving node, or once the claim is settled, the most hopeful node of the refinement of the root's
        score."""
        node = self.root
        state = self.root_state
        refining = self.settled()
        while node.children:
            node = self._most_hopeful_child(node) if refining else self._most_proving_child(node)
            state = state.play(node.move)
        return node, state

    def _expand(self, node: PnsNode, state: State, moves: Sequence[Move]) -> list[PnsNode]:
        """Give ``node`` (at ``state``) a child for every move, a finished game's settled at once."""
        children = []
        for move in moves:
            child = PnsNode(node, move)
            child_state = state.play(move)
            if child_state.is_terminal():
                self._settle(child, child_state)
            children.append(child)
        node.children = children
        return children

    def _back_up(self, node: PnsNode, children: Sequence[PnsNode], record: bool) -> tuple[PnsNode, ...] | None:
        """``_update`` from the expanded ``node``: with ``record``, it and its ``children``, then every ancestor whose
        numbers shown changed."""
        changed = [node, *children] if record else None
        self._update(node, changed)
        return None if changed is None else tuple(changed)

    def _note(self) -> str:
        return self._root_note()

    def _root_note(self) -> str:
        """The root's numbers, or what it has proven, in a line."""
        root = self.root
        return f"root {self._claim_note() or f'pn {root.pn:g}, dn {root.dn:g}'}"

    def _claim_note(self) -> str:
        """What the root has proven, in words (``proven: win at ply 3``); ``""`` while the claim is open."""
        if not self.settled():
            return ""
        root = self.root
        lo, hi = self.bounds_of(root)
        note = "proven" if root.pn == 0 else "disproven"
        return note + (f": {words(lo)}" if lo == hi else f"; its score: {words(lo)} to {words(hi)}, refining")

    def _words(self, node: PnsNode) -> str:
        """A node's proof and disproof numbers: ``pn 1, dn 1``."""
        return f"pn {node.pn:g}, dn {node.dn:g}"

    def _back_up_text(self, path: Sequence[PnsNode], before: Sequence[str]) -> str:
        """The numbers changed, then the root's once (``_root_note``): after the rest if they stayed, else what it has
        proven, if anything, after its new numbers."""
        text = back_up_text(self, path, before, self._words)
        if self._words(self.root) == before[0]:
            text += f"; {self._root_note()}"
        elif claim := self._claim_note():  # (the root's new numbers end the sentence: it is not named again)
            text += f", {claim}"
        return text

    def _tip_text(self, path: Sequence[PnsNode]) -> str:
        """Why the end of ``path`` is the node expanded."""
        where = self.label(path[-1])
        if self.settled():
            return (
                f"most-proving: {where}, on the way of most hope: the claim is settled, and the search refines the "
                "root's score through the children that can still change it"
            )
        parts = []
        for parent, child in itertools.pairwise(path):
            kind = "pn" if parent.is_or() else "dn"
            parts.append(f"{self.label(child)} {kind} {child.pn if parent.is_or() else child.dn:g}")
        if not parts:
            return "most-proving: the root, the only leaf"
        return (
            f"most-proving: {where}: from the root, the child of least pn at each OR node (the prover "
            "to move) and of least dn at each AND node: " + listed(parts)
        )

    def settled(self) -> bool:
        """Whether the claim is proven or disproven at the root."""
        return self.root.pn == 0 or self.root.dn == 0

    def bounds_of(self, node: PnsNode) -> Bounds:
        """``node``'s bounds on the root player's score (an unknown leaf's intrinsic ones)."""
        if node.bounds is not None:
            return node.bounds
        return intrinsic(self._root_ply + node.depth, node.is_or())

    def _most_hopeful_child(self, node: PnsNode) -> PnsNode:
        """A refinement step's way down: of the children that can still change ``node``'s bounds, the one of
        highest upper bound at an OR node, of lowest lower bound at an AND node (the first on ties)."""
        span = self.bounds_of(node)
        is_or = node.is_or()
        hopeful: PnsNode | None = None
        best = -INF
        for child in node.children:
            child_span = self.bounds_of(child)
            if improvable(child_span, span, is_or):
                hope = child_span[1] if is_or else -child_span[0]
                if hope > best:
                    hopeful, best = child, hope
        assert hopeful is not None, "a node whose bounds are apart has a child that can change them"
        return hopeful

    @staticmethod
    def _most_proving_child(node: PnsNode) -> PnsNode:
        """The first child whose number equals ``node``'s: ``pn`` at an OR node, ``dn`` at an AND node."""
        children = node.children
        if node.is_or():
            pn = node.pn
            for child in children:
                if child.pn == pn:
                    return child
        else:
            dn = node.dn
            for child in children:
                if child.dn == dn:
                    return child
        raise AssertionError("a node's numbers disagree with its children's")

    @staticmethod
    def _numbers_from_children(node: PnsNode) -> tuple[float, float]:
        """``(pn, dn)`` of the interior ``node`` from its children's."""
        children = node.children
        least = INF
        total: float = 0
        if node.is_or():
            for child in children:
                if child.pn < least:
                    least = child.pn
                total += child.dn
            return least, (total if total < INF else INF)
        for child in children:
            if child.dn < least:
                least = child.dn
            total += child.pn
        return (total if total < INF else INF), least

    def _update(self, expanded: PnsNode, changed: list[PnsNode] | None) -> None:
        """Recompute ``expanded`` and its ancestors (numbers and bounds) from their children, up to the first that
        does not change.

        Every ancestor whose numbers shown changed (``pn``, ``dn``, the ``result`` its bounds settle) is appended to
        ``changed`` (when it is given).  A node's bounds are recomputed only while the child below it had its bounds
        changed.
        """
        numbers = self._numbers_from_children
        node: PnsNode | None = expanded
        rebound = True
        while node is not None:
            pn, dn = numbers(node)
            span = self._backed_bounds(node) if rebound else self.bounds_of(node)
            rebound = span != node.bounds
            if pn == node.pn and dn == node.dn and not rebound:
                return
            shown = pn != node.pn or dn != node.dn
            if changed is not None and not shown:
                shown = span_words(span) != span_words(self.bounds_of(node))
            node.pn = pn
            node.dn = dn
            node.bounds = span
            if changed is not None and shown and node is not expanded:
                changed.append(node)
            node = node.parent

    def _backed_bounds(self, node: PnsNode) -> Bounds:
        """``node``'s bounds from its children's (every move has a child)."""
        is_or = node.is_or()
        ply = self._root_ply + node.depth
        spans = [child.bounds for child in node.children]
        return backed_up(spans, intrinsic(ply + 1, not is_or), is_or)

    def refresh(self) -> None:
        """``finished``: once the root's bounds meet (which settles the claim)."""
        lo, hi = self.bounds_of(self.root)
        self.finished = lo == hi

    # --- the journal's hooks (``ExpandingSearch``) ---

    def leaf_again(self, node: PnsNode, value: float) -> None:
        """``node`` an unknown leaf again, ``(1, 1)``, with its intrinsic bounds (its nodes keep no position)."""
        node.pn = node.dn = 1
        node.bounds = None

    def reattach(self, node: PnsNode, state: State | None) -> None:
        """Nothing: its nodes keep no position."""

    def kept(self, node: PnsNode) -> Numbers:
        """Its proof and disproof numbers, and its bounds."""
        assert node.bounds is not None  # (an inner node's are its children's)
        return (node.pn, node.dn, *node.bounds)

    def give_back(self, node: PnsNode, numbers: Numbers) -> None:
        node.pn, node.dn, lo, hi = numbers
        node.bounds = bounds(int(lo), int(hi))

    def rescore(self, node: PnsNode) -> None:
        """``node``'s numbers and bounds from its children's."""
        node.pn, node.dn = self._numbers_from_children(node)
        node.bounds = self._backed_bounds(node)

    def _surest_child(self, node: PnsNode) -> PnsNode | None:
        """The child whose bounds are surest for the player to move at ``node``: the highest lower bound at an OR
        node (then the highest upper bound), the lowest upper bound at an AND node (then the lowest lower
        bound); the first on ties."""
        if not node.children:
            return None
        sign = 1 if node.is_or() else -1
        bounds_of = self.bounds_of
        return max(
            node.children,
            key=lambda child: (sign * bounds_of(child)[(1 - sign) // 2], sign * bounds_of(child)[(1 + sign) // 2]),
        )

    def best_move(self) -> Move | None:
        """The child of least ``pn`` while the claim is open; once settled, the surest move (the move of the
        root's exact score once the bounds meet)."""
        if not self.root.children:
            return None
        best = self._surest_child(self.root) if self.settled() else self._most_proving_child(self.root)
        assert best is not None
        return best.move

    def value(self) -> PovScore[float]:
        """For the player to move at the root (``root_player``): 0 while the claim is open; once settled, the bound
        the search gives on the root player's score (``plyscope.engine.search.outcomes``, over 1000: ``0.962`` a win
        at ply 38), the lower one for a proof, the upper one for a disproof: exact once the search is finished."""
        if not self.settled():
            return self.scored(0.0, self.root_player)
        lo, hi = self.bounds_of(self.root)
        return self.scored((lo if self.root.pn == 0 else hi) / SCALE, self.root_player)

    def proven(self) -> Verdict | None:
        """Once the claim is settled, the results the root's bounds allow, for the first player."""
        if not self.settled():
            return None
        lo, hi = self.bounds_of(self.root)
        lowest, highest = result_of(lo), result_of(hi)
        return (lowest, highest) if self.root_player == 1 else (-highest, -lowest)

    def proof(self, node: Node) -> PovScore[int] | None:
        """A node's exact score once its bounds meet, for the root player."""
        assert isinstance(node, PnsNode)
        lo, hi = self.bounds_of(node)
        return PovScore(lo, self.root_player) if lo == hi else None

    def preferred_child(self, node: Node) -> PnsNode | None:
        """The most-proving child while the claim is open; once settled, the surest child."""
        assert isinstance(node, PnsNode)
        if not node.children:
            return None
        return self._surest_child(node) if self.settled() else self._most_proving_child(node)

    def numbers(self, node: Node) -> dict[str, float | int | str | None]:
        """``pn`` and ``dn``, and ``result``: the root player's result there once the bounds settle it
        (``win@38``, ``loss@36..40``, ``draw``: ``outcomes.span_words``)."""
        assert isinstance(node, PnsNode)
        return {**node.numbers(), "result": span_words(self.bounds_of(node))}

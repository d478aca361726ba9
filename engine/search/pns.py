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
updates its ancestors, stopping at the first whose numbers do not change.  The search is
finished when the root is proven or disproven.

The tree keeps no positions: the descent replays the selected path's moves from the root
position.  Those replays are not charged; ``Stats.moves`` counts the children generated.

Going back (``undo``, ``rewind``): a node's numbers are a function of its children's, so an
expansion is taken back by making the node a leaf again, unknown ``(1, 1)`` as it was, and
recomputing its ancestors from their children, which gives back exactly the numbers they had.
The search keeps the nodes it expanded, in order (one reference a step, about 1% of the
tree's memory), so that ``rewind`` finds them without walking paths: it takes many steps back
at once, each expanded node made a leaf again, then recomputes every ancestor they share once,
deepest first.
"""

from __future__ import annotations

import math

from engine.games.base import Move, State
from engine.pov import PovScore
from engine.search.base import (
    TAKEN,
    AlgorithmInfo,
    ExpandingSearcher,
    Expansions,
    Node,
    Param,
    SearchError,
    Step,
    Taken,
    Verdict,
)

INF = math.inf
"""The proof number of a disproven node, the disproof number of a proven one."""

TARGETS = ("win", "draw-or-win")
"""What a proof shows for the root player: a win, or at least a draw."""


def _unknown_again(node: PnsNode, _: float) -> None:
    """``node`` an unknown leaf again, ``(1, 1)``."""
    node.pn = node.dn = 1


def _keeps_no_position(node: PnsNode, _: State | None) -> None:
    """Proof-number nodes keep no position: nothing to give back."""


def _kept(node: PnsNode) -> tuple[float, float]:
    """An inner node's numbers, for the journal."""
    return (node.pn, node.dn)


def _given_back(node: PnsNode, kept: tuple[float | int, ...]) -> None:
    """``node``'s numbers as ``_kept`` took them."""
    node.pn, node.dn = kept


class PnsNode(Node):
    """A node of the proof-number tree; both numbers are for the claim about the **root player**."""

    __slots__ = ("pn", "dn")

    parent: PnsNode | None
    children: list[PnsNode]
    pn: float
    """Proof number: leaves still to prove for the claim to hold here (0 proven, inf disproven)."""
    dn: float
    """Disproof number: leaves still to disprove for the claim to fail here (0 disproven, inf proven)."""

    def __init__(self, parent: PnsNode | None, move: Move | None) -> None:
        super().__init__(parent, move)
        self.pn = 1
        self.dn = 1

    def is_or(self) -> bool:
        """True where the root player moves (pn is a minimum, dn a sum), false where the opponent moves."""
        return self.depth % 2 == 0

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"pn": self.pn, "dn": self.dn}


class ProofNumberSearch(ExpandingSearcher[PnsNode]):
    """Proof-number search on a tree (no transposition table), one expansion per step."""

    undo_checks_path = False
    name = "pns"
    description = "proof-number search (Allis): proves or disproves a win (or a draw) for the player to move"

    def __init__(self, state: State, *, target: str = "win") -> None:
        super().__init__(state)
        if target not in TARGETS:
            raise SearchError(f"target '{target}' is not one of {', '.join(TARGETS)}")
        self.target = target
        self.root_player = state.player
        """The player whose claim is being proven: the player to move at the root (+1 first, -1 second)."""
        self._threshold = 1 if target == "win" else 0
        """The least terminal utility, from the root player's point of view, that proves the claim."""
        self._outcomes: dict[PnsNode, int] | None = None
        self._expansions = Expansions(
            _unknown_again, _keeps_no_position, _kept, _given_back, self._rescore, leaf_values=False
        )
        """Every step's expansion, for ``undo``, ``rewind`` and ``redo`` (an unknown leaf has no value to keep)."""
        self.root = PnsNode(None, None)
        self.stats.nodes = 1
        if state.is_terminal():
            self._settle(self.root, state)
            self.finished = True

    def _settle(self, node: PnsNode, state: State) -> None:
        """Give the leaf ``node`` (at the terminal ``state``) the numbers of a proven or disproven node."""
        if state.utility() * self.root_player >= self._threshold:
            node.pn, node.dn = 0, INF
        else:
            node.pn, node.dn = INF, 0

    def _advance(self, record: bool, moves_left: int | None) -> Step[PnsNode] | Taken | None:
        if self.finished:
            return None
        node = self.root
        state = self.root_state
        while node.children:
            node = self._most_proving_child(node)
            state = state.play(node.move)
        moves = state.legal_moves()
        if moves_left is not None and len(moves) > moves_left:
            return None
        children = []
        for move in moves:
            child = PnsNode(node, move)
            child_state = state.play(move)
            if child_state.is_terminal():
                self._settle(child, child_state)
            children.append(child)
        node.children = children
        self._expansions.record(node, 0.0)  # (the value is not kept)
        stats = self.stats
        stats.moves += len(moves)
        stats.nodes += len(moves)
        if node.depth + 1 > stats.max_depth:
            self._deeper(node.depth + 1)
        changed = [node, *children] if record else None
        self._update(node, changed)
        self.finished = self.root.pn == 0 or self.root.dn == 0
        if changed is None:
            return TAKEN
        if self.finished:
            note = "root proven" if self.root.pn == 0 else "root disproven"
        else:
            note = f"root pn {self.root.pn:g}, dn {self.root.dn:g}"
        return Step(path=tuple(node.path()), node=node, added=tuple(children), changed=tuple(changed), note=note)

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

    @classmethod
    def _update(cls, expanded: PnsNode, changed: list[PnsNode] | None) -> None:
        """Recompute ``expanded`` and its ancestors from their children, up to the first that does not change.

        Every ancestor whose numbers changed is appended to ``changed`` (when it is given).
        """
        numbers = cls._numbers_from_children
        node: PnsNode | None = expanded
        while node is not None:
            pn, dn = numbers(node)
            if pn == node.pn and dn == node.dn:
                return
            node.pn = pn
            node.dn = dn
            if changed is not None and node is not expanded:
                changed.append(node)
            node = node.parent

    def _moved(self) -> None:
        """``finished`` and the outcomes after the tree went back or forth along the timeline."""
        self.finished = self.root.pn == 0 or self.root.dn == 0
        self._outcomes = None

    def _rescore(self, node: PnsNode) -> None:
        node.pn, node.dn = self._numbers_from_children(node)

    def _outcome_table(self) -> dict[PnsNode, int]:
        """For each node of the finished proof (or disproof) tree, a bound on its value for the root player.

        The proof tree holds, below each proven node, its proven children (all of them at AND
        nodes); the disproof tree likewise.  Terminal utilities (from the root player's point of
        view: +1 win, 0 draw, -1 loss) are backed up by max at OR nodes and min at AND nodes over
        those children: a lower bound on the true value for a proof, an upper bound for a
        disproof.  With ``target=win`` a proof bounds at +1 (a win) and a disproof at 0 or -1;
        with ``draw-or-win`` a disproof bounds at -1 (a loss) and a proof at 0 or +1.
        """
        if self._outcomes is None:
            outcomes: dict[PnsNode, int] = {}
            order: list[PnsNode] = []
            stack: list[tuple[PnsNode, State]] = [(self.root, self.root_state)]
            while stack:
                node, state = stack.pop()
                order.append(node)
                if not node.children:
                    outcomes[node] = state.utility() * self.root_player
                    continue
                for child in self._solution_children(node):
                    stack.append((child, state.play(child.move)))
            for node in reversed(order):
                if node.children:
                    values = [outcomes[child] for child in self._solution_children(node)]
                    outcomes[node] = max(values) if node.is_or() else min(values)
            self._outcomes = outcomes
        return self._outcomes

    @staticmethod
    def _solution_children(node: PnsNode) -> list[PnsNode]:
        """The children of the settled ``node`` that are settled the same way (proven, or disproven)."""
        if node.pn == 0:
            return [child for child in node.children if child.pn == 0]
        return [child for child in node.children if child.dn == 0]

    def _outcome_child(self, node: PnsNode) -> PnsNode:
        """In a finished search, the child of the settled ``node`` whose bound is ``node``'s (the first on ties)."""
        outcomes = self._outcome_table()
        target = outcomes[node]
        return next(child for child in self._solution_children(node) if outcomes[child] == target)

    def best_move(self) -> Move | None:
        """A proving move once proven, the best-bounded move once disproven, else the child of least ``pn``."""
        if not self.root.children:
            return None
        if self.finished:
            return self._outcome_child(self.root).move
        return self._most_proving_child(self.root).move

    def value(self) -> PovScore[float]:
        """For the player to move at the root (``root_player``): 0 while unsettled; once settled, the bound the
        proof gives.

        That is +1 or -1 when the proof decides the game (a proven win, a disproof made only of
        losses), and 0 when it only shows "at most a draw" (``win`` disproven) or "at least a
        draw" (``draw-or-win`` proven) -- or the game is a draw.
        """
        return self.scored(float(self._outcome_table()[self.root]) if self.finished else 0.0, self.root_player)

    def proven(self) -> Verdict | None:
        """The settled claim about the player to move at the root (``root_player``), for the first player."""
        if not self.finished:
            return None
        mover = self.root_player
        held = self.root.pn == 0
        if self.target == "win":
            lowest, highest = (1, 1) if held else (-1, 0)
        else:
            lowest, highest = (0, 1) if held else (-1, -1)
        return (lowest, highest) if mover == 1 else (-highest, -lowest)

    def principal_path(self) -> list[PnsNode]:
        """Most-proving choices from the root; once finished, the best-bounded line of the proof tree."""
        path = [self.root]
        node = self.root
        while node.children:
            node = self._outcome_child(node) if self.finished else self._most_proving_child(node)
            path.append(node)
        return path


ALGORITHMS = (
    AlgorithmInfo(
        name=ProofNumberSearch.name,
        description=ProofNumberSearch.description,
        factory=ProofNumberSearch,
        node_bytes=104,
        ui_node_bytes=144,
        params=(
            Param(
                "target",
                str,
                "win",
                "what to prove for the player to move: win, or draw-or-win (at least a draw)",
                choices=TARGETS,
            ),
        ),
    ),
)

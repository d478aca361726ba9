"""Expectiminimax to a fixed depth, with Ballard's Star1 pruning as an option; one node visit per step.

Points of view: every value, window and bound here is from the **first player's** point of
view (the first player is MAX, the second MIN).  A chance node's value is the expectation of
its children's values: the sum over outcomes of P(outcome) x value.

Depth counts **turns** (choices by a player), as ``minimax``'s does on a game without chance:
a chance node and its outcomes belong to the turn that led to it, so ``depth=2`` searches a
choice, its chance node, the outcomes, a reply, its chance node and the outcomes, and
evaluates the positions there.  On a game without chance nodes the search is plain minimax
(``pruning=none``) or fail-soft alpha-beta (``pruning=star1``).  Children are tried in legal-move
order at MAX and MIN nodes, and most probable first at chance nodes (stable: equally probable
outcomes in ``outcomes()`` order).

``pruning=star1`` is Ballard's Star1 (1983), as Hauk, Buro and Schaeffer state it (2004):
MAX and MIN nodes are fail-soft alpha-beta; every value lies in [L, U], the evaluator's range;
at a chance node with window (alpha, beta), after children 1..i-1 with values v_j and
probabilities P_j, and with ``R_i`` the probability of the children after child ``i``, child ``i`` is
searched with the window (max(A_i, L), min(B_i, U)) where

    A_i = (alpha - sum_{j<i} P_j v_j - U R_i) / P_i,   B_i = (beta - sum_{j<i} P_j v_j - L R_i) / P_i,

and the chance node is cut off as soon as ``v_i <= A_i`` (its value is then at most
``sum_{j<=i} P_j v_j + U R_i <= alpha``, which it returns as an upper bound) or ``v_i >= B_i``
(at least ``sum_{j<=i} P_j v_j + L R_i >= beta``, a lower bound).  The root is searched with the
window (L, U), so its value is the exact expectiminimax value.

Steps and their cost: a step plays one move (a choice at a MAX or MIN node, or an outcome at a
chance node): one call to ``State.play``, one new node.  It evaluates the new node if it is a
leaf (the game is over, or ``depth`` turns have been played), and backs values up through
every node that the visit completes.  ``run()`` takes the same steps without recording them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import ClassVar, cast

from plyscope.engine.games.base import CHANCE, Move, State, is_chance
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import TAKEN, VALUE_MEANING, Node, Searcher, SearchError, Step, Taken
from plyscope.engine.search.entry import AlgorithmInfo, Param
from plyscope.engine.search.minimax import EVAL_PARAMS, resolve_evaluator

PRUNINGS = ("none", "star1")

EXACT = "="
LOWER = ">="
"""The value is a lower bound: the true value is at least ``value``."""
UPPER = "<="
"""The value is an upper bound: the true value is at most ``value``."""


class ExpectiNode(Node):
    """A node of the expectiminimax tree: a MAX, MIN or chance node; every number from the first player's view."""

    __slots__ = ("alpha", "beta", "bound", "player", "probability", "pruned", "value")

    value: float | None
    """Complete: the node's value (exact, or the bound ``bound`` says).  Open: at a MAX or MIN node the best
    child value so far, at a chance node ``None``."""
    player: int
    """+1 first player to move (MAX), -1 second (MIN), ``CHANCE`` (0) at a chance node."""
    probability: float | None
    """The probability of the move into this node when its parent is a chance node, else ``None``."""
    bound: str | None
    """``None`` while open; then ``=`` exact, ``>=`` a lower bound, ``<=`` an upper bound (cut-offs under Star1)."""
    alpha: float | None
    """Star1: the lower end of the window the node was searched with (``None`` without pruning)."""
    beta: float | None
    """Star1: the upper end of that window."""
    pruned: int
    """Children never visited because of a cut-off here (0 if none)."""

    def __init__(
        self,
        parent: ExpectiNode | None,
        move: Move | None,
        player: int,
        probability: float | None,
        alpha: float | None,
        beta: float | None,
    ) -> None:
        super().__init__(parent, move)
        self.value = None
        self.player = player
        self.probability = probability
        self.bound = None
        self.alpha = alpha
        self.beta = beta
        self.pruned = 0

    @property
    def cut_off(self) -> bool:
        """Whether a cut-off here pruned some children."""
        return self.pruned > 0

    def numbers(self) -> dict[str, float | int | str | None]:
        """``v`` and ``p`` (the edge's probability below a chance node, else ``None``); under Star1 also the
        ``bound``, the window (``alpha``, ``beta``) the node was searched with and the children ``pruned``."""
        if self.alpha is None:
            return {"v": self.value, "p": self.probability}
        return {
            "v": self.value,
            "p": self.probability,
            "bound": self.bound,
            "alpha": self.alpha,
            "beta": self.beta,
            "pruned": self.pruned,
        }


class _Frame:
    """An open node on the depth-first stack: its position, its children in search order and its sums."""

    __slots__ = (
        "alpha",
        "beta",
        "high",
        "low",
        "moves",
        "next",
        "node",
        "probabilities",
        "state",
        "tails",
        "total",
        "turns",
    )

    def __init__(self, node: ExpectiNode, state: State, turns: int, alpha: float, beta: float) -> None:
        self.node = node
        self.state = state
        self.turns = turns
        """Turns still to play below this node before the leaves (a chance node's turn is already counted)."""
        self.alpha = alpha
        """The window: at MAX and MIN nodes raised and lowered as children return; fixed at chance nodes."""
        self.beta = beta
        self.next = 0
        """Index in ``moves`` of the next child to visit."""
        self.total = 0.0
        """Chance node: the sum of P_j v_j over the children completed."""
        self.low = -math.inf
        """Chance node, Star1: A_i of the child being searched (its value at or below this cuts off)."""
        self.high = math.inf
        """Chance node, Star1: B_i of the child being searched (at or above this cuts off)."""
        if is_chance(state):
            outcomes = sorted(state.outcomes(), key=lambda outcome: -outcome[1])
            self.moves: Sequence[Move] = [move for move, _ in outcomes]
            self.probabilities: list[float] = [p for _, p in outcomes]
            tails = [0.0] * len(outcomes)
            for index in range(len(outcomes) - 2, -1, -1):
                tails[index] = tails[index + 1] + outcomes[index + 1][1]
            self.tails = tails
            """``tails[i]``: the probability of the children after child ``i`` (R_i)."""
        else:
            self.moves = state.legal_moves()
            self.probabilities = []
            self.tails = []


class Expectiminimax(Searcher[ExpectiNode]):
    """Depth-limited expectiminimax, stepped one node visit at a time; Star1 pruning as an option."""

    evaluator: Evaluator
    """The static evaluation at the leaves (first player's point of view)."""
    name = "expectiminimax"
    description = "expectiminimax to a fixed depth in turns (chance nodes: expectations); Star1 pruning as an option"
    meanings: ClassVar[Mapping[str, str]] = {**VALUE_MEANING, "p": "the probability of the chance outcome leading here"}

    def __init__(
        self, state: State, *, depth: int = 2, pruning: str = "none", evaluator: str | Evaluator = "auto"
    ) -> None:
        """``evaluator`` (the ``eval`` parameter) names an evaluator or is one (injected)."""
        super().__init__(state)
        if pruning not in PRUNINGS:
            raise SearchError(f"pruning '{pruning}' is not one of {', '.join(PRUNINGS)}")
        if is_chance(state):
            raise SearchError("the root must be a position where a player chooses, not a chance node")
        self.depth = depth
        self.pruning = pruning
        self.evaluator = resolve_evaluator(evaluator, state)
        self.lo = self.evaluator.lo
        """L: the least value any position can have (Star1's bound)."""
        self.hi = self.evaluator.hi
        """U: the most."""
        star1 = pruning == "star1"
        self._star1 = star1
        self.root = ExpectiNode(None, None, state.player, None, self.lo if star1 else None, self.hi if star1 else None)
        self.stats.nodes = 1
        self._stack: list[_Frame] = []
        if state.is_terminal() or depth == 0:
            self.root.value = self.evaluator(state)
            self.root.bound = EXACT
            self.finished = True
        else:
            self._stack.append(_Frame(self.root, state, depth, self.lo, self.hi))

    # --- one unit of work ----------------------------------------------------------------

    def _advance(self, record: bool, moves_left: int | None) -> Step[ExpectiNode] | Taken | None:
        if self.finished or (moves_left is not None and moves_left < 1):
            return None
        frame = self._stack[-1]
        parent = frame.node
        index = frame.next
        frame.next = index + 1
        move = frame.moves[index]
        state = frame.state.play(move)
        stats = self.stats
        stats.moves += 1
        star1 = self._star1
        if parent.player == CHANCE:
            p = frame.probabilities[index]
            probability: float | None = p
            turns = frame.turns
            alpha, beta = -math.inf, math.inf
            if star1:
                tail = frame.tails[index]
                frame.low = (frame.alpha - frame.total - self.hi * tail) / p  # A_i
                frame.high = (frame.beta - frame.total - self.lo * tail) / p  # B_i
                alpha, beta = max(frame.low, self.lo), min(frame.high, self.hi)
        else:
            probability = None
            turns = frame.turns - 1
            alpha, beta = frame.alpha, frame.beta
        child = ExpectiNode(parent, move, state.player, probability, alpha if star1 else None, beta if star1 else None)
        parent.add_child(child)
        stats.nodes += 1
        if child.depth > stats.max_depth:
            stats.max_depth = child.depth
        trace: _Trace | None = _Trace() if record else None
        if state.is_terminal() or (turns == 0 and child.player != CHANCE):
            child.value = self.evaluator(state)
            child.bound = EXACT
            self._back_up(child, trace)
        else:
            self._stack.append(_Frame(child, state, turns, alpha, beta))
        if trace is None:
            return TAKEN
        return Step(
            path=tuple(child.path()),
            node=child,
            added=(child,),
            changed=(child, *trace.changed),
            cutoffs=tuple(trace.cutoffs),
            note=self._note(child, trace),
        )

    def _back_up(self, node: ExpectiNode, trace: _Trace | None) -> None:
        """Fold the complete ``node`` into its parent, and close every node this completes, up to the root."""
        stack = self._stack
        while True:
            frame = stack[-1]
            parent = frame.node
            value = node.value
            assert value is not None
            cut = self._fold_chance(frame, value) if parent.player == CHANCE else self._fold_decision(frame, value)
            if trace is not None:
                trace.changed.append(parent)
            if cut:
                parent.pruned = len(frame.moves) - frame.next
                if trace is not None and parent.pruned:
                    trace.cutoffs.append(parent)
            elif frame.next < len(frame.moves):
                return
            stack.pop()
            if not stack:
                self.finished = True
                return
            node = parent

    def _fold_chance(self, frame: _Frame, value: float) -> bool:
        """Fold the newest child's ``value`` into the chance node of ``frame``: its probability-weighted sum, a bound
        once a Star1 cut-off stops it (True), its exact value once the last child is in."""
        parent = frame.node
        p = frame.probabilities[frame.next - 1]
        if self._star1 and value <= frame.low:
            parent.value = frame.total + p * value + self.hi * frame.tails[frame.next - 1]
            parent.bound = UPPER
            return True
        if self._star1 and value >= frame.high:
            parent.value = frame.total + p * value + self.lo * frame.tails[frame.next - 1]
            parent.bound = LOWER
            return True
        frame.total += p * value
        if frame.next == len(frame.moves):
            parent.value = frame.total
            parent.bound = EXACT
        return False

    def _fold_decision(self, frame: _Frame, value: float) -> bool:
        """Fold the newest child's ``value`` into the MAX or MIN node of ``frame``: its value and window, its bound
        once complete; True on a cut-off (Star1's alpha-beta)."""
        parent = frame.node
        if parent.value is None or (value - parent.value) * parent.player > 0:
            parent.value = value
        if parent.player > 0:
            frame.alpha = max(frame.alpha, value)
        else:
            frame.beta = min(frame.beta, value)
        cut = self._star1 and frame.alpha >= frame.beta
        if cut or frame.next == len(frame.moves):
            parent.bound = self._decision_bound(parent, parent.value)
        return cut

    def _decision_bound(self, node: ExpectiNode, value: float) -> str:
        """The bound of a complete MAX or MIN node's fail-soft ``value`` against the window it was searched with."""
        if node.alpha is None or node.beta is None:
            return EXACT
        if value <= node.alpha and node.alpha > self.lo:
            return UPPER
        if value >= node.beta and node.beta < self.hi:
            return LOWER
        return EXACT

    def _note(self, child: ExpectiNode, trace: _Trace) -> str:
        """``4 →3 (p 0.2) = 12; cut-off at 4 →3 5: ...`` for a recorded step."""
        where = self._label(child)
        note = f"{where}: " + (
            "chance node" if child.player == CHANCE else "open" if child.value is None else f"leaf {child.value:g}"
        )
        for cut in trace.cutoffs:
            assert cut.value is not None
            kind = "chance cut-off (Star1)" if cut.player == CHANCE else "cut-off"
            note += f"; {kind} at {self._label(cut)}: {cut.bound} {cut.value:g}, {cut.pruned} pruned"
        if self.finished:
            note += f"; search complete: value {self.value().first():g}"
        return note

    def _label(self, node: ExpectiNode) -> str:
        """``node``'s moves from the root as labels, a landing written ``→3``; replays moves (record mode only)."""
        labels = []
        state = self.root_state
        for move in node.moves():
            label = state.move_label(move)
            labels.append(f"→{label}" if is_chance(state) else label)
            state = state.play(move)
        return " ".join(labels) or "root"

    # --- what the search says ------------------------------------------------------------

    def _best_child(self, node: ExpectiNode) -> ExpectiNode | None:
        """At a MAX or MIN node, its first complete child with the best value for the player to move there;
        at a chance node its first child (the most probable outcome) once complete."""
        complete = [c for c in cast(list[ExpectiNode], node.children) if c.bound is not None]
        if not complete:
            return None
        if node.player == CHANCE:
            return complete[0] if complete[0] is node.children[0] else None
        best = complete[0]
        for child in complete[1:]:
            value, best_value = child.value, best.value
            assert value is not None and best_value is not None  # (complete)
            if (value - best_value) * node.player > 0:
                best = child
        return best

    def best_move(self) -> Move | None:
        """The root's best complete child's move (``None`` before the first child completes)."""
        best = self._best_child(self.root)
        return None if best is None else best.move

    def value(self) -> PovScore[float]:
        """The root's value, first player's view: exact once the search is complete; before, the best so far."""
        return self.scored(self.root.value if self.root.value is not None else self.evaluator(self.root_state))

    def preferred_child(self, node: Node) -> ExpectiNode | None:
        """The best complete child at a MAX or MIN node, the most probable outcome at a chance node."""
        assert isinstance(node, ExpectiNode)
        return self._best_child(node)


class _Trace:
    """What one recorded visit changed: the nodes whose numbers changed, and those cut off."""

    __slots__ = ("changed", "cutoffs")

    def __init__(self) -> None:
        self.changed: list[ExpectiNode] = []
        self.cutoffs: list[ExpectiNode] = []


ALGORITHMS = (
    AlgorithmInfo(
        name=Expectiminimax.name,
        description=Expectiminimax.description,
        factory=Expectiminimax,
        params=(
            Param(
                "depth",
                int,
                2,
                "search depth in turns (a chance node and its outcomes belong to the turn)",
                lo=0,
                hi=12,
            ),
            Param(
                "pruning",
                str,
                "none",
                "none: plain expectiminimax; star1: alpha-beta at MAX/MIN nodes and "
                "Ballard's Star1 at chance nodes (same value, fewer nodes)",
                choices=PRUNINGS,
            ),
            *EVAL_PARAMS,
        ),
        chance=True,
        ui_node_bytes=240,
    ),
)

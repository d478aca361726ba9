"""Alpha-beta with iterative deepening, stepped one node visit at a time.

Points of view: every value, ``alpha`` and ``beta`` here is from the **first player's**
point of view, the first player being MAX.  There is no negamax: a MAX node raises
``alpha`` (the least MAX is already sure of), a MIN node lowers ``beta`` (the most MIN
will allow), and a node's children are searched in the window ``(alpha, beta)`` of the
moment.  The search is **fail-soft**: a node's value is the best of its children's values
even when it falls outside the window, and then it is only a bound (``AlphaBetaNode.bound``).

Iterations: depth ``start_depth``, then one ply deeper each time, until ``depth`` (0: no
cap) or until an iteration reaches no horizon (every leaf it evaluated was a terminal
position: deeper iterations cannot change anything, the root is solved).  Each iteration
builds a new tree; ``root`` is the current iteration's tree, and the root of the last
complete iteration is kept for ``best_move``, ``value`` and the principal variation.

Steps and their cost in moves (calls to ``State.play``):

* the first step of an iteration opens its root (no move; with a static ordering it
  generates and evaluates the root's children to order them: one move each);
* every other step visits one node: it plays the move to it (one move), then evaluates
  it if it is a leaf (terminal, or at the iteration's depth), or takes its value from the
  transposition table, or opens it.  It then backs values up through every node the
  visit completes.  With a static ordering, an opened node that is sorted has all its
  children generated and evaluated at once (one move each), and visiting those children
  later costs no further move (nor evaluation) unless ``accounting`` is set.

Rivest's move accounting (``accounting=true``, as his min/max approximation's): every
child visited costs one move, the edge walked down to it, even when its position was
generated already to sort its parent's children.  A 1988 program that keeps one board
and makes and unmakes moves plays each child once to evaluate it for the ordering and
once more to search it; keeping the generated positions (the default) saves that second
move, a saving his min/max approximation, charged for every edge it walks, does not get.

Move ordering (``ordering``): ``none`` tries children in legal-move order; ``static-all``
sorts the children of every inner node by their static value, best first for the player
to move (Rivest's configuration: the parents of leaves too, so every child of a visited
node is generated and evaluated, even those a cut-off then skips); ``static`` is the
cheaper variant that sorts only nodes two or more plies above the horizon (the parents of
leaves try their children in legal-move order and pay only for the leaves they visit);
``history`` sorts them by the history heuristic (a score per player and move, raised by the
square of the remaining depth wherever that move was best) and, at the root, tries the
previous iteration's best move first.  With the transposition table (``tt``), the table's
best move for a position goes first whatever the ordering.

The transposition table (keyed by ``State.key()``, with the ply where the position does not fix
it: ``table_key``; kept for the searcher's life, never between turns) answers a node only from an
entry searched to exactly the node's remaining depth, so that the root value stays exactly the
fixed-depth minimax value; entries of
earlier iterations, one ply shallower, still give the best move to try first.

``run()`` takes the same steps through the same code with ``record=False``, so it builds
the same trees as stepping; it only skips building the ``AlphaBetaStep`` records.

Going back along the timeline: checkpoints of the frame stack and a short replay
(``plyscope.engine.search.alphabeta.checkpoints``), told what the search does through ``journal``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import ClassVar, Protocol, Self

from plyscope.engine.games.base import Move, State
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.kits import kit_of
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import (
    NO_CHILDREN,
    TAKEN,
    VALUE_MEANING,
    Node,
    Phase,
    PhasedStep,
    Searcher,
    SearchError,
    Step,
    Taken,
    Verdict,
    best_child,
)
from plyscope.engine.search.minimax import resolve_evaluator

_VALUE = attrgetter("value")
"""A node's value, first player's point of view: the key ``best_child`` compares."""

INF = math.inf

EXACT = "="
LOWER = ">="
"""The value is a lower bound: the true value is at least ``value``."""
UPPER = "<="
"""The value is an upper bound: the true value is at most ``value``."""

ORDERINGS = ("none", "static", "static-all", "history")
STATIC_ORDERINGS = {"static": 2, "static-all": 1}
"""For each static ordering, the least number of plies from a node to the horizon for its children to be sorted."""

NO_EVALS: tuple[float, ...] = ()
"""The static values of a frame whose children are not sorted by them (shared)."""

TableEntry = tuple[int, float, str, Move | None, bool]
"""``(remaining depth, value, bound, best move, horizon reached)``; value from the first player's view."""


class AlphaBetaNode(Node):
    """A node of one iteration's alpha-beta tree; every number is from the first player's point of view."""

    __slots__ = ("alpha", "beta", "bound", "iteration", "player", "pruned", "value")

    value: float | None
    """Open: the best child value so far (``None`` before the first child returns).  Complete:
    the fail-soft value, exact or a bound as ``bound`` says."""
    alpha: float
    """The window's lower end: the value MAX is sure of.  On entry when the node is created, raised
    (at MAX nodes) as children return, and the window on exit once the node is complete."""
    beta: float
    """The window's upper end: the value MIN is sure of; lowered at MIN nodes as children return."""
    bound: str | None
    """``None`` while open; then ``=`` exact, ``>=`` a lower bound (MAX cut-off, or a MIN node that
    failed high), ``<=`` an upper bound (MIN cut-off, or a MAX node that failed low)."""
    iteration: int
    """The depth limit of the iteration that built this node."""
    player: int
    """The player to move here: +1 first (MAX), -1 second (MIN)."""
    pruned: int
    """Children never visited because of a cut-off at this node (0 if none)."""

    def __init__(
        self, parent: Self | None, move: Move | None, player: int, iteration: int, alpha: float, beta: float
    ) -> None:
        # The four ``Node`` fields are set here rather than through ``super().__init__``:
        # this runs once per visit on the fast path.
        self.parent = parent
        self.move = move
        self.children = NO_CHILDREN
        self.depth = 0 if parent is None else parent.depth + 1
        self.value = None
        self.alpha = alpha
        self.beta = beta
        self.bound = None
        self.iteration = iteration
        self.player = player
        self.pruned = 0

    @property
    def cut_off(self) -> bool:
        """Whether a cut-off here pruned some children."""
        return self.pruned > 0

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"v": self.value, "bound": self.bound, "alpha": self.alpha, "beta": self.beta, "pruned": self.pruned}


@dataclass(frozen=True, slots=True)
class AlphaBetaStep(Step[AlphaBetaNode]):
    """One visit: ``node``'s window on entry, and every node the visit completed with its window on exit.

    ``cutoffs`` (from ``Step``) are the completed nodes whose remaining children were pruned;
    all values are from the first player's point of view.  The first step of an iteration has
    the iteration's new root as ``node`` (and ``path == (root,)``): the tree was replaced.
    """

    alpha_in: float = -INF
    """``node``'s window on entry, lower end."""
    beta_in: float = INF
    """``node``'s window on entry, upper end."""
    completed: tuple[AlphaBetaNode, ...] = ()
    """Nodes whose value became final in this step, deepest first (the visited leaf first)."""
    windows_out: tuple[tuple[float, float], ...] = ()
    """``(alpha, beta)`` on exit of each node of ``completed``, in the same order."""


class Frame:
    """An open node on the depth-first stack: its position, its children to try and its bookkeeping."""

    __slots__ = (
        "alpha_in",
        "best_move",
        "beta_in",
        "evals",
        "horizon",
        "key",
        "moves",
        "next",
        "node",
        "remaining",
        "state",
        "states",
    )

    def __init__(
        self,
        node: AlphaBetaNode,
        state: State,
        remaining: int,
        key: Hashable,
        moves: Sequence[Move],
        states: list[State] | None,
        evals: Sequence[float],
    ) -> None:
        self.node = node
        self.state = state
        self.remaining = remaining
        """Plies from this node to the iteration's horizon."""
        self.key = key
        """The position's transposition key (``None`` without a table)."""
        self.moves = moves
        """The children's moves in the order they are tried."""
        self.states = states
        """The children's positions, generated at once to order them (``ordering=static``), else ``None``."""
        self.evals = evals
        """The children's static values (first player's view) when ``states`` is set (else none: ``NO_EVALS``)."""
        self.next = 0
        """Index in ``moves`` of the next child to visit."""
        self.alpha_in = node.alpha
        self.beta_in = node.beta
        self.horizon = False
        """Whether some leaf below was evaluated at the horizon rather than at the end of the game."""
        self.best_move: Move | None = None
        """The move to the child that gave ``node.value``."""


class Checkpointing(Protocol):
    """What alpha-beta tells its way back along the timeline (``plyscope.engine.search.alphabeta.checkpoints``)."""

    due: int
    """The step after which the next checkpoint is due (``AlphaBeta._enter`` takes it)."""

    def started(self, root: AlphaBetaNode) -> None:
        """The step under way begins an iteration whose tree has ``root`` (before it changes anything)."""

    def completed(self) -> None:
        """An iteration is complete."""

    def table_write(self, key: Hashable, old: TableEntry | None) -> None:
        """The step under way writes the table at ``key`` over ``old`` (``None``: no entry there yet)."""

    def checkpoint(self, step: int) -> None:
        """Note the search as it is after ``step`` steps."""


class AlphaBeta(Searcher[AlphaBetaNode]):
    """Iterative-deepening fail-soft alpha-beta, first player MAX, one node visit per step."""

    evaluator: Evaluator
    """The static evaluation at the leaves (first player's point of view)."""
    name = "alphabeta"
    description = "iterative-deepening alpha-beta (fail-soft) with move ordering and a transposition table"
    meanings: ClassVar[Mapping[str, str]] = {
        **VALUE_MEANING,
        "bound": "= exact, >= a lower bound, <= an upper bound",
        "alpha": "the window's lower end (what the first player is sure of)",
        "beta": "the window's upper end (what the second player is sure of)",
        "pruned": "children cut off here (✂)",
    }
    journal: Checkpointing | None = None
    """Told each iteration begun and completed, each table write, and the steps where a checkpoint is due, to take
    steps back in place (its registry entry's journal, ``checkpoints.Checkpoints``, set by the registry)."""

    def __init__(
        self,
        state: State,
        *,
        depth: int = 0,
        start_depth: int = 1,
        ordering: str = "none",
        tt: bool = False,
        accounting: bool = False,
        evaluator: str | Evaluator = "auto",
    ) -> None:
        """``evaluator`` (the ``eval`` parameter) names an evaluator or is one (injected)."""
        super().__init__(state)
        if ordering not in ORDERINGS:
            raise SearchError(f"ordering '{ordering}' is not one of {', '.join(ORDERINGS)}")
        if start_depth < 1:
            raise SearchError(f"start_depth must be 1 or more, not {start_depth}")
        if depth < 0:
            raise SearchError(f"depth must be 0 (no cap) or more, not {depth}")
        if depth and start_depth > depth:
            raise SearchError(f"start_depth {start_depth} is deeper than depth {depth}")
        self.depth = depth
        """The deepest iteration (0: deepen until the budget runs out or the root is solved)."""
        self.start_depth = start_depth
        self.ordering = ordering
        self.accounting = accounting
        """Rivest's move accounting: visiting a child generated already (to sort) still costs one move."""
        self.sort_from = STATIC_ORDERINGS.get(ordering, 0)
        """Nodes at least this many plies above the horizon have their children sorted by static value
        (0: no static ordering)."""
        self.evaluator = resolve_evaluator(evaluator, state)
        self.iteration = start_depth
        """The depth limit of the current iteration."""
        self.completed_root: AlphaBetaNode | None = None
        """The root of the last complete iteration (its tree is kept for the principal variation)."""
        self.completed_nodes = 0
        """Nodes in the last complete iteration's tree, counted in ``stats.nodes`` while it is kept."""
        self.solved = False
        """True when an iteration reached no horizon: the root's value is the game's exact value."""
        self.table: dict[Hashable, TableEntry] | None = {} if tt else None
        """The transposition table (``tt``), by ``table_key``."""
        self.key_fixes_ply = kit_of(state.game).key_fixes_ply(state.game)
        """Whether a position's ``key()`` fixes its ply (``table_key``)."""
        self.history: dict[int, dict[Move, int]] = {1: {}, -1: {}}
        """Per player to move, a score per move: the sum of remaining-depth squared where it was best."""
        self.frames: list[Frame] = []
        """The open nodes, the root's first: the depth-first stack."""
        self.root = AlphaBetaNode(None, None, state.player, start_depth, -INF, INF)
        self.stats.nodes = 1
        if state.is_terminal():
            self.root.value = self.evaluator(state)
            self.root.bound = EXACT
            self.completed_root = self.root
            self.solved = True
            self.finished = True

    # --- one unit of work ----------------------------------------------------------------

    def _advance(self, record: bool, moves_left: int | None) -> AlphaBetaStep | Taken | None:
        stack = self.frames
        if not stack:
            if self.finished:
                return None
            return self._start_iteration(record, moves_left)
        frame = stack[-1]
        index = frame.next
        states = frame.states
        if states is None:
            if moves_left is not None and moves_left < 1:
                return None
            child_state = frame.state.play(frame.moves[index])
            cost = 1
        else:
            cost = 1 if self.accounting else 0
            if moves_left is not None and moves_left < cost:
                return None
            child_state = states[index]
        remaining = frame.remaining - 1  # plies from the child to the horizon
        if child_state.is_terminal():
            value = self.evaluator(child_state) if states is None else frame.evals[index]
            horizon = False
        elif remaining == 0:
            value = self.evaluator(child_state) if states is None else frame.evals[index]
            horizon = True
        else:
            return self._enter(frame, child_state, remaining, cost, record, moves_left)
        node = self._attach(frame, child_state, cost)
        node.value = value
        node.bound = EXACT
        if not record:
            self._back_up(frame, node, value, horizon, None)
            return TAKEN
        return self._recorded_leaf(frame, node, value, horizon, False)

    def _enter(
        self, frame: Frame, state: State, remaining: int, cost: int, record: bool, moves_left: int | None
    ) -> AlphaBetaStep | Taken | None:
        """Visit the inner node ``state`` (``cost`` moves so far): answer it from the table if an entry
        searched to the same depth settles it in the window, else open it."""
        journal = self.journal
        if journal is not None and self.stats.iterations >= journal.due:  # (here rather than at every step: quicker)
            journal.checkpoint(self.stats.iterations)
        key: Hashable = None
        table_move: Move | None = None
        table = self.table
        if table is not None:
            key = table_key(state, self.key_fixes_ply)
            entry = table.get(key)
            if entry is not None:
                table_move = entry[3]
                if entry[0] == remaining:
                    value = entry[1]
                    bound = entry[2]
                    parent = frame.node
                    if (
                        bound is EXACT
                        or (bound is LOWER and value >= parent.beta)
                        or (bound is UPPER and value <= parent.alpha)
                    ):
                        node = self._attach(frame, state, cost)
                        node.value = value
                        node.bound = bound
                        if not record:
                            self._back_up(frame, node, value, entry[4], None)
                            return TAKEN
                        return self._recorded_leaf(frame, node, value, entry[4], True)
        if self.sort_from and remaining >= self.sort_from:
            extra = len(state.legal_moves())  # the children generated to order them
            if moves_left is not None and cost + extra > moves_left:
                return None
            cost += extra
        node = self._attach(frame, state, cost)
        opened = self._open(node, state, remaining, key, table_move)
        self.frames.append(opened)
        if not record:
            return TAKEN
        return AlphaBetaStep(
            path=_path(node),
            node=node,
            added=(node,),
            changed=(node,),
            alpha_in=node.alpha,
            beta_in=node.beta,
            note=f"{self.label(node)} {_window(node.alpha, node.beta)}: open, {len(opened.moves)} moves",
        )

    def _attach(self, frame: Frame, state: State, cost: int) -> AlphaBetaNode:
        """Commit a visit that cost ``cost`` moves: add the next child of ``frame`` to the tree, with
        its parent's window as its window on entry."""
        stats = self.stats
        stats.moves += cost
        stats.nodes += 1
        index = frame.next
        frame.next = index + 1
        parent = frame.node
        node = AlphaBetaNode(parent, frame.moves[index], state.player, parent.iteration, parent.alpha, parent.beta)
        parent.add_child(node)
        if node.depth > stats.max_depth:
            stats.max_depth = node.depth
        return node

    def _recorded_leaf(
        self, frame: Frame, node: AlphaBetaNode, value: float, horizon: bool, from_table: bool
    ) -> AlphaBetaStep:
        """Back up the leaf ``node`` (valued already) and describe the visit.  In phase mode (``_phases``) the back-up
        waits: the leaf is kept in ``_held`` and only its entry is described."""
        if self._holding:
            self._held = (frame, node, value, horizon, from_table)
            return AlphaBetaStep(
                path=_path(node), node=node, added=(node,), changed=(node,), alpha_in=node.alpha, beta_in=node.beta
            )
        alpha = node.alpha
        beta = node.beta
        trace = _Trace()
        self._back_up(frame, node, value, horizon, trace)
        assert node.bound is not None
        source = " from the table" if from_table else ""
        note = f"{self.label(node)} {_window(alpha, beta)}: {_bounded(node.bound, value)}{source}"
        for cut in trace.cutoffs:
            assert cut.value is not None
            limit = f">= beta {_num(cut.beta)}" if cut.player > 0 else f"<= alpha {_num(cut.alpha)}"
            note += f"; cut-off at {self.label(cut)}: {_num(cut.value)} {limit}, {cut.pruned} pruned"
        if trace.iteration_done:
            note += f"; iteration {self._iteration_note()}"
        return AlphaBetaStep(
            path=_path(node),
            node=node,
            added=(node,),
            changed=(node, *trace.changed),
            cutoffs=tuple(trace.cutoffs),
            note=note,
            alpha_in=alpha,
            beta_in=beta,
            completed=(node, *trace.completed),
            windows_out=((alpha, beta), *((n.alpha, n.beta) for n in trace.completed)),
        )

    # Complex (C901) by design: alpha-beta's inner loop, a completed node folded into its ancestors, no call per level.
    def _back_up(self, frame: Frame, node: AlphaBetaNode, value: float, horizon: bool, trace: _Trace | None) -> None:  # noqa: C901
        """Fold the completed ``node`` (``value``, first player's view) into its parent's ``frame``;
        close every node that this completes (all children searched, or a cut-off), up to the root."""
        stack = self.frames
        while True:
            parent = frame.node
            if horizon:
                frame.horizon = True
            if parent.player > 0:
                best = parent.value
                if best is None or value > best:
                    parent.value = best = value
                    frame.best_move = node.move
                if value > parent.alpha:
                    parent.alpha = value
            else:
                best = parent.value
                if best is None or value < best:
                    parent.value = best = value
                    frame.best_move = node.move
                if value < parent.beta:
                    parent.beta = value
            if trace is not None:
                trace.changed.append(parent)
            if parent.alpha >= parent.beta:
                parent.pruned = len(frame.moves) - frame.next
                if trace is not None and parent.pruned:
                    trace.cutoffs.append(parent)
            elif frame.next < len(frame.moves):
                return
            self._close(frame)
            stack.pop()
            if trace is not None:
                trace.completed.append(parent)
            if not stack:
                self._complete_iteration(frame)
                if trace is not None:
                    trace.iteration_done = True
                return
            node = parent
            value = best  # (the node's value, now that its children are all folded in)
            horizon = frame.horizon
            frame = stack[-1]

    def _close(self, frame: Frame) -> None:
        """Mark ``frame``'s node complete: its bound, its table entry, its history credit."""
        node = frame.node
        value = node.value
        assert value is not None
        if value <= frame.alpha_in:
            bound = UPPER
        elif value >= frame.beta_in:
            bound = LOWER
        else:
            bound = EXACT
        node.bound = bound
        table = self.table
        if table is not None:
            key = frame.key
            if self.journal is not None:
                self.journal.table_write(key, table.get(key))
            table[key] = (frame.remaining, value, bound, frame.best_move, frame.horizon)
        if self.ordering == "history" and bound != (UPPER if node.player > 0 else LOWER):
            # Credit the move that was best here, unless every move failed low for the player to move.
            scores = self.history[node.player]
            credit = frame.remaining * frame.remaining
            scores[frame.best_move] = scores.get(frame.best_move, 0) + credit

    def _open(self, node: AlphaBetaNode, state: State, remaining: int, key: Hashable, first: Move | None) -> Frame:
        """A frame for ``node`` with its children in search order; ``first`` (a table move) goes first.

        With a static ordering, when ``node`` is sorted (``remaining`` at least ``sort_from``),
        this plays every child to evaluate it (the caller has counted those moves)."""
        moves: Sequence[Move] = state.legal_moves()
        states: list[State] | None = None
        evals: Sequence[float] = NO_EVALS
        if self.sort_from and remaining >= self.sort_from:
            generated = [state.play(move) for move in moves]
            evaluator = self.evaluator
            values = [evaluator(child) for child in generated]
            sign = node.player
            order = sorted(range(len(moves)), key=lambda k: -sign * values[k])
            if first is not None and first in moves:
                order.remove(moves.index(first))
                order.insert(0, moves.index(first))
            moves = [moves[k] for k in order]
            states = [generated[k] for k in order]
            evals = [values[k] for k in order]
        else:
            if self.ordering == "history" and len(moves) > 1:
                scores = self.history[node.player]
                moves = sorted(moves, key=lambda move: -scores.get(move, 0))
                if first is None and node.parent is None and self.completed_root is not None:
                    first = self.best_move()
            if first is not None and first in moves and moves[0] != first:
                moves = [first, *(move for move in moves if move != first)]
        return Frame(node, state, remaining, key, moves, states, evals)

    def _start_iteration(self, record: bool, moves_left: int | None) -> AlphaBetaStep | Taken | None:
        """Open the root of the iteration ``self.iteration`` (a new tree, unless the root is still unopened)."""
        state = self.root_state
        depth = self.iteration
        cost = len(state.legal_moves()) if self.sort_from and depth >= self.sort_from else 0
        if moves_left is not None and cost > moves_left:
            return None
        root = self.root
        if root.bound is not None or root.children:
            root = self.root = AlphaBetaNode(None, None, state.player, depth, -INF, INF)
        journal = self.journal
        if journal is not None:
            journal.started(root)
        self.stats.moves += cost
        self.stats.nodes = self.completed_nodes + 1
        key: Hashable = None
        first: Move | None = None
        if self.table is not None:
            key = table_key(state, self.key_fixes_ply)
            entry = self.table.get(key)
            first = None if entry is None else entry[3]
        self.frames.append(self._open(root, state, depth, key, first))
        if journal is not None:
            journal.checkpoint(self.stats.iterations + 1)  # the search after this step, the iteration's first
        if not record:
            return TAKEN
        ordered = f"; {cost} children generated to order them" if cost else ""
        return AlphaBetaStep(
            path=(root,),
            node=root,
            added=(root,),
            changed=(root,),
            alpha_in=-INF,
            beta_in=INF,
            note=f"iteration {depth}: search to depth {depth}{ordered}",
        )

    def _complete_iteration(self, root_frame: Frame) -> None:
        """The root is complete: keep its tree as the last complete iteration, and deepen or finish.

        The tree of the iteration before is let go (but for its principal variation, if the journal keeps it)."""
        if self.journal is not None:
            self.journal.completed()
        self.completed_root = root_frame.node
        self.stats.nodes -= self.completed_nodes  # the previous complete tree is let go
        self.completed_nodes = self.stats.nodes
        if not root_frame.horizon:
            self.solved = True
            self.finished = True
        elif self.depth and self.iteration >= self.depth:
            self.finished = True
        else:
            self.iteration += 1

    def _iteration_note(self) -> str:
        """``3 complete: value 530, best move 4`` for the last complete iteration."""
        root = self.completed_root
        assert root is not None and root.value is not None
        best = self.best_move()
        move = "none" if best is None else self.root_state.move_label(best)
        solved = " (solved)" if self.solved else ""
        return f"{root.iteration} complete: value {_num(root.value)}{solved}, best move {move}"

    # --- one visit told as its phases (``Searcher.phased``) ------------------------------------

    phase_names = ("entry", "return")
    _holding = False
    """True while ``_phases`` takes a visit: a leaf's back-up then waits in ``_held`` for the ``return`` phase."""
    _held: tuple[Frame, AlphaBetaNode, float, bool, bool] | None = None

    def _phases(self, moves_left: int | None) -> PhasedStep[AlphaBetaNode]:
        """A visit as its entry (the node, its window, a leaf's value) and, when the visit ends a node, its return
        (the value folded into the nodes above, each cut-off it makes, the nodes it completes)."""
        self._holding = True
        try:
            entered = self._advance(True, moves_left)
        finally:
            self._holding = False
        if entered is None:
            return None
        assert isinstance(entered, AlphaBetaStep)
        held, self._held = self._held, None
        if held is None:  # an inner node opened, or an iteration begun: nothing returns yet
            text = self._entry_text(entered, None)
            yield Phase("entry", text, entered.path, entered.added, entered.changed, last=True)
            return entered
        frame, node, value, horizon, from_table = held
        how = (
            "from the transposition table" if from_table else "at the horizon" if horizon else "the game is over there"
        )
        yield Phase("entry", self._entry_text(entered, f"({how}): value {_num(value)}"), entered.path, (node,), (node,))
        step = self._recorded_leaf(frame, node, value, horizon, from_table)
        yield Phase("return", self._return_text(step), step.path, changed=step.changed, last=True)
        return step

    def _entry_text(self, step: AlphaBetaStep, leaf: str | None) -> str:
        """A node entered: with which window, and what it is."""
        node = step.node
        if node.parent is None:
            return f"entry: {step.note}: the root, window {_window(step.alpha_in, step.beta_in)}"
        where = f"{_glyph(node)} {self.label(node)}"
        window = f"window {_window(step.alpha_in, step.beta_in)} (its parent's)"
        if leaf is not None:
            return f"entry: {where}, {window}; a leaf {leaf}"
        moves = len(self.frames[-1].moves) if self.frames and self.frames[-1].node is node else 0
        return f"entry: {where}, {window}; {moves} moves to search below it, left to right"

    def _return_text(self, step: AlphaBetaStep) -> str:
        """A leaf's value folded up: at each node it reaches, the value and window that result, the cut-off it makes,
        and whether the node completes (its value then goes on up) or searches its next child."""
        cut = set(step.cutoffs)
        completed = set(step.completed)
        parts = []
        for node in step.completed:
            parent = node.parent
            if parent is None:
                parts.append(f"the root completes: iteration {self._iteration_note()}")
                break
            assert node.value is not None and parent.value is not None
            where = f"{_glyph(parent)} {self.label(parent)}" if parent.parent is not None else "the root"
            part = (
                f"{_num(node.value)} goes up to {where} ({'MAX' if parent.player > 0 else 'MIN'}): its value "
                f"{_num(parent.value)}, window {_window(parent.alpha, parent.beta)}"
            )
            if parent in cut:
                part += (
                    f"; beta {_num(parent.beta)} <= alpha {_num(parent.alpha)} at {where}: the rest of its children "
                    f"({parent.pruned}) are never searched"
                )
            if parent not in completed:
                part += f"; {where} searches its next child"
            parts.append(part)
        return "return: " + "; then ".join(parts)

    # --- what the search says ------------------------------------------------------------

    def best_move(self) -> Move | None:
        """The best move of the last complete iteration; before one completes, the best so far of the
        current one among its completed root children (``None`` if there is none yet)."""
        best = best_completed_child(self.completed_root or self.root)
        return None if best is None else best.move

    def value(self) -> PovScore[float]:
        """The root value of the last complete iteration (first player's view); before one completes,
        the current root's best so far, or the root's static value."""
        root = self.completed_root or self.root
        return self.scored(root.value if root.value is not None else self.evaluator(self.root_state))

    def proven(self) -> Verdict | None:
        """Once an iteration reached no horizon, the result at the end of its principal variation."""
        return self.line_verdict(self.principal_variation()) if self.solved else None

    def preferred_child(self, node: Node) -> AlphaBetaNode | None:
        """The first completed child with the best value for the player to move at ``node``."""
        assert isinstance(node, AlphaBetaNode)
        return best_completed_child(node)

    def principal_path(self) -> list[AlphaBetaNode]:
        """The principal variation of the last complete iteration (of the current one before that)."""
        path = [self.completed_root or self.root]
        while (best := best_completed_child(path[-1])) is not None:
            path.append(best)
        return path


class _Trace:
    """What one recorded visit changed, gathered by ``AlphaBeta._back_up`` for the ``AlphaBetaStep``."""

    __slots__ = ("changed", "completed", "cutoffs", "iteration_done")

    def __init__(self) -> None:
        self.changed: list[AlphaBetaNode] = []
        self.completed: list[AlphaBetaNode] = []
        self.cutoffs: list[AlphaBetaNode] = []
        self.iteration_done = False


def best_completed_child(node: AlphaBetaNode) -> AlphaBetaNode | None:
    """The first completed child with the best value for the player to move at ``node``."""
    completed = [c for c in node.children if c.bound is not None and c.value is not None]
    return best_child(completed, node.player, _VALUE)


def table_key(state: State, fixes_ply: bool) -> Hashable:
    """The transposition table's key for ``state``: its ``key()``, with its ply unless the key fixes it
    (``fixes_ply``: ``GameKit.key_fixes_ply``).

    A finished game's value carries the ply it ended at (``plyscope.engine.games.evaluators``), so a position's value
    depends on the ply it is reached at.  A Connect Four position's ply is its stone count, but a classic Nim
    position can be reached at several (piles 4, 4 after two moves or after four): an entry found at one ply
    must not answer at another."""
    key = state.key()
    return key if fixes_ply else (key, state.ply)


def _path(node: AlphaBetaNode) -> tuple[AlphaBetaNode, ...]:
    return tuple(node.path())


def _num(value: float) -> str:
    return f"{value:g}"


def _glyph(node: AlphaBetaNode) -> str:
    """The glyph of the player who moved into ``node``: ● first, ○ second."""
    return "○" if node.player > 0 else "●"


def _window(alpha: float, beta: float) -> str:
    return f"[{_num(alpha)}, {_num(beta)}]"


def _bounded(bound: str, value: float) -> str:
    return _num(value) if bound == EXACT else f"{bound} {_num(value)}"


class RivestAlphaBeta(AlphaBeta):
    """Rivest's alpha-beta opponent (AI 34, 1988, section 5.4).

    Iterative deepening from depth 2, children searched in order of static evaluation at
    every inner node (``ordering=static-all``: the parents of leaves too, each of their
    children generated and evaluated at one move each), the move of the last complete
    iteration; no table and no history, so nothing is carried over (an agent builds a new
    searcher each turn).  Moves are counted as for his min/max approximation
    (``accounting``, on by default): one per child generated, and one per edge walked down.
    """

    name = "ab-rivest"
    description = "Rivest's alpha-beta: iterative deepening from depth 2, children in static-evaluation order"

    def __init__(
        self, state: State, *, depth: int = 0, accounting: bool = True, evaluator: str | Evaluator = "rivest"
    ) -> None:
        super().__init__(
            state,
            depth=depth,
            start_depth=2,
            ordering="static-all",
            tt=False,
            accounting=accounting,
            evaluator=evaluator,
        )

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

Going back (``undo``, ``rewind``): checkpoints and a short replay, not a full journal.  A
step back must give back the frame stack (each open node's children to try, its window,
its best move so far, its horizon flag), the values and windows of the open nodes, the
tree as it was (the nodes visited since removed), the iteration's bookkeeping, and the
table's and the history's contents.  A journal of all that costs tens of bytes a step
(the old numbers of every node a step completes, the frames it closes), while a step makes
one node of 192 bytes: with the timeline's own 20 or so bytes a step, past the timeline's
budget of a quarter of the tree's memory.  The trade-off taken instead: a little memory,
and at most ``CHECKPOINT_STEPS`` steps replayed per step back.

* After each iteration's first step, and then at the first visit of an inner node once
  ``CHECKPOINT_STEPS`` steps have passed, the search notes its frame stack in flat arrays:
  per open node its next child, horizon flag, best move so far, value, alpha and beta
  (33 bytes), and the stats.  Nothing else is needed: the open nodes are a chain (each
  is the last child visited of the one below), and a node, once complete, never changes.
* The table's writes are journalled (only with the table): a write notes its key and the
  entry it replaces, in arrays (10 bytes, 22 when it replaces one).  The history's scores
  (a score per player and move: a few dozen numbers) are copied into each checkpoint.
* Going back to step ``k`` starts from the last checkpoint at or before it: the open
  nodes get back their numbers there and lose the children visited since, the frames
  closed since are made again from their nodes (their children's moves in order, then
  the count pruned; the positions replayed from their parents'), the table's journal is
  rolled back, and the search is replayed on the fast path for the steps from the
  checkpoint to ``k`` (the searcher is deterministic, so they are the steps it took).

One step back (or a thousand) therefore costs a restore and about ``CHECKPOINT_STEPS``
steps replayed at most (5-10 ms for alpha-beta, 10-20 for ``ab-rivest``) whatever the
length of the search, for about 0.3 KB a checkpoint: with 1,024 steps between them, well
under 1% of the tree's memory.  Halving the interval would halve the replay and double
that; a full journal would make a step back cost one step but take 10-20% of the tree.

Earlier iterations: a new iteration's tree replaces the last complete one, and when it
completes the one before is let go.  That tree is kept only along its principal variation
(each node there with its best child alone: what ``best_move``, ``value`` and
``principal_path`` read of the last complete iteration while the next one runs), so a
step back into the iteration still running finds it as it was for those.  A step in an
iteration whose tree is no longer whole is reached by going back to that iteration's
start and replaying it, ``REPLAY_SLICE`` steps a call (its cost is at most that
iteration's length, a fraction of the whole search since iterations grow geometrically).
"""

from __future__ import annotations

import math
import sys
from array import array
from bisect import bisect_right
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Self

from engine.games.base import Move, State
from engine.games.connect4 import Connect4State
from engine.games.evaluators import Evaluator
from engine.pov import PovScore
from engine.search.base import (
    NO_CHILDREN,
    TAKEN,
    AlgorithmInfo,
    Limit,
    Node,
    Param,
    Searcher,
    SearchError,
    Step,
    Taken,
    Verdict,
    best_child,
)
from engine.search.minimax import EVAL_PARAM, EVAL_PARAMS, TRANSFORM_PARAM, WEIGHTS_PARAM, resolve_evaluator

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

TableEntry = tuple[int, float, str, Move | None, bool]
"""``(remaining depth, value, bound, best move, horizon reached)``; value from the first player's view."""

BOUNDS = (EXACT, LOWER, UPPER)
"""The bounds by code, in the journals."""

CHECKPOINT_STEPS = 1024
"""Steps between two checkpoints of the frame stack (a few more: one is taken when an inner node is visited):
going back replays about this many steps at most."""
REPLAY_SLICE = 4 * CHECKPOINT_STEPS
"""The most steps ``rewind`` replays in one call (about 20-40 ms)."""
RESTORE_COST = 64
"""What restoring a checkpoint costs (frames made again from their nodes), in steps replayed, roughly."""
_CP = 8
"""Numbers per checkpoint in ``AlphaBeta._checkpoints``: step, iteration (index in ``_rounds``), moves, nodes,
max depth, table journal length, end of its history scores and of its frames in the arrays that keep them."""


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


class _Frame:
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
        evals: list[float] | None,
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
        """The children's static values (first player's view) when ``states`` is set."""
        self.next = 0
        """Index in ``moves`` of the next child to visit."""
        self.alpha_in = node.alpha
        self.beta_in = node.beta
        self.horizon = False
        """Whether some leaf below was evaluated at the horizon rather than at the end of the game."""
        self.best_move: Move | None = None
        """The move to the child that gave ``node.value``."""


class _Round:
    """One iteration, for going back: the search as it was just before its first step, and the tree it builds."""

    __slots__ = (
        "checkpoints",
        "completed",
        "completed_nodes",
        "depth",
        "history",
        "max_depth",
        "moves",
        "nodes",
        "root",
        "start",
        "table",
        "whole",
    )

    def __init__(self, searcher: AlphaBeta, root: AlphaBetaNode) -> None:
        stats = searcher.stats
        self.start = stats.iterations + 1
        """The number of its first step (the one that opens its root)."""
        self.depth = searcher.iteration
        self.moves = stats.moves
        self.nodes = stats.nodes
        self.max_depth = stats.max_depth
        """The stats before its first step."""
        self.table = len(searcher._past.table_keys)
        """The table journal's length before its first step."""
        self.history = {player: dict(scores) for player, scores in searcher._history.items()}
        """The history's scores before its first step."""
        self.checkpoints = len(searcher._past.checkpoints) // _CP
        """The number of checkpoints taken before it."""
        self.completed = searcher.completed_root
        self.completed_nodes = searcher._completed_nodes
        """The last complete iteration's root (and its nodes) while this one runs."""
        self.root = root
        """The root of the tree it builds."""
        self.whole = True
        """False once the tree is kept only along its principal variation (two iterations later)."""


class _Past:
    """What an ``AlphaBeta`` keeps for going back: its iterations, its checkpoints and its table's journal."""

    __slots__ = (
        "checkpoints",
        "codes",
        "frame_best",
        "frame_horizon",
        "frame_next",
        "frame_numbers",
        "moves_by_code",
        "rounds",
        "saved_moves",
        "saved_players",
        "saved_scores",
        "table_keys",
        "table_moves",
        "table_olds",
        "table_values",
    )

    def __init__(self) -> None:
        self.rounds: list[_Round] = []
        self.checkpoints = array("q")
        """``_CP`` numbers per checkpoint, in step order."""
        self.frame_next = array("I")
        self.frame_horizon = array("b")
        self.frame_best = array("i")
        """Per frame of a checkpoint: its next child, its horizon flag, its best move's code (-1: none yet)..."""
        self.frame_numbers = array("d")
        """... and its node's value (0 while ``None``), alpha and beta."""
        self.table_keys: array[int] | list[Hashable] = array("Q")
        """The key of every table write, in order (in an array while the keys are integers of 64 bits, as
        Connect Four's are; a list otherwise)."""
        self.table_olds = array("H")
        """Per table write, the entry it replaced: 0 if there was none, else its remaining depth + 1 times 8, plus
        its bound's code, plus 4 if it reached the horizon..."""
        self.table_moves = array("i")
        self.table_values = array("d")
        """... and, for each write that replaced an entry (most are new), that entry's best move (code) and value."""
        self.saved_players = array("b")
        self.saved_moves = array("i")
        self.saved_scores = array("q")
        """The history's scores at each checkpoint: player, move's code, score (a checkpoint's run of them ends
        where its ``_CP`` numbers say)."""
        self.codes: dict[Move, int] = {}
        self.moves_by_code: list[Move] = []


class AlphaBeta(Searcher[AlphaBetaNode]):
    """Iterative-deepening fail-soft alpha-beta, first player MAX, one node visit per step."""

    evaluator: Evaluator
    """The static evaluation at the leaves (first player's point of view)."""
    name = "alphabeta"
    description = "iterative-deepening alpha-beta (fail-soft) with move ordering and a transposition table"

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
        self._sort_from = STATIC_ORDERINGS.get(ordering, 0)
        """Nodes at least this many plies above the horizon have their children sorted by static value
        (0: no static ordering)."""
        self.evaluator = resolve_evaluator(evaluator, state)
        self.iteration = start_depth
        """The depth limit of the current iteration."""
        self.completed_root: AlphaBetaNode | None = None
        """The root of the last complete iteration (its tree is kept for the principal variation)."""
        self._completed_nodes = 0
        """Nodes in the last complete iteration's tree, counted in ``stats.nodes`` while it is kept."""
        self.solved = False
        """True when an iteration reached no horizon: the root's value is the game's exact value."""
        self._table: dict[Hashable, TableEntry] | None = {} if tt else None
        self._history: dict[int, dict[Move, int]] = {1: {}, -1: {}}
        """Per player to move, a score per move: the sum of remaining-depth squared where it was best."""
        self._stack: list[_Frame] = []
        self._past = _Past()
        """What going back needs (see the module's docstring), apart: the searcher's own attributes stay few."""
        self._next_checkpoint = 0
        """The step after which the next checkpoint is due."""
        self.root = AlphaBetaNode(None, None, state.player, start_depth, -INF, INF)
        self.stats.nodes = 1
        if state.is_terminal():
            self.root.value = self.evaluator(state)
            self.root.bound = EXACT
            self.completed_root = self.root
            self.solved = True
            self.finished = True

    @property
    def completed_depth(self) -> int:
        """The depth of the last complete iteration (0 before the first completes)."""
        return 0 if self.completed_root is None else self.completed_root.iteration

    # --- one unit of work ----------------------------------------------------------------

    def _advance(self, record: bool, moves_left: int | None) -> AlphaBetaStep | Taken | None:
        stack = self._stack
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
            value = self.evaluator(child_state) if states is None else frame.evals[index]  # type: ignore[index]
            horizon = False
        elif remaining == 0:
            value = self.evaluator(child_state) if states is None else frame.evals[index]  # type: ignore[index]
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
        self, frame: _Frame, state: State, remaining: int, cost: int, record: bool, moves_left: int | None
    ) -> AlphaBetaStep | Taken | None:
        """Visit the inner node ``state`` (``cost`` moves so far): answer it from the table if an entry
        searched to the same depth settles it in the window, else open it."""
        if self.stats.iterations >= self._next_checkpoint:  # (here rather than at every step: a little quicker)
            self._checkpoint(self.stats.iterations)
        key: Hashable = None
        table_move: Move | None = None
        table = self._table
        if table is not None:
            key = table_key(state)
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
        if self._sort_from and remaining >= self._sort_from:
            extra = len(state.legal_moves())  # the children generated to order them
            if moves_left is not None and cost + extra > moves_left:
                return None
            cost += extra
        node = self._attach(frame, state, cost)
        opened = self._open(node, state, remaining, key, table_move)
        self._stack.append(opened)
        if not record:
            return TAKEN
        return AlphaBetaStep(
            path=_path(node),
            node=node,
            added=(node,),
            changed=(node,),
            alpha_in=node.alpha,
            beta_in=node.beta,
            note=f"{self._label(node)} {_window(node.alpha, node.beta)}: open, {len(opened.moves)} moves",
        )

    def _attach(self, frame: _Frame, state: State, cost: int) -> AlphaBetaNode:
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
        self, frame: _Frame, node: AlphaBetaNode, value: float, horizon: bool, from_table: bool
    ) -> AlphaBetaStep:
        """Back up the leaf ``node`` (valued already) and describe the visit."""
        alpha = node.alpha
        beta = node.beta
        trace = _Trace()
        self._back_up(frame, node, value, horizon, trace)
        assert node.bound is not None
        source = " from the table" if from_table else ""
        note = f"{self._label(node)} {_window(alpha, beta)}: {_bounded(node.bound, value)}{source}"
        for cut in trace.cutoffs:
            assert cut.value is not None
            limit = f">= beta {_num(cut.beta)}" if cut.player > 0 else f"<= alpha {_num(cut.alpha)}"
            note += f"; cut-off at {self._label(cut)}: {_num(cut.value)} {limit}, {cut.pruned} pruned"
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

    def _back_up(self, frame: _Frame, node: AlphaBetaNode, value: float, horizon: bool, trace: _Trace | None) -> None:
        """Fold the completed ``node`` (``value``, first player's view) into its parent's ``frame``;
        close every node that this completes (all children searched, or a cut-off), up to the root."""
        stack = self._stack
        while True:
            parent = frame.node
            if horizon:
                frame.horizon = True
            if parent.player > 0:
                best = parent.value
                if best is None or value > best:
                    parent.value = value
                    frame.best_move = node.move
                if value > parent.alpha:
                    parent.alpha = value
            else:
                best = parent.value
                if best is None or value < best:
                    parent.value = value
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
            value = parent.value  # type: ignore[assignment]  # set: at least one child was folded in
            horizon = frame.horizon
            frame = stack[-1]

    def _close(self, frame: _Frame) -> None:
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
        table = self._table
        if table is not None:
            key = frame.key
            self._note_table_write(key, table.get(key))
            table[key] = (frame.remaining, value, bound, frame.best_move, frame.horizon)
        if self.ordering == "history" and bound != (UPPER if node.player > 0 else LOWER):
            # Credit the move that was best here, unless every move failed low for the player to move.
            scores = self._history[node.player]
            credit = frame.remaining * frame.remaining
            scores[frame.best_move] = scores.get(frame.best_move, 0) + credit

    def _open(self, node: AlphaBetaNode, state: State, remaining: int, key: Hashable, first: Move | None) -> _Frame:
        """A frame for ``node`` with its children in search order; ``first`` (a table move) goes first.

        With a static ordering, when ``node`` is sorted (``remaining`` at least ``_sort_from``),
        this plays every child to evaluate it (the caller has counted those moves)."""
        moves: Sequence[Move] = state.legal_moves()
        states: list[State] | None = None
        evals: list[float] | None = None
        if self._sort_from and remaining >= self._sort_from:
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
                scores = self._history[node.player]
                moves = sorted(moves, key=lambda move: -scores.get(move, 0))
                if first is None and node.parent is None and self.completed_root is not None:
                    first = self.best_move()
            if first is not None and first in moves and moves[0] != first:
                moves = [first, *(move for move in moves if move != first)]
        return _Frame(node, state, remaining, key, moves, states, evals)

    def _start_iteration(self, record: bool, moves_left: int | None) -> AlphaBetaStep | Taken | None:
        """Open the root of the iteration ``self.iteration`` (a new tree, unless the root is still unopened)."""
        state = self.root_state
        depth = self.iteration
        cost = len(state.legal_moves()) if self._sort_from and depth >= self._sort_from else 0
        if moves_left is not None and cost > moves_left:
            return None
        root = self.root
        if root.bound is not None or root.children:
            root = self.root = AlphaBetaNode(None, None, state.player, depth, -INF, INF)
        self._past.rounds.append(_Round(self, root))
        self.stats.moves += cost
        self.stats.nodes = self._completed_nodes + 1
        key: Hashable = None
        first: Move | None = None
        if self._table is not None:
            key = table_key(state)
            entry = self._table.get(key)
            first = None if entry is None else entry[3]
        self._stack.append(self._open(root, state, depth, key, first))
        self._checkpoint(self.stats.iterations + 1)  # the search after this step, the iteration's first
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

    def _complete_iteration(self, root_frame: _Frame) -> None:
        """The root is complete: keep its tree as the last complete iteration, and deepen or finish.

        The tree of the iteration before is let go, but for its principal variation (for going back)."""
        rounds = self._past.rounds
        if len(rounds) > 1 and rounds[-2].whole:
            rounds[-2].whole = False
            _keep_principal_line(rounds[-2].root)
        self.completed_root = root_frame.node
        self.stats.nodes -= self._completed_nodes  # the previous complete tree is let go
        self._completed_nodes = self.stats.nodes
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

    # --- going back ----------------------------------------------------------------------

    def _code(self, move: Move) -> int:
        """A small number for ``move``, for the arrays of the checkpoints and journals."""
        code = self._past.codes.get(move)
        if code is None:
            code = self._past.codes[move] = len(self._past.moves_by_code)
            self._past.moves_by_code.append(move)
        return code

    def _note_table_write(self, key: Hashable, old: TableEntry | None) -> None:
        """Journal a table write at ``key`` over ``old`` (``None``: no entry there yet)."""
        keys = self._past.table_keys
        try:
            keys.append(key)  # type: ignore[arg-type]  # an int of 64 bits into the array, or into the list
        except (OverflowError, TypeError):
            keys = self._past.table_keys = list(keys)
            keys.append(key)
        if old is None:
            self._past.table_olds.append(0)
        else:
            move = old[3]
            self._past.table_olds.append(8 * (old[0] + 1) + BOUNDS.index(old[2]) + 4 * old[4])
            self._past.table_moves.append(-1 if move is None else self._code(move))
            self._past.table_values.append(old[1])

    def _checkpoint(self, step: int) -> None:
        """Note the frame stack, the open nodes' numbers and the stats, as they are after ``step`` steps (at the
        start of a step that has changed nothing yet, or at the end of one not counted yet)."""
        for player, scores in self._history.items():
            for move, score in scores.items():
                self._past.saved_players.append(player)
                self._past.saved_moves.append(self._code(move))
                self._past.saved_scores.append(score)
        numbers = self._past.frame_numbers
        for frame in self._stack:
            node = frame.node
            best = frame.best_move
            self._past.frame_next.append(frame.next)
            self._past.frame_horizon.append(frame.horizon)
            self._past.frame_best.append(-1 if best is None else self._code(best))
            value = node.value
            numbers.extend((0.0 if value is None else value, node.alpha, node.beta))
        stats = self.stats
        self._past.checkpoints.extend(
            (
                step,
                len(self._past.rounds) - 1,
                stats.moves,
                stats.nodes,
                stats.max_depth,
                len(self._past.table_keys),
                len(self._past.saved_scores),
                len(self._past.frame_next),
            )
        )
        self._next_checkpoint = step + CHECKPOINT_STEPS

    def _round_of(self, step: int) -> int:
        """The index in ``_rounds`` of the iteration whose tree is the root after ``step`` (-1 for step 0)."""
        rounds = self._past.rounds
        index = len(rounds) - 1
        while index >= 0 and rounds[index].start > step:
            index -= 1
        return index

    def _checkpoint_before(self, step: int) -> int:
        """The index of the last checkpoint taken at or before ``step``."""
        checkpoints = self._past.checkpoints
        return bisect_right(range(len(checkpoints) // _CP), step, key=lambda index: checkpoints[_CP * index]) - 1

    def undo(self, path: Sequence[Move]) -> bool:
        """Take back the last step (whose node is at ``path``): see ``rewind``."""
        stats = self.stats
        step = stats.iterations - 1
        if step < 0:
            return False
        self.rewind(step)
        if stats.iterations < step:  # (only when an earlier iteration is replayed from its start)
            seconds = stats.seconds
            self.run(Limit(iterations=step - stats.iterations))
            stats.seconds = seconds
        return True

    def rewind_cost(self, step: int) -> float | None:
        if step >= self.stats.iterations:
            return 0.0
        index = self._round_of(step)
        if index < 0:
            return 0.0
        round_ = self._past.rounds[index]
        if not round_.whole:
            return RESTORE_COST + step - (round_.start - 1)
        return RESTORE_COST + step - self._past.checkpoints[_CP * self._checkpoint_before(step)]

    def rewind(self, step: int) -> int:
        """Go back to the search as it was after ``step``: from the last checkpoint at or before it in an
        iteration whose tree is whole (the running one, or the last complete one), else from the start of the
        iteration, replaying the steps in between (see the module's docstring).

        From a checkpoint the replay is short and ``step`` is reached in one call.  From an iteration's start at
        most ``REPLAY_SLICE`` steps are replayed: the step returned is then below ``step``, and the caller runs
        the search on to it (as the timeline does going forward, a chunk at a time)."""
        stats = self.stats
        if step >= stats.iterations:
            return stats.iterations
        seconds = stats.seconds
        index = self._round_of(max(step, 0))
        if index < 0:
            self._restore_round_start(0)
        elif self._past.rounds[index].whole:
            self._restore_checkpoint(self._checkpoint_before(step))
        else:
            self._restore_round_start(index)
        if stats.iterations < step:
            self.run(Limit(iterations=min(step - stats.iterations, REPLAY_SLICE)))
        stats.seconds = seconds
        return stats.iterations

    def _restore_round_start(self, index: int) -> None:
        """Put the search back as it was before the first step of the iteration ``_rounds[index]``.

        The root is then the last complete iteration's (kept only along its principal variation, perhaps: the
        next step replaces it, and only its line is read before that), or a new root for the first iteration."""
        round_ = self._past.rounds[index]
        if round_.completed is None:
            self.root = AlphaBetaNode(None, None, self.root_state.player, round_.depth, -INF, INF)
        else:
            self.root = round_.completed
        self.completed_root = round_.completed
        self._completed_nodes = round_.completed_nodes
        self.iteration = round_.depth
        self.solved = self.finished = False
        self._stack = []
        stats = self.stats
        stats.iterations = round_.start - 1
        stats.moves = round_.moves
        stats.nodes = round_.nodes
        stats.max_depth = round_.max_depth
        self._roll_back(round_.table)
        self._history = {player: dict(scores) for player, scores in round_.history.items()}
        self._drop_checkpoints(round_.checkpoints)
        del self._past.rounds[index:]
        self._next_checkpoint = 0

    def _restore_checkpoint(self, index: int) -> None:
        """Put the search back as it was at checkpoint ``index``, in place: its iteration's tree must be whole."""
        checkpoints = self._past.checkpoints
        at = _CP * index
        step, round_index, moves, nodes, max_depth, table_length, scores_end, end = checkpoints[at : at + _CP]
        begin = checkpoints[at - 1] if index else 0
        scores_begin = checkpoints[at - 2] if index else 0
        round_ = self._past.rounds[round_index]
        assert round_.whole
        nexts = self._past.frame_next
        numbers = self._past.frame_numbers
        # First the frames, from the tree as it is (a frame closed since is made again from its node's children).
        old = self._stack
        frames: list[_Frame] = []
        node = round_.root
        state = self.root_state
        alpha_in, beta_in = -INF, INF
        for depth in range(end - begin):
            frame = old[depth] if depth < len(old) and old[depth].node is node else None
            if frame is None:
                frame = self._reopened(node, state, alpha_in, beta_in)
            frames.append(frame)
            f = 3 * (begin + depth)
            alpha_in, beta_in = numbers[f + 1], numbers[f + 2]
            if depth + 1 < end - begin:
                child = nexts[begin + depth] - 1  # the open child: the last one visited
                states = frame.states
                node = node.children[child]
                state = frame.state.play(node.move) if states is None else states[child]
        # Then the open nodes' numbers, and their children as they were.
        decode = self._past.moves_by_code
        for depth, frame in enumerate(frames, begin):
            visited = nexts[depth]
            best = self._past.frame_best[depth]
            frame.next = visited
            frame.horizon = bool(self._past.frame_horizon[depth])
            frame.best_move = None if best < 0 else decode[best]
            node = frame.node
            f = 3 * depth
            node.value = None if best < 0 else numbers[f]
            node.alpha = numbers[f + 1]
            node.beta = numbers[f + 2]
            node.bound = None
            node.pruned = 0
            children = node.children
            if len(children) > visited:
                node.children = list(children[:visited]) if visited else NO_CHILDREN
        self._stack = frames
        self.root = round_.root
        self.completed_root = round_.completed
        self._completed_nodes = round_.completed_nodes
        self.iteration = round_.depth
        self.solved = self.finished = False
        stats = self.stats
        stats.iterations = step
        stats.moves = moves
        stats.nodes = nodes
        stats.max_depth = max_depth
        self._roll_back(table_length)
        history: dict[int, dict[Move, int]] = {1: {}, -1: {}}
        for saved in range(scores_begin, scores_end):
            history[self._past.saved_players[saved]][decode[self._past.saved_moves[saved]]] = self._past.saved_scores[
                saved
            ]
        self._history = history
        self._drop_checkpoints(index + 1)
        del self._past.rounds[round_index + 1 :]
        self._next_checkpoint = step + CHECKPOINT_STEPS

    def _reopened(self, node: AlphaBetaNode, state: State, alpha_in: float, beta_in: float) -> _Frame:
        """The frame that the complete ``node`` (at ``state``, entered with the window ``alpha_in, beta_in``) had
        while open: its visited children's moves in their order, then as many placeholders as it pruned (never
        visited again: going forward from the past, the node is complete again at the same step)."""
        remaining = node.iteration - node.depth
        key = table_key(state) if self._table is not None else None
        moves: list[Move] = [child.move for child in node.children]
        states: list[State] | None = None
        evals: list[float] | None = None
        if self._sort_from and remaining >= self._sort_from:
            states = [state.play(move) for move in moves]
            evaluator = self.evaluator
            evals = [evaluator(child) for child in states]
            states += [state] * node.pruned
            evals += [0.0] * node.pruned
        moves += [moves[-1]] * node.pruned
        frame = _Frame(node, state, remaining, key, moves, states, evals)
        frame.alpha_in = alpha_in
        frame.beta_in = beta_in
        return frame

    def _roll_back(self, table_length: int) -> None:
        """Undo the table writes journalled after the first ``table_length`` of them, newest first."""
        decode = self._past.moves_by_code
        table = self._table
        keys = self._past.table_keys
        if table is not None and len(keys) > table_length:
            olds = self._past.table_olds
            moves = self._past.table_moves
            values = self._past.table_values
            replaced = len(values)
            for index in range(len(keys) - 1, table_length - 1, -1):
                old = olds[index]
                if not old:
                    del table[keys[index]]
                    continue
                replaced -= 1
                move = moves[replaced]
                best = None if move < 0 else decode[move]
                table[keys[index]] = (old // 8 - 1, values[replaced], BOUNDS[old & 3], best, bool(old & 4))
            del keys[table_length:]
            del olds[table_length:]
            del moves[replaced:]
            del values[replaced:]

    def _drop_checkpoints(self, count: int) -> None:
        """Keep only the first ``count`` checkpoints (those of the steps still taken)."""
        checkpoints = self._past.checkpoints
        end = checkpoints[_CP * count - 1] if count else 0
        saved = checkpoints[_CP * count - 2] if count else 0
        del checkpoints[_CP * count :]
        for frames in (self._past.frame_next, self._past.frame_horizon, self._past.frame_best):
            del frames[end:]
        del self._past.frame_numbers[3 * end :]
        for scores in (self._past.saved_players, self._past.saved_moves, self._past.saved_scores):
            del scores[saved:]

    def journal_nbytes(self) -> int:
        """The checkpoints and journals, the iterations' records and the principal lines kept of earlier trees."""
        arrays: list[array[int] | array[float]] = [
            self._past.checkpoints,
            self._past.frame_next,
            self._past.frame_horizon,
            self._past.frame_best,
            self._past.frame_numbers,
            self._past.table_olds,
            self._past.table_moves,
            self._past.table_values,
            self._past.saved_players,
            self._past.saved_moves,
            self._past.saved_scores,
        ]
        keys = self._past.table_keys
        size = 0
        if isinstance(keys, array):
            arrays.append(keys)
        else:  # every key counted whole, as if none were shared with the table
            size = sys.getsizeof(keys) + sum(sys.getsizeof(key) for key in keys)
        size += sum(len(a) * a.itemsize for a in arrays)
        for round_ in self._past.rounds:
            size += 160 + sum(sys.getsizeof(scores) for scores in round_.history.values())
            if not round_.whole:
                node: AlphaBetaNode | None = round_.root
                while node is not None:
                    size += 200
                    node = node.children[0] if node.children else None
        return size

    # --- what the search says ------------------------------------------------------------

    def best_move(self) -> Move | None:
        """The best move of the last complete iteration; before one completes, the best so far of the
        current one among its completed root children (``None`` if there is none yet)."""
        best = _best_child(self.completed_root or self.root)
        return None if best is None else best.move

    def value(self) -> PovScore[float]:
        """The root value of the last complete iteration (first player's view); before one completes,
        the current root's best so far, or the root's static value."""
        root = self.completed_root or self.root
        return self.scored(root.value if root.value is not None else self.evaluator(self.root_state))

    def proven(self) -> Verdict | None:
        """Once an iteration reached no horizon, the result at the end of its principal variation."""
        return self.line_verdict(self.principal_variation()) if self.solved else None

    def principal_path(self) -> list[AlphaBetaNode]:
        """The principal variation of the last complete iteration (of the current one before that)."""
        path = [self.completed_root or self.root]
        while (best := _best_child(path[-1])) is not None:
            path.append(best)
        return path

    def _label(self, node: AlphaBetaNode) -> str:
        """``node``'s moves from the root as labels (``root`` for the root); replays moves, so record mode only."""
        labels = []
        state = self.root_state
        for move in node.moves():
            labels.append(state.move_label(move))
            state = state.play(move)
        return " ".join(labels) or "root"


class _Trace:
    """What one recorded visit changed, gathered by ``AlphaBeta._back_up`` for the ``AlphaBetaStep``."""

    __slots__ = ("changed", "completed", "cutoffs", "iteration_done")

    def __init__(self) -> None:
        self.changed: list[AlphaBetaNode] = []
        self.completed: list[AlphaBetaNode] = []
        self.cutoffs: list[AlphaBetaNode] = []
        self.iteration_done = False


def _keep_principal_line(root: AlphaBetaNode) -> None:
    """Cut the complete tree under ``root`` down to its principal variation: each node there keeps its best
    child alone (``_best_child`` then still finds it), and the rest of the tree is let go."""
    node = root
    while (best := _best_child(node)) is not None:
        if len(node.children) > 1:
            node.children = [best]
        node = best


def _best_child(node: AlphaBetaNode) -> AlphaBetaNode | None:
    """The first completed child with the best value for the player to move at ``node``."""
    completed = [c for c in node.children if c.bound is not None and c.value is not None]
    return best_child(completed, node.player, _VALUE)


def table_key(state: State) -> Hashable:
    """The transposition table's key for ``state``: its ``key()``, with its ply unless the position fixes it.

    A finished game's value carries the ply it ended at (``engine.games.evaluators``), so a position's value
    depends on the ply it is reached at.  A Connect Four position's ply is its stone count, but a classic Nim
    position can be reached at several (piles 4, 4 after two moves or after four): an entry found at one ply
    must not answer at another."""
    key = state.key()
    return key if isinstance(state, Connect4State) else (key, state.ply)


def _path(node: AlphaBetaNode) -> tuple[AlphaBetaNode, ...]:
    return tuple(node.path())


def _num(value: float) -> str:
    return f"{value:g}"


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


DEPTH_PARAM = Param("depth", int, 0, "deepest iteration in plies (0: no cap, deepen until the budget)", lo=0, hi=128)

ALGORITHMS = (
    AlgorithmInfo(
        name=AlphaBeta.name,
        description=AlphaBeta.description,
        factory=AlphaBeta,
        node_bytes=192,
        ui_node_bytes=288,
        params=(
            DEPTH_PARAM,
            Param("start_depth", int, 1, "depth of the first iteration", lo=1, hi=128),
            Param(
                "ordering",
                str,
                "none",
                "children order: legal moves; static values above the parents of "
                "leaves (static) or at every inner node (static-all, Rivest's); or history heuristic",
                choices=ORDERINGS,
            ),
            Param("tt", bool, False, "transposition table (exact-depth values, best move first)"),
            Param(
                "accounting",
                bool,
                False,
                "Rivest's move accounting: a child visited costs a move even when it was generated already to sort",
            ),
            *EVAL_PARAMS,
        ),
    ),
    AlgorithmInfo(
        name=RivestAlphaBeta.name,
        description=RivestAlphaBeta.description,
        factory=RivestAlphaBeta,
        node_bytes=216,
        ui_node_bytes=328,
        params=(
            DEPTH_PARAM,
            Param(
                "accounting",
                bool,
                True,
                "Rivest's move accounting: a child visited costs a move even when it was generated already to sort",
            ),
            Param(EVAL_PARAM.name, str, "rivest", EVAL_PARAM.help, choices=EVAL_PARAM.choices),
            WEIGHTS_PARAM,
            TRANSFORM_PARAM,
        ),
        games=("connect4",),
    ),
)

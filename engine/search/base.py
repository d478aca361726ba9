"""The surface every searcher shares: ``Limit``, ``Stats``, ``Step``, ``Result``, ``Node``, ``Searcher``.

Units of work and of budget, the same for every algorithm:

* a **step** is one unit of work: an expansion (best-first minimax, Rivest, proof-number
  search), one iteration (MCTS), one node visit (depth-first alpha-beta and minimax);
* **moves** are calls to ``State.play`` made by the tree search ("calls to the move
  operator" in Rivest's paper).  Under Rivest's accounting a best-first search also pays
  one move for every edge it walks down from the root.  Random playouts are counted apart
  (``Stats.playout_moves``), not in ``moves``.

Values: ``Searcher.value()`` is a ``PovScore`` (``engine.pov``): a number with the player whose
point of view it takes, on the scale of the searcher's evaluator (or of its own statistics,
for MCTS and proof-number search); each ``Node`` subclass says the point of view of every
number it keeps.
"""

from __future__ import annotations

import gc
import sys
import time
from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import Enum
from operator import attrgetter
from typing import Any, ClassVar, Generic, Self, TypeVar

from engine.errors import UserError
from engine.games.base import Move, Player, State
from engine.games.evaluators import Evaluator
from engine.numbers import NumberError, OutOfRange, parse_float, parse_int, shown
from engine.pov import FIRST, PovBounds, PovScore


class SearchError(UserError):
    """A searcher cannot be built as asked (wrong game, bad parameter); the message says why."""


@dataclass(frozen=True, slots=True)
class Limit:
    """How much a ``run`` may spend; ``None`` means no bound on that unit.  Several bounds: the first reached stops."""

    moves: int | None = None
    """Calls to ``State.play`` (never exceeded: a step that would go over is not taken)."""
    seconds: float | None = None
    """Wall-clock seconds spent in this run."""
    iterations: int | None = None
    """Steps taken in this run."""
    nodes: int | None = None
    """Nodes in the searcher's tree (checked before each step)."""

    def __post_init__(self) -> None:
        for name in ("moves", "seconds", "iterations", "nodes"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise SearchError(f"limit {name} must be 0 or more, not {value}")


@dataclass(slots=True)
class Stats:
    """What a searcher has spent and built since it was created."""

    moves: int = 0
    """Calls to ``State.play`` by the tree search (plus edges walked, under Rivest's accounting)."""
    iterations: int = 0
    """Steps taken."""
    nodes: int = 0
    """Nodes the searcher holds now (alpha-beta: the current iteration's tree and the last complete one)."""
    max_depth: int = 0
    """Deepest node reached, in plies below the root."""
    seconds: float = 0.0
    """Time spent inside ``step`` and ``run``."""
    playout_moves: int = 0
    """Moves made in random playouts (MCTS), kept apart from ``moves``."""
    playouts: int = 0
    """Random playouts run (MCTS)."""


NO_CHILDREN: tuple[()] = ()
"""The children of a node not expanded yet: one shared empty tuple, so that leaves (most of a tree) hold no list."""


class Node:
    """A node of a searcher's own tree.  Subclasses add the numbers their algorithm keeps.

    ``parent`` and ``children`` are typed ``Self``: a subclass's nodes link to its own kind.
    """

    __slots__ = ("parent", "move", "children", "depth")

    parent: Self | None
    move: Move | None
    """The move from ``parent`` to this node (``None`` at the root)."""
    children: Sequence[Self]
    """Children generated so far, in generation order (``NO_CHILDREN`` until the first); a searcher adds one
    with ``add_child`` or sets them all at once."""
    depth: int
    """Plies below the root."""

    def __init__(self, parent: Self | None, move: Move | None) -> None:
        self.parent = parent
        self.move = move
        self.children = NO_CHILDREN
        self.depth = 0 if parent is None else parent.depth + 1

    def add_child(self, child: Self) -> None:
        """Append ``child`` to the children (the first one makes the list)."""
        children = self.children
        if isinstance(children, list):
            children.append(child)
        else:
            self.children = [*children, child]

    def numbers(self) -> dict[str, float | int | str | None]:
        """The numbers this node keeps, by short name, in display order (``Searcher.numbers`` may add the ones
        that depend on the search's parameters)."""
        return {}

    def work(self) -> float:
        """How much search went below this node, in the algorithm's own measure (here: children generated)."""
        return float(len(self.children))

    @property
    def cut_off(self) -> bool:
        """Whether a cut-off here left some of its children unsearched (the tree pane marks the node ``✂``)."""
        return False

    def path(self) -> list[Self]:
        """The nodes from the root down to this one."""
        nodes: list[Self] = []
        node: Self | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        nodes.reverse()
        return nodes

    def moves(self) -> list[Move]:
        """The moves from the root to this node."""
        return [n.move for n in self.path()[1:]]


N = TypeVar("N", bound=Node, covariant=True)
C = TypeVar("C", bound=Node)
_DEPTH = attrgetter("depth")
REWIND_SLICE = 16_384
"""Expansions ``Expansions.back`` and ``forth`` take at most in one call (some 20 to 100 ms of work), so
that the timeline can let the tree's lock go between two calls."""


def _one_move_a_child(node: Node, children: int) -> int:
    return children


class Expansions(Generic[C]):
    """The journal of a search that expands one node a step, to go back and forth along its timeline in place.

    It keeps the node each step expanded and, for searches whose leaves have a value (``leaf_values``), that
    node's value as a leaf (a float a step).  Going back (``back``) makes the newest expanded nodes leaves
    again and keeps each with the children it had (the newest tree's own nodes: no memory beyond it), its
    position and its numbers, to be taken again (``forth``); a step taken anew (``record``) drops what was
    kept.  After either, every node whose children changed and every ancestor of theirs is rescored from its
    children once, deepest first.  Exact for a search whose every number at an inner node is a function of
    its children's (proof numbers, minimax values, Rivest's values and penalties): each node gets back the
    numbers it had, at the cost of one rescore per node rather than one per step and ancestor.

    The steps one ``back`` call takes back form a group (at most ``REWIND_SLICE`` steps), and the call keeps
    the numbers the ancestors it rescored had before.  Going forth again to the very step that call started
    from needs no rescore at all: the tree after a step is always the same, and so are its numbers, so each
    node taken again gets back the numbers it had when it was taken back, and each of those ancestors the
    numbers it had then (``give_back``).  When part of the group was taken again before (a ``forth`` that
    stopped short of its end), those ancestors are rescored instead.  ``forth`` takes the rest of a group in
    one call when asked to go that far, and otherwise as many steps as asked, rescored.

    What is kept is in flat lists, with a node's numbers as a tuple of plain numbers (the cyclic garbage
    collector stops tracking those): a step taken back adds no object the collector walks, so going back does
    not bring its full collections (a quarter of a second on a tree of 100,000 steps) any sooner.
    """

    __slots__ = (
        "expanded",
        "values",
        "_nodes",
        "_children",
        "_positions",
        "_numbers",
        "_values",
        "_groups",
        "_above",
        "_make_leaf",
        "_reattach",
        "_keep",
        "_give_back",
        "_rescore",
        "_cost",
        "_leaf_values",
    )

    def __init__(
        self,
        make_leaf: Callable[[C, float], State | None],
        reattach: Callable[[C, State | None], None],
        keep: Callable[[C], tuple[float | int, ...]],
        give_back: Callable[[C, tuple[float | int, ...]], None],
        rescore: Callable[[C], object],
        cost: Callable[[C, int], int] | None = None,
        *,
        leaf_values: bool = True,
    ) -> None:
        """``make_leaf(node, value)``: the node's own numbers as a leaf of that value (its children are taken
        by the journal); returns the position it no longer keeps.  ``reattach(node, position)``: the node
        expanded again (its children are given back), its position given back.  ``keep(node)``: an inner
        node's numbers, as plain numbers (floats, ints: a child as its place among the children), and
        ``give_back(node, numbers)`` them again.  ``rescore(node)``: its numbers from its children.
        ``cost(node, children)``: the moves its expansion cost (``None``: one per child)."""
        self.expanded: list[C] = []
        """The node each step expanded, in order."""
        self.values = array("d")
        """Each expanded node's value as a leaf, in the same order (empty without ``leaf_values``: 0 is given)."""
        self._nodes: list[C] = []
        """The expansions taken back, the newest first: each node, ..."""
        self._children: list[Sequence[C]] = []
        """... the children it had, ..."""
        self._positions: list[State | None] = []
        """... the position it no longer keeps (``make_leaf``), ..."""
        self._numbers: list[tuple[float | int, ...]] = []
        """... its numbers then (``keep``), ..."""
        self._values = array("d")
        """... and its value as a leaf (empty without ``leaf_values``)."""
        self._groups: list[int] = []
        """Where each ``back`` call's expansions begin among those taken back (the newest of them), oldest call
        first: taking again every expansion above one brings the tree back to the step that call started
        from."""
        self._above: list[tuple[list[C], list[tuple[float | int, ...]]] | None] = []
        """For each group, the ancestors that call rescored, deepest first, and their numbers before
        (``keep``); ``None`` once part of the group is taken again."""
        self._make_leaf = make_leaf
        self._reattach = reattach
        self._keep = keep
        self._give_back = give_back
        self._rescore = rescore
        self._cost = cost if cost is not None else _one_move_a_child
        self._leaf_values = leaf_values

    def record(self, node: C, value: float) -> None:
        """A step expanded ``node``, a leaf of ``value`` until then (and dropped what was taken back)."""
        if self._nodes:
            self._drop()
        self.expanded.append(node)
        if self._leaf_values:
            self.values.append(value)

    def _drop(self) -> None:
        """Forget the expansions taken back."""
        for kept in (self._nodes, self._children, self._positions, self._numbers, self._groups, self._above):
            kept.clear()
        del self._values[:]

    def back(self, searcher: Searcher[Any], step: int) -> None:
        """Take ``searcher``'s expansions after ``step`` back, the newest first, at most ``REWIND_SLICE``."""
        stats = searcher.stats
        expanded = self.expanded
        start = max(step, stats.iterations - REWIND_SLICE, 0)
        if start < len(expanded):
            self._groups.append(len(self._nodes))
            nodes = expanded[start:]
            del expanded[start:]
            nodes.reverse()
            if self._leaf_values:
                values = self.values
                leaf_values = values[start:]
                del values[start:]
                leaf_values.reverse()
                self._values.extend(leaf_values)
            else:
                leaf_values = array("d", bytes(8 * len(nodes)))
            dirty: set[C] = set()
            make_leaf, keep, cost, mark = self._make_leaf, self._keep, self._cost, dirty.add
            one_a_child = cost is _one_move_a_child
            add_children, add_position, add_numbers = (
                self._children.append,
                self._positions.append,
                self._numbers.append,
            )
            moves = made = 0
            for node, value in zip(nodes, leaf_values, strict=True):
                children = node.children
                made += len(children)
                moves += len(children) if one_a_child else cost(node, len(children))
                add_numbers(keep(node))
                add_children(children)
                node.children = NO_CHILDREN
                add_position(make_leaf(node, value))
                parent = node.parent
                while parent is not None and parent not in dirty:
                    mark(parent)
                    parent = parent.parent
            self._nodes += nodes
            stats.moves -= moves
            stats.nodes -= made
            above = [node for node in sorted(dirty, key=_DEPTH, reverse=True) if node.children]
            self._above.append((above, list(map(keep, above))))
            self._rescored(above)
        searcher._undone_to(len(expanded))

    def forth(self, searcher: Searcher[Any], step: int) -> bool:
        """Take the expansions taken back again toward ``step``, the oldest first: the rest of the newest
        group if ``step`` is that far (numbers given back), else at most ``REWIND_SLICE``; ``False`` if none
        is kept."""
        kept = self._nodes
        if not kept:
            return False
        stats = searcher.stats
        groups = self._groups
        group = len(kept) - groups[-1]
        count = min(step - stats.iterations, len(kept), REWIND_SLICE)
        exact = count >= group
        if exact:
            count = group
            groups.pop()
            above = self._above.pop()
        else:
            self._above[-1] = above = None
        start = len(kept) - count
        nodes = kept[start:]
        del kept[start:]
        nodes.reverse()
        lists = []
        for whole in (self._children, self._positions, self._numbers):
            part = whole[start:]
            del whole[start:]
            part.reverse()
            lists.append(part)
        if self._leaf_values:
            leaf_values = self._values[start:]
            del self._values[start:]
            leaf_values.reverse()
            self.values.extend(leaf_values)
        reattach, give_back, cost = self._reattach, self._give_back, self._cost
        one_a_child = cost is _one_move_a_child
        dirty: set[C] = set()
        mark = dirty.add
        first = stats.iterations
        moves = made = 0
        for index, (node, children, position, numbers) in enumerate(zip(nodes, *lists, strict=True)):
            node.children = children
            reattach(node, position)
            if exact:
                give_back(node, numbers)
            made += len(children)
            moves += len(children) if one_a_child else cost(node, len(children))
            if node.depth + 1 > stats.max_depth:
                stats.iterations = first + index
                searcher._deeper(node.depth + 1)
            if above is None:
                walk: C | None = node.parent if exact else node
                while walk is not None and walk not in dirty:
                    mark(walk)
                    walk = walk.parent
        stats.iterations = first + count
        stats.moves += moves
        stats.nodes += made
        self.expanded += nodes
        if above is not None:
            for node, numbers in zip(*above, strict=True):
                give_back(node, numbers)
        else:
            if exact:
                dirty.difference_update(nodes)  # (their numbers given back)
            self._rescored([node for node in sorted(dirty, key=_DEPTH, reverse=True) if node.children])
        return True

    def _rescored(self, nodes: list[C]) -> None:
        """``nodes`` (inner nodes, deepest first) rescored from their children."""
        rescore = self._rescore
        for node in nodes:
            rescore(node)

    def nbytes(self) -> int:
        """What the journal holds beyond the tree, in bytes: its lists (those of the expansions taken back when
        they hold any), and the numbers kept (a tuple of plain numbers a node: those the node no longer holds)."""
        size = sys.getsizeof(self.expanded) + sys.getsizeof(self.values)
        if not self._nodes:
            return size
        lists = (self._nodes, self._children, self._positions, self._numbers, self._values, self._groups, self._above)
        size += sum(sys.getsizeof(kept) for kept in lists)
        ancestors = [above for above in self._above if above is not None]
        size += sum(sys.getsizeof(nodes) + sys.getsizeof(numbers) for nodes, numbers in ancestors)
        sample = self._numbers[-1]
        each = sys.getsizeof(sample) + sum(sys.getsizeof(x) for x in sample)
        return size + each * (len(self._numbers) + sum(len(nodes) for nodes, _ in ancestors))


def best_child(children: Sequence[C], player: int, value: Callable[[C], float]) -> C | None:
    """The first of ``children`` whose ``value`` (first player's point of view) is best for ``player``, the
    player to move at their parent (+1: the first player, who maximises; -1: the second, who minimises).

    ``None`` when there are no children.  Alpha-beta, minimax, best-first and Rivest's method choose with it.
    """
    if not children:
        return None
    return max(children, key=value) if player > 0 else min(children, key=value)


"""A searcher's kind of node (covariant: a searcher of ``MctsNode`` is a searcher of ``Node``)."""

Verdict = tuple[int, int]
"""What a search has proven about the game from its root: the lowest and the highest result the first
player gets with best play on both sides (+1 a win, 0 a draw, -1 a loss); equal when the result is known."""


class Taken(Enum):
    """A unit of work done on ``run``'s fast path, where no ``Step`` is built."""

    TAKEN = "taken"


TAKEN = Taken.TAKEN


@dataclass(frozen=True, slots=True)
class Step(Generic[N]):
    """What one step did, so that a UI can update only what changed."""

    path: tuple[N, ...]
    """The selected path, root first, ending at ``node``."""
    node: N
    """The node acted on (expanded, visited, or the new leaf of an MCTS iteration)."""
    added: tuple[N, ...] = ()
    """Children created by this step."""
    changed: tuple[N, ...] = ()
    """Nodes whose numbers changed (including ``node`` and the new children)."""
    cutoffs: tuple[N, ...] = ()
    """Nodes whose remaining children were pruned by this step (alpha-beta)."""
    note: str = ""
    """One line on what happened, for a status bar (e.g. ``cut-off: 7 >= beta 5``)."""
    continues: bool = False
    """True when the step only took further a piece of work that a later step ends (the solver's probe, cut at its
    slice of nodes): it shows nothing new, and a run at a chosen speed does not count it."""


@dataclass(frozen=True, slots=True)
class Result:
    """Where a ``run`` left the search."""

    best_move: Move | None
    value: PovScore[float]
    """The root's value (``Searcher.value()``)."""
    principal_variation: tuple[Move, ...]
    stats: Stats
    """A copy of the searcher's stats at the end of the run."""
    finished: bool
    """True when the search has nothing left to do (tree complete or root proven)."""


class Searcher(ABC, Generic[N]):
    """A game-tree search that grows its own tree one ``step`` at a time.

    Subclasses implement ``_advance`` (one unit of work), ``best_move``, ``value`` and
    ``principal_path``; ``step`` and ``run`` are built on ``_advance`` so that running
    visits exactly what stepping visits.
    """

    name: ClassVar[str]
    """Registry name, e.g. ``mcts``."""
    description: ClassVar[str]
    """One line for the registry listing."""

    root: N
    stats: Stats
    evaluator: Evaluator | None = None
    """The static evaluation whose scale ``value()`` is on (``None``: the searcher has its own, as MCTS)."""
    finished: bool = False
    """True when there is nothing left to do: the tree is complete or the root is proven."""
    undo_cost: ClassVar[float] = 1.0
    """What ``undo`` costs against a step taken on ``run``'s fast path (about): the timeline takes steps back in
    place only while that is quicker than replaying the search from its start."""

    def __init__(self, state: State) -> None:
        self.root_state = state
        self.stats = Stats()
        self._depths: list[tuple[int, int]] = []
        """``(step index, max_depth before it)`` for every step that went deeper (``_deeper``), for ``undo``."""

    @abstractmethod
    def _advance(self, record: bool, moves_left: int | None) -> Step[N] | Taken | None:
        """Do one unit of work, spending at most ``moves_left`` moves (no bound if ``None``).

        Returns ``None``, having changed nothing, if the work would cost more than
        ``moves_left`` or the search is finished.  Otherwise returns a ``Step`` when
        ``record`` is true, and ``TAKEN`` when it is not (the fast path of ``run``).
        """

    @abstractmethod
    def best_move(self) -> Move | None:
        """The move this searcher would play now (``None`` before any work, or with no legal move)."""

    @abstractmethod
    def value(self) -> PovScore[float]:
        """The root's value, with whose point of view it takes (most searchers keep the first player's)."""

    def value_bounds(self) -> PovBounds[float] | None:
        """What the root's value can be while the search only bounds it (the exact solver); ``None`` when
        ``value()`` is the search's own estimate, or exact."""
        return None

    def value_scale(self) -> tuple[float, float]:
        """The least and the greatest root value this search gives (``value().first()``, the timeline's values):
        its evaluator's range; -1 to 1 without one (MCTS's and flat Monte Carlo's mean rewards, the result
        proof-number search proves)."""
        evaluator = self.evaluator
        return (-1.0, 1.0) if evaluator is None else (evaluator.lo, evaluator.hi)

    def scored(self, value: float, player: Player = FIRST) -> PovScore[float]:
        """``value``, from ``player``'s point of view, as a score on this search's scale: even at the middle of
        its evaluator's range (512 on Rivest's 1..1023), at 0 without an evaluator."""
        evaluator = self.evaluator
        return PovScore(value, player, 0 if evaluator is None else (evaluator.lo + evaluator.hi) / 2)

    @abstractmethod
    def principal_path(self) -> list[N]:
        """The nodes of the principal variation, root first."""

    def principal_variation(self) -> list[Move]:
        """The moves of the principal variation from the root."""
        return [node.move for node in self.principal_path()[1:]]

    def proven(self) -> Verdict | None:
        """What this search has proven about the game from the root (``None``: nothing yet, or it cannot prove)."""
        return None

    def line_verdict(self, line: list[Move]) -> Verdict | None:
        """The result where ``line`` (moves from the root) ends the game, as a verdict; ``None`` if it does not.

        For searchers whose finished tree is complete: best play from the root then ends the game.
        """
        state = self.root_state
        for move in line:
            state = state.play(move)
        winner = state.winner()
        return None if winner is None else (winner, winner)

    def undo(self, path: Sequence[Move]) -> bool:
        """Take back the last step, which acted on the node at ``path`` (its moves from the root), in place.

        Afterwards the tree, its numbers and ``stats`` (but ``seconds``) are exactly as they were before that
        step, and stepping again takes it again.  ``False``, with nothing changed, from a searcher that cannot
        (the timeline then rebuilds the past by replay instead).
        """
        return False

    def rewind_cost(self, step: int) -> float | None:
        """About how long ``rewind`` back to ``step`` would take, in steps of this search replayed on the fast path;
        ``None`` from a searcher that cannot rewind (the timeline then undoes step by step, or replays).

        The timeline compares it with ``step``, the cost of replaying the search from its start, and takes the
        cheaper way.
        """
        return None

    def rewind(self, step: int) -> int:
        """Take the search back toward the tree it had after ``step`` (fewer steps than taken), in place, several
        steps at once; returns the step now shown.

        It may stop after a bounded slice of work (so that a caller holding the tree's lock can let it go between
        slices): above ``step``, call it again; below ``step`` (a searcher that went further back to replay from
        there), run the search on to ``step``.  Every step it passes is as ``undo`` would leave it.  Only for a
        searcher whose ``rewind_cost`` is not ``None``.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot rewind")

    def redo(self, step: int) -> int | None:
        """Take again, in place, the steps that ``rewind`` or ``undo`` took back, toward ``step`` (at most a slice
        of them a call); returns the step now shown, or ``None`` if no step taken back is kept to be taken again
        (the caller runs the search on instead: a step taken anew drops them).  Every step it passes is exactly
        as stepping would leave it."""
        return None

    def journal_nbytes(self) -> int:
        """The memory this searcher keeps only so that ``undo`` can take steps back, in bytes (the timeline's
        memory counts it too): here the record of the steps that went deeper (``_deeper``)."""
        depths = self._depths
        return sys.getsizeof(depths) + sum(sys.getsizeof(entry) + sys.getsizeof(entry[0]) for entry in depths)

    def nodes_along(self, moves: Sequence[Move]) -> list[N]:
        """The nodes from the root along ``moves``, as far as the tree holds them (the root alone for none)."""
        path = [self.root]
        for move in moves:
            child = next((c for c in path[-1].children if c.move == move), None)
            if child is None:
                break
            path.append(child)
        return path

    def node_at(self, path: Sequence[Move]) -> N:
        """The node reached from the root by the moves ``path`` (every one of them in the tree)."""
        node = self.root
        for move in path:
            node = next(child for child in node.children if child.move == move)
        return node

    def _deeper(self, depth: int) -> None:
        """The step under way reached ``depth``, deeper than any before: note it for ``undo``."""
        stats = self.stats
        self._depths.append((stats.iterations, stats.max_depth))
        stats.max_depth = depth

    def _undone(self) -> None:
        """Stats after an ``undo``: one step fewer, and the depth reached before it if that step went deeper."""
        stats = self.stats
        stats.iterations -= 1
        depths = self._depths
        if depths and depths[-1][0] == stats.iterations:
            stats.max_depth = depths.pop()[1]

    def _undone_to(self, step: int) -> None:
        """Stats after a ``rewind`` back to ``step``: its number of steps, and the depth reached by then."""
        stats = self.stats
        stats.iterations = step
        depths = self._depths
        while depths and depths[-1][0] >= step:
            stats.max_depth = depths.pop()[1]

    def state_at(self, node: Node) -> State:
        """The position at ``node`` (replays its moves from the root; no stats are charged)."""
        state = self.root_state
        for move in node.moves():
            state = state.play(move)
        return state

    def step(self, moves_left: int | None = None) -> Step[N] | None:
        """One unit of work; ``None`` (nothing done) when finished or it would cost more than ``moves_left``."""
        started = time.perf_counter()
        step = self._advance(True, moves_left)
        self.stats.seconds += time.perf_counter() - started
        if step is None:
            return None
        assert isinstance(step, Step)
        self.stats.iterations += 1
        return step

    def run(self, limit: Limit) -> Result:
        """Step (on the fast path) until ``limit`` or the end of the search; the tree is the same as stepping."""
        started = time.perf_counter()
        deadline = None if limit.seconds is None else started + limit.seconds
        moves_cap = None if limit.moves is None else self.stats.moves + limit.moves
        iterations = 0
        stats = self.stats
        with cyclic_gc_paused():
            while not self.finished:
                if limit.iterations is not None and iterations >= limit.iterations:
                    break
                if limit.nodes is not None and stats.nodes >= limit.nodes:
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                if self._advance(False, None if moves_cap is None else moves_cap - stats.moves) is None:
                    break
                iterations += 1
                stats.iterations += 1
        stats.seconds += time.perf_counter() - started
        return self.result()

    def result(self) -> Result:
        return Result(
            best_move=self.best_move(),
            value=self.value(),
            principal_variation=tuple(self.principal_variation()),
            stats=replace(self.stats),
            finished=self.finished,
        )

    def walk(self) -> Iterator[N]:
        """Every node of the tree, depth first, root first."""
        stack: list[N] = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def numbers(self, node: Node) -> dict[str, float | int | str | None]:
        """The numbers to show beside ``node``, by short name, in display order: the node's own
        (``Node.numbers``), and those that depend on this search's parameters (an edge's weight, UCB1)."""
        return node.numbers()


class ExpandingSearcher(Searcher[N]):
    """A searcher that expands one node a step and moves along its timeline in place through its ``Expansions``
    journal (proof-number search, Rivest's method, best-first minimax): ``undo``, ``rewind`` and ``redo`` are
    the journal's ``back`` and ``forth``, then ``_moved``."""

    _expansions: Expansions[Any]
    """The journal of the nodes expanded (made in the subclass's ``__init__`` with its leaf and rescore hooks)."""
    rewind_step_cost: ClassVar[float] = 0.2
    """A step taken back by ``rewind`` costs about this many steps replayed (measured on Connect Four: about
    0.1)."""

    undo_checks_path: ClassVar[bool] = True
    """Whether ``undo`` refuses a ``path`` that is not the last expanded node's (proof-number search takes any)."""

    def undo(self, path: Sequence[Move]) -> bool:
        """Take back the last expansion, of the node at ``path``: see ``rewind``."""
        expanded = self._expansions.expanded
        if not expanded or (self.undo_checks_path and tuple(expanded[-1].moves()) != tuple(path)):
            return False
        self.rewind(self.stats.iterations - 1)
        return True

    def rewind_cost(self, step: int) -> float | None:
        return self.rewind_step_cost * max(0, self.stats.iterations - step)

    def rewind(self, step: int) -> int:
        """Take back the expansions after ``step`` (``Expansions.back``): each expanded node a leaf again, and
        every node above rescored from its children."""
        self._expansions.back(self, step)
        self._moved()
        return self.stats.iterations

    def redo(self, step: int) -> int | None:
        if not self._expansions.forth(self, step):
            return None
        self._moved()
        return self.stats.iterations

    def _moved(self) -> None:
        """Bring what the searcher keeps beside its tree (``finished``, a principal variation...) up to date after
        the tree went back or forth along the timeline."""

    def journal_nbytes(self) -> int:
        return super().journal_nbytes() + self._expansions.nbytes()


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Hold off Python's cycle collector while a search grows its tree, then restore it.

    A search allocates tree nodes by the tens of thousands and frees almost nothing, so each
    collection finds no garbage yet walks the whole heap: about a third of a best-first
    search's time.  Reference counting still frees everything that is not in a cycle.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a searcher: its type, default and allowed range, for the registry."""

    name: str
    kind: type
    """``int``, ``float``, ``bool`` or ``str`` (``str`` with ``choices``)."""
    default: object
    help: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, value: object) -> object:
        """``value`` (text from a command line or a form, or already typed) checked and converted.

        Numbers are read by ``engine.numbers`` (ASCII digits only, no ``nan`` or ``inf``, no
        thousand-digit integers); the range is the parameter's own."""
        text = shown(str(value).strip())
        parsed: object
        if self.kind is bool:
            if isinstance(value, bool):
                parsed = value
            elif text.lower() in ("1", "true", "yes", "on"):
                parsed = True
            elif text.lower() in ("0", "false", "no", "off"):
                parsed = False
            else:
                raise SearchError(f"parameter {self.name}: '{text}' is not true or false")
        elif self.kind is int or self.kind is float:
            reader = parse_int if self.kind is int else parse_float
            try:
                number = reader(value, f"parameter {self.name}")
            except OutOfRange:  # (a number too large for any range: a thousand digits, 1e999)
                side = "below" if text.startswith("-") else "above"
                raise SearchError(
                    f"parameter {self.name}: {shown(text)} is {side} its range {self.range_text()}"
                ) from None
            except NumberError:
                kind = "a whole number" if self.kind is int else "a number"
                raise SearchError(f"parameter {self.name}: '{text}' is not {kind}") from None
            if self.lo is not None and number < self.lo:
                raise SearchError(f"parameter {self.name}: {text} is below its range {self.range_text()}")
            if self.hi is not None and number > self.hi:
                raise SearchError(f"parameter {self.name}: {text} is above its range {self.range_text()}")
            parsed = number
        else:
            parsed = str(value).strip()
        if self.choices and parsed not in self.choices:
            raise SearchError(f"parameter {self.name}: '{text}' is not one of {', '.join(self.choices)}")
        return parsed

    def range_text(self) -> str:
        if self.choices:
            return "|".join(self.choices)
        if self.kind is bool:
            return "true|false"
        if self.kind is str:
            return "text"
        lo = "-inf" if self.lo is None else f"{self.lo:g}"
        hi = "inf" if self.hi is None else f"{self.hi:g}"
        return f"{lo}..{hi}"


TREE_MEMORY_BYTES = 1 << 30
"""What one search tree may take by default (about 1 GB): the node cap is this over the searcher's bytes per node."""
DEFAULT_NODE_BYTES = 500
"""Bytes of resident memory per tree node assumed for a searcher that states none."""


@dataclass(frozen=True, slots=True)
class AlgorithmInfo:
    """A registry entry: how to build one kind of searcher."""

    name: str
    description: str
    factory: type[Searcher[Node]]
    params: tuple[Param, ...] = field(default=())
    games: tuple[str, ...] = ()
    """Game families it works on (``connect4``, ``connect4-chance``, ``nim``); empty means every family without
    chance (``registry.plays``)."""
    random: bool = False
    """True when the searcher draws random numbers: only such a searcher is given the ``seed``."""
    node_bytes: int = DEFAULT_NODE_BYTES
    """Resident memory per tree node of the searcher alone, as ``plyscope bench`` measures it (rounded up): sets
    the default node cap where no screen shows the tree (``plyscope search``, the arena's agents)."""
    ui_node_bytes: int = DEFAULT_NODE_BYTES
    """Resident memory per tree node of the explorer's whole process while it shows this search (the tree, the
    screen, the timeline), follow mode on or off, whichever costs more, as ``plyscope bench --ui`` measures it
    (rounded up): sets the default node cap of every screen's search."""
    default_budget: int | None = None
    """The move budget a search gets when none is given (the explorer, ``plyscope search``) if not theirs: the
    solver's, whose moves are negamax nodes that an exact score near the start takes 10^8 of."""

    @property
    def node_cap(self) -> int:
        """The default cap on this searcher's tree with no screen, in nodes: about ``TREE_MEMORY_BYTES``."""
        return TREE_MEMORY_BYTES // self.node_bytes

    @property
    def ui_node_cap(self) -> int:
        """The default cap on this searcher's tree in the app, in nodes: about ``TREE_MEMORY_BYTES`` of the app's
        memory."""
        return TREE_MEMORY_BYTES // self.ui_node_bytes

    def param(self, name: str) -> Param:
        for param in self.params:
            if param.name == name:
                return param
        known = ", ".join(p.name for p in self.params) or "none"
        raise SearchError(f"{self.name} has no parameter '{shown(name)}' (its parameters: {known})")

    def defaults(self) -> dict[str, object]:
        return {p.name: p.default for p in self.params}

    def validate(self, values: Mapping[str, object]) -> dict[str, object]:
        """Defaults overridden by ``values``, each checked against its ``Param``."""
        chosen = self.defaults()
        for name, value in values.items():
            chosen[name] = self.param(name).parse(value)
        return chosen

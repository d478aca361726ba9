"""The journal of a search that expands one node a step: proof-number search, Rivest's method, best-first minimax.

A node's numbers in these searches are a function of its children's, so a step is taken back by making the node it
expanded a leaf again and rescoring its ancestors from their children, which gives back exactly the numbers they
had; ``Expansions`` does it for many steps at once, each ancestor rescored once, through the searcher's hooks
(``ExpandingSearch``: how a node is a leaf again, how its numbers are kept as plain numbers and given back).  Each
searcher's registry entry declares it (``Expansions``; best-first minimax's ``best_first_journal``).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from operator import attrgetter
from typing import Generic, TypeVar

from plyscope.engine.games.base import State
from plyscope.engine.search.base import NO_CHILDREN, Node
from plyscope.engine.search.bestfirst.base import ExpandingSearch, Numbers
from plyscope.engine.search.bestfirst.bestfirst import BestFirst, BestFirstNode
from plyscope.engine.travel import protocol
from plyscope.engine.travel.protocol import DepthRecord, Travel

C = TypeVar("C", bound=Node)
T = TypeVar("T")
_DEPTH = attrgetter("depth")


class Expansions(Travel[ExpandingSearch[C]], Generic[C]):
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
        "_refresh",
        "_edges",
        "_leaf_values",
        "_depths",
    )

    step_cost = 0.2
    """A step taken back costs about this many steps replayed (measured on Connect Four: about 0.1)."""

    def __init__(self, searcher: ExpandingSearch[C]) -> None:
        """The journal of the fresh ``searcher``, through its hooks: ``leaf_again(node, value)``, the node's own
        numbers as a leaf of that value (its children are taken by the journal), returning the position it no longer
        keeps; ``reattach(node, position)``, the node expanded again (its children are given back), its position
        given back; ``kept(node)``, an inner node's numbers as plain numbers, and ``give_back(node, numbers)`` them
        again; ``rescore(node)``, its numbers from its children; ``refresh()``, what the searcher keeps beside its tree
        brought up to date with it; ``edge_moves``, whether an expansion pays the edges down to it too."""
        super().__init__(searcher)
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
        self._numbers: list[Numbers] = []
        """... its numbers then (``keep``), ..."""
        self._values = array("d")
        """... and its value as a leaf (empty without ``leaf_values``)."""
        self._groups: list[int] = []
        """Where each ``back`` call's expansions begin among those taken back (the newest of them), oldest call
        first: taking again every expansion above one brings the tree back to the step that call started
        from."""
        self._above: list[tuple[list[C], list[Numbers]] | None] = []
        """For each group, the ancestors that call rescored, deepest first, and their numbers before
        (``keep``); ``None`` once part of the group is taken again."""
        self._make_leaf = searcher.leaf_again
        self._reattach = searcher.reattach
        self._keep = searcher.kept
        self._give_back = searcher.give_back
        self._rescore = searcher.rescore
        self._refresh = searcher.refresh
        self._edges = searcher.edge_moves
        self._leaf_values = searcher.leaf_values
        self._depths = DepthRecord(searcher.stats.max_depth)

    def record(self, node: C, value: float) -> None:
        """The step under way expands ``node``, a leaf of ``value`` until then (called before the stats count the
        step; it drops what was taken back)."""
        if self._nodes:
            self._drop()
        depths = self._depths
        if node.depth >= depths.deepest:
            depths.note(len(self.expanded), node.depth + 1)
        self.expanded.append(node)
        if self._leaf_values:
            self.values.append(value)

    def _drop(self) -> None:
        """Forget the expansions taken back."""
        for kept in (self._nodes, self._children, self._positions, self._numbers, self._groups, self._above):
            kept.clear()
        del self._values[:]

    def cost(self, step: int) -> float:
        return self.step_cost * max(0, self.searcher.stats.iterations - step)

    def back(self, step: int) -> int:
        """Take the expansions after ``step`` back, the newest first, at most ``REWIND_SLICE``: each expanded node a
        leaf again, and every node above rescored from its children."""
        stats = self.searcher.stats
        expanded = self.expanded
        start = max(step, stats.iterations - protocol.REWIND_SLICE, 0)
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
            make_leaf, keep, edges, mark = self._make_leaf, self._keep, self._edges, dirty.add
            add_children, add_position, add_numbers = (
                self._children.append,
                self._positions.append,
                self._numbers.append,
            )
            moves = made = 0
            for node, value in zip(nodes, leaf_values, strict=True):
                children = node.children
                made += len(children)
                moves += len(children) + node.depth if edges else len(children)
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
        stats.iterations = len(expanded)
        stats.max_depth = self._depths.back(len(expanded))
        self._refresh()
        return stats.iterations

    def forth(self, step: int) -> int:
        """Take the expansions taken back again toward ``step``, the oldest first: the rest of the newest group if
        ``step`` is that far (numbers given back), else at most ``REWIND_SLICE``; with none kept, run on."""
        kept = self._nodes
        if not kept:
            return super().forth(step)
        stats = self.searcher.stats
        groups = self._groups
        group = len(kept) - groups[-1]
        count = min(step - stats.iterations, len(kept), protocol.REWIND_SLICE)
        exact = count >= group
        if exact:
            count = group
            groups.pop()
            above = self._above.pop()
        else:
            self._above[-1] = above = None
        nodes, children_kept, positions, numbers_kept = self._unkeep(len(kept) - count)
        reattach, give_back, edges = self._reattach, self._give_back, self._edges
        dirty: set[C] = set()
        mark = dirty.add
        depths = self._depths
        first = stats.iterations
        moves = made = 0
        taken = zip(nodes, children_kept, positions, numbers_kept, strict=True)
        for index, (node, children, position, numbers) in enumerate(taken):
            node.children = children
            reattach(node, position)
            if exact:
                give_back(node, numbers)
            made += len(children)
            moves += len(children) + node.depth if edges else len(children)
            if node.depth >= depths.deepest:
                depths.note(first + index, node.depth + 1)
            if above is None:
                walk: C | None = node.parent if exact else node
                while walk is not None and walk not in dirty:
                    mark(walk)
                    walk = walk.parent
        stats.iterations = first + count
        stats.max_depth = depths.deepest
        stats.moves += moves
        stats.nodes += made
        self.expanded += nodes
        self._settle(above, dirty, nodes if exact else ())
        self._refresh()
        return stats.iterations

    def _unkeep(self, start: int) -> tuple[list[C], list[Sequence[C]], list[State | None], list[Numbers]]:
        """The expansions kept from ``start`` on (the oldest of those kept are last), out of the journal, the oldest
        first: the nodes, and their children, positions and numbers; their values as leaves back in ``values``."""
        if self._leaf_values:
            leaf_values = self._values[start:]
            del self._values[start:]
            leaf_values.reverse()
            self.values.extend(leaf_values)
        return (
            _taken_out(self._nodes, start),
            _taken_out(self._children, start),
            _taken_out(self._positions, start),
            _taken_out(self._numbers, start),
        )

    def _settle(self, above: tuple[list[C], list[Numbers]] | None, dirty: set[C], given: Sequence[C]) -> None:
        """The numbers above the expansions ``forth`` took again: those ``above`` them (a whole group taken again)
        given back as they were, else every ``dirty`` node that has children rescored, deepest first, but those
        ``given`` their own numbers back."""
        if above is not None:
            give_back = self._give_back
            for node, numbers in zip(*above, strict=True):
                give_back(node, numbers)
            return
        dirty.difference_update(given)
        self._rescored([node for node in sorted(dirty, key=_DEPTH, reverse=True) if node.children])

    def _rescored(self, nodes: list[C]) -> None:
        """``nodes`` (inner nodes, deepest first) rescored from their children."""
        rescore = self._rescore
        for node in nodes:
            rescore(node)

    def nbytes(self) -> int:
        """What the journal holds beyond the tree, in bytes: its lists (those of the expansions taken back when
        they hold any), the numbers kept (a tuple of plain numbers a node: those the node no longer holds), and the
        depth record."""
        size = sys.getsizeof(self.expanded) + sys.getsizeof(self.values) + self._depths.nbytes()
        if not self._nodes:
            return size
        lists = (self._nodes, self._children, self._positions, self._numbers, self._values, self._groups, self._above)
        size += sum(sys.getsizeof(kept) for kept in lists)
        ancestors = [above for above in self._above if above is not None]
        size += sum(sys.getsizeof(nodes) + sys.getsizeof(numbers) for nodes, numbers in ancestors)
        sample = self._numbers[-1]
        each = sys.getsizeof(sample) + sum(sys.getsizeof(x) for x in sample)
        return size + each * (len(self._numbers) + sum(len(nodes) for nodes, _ in ancestors))


def best_first_journal(searcher: BestFirst) -> Expansions[BestFirstNode] | None:
    """Best-first minimax's journal (its entry's ``journal``); ``None`` with a full-width phase (``ab_depth``), whose
    steps are replayed."""
    return None if searcher.ab_depth else Expansions(searcher)


def _taken_out(kept: list[T], start: int) -> list[T]:
    """The entries of ``kept`` from ``start`` on, taken out of it, in the opposite order."""
    part = kept[start:]
    del kept[start:]
    part.reverse()
    return part

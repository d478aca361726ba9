"""The journal of a search that expands one node a step: proof-number search, Rivest's method, best-first minimax.

A node's numbers in these searches are a function of its children's, so a step is taken back by making the node it
expanded a leaf again and rescoring its ancestors from their children, which gives back exactly the numbers they
had; ``Expansions`` does it for many steps at once, each ancestor rescored once.  ``attach`` gives each searcher its
journal with what it needs to know of that search's nodes: how a node is a leaf again, how its numbers are kept as
plain numbers and given back.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, Generic, TypeVar

from plyscope.engine.games.base import State
from plyscope.engine.search.base import NO_CHILDREN, Node, Searcher
from plyscope.engine.search.bestfirst.bestfirst import BestFirst, BestFirstNode
from plyscope.engine.search.bestfirst.pns import PnsNode, ProofNumberSearch
from plyscope.engine.search.bestfirst.rivest import Rivest, RivestNode
from plyscope.engine.search.outcomes import bounds
from plyscope.engine.travel import protocol
from plyscope.engine.travel.protocol import DepthRecord, Travel

C = TypeVar("C", bound=Node)
_DEPTH = attrgetter("depth")


def _one_move_a_child(node: Node, children: int) -> int:
    return children


class Expansions(Travel[Searcher[Any]], Generic[C]):
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
        "_cost",
        "_leaf_values",
        "_depths",
    )

    step_cost = 0.2
    """A step taken back costs about this many steps replayed (measured on Connect Four: about 0.1)."""

    def __init__(
        self,
        searcher: Searcher[Any],
        make_leaf: Callable[[C, float], State | None],
        reattach: Callable[[C, State | None], None],
        keep: Callable[[C], tuple[float | int, ...]],
        give_back: Callable[[C, tuple[float | int, ...]], None],
        rescore: Callable[[C], object],
        refresh: Callable[[], None],
        cost: Callable[[C, int], int] | None = None,
        *,
        leaf_values: bool = True,
    ) -> None:
        """``make_leaf(node, value)``: the node's own numbers as a leaf of that value (its children are taken
        by the journal); returns the position it no longer keeps.  ``reattach(node, position)``: the node
        expanded again (its children are given back), its position given back.  ``keep(node)``: an inner
        node's numbers, as plain numbers (floats, ints: a child as its place among the children), and
        ``give_back(node, numbers)`` them again.  ``rescore(node)``: its numbers from its children.
        ``refresh()``: what the searcher keeps beside its tree (``finished``, a principal variation) brought up to
        date with it.  ``cost(node, children)``: the moves its expansion cost (``None``: one per child)."""
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
        self._refresh = refresh
        self._cost = cost if cost is not None else _one_move_a_child
        self._leaf_values = leaf_values
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
        nodes, lists = self._unkeep(len(kept) - count)
        reattach, give_back, cost = self._reattach, self._give_back, self._cost
        one_a_child = cost is _one_move_a_child
        dirty: set[C] = set()
        mark = dirty.add
        depths = self._depths
        first = stats.iterations
        moves = made = 0
        for index, (node, children, position, numbers) in enumerate(zip(nodes, *lists, strict=True)):
            node.children = children
            reattach(node, position)
            if exact:
                give_back(node, numbers)
            made += len(children)
            moves += len(children) if one_a_child else cost(node, len(children))
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

    def _unkeep(self, start: int) -> tuple[list[C], list[list[Any]]]:
        """The expansions kept from ``start`` on (the oldest of those kept are last), out of the journal, the oldest
        first: the nodes, and their children, positions and numbers; their values as leaves back in ``values``."""
        kept = self._nodes
        nodes = kept[start:]
        del kept[start:]
        nodes.reverse()
        lists: list[list[Any]] = []
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
        return nodes, lists

    def _settle(
        self, above: tuple[list[C], list[tuple[float | int, ...]]] | None, dirty: set[C], given: Sequence[C]
    ) -> None:
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


def pns_journal(searcher: ProofNumberSearch) -> Expansions[PnsNode]:
    """Proof-number search's journal (its entry's ``journal``): its nodes keep no position, nor a value as a leaf."""
    return Expansions(
        searcher,
        _unknown_again,
        _keeps_no_position,
        _pns_kept,
        _pns_given_back,
        searcher.rescore,
        searcher.refresh,
        leaf_values=False,
    )


def rivest_journal(searcher: Rivest) -> Expansions[RivestNode]:
    """Rivest's method's journal (its entry's ``journal``): under Rivest's accounting an expansion also pays the edges
    walked down to it."""
    cost = _one_edge_a_ply if searcher.accounting else None
    return Expansions(
        searcher,
        _tip_again,
        _position_back,
        _rivest_kept,
        _rivest_given_back,
        searcher.rescore,
        searcher.refresh,
        cost,
    )


def best_first_journal(searcher: BestFirst) -> Expansions[BestFirstNode] | None:
    """Best-first minimax's journal (its entry's ``journal``); ``None`` with a full-width phase (``ab_depth``), whose
    steps are replayed."""
    if searcher.ab_depth:
        return None
    return Expansions(
        searcher,
        _leaf_again,
        _position_back,
        _best_first_kept,
        _best_first_given_back,
        searcher.rescore,
        searcher.refresh,
    )


def _position_back(node: RivestNode | BestFirstNode, state: State | None) -> None:
    """Rivest's and best-first's nodes keep their position from their expansion on: given back."""
    node.state = state


def _unknown_again(node: PnsNode, _: float) -> None:
    """A proof-number node an unknown leaf again, ``(1, 1)``, with its intrinsic bounds."""
    node.pn = node.dn = 1
    node.bounds = None


def _keeps_no_position(node: PnsNode, _: State | None) -> None:
    """Proof-number nodes keep no position: nothing to give back."""


def _pns_kept(node: PnsNode) -> tuple[float, float, int, int]:
    """An inner proof-number node's numbers: its proof and disproof numbers, and its bounds."""
    assert node.bounds is not None  # (an inner node's are its children's)
    return (node.pn, node.dn, *node.bounds)


def _pns_given_back(node: PnsNode, kept: tuple[float | int, ...]) -> None:
    """``node``'s numbers as ``_pns_kept`` took them."""
    node.pn, node.dn, lo, hi = kept
    node.bounds = bounds(int(lo), int(hi))


def _tip_again(tip: RivestNode, value: float) -> State | None:
    """``tip`` a tip of Rivest's search of its static (shifted) ``value`` again; the position it no longer keeps (none
    at the root)."""
    tip.v = value
    tip.pi = 0.0
    tip.a = None
    state = tip.state
    if tip.parent is not None:
        tip.state = None
    return state


def _rivest_kept(node: RivestNode) -> tuple[float, float, int]:
    """An inner node's numbers in Rivest's search: ``v``, ``pi`` and the place of ``a`` among the children."""
    return (node.v, node.pi, node.children.index(node.a))


def _rivest_given_back(node: RivestNode, kept: tuple[float | int, ...]) -> None:
    """``node``'s numbers as ``_rivest_kept`` took them."""
    node.v, node.pi, place = kept
    node.a = node.children[int(place)]


def _one_edge_a_ply(tip: RivestNode, children: int) -> int:
    """An expansion's moves under Rivest's accounting: one per child, and one per edge down from the root."""
    return children + tip.depth


def _leaf_again(leaf: BestFirstNode, value: float) -> State | None:
    """``leaf`` a leaf of best-first minimax of its static ``value`` again; the position it no longer keeps (none at
    the root)."""
    leaf.best = None
    leaf.v = value
    leaf.bounds = None
    state = leaf.state
    if leaf.parent is not None:
        leaf.state = None
    return state


def _best_first_kept(node: BestFirstNode) -> tuple[float, int, int, int]:
    """An inner best-first node's numbers: its value, the place of its principal child, its bounds."""
    assert node.bounds is not None  # (an inner node's are its children's)
    return (node.v, node.children.index(node.best), *node.bounds)


def _best_first_given_back(node: BestFirstNode, kept: tuple[float | int, ...]) -> None:
    """``node``'s numbers as ``_best_first_kept`` took them."""
    node.v, place, lo, hi = kept
    node.best = node.children[int(place)]
    node.bounds = bounds(int(lo), int(hi))

"""The journal of Monte Carlo tree search and flat Monte Carlo, to go back and forth along their timeline in place.

Every random number these searches draw (tree choices, plain playouts and numpy batches alike) comes from one
``RandomStream`` (``plyscope.engine.search.stream``), whose whole state is a position in a seeded sequence.  So the
journal keeps, per step, the node it scored, the result it backed up (in halves, an integer), whether it added that
node and ran playouts, the untried move's place, its playout moves and its draws (a reference and about 6 bytes), and
from these takes many steps back at once: the nodes they added taken off, their sums taken off the nodes kept once each,
deepest first, the stream sought back (see ``_take_back``); and again the other way (``_take_again``).
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from operator import attrgetter

from plyscope.engine.collector import cyclic_gc_paused
from plyscope.engine.games.base import Move
from plyscope.engine.search.base import NO_CHILDREN, Stats
from plyscope.engine.search.montecarlo.mcts import MctsNode, MonteCarloTreeSearch
from plyscope.engine.travel import protocol
from plyscope.engine.travel.protocol import DepthRecord, Travel

GROWN = 1
PLAYED = 2
"""Flags of a step in ``MonteCarloJournal._kinds``: it added its leaf; it ran playouts (its game was not over)."""

STEP_COST = 0.05
"""What taking one step back or again in a batch costs against a step taken on the fast path: measured at
0.02-0.035 (1 us against 18-50 us on Connect Four, with chance and Nim; less with k > 1, whose steps run more
playouts), 0.06 through the explorer's session."""

_WIDER = {"B": "H", "H": "I", "I": "Q"}


def _widened(values: array[int], length: int, value: int) -> array[int]:
    """``values`` holding ``length`` entries, ``value`` the last: appended if it is not yet, to a copy of wider
    items if it does not fit."""
    while len(values) < length:
        try:
            values.append(value)
        except OverflowError:
            values = array(_WIDER[values.typecode], values)
    return values


def _gather(sums: dict[MctsNode, list[int]], node: MctsNode, visits: int, halves: int) -> None:
    """Add ``visits`` and ``halves`` (a total in halves) to what ``sums`` holds for ``node`` (going back or
    forth: the numbers to take off or give back once per node)."""
    entry = sums.get(node)
    if entry is None:
        sums[node] = [visits, halves]
    else:
        entry[0] += visits
        entry[1] += halves


def _take_off(leaves: list[MctsNode], kinds: array[int], places: array[int]) -> tuple[list[MctsNode], int, int]:
    """The tree of ``_take_back``: the leaves that steps (their ``leaves``, ``kinds`` and ``places`` in the journal,
    the newest first) added taken off their parents, each move put back in its place in the untried moves (the
    swap ``_expand`` made, undone), each leaf's visits negated; the parents left without children, how many leaves
    were taken off, and how many steps ran playouts (times ``PLAYED``)."""
    emptied = []
    grown = played = 0
    for leaf, kind, place in zip(leaves, kinds, places, strict=True):
        played += kind & PLAYED
        if kind & GROWN:
            grown += 1
            leaf.visits = -leaf.visits
            parent = leaf.parent
            assert parent is not None
            children = parent.children
            assert isinstance(children, list) and children[-1] is leaf
            children.pop()
            untried = parent.untried
            if untried is not None:  # the move back where it was: the swap with the last one undone
                if place == len(untried):
                    untried.append(leaf.move)
                else:
                    untried.append(untried[place])
                    untried[place] = leaf.move
            if not children:
                emptied.append(parent)
    return emptied, grown, played


def _sums_taken_back(leaves: list[MctsNode], kinds: array[int], k: int) -> dict[MctsNode, list[int]]:
    """The numbers of ``_take_back``, once the leaves are off (``_take_off``): what the kept parent of each leaf
    taken off loses (all its subtree gathered) and what a kept finished game reached again loses (its steps'
    results, ``k`` playouts each), by node; the leaves taken off left with no visits."""
    sums: dict[MctsNode, list[int]] = {}
    for leaf, kind in zip(leaves, kinds, strict=True):
        if kind & GROWN:
            parent = leaf.parent
            assert parent is not None
            if parent.visits > 0:  # kept: it loses what the leaf's subtree gathered
                visits = -leaf.visits
                half = int(2 * leaf.total)
                if parent.untried is not None:  # (not a chance node: the other player's point of view)
                    half = 2 * visits - half
                _gather(sums, parent, visits, half)
            leaf.visits = 0
            leaf.total = 0.0
        elif leaf.visits > 0:  # a kept finished game reached again
            _gather(sums, leaf, k, kind >> 2)
    return sums


def _sums_taken_again(leaves: list[MctsNode], kinds: array[int], k: int) -> dict[MctsNode, list[int]]:
    """The numbers of ``_take_again``, once the leaves are back (``_put_back``), the newest step first: each leaf
    put back gathers its subtree's sums in its own numbers (visits negated, from -1) until the step that made it,
    and passes them on to its parent from there; what the nodes kept gain, by node."""
    sums: dict[MctsNode, list[int]] = {}
    for leaf, kind in zip(leaves, kinds, strict=True):
        if kind & GROWN:
            visits = leaf.visits = k - 1 - leaf.visits
            total = leaf.total = leaf.total + 0.5 * (kind >> 2)
            parent = leaf.parent
            assert parent is not None
            if parent.untried is not None:  # (not a chance node: the other player's point of view)
                total = visits - total
            if parent.visits < 0:  # put back by an older step
                parent.visits -= visits
                parent.total += total
            else:
                _gather(sums, parent, visits, int(2 * total))
        elif leaf.visits < 0:  # a finished game put back, reached again
            leaf.visits -= k
            leaf.total += 0.5 * (kind >> 2)
        else:
            _gather(sums, leaf, k, kind >> 2)
    return sums


class MonteCarloJournal(Travel[MonteCarloTreeSearch]):
    """A Monte Carlo search's steps, a few bytes each, to take them back and again in place (see the module)."""

    def __init__(self, searcher: MonteCarloTreeSearch) -> None:
        super().__init__(searcher)
        stats = searcher.stats
        self._draws = array("H")
        """The journal, one entry a step, in order: the draws each step took from the stream (widened to ``Q`` if
        one takes more than 65,535)..."""
        self._leaves: list[MctsNode] = []
        """...the node each step scored (the one it added, if it added one)..."""
        most = (2 * searcher.k) << 2 | GROWN | PLAYED
        self._kinds = array("B" if most < 1 << 8 else "H" if most < 1 << 16 else "I")
        """...twice the result it backed up (for the leaf's mover) shifted left by two, ``| GROWN`` if it added the
        leaf, ``| PLAYED`` if it ran playouts (the leaf's game was not over)..."""
        self._places = array("B")
        """...the index in its parent's untried moves of the move it expanded (0 if none; widened if need be)..."""
        self._played = array("H")
        """...and the moves its playouts made (widened if need be)."""
        self._drawn = searcher.stream.position
        """The stream's position after the step shown: where the next one starts drawing."""
        self._playouts = (stats.playouts, stats.playout_moves)
        """The stats' playouts and playout moves after the step shown."""
        self._proof_steps = array("Q")
        """The steps whose ``_prove`` proved nodes (MCTS-Solver), in order..."""
        self._proof_counts = array("I")
        """...and how many each proved: the leaf's parent and that many - 1 of its ancestors."""
        self._first_untried: dict[MctsNode, list[Move]] = {}
        """The untried moves of nodes whose first expansion was taken back (``back``), as that expansion found
        them, for ``forth`` to take it again."""
        self._depths = DepthRecord(stats.max_depth)

    def record(self, leaf: MctsNode, reward: float, grown: bool, place: int, proved: int) -> None:
        """The step under way scored ``leaf`` (added, if ``grown``, as the move at ``place`` of its parent's untried
        ones), backing up ``reward`` (for the leaf's mover), and its proof changed the bounds of ``proved`` nodes
        (called before the stats count the step; a step taken anew drops the steps taken back)."""
        searcher = self.searcher
        stats = searcher.stats
        index = stats.iterations
        if len(self._leaves) > index:
            self._forget(index)
        if proved:
            self._proof_steps.append(index)
            self._proof_counts.append(proved)
        playouts, playout_moves = self._playouts
        self._playouts = (stats.playouts, stats.playout_moves)
        played = stats.playout_moves - playout_moves
        start, self._drawn = self._drawn, searcher.stream.position
        if stats.max_depth > self._depths.deepest:
            self._depths.note(index, stats.max_depth)
        self._leaves.append(leaf)
        self._kinds.append(
            int(2 * reward) << 2 | (GROWN if grown else 0) | (PLAYED if stats.playouts != playouts else 0)
        )
        try:
            self._draws.append(self._drawn - start)
            self._places.append(place)
            self._played.append(played)
        except OverflowError:
            self._draws, self._places, self._played = (
                _widened(self._draws, len(self._leaves), self._drawn - start),
                _widened(self._places, len(self._leaves), place),
                _widened(self._played, len(self._leaves), played),
            )

    def _counted(self, stats: Stats) -> None:
        """Note the stats' playouts as they are after the step shown."""
        self._playouts = (stats.playouts, stats.playout_moves)

    def cost(self, step: int) -> float:
        """Steps taken back in a batch cost about ``STEP_COST`` of a step each."""
        return max(0, self.searcher.stats.iterations - step) * STEP_COST

    def back(self, step: int) -> int:
        """Take the steps after ``step`` back, the newest first, at most ``REWIND_SLICE`` a call (``_take_back``);
        they are kept to be taken again (``forth``) until a step is taken anew."""
        now = self.searcher.stats.iterations
        back = max(step, now - protocol.REWIND_SLICE, 0)
        if back < now:
            with cyclic_gc_paused():
                self._take_back(back, now)
        return min(back, now)

    def forth(self, step: int) -> int:
        """Take the steps taken back again toward ``step``, the oldest first, at most ``REWIND_SLICE`` a call
        (``_take_again``); with none kept, run on."""
        now = self.searcher.stats.iterations
        kept = len(self._leaves)
        if kept <= now:
            return super().forth(step)
        ahead = min(step, kept, now + protocol.REWIND_SLICE)
        if ahead > now:
            with cyclic_gc_paused():
                self._take_again(now, ahead)
        return max(ahead, now)

    def _take_back(self, back: int, now: int) -> None:
        """Take steps ``back`` to ``now - 1`` (the steps shown since step ``back``) back, exactly, from the journal.

        The tree first, the newest step first: the leaves the steps added are taken off their parents, each move
        put back in its place in the untried moves (the swap ``_expand`` made, undone); a node left without
        children loses its untried list (``_first_untried`` keeps it for ``redo``).  Each leaf taken off has its
        visits negated, to tell it from the nodes kept (which have visits).

        Then the numbers, once a node: a node taken off has, in its numbers, all that the steps gathered in its
        subtree (it was made by one of them), so the topmost ones pass their numbers on to their parent, which
        is kept; a kept leaf reached again (a finished game) has its steps' results summed.  These sums are taken
        off the kept nodes deepest first, each passing its sums on to its parent (``_add``); the nodes taken off
        are set back to no visits, as their expansion will find them again (``_take_again``).  Results are
        journaled as integer halves and totals are sums of halves, so every float comes back exactly.

        Last, the bounds the steps changed are backed up again from the children kept (``_rebound``), the stream
        is sought to where step ``back`` left it, and the stats are taken back by the steps' sums.
        """
        searcher = self.searcher
        k = searcher.k
        newest_first = slice(now - 1, back - 1 if back else None, -1)
        leaves, kinds = self._leaves[newest_first], self._kinds[newest_first]
        emptied, grown, played = _take_off(leaves, kinds, self._places[newest_first])
        # (taken off before the nodes emptied lose their untried lists: ``_add`` tells chance nodes by them)
        self._add(_sums_taken_back(leaves, kinds, k), -1)
        first = self._first_untried
        for parent in emptied:
            parent.children = NO_CHILDREN
            if parent.untried is not None:
                first[parent] = parent.untried
                parent.untried = None
        self._rebound(back, now)
        stats = searcher.stats
        stats.moves -= now - back
        stats.nodes -= grown
        stats.playouts -= k * (played // PLAYED)
        stats.playout_moves -= sum(self._played[back:now])
        self._drawn -= sum(self._draws[back:now])
        searcher.stream.seek(self._drawn)
        stats.iterations = back
        stats.max_depth = self._depths.back(back)
        self._counted(stats)
        searcher.refresh()

    def _take_again(self, now: int, ahead: int) -> None:
        """Take the steps ``now`` to ``ahead - 1``, taken back and kept, again, exactly: ``_take_back`` run
        backwards.  The tree first, the oldest step first (each leaf put back, the same swap made in its parent's
        untried moves); each leaf put back is marked with -1 visits.  Then the numbers, the newest step first, so
        that every node put back has all its subtree's sums by the step that made it: gathered in its own numbers
        (visits negated, from -1) until then, and passed on to its parent from there; the nodes kept gather their
        sums apart, and ``_add`` adds them."""
        searcher = self.searcher
        k = searcher.k
        stats = searcher.stats
        journal = slice(now, ahead)
        leaves, kinds = self._leaves[journal], self._kinds[journal]
        grown, played = self._put_back(now, leaves, kinds, self._places[journal])
        leaves.reverse()
        self._add(_sums_taken_again(leaves, kinds[::-1], k), 1)
        if not self._first_untried:  # (a dict emptied keeps its table)
            self._first_untried = {}
        self._rebound(now, ahead)
        stats.moves += ahead - now
        stats.nodes += grown
        stats.playouts += k * (played // PLAYED)
        stats.playout_moves += sum(self._played[now:ahead])
        self._drawn += sum(self._draws[now:ahead])
        searcher.stream.seek(self._drawn)
        stats.iterations = ahead
        stats.max_depth = self._depths.deepest
        self._counted(stats)
        searcher.refresh()

    def _put_back(self, now: int, leaves: list[MctsNode], kinds: array[int], places: array[int]) -> tuple[int, int]:
        """The tree of ``_take_again``: the leaves that the steps from ``now`` on (their ``leaves``, ``kinds`` and
        ``places`` in the journal) added put back, the oldest first, each marked with -1 visits (the same swap made
        in its parent's untried moves; a parent's first expansion finds its untried list again), the depths they
        reach noted; how many leaves they added, and how many ran playouts (times ``PLAYED``)."""
        depths = self._depths
        first = self._first_untried
        grown = played = 0
        for at, (leaf, kind, place) in enumerate(zip(leaves, kinds, places, strict=True), now):
            played += kind & PLAYED
            if kind & GROWN:
                grown += 1
                leaf.visits = -1
                parent = leaf.parent
                assert parent is not None
                untried = parent.untried
                if untried is None and not parent.children:
                    untried = parent.untried = first.pop(parent, None)  # (None: a chance node)
                if untried is not None:
                    untried[place], untried[-1] = untried[-1], untried[place]
                    untried.pop()
                parent.add_child(leaf)
                if leaf.depth > depths.deepest:
                    depths.note(at, leaf.depth)
        return grown, played

    @staticmethod
    def _add(sums: dict[MctsNode, list[int]], sign: int) -> None:
        """Add (``sign`` 1) or take off (-1) ``sums`` (visits, and halves of results for each node's mover) at their
        nodes and at all their ancestors: the deepest first, each node's sums passed on to its parent, seen from
        the parent's mover (the same below a chance node, whose ``untried`` is ``None``; else the other player's:
        ``2 v - h`` halves of ``v`` visits)."""
        if not sums:
            return
        levels: list[list[MctsNode]] = [[] for _ in range(1 + max(node.depth for node in sums))]
        for node in sums:
            levels[node.depth].append(node)
        for depth in range(len(levels) - 1, -1, -1):
            above = levels[depth - 1] if depth else []
            for node in levels[depth]:
                count, half = sums[node]
                node.visits += sign * count
                node.total += sign * 0.5 * half
                parent = node.parent
                if parent is None:
                    continue
                if parent.untried is not None:
                    half = 2 * count - half
                entry = sums.get(parent)
                if entry is None:
                    sums[parent] = [count, half]
                    above.append(parent)
                else:
                    entry[0] += count
                    entry[1] += half

    def _rebound(self, first: int, last: int) -> None:
        """Back up again, deepest first, the bounds that steps ``first`` to ``last - 1`` changed, after the tree
        went back or forth over them: a node's bounds are a function of its children's (``backed_bounds``), its
        intrinsic ones (``None``) if it has none (a finished game's, exact, are its own and never change)."""
        backed = self.searcher.backed_bounds
        changed: set[MctsNode] = set()
        for proved, count in self._proofs(first, last):
            node: MctsNode | None = proved
            for _ in range(count):
                assert node is not None
                node = node.parent
                assert node is not None
                changed.add(node)
        for node in sorted(changed, key=attrgetter("depth"), reverse=True):
            node.bounds = backed(node) if node.children else None

    def _proofs(self, first: int, last: int) -> list[tuple[MctsNode, int]]:
        """The leaf of each step from ``first`` to ``last - 1`` that proved nodes, and how many it proved, in order."""
        steps = self._proof_steps
        lo, hi = bisect_left(steps, first), bisect_left(steps, last)
        leaves = self._leaves
        return [(leaves[steps[at]], self._proof_counts[at]) for at in range(lo, hi)]

    def _forget(self, now: int) -> None:
        """A step taken anew after step ``now``: the steps taken back are no longer kept to be taken again."""
        for journal in (self._leaves, self._kinds, self._draws, self._places, self._played):
            del journal[now:]
        cut = bisect_left(self._proof_steps, now)
        del self._proof_steps[cut:]
        del self._proof_counts[cut:]
        self._first_untried = {}

    def nbytes(self) -> int:
        """The journal: a few bytes and a reference a step, and the depth record."""
        arrays = (self._draws, self._kinds, self._places, self._played, self._proof_steps, self._proof_counts)
        kept = sys.getsizeof(self._leaves) + sys.getsizeof(self._first_untried) + self._depths.nbytes()
        return sum(len(a) * a.itemsize for a in arrays) + kept

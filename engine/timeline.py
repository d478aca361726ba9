"""A search's timeline: one compact event per step (``plyscope.engine.travel`` takes the search to any of them).

Every searcher is deterministic for its seed, and ``run`` visits exactly what ``step``
visits, so the tree after step ``k`` is rebuilt exactly by a fresh searcher run for ``k``
steps.  A ``Timeline`` therefore keeps no copy of any tree: only what the UI needs to draw
the timeline without a rebuild (each step's best move and root value, for the markers
where the best move changed and for the root value's sparkline) and what a saved search
shows of each step (the node acted on, as its moves from the root; how many children it
added and how many nodes it changed; which nodes the tree pane marks as changed by it, so that
a step gone back to is marked as it was when taken).  A step costs about 20 bytes here (a byte
per move of its path, more only in games of more than 256 moves, and two bits per node of
it), against hundreds to thousands of bytes of tree.

Step numbers count steps taken: step 0 is the fresh searcher, step ``k`` the tree after ``k``
steps; event ``i`` (0-based) describes step ``i + 1``.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass

from plyscope.engine.search.base import Node, Searcher, Step

_WIDER = {"B": "H", "H": "I"}
"""The next wider type of an unsigned integer array, up to ``I`` (4 bytes)."""


def _appended(values: array[int], value: int) -> array[int]:
    """``values`` with ``value`` appended: the same array, or a copy in a wider type when it did not fit.

    ``OverflowError`` (as from ``array.append``) for a negative value or one past 4 bytes."""
    while True:
        try:
            values.append(value)
            return values
        except OverflowError:
            if value < 0 or values.typecode not in _WIDER:
                raise
            values = array(_WIDER[values.typecode], values)


@dataclass(frozen=True, slots=True)
class Event:
    """What one step did, as the timeline keeps it."""

    step: int
    """The step's number (1 for the first)."""
    path: tuple[Hashable, ...]
    """The moves from the root to the node acted on."""
    added: int
    """Children the step created."""
    changed: int
    """Nodes whose numbers the step changed (the new children included)."""
    best: Hashable | None
    """The searcher's best move after the step (``None``: none yet)."""
    value: float
    """The root value after the step, from the first player's point of view."""
    marks: int = 0
    """The nodes the step changed (``Step.changed``, and the node acted on), as the tree pane marks them: two
    bits per node of ``path`` (the root's lowest), the first for that node, the second for all its children
    off the path (see ``step_marks``)."""


def step_marks(step: Step[Node]) -> int:
    """The nodes ``step`` acted on or changed, as ``Event.marks``: each is a node of the path to ``step.node``
    or a child of one, and where it is a child, all the children of that node off the path changed (so it
    is for every searcher registered: their tests check it; another child would be left unmarked)."""
    line = step.node.path()
    depth_of: dict[Node | None, int] = {node: depth for depth, node in enumerate(line)}  # (nodes hash by identity)
    marked = dict.fromkeys(step.changed)
    marked[step.node] = None
    marks = 0
    off_path: dict[int, int] = {}  # per depth, the changed children of the path's node there, off the path
    for node in marked:
        depth = depth_of.get(node)
        if depth is not None:
            marks |= 1 << 2 * depth
        elif (above := depth_of.get(node.parent)) is not None:
            off_path[above] = off_path.get(above, 0) + 1
    last = len(line) - 1
    for depth, count in off_path.items():
        if count == len(line[depth].children) - (depth < last):
            marks |= 2 << 2 * depth
    return marks


class Timeline:
    """The events of one search's steps, in compact arrays (no tree nodes are kept)."""

    def __init__(self) -> None:
        self._moves: list[Hashable] = []
        """Every distinct move seen, by code (a few dozen at most: a game's moves)."""
        self._codes: dict[Hashable, int] = {}
        self._path_codes = array("B")
        """Every event's path, move codes end to end (one byte each until a game has more than 256 moves)."""
        self._path_ends = array("I")
        """Where each event's path ends in ``_path_codes``."""
        self._added = array("B")
        self._changed = array("B")
        """Children added and nodes changed by each step (arrays made wider when a count does not fit)."""
        self._best = array("b")
        """Each step's best move, as a code (-1: none)."""
        self._marks = bytearray()
        """Every event's marks (``Event.marks``), bits end to end: ``2 * (len(path) + 1)`` for each (so event
        ``i``'s begin at bit ``2 * (i + its path's start in _path_codes)``)."""
        self._values = array("d")
        self._changes: list[int] = []
        """The steps after which the best move differs from the step before."""

    def __len__(self) -> int:
        return len(self._values)

    def _code(self, move: Hashable | None) -> int:
        if move is None:
            return -1
        code = self._codes.get(move)
        if code is None:
            code = self._codes[move] = len(self._moves)
            self._moves.append(move)
        return code

    def record(self, step: Step[Node], best: Hashable | None, value: float) -> None:
        """Note the step just taken, with the searcher's best move and root value after it."""
        node: Node | None = step.node
        moves: list[Hashable] = []
        while node is not None and node.move is not None:
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        marks = step_marks(step)
        self.append(Event(len(self) + 1, tuple(moves), len(step.added), len(step.changed), best, value, marks))

    def append(self, event: Event) -> None:
        """Add ``event`` as the next step (its ``step`` number is not checked)."""
        codes = [self._code(move) for move in event.path]
        self._put_marks(2 * (len(self._path_codes) + len(self)), event.marks, len(codes) + 1)
        code = self._code(event.best)
        known = len(self._moves)  # codes past what a byte holds: wider arrays
        if known > 0x80 and self._best.typecode == "b":
            self._best = array("h", self._best)
        if known > 0x100 and self._path_codes.typecode == "B":
            self._path_codes = array("H", self._path_codes)
        self._path_codes.extend(codes)
        self._path_ends.append(len(self._path_codes))
        self._added = _appended(self._added, event.added)
        self._changed = _appended(self._changed, event.changed)
        if code >= 0 and code != (self._best[-1] if self._best else -1):
            self._changes.append(len(self._best) + 1)
        self._best.append(code)
        self._values.append(event.value)

    def _put_marks(self, start: int, marks: int, nodes: int) -> None:
        """Write an event's ``marks`` for a path of ``nodes`` nodes from bit ``start``, the end of ``_marks``."""
        bits = 2 * nodes
        shift = start & 7
        chunk = ((marks & ((1 << bits) - 1)) << shift).to_bytes((shift + bits + 7) >> 3, "little")
        if shift:
            self._marks[-1] |= chunk[0]
            self._marks += chunk[1:]
        else:
            self._marks += chunk

    @classmethod
    def from_columns(
        cls,
        paths: Sequence[tuple[Hashable, ...]],
        added: Sequence[int],
        changed: Sequence[int],
        best: Sequence[Hashable | None],
        values: Sequence[float],
        marks: Sequence[int] | None = None,
    ) -> Timeline:
        """The timeline of events given field by field (step ``i + 1`` from index ``i`` of each), as ``append``
        would make it one event at a time, but in bulk (a saved search of 100,000 steps read back); without
        ``marks`` no step marks a node.

        ``OverflowError`` for a count that is negative or past 4 bytes."""
        timeline = cls()
        code = timeline._code
        for move in set().union(*paths):
            code(move)
        lookup = timeline._codes.__getitem__
        codes: list[int] = []
        ends: list[int] = []
        for path in paths:
            codes.extend(map(lookup, path))
            ends.append(len(codes))
        best_codes = [code(move) for move in best]
        known = len(timeline._moves)
        timeline._path_codes = array("B" if known <= 0x100 else "H", codes)
        timeline._path_ends = array("I", ends)
        start = 0
        for path, mark in zip(paths, marks if marks is not None else [0] * len(paths), strict=True):
            timeline._put_marks(start, mark, len(path) + 1)
            start += 2 * (len(path) + 1)
        for name in ("_added", "_changed"):
            counts = added if name == "_added" else changed
            typecode = "B"
            while True:
                try:
                    setattr(timeline, name, array(typecode, counts))
                    break
                except OverflowError:
                    if typecode not in _WIDER or (counts and min(counts) < 0):
                        raise
                    typecode = _WIDER[typecode]
        timeline._best = array("b" if known <= 0x80 else "h", best_codes)
        timeline._values = array("d", values)
        before = -1
        for step, current in enumerate(best_codes, start=1):
            if current >= 0 and current != before:
                timeline._changes.append(step)
            before = current
        return timeline

    def upto(self, steps: int) -> Timeline:
        """A timeline of the first ``steps`` events only."""
        shorter = Timeline()
        for index in range(min(steps, len(self))):
            shorter.append(self.event(index))
        return shorter

    def event(self, index: int) -> Event:
        """Event ``index`` (0-based: step ``index + 1``)."""
        start = self._path_ends[index - 1] if index else 0
        path = tuple(self._moves[code] for code in self._path_codes[start : self._path_ends[index]])
        first = 2 * (start + index)
        bits = 2 * (len(path) + 1)
        marks = int.from_bytes(self._marks[first >> 3 : (first + bits + 7) >> 3], "little") >> (first & 7)
        return Event(
            index + 1,
            path,
            self._added[index],
            self._changed[index],
            self.best(index + 1),
            self._values[index],
            marks & ((1 << bits) - 1),
        )

    def marked(self, searcher: Searcher[Node]) -> Step[Node] | None:
        """The step that made ``searcher``'s tree (its step ``stats.iterations``, one of this timeline's) as the
        tree pane marks it: the path to the node it acted on, that node, and the nodes it changed, found in
        that tree from the event's moves and marks; ``None`` at step 0.  So a step gone back to, or a saved
        search's, is marked as the live search marked it."""
        step = searcher.stats.iterations
        if not 0 < step <= len(self):
            return None
        event = self.event(step - 1)
        path = searcher.nodes_along(event.path)
        whole = len(path) == len(event.path) + 1  # (else a damaged saved tree: its last node's children unmarked)
        changed: list[Node] = []
        for depth, node in enumerate(path):
            if event.marks >> 2 * depth & 1:
                changed.append(node)
            if event.marks >> 2 * depth & 2 and (whole or depth + 1 < len(path)):
                on_path = path[depth + 1] if depth + 1 < len(path) else None
                changed.extend(child for child in node.children if child is not on_path)
        return Step(path=tuple(path), node=path[-1], changed=tuple(changed))

    def events(self) -> Iterator[Event]:
        return (self.event(index) for index in range(len(self)))

    def best(self, step: int) -> Hashable | None:
        """The best move after ``step`` (``None`` at step 0, or while the searcher had none)."""
        code = self._best[step - 1] if step > 0 else -1
        return None if code < 0 else self._moves[code]

    def value(self, step: int) -> float | None:
        """The root value after ``step`` (``None`` at step 0: the fresh searcher's is not recorded)."""
        return self._values[step - 1] if step > 0 else None

    def values(self, steps: int) -> array[float]:
        """The root values after steps 1 to ``steps``."""
        return self._values[:steps]

    def best_changes(self) -> list[int]:
        """The steps after which the best move differs from the step before (the first best move included)."""
        return self._changes

    def nbytes(self) -> int:
        """The memory the events take, in bytes (the arrays' contents and the change list)."""
        arrays = (self._path_codes, self._path_ends, self._added, self._changed, self._best, self._values)
        return sum(len(a) * a.itemsize for a in arrays) + len(self._marks) + 8 * len(self._changes)


def recorded(make: Callable[[], Searcher[Node]], steps: int) -> tuple[Searcher[Node], Timeline]:
    """A fresh searcher from ``make`` stepped ``steps`` times (fewer if it finishes), with its timeline."""
    searcher = make()
    timeline = Timeline()
    while searcher.stats.iterations < steps:
        step = searcher.step()
        if step is None:
            break
        timeline.record(step, searcher.best_move(), searcher.value().first())
    return searcher, timeline

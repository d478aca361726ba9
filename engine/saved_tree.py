"""A saved search's tree shown as it was saved, while the search itself is rebuilt.

Rebuilding a saved search replays it at search speed: several seconds for 100,000 steps of
Rivest's method.  ``SavedTree`` lets the explorer open at the file's last step at once: it is
a read-only ``Searcher`` over the file's rows (``[depth, move, {name: number}]``, depth first)
whose nodes are made only when the tree pane opens their parent, as the pane shows only
what is visible.  It takes no step (``_advance`` does nothing); the session swaps in the
rebuilt searcher, checked against these very rows, as soon as the rebuild is done.

A damaged row never reaches the screen as an exception: a child whose move is not legal in
its parent's position, or whose row is not ``[depth, move, {...}]``, is left out, and the
rebuild's check says the file differs.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING, Self

from plyscope.engine.games.base import Move, State
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import Node, Searcher, Step, Taken

if TYPE_CHECKING:
    from plyscope.engine.search_file import SavedSearch

Number = float | int | str | None
_SPECIAL = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


class SavedNode(Node):
    """A node of a saved tree: row ``row`` of the file; its children are made when first asked for."""

    __slots__ = ("_children", "_row", "_tree")

    def __init__(self, tree: SavedTree, row: int, parent: Self | None, move: Move | None) -> None:
        self.parent = parent
        self.move = move
        self.depth = 0 if parent is None else parent.depth + 1
        self._tree = tree
        self._row = row
        self._children: list[SavedNode] | None = None

    @property
    def children(self) -> Sequence[SavedNode]:
        if self._children is None:
            self._children = self._tree.children_of(self, self._row)
        return self._children

    @children.setter
    def children(self, children: Sequence[SavedNode]) -> None:
        self._children = list(children)

    def numbers(self) -> dict[str, Number]:
        return self._tree.numbers_of(self._row)

    def work(self) -> float:
        return self._tree.work_of(self._row, self)

    @property
    def cut_off(self) -> bool:
        """Whether the row's ``pruned`` (alpha-beta's and expectiminimax's children left out by a cut-off) is
        more than 0."""
        pruned = self._tree.numbers_of(self._row).get("pruned")
        return type(pruned) is int and pruned > 0


class SavedTree(Searcher[SavedNode]):
    """The tree of ``saved`` at its last step, read-only (see the module): stats, best move, value and
    principal variation as the file gives them."""

    name = "saved"
    description = "a saved search's tree, as saved"

    def __init__(self, saved: SavedSearch, state: State, evaluator: Evaluator | None) -> None:
        super().__init__(state)
        self.saved = saved
        self.evaluator = evaluator
        self.finished = saved.finished
        self.stats = saved.stats
        import numpy as np  # where it is used: the explorer starts without it (about 0.15 s of CPU a session)

        self._rows = saved.tree
        depths = np.asarray(saved.depths, dtype=np.int64)
        self._levels: list[list[int]] = [np.flatnonzero(depths == d).tolist() for d in range(int(depths.max()) + 1)]
        """The rows at each depth, in file order (for the children of a row: those one deeper before its end)."""
        self.root = SavedNode(self, 0, None, None)
        self._path = self.nodes_along(saved.principal_variation)

    # ------------------------------------------------------------------ the tree, read lazily

    def _end(self, row: int, depth: int) -> int:
        """The first row after ``row``'s subtree: the next row at ``depth`` or shallower."""
        end = len(self._rows)
        for level in self._levels[: depth + 1]:
            index = bisect_right(level, row)
            if index < len(level) and level[index] < end:
                end = level[index]
        return end

    def children_of(self, node: SavedNode, row: int) -> list[SavedNode]:
        """The children of ``node`` (row ``row``), in file order: legal moves on well-formed rows only."""
        depth = node.depth
        if depth + 1 >= len(self._levels):
            return []
        level = self._levels[depth + 1]
        rows = level[bisect_right(level, row) : bisect_left(level, self._end(row, depth))]
        if not rows:
            return []
        state = self.state_at(node)
        legal = () if state.is_terminal() else state.legal_moves()
        children = []
        for index in rows:
            entry = self._rows[index]
            if type(entry) is not list or len(entry) != 3 or type(entry[2]) is not dict:
                continue
            move = tuple(entry[1]) if isinstance(entry[1], list) else entry[1]
            if move in legal:
                children.append(SavedNode(self, index, node, move))
        return children

    def numbers_of(self, row: int) -> dict[str, Number]:
        """Row ``row``'s numbers, with ``"inf"``, ``"-inf"`` and ``"nan"`` made floats again and anything that
        is not a number or a word left out."""
        entry = self._rows[row]
        saved = entry[2] if type(entry) is list and len(entry) == 3 else None
        numbers: dict[str, Number] = {}
        if not isinstance(saved, dict):
            return numbers
        for name, value in saved.items():
            if isinstance(value, str):
                numbers[name] = _SPECIAL.get(value, value[:20])
            elif value is None or type(value) in (int, float):
                numbers[name] = value
        return numbers

    def work_of(self, row: int, node: SavedNode) -> float:
        """Row ``row``'s measure of work as saved (the children shown, for a file without one)."""
        work = self.saved.work
        value = work[row] if work is not None and row < len(work) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        return float(len(node.children))

    # ------------------------------------------------------------------ the searcher's answers, as saved

    def _advance(self, record: bool, moves_left: int | None) -> Step[SavedNode] | Taken | None:
        return None

    def best_move(self) -> Move | None:
        return self.saved.best_move

    def value(self) -> PovScore[float]:
        return self.scored(self.saved.value)

    def principal_path(self) -> list[SavedNode]:
        """The saved principal variation's nodes, as far as the saved tree holds them (alpha-beta's line may run
        through an earlier iteration's tree)."""
        return self._path

    def principal_variation(self) -> list[Move]:
        return list(self.saved.principal_variation)

"""Two search trees side by side, node by node: what ``plyscope diff A.json B.json`` prints.

Nodes are aligned by their move path from the root (the root's is empty).  A node is in one
tree only, or in both with different numbers (each search's own, in its own units: values,
visits, bounds...) or a different measure of work (``Node.work``); the diff lists those, and
where the two principal variations part.  The trees are a saved search's rows
(``plyscope.engine.search_file``: ``[depth, move, {name: number}]``, depth first), read
without rebuilding either search.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from plyscope.engine.errors import UserError
from plyscope.engine.games import State
from plyscope.engine.search.base import Node, Searcher
from plyscope.engine.search_file import SavedSearch

Path = tuple[Hashable, ...]
"""The moves from the root to a node (the engine's own moves: a column, a ``(pile, part)`` pair)."""
Entry = tuple[dict[str, object], object]
"""A node's numbers (by name) and its work (``None`` where the file has none)."""


class DiffError(UserError):
    """Two searches that cannot be lined up (different games or root positions); the message says why."""


def _move(move: object) -> Hashable:
    """A move as read from JSON, hashable: a Nim move's list becomes a tuple."""
    return tuple(move) if isinstance(move, list) else move


def nodes_by_path(saved: SavedSearch) -> dict[Path, Entry]:
    """Every node of ``saved``'s tree by its move path, with its numbers and work."""
    found: dict[Path, Entry] = {}
    line: list[Hashable] = []
    work = saved.work
    for index, (depth, row) in enumerate(zip(saved.depths, saved.tree, strict=True)):
        _, move, numbers = row  # checked when read: a depth, a move and a dict per row
        del line[max(depth - 1, 0) :]
        if depth > 0:
            line.append(_move(move))
        found[tuple(line)] = (numbers if isinstance(numbers, dict) else {}, None if work is None else work[index])
    return found


@dataclass(frozen=True, slots=True)
class Changed:
    """A node in both trees whose numbers or work differ."""

    path: Path
    a: Entry
    b: Entry


@dataclass(frozen=True, slots=True)
class TreeDiff:
    """How tree B differs from tree A, node by node (paths in A's depth-first order, then B's)."""

    only_a: list[Path]
    only_b: list[Path]
    changed: list[Changed]
    line_a: Path
    line_b: Path
    """The principal variations."""

    @property
    def identical(self) -> bool:
        return not (self.only_a or self.only_b or self.changed) and self.line_a == self.line_b

    @property
    def common_line(self) -> int:
        """How many moves the principal variations share before they part."""
        shared = 0
        for a, b in zip(self.line_a, self.line_b, strict=False):
            if a != b:
                break
            shared += 1
        return shared


def diff_trees(
    a: dict[Path, Entry], b: dict[Path, Entry], line_a: Sequence[Hashable], line_b: Sequence[Hashable]
) -> TreeDiff:
    """The diff of two trees given by path (``nodes_by_path``) and their principal variations."""
    only_a = [path for path in a if path not in b]
    only_b = [path for path in b if path not in a]
    changed = [Changed(path, entry, b[path]) for path, entry in a.items() if path in b and b[path] != entry]
    return TreeDiff(only_a, only_b, changed, tuple(line_a), tuple(line_b))


def diff_saved(a: SavedSearch, b: SavedSearch) -> TreeDiff:
    """The diff of two saved searches of one game from one position; a ``DiffError`` otherwise."""
    root_a, root_b = a.recipe.state(), b.recipe.state()
    if a.recipe.game != b.recipe.game or root_a != root_b:
        raise DiffError(
            f"the searches start from different positions ({a.recipe.game} {root_a.text() or 'start'} and "
            f"{b.recipe.game} {root_b.text() or 'start'}): nothing to line up"
        )
    return diff_trees(nodes_by_path(a), nodes_by_path(b), a.principal_variation, b.principal_variation)


def labels(root: State, path: Path) -> list[str]:
    """The moves of ``path`` as written (``4``, ``8=7+1``); a move no board has (a damaged file) as it was saved."""
    written = []
    state: State | None = root
    for move in path:
        try:  # a move's label is the position's it is played from (a hand-written tree labels each node's own)
            assert state is not None
            written.append(state.move_label(move))
            state = state.play(move)
        except (AssertionError, IndexError, KeyError, TypeError, ValueError):
            written.append(str(move))
            state = None
    return written


def diff_json(diff: TreeDiff, root: State) -> dict[str, object]:
    """``plyscope diff --json``: paths as lists of move labels; each changed node's numbers and work in A and B."""
    return {
        "identical": diff.identical,
        "only_in_a": [labels(root, path) for path in diff.only_a],
        "only_in_b": [labels(root, path) for path in diff.only_b],
        "differ": [
            {
                "path": labels(root, change.path),
                "a": {"numbers": change.a[0], "work": change.a[1]},
                "b": {"numbers": change.b[0], "work": change.b[1]},
            }
            for change in diff.changed
        ],
        "pv_a": labels(root, diff.line_a),
        "pv_b": labels(root, diff.line_b),
        "pv_common": labels(root, diff.line_a[: diff.common_line]),
    }


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A live search's tree as it stood when taken: its nodes by path, and its principal variation."""

    nodes: dict[Path, Entry]
    line: tuple[Hashable, ...]


class TreeCopy:
    """A live search's tree copied into a ``Snapshot`` a slice at a time: call ``take`` and ``snapshot`` under the
    search's lock, and change nothing in the tree between two slices (what a slice copied stays as copied)."""

    def __init__(self, searcher: Searcher[Node]) -> None:
        self.searcher = searcher
        self.nodes: dict[Path, Entry] = {}
        """The nodes copied so far, by path, with their numbers (``Searcher.numbers``) and work."""
        self._waiting: list[tuple[Node, Path]] = [(searcher.root, ())]
        """The nodes still to copy (with their paths), their subtrees included."""

    @property
    def done(self) -> bool:
        """Whether every node is copied."""
        return not self._waiting

    def take(self, most: int) -> None:
        """Copy up to ``most`` more nodes (under the search's lock)."""
        searcher, waiting, found = self.searcher, self._waiting, self.nodes
        for _ in range(most):
            if not waiting:
                return
            node, path = waiting.pop()
            found[path] = (dict(searcher.numbers(node)), node.work())
            waiting.extend((child, (*path, child.move)) for child in node.children)

    def snapshot(self) -> Snapshot:
        """The tree copied, with the search's principal variation now (under the search's lock, once ``done``)."""
        return Snapshot(self.nodes, tuple(self.searcher.principal_variation()))


def snapshot(searcher: Searcher[Node]) -> Snapshot:
    """``searcher``'s tree as it stands, in one go (call under the search's lock)."""
    copy = TreeCopy(searcher)
    while not copy.done:
        copy.take(1 << 16)
    return copy.snapshot()


def diff_snapshots(a: Snapshot, b: Snapshot) -> TreeDiff:
    """The diff of two snapshots of searches from one position (or of one search at two steps of its timeline)."""
    return diff_trees(a.nodes, b.nodes, a.line, b.line)


def diff_searchers(a: Searcher[Node], b: Searcher[Node]) -> TreeDiff:
    """The diff of two live searches from one position (the compare screen's); a ``DiffError`` otherwise."""
    if a.root_state != b.root_state:
        raise DiffError("the searches start from different positions: nothing to line up")
    return diff_snapshots(snapshot(a), snapshot(b))

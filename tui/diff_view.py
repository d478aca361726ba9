"""Two search trees' diff drawn with Rich: for ``plyscope diff``, the explorer's and the compare screen's ``D``."""

from __future__ import annotations

from collections import Counter

from rich.console import Group
from rich.text import Text
from rich.tree import Tree

from plyscope.engine.games import State
from plyscope.engine.tree_diff import Changed, Entry, Path, TreeDiff, labels
from plyscope.tui.formatting import Number, format_number, format_numbers


def summary(diff: TreeDiff, root: State) -> list[str]:
    """Where the principal variations part, and how many nodes differ (or that the trees are identical)."""
    common = labels(root, diff.line_a[: diff.common_line])
    if diff.line_a != diff.line_b:
        parts = f"they part after {' '.join(common)}" if common else "they part at the root"
        lines = [
            f"principal variations: A {' '.join(labels(root, diff.line_a)) or '(none)'}; "
            f"B {' '.join(labels(root, diff.line_b)) or '(none)'}; {parts}"
        ]
    else:
        lines = [f"principal variations: both {' '.join(common) or '(none)'}"]
    if diff.identical:
        lines.append("the trees are identical: every node in both, with the same numbers and work")
    else:
        lines.append(
            f"{len(diff.only_a):,} nodes only in A (−), {len(diff.only_b):,} only in B (+), "
            f"{len(diff.changed):,} in both with different numbers or work (≠)"
        )
    return lines


def shown_diff(diff: TreeDiff, root: State, most: int) -> Group:
    """The summary, then (unless identical) the tree of the differing nodes."""
    parts: list[Text | Tree] = [Text(line) for line in summary(diff, root)]
    if not diff.identical:
        parts.append(drawn(diff, root, most))
    return Group(*parts)


Differing = tuple[Path, str, Changed | None]
"""A differing node: its path, how it differs (``-`` only in A, ``+`` only in B, ``≠`` in both), and what changed."""


def drawn(diff: TreeDiff, root: State, most: int) -> Tree:
    """The differing nodes as a tree (the nodes above them drawn plain; the root's line its own numbers where they
    differ), at most ``most`` of them, shallowest first."""
    tree = Tree(Text("root", "bold"))
    branches: dict[Path, Tree] = {(): tree}
    differing: list[Differing] = [(path, "-", None) for path in diff.only_a]
    differing += [(path, "+", None) for path in diff.only_b]
    differing += [(change.path, "≠", change) for change in diff.changed]
    for path, kind, change in shallowest(differing, most):
        note = _note(kind, change)
        for depth in range(1, len(path) + 1):
            prefix = path[:depth]
            if prefix not in branches:
                branches[prefix] = branches[prefix[:-1]].add(Text(labels(root, prefix)[-1], "bold"))
        branch = branches[path]
        assert isinstance(branch.label, Text)  # (every line drawn here is a Text)
        branch.label = Text.assemble(branch.label, " ", note)
    if len(differing) > most:
        tree.add(Text(f"… {len(differing) - most:,} more differing nodes (--show N draws more; --json lists all)"))
    return tree


def shallowest(differing: list[Differing], most: int) -> list[Differing]:
    """The ``most`` differing nodes nearest the root, in the order drawn (by depth, then by path as written); only
    the nodes at the depths that hold them are ordered (a diff may list hundreds of thousands)."""
    counts = Counter(len(path) for path, _, _ in differing)
    deepest, held = 0, 0
    for deepest in sorted(counts):
        held += counts[deepest]
        if held >= most:
            break
    near = [item for item in differing if len(item[0]) <= deepest]
    near.sort(key=lambda item: (len(item[0]), repr(item[0])))
    return near[:most]


def _note(kind: str, change: Changed | None) -> Text:
    """What a differing node's line says after its move."""
    if change is not None:
        return Text(f"≠ A {entry(change.a)} │ B {entry(change.b)}", "yellow")
    return Text("− only in A", "red") if kind == "-" else Text("+ only in B", "green")


def entry(value: Entry) -> str:
    """A node's numbers and work as the diff writes them (``v=523 n=12 work=7``), in the app and the command alike."""
    numbers, work = value
    text = format_numbers({name: _number(number) for name, number in numbers.items()})
    if work is None:
        return text
    return f"{text} work={format_number(_number(work))}"


def _number(value: object) -> Number:
    """A number as a file or a live tree gives it; anything else (a damaged file's) as its text, to be shown as is."""
    return value if value is None or isinstance(value, int | float | str) else str(value)

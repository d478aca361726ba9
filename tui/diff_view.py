"""Two search trees' diff drawn with Rich: for ``plyscope diff`` and the compare screen's ``D``."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from rich.tree import Tree

from plyscope.engine.games import State
from plyscope.engine.tree_diff import Entry, Path, TreeDiff, labels
from plyscope.tui.formatting import format_numbers


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


def drawn(diff: TreeDiff, root: State, most: int) -> Tree:
    """The differing nodes as a tree (the nodes above them drawn plain), at most ``most`` of them."""
    tree = Tree("root")
    branches: dict[Path, Tree] = {(): tree}
    marked: list[tuple[Path, Text]] = [(path, Text("− only in A", "red")) for path in diff.only_a]
    marked += [(path, Text("+ only in B", "green")) for path in diff.only_b]
    marked += [(change.path, Text(f"≠ A {entry(change.a)} │ B {entry(change.b)}", "yellow")) for change in diff.changed]
    marked.sort(key=lambda item: (len(item[0]), item[0].__repr__()))
    for path, note in marked[:most]:
        for depth in range(1, len(path) + 1):
            prefix = path[:depth]
            if prefix not in branches:
                label = Text(labels(root, prefix)[-1], "bold")
                if depth == len(path):
                    label.append(" ").append_text(note)
                branches[prefix] = branches[prefix[:-1]].add(label)
            elif depth == len(path):
                branches[prefix].label = Text.assemble(branches[prefix].label, " ", note)  # type: ignore[arg-type]
    if len(marked) > most:
        tree.add(Text(f"… {len(marked) - most:,} more differing nodes (--show N draws more; --json lists all)"))
    return tree


def entry(value: Entry) -> str:
    numbers, work = value
    text = format_numbers(numbers)  # type: ignore[arg-type]
    return text if work is None else f"{text} work={work}"

"""``plyscope diff A.json B.json``: two saved searches of one position, node by node (a Rich tree, or ``--json``)."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from plyscope.engine.games import State
from plyscope.engine.numbers import parse_int
from plyscope.engine.search_file import read_search
from plyscope.engine.tree_diff import Entry, Path, TreeDiff, diff_json, diff_saved, labels
from plyscope.tui.commands.options import number
from plyscope.tui.formatting import format_numbers

SHOWN = number(parse_int, "--show", lo=1, hi=1_000_000)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A.json", help="a search saved with plyscope search --export or the explorer's w")
    parser.add_argument("b", metavar="B.json", help="another search of the same position")
    parser.add_argument("--json", action="store_true", help="print one JSON object (every differing node)")
    parser.add_argument(
        "--show", type=SHOWN, default=40, metavar="N", help="differing nodes drawn in the tree at most (default 40)"
    )


def run(args: argparse.Namespace) -> int:
    a, b = read_search(args.a), read_search(args.b)
    diff = diff_saved(a, b)
    root = a.recipe.state()
    if args.json:
        print(json.dumps(diff_json(diff, root)))
        return 0
    names = (
        f"A {args.a} ({a.recipe.algorithm}, {a.stats.nodes:,} nodes), "
        f"B {args.b} ({b.recipe.algorithm}, {b.stats.nodes:,} nodes)"
    )
    console = Console()
    console.print(Text(f"{a.recipe.game} {root.text() or 'start'}: {names}", style="bold"))
    common = labels(root, diff.line_a[: diff.common_line])
    console.print(
        f"principal variations: A {' '.join(labels(root, diff.line_a)) or '(none)'}; "
        f"B {' '.join(labels(root, diff.line_b)) or '(none)'}; "
        + (f"they part after {' '.join(common)}" if common else "they part at the root")
        if diff.line_a != diff.line_b
        else f"principal variations: both {' '.join(common) or '(none)'}"
    )
    if diff.identical:
        console.print("the trees are identical: every node in both, with the same numbers and work")
        return 0
    console.print(
        f"{len(diff.only_a):,} nodes only in A (−), {len(diff.only_b):,} only in B (+), "
        f"{len(diff.changed):,} in both with different numbers or work (≠)"
    )
    console.print(drawn(diff, root, args.show))
    return 0


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

"""``plyscope diff A.json B.json``: two saved searches of one position, node by node (a Rich tree, or ``--json``)."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.text import Text

from plyscope.engine.numbers import parse_int
from plyscope.engine.search_file import SavedSearch, read_search
from plyscope.engine.tree_diff import diff_json, diff_saved
from plyscope.tui.commands.options import number
from plyscope.tui.diff_view import shown_diff

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
    names = f"A {args.a} ({counts(a)}), B {args.b} ({counts(b)})"
    console = Console()
    console.print(Text(f"{a.recipe.game} {root.text() or 'start'}: {names}", style="bold"))
    console.print(shown_diff(diff, root, args.show))
    return 0


def counts(saved: SavedSearch) -> str:
    """``alphabeta: 295 nodes searched, 249 saved``: the search's own count of its nodes, and the tree the file holds
    (what the diff lines up; a search may have let nodes go, as alpha-beta's iterations do)."""
    return f"{saved.recipe.algorithm}: {saved.stats.nodes:,} nodes searched, {len(saved.tree):,} saved"

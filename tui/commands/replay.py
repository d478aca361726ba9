"""``plyscope replay FILE.json``: open a saved search in the explorer at its last step, with its whole timeline."""

from __future__ import annotations

import argparse

from plyscope.engine.search_file import read_search
from plyscope.tui.session import Session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a .json file written by plyscope search --export or the explorer's w")
    parser.add_argument(
        "--check", action="store_true", help="rebuild the search, check it against the saved tree and say so; no screen"
    )


def run(args: argparse.Namespace) -> int:
    saved = read_search(args.file)
    recipe = saved.recipe
    if args.check:
        searcher = saved.rebuilt()
        assert searcher is not None
        print(
            f"{args.file}: {saved.steps:,} steps of {recipe.algorithm} on {recipe.game} "
            f"{recipe.position or 'start'} rebuilt; the tree matches the saved one "
            f"({searcher.stats.nodes:,} nodes searched, {len(saved.tree):,} saved)"
        )
        return 0
    from plyscope.tui.app import PlyscopeApp, run_app

    return run_app(PlyscopeApp(Session.replaying(saved)), "replay")

"""``plyscope replay FILE.json``: open a saved search in the explorer at its last step, with its whole timeline."""

from __future__ import annotations

import argparse

from engine.search_file import read_search
from tui.session import Session


def run(args: argparse.Namespace) -> int:
    saved = read_search(args.file)
    recipe = saved.recipe
    if args.check:
        searcher = saved.rebuilt()
        assert searcher is not None
        print(
            f"{args.file}: {saved.steps:,} steps of {recipe.algorithm} on {recipe.game} "
            f"{recipe.position or 'start'} rebuilt; the tree matches the saved one ({searcher.stats.nodes:,} nodes)"
        )
        return 0
    from tui.app import PlyscopeApp, run_app

    return run_app(PlyscopeApp(Session.replaying(saved)), "replay")

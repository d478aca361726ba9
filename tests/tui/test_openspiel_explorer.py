"""An OpenSpiel game in the explorer (issue 38): its board drawn by the text view, its moves labelled as OpenSpiel
writes them at every depth of the tree.  Skipped, with the reason, without OpenSpiel."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'plyscope[openspiel]')")

from plyscope.tui.widgets.boards.text import TextBoard
from plyscope.tui.widgets.search_tree import SearchTree
from tests.tui.helpers import explorer, make_app, run_async, settle, view_of


@run_async
async def test_the_tree_labels_each_move_in_the_position_it_is_played_in() -> None:
    app = make_app(game="openspiel:breakthrough(rows=5,columns=5)", position="4 260", algorithm="mcts")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = explorer(pilot)
        await pilot.press("f")
        await settle(pilot)
        assert "abcde" in str(screen.query_one(TextBoard).render())  # (OpenSpiel's own text of the board)
        searcher = screen.session.searcher
        tree = screen.query_one(SearchTree)
        path = searcher.principal_path()[:3]
        tree.reveal(path)
        await pilot.pause()
        for node in path[1:]:
            view = view_of(tree, node)
            assert view is not None and node.parent is not None
            label = searcher.state_at(node.parent).move_label(node.move)  # (a reply's: not the root's text of it)
            assert not label.isdigit() and f" {label} " in f"{view.label} "

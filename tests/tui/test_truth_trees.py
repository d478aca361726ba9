"""The truth column on a hand-written tree: every node's exact value (its minimax value, MAX's), through the one door
like every game with exact values, and the searcher judged by the values themselves, not their signs."""

from __future__ import annotations

from textual.widgets import Static

from plyscope.engine.exact import Exact
from plyscope.engine.games.tree import TreeState, number_text
from plyscope.engine.kits import make_game
from plyscope.engine.solve import PositionSolve
from plyscope.engine.solver.book import NO_BOOK_NOTE
from plyscope.engine.truth import Judgement
from plyscope.tui.widgets.search_pane import SearchPane
from plyscope.tui.widgets.search_tree import SearchTree, truth_column
from tests.tui.contest_helpers import wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle, view_of


def label(tree: SearchTree, node: object) -> str:
    view = view_of(tree, node)  # type: ignore[arg-type]
    assert view is not None
    return str(view.label)


@run_async
async def test_a_trees_truth_column_shows_each_nodes_minimax_value() -> None:
    """Russell and Norvig's tree (3, 2, 2 below the root, 3 at it): the column says each node's value as ``plyscope
    solve`` finds it, MAX's whoever moves there."""
    app = make_app(game="tree", position="classic", algorithm="alphabeta")
    async with app.run_test(size=(120, 50)) as pilot:
        screen = explorer(pilot)
        pane = screen.query_one(SearchPane)
        tree = pane.search_tree
        await pilot.press("r")
        await settle(pilot)
        for child in screen.session.searcher.root.children:
            tree.reveal_moves([child.move])
        await pilot.press("T")
        await wait_until(pilot, lambda: tree.truth and not tree.awaiting_truth(), "every value")
        await pilot.pause()
        searcher = screen.session.searcher
        root = searcher.root_state
        assert isinstance(root, TreeState)
        solved = PositionSolve(root).solution().as_json()
        moves = solved["moves"]
        assert isinstance(moves, dict) and moves == {"B": 3, "C": 2, "D": 2}
        for child in searcher.root.children:
            state = searcher.state_at(child)
            words = f"○ value {number_text(float(moves[root.move_label(child.move)]))}"
            shown = label(tree, child)
            assert shown.startswith(f"{shown.split(' [')[0]}{truth_column(words)} "), shown
        assert str(tree.border_title).startswith(f"root{truth_column('● value 3')} ")
        for node in searcher.walk():  # every node the column shows agrees with the tree's own exact values
            view = view_of(tree, node)
            state = searcher.state_at(node)
            assert isinstance(state, TreeState)
            value = number_text(state.tree.exact[state.node])
            assert view is None or node.parent is None or f"value {value}" in str(view.label)
        head = str(pane.query_one("#head", Static).render())
        assert "✓ optimal (1 of 3 moves are)" in head  # B keeps the value 3; C and D give 2


def test_a_tree_is_judged_by_its_values_not_their_signs() -> None:
    """Two moves worth 3 and 5 to MAX are both wins by their signs; only the 5 keeps the node's value."""
    exact = Exact()
    root = make_game("tree").parse("(3,5)")
    values = exact.values(root.game)
    truths = [exact.truth(root.play(move)) for move in root.legal_moves()]
    assert Judgement.of(truths, root.player, 0, values).optimal is False  # 3 chosen beside 5
    assert Judgement.of(truths, root.player, 1, values).optimal is True
    assert Judgement.of([truths[0], None], root.player, 0, values).optimal is None  # the 5 not known yet: open
    assert Judgement.of(truths, -root.player, 0, values).optimal is True  # MIN prefers the 3


@run_async
async def test_t_says_where_a_board_has_no_opening_book() -> None:
    """The opening book is 7x6's: on another board ``T`` says so, as ``plyscope solve`` does."""
    for game, said in (("connect4:6x5", NO_BOOK_NOTE), ("connect4", "Thill's opening book for 12 stones")):
        app = make_app(game=game, algorithm="alphabeta")
        async with app.run_test() as pilot:
            screen = explorer(pilot)
            await pilot.press("T")
            await pilot.pause()
            status = str(screen.query_one("#status", Static).render())
            assert "truth column on" in status and said in " ".join(status.split()), status

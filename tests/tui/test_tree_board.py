"""The tree game in the explorer: the tree drawn on the board, its path, moves by number, and ``n`` editing a leaf."""

from __future__ import annotations

from rich.style import Style

from plyscope.engine.games.tree import TreeState
from plyscope.engine.kits import make_game
from plyscope.engine.search import Limit
from plyscope.tui.components.chosen import ChosenNode
from plyscope.tui.session import SearchConfig, Session
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.boards.tree import TreeBoard, draw_tree
from plyscope.tui.widgets.prompt_bar import PromptBar
from tests.tui.contest_helpers import prompt_error, prompt_field
from tests.tui.helpers import explorer, make_app, run_async, settle

CLASSIC = "A(B(3,12,8),C(2,4,6),D(14,5,2))"
DRAWN = """\
        A▲
  ┌─────┴┬─────┐
  B▽     C▽    D▽
┌─┼──┐ ┌─┼─┐ ┌─┴┬─┐
3 12 8 2 4 6 14 5 2
"""


def styles(name: str) -> Style:
    return Style(reverse=True) if name == "best" else Style()


def drawn(text: str, moves: list[int], room: int) -> tuple[str, list[str]]:
    """The drawing of ``text`` with the path of ``moves`` in ``room`` cells, and the pieces drawn reversed."""
    state = make_game("tree").parse(text)
    assert isinstance(state, TreeState)
    path = []
    for move in moves:
        state = state.play(move)
        path.append(state.node)
    picture = draw_tree(state.tree, 0, path, room, styles)
    reversed_ = [picture.plain[span.start : span.end] for span in picture.spans if Style.parse(str(span.style)).reverse]
    return picture.plain, reversed_


def test_a_small_tree_is_drawn_whole_as_in_the_textbook() -> None:
    plain, path = drawn(CLASSIC, [2, 1], 40)
    assert plain == DRAWN
    assert path == ["A▲", "D▽", "5"]


def test_a_large_tree_is_drawn_around_the_node_chosen() -> None:
    wide = "(" + ",".join(f"({','.join(str(i * 10 + j) for j in range(10))})" for i in range(100)) + ")"
    plain, path = drawn(wide, [50, 3], 40)
    assert plain.splitlines()[2].split() == ["…50", "51▽", "…49"]
    assert plain.splitlines()[4].split() == ["…1", "501", "502", "503", "504", "505", "506", "…3"]
    assert path == ["▲", "51▽", "503"]
    assert max(len(line) for line in plain.splitlines()) <= 40


def test_a_deep_tree_is_drawn_from_two_levels_above_the_node_chosen() -> None:
    deep = "(" * 9 + "1,2" + ")" * 9
    plain, path = drawn(deep, [0] * 9, 40)
    lines = plain.splitlines()
    assert lines[0] == "▲ › 1▽ › 1▲ › 1▽ › 1▲ › 1▽ › 1▲ › …"
    assert lines[-1].split() == ["1", "2"] and path[-1] == "1"


@run_async
async def test_the_board_draws_the_tree_and_plays_a_child_by_its_number() -> None:
    app = make_app(game="tree", position="classic")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        board = screen.query_one(Board)
        assert board.render_board().plain.startswith(DRAWN)
        assert "▲ MAX to move" in board.render_board().plain
        await pilot.press("3")
        await settle(pilot)
        assert screen.session.state.text() == "min:D(14,5,2)"


@run_async
async def test_n_edits_the_chosen_leaf_and_the_search_runs_again() -> None:
    app = make_app(game="tree", position="classic", algorithm="alphabeta")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        await pilot.press("n")
        assert "choose a leaf of a hand-written tree in the tree pane first" in str(
            screen.query_one("#status").render()
        )
        screen.session.searcher.run(Limit())
        leaf = screen.session.searcher.nodes_along([2, 2])[-1]
        screen.query_one(ChosenNode).show(leaf)
        await pilot.press("n")
        bar = screen.query_one(PromptBar)
        assert bar.is_open
        await pilot.press("ctrl+u", *"-7", "enter")
        await settle(pilot)
        assert screen.session.config.position == "A(B(3,12,8),C(2,4,6),D(14,5,-7))"
        assert screen.session.searcher.finished and screen.session.searcher.value().first() == 3


@run_async
async def test_the_board_cuts_the_edges_alpha_beta_pruned() -> None:
    """AIMA figure 5.5: C's last two leaves are never searched."""
    app = make_app(game="tree", position="classic", algorithm="alphabeta")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f")
        await settle(pilot)
        board = explorer(pilot).query_one(TreeBoard)
        assert board.pruned == {7, 8}
        assert board.render_board().plain.splitlines()[3] == "┌─┼──┐ ┌─✂─✂ ┌─┴┬─┐"


@run_async
async def test_the_position_bar_refuses_a_tree_with_two_siblings_labelled_alike() -> None:
    """Issue 36, item 1: a tree typed in the explorer is read as on the command line."""
    app = make_app(game="tree", position="classic", algorithm="alphabeta")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        before = screen.session
        await pilot.press("p")
        prompt_field(screen).value = "(x=5,x=-2,y=1)"
        await pilot.press("enter")
        assert prompt_error(screen) == (
            "tree at character 6 ('x'): a second child labelled x here: siblings need different labels (a move names "
            "one)"
        )
        assert screen.session is before


def test_a_chance_tree_gets_a_default_algorithm_that_plays_it() -> None:
    """The default algorithm is chosen for the tree typed (with chance nodes), not for the game's start."""
    assert Session.create(SearchConfig(game="tree", position="chance")).config.algorithm == "mcts"
    assert Session.create(SearchConfig(game="tree", position="classic")).config.algorithm == "rivest"


def test_a_proven_tree_value_is_a_value_not_a_win() -> None:
    from plyscope.engine.search.base import Limit
    from plyscope.engine.search.registry import make_searcher
    from plyscope.tui.widgets.search_pane import value_text

    searcher = make_searcher("alphabeta", make_game("tree").parse("classic"), {})
    searcher.run(Limit(iterations=2_000))
    assert searcher.proven() is not None
    assert str(value_text(searcher)) == "value +3 (MAX), its sign proven"  # not "first player wins": 3 is a value

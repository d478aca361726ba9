"""The explorer driven by the Pilot: stepping, running, choosing, bad input, node selection."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static
from textual.widgets._footer import FooterKey
from textual.widgets.tree import TreeNode

from plyscope.engine.search.minimax import MinimaxNode
from plyscope.tui.formatting import format_numbers
from plyscope.tui.screens.help import HelpScreen
from plyscope.tui.screens.setup import SetupScreen
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.boards.connect4 import Connect4Board
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.search_tree import MoreChildren, SearchTree, TreeItem
from plyscope.tui.widgets.stats import sparkline_rows
from tests.tui.contest_helpers import prompt_error, prompt_field, wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle, top, view_of


def is_open(view: TreeNode[TreeItem]) -> bool:
    return view.is_expanded


def status_text(pilot_app_screen: object) -> str:
    from plyscope.tui.screens.explore import ExploreScreen

    assert isinstance(pilot_app_screen, ExploreScreen)
    return str(pilot_app_screen.query_one("#status", Static).render())


async def open_setup(pilot: Pilot[None]) -> SetupScreen:
    """Press ``e`` on the explorer and return the setup form it opens."""
    await pilot.press("e")
    await pilot.pause()
    setup = pilot.app.screen
    assert isinstance(setup, SetupScreen)
    return setup


@run_async
async def test_one_key_one_step_and_the_batches() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        stats = screen.session.searcher.stats
        await pilot.press("s")
        await settle(pilot)
        assert (stats.iterations, stats.moves) == (1, 1)
        await pilot.press("d")
        await settle(pilot)
        assert stats.iterations == 11
        await pilot.press("f")
        await settle(pilot)
        assert stats.iterations == 111
        assert "moves 111/100,000" in status_text(screen)


@run_async
async def test_each_step_shows_its_new_node_in_follow_mode() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        tree = screen.query_one(SearchTree)
        for _ in range(4):
            await pilot.press("s")
        await settle(pilot)
        # Minimax goes depth first: its fourth step creates the node after moves 1, 1, 1, 1.
        deepest = screen.session.searcher.root.children[0].children[0].children[0].children[0]
        view = view_of(tree, deepest)
        assert view is not None
        assert str(view.label).startswith("○ 1 v=")  # the second player's move (the fourth ply)
        assert str(view.label).endswith("◂")


@run_async
async def test_the_scroll_bar_thumb_shows_a_scroll_made_while_the_bar_was_hidden() -> None:
    """The order Textual took in a match (the snapshot that flaked under load): the tree shrank (bar hidden),
    grew, follow mode scrolled before the bar was shown again; the thumb was left where it had been."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = explorer(pilot)
        await pilot.press("f")
        await settle(pilot)
        tree = screen.query_one(SearchTree)
        paths = [[screen.session.searcher.root]]
        while paths:  # open every branch: taller than the pane
            path = paths.pop()
            tree.reveal(path)
            paths += [[*path, child] for child in path[-1].children if child.children]
        await pilot.pause()
        assert tree.show_vertical_scrollbar and tree.max_scroll_y > 2
        tree.scroll_y = tree.max_scroll_y
        tree.show_vertical_scrollbar = False
        tree.scroll_y = 1  # while hidden, Textual leaves the thumb alone
        tree.show_vertical_scrollbar = True
        await pilot.pause()
        assert tree.vertical_scrollbar.position == tree.scroll_y == 1


@run_async
async def test_run_then_pause_stops_stepping() -> None:
    app = make_app(budget=None)
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        stats = screen.session.searcher.stats
        await pilot.press("r")
        assert screen.searches.running
        await wait_until(pilot, lambda: stats.iterations >= 3, "three steps of the run")
        await pilot.press("r")
        assert not explorer(pilot).searches.running
        await settle(pilot)
        assert not [worker for worker in app.workers if worker.is_running]  # nothing left to take a step
        assert "paused (10/s)" in status_text(screen)


@run_async
async def test_run_flat_out_stops_at_the_budget() -> None:
    app = make_app(budget=50)
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        screen.speed = None
        await pilot.press("r")
        await settle(pilot)
        assert screen.session.searcher.stats.moves == 50
        assert screen.session.ended
        assert not screen.searches.running
        assert "budget spent" in status_text(screen)
        await pilot.press("right_square_bracket")
        assert screen.session.budget == 100
        assert not screen.session.ended


@run_async
async def test_speed_keys_and_reset() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("plus")
        assert screen.speed == 20
        await pilot.press("minus", "minus")
        assert screen.speed == 5
        await pilot.press("d")
        await settle(pilot)
        first_tree = [node.move for node in screen.session.searcher.walk()]
        await pilot.press("x")
        await settle(pilot)
        assert screen.session.searcher.stats.iterations == 0
        assert screen.query_one(SearchTree).shown_nodes == 1
        await pilot.press("d")
        await settle(pilot)
        assert [node.move for node in screen.session.searcher.walk()] == first_tree


@run_async
async def test_choosing_the_algorithm_from_the_palette() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*"pns", "enter")
        await pilot.pause()
        assert screen.session.config.algorithm == "pns"
        assert "pns" in status_text(screen)


@run_async
async def test_setup_form_sets_a_parameter() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = explorer(pilot)
        setup = await open_setup(pilot)
        depth = setup.query_one("#param-depth", Input)
        depth.value = "2"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert screen.session.config.params == {"depth": 2}
        assert "minimax:depth=2" in status_text(screen)


@run_async
async def test_setup_form_shows_bad_input_and_changes_nothing() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = explorer(pilot)
        before = screen.session
        setup = await open_setup(pilot)
        setup.query_one("#param-depth", Input).value = "99"
        setup.query_one("#position", Input).value = "4444444"
        setup.query_one("#budget", Input).value = "lots"
        setup.query_one("#seed", Input).value = "-1"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert pilot.app.screen is setup
        assert str(setup.query_one("#param-depth-error", Static).render()) == (
            "parameter depth: 99 is above its range 0..12"
        )
        assert str(setup.query_one("#position-error", Static).render()) == "move 7 ('4'): column 4 is full"
        assert str(setup.query_one("#budget-error", Static).render()) == (
            "budget: 'lots' is not a whole number (from 0 to 1,000,000,000,000); blank: no bound"
        )
        assert str(setup.query_one("#seed-error", Static).render()).startswith("seed: -1 is out of range (from 0 to")
        await pilot.press("escape")
        await pilot.pause()
        assert top(pilot) is screen
        assert screen.session is before


@pytest.mark.parametrize(
    ("game", "typed", "shown"),
    [("nim", "1,3,5,7", "7,5,3,1"), ("connect4:4x4", "2332", "2332")],  # a smaller board searches to the end
)
def test_setup_form_switches_the_game(game: str, typed: str, shown: str) -> None:
    @run_async
    async def switch() -> None:
        app = make_app()
        async with app.run_test(size=(100, 40)) as pilot:
            screen = explorer(pilot)
            setup = await open_setup(pilot)
            setup.query_one("#game", Select).value = game
            await pilot.pause()
            setup.query_one("#position", Input).value = typed
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert screen.session.config.game == game
            assert screen.session.state.text() == shown
            board = screen.query_one(Board).state
            assert (board.game.name, board.text()) == (game, shown)

    switch()


@run_async
async def test_position_bar_bad_then_good_input() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        before = screen.session
        await pilot.press("p")
        await pilot.press(*"48", "enter")
        assert prompt_error(screen) == "move 2 ('8'): not a column; columns are 1 to 7"
        assert screen.session is before
        field = prompt_field(screen)
        field.value = ""
        await pilot.press(*"4453", "enter")
        assert screen.session.state.text() == "4453"
        assert not screen.query_one(PromptBar).is_open


@run_async
async def test_moves_played_on_the_board_and_undo() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        board = screen.query_one(Connect4Board)
        board.focus()
        await pilot.press("4")
        assert screen.session.state.text() == "4"
        # Click column 3: content x = 1 (frame) + 2 * 4 (cells) inside the border and padding.
        await pilot.click(Board, offset=(2 + 1 + 2 * board.cell + 1, 3))
        assert screen.session.state.text() == "43"
        await pilot.press("u")
        assert screen.session.state.text() == "4"
        await pilot.press("u", "u")
        assert screen.session.state.text() == ""
        assert "no move to take back" in status_text(screen)


@run_async
async def test_a_move_that_ends_the_game_is_refused() -> None:
    app = make_app(position="445566")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        before = screen.session
        screen.query_one(Board).focus()
        await pilot.press("7")
        assert screen.session is before
        assert "7 ends the game (first player wins): nothing to search" in status_text(screen)


@run_async
async def test_nim_board_click_splits_a_pile() -> None:
    app = make_app(game="grundy", position="7")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        # The pile's row: label "  7 │ " (6 cells) then tokens two cells apart; split after the second token.
        await pilot.click(Board, offset=(2 + 6 + 2 * 1, 1))
        assert screen.session.state.text() == "5,2/2"
        await pilot.click(Board, offset=(2 + 6, 2))
        assert screen.session.state.text() == "5,2/2"
        assert "cannot be split into 1 and 1" in status_text(screen)


@run_async
async def test_choosing_a_node_shows_its_position_on_the_board() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("f")
        await settle(pilot)
        tree = screen.query_one(SearchTree)
        node = screen.session.searcher.root.children[0].children[1]
        assert isinstance(node, MinimaxNode)
        view = view_of(tree, node)
        assert view is not None
        tree.move_cursor(view)
        await pilot.press("enter")
        await pilot.pause()
        board = screen.query_one(Board)
        assert board.line == (0, 1)
        assert board.border_title == "node 1 2"
        await pilot.press("escape")
        assert board.line == tuple(screen.session.searcher.principal_variation())
        assert board.border_title == "principal variation"


@run_async
async def test_more_children_line_shows_the_rest() -> None:
    app = make_app(game="nim", position="12", params={"depth": 1})
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("f")
        await settle(pilot)
        tree = screen.query_one(SearchTree)
        root = tree.root
        assert len(screen.session.searcher.root.children) == 12
        labels = [str(child.label) for child in root.children]
        assert len(labels) == 9 and labels[-1] == "… 4 more"
        assert str(tree.border_title).startswith("root v=")
        more = root.children[-1]
        assert isinstance(more.data, MoreChildren)
        tree.move_cursor(more)
        await pilot.press("enter")
        await pilot.pause()
        assert [str(child.label).split()[1] for child in root.children] == [f"12-{k}" for k in range(12, 0, -1)]


@run_async
async def test_tree_keys_close_and_open_a_branch() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("d")
        await settle(pilot)
        tree = screen.query_one(SearchTree)
        first = tree.root.children[0]
        assert first.is_expanded and first.children
        tree.move_cursor(first)
        await pilot.press("left")
        await pilot.pause()
        assert (is_open(first), len(first.children)) == (False, 0)
        assert str(first.label) == "● 1 v=– (1)"
        await pilot.press("right")
        await pilot.pause()
        assert (is_open(first), len(first.children)) == (True, 1)
        await pilot.press("right")
        assert tree.cursor_node is first.children[0]
        await pilot.press("left", "left")
        assert tree.cursor_node is first


@run_async
async def test_help_screen_is_built_from_the_bindings() -> None:
    app = make_app()
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        titles = [title for title, _ in help_screen.sections]
        assert titles == ["Explore screen", "Board", "Search tree", "Prompt bar", "Everywhere"]
        explore_keys = dict(help_screen.sections[0][1])
        assert explore_keys["s"] == "Step" and explore_keys["r"] == "Run"
        assert explore_keys["1-7"] == "Play that column on the board"  # not 8, 9 or 0 on a 7-column board
        await pilot.press("escape")
        assert not isinstance(pilot.app.screen, HelpScreen)


@run_async
async def test_palette_offers_bindings_algorithms_games_and_parameters() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        titles = [command.title for command in pilot.app.get_system_commands(pilot.app.screen)]
        assert "Step" in titles and "Run" in titles
        assert "Algorithm: minimax" in titles and "Game: grundy" in titles and "Game: connect4:5x4" in titles
        assert "Parameter: depth…" in titles and "Theme" in titles


def _registered() -> list[tuple[str, str]]:
    from plyscope.engine.search.registry import algorithms

    return [
        (game, name)
        for game, family in (("connect4", "connect4"), ("grundy", "nim"))
        for name, info in algorithms().items()
        if not info.games or family in info.games
    ]


@pytest.mark.parametrize(("game", "name"), _registered())
def test_every_registered_algorithm_is_shown_without_ui_changes(game: str, name: str) -> None:
    @run_async
    async def explore() -> None:
        app = make_app(game=game, algorithm=name, budget=20_000)
        async with app.run_test() as pilot:
            screen = explorer(pilot)
            await pilot.press("d")
            await settle(pilot)
            searcher = screen.session.searcher
            assert searcher.stats.iterations >= 1
            tree = screen.query_one(SearchTree)
            assert str(tree.border_title) == "root " + format_numbers(searcher.numbers(searcher.root))
            for child in searcher.root.children:
                view = view_of(tree, child)
                if view is not None:
                    assert format_numbers(searcher.numbers(child)) in str(view.label)

    explore()


@run_async
async def test_the_sparkline_draws_nothing_until_a_step_gives_it_values() -> None:
    app = make_app()
    async with app.run_test(size=(100, 36)) as pilot:
        label = explorer(pilot).query_one("#value-label", Static)

        def drawn() -> str:
            """What the screen shows in the sparkline's two rows, under its label."""
            region = Region(label.region.x, label.region.bottom, label.region.width, 2)
            lines = app.screen._compositor.render_strips()[region.y : region.bottom]
            return "".join(line.crop(region.x, region.right).text for line in lines).strip()

        await pilot.pause()
        assert label.region.width > 10 and drawn() == ""
        await pilot.press("s")
        await settle(pilot)
        assert drawn() != "" and set(drawn()) <= set(" ▁▂▃▄▅▆▇█")


def test_sparkline_rows_run_from_an_eighth_of_a_row_for_the_least_value_to_full_height_for_the_most() -> None:
    assert sparkline_rows([0, 7], 2, 1) == ["▁█"]
    assert sparkline_rows([0, 15], 2, 2) == [" █", "▁█"]
    assert sparkline_rows([1, 2, 3, 4], 2, 1) == ["▃█"]  # each cell the most of the values it covers
    assert sparkline_rows([0, 1], 4, 1) == ["▁▁██"]  # fewer values than cells: each spread over two
    assert sparkline_rows([5, 5], 2, 1) == ["▁▁"]
    assert sparkline_rows([], 3, 2) == ["   ", "   "]


@run_async
async def test_a_change_of_focus_that_leaves_the_keys_shown_as_they_were_keeps_the_footer() -> None:
    """Textual's footer mounted all its keys again at every change of focus (a third of its cost, in a browser)."""
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        keys = list(app.screen.query(FooterKey))
        assert [key.description for key in keys][:3] == ["Back", "Fwd", "Step"]
        explorer(pilot).query_one(Board).focus()
        await pilot.pause()
        app.app_focus = False
        await pilot.pause()
        app.app_focus = True
        await pilot.pause()
        assert list(app.screen.query(FooterKey)) == keys


@run_async
async def test_every_tree_line_tells_the_mouse_its_own_line_after_follow_mode_moved_them() -> None:
    """Lines are kept once drawn and moved where the tree puts them next; the mouse finds a line by its number."""
    app = make_app(algorithm="rivest")
    async with app.run_test(size=(100, 36)) as pilot:
        tree = explorer(pilot).query_one(SearchTree)
        for _ in range(6):
            await pilot.press("s")
            await settle(pilot)
            top = tree.styles.gutter.top  # the border above the tree's lines
            strips = tree.render_lines(Region(0, 0, tree.outer_size.width, tree.outer_size.height))[top:]
            numbers = [
                {segment.style.meta.get("line") for segment in strip if segment.style and segment.style.meta} - {None}
                for strip in strips[: len(tree._tree_lines) - tree.scroll_offset.y]
            ]
            assert numbers == [{tree.scroll_offset.y + y} for y in range(len(numbers))]
        await pilot.click(SearchTree, offset=(6, top + 2))
        await pilot.pause()
        line = tree._tree_lines[tree.scroll_offset.y + 2]
        assert tree.cursor_line == tree.scroll_offset.y + 2 and tree.cursor_node is line.node


def focused(screen: SetupScreen) -> object:
    """The widget with the focus (read through a function: type checkers keep no earlier narrowing)."""
    return screen.focused


def expanded(select: Select[str]) -> bool:
    """Whether ``select``'s list is open (read through a function: type checkers keep no earlier narrowing)."""
    return select.expanded


@run_async
async def test_the_setup_form_opens_on_its_first_field() -> None:
    """``e`` opens the form with its first field, the game, focused: Enter opens its list at once, and Tab goes on
    to the position, where typing types."""
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        setup = await open_setup(pilot)
        game: Select[str] = setup.query_one("#game", Select)
        assert focused(setup) is game
        await pilot.press("enter")
        await pilot.pause()
        assert expanded(game)
        await pilot.press("escape")
        await pilot.pause()
        assert not expanded(game) and pilot.app.screen is setup
        await pilot.press("tab", "4", "4")
        await pilot.pause()
        position = setup.query_one("#position", Input)
        assert focused(setup) is position and position.value == "44"


# --- the exact solver: solved with r alone (issue: every limit the app states is true) ----------------------------


@run_async
async def test_the_solver_solves_a_position_after_r_alone() -> None:
    # Its negamax nodes were counted against the tree's node cap, its budget was the 100,000 moves a tree search
    # gets, and a run at 10 steps a second paced every 32,768-node slice (4453: 2,779 steps, 125 showing a result).
    from plyscope.tui.cli import build_parser
    from plyscope.tui.commands.explore import app_for

    app = app_for(build_parser().parse_args(["explore", "274552224131661", "--algo", "solver"]))
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert screen.session.stop_reason() == "finished"
        assert "search finished" in status_text(screen)
        stats = screen.session.searcher.stats
        assert (stats.moves, stats.nodes, stats.iterations) == (440_709, 34, 105)


@run_async
async def test_choosing_the_solver_in_the_form_gives_it_its_own_budget() -> None:
    app = make_app(algorithm="rivest")
    async with app.run_test(size=(100, 40)) as pilot:
        screen = explorer(pilot)
        setup = await open_setup(pilot)
        setup.query_one("#algorithm", Select).value = "solver"
        await pilot.pause()
        assert setup.query_one("#budget", Input).value == "1000000000"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert (screen.session.config.algorithm, screen.session.budget) == ("solver", 1_000_000_000)

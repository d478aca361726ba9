"""Tic-tac-toe on its grid board (issue 38, item 1): a search stepped in the explorer, its truth column complete, cells
played by digit, cursor and mouse, a whole game against an agent, phase mode, and each cell's exact value."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Static

from plyscope.engine.agents import Agent
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.kits import make_game
from plyscope.engine.kits.tictactoe import MnkState
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.tui.formatting import TRUTH_PENDING, TRUTH_UNSETTLED
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.boards.grid import GridBoard
from plyscope.tui.widgets.search_pane import SearchPane
from plyscope.tui.widgets.search_tree import SearchTree
from tests.tui.contest_helpers import app_with, wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle

EMPTY = """\
  ┌───┬───┬───┐
1 │ · │ · │ · │
  ├───┼───┼───┤
2 │ · │ · │ · │
  ├───┼───┼───┤
3 │ · │ · │ · │
  └───┴───┴───┘
    a   b   c
● first player (X) to move"""
BOARD_CONTENT = (2, 1)
"""Where the board's content starts inside the widget: its border and left padding."""


def cell_offset(column: int, row: int) -> tuple[int, int]:
    """Where to click the cell at ``column``, ``row`` (0 the top), inside the board widget."""
    x, y = BOARD_CONTENT
    return (x + 3 + 4 * column, y + 1 + 2 * row)


def status_text(screen: Screen[None]) -> str:
    return str(screen.query_one("#status", Static).render())


def drawn(board: Board) -> str:
    return "\n".join(line.rstrip() for line in board.render_board().plain.splitlines())


@run_async
async def test_the_explorer_steps_a_search_and_its_truth_column_is_complete() -> None:
    app = make_app(game="tictactoe", algorithm="alphabeta")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        board = screen.query_one(Board)
        assert isinstance(board, GridBoard)
        assert drawn(board) == EMPTY
        await pilot.press("s", "s", "d")
        await settle(pilot)
        assert screen.session.steps_taken == 12
        assert board.line == tuple(screen.session.searcher.principal_variation()) and board.line
        first = board.line[0]
        assert isinstance(first, int)
        row, column = divmod(first, 3)
        assert drawn(board).splitlines()[1 + 2 * row][4 + 4 * column] == "1"  # the line's first stone, numbered
        await pilot.press("T")
        tree = screen.query_one(SearchTree)
        await wait_until(pilot, lambda: not tree.awaiting_truth(), "the truth column")
        truths = tree.truths()
        assert len(truths) >= 2 and not {TRUTH_PENDING, TRUTH_UNSETTLED} & set(truths)
        assert str(tree.border_title).startswith("root [● draw] ")


@run_async
async def test_cells_are_played_by_digit_by_cursor_and_enter_and_by_mouse() -> None:
    app = make_app(game="tictactoe", algorithm="alphabeta")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        await pilot.press("5")  # the digit keys play wherever the focus is: cell 5, b2
        await settle(pilot)
        assert screen.session.state.text() == "b2"
        board = screen.query_one(GridBoard)
        board.focus()
        await pilot.press("up", "enter")  # from the centre, the cell above: b1
        await settle(pilot)
        assert screen.session.state.text() == "b2b1"
        await pilot.click(Board, offset=cell_offset(0, 2))  # a3
        await settle(pilot)
        assert screen.session.state.text() == "b2b1a3"
        await pilot.press("5")
        await settle(pilot)
        assert screen.session.state.text() == "b2b1a3"
        assert "cell b2 is taken" in status_text(screen)
        state = screen.session.state
        assert isinstance(state, MnkState) and state.rows() == [".O.", ".X.", "X.."]
        assert "a cell's number key (1-9)" in screen.query_one(GridBoard).how_to_move()


@run_async
async def test_a_whole_game_against_an_agent_played_by_keys_and_mouse_to_a_draw() -> None:
    game = make_game("tictactoe")
    played = PlayedGame(game.start(), None, Agent(AgentSpec.parse("alphabeta:depth=9"), Limit(moves=100_000)))
    screen = PlayScreen(played, clock=lambda: 0.0)
    app = app_with(game.name, lambda: screen)
    async with app.run_test(size=(100, 30)) as pilot:
        values = app.exact.values(game)
        by_mouse = True
        while not played.is_over():
            state = played.state
            assert isinstance(state, MnkState) and played.to_move() is None
            best = next(cell for cell in state.legal_moves() if values.truth(state.play(cell), 10_000).outcome(1) == 0)
            if by_mouse:
                await pilot.click(Board, offset=cell_offset(best % 3, best // 3))
            else:
                await pilot.press("123456789"[best])
            by_mouse = not by_mouse
            await wait_until(pilot, lambda: not screen.thinking, "the agent's move")
        assert played.state.winner() == 0 and len(played.moves) == 9
        assert "■ a draw · n: new game · u: undo" in status_text(screen)
        assert drawn(screen.query_one(Board)).endswith("■ a draw")


@run_async
async def test_phase_mode_draws_the_path_and_the_playout_on_the_grid() -> None:
    app = make_app(game="tictactoe", algorithm="mcts", seed=3)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("i", "s", "s", "s")
        await settle(pilot)
        phase = app.screen.query_one(SearchPane).phase
        assert phase is not None and phase.name == "simulation" and phase.line
        board = app.screen.query_one(Board)
        playout = (*phase.path[-1].moves(), *phase.line)
        await wait_until(pilot, lambda: board.line == playout, "the whole playout drawn on the grid")
        assert board.border_title == "phase: simulation"
        ghosts = [digit for digit in "123456789"[: len(playout)] if digit in drawn(board)]
        assert len(ghosts) == len(playout)  # each move of the path and the playout numbered in its cell


@run_async
async def test_the_analysis_writes_each_empty_cells_exact_value_in_the_cell() -> None:
    game = make_game("tictactoe")
    played = PlayedGame(game.parse("a1"), None, None)  # X in a corner: only the centre draws for O
    screen = PlayScreen(played, clock=lambda: 0.0)
    app = app_with(game.name, lambda: screen)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("a")
        await wait_until(pilot, lambda: screen.analysis is not None and screen.analysis.done, "the analysis")
        await pilot.pause()
        board = screen.query_one(GridBoard)
        assert board.note(4) == ("0", "best")
        assert [board.note(cell) for cell in (1, 2, 3, 5, 6, 7, 8)] == [("-1", "loss")] * 7
        assert drawn(board).splitlines()[1:4] == ["1 │ ● │-1 │-1 │", "  ├───┼───┼───┤", "2 │-1 │ 0 │-1 │"]
        caption = str(screen.query_one("#history", Static).render())
        assert "in each empty cell: its exact value for the player to move (+1 win, 0 draw, -1 loss)" in caption
        await pilot.press("5")
        await wait_until(pilot, lambda: screen.analysis is not None and screen.analysis.state == played.state, "again")
        assert played.state.text() == "a1b2"

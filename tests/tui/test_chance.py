"""Connect Four with chance in the app: the falling disc on the board, outcomes with their probabilities in
the tree, nature's moves drawn with the game's seed in play, undo back to where a player chooses."""

from __future__ import annotations

from plyscope.engine.agents import Agent
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.games import is_chance
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, Node
from plyscope.engine.search.registry import AgentSpec
from plyscope.engine.seeds import chance_draw
from plyscope.tui.match import MatchRunner
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.widgets.boards import board_for
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.search_tree import SearchTree
from tests.tui.contest_helpers import app_with, wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle

GAME = make_game("connect4-chance")


@run_async
async def test_the_explorer_labels_chance_outcomes_with_their_probability() -> None:
    app = make_app(game="connect4-chance", position="4454", algorithm="mcts")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = explorer(pilot)
        await pilot.press("f")
        await settle(pilot)
        tree = screen.query_one(SearchTree)
        searcher = screen.session.searcher
        outcomes = []
        views = list(tree.root.children)
        while views:
            view = views.pop()
            views.extend(view.children)
            node = view.data
            if isinstance(node, Node) and node.parent is not None and is_chance(searcher.state_at(node.parent)):
                outcomes.append(str(view.label))
        assert outcomes, "follow mode opened no chance node"
        assert all("↓" in label and "%" in label for label in outcomes)


@run_async
async def test_the_board_shows_the_falling_disc_and_where_it_may_land() -> None:
    from textual.app import App, ComposeResult

    drop = GAME.parse("445")  # the second player's disc aimed at column 5, not landed

    class BoardApp(App[None]):
        def compose(self) -> ComposeResult:
            yield board_for(drop)

    app = BoardApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        text = app.query_one(Board).render_board().plain
        assert "60%" in text and text.count("20%") == 2
        assert "the second player's disc falls (aimed at 5)" in text


def test_nature_moves_with_the_games_seed_after_every_move() -> None:
    played = PlayedGame(GAME.start(), None, None, seed=7)
    runner = MatchRunner(played)
    for column in (3, 3, 4, 2):
        runner.play(column)
    assert not is_chance(played.state) and len(played.moves) == 8
    state = GAME.start()
    for chosen, landed in zip(played.moves[::2], played.moves[1::2], strict=True):
        drop = state.play(chosen)
        assert is_chance(drop) and landed == drop.outcome_for(chance_draw(7, drop.ply))
        state = drop.play(landed)


@run_async
async def test_play_against_mcts_with_chance_then_undo() -> None:
    agent = Agent(AgentSpec.parse("mcts"), Limit(moves=200))
    played = PlayedGame(GAME.start(), None, agent, seed=3)
    screen = PlayScreen(played, clock=lambda: 0.0)
    async with app_with("connect4-chance", lambda: screen).run_test(size=(120, 36)) as pilot:
        await pilot.press("4")
        await wait_until(pilot, lambda: not screen.thinking and len(played.moves) == 4, "the agent's reply")
        assert not is_chance(played.state) and played.to_move() is None
        await pilot.press("u")
        assert played.moves == () and not is_chance(played.state)

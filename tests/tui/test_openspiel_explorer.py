"""An OpenSpiel game in the explorer (issue 38): its board drawn by the text view, its moves labelled as OpenSpiel
writes them at every depth of the tree; in compare, and in play.  Skipped, with the reason, without OpenSpiel."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'plyscope[openspiel]')")

from plyscope.engine.agents import Agent
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.tui.contest import compared_agents
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.widgets.boards.text import TextBoard
from plyscope.tui.widgets.search_tree import SearchTree
from tests.tui.contest_helpers import app_with, wait_until
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


@run_async
async def test_compare_searches_an_openspiel_game_side_by_side() -> None:
    name = "openspiel:clobber(rows=4,columns=4)"
    game = make_game(name)
    total = Limit(moves=400)
    screen = CompareScreen(game.start(), compared_agents(["alphabeta:depth=2", "mcts"], total, game), total)
    app = app_with(name, lambda: screen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await wait_until(pilot, lambda: not screen.searches.searching, "the searches")
        assert all(session.searcher.best_move() in game.start().legal_moves() for session in screen.sessions)


@run_async
async def test_an_openspiel_game_is_played_to_its_end_by_keys_against_an_agent() -> None:
    game = make_game("openspiel:tic_tac_toe")
    played = PlayedGame(game.start(), None, Agent(AgentSpec.parse("alphabeta:depth=9"), Limit(moves=100_000)))
    screen = PlayScreen(played, clock=lambda: 0.0)
    app = app_with(game.name, lambda: screen)
    async with app.run_test(size=(100, 30)) as pilot:
        values = app.exact.values(game)
        while not played.is_over():
            state = played.state
            best = next(move for move in state.legal_moves() if values.truth(state.play(move), 10_000).outcome(1) == 0)
            await pilot.press(str(state.legal_moves().index(best) + 1))  # (the text view numbers the moves listed)
            await wait_until(pilot, lambda: not screen.thinking, "the agent's move")
        assert played.state.winner() == 0 and len(played.moves) == 9


@run_async
async def test_a_game_that_starts_with_a_roll_opens_where_a_player_first_chooses() -> None:
    app = make_app(game="openspiel:backgammon", algorithm="mcts")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = explorer(pilot)
        await pilot.press("s")
        await settle(pilot)
        session = screen.session
        assert session.config.position == "0" and session.state.player == 1  # (nature's first outcome: X starts)
        assert session.steps_taken == 1


@run_async
async def test_two_agents_play_a_game_that_starts_with_a_roll() -> None:
    game = make_game("openspiel:backgammon")
    agent = Agent(AgentSpec.parse("flat-mc"), Limit(moves=50))
    played = PlayedGame(game.start(), agent, agent, seed=5)
    assert played.start.player == 1 and played.start.ply == 1  # (the first roll drawn with the seed)
    screen = PlayScreen(played, clock=lambda: 0.0)
    app = app_with(game.name, lambda: screen)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: len(played.moves) >= 6, "six moves (rolls among them)")

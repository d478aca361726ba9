"""The perfect player (``plyscope.engine.search.perfect``): book and solver, the best distance, ties by a seed."""

from __future__ import annotations

import random

import pytest

from plyscope.engine.agents import Agent
from plyscope.engine.games import Connect4, Connect4State
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, SearchError
from plyscope.engine.search.perfect import PerfectSearcher
from plyscope.engine.search.registry import make_searcher
from plyscope.engine.solver import Connect4Solver

GAME = Connect4()


def random_positions(count: int, seed: int) -> list[Connect4State]:
    """``count`` positions of games still going on, each after a random number of random moves (0 to 35)."""
    rng = random.Random(seed)
    found: list[Connect4State] = []
    while len(found) < count:
        state = GAME.start()
        stones = rng.randrange(36)
        while state.ply < stones and not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.append(state)
    return found


def perfect_move(state: Connect4State, seed: int = 0) -> int:
    searcher = make_searcher("perfect", state, seed=seed)
    searcher.run(Limit(moves=state.game.width))  # (its moves are the root's children: the solver's nodes are free)
    assert searcher.finished
    move = searcher.best_move()
    assert isinstance(move, int)
    return move


def test_the_perfect_player_never_drops_the_value() -> None:
    # Over 200 positions from the start to the endgame: the move it plays scores the position's score (Pons', which
    # carries the distance: the quickest win, the slowest loss), as the solver finds it.
    solver = Connect4Solver(GAME)
    for seed, state in enumerate(random_positions(200, seed=39)):
        move = perfect_move(state, seed)
        assert solver.move_score(state, move) == solver.solve(state), (state.text(), move)


def test_on_the_empty_board_it_plays_the_centre_and_knows_the_value() -> None:
    searcher = make_searcher("perfect", GAME.start(), seed=0)
    result = searcher.run(Limit(moves=7))
    assert result.finished and result.best_move == 3 and result.principal_variation == (3,)
    assert result.value.pov(1) == 1  # Pons: the first player wins with their last possible stone, their 21st
    assert searcher.stats.moves == 7


def test_equal_best_moves_are_drawn_by_the_seed() -> None:
    state = GAME.parse("1")  # 2 and 4 both win with the second player's 20th stone (Pons 2)
    solver = Connect4Solver(GAME)
    scores = {column: score.pov(state.player) for column, score in solver.move_scores(state).items()}
    best = {column for column, score in scores.items() if score == max(scores.values())}
    assert best == {1, 3}
    drawn = {perfect_move(state, seed) for seed in range(12)}
    assert drawn == best
    assert perfect_move(state, 5) == perfect_move(state, 5)


def test_a_position_with_12_stones_is_played_from_the_book() -> None:
    state = GAME.parse("444444333333")
    searcher = make_searcher("perfect", state, seed=0)
    assert isinstance(searcher, PerfectSearcher)
    searcher.run(Limit())
    solver = Connect4Solver(GAME)
    assert searcher.root.lower == searcher.root.upper == solver.book_score(state) is not None
    move = searcher.best_move()
    assert isinstance(move, int) and solver.move_score(state, move) == solver.solve(state)


def test_another_board_is_played_perfectly_without_a_book() -> None:
    game = Connect4(5, 4)
    state = game.parse("3322")
    solver = Connect4Solver(game)
    assert not solver.has_book
    move = perfect_move(state)
    assert solver.move_score(state, move) == solver.solve(state)


def test_it_plays_connect_four_only() -> None:
    with pytest.raises(SearchError, match="perfect works on connect4 only, not on nim"):
        make_searcher("perfect", make_game("nim").start())
    with pytest.raises(SearchError, match="the perfect player plays Connect Four only, not nim"):
        PerfectSearcher(make_game("nim").start())


def test_as_an_agent_a_small_moves_budget_still_plays_perfectly() -> None:
    state = GAME.parse("4453")
    decision = Agent.parse("perfect", Limit(moves=50)).decide(state, seed=1)
    solver = Connect4Solver(GAME)
    assert not decision.fallback and isinstance(decision.move, int)
    assert solver.move_score(state, decision.move) == solver.solve(state)

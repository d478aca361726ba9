"""MCTS and flat Monte Carlo on Connect Four with chance: sampling at chance nodes, points of view, refusals."""

from __future__ import annotations

import pytest

from plyscope.engine.games import CHANCE
from plyscope.engine.kits import make_game
from plyscope.engine.search import Limit, SearchError
from plyscope.engine.search.montecarlo.mcts import FlatMonteCarlo, MctsNode, MonteCarloTreeSearch
from plyscope.engine.search.registry import make_searcher

GAME = make_game("connect4-chance")


def test_outcomes_are_drawn_with_their_probabilities() -> None:
    """Below a chance node each outcome is visited about as often as its probability says."""
    searcher = MonteCarloTreeSearch(GAME.parse("44"), seed=3, c=0.0)  # c = 0: the root's best child takes most visits
    searcher.run(Limit(iterations=6000))
    root = searcher.root
    chance = max(root.children, key=lambda child: child.visits)
    assert searcher.state_at(chance).player == CHANCE
    outcomes = dict(searcher.state_at(chance).outcomes())  # type: ignore[attr-defined]
    below = sum(child.visits for child in chance.children)
    assert chance.visits == below + 1  # its own first visit, when it was the new leaf
    assert below > 1000
    for child in chance.children:
        assert child.visits / below == pytest.approx(outcomes[child.move], abs=0.04)


def test_a_chance_nodes_outcomes_score_for_the_player_whose_disc_lands() -> None:
    """The first player's discs fill columns 1 to 3 of the bottom row: a disc aimed at column 4 wins when it
    lands there (0.6).  Its outcome 'landed in 4' is a won game for the player who aimed, mean 1."""
    state = GAME.parse("111122223333")
    searcher = MonteCarloTreeSearch(state, seed=1)
    searcher.run(Limit(iterations=3000))
    assert searcher.best_move() == 3
    aimed = next(child for child in searcher.root.children if child.move == 3)
    landed = next(child for child in aimed.children if child.move == 3)
    assert isinstance(landed, MctsNode) and landed.mean() == 1.0
    slipped = [child for child in aimed.children if child.move != 3]
    assert slipped and all(child.mean() is not None and child.mean() < 1.0 for child in slipped)  # type: ignore
    assert aimed.mean() == pytest.approx(
        sum(child.total for child in aimed.children) / sum(child.visits for child in aimed.children), abs=0.01
    )


def test_one_move_per_iteration_and_the_same_seed_the_same_tree() -> None:
    state = GAME.parse("2233")
    first = MonteCarloTreeSearch(state, seed=7, k=4)
    first.run(Limit(moves=500))
    second = MonteCarloTreeSearch(state, seed=7, k=4)
    second.run(Limit(moves=500))
    assert first.stats.moves == first.stats.iterations == 500
    assert [(n.moves(), n.visits, n.total) for n in first.walk()] == [
        (n.moves(), n.visits, n.total) for n in second.walk()
    ]


def test_flat_monte_carlo_plays_the_chance_game() -> None:
    searcher = FlatMonteCarlo(GAME.parse("111122223333"), seed=2, k=8)
    searcher.run(Limit(moves=700))
    assert searcher.best_move() == 3


def test_mcts_solver_is_refused_on_the_chance_game() -> None:
    with pytest.raises(SearchError) as raised:
        make_searcher("mcts", GAME.start(), {"solver": True})
    assert str(raised.value) == "mcts: solver=true (MCTS-Solver) proves the results of games without chance only"

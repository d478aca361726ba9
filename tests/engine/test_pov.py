"""Scores that carry their point of view: read from either side, flipped only through them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyscope.engine.games import Connect4
from plyscope.engine.pov import PovBounds, PovScore
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import make_searcher


def test_a_score_reads_mirrored_for_the_other_player() -> None:
    score = PovScore(3, -1)
    assert (score.pov(-1), score.pov(1), score.first()) == (3, -3, -3)
    assert score.seen_by(1) == score and score.seen_by(1).relative == -3 and score.seen_by(-1) is score


def test_on_rivests_scale_the_mirror_is_about_512() -> None:
    score = PovScore(600.0, 1, centre=512)
    assert score.pov(-1) == 424.0 and score.seen_by(-1).pov(1) == 600.0
    assert PovScore(512.0, -1, centre=512).first() == 512.0


def test_equal_scores_are_the_same_from_every_side_and_hash_alike() -> None:
    assert PovScore(4, 1) == PovScore(-4, -1) and hash(PovScore(4, 1)) == hash(PovScore(-4, -1))
    assert PovScore(4, 1) != PovScore(4, -1)
    assert PovScore(600.0, 1, centre=512) != PovScore(600.0, 1)  # a different scale
    assert PovScore(4, 1) != 4  # a bare number says no side: never equal


def test_bounds_swap_as_they_mirror() -> None:
    bounds = PovBounds(2, 5, 1)
    assert bounds.pov(-1) == (-5, -2) and bounds.first() == (2, 5)
    assert bounds.seen_by(-1) == bounds and (bounds.seen_by(-1).lowest, bounds.seen_by(-1).highest) == (-5, -2)
    assert bounds.score is None and PovBounds(3, 3, -1).score == PovScore(-3, 1)
    assert PovBounds.exactly(PovScore(7, -1)).pov(1) == (-7, -7)
    assert PovBounds(1.0, 1023.0, -1, centre=512).first() == (1.0, 1023.0)


@given(st.integers(-1000, 1000), st.sampled_from([1, -1]), st.sampled_from([0, 512]))
def test_reading_from_both_sides_loses_nothing(number: int, player: int, centre: int) -> None:
    score = PovScore(float(number), player, centre)
    assert score.seen_by(-player).seen_by(player).relative == number
    assert score.pov(1) + score.pov(-1) == 2 * centre


@pytest.mark.parametrize("algorithm", ["alphabeta", "bestfirst", "rivest", "mcts", "pns", "minimax"])
def test_a_searchers_value_says_whose_it_is(algorithm: str) -> None:
    """A win for the second player to move reads as their win, and as the first player's loss."""
    state = Connect4().parse("1212124")  # the second player to move wins in column 2
    searcher = make_searcher(algorithm, state)
    searcher.run(Limit(iterations=2_000))
    value = searcher.value()
    mover = state.player
    assert value.pov(mover) > value.centre and value.pov(-mover) < value.centre
    assert value.first() == value.pov(1)


def test_the_solvers_value_is_for_the_player_to_move_and_its_bounds_too() -> None:
    state = Connect4().parse("4453")
    searcher = make_searcher("solver", state)
    searcher.step()
    bounds = searcher.value_bounds()
    assert bounds is not None and bounds.player == state.player
    assert searcher.value().player == state.player

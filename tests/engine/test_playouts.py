"""Random playouts: the bitboard playout, the numpy batch and the Nim playout against the plain rules."""

from __future__ import annotations

import numpy as np
import pytest

from plyscope.engine.games import Connect4, Connect4State, Nim
from plyscope.engine.games.connect4_playouts import Connect4Batch, batch_fits, connect4_batch, connect4_playout
from plyscope.engine.games.evaluators import finished_on_rivest_scale
from plyscope.engine.kits.playouts import PlayoutEvaluator, SeededDraws, position_seed, state_playout
from plyscope.engine.search.montecarlo.playouts import Playouts, Tally
from plyscope.engine.search.stream import RandomStream

MIDGAME = "4453322"


def replay(start: Connect4State, columns: list[int]) -> Connect4State:
    """Play ``columns`` from ``start`` by the rules, refusing any illegal or late move."""
    state = start
    for column in columns:
        assert state.can_play(column), f"column {column} cannot be played after {state.text()}"
        state = state.play(column)
    return state


@pytest.mark.parametrize("game", [Connect4(), Connect4(4, 4), Connect4(8, 7)])
def test_batched_games_replay_to_the_same_winners(game: Connect4) -> None:
    start = game.parse("1" if game.width < 7 else MIDGAME)
    batch = connect4_batch(game).run(start, 200, np.random.default_rng(5), record=True)
    assert batch.columns is not None
    total_moves = 0
    for winner, row in zip(batch.winners.tolist(), batch.columns.tolist(), strict=True):
        played = [column for column in row if column >= 0]
        assert row[len(played) :] == [-1] * (len(row) - len(played))  # nothing after the end
        end = replay(start, played)
        assert end.is_terminal()
        assert end.utility() == winner
        total_moves += len(played)
    assert batch.moves == total_moves


def test_batches_see_draws_wins_for_both_players_on_a_small_board() -> None:
    game = Connect4(4, 4)
    batch = connect4_batch(game).run(game.start(), 400, np.random.default_rng(0))
    assert set(batch.winners.tolist()) == {-1, 0, 1}


@pytest.mark.parametrize(
    ("moves", "result"),
    [
        # OOXXO.X
        # OXOOXXX
        # XXXOXOO    the second player fills the last cell:
        # OOXOXOX    no four anywhere, a draw
        # OXOXOXO
        # XOXXOOX
        ("72471121327346116134252235535437765476456", 0),
        # XOOO.OX
        # OXXOXXO
        # XXOOOXO    the second player fills the last cell
        # OOOXXXO    and completes O O O O on the top row
        # XOXOXOX
        # XXOXOXX
        ("63462235736444637412271724576251163175531", -1),
    ],
)
def test_batch_from_a_board_with_one_cell_left(moves: str, result: int) -> None:
    state = Connect4().parse(moves)
    assert len(state.legal_moves()) == 1
    batch = connect4_batch(state.game).run(state, 16, np.random.default_rng(1))
    assert batch.moves == 16
    assert batch.winners.tolist() == [result] * 16


def test_batch_from_a_finished_game_is_its_result() -> None:
    won = Connect4().parse("1212121")
    batch = connect4_batch(won.game).run(won, 8, np.random.default_rng(0))
    assert batch.moves == 0
    assert batch.winners.tolist() == [1] * 8


def test_boards_over_64_bits_are_refused_by_the_batch() -> None:
    assert batch_fits(Connect4(9, 6))
    assert not batch_fits(Connect4(10, 10))
    with pytest.raises(ValueError, match="64 bits"):
        Connect4Batch(Connect4(10, 10))


def test_same_generator_seed_gives_the_same_batch() -> None:
    state = Connect4().parse(MIDGAME)
    first = connect4_batch(state.game).run(state, 64, np.random.default_rng(9), record=True)
    second = connect4_batch(state.game).run(state, 64, np.random.default_rng(9), record=True)
    assert first.columns is not None and second.columns is not None
    assert np.array_equal(first.columns, second.columns)
    assert np.array_equal(first.winners, second.winners)


@pytest.mark.parametrize("game", [Connect4(), Connect4(10, 10), Connect4(5, 4)])
def test_bitboard_playout_plays_the_rules_game_of_the_same_generator(game: Connect4) -> None:
    """``connect4_playout`` and ``state_playout`` draw alike, so they must play the very same game from the same
    stream."""
    start = game.parse("1" if game.width < 7 else MIDGAME)
    for seed in range(60):
        assert connect4_playout(start, RandomStream(seed)) == state_playout(start, RandomStream(seed))


def test_playouts_from_a_finished_game_play_nothing() -> None:
    won = Connect4().parse("1212121")
    assert connect4_playout(won, RandomStream(0)) == (1, 0)
    assert state_playout(won, RandomStream(0)) == (1, 0)


def test_grundy_three_has_one_game() -> None:
    """3 = 2 + 1 is the only move, after which (2, 1) has none: the first player always wins."""
    state = Nim("grundy").parse("3")
    assert state_playout(state, RandomStream(4)) == (1, 1)
    tally = Playouts(RandomStream(4)).many(state, 10, player=-1)
    assert tally == Tally(wins=0, draws=0, losses=10, moves=10)


def test_classic_nim_playouts_end_with_the_last_token_taken() -> None:
    state = Nim("classic").parse("3,4,5")
    for seed in range(40):
        winner, moves = state_playout(state, RandomStream(seed))
        assert 3 <= moves <= 12
        assert winner == (1 if moves % 2 == 1 else -1)  # whoever took the last token won


def test_many_counts_every_playout_for_the_player() -> None:
    playouts = Playouts(RandomStream(2))
    big = Connect4(10, 10).parse("55")
    for state in (Connect4().parse(MIDGAME), big):
        tally = playouts.many(state, 48, player=1)
        assert tally.wins + tally.draws + tally.losses == 48
        assert tally.moves > 0
    assert Tally(wins=3, draws=2, losses=5, moves=0).score() == 4.0


def test_a_batch_from_a_stream_draws_what_numpy_draws_and_moves_past_it() -> None:
    state = Connect4().parse(MIDGAME)
    stream = RandomStream(9)
    generator = np.random.Generator(np.random.PCG64(9))
    assert stream.draw() == generator.random()  # a single draw first: the batch starts after it
    from_stream = connect4_batch(state.game).run(state, 64, stream, record=True)
    from_numpy = connect4_batch(state.game).run(state, 64, generator, record=True)
    assert from_stream.columns is not None and from_numpy.columns is not None
    assert np.array_equal(from_stream.columns, from_numpy.columns)
    assert np.array_equal(from_stream.winners, from_numpy.winners)
    assert stream.position == 1 + from_stream.moves * state.game.width  # a row of floats for every move
    assert stream.draw() == generator.random()


def test_the_playouts_evaluator_is_the_mean_of_seeded_playouts_on_rivests_scale() -> None:
    game = Nim("classic")
    state = game.start()
    evaluator = PlayoutEvaluator(None, count=8)
    value = evaluator(state)
    draws = SeededDraws(position_seed(state))
    mean = sum(state_playout(state, draws)[0] for _ in range(8)) / 8
    assert value == 512 + 510 * mean and 2 <= value <= 1022
    assert PlayoutEvaluator(None, count=8)(game.parse("3,4,5")) == value  # (seeded by the position)
    finished = game.parse("0,0,0/2")
    assert evaluator(finished) == finished_on_rivest_scale(1, finished.ply)

"""Connect Four with chance: where a disc lands and with what probability, positions as text, refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyscope.engine.games import (
    CHANCE,
    ChanceDrop,
    Connect4,
    Connect4Chance,
    Connect4ChanceState,
    PositionError,
    is_chance,
    outcome_probability,
)
from plyscope.engine.kits import make_game

GAME = Connect4Chance(Connect4())


def position(text: str, game: Connect4Chance = GAME) -> Connect4ChanceState:
    """The position ``text`` where a player chooses."""
    state = game.parse(text)
    assert isinstance(state, Connect4ChanceState)
    return state


def chance_node(text: str) -> ChanceDrop:
    """The chance node ``text`` (an odd number of moves)."""
    state = GAME.parse(text)
    assert isinstance(state, ChanceDrop)
    return state


def random_chance_position(rng: random.Random, game: Connect4Chance, turns: int) -> Connect4ChanceState:
    """A position after ``turns`` turns of random choices and drawn landings (or the end of the game)."""
    state = game.start()
    for _ in range(turns):
        if state.is_terminal():
            break
        drop = state.play(rng.choice(state.legal_moves()))
        state = drop.play(drop.outcome_for(rng.random()))
    return state


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(0, 30),
    st.sampled_from(
        ["connect4-chance", "connect4-chance:4x4", "connect4-chance:5x4:0.5,0.25", "connect4-chance:6x5:1,0"]
    ),
)
def test_outcomes_are_open_neighbours_whose_probabilities_sum_to_one(seed: int, turns: int, name: str) -> None:
    game = make_game(name)
    assert isinstance(game, Connect4Chance)
    state = random_chance_position(random.Random(seed), game, turns)
    for column in state.legal_moves():
        drop = state.play(column)
        assert is_chance(drop) and drop.player == CHANCE and drop.mover == state.player
        outcomes = drop.outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
        assert all(p > 0 for _, p in outcomes)
        landings = [c for c, _ in outcomes]
        assert landings == sorted(landings) and tuple(landings) == tuple(drop.legal_moves())
        assert set(landings) <= {column - 1, column, column + 1} and column in landings
        assert all(state.board.can_play(c) for c in landings)
        open_neighbours = [c for c in (column - 1, column + 1) if 0 <= c < game.board.width and state.board.can_play(c)]
        expected = {column: game.keep + game.side * (2 - len(open_neighbours))} | dict.fromkeys(
            open_neighbours, game.side
        )
        assert dict(outcomes) == pytest.approx({c: p for c, p in expected.items() if p > 0})


def test_an_edge_column_gives_the_missing_neighbours_share_to_the_column_chosen() -> None:
    start = GAME.start()
    assert dict(start.play(0).outcomes()) == pytest.approx({0: 0.8, 1: 0.2})
    assert [c for c, _ in start.play(6).outcomes()] == [5, 6]
    assert dict(start.play(6).outcomes()) == pytest.approx({5: 0.2, 6: 0.8})
    assert start.play(3).outcomes() == ((2, 0.2), (3, 0.6), (4, 0.2))


def test_a_full_neighbouring_column_gives_its_share_to_the_column_chosen() -> None:
    full_third = position("333333333333")  # six discs aimed at column 3, all landed there
    assert not full_third.board.can_play(2)
    assert dict(full_third.play(3).outcomes()) == pytest.approx({3: 0.8, 4: 0.2})
    assert dict(full_third.play(1).outcomes()) == pytest.approx({0: 0.2, 1: 0.8})
    hemmed = position("333333333333" + "555555555555")  # columns 3 and 5 full: a disc aimed at 4 stays
    assert dict(hemmed.play(3).outcomes()) == pytest.approx({3: 1.0})


def test_a_draw_picks_each_landing_with_its_probability() -> None:
    """``outcome_for`` on a fine grid of draws lands in each column as often as ``outcomes()`` says."""
    for text, column in (("", 3), ("", 0), ("333333333333", 3), ("", 6)):
        drop = position(text).play(column)
        grid = 10_000
        counts: dict[int, int] = {}
        for i in range(grid):
            landing = drop.outcome_for((i + 0.5) / grid)
            counts[landing] = counts.get(landing, 0) + 1
        assert {c: n / grid for c, n in counts.items()} == pytest.approx(dict(drop.outcomes()), abs=1e-9)


def test_one_draw_means_the_same_slip_everywhere() -> None:
    """Below keep: no slip; then left; then right (a missing neighbour's share stays in the column chosen)."""
    drop = GAME.start().play(3)
    assert [drop.outcome_for(u) for u in (0.0, 0.59, 0.6, 0.79, 0.8, 0.99)] == [3, 3, 2, 2, 4, 4]
    edge = GAME.start().play(0)
    assert [edge.outcome_for(u) for u in (0.3, 0.7, 0.9)] == [0, 0, 1]


def test_positions_are_written_two_digits_a_turn() -> None:
    state = GAME.parse("4454")
    assert isinstance(state, Connect4ChanceState)
    assert state.text() == "4454" and state.ply == 2 and state.player == 1
    assert state.rows()[-2:] == ["...O...", "...X..."]
    drop = GAME.parse("445")
    assert isinstance(drop, ChanceDrop)
    assert drop.text() == "445" and drop.column == 4 and drop.mover == -1 and drop.ply == 1
    assert drop.rows() == GAME.parse("44").rows()
    assert GAME.parse(" 44 54 ") == state and GAME.parse("-") == GAME.start()
    assert drop.play(3) == state and drop.play(3).text() == "4454"


def test_keys_tell_chance_nodes_from_positions_where_a_player_chooses() -> None:
    state = GAME.parse("44")
    drop = state.play(3)
    assert state.key() == state.board.key()
    assert drop.key() == (state.board.key(), 3) and drop.key() != state.play(4).key()
    assert len({GAME.parse(text).key() for text in ("", "4", "44", "443", "4434")}) == 5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4452", "move 4 ('2'): a disc aimed at column 5 lands in 4, 5, 6 only"),
        ("48", "move 2 ('8'): a disc aimed at column 4 lands in 3, 4, 5 only"),
        ("8", "move 1 ('8'): not a column; columns are 1 to 7"),
        ("4x", "move 2 ('x'): a disc aimed at column 4 lands in 3, 4, 5 only"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(PositionError) as raised:
        GAME.parse(text)
    assert str(raised.value) == message


def test_game_names_choose_size_and_probabilities() -> None:
    assert make_game("connect4-chance") == GAME and GAME.name == "connect4-chance"
    small = make_game("connect4-chance:5x4:0.5,0.25")
    assert isinstance(small, Connect4Chance)
    assert (small.board.width, small.board.height, small.keep, small.side) == (5, 4, 0.5, 0.25)
    assert small.name == "connect4-chance:5x4:0.5,0.25" and make_game(small.name) == small
    assert make_game("connect4-chance:0.6,0.2").name == "connect4-chance"
    certain = make_game("connect4-chance:1,0")
    assert isinstance(certain, Connect4Chance)
    assert certain.start().play(3).outcomes() == ((3, 1.0),)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "connect4-chance:0.5,0.3",
            "chance probabilities 0.5,0.3: KEEP and SIDE must be between 0 and 1 with KEEP + 2 x SIDE = 1",
        ),
        ("connect4-chance:1.2,-0.1", "chance probabilities 1.2,-0.1: KEEP and SIDE must be between 0 and 1"),
        ("connect4-chance:nan,0.2", "game 'connect4-chance:nan,0.2': 'nan,0.2' is not KEEP,SIDE"),
        (
            "connect4-chance:0.6",
            "game 'connect4-chance:0.6': '0.6' is not KEEP,SIDE, two probabilities such as 0.6,0.2",
        ),
        ("connect4-chance:a,b", "game 'connect4-chance:a,b': 'a,b' is not KEEP,SIDE"),
        ("connect4-chance:3x4", "board size 3x4 is out of range"),
        ("connect4-chance:7x6:0.6,0.2:x", "game 'connect4-chance:7x6:0.6,0.2:x': write connect4-chance"),
    ],
)
def test_bad_game_names_are_refused_with_the_reason(name: str, message: str) -> None:
    with pytest.raises(PositionError) as raised:
        make_game(name)
    assert str(raised.value).startswith(message)


def test_a_chance_node_has_no_result_and_the_game_ends_on_a_landing() -> None:
    drop = GAME.parse("1111222233334")  # the first player's discs in columns 1-3, one aimed at column 4
    assert not drop.is_terminal() and drop.winner() is None
    with pytest.raises(ValueError, match="chance node"):
        drop.utility()
    won = drop.play(3)
    assert won.is_terminal() and won.winner() == 1 and won.utility() == 1 and won.legal_moves() == ()
    slipped = drop.play(4)  # slipped into column 5: no four
    assert not slipped.is_terminal()


def test_the_probability_on_an_edge() -> None:
    state = GAME.parse("44")
    drop = state.play(0)
    assert outcome_probability(drop, 0) == pytest.approx(0.8) and outcome_probability(drop, 1) == 0.2
    assert outcome_probability(drop, 5) == 0.0
    assert outcome_probability(state, 0) is None

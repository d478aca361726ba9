"""Connect Four rules: perft counts, move strings, keys, board sizes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyscope.engine.benchmarks.rules import perft
from plyscope.engine.games import Connect4, Connect4State, PositionError
from plyscope.engine.kits import make_game


def random_game(rng: random.Random, game: Connect4, plies: int) -> Connect4State:
    state = game.start()
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize(
    ("depth", "leaves"), [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807), (6, 117649), (7, 823536)]
)
def test_perft_from_the_start(depth: int, leaves: int) -> None:
    assert perft(Connect4().start(), depth) == leaves


def test_perft_on_a_small_board_counts_full_columns() -> None:
    # 4 columns of height 4: every sequence fits until a column fills at the 4th stone.
    game = Connect4(4, 4)
    assert perft(game.start(), 4) == 4**4
    assert perft(game.start(), 5) == 4**5 - 4  # the four sequences that fill one column leave 3 moves


def test_move_string_round_trip_on_random_games() -> None:
    rng = random.Random(7)
    for size in [(7, 6), (4, 4), (10, 10), (8, 7), (6, 5)]:
        game = Connect4(*size)
        for _ in range(50):
            state = random_game(rng, game, rng.randrange(game.cells + 1))
            again = game.parse(state.text())
            assert again == state
            assert again.text() == state.text()
            assert again.winner() == state.winner()
            assert again.key() == state.key()


def test_pons_strings_parse_to_the_board_they_describe() -> None:
    state = Connect4().parse("4453")
    assert state.rows()[-2:] == ["...O...", "..OXX.."]
    assert state.player == 1
    assert state.ply == 4
    assert state.text() == "4453"


def test_tenth_column_is_written_zero() -> None:
    game = Connect4(10, 10)
    state = game.parse("0")
    assert state.moves() == [9]
    assert state.move_label(9) == "0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8", "move 1 ('8'): not a column; columns are 1 to 7"),
        ("0", "move 1 ('0'): not a column; columns are 1 to 7"),
        ("44a", "move 3 ('a'): not a column; columns are 1 to 7"),
        ("4 4", "move 2 (' '): not a column; columns are 1 to 7"),
        ("4444444", "move 7 ('4'): column 4 is full"),
        ("12121212", "move 8 ('2'): the game is already over after move 7"),
        ("-1", "move 1 ('-'): not a column; columns are 1 to 7"),
    ],
)
def test_invalid_move_strings_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PositionError) as error:
        Connect4().parse(text)
    assert str(error.value) == message


def test_empty_string_and_dash_are_the_start() -> None:
    assert Connect4().parse("") == Connect4().start()
    assert Connect4().parse("-") == Connect4().start()


@pytest.mark.parametrize("size", ["connect4:3x6", "connect4:7x11", "connect4:11x4"])
def test_board_sizes_out_of_range_are_refused(size: str) -> None:
    with pytest.raises(PositionError, match="out of range: width and height go from 4 to 10"):
        make_game(size)


def test_wins_in_every_direction() -> None:
    game = Connect4()
    assert game.parse("1212121").winner() == 1  # vertical, first player
    assert game.parse("1122334").winner() == 1  # horizontal
    assert game.parse("12233434544").winner() == 1  # diagonal /
    assert game.parse("76655454344").winner() == 1  # diagonal \
    assert game.parse("71122334").winner() == -1  # horizontal, second player


def test_full_board_without_four_is_a_draw() -> None:
    # Columns filled in pairs 1-2, 3-4, 5-6 with a shift, then column 7: a known drawn fill.
    moves = "121212" + "343434" + "565656" + "212121" + "434343" + "656565" + "777777"
    state = Connect4().parse(moves)
    assert state.ply == 42
    assert state.winner() == 0
    assert state.utility() == 0
    assert state.legal_moves() == ()


def test_transposition_key_ignores_move_order() -> None:
    game = Connect4()
    assert game.parse("4453").key() == game.parse("5344").key()
    assert game.parse("4453").key() != game.parse("3445").key()  # same cells, other colours


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 42))
def test_keys_identify_positions(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    game = Connect4()
    a = random_game(rng, game, plies)
    b = random_game(rng, game, plies)
    assert (a.key() == b.key()) == (a.rows() == b.rows() and a.player == b.player)


def test_winning_cells_and_fours() -> None:
    game = Connect4()
    state = game.parse("11223")  # first player: 1,2,3 on the bottom row; to move: second player
    first = state.stones(1)
    threats = game.winning_cells(first, state.mask)
    assert threats == game.cell(3, 0)  # column 4, bottom row
    won = state.play(6).play(3)  # second player elsewhere, first player completes 1234
    assert won.winner() == 1
    assert game.fours(won.stones(1)) == sum(game.cell(c, 0) for c in range(4))


def test_states_are_values() -> None:
    state = Connect4().parse("44")
    child = state.play(2)
    assert state.text() == "44"
    assert child.text() == "443"
    assert state != child
    assert hash(Connect4().parse("44")) == hash(state)

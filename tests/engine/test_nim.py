"""Nim rules: Grundy's game and classic Nim, checked against their known results.

Grundy's game: its losing piles and Sprague-Grundy values (Grundy 1939, "Mathematics and games"; Berlekamp,
Conway and Guy 1982, Winning Ways, vol. 1, ch. 4; OEIS A002188).  Classic and misère Nim: Bouton's rule
(Bouton 1901, "Nim, a game with a complete mathematical theory").
"""

from __future__ import annotations

import itertools
from functools import cache, reduce
from operator import xor

import pytest

from plyscope.engine.games import Nim, NimState, PositionError
from plyscope.engine.kits import make_game

GRUNDY = Nim("grundy")
CLASSIC = Nim("classic")
MISERE = Nim("classic", misere=True)


@cache
def mover_wins(state: NimState) -> bool:
    """Exhaustive search over the engine's own move generator: does the player to move win?"""
    if state.is_terminal():
        return state.winner() == state.player
    return any(not mover_wins(state.play(move)) for move in state.legal_moves())


@cache
def grundy_value(pile: int) -> int:
    """Sprague-Grundy value of one pile of Grundy's game, from the engine's moves."""
    options = (
        {grundy_value(part) ^ grundy_value(pile - part) for _, part in GRUNDY.parse(str(pile)).legal_moves()}
        if pile > 2
        else set()
    )
    return next(v for v in itertools.count() if v not in options)


def test_grundy_first_player_loses_exactly_for_the_known_sizes() -> None:
    losses = [n for n in range(1, 41) if not mover_wins(GRUNDY.parse(str(n)))]
    assert losses == [1, 2, 4, 7, 10, 20, 23, 26]


def test_grundy_sprague_grundy_values() -> None:
    expected = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
    assert [grundy_value(n) for n in range(21)] == expected


def test_grundy_eight_is_won_by_seven_plus_one() -> None:
    state = GRUNDY.parse("8")
    winning = [state.move_label(m) for m in state.legal_moves() if not mover_wins(state.play(m))]
    assert winning == ["8=7+1"]


def test_grundy_moves_split_into_unequal_piles() -> None:
    state = GRUNDY.parse("6")
    assert [state.move_label(m) for m in state.legal_moves()] == ["6=5+1", "6=4+2"]
    assert state.play((6, 4)).piles == (4, 2)
    assert GRUNDY.parse("2,1").is_terminal()


def test_piles_are_a_multiset() -> None:
    assert GRUNDY.parse("5,2") == GRUNDY.parse("2, 5") == GRUNDY.parse("2 5")
    assert CLASSIC.parse("3,0,4").text() == "4,3"


@pytest.mark.parametrize("piles", list(itertools.combinations_with_replacement(range(0, 6), 3)))
def test_classic_nim_xor_rule(piles: tuple[int, ...]) -> None:
    state = CLASSIC.parse(",".join(map(str, piles)))
    assert mover_wins(state) == (reduce(xor, piles) != 0)


def test_classic_nim_known_positions() -> None:
    assert not mover_wins(CLASSIC.parse("1,3,5,7"))
    assert mover_wins(CLASSIC.parse("3,4,5"))


@pytest.mark.parametrize("piles", list(itertools.combinations_with_replacement(range(0, 5), 3)))
def test_misere_nim_rule(piles: tuple[int, ...]) -> None:
    """Misère: the mover wins iff some pile > 1 and XOR != 0, or all piles <= 1 and XOR == 0."""
    state = MISERE.parse(",".join(map(str, piles)))
    nim_sum = reduce(xor, piles)
    expected = nim_sum != 0 if max(piles) > 1 else nim_sum == 0
    assert mover_wins(state) == expected


def test_position_text_names_the_second_player_to_move() -> None:
    after = CLASSIC.parse("3,4,5").play((5, 5))
    assert after.text() == "4,3/2"
    assert CLASSIC.parse(after.text()) == after
    assert CLASSIC.parse("4,3/1") == CLASSIC.parse("4,3")
    with pytest.raises(PositionError, match="'/3' does not name the player to move"):
        CLASSIC.parse("4,3/3")


def test_classic_moves_and_labels_round_trip() -> None:
    state = CLASSIC.parse("3,1")
    labels = [state.move_label(m) for m in state.legal_moves()]
    assert labels == ["3-3", "3-2", "3-1", "1-1"]
    assert all(state.parse_move(label) == move for label, move in zip(labels, state.legal_moves(), strict=True))
    assert state.play(state.parse_move("3-2")).piles == (1, 1)


def test_terminal_and_winner() -> None:
    done = CLASSIC.parse("1").play((1, 1))
    assert done.is_terminal() and done.winner() == 1 and done.utility() == 1
    misere_done = MISERE.parse("1").play((1, 1))
    assert misere_done.winner() == -1


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        ("grundy", "", "no piles: write pile sizes such as 7 or 3,4,5"),
        ("grundy", "7,x", "pile 'x' is not a whole number of tokens"),
        ("nim", "-3", "pile '-3' is not a whole number of tokens"),
        ("nim", "3.5", "pile '3.5' is not a whole number of tokens"),
        ("nim", "5000", "pile 5000 is too large: at most 1000 tokens a pile"),
    ],
)
def test_bad_pile_text(game: str, text: str, message: str) -> None:
    with pytest.raises(PositionError) as error:
        make_game(game).parse(text)
    assert str(error.value) == message


def test_bad_move_text() -> None:
    with pytest.raises(PositionError, match="not legal here: split a pile"):
        GRUNDY.parse("6").parse_move("6=3+3")
    with pytest.raises(PositionError, match="not legal here: take tokens"):
        CLASSIC.parse("3").parse_move("3-4")
    assert GRUNDY.parse("6").parse_move("5+1") == (6, 5)


def test_unknown_game_is_refused() -> None:
    with pytest.raises(PositionError, match="unknown game 'chess'"):
        make_game("chess")

"""Static evaluators: Rivest's numbers, ranges and colour symmetry; the threat heuristic."""

from __future__ import annotations

import random

import pytest

from plyscope.engine.games import Connect4, Connect4State, PositionError
from plyscope.engine.games.evaluators import (
    NeutralEvaluator,
    RivestEvaluator,
    ThreatEvaluator,
    finished_on_rivest_scale,
)
from plyscope.engine.kits import make_game
from plyscope.engine.kits.evaluation import make_evaluator
from tests.engine.test_connect4 import random_game

GAME = Connect4()


def colour_swapped(state: Connect4State) -> Connect4State:
    """The same stones with the colours exchanged (and so the other colour to move)."""
    return Connect4State(state.game, state.current, state.mask, state.ply + 1, None)


def test_rivest_values_from_the_paper() -> None:
    rivest = RivestEvaluator(GAME)
    assert rivest(GAME.start()) == 528
    assert rivest(GAME.parse("4")) == 503


def test_rivest_terminal_values_carry_the_ply_the_game_ended_at() -> None:
    """Rivest's 1023 (first player won) and 1 (second player won), less or plus a thousandth a ply: a quicker
    win and a slower loss are worth more, and every one stays outside the open positions' 2..1022."""
    rivest = RivestEvaluator(GAME)
    assert rivest(GAME.parse("1212121")) == 1022.993  # won at ply 7
    assert rivest(GAME.parse("671212121")) == 1022.991  # won at ply 9
    assert rivest(GAME.parse("71122334")) == 1.008  # lost at ply 8
    assert finished_on_rivest_scale(1, 100) == 1022.9 and finished_on_rivest_scale(-1, 100) == 1.1  # 10x10's last
    assert finished_on_rivest_scale(0, 42) == 512
    assert NeutralEvaluator()(make_game("nim").parse("1/2").play((1, 1))) == 1.002  # the second player took the last


def test_rivest_range_and_colour_symmetry() -> None:
    rivest = RivestEvaluator(GAME)
    rng = random.Random(3)
    for _ in range(500):
        state = random_game(rng, GAME, rng.randrange(40))
        if state.is_terminal():
            continue
        value = rivest(state)
        assert 2 <= value <= 1022
        assert rivest(colour_swapped(state)) == 1024 - value


def test_threat_evaluator_range_and_mirror_symmetry() -> None:
    """Not colour-symmetric by design: the zugzwang rows favour each colour differently."""
    threats = ThreatEvaluator(GAME)
    rng = random.Random(5)
    for _ in range(500):
        state = random_game(rng, GAME, rng.randrange(40))
        value = threats(state)
        assert -1000 <= value <= 1000
        if not state.is_terminal():
            mirrored = GAME.parse("".join(str(8 - int(c)) for c in state.text()))
            assert threats(mirrored) == value


def test_threat_evaluator_sees_a_win_next_move() -> None:
    threats = ThreatEvaluator(GAME)
    assert threats(GAME.parse("112233")) == 900  # first player to move completes 1234
    assert threats(GAME.parse("7112233")) == -900  # second player to move completes 1234
    assert threats(GAME.parse("1212121")) == 1000 - 7


def test_neutral_evaluator() -> None:
    neutral = NeutralEvaluator()
    grundy = make_game("grundy")
    assert neutral(grundy.parse("7")) == 512
    assert neutral(grundy.parse("2,1")) == 1  # first player to move cannot move: second player won


def test_evaluators_refuse_games_they_do_not_fit() -> None:
    with pytest.raises(PositionError, match="evaluator 'rivest' does not fit grundy"):
        make_evaluator("rivest", make_game("grundy"))
    assert make_evaluator("threats", GAME).name == "threats"

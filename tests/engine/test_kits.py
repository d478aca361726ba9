"""Games are kits (``plyscope.engine.kits``): one registry the engine and the UI ask, which refuses an unknown game."""

from __future__ import annotations

import importlib.util

import pytest

from plyscope.engine.exact import Exact
from plyscope.engine.games.base import PositionError
from plyscope.engine.games.nim import Nim
from plyscope.engine.kits import game_choices, game_names, kit_of, kits, make_game
from plyscope.engine.kits.evaluation import default_evaluator, evaluator_names, make_evaluator
from plyscope.engine.search.base import SearchError
from plyscope.engine.search.registry import (
    algorithm,
    algorithms,
    check_plays,
    kits_played,
    make_searcher,
    plays,
    refusal,
)


class Stray(Nim):
    """Nim's rules under a kit registered nowhere."""

    kit = "nosuch"


def test_an_unknown_kit_is_refused_never_taken_for_another_game() -> None:
    """Issue 37: a game the registry did not know was classed as Nim's; now every question names the missing kit."""
    stray = Stray("classic")
    with pytest.raises(PositionError, match=r"no game kit is named 'nosuch' \(the kit of nim\)"):
        kit_of(stray)
    with pytest.raises(PositionError, match="no game kit is named 'nosuch'"):
        plays(algorithm("minimax"), stray)
    with pytest.raises(PositionError, match="no game kit is named 'nosuch'"):
        make_searcher("minimax", stray.parse("3,4,5"))
    with pytest.raises(PositionError, match="no game kit is named 'nosuch'"):
        Exact().refusal(stray)
    with pytest.raises(PositionError, match="no game kit is named 'nosuch'"):
        make_evaluator("neutral", stray)
    with pytest.raises(PositionError, match=r"^unknown game 'chess': choose one of connect4, connect4:WxH, "):
        make_game("chess")


OPENSPIEL = ["openspiel"] if importlib.util.find_spec("pyspiel") else []
"""OpenSpiel's kit, there where OpenSpiel is installed (the extra ``plyscope[openspiel]``)."""


def test_every_built_in_game_is_a_kit_that_makes_its_names() -> None:
    assert list(kits()) == ["connect4", "connect4-chance", "nim", *OPENSPIEL, "tictactoe", "tree"]
    assert {"connect4", "grundy", "nim", "nim-misere", "tree", "tictactoe", "connect4-chance"} <= set(game_names())
    for name in game_choices():
        game = make_game(name)
        assert kit_of(game).make(name) == game and game.name == name
        assert kit_of(game).first().kit == game.kit


def test_a_searchers_refusal_comes_from_the_kit() -> None:
    """``AlgorithmInfo.games`` restricts a searcher to kits, ``chance`` says whether it handles chance nodes."""
    chance, tree_with_chance = make_game("connect4-chance"), make_game("tree").parse("chance").game
    assert refusal(algorithm("mcts"), chance) is None and refusal(algorithm("mcts"), tree_with_chance) is None
    said = refusal(algorithm("alphabeta"), tree_with_chance)
    assert said is not None and said.startswith("alphabeta cannot search chance nodes: on tree use expectiminimax")
    assert refusal(algorithm("solver"), make_game("tictactoe")) == "solver works on connect4 only, not on tictactoe"
    with pytest.raises(SearchError, match="solver works on connect4 only, not on grundy"):
        check_plays(algorithm("solver"), make_game("grundy"))
    assert kits_played(algorithm("minimax")) == ["connect4", "nim", *OPENSPIEL, "tictactoe", "tree"]
    assert all(info.chance == ("connect4-chance" in kits_played(info)) for info in algorithms().values())


def test_the_default_evaluator_is_the_kits_first_and_every_kits_evaluator_is_a_choice() -> None:
    for name, first in (("connect4", "rivest"), ("connect4-chance", "features"), ("nim", "neutral"), ("tree", "tree")):
        assert default_evaluator(make_game(name)) == first
    assert default_evaluator(make_game("tictactoe")) == "lines"
    assert set(evaluator_names()) == {"rivest", "threats", "features", "neutral", "playouts", "lines", "tree"}
    with pytest.raises(PositionError, match="evaluator 'lines' does not fit connect4: choose features or neutral"):
        make_evaluator("lines", make_game("connect4"))


def test_the_truth_of_tic_tac_toe_is_a_draw_everywhere_at_the_start() -> None:
    exact = Exact()
    start = make_game("tictactoe").start()
    assert exact.refusal(start.game) is None
    truth = exact.truth(start)
    assert truth.score is not None and truth.score.first() == 0
    solve = exact.moves(start)
    assert solve.finished and {bounds.first() for bounds in solve.bounds().values()} == {(0, 0)}

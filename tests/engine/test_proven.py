"""``Searcher.proven()``: what each searcher has proven about the game, checked against the exact solution."""

from __future__ import annotations

import pytest

from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.search.bestfirst.bestfirst import BestFirst
from plyscope.engine.search.registry import make_searcher
from plyscope.engine.solve import PositionSolve

# Connect Four positions near the end (from Pons' End-Easy set), a loss, a win, a loss and a draw for the player to
# move (best-first minimax's principal variation reaches a draw there at its fourth step, before the draw is proven).
ENDGAMES = (
    "2252576253462244111563365343671351441",
    "7422341735647741166133573473242566",
    "65214673556155731566316327373221417",
    "23163416124767223154467471272416755633",
)


def exact_result(game: str, position: str) -> int:
    """The first player's result with best play: +1, 0 or -1."""
    state = make_game(game).parse(position)
    solving = PositionSolve(state)
    solving.run()
    score = solving.solution().score
    assert score is not None
    first = score.first()
    return (first > 0) - (first < 0)


@pytest.mark.parametrize("position", ENDGAMES)
@pytest.mark.parametrize(
    "spec",
    [
        ("alphabeta", {}),
        ("bestfirst", {}),
        ("rivest", {}),
        ("mcts", {"solver": True}),
        ("pns", {"target": "draw-or-win"}),
        ("solver", {}),
    ],
)
def test_a_finished_search_proves_the_exact_result(position: str, spec: tuple[str, dict[str, object]]) -> None:
    name, params = spec
    state = make_game("connect4").parse(position)
    searcher = make_searcher(name, state, params, seed=1)
    assert searcher.proven() is None
    searcher.run(Limit(moves=2_000_000))
    assert searcher.finished
    verdict = searcher.proven()
    assert verdict is not None
    lowest, highest = verdict
    result = exact_result("connect4", position)
    assert lowest <= result <= highest
    if name != "pns":
        assert lowest == highest == result


@pytest.mark.parametrize(("position", "won"), [("3,4,5", True), ("2,4,6", False)])
def test_proof_number_search_settles_nim(position: str, won: bool) -> None:
    """The claim "the player to move wins" settled; a disproof's bounds are losses only (Nim has no draws)."""
    searcher = make_searcher("pns", make_game("nim").parse(position))
    searcher.run(Limit(moves=1_000_000))
    assert searcher.proven() == ((1, 1) if won else (-1, -1))


def test_best_first_proves_the_result_and_then_its_length() -> None:
    """Korf and Chickering's search ends at -960 with ``eval=threats`` here (a win for the second player at ply
    40); the exact value is -966 (at ply 34), which the refinement after it finds."""
    state = make_game("connect4").parse("3734156763667367115423357654447")
    best_first = make_searcher("bestfirst", state, {"eval": "threats"})
    assert isinstance(best_first, BestFirst)
    while not best_first.decided():  # Korf and Chickering's search: until its principal leaf ends the game
        assert best_first.step() is not None
    assert best_first.value().first() == -960 and not best_first.finished and best_first.proven() == (-1, -1)
    result = best_first.run(Limit(moves=2_000_000))
    assert result.finished and result.value.first() == -966 and best_first.proven() == (-1, -1)
    alpha_beta = make_searcher("alphabeta", state, {"eval": "threats"})
    assert alpha_beta.run(Limit(moves=5_000_000)).value.first() == -966
    assert exact_result("connect4", "3734156763667367115423357654447") == -1

"""Plain minimax, the reference the other searchers are checked against: its values, its steps, its budget."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from plyscope.engine.games import Connect4, Nim, State
from plyscope.engine.kits.evaluation import make_evaluator
from plyscope.engine.search import Limit, SearchError
from plyscope.engine.search.minimax import Minimax, MinimaxNode
from plyscope.engine.search.registry import make_searcher
from tests.engine.synthetic import SyntheticEvaluator, SyntheticGame

pytestmark = pytest.mark.usefixtures("hand_made_kit")
"""Their hand-made games name the tests' kit."""

C4 = Connect4()
GRUNDY = Nim("grundy")
CLASSIC = Nim("classic")


def recursive_minimax(state: State, depth: int, evaluate: Callable[[State], float]) -> float:
    """Minimax written the textbook way, first player MAX: the value every test compares with."""
    if depth == 0 or state.is_terminal():
        return evaluate(state)
    values = [recursive_minimax(state.play(move), depth - 1, evaluate) for move in state.legal_moves()]
    return max(values) if state.player > 0 else min(values)


def signature(searcher: Minimax) -> list[tuple[object, ...]]:
    return [(tuple(node.moves()), node.value, node.player) for node in searcher.walk()]


@st.composite
def positions(draw: st.DrawFn) -> State:
    """A Connect Four, Grundy or classic Nim position where the game is not over."""
    game = draw(st.sampled_from(["connect4", "grundy", "nim"]))
    if game == "connect4":
        state = C4.start()
        for column in draw(st.lists(st.integers(0, 6), max_size=14)):
            if state.can_play(column) and not state.play(column).is_terminal():
                state = state.play(column)
        return state
    piles = draw(st.lists(st.integers(1, 8 if game == "grundy" else 4), min_size=1, max_size=3))
    nim_state = (GRUNDY if game == "grundy" else CLASSIC).parse(",".join(map(str, piles)))
    assume(not nim_state.is_terminal())
    return nim_state


@settings(max_examples=40, deadline=None)
@given(positions(), st.integers(0, 3))
def test_value_is_the_textbook_minimax_value(state: State, depth: int) -> None:
    searcher = Minimax(state, depth=depth)
    result = searcher.run(Limit())
    assert result.finished
    assert result.value.first() == recursive_minimax(state, depth, searcher.evaluator)
    if depth > 0:
        best = result.best_move
        assert recursive_minimax(state.play(best), depth - 1, searcher.evaluator) == result.value.first()


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(2, 4), st.integers(1, 4))
def test_every_node_holds_the_minimax_value_of_its_subtree(data: st.DataObject, branching: int, depth: int) -> None:
    leaves = data.draw(st.lists(st.integers(-5, 5), min_size=branching**depth, max_size=branching**depth))
    game = SyntheticGame(branching, depth, leaves=leaves)
    searcher = Minimax(game.start(), depth=depth, evaluator=SyntheticEvaluator())
    searcher.run(Limit())
    evaluate = SyntheticEvaluator()
    for node in searcher.walk():
        assert node.value == recursive_minimax(searcher.state_at(node), depth - node.depth, evaluate)


def test_visits_every_node_to_the_depth_once() -> None:
    """b = 10, d = 5: 10 + 100 + 1,000 + 10,000 + 100,000 = 111,110 moves, one per node below the root."""
    game = SyntheticGame(10, 5)
    searcher = Minimax(game.start(), depth=5, evaluator=SyntheticEvaluator())
    searcher.run(Limit())
    assert searcher.stats.moves == searcher.stats.iterations == 111_110
    assert searcher.stats.nodes == 111_111 and searcher.stats.max_depth == 5
    assert searcher.value().first() == 0.0 and searcher.best_move() == 0  # the first child is best in a "perfect" tree


def test_depth_cut_off_uses_the_static_evaluation() -> None:
    state = C4.parse("445")
    rivest = make_evaluator("rivest", C4)
    searcher = Minimax(state, depth=1, evaluator="rivest")
    searcher.run(Limit())
    assert [child.value for child in searcher.root.children if isinstance(child, MinimaxNode)] == [
        rivest(state.play(move)) for move in state.legal_moves()
    ]
    # The second player is to move after "445": the root takes the least child value.
    assert state.player == -1
    assert searcher.value().first() == min(rivest(state.play(move)) for move in state.legal_moves())


def test_depth_zero_is_the_static_value_of_the_root() -> None:
    searcher = Minimax(C4.start(), depth=0, evaluator="rivest")
    assert searcher.finished and searcher.value().first() == 528.0  # Rivest's empty board, first player to move
    assert searcher.best_move() is None and searcher.step() is None and searcher.stats.moves == 0


def test_grundy_7_is_lost_and_8_is_won_by_splitting_off_1() -> None:
    seven = Minimax(GRUNDY.parse("7"), depth=12)
    assert seven.run(Limit()).value.first() == 1.004  # the neutral evaluator's "second player won at ply 4"
    eight = Minimax(GRUNDY.parse("8"), depth=12)
    result = eight.run(Limit())
    assert result.value.first() == 1022.995  # "the first player won at ply 5"
    assert GRUNDY.parse("8").move_label(result.best_move) == "8=7+1"


def test_best_move_leaves_out_a_child_still_being_searched() -> None:
    """Two moves, depth 2; the second MIN child is open after its first leaf::

                root (MAX)
               /          \\
          0 (MIN) = 3    1 (MIN): 9 so far, 1 in the end
           /    \\          /    \\
          3      5        9      1

    While ``1`` is open its partial 9 must not make it the best move: the root holds 3.
    """
    game = SyntheticGame(2, 2, leaves=[3, 5, 9, 1])
    searcher = Minimax(game.start(), depth=2, evaluator=SyntheticEvaluator())
    for _ in range(5):  # 0, 0 0, 0 1, 1, 1 0
        searcher.step()
    assert searcher.root.children[1].value == 9
    assert searcher.best_move() == 0 and searcher.value().first() == 3
    assert searcher.principal_variation() == [0, 0]
    searcher.step()
    assert searcher.finished and searcher.best_move() == 0 and searcher.value().first() == 3


def test_steps_add_one_node_and_report_the_values_they_change() -> None:
    game = SyntheticGame(2, 2, leaves=[3, 5, 9, 1])
    searcher = Minimax(game.start(), depth=2, evaluator=SyntheticEvaluator())
    steps = []
    while (step := searcher.step()) is not None:
        steps.append(step)
    assert [tuple(step.node.moves()) for step in steps] == [(0,), (0, 0), (0, 1), (1,), (1, 0), (1, 1)]
    for step in steps:
        assert step.added == (step.node,) and step.path[-1] is step.node and step.path[0] is searcher.root
    # The last leaf lowers its parent from 9 to 1; the root keeps 3.
    assert [tuple(node.moves()) for node in steps[-1].changed] == [(1, 1), (1,)]
    assert searcher.stats.iterations == 6


@pytest.mark.parametrize("budget", [0, 1, 5, 40, 399])
def test_run_builds_the_same_tree_as_stepping_and_keeps_to_its_budget(budget: int) -> None:
    state = C4.parse("4453")
    stepped = Minimax(state, depth=3)
    while stepped.step(budget - stepped.stats.moves) is not None:
        pass
    ran = Minimax(state, depth=3)
    result = ran.run(Limit(moves=budget))
    assert signature(ran) == signature(stepped)
    assert result.stats.moves == stepped.stats.moves == budget  # one move per step, never more
    assert result.best_move == stepped.best_move() and result.value.first() == stepped.value().first()


def test_registry_checks_the_depth() -> None:
    assert isinstance(make_searcher("minimax", C4.start(), {"depth": 2}), Minimax)
    with pytest.raises(SearchError, match="above its range"):
        make_searcher("minimax", C4.start(), {"depth": 13})

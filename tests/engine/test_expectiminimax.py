"""Expectiminimax and Star1: the textbook expectation, the same value with fewer nodes, steps and refusals."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyscope.engine.games import CHANCE, Connect4, Connect4Chance, Nim, State, is_chance
from plyscope.engine.kits import make_game
from plyscope.engine.kits.evaluation import make_evaluator
from plyscope.engine.search import Limit, SearchError
from plyscope.engine.search.alphabeta.searcher import AlphaBeta
from plyscope.engine.search.expectiminimax import EXACT, LOWER, UPPER, Expectiminimax, ExpectiNode
from plyscope.engine.search.minimax import Minimax
from plyscope.engine.search.registry import make_searcher
from tests.engine.test_chance import random_chance_position


def chance_game(name: str) -> Connect4Chance:
    game = make_game(name)
    assert isinstance(game, Connect4Chance)
    return game


SMALL = chance_game("connect4-chance:4x4")
DYADIC = chance_game("connect4-chance:4x4:0.5,0.25")
"""Probabilities that are exact in binary: with an integer-valued evaluator every expectation is exact."""


def brute_force(state: State, turns: int, evaluate: Callable[[State], float]) -> float:
    """Expectiminimax written the textbook way, depth in turns: the value every test compares with."""
    if state.is_terminal():
        return evaluate(state)
    if is_chance(state):
        return sum(p * brute_force(state.play(move), turns, evaluate) for move, p in state.outcomes())
    if turns == 0:
        return evaluate(state)
    values = [brute_force(state.play(move), turns - 1, evaluate) for move in state.legal_moves()]
    return max(values) if state.player > 0 else min(values)


def searched(state: State, depth: int, pruning: str = "none", evaluator: str = "features") -> Expectiminimax:
    searcher = Expectiminimax(state, depth=depth, pruning=pruning, evaluator=evaluator)
    assert searcher.run(Limit()).finished
    return searcher


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 6), st.integers(1, 3), st.sampled_from(["features", "threats"]))
def test_value_is_the_brute_force_expectation_on_4x4(seed: int, turns: int, depth: int, evaluator: str) -> None:
    state = random_chance_position(random.Random(seed), SMALL, turns)
    if state.is_terminal():
        return
    searcher = searched(state, depth, evaluator=evaluator)
    assert searcher.value().first() == pytest.approx(brute_force(state, depth, searcher.evaluator), abs=1e-9)
    best = searcher.best_move()
    assert best is not None
    assert brute_force(state.play(best), depth - 1, searcher.evaluator) == pytest.approx(
        searcher.value().first(), abs=1e-9
    )


@pytest.mark.parametrize("position", ["", "2233", "1122", "11223344"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_exact_probabilities_give_exactly_the_brute_force_value(position: str, depth: int) -> None:
    state = DYADIC.parse(position)
    searcher = searched(state, depth, evaluator="threats")
    assert searcher.value().first() == brute_force(state, depth, searcher.evaluator)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 6), st.integers(1, 3))
def test_star1_returns_the_value_of_plain_expectiminimax(seed: int, turns: int, depth: int) -> None:
    state = random_chance_position(random.Random(seed), DYADIC, turns)
    if state.is_terminal():
        return
    plain = searched(state, depth, evaluator="threats")
    star1 = searched(state, depth, "star1", evaluator="threats")
    assert star1.value().first() == plain.value().first()
    assert star1.best_move() == plain.best_move()
    assert star1.stats.nodes <= plain.stats.nodes
    assert star1.root.bound == EXACT


@pytest.mark.parametrize(
    ("game", "position", "depth", "chance_cuts"),
    [
        ("connect4-chance:4x4", "", 3, False),
        ("connect4-chance:4x4", "2143114421", 3, True),
        ("connect4-chance", "", 2, False),
        ("connect4-chance", "22763377", 3, True),
    ],
)
def test_star1_visits_fewer_nodes_for_the_same_value(game: str, position: str, depth: int, chance_cuts: bool) -> None:
    """From the start every value is far inside the evaluator's range [L, U], so Star1 cuts off no chance
    node early (only alpha-beta at MAX and MIN nodes saves nodes); where wins are near, it does."""
    state = make_game(game).parse(position)
    plain = searched(state, depth)
    star1 = searched(state, depth, "star1")
    assert star1.value().first() == pytest.approx(plain.value().first(), abs=1e-9)
    assert star1.stats.nodes < plain.stats.nodes
    assert star1.stats.moves == star1.stats.nodes - 1  # one move per node visited
    cut = [node for node in star1.walk() if node.pruned]
    assert any(node.player == CHANCE for node in cut) == chance_cuts
    for node in cut:
        assert node.bound in (LOWER, UPPER) and len(node.children) + node.pruned == len(
            star1.state_at(node).legal_moves()
        )


def test_a_star1_cut_off_returns_a_sound_bound() -> None:
    """Every chance node Star1 cut off has an exact value on the right side of its bound."""
    state = SMALL.parse("2143114421")
    star1 = searched(state, 3, "star1")
    checked = 0
    for node in star1.walk():
        if node.player != CHANCE or node.bound == EXACT or node.bound is None:
            continue
        turns_left = 3 - sum(1 for n in node.path()[:-1] if isinstance(n, ExpectiNode) and n.player != CHANCE)
        exact = brute_force(star1.state_at(node), turns_left, star1.evaluator)
        assert node.value is not None
        assert (exact <= node.value + 1e-9) if node.bound == UPPER else (exact >= node.value - 1e-9)
        assert node.alpha is not None and node.beta is not None
        assert (node.value <= node.alpha + 1e-9) if node.bound == UPPER else (node.value >= node.beta - 1e-9)
        checked += 1
    assert checked > 10


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["", "4453", "3344", "1212"]), st.integers(1, 3), st.sampled_from(["rivest", "threats"]))
def test_without_chance_it_is_minimax_and_star1_is_alpha_beta(position: str, depth: int, evaluator: str) -> None:
    state = Connect4().parse(position)
    plain = searched(state, depth, evaluator=evaluator)
    minimax = Minimax(state, depth=depth, evaluator=evaluator)
    minimax.run(Limit())
    assert (plain.value().first(), plain.best_move(), plain.stats.nodes) == (
        minimax.value().first(),
        minimax.best_move(),
        minimax.stats.nodes,
    )
    star1 = searched(state, depth, "star1", evaluator=evaluator)
    alphabeta = AlphaBeta(state, depth=depth, start_depth=depth, evaluator=evaluator)
    alphabeta.run(Limit())
    assert (star1.value().first(), star1.best_move()) == (alphabeta.value().first(), alphabeta.best_move())
    assert star1.stats.nodes <= alphabeta.stats.nodes  # its root window is the evaluator's range, not +-inf


def test_nim_is_searched_as_by_minimax() -> None:
    state = Nim("grundy").parse("8")
    searcher = searched(state, 6, evaluator="neutral")
    assert searcher.value().first() == 1022.995 and searcher.best_move() == (8, 7)  # 8 = 7 + 1 wins, at ply 5


def test_depth_counts_turns_and_chance_nodes_hold_their_outcomes() -> None:
    searcher = searched(SMALL.start(), 1)
    root = searcher.root
    assert root.player == 1 and len(root.children) == 4
    for chance in root.children:
        assert isinstance(chance, ExpectiNode) and chance.player == CHANCE and chance.probability is None
        outcomes = dict(searcher.state_at(chance).outcomes())  # type: ignore[attr-defined]
        assert [c.move for c in chance.children] == sorted(outcomes, key=lambda m: -outcomes[m])
        for leaf in chance.children:
            assert isinstance(leaf, ExpectiNode)
            assert leaf.probability == outcomes[leaf.move] and leaf.player == -1 and not leaf.children
            assert leaf.numbers() == {"v": leaf.value, "p": outcomes[leaf.move]}
        assert chance.value == pytest.approx(sum(c.probability * c.value for c in chance.children))  # type: ignore
    assert searcher.stats.max_depth == 2 and searcher.stats.nodes == 1 + 4 + 4 * 2 + 2  # edges 2, 3, 3, 2 outcomes


def test_star1_nodes_show_their_window() -> None:
    searcher = Expectiminimax(SMALL.start(), depth=2, pruning="star1")
    step = searcher.step()
    assert step is not None
    numbers = step.node.numbers()
    assert set(numbers) == {"v", "p", "bound", "alpha", "beta", "pruned"}
    lo, hi = searcher.evaluator.lo, searcher.evaluator.hi
    assert (numbers["alpha"], numbers["beta"]) == (lo, hi)


def test_the_principal_variation_follows_the_most_probable_outcome() -> None:
    searcher = searched(SMALL.start(), 2)
    path = searcher.principal_path()
    assert [node.player for node in path] == [1, CHANCE, -1, CHANCE, 1]
    assert path[1].move == searcher.best_move()
    assert path[2].move == path[1].move  # the column aimed at is the most probable landing
    assert [step.move for step in path[1:]] == searcher.principal_variation()


@pytest.mark.parametrize("pruning", ["none", "star1"])
@pytest.mark.parametrize("budget", [None, 1, 5, 40, 300])
def test_run_builds_the_same_tree_as_stepping(pruning: str, budget: int | None) -> None:
    state = SMALL.parse("22")
    ran = Expectiminimax(state, depth=3, pruning=pruning)
    ran_result = ran.run(Limit(moves=budget))
    stepped = Expectiminimax(state, depth=3, pruning=pruning)
    while stepped.step(None if budget is None else budget - stepped.stats.moves) is not None:
        pass
    assert [(n.moves(), n.value, n.bound) for n in ran.walk()] == [
        (n.moves(), n.value, n.bound) for n in stepped.walk()
    ]
    assert (ran_result.best_move, ran_result.value.first(), ran_result.stats.moves) == (
        stepped.best_move(),
        stepped.value().first(),
        stepped.stats.moves,
    )
    if budget is not None:
        assert ran_result.stats.moves <= budget


def test_a_step_notes_cut_offs() -> None:
    searcher = Expectiminimax(SMALL.parse("2143114421"), depth=3, pruning="star1")
    notes = []
    while (step := searcher.step()) is not None:
        if step.cutoffs:
            notes.append(step.note)
            assert all(node.pruned for node in step.cutoffs)
    assert any("chance cut-off (Star1)" in note for note in notes)


def test_transforms_change_values_but_keep_the_range() -> None:
    state = SMALL.start()
    plain = Expectiminimax(state, depth=1, evaluator=make_evaluator("features", SMALL, transform="affine:2,10"))
    plain.run(Limit())
    reference = searched(state, 1)
    assert plain.value().first() == pytest.approx(2 * reference.value().first() + 10)
    assert plain.best_move() == reference.best_move()  # a positive affine transform keeps the choice


def test_refusals() -> None:
    chance_start = SMALL.start()
    with pytest.raises(SearchError) as raised:
        make_searcher("minimax", chance_start)
    assert str(raised.value) == (
        "minimax cannot search chance nodes: on connect4-chance:4x4 use expectiminimax, mcts or flat-mc"
    )
    for name in ("alphabeta", "bestfirst", "rivest", "pns", "solver", "ab-rivest"):
        with pytest.raises(SearchError, match=f"^{name} cannot search chance nodes"):
            make_searcher(name, chance_start)
    with pytest.raises(SearchError, match="this position is a chance node"):
        make_searcher("expectiminimax", SMALL.parse("2"))
    with pytest.raises(SearchError, match="the root must be a position where a player chooses"):
        Expectiminimax(SMALL.parse("2"))
    with pytest.raises(SearchError, match="parameter pruning: 'star2' is not one of none, star1"):
        make_searcher("expectiminimax", chance_start, {"pruning": "star2"})


def test_the_chance_game_defaults_to_the_feature_evaluator() -> None:
    searcher = make_searcher("expectiminimax", Connect4Chance(Connect4()).start())
    assert searcher.evaluator is not None and searcher.evaluator.name == "features"

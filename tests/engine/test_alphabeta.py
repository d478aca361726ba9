"""Alpha-beta with iterative deepening: equal to minimax, Knuth & Moore's leaf counts, its steps,
its budgets, and known results on Nim and Connect Four."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import reduce
from operator import xor

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from plyscope.engine.games import Connect4, Nim, State
from plyscope.engine.games.evaluators import NeutralEvaluator
from plyscope.engine.search import Limit, SearchError
from plyscope.engine.search.alphabeta.searcher import (
    ORDERINGS,
    AlphaBeta,
    AlphaBetaNode,
    AlphaBetaStep,
    RivestAlphaBeta,
)
from plyscope.engine.search.minimax import Minimax, MinimaxNode
from plyscope.engine.search.registry import AgentSpec, make_searcher
from tests.engine.synthetic import SyntheticEvaluator, SyntheticGame, knuth_moore_leaves

pytestmark = pytest.mark.usefixtures("hand_made_kit")
"""Their hand-made games name the tests' kit."""

C4 = Connect4()
GRUNDY = Nim("grundy")
CLASSIC = Nim("classic")
CONFIGS = [(ordering, tt) for ordering in ORDERINGS for tt in (False, True)]
"""Every move ordering, with and without the transposition table."""


@st.composite
def connect4_positions(draw: st.DrawFn) -> State:
    """A Connect Four position a few random moves from the start, never one where the game is over."""
    state = C4.start()
    for column in draw(st.lists(st.integers(0, 6), max_size=14)):
        if state.can_play(column) and not state.play(column).is_terminal():
            state = state.play(column)
    return state


@st.composite
def nim_positions(draw: st.DrawFn) -> State:
    """A Grundy's game or classic Nim position where the game is not over."""
    if draw(st.booleans()):
        piles = draw(st.lists(st.integers(1, 9), min_size=1, max_size=3))
        state = GRUNDY.parse(",".join(map(str, piles)))
    else:
        piles = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
        state = CLASSIC.parse(",".join(map(str, piles)))
    assume(not state.is_terminal())
    return state


def children(node: AlphaBetaNode) -> list[AlphaBetaNode]:
    kids = [child for child in node.children if isinstance(child, AlphaBetaNode)]
    assert len(kids) == len(node.children)
    return kids


def signature(searcher: AlphaBeta) -> list[tuple[object, ...]]:
    """Every node of the current tree with all it keeps, depth first: equal signatures, equal trees."""
    return [
        (tuple(node.moves()), node.value, node.alpha, node.beta, node.bound, node.pruned, node.iteration)
        for node in searcher.walk()
    ]


def step_to_end(searcher: AlphaBeta, moves: int | None = None) -> list[AlphaBetaStep]:
    """Step until the search finishes (or, with ``moves``, until the next step would spend more)."""
    steps = []
    while (step := searcher.step(None if moves is None else moves - searcher.stats.moves)) is not None:
        assert isinstance(step, AlphaBetaStep)
        steps.append(step)
    return steps


def assert_equal_to_minimax(state: State, depth: int, evaluator: str = "auto") -> None:
    reference = Minimax(state, depth=depth, evaluator=evaluator)
    reference.run(Limit())
    values = {child.move: child.value for child in reference.root.children if isinstance(child, MinimaxNode)}
    for ordering, tt in CONFIGS:
        for start_depth in sorted({1, depth}):
            searcher = AlphaBeta(
                state, depth=depth, start_depth=start_depth, ordering=ordering, tt=tt, evaluator=evaluator
            )
            result = searcher.run(Limit())
            assert result.finished
            assert result.value.first() == reference.value().first(), (ordering, tt, start_depth)
            # The move it picks is worth the root's value (ties may pick another move than minimax).
            assert values[result.best_move] == reference.value().first()


# --- the same values as minimax ----------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(connect4_positions(), st.integers(1, 3), st.sampled_from(["rivest", "threats"]))
def test_equals_minimax_on_connect4(state: State, depth: int, evaluator: str) -> None:
    assert_equal_to_minimax(state, depth, evaluator)


@settings(max_examples=25, deadline=None)
@given(nim_positions(), st.integers(1, 5))
def test_equals_minimax_on_nim(state: State, depth: int) -> None:
    assert_equal_to_minimax(state, depth)


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(2, 4), st.integers(1, 4))
def test_equals_minimax_on_synthetic_trees(data: st.DataObject, branching: int, depth: int) -> None:
    """Leaf values from a small range, so that ties (where ``>=`` cut-offs bite) are common."""
    leaves = data.draw(st.lists(st.integers(-3, 3), min_size=branching**depth, max_size=branching**depth))
    game = SyntheticGame(branching, depth, leaves=leaves)
    state = game.start()
    reference = Minimax(state, depth=depth, evaluator=SyntheticEvaluator())
    reference.run(Limit())
    for ordering, tt in CONFIGS:
        for start_depth in range(1, depth + 1):
            searcher = AlphaBeta(
                state, depth=depth, start_depth=start_depth, ordering=ordering, tt=tt, evaluator=SyntheticEvaluator()
            )
            assert searcher.run(Limit()).value.first() == reference.value().first()


# --- Knuth & Moore, and the cost of deepening ------------------------------------------


@pytest.mark.parametrize(("branching", "depth", "leaves"), [(3, 4, 17), (3, 5, 35), (5, 4, 49), (40, 4, 3199)])
@pytest.mark.parametrize(("ordering", "tt"), CONFIGS)
def test_perfect_ordering_evaluates_the_knuth_moore_number_of_leaves(
    branching: int, depth: int, leaves: int, ordering: str, tt: bool
) -> None:
    assert knuth_moore_leaves(branching, depth) == leaves
    game = SyntheticGame(branching, depth)
    searcher = AlphaBeta(
        game.start(), depth=depth, start_depth=depth, ordering=ordering, tt=tt, evaluator=SyntheticEvaluator()
    )
    searcher.run(Limit())
    assert sum(1 for node in searcher.walk() if node.depth == depth) == leaves
    assert searcher.value().first() == 0.0
    assert searcher.best_move() == 0


def test_iterative_deepening_costs_123450_moves_where_one_search_costs_111110() -> None:
    """b = 10, d = 5 with the best move always last, so that nothing is pruned: one search to
    depth 5 plays 10 + 100 + ... + 100,000 = 111,110 moves; iterations to depths 1, 2, ..., 5
    play 5*10 + 4*100 + 3*1,000 + 2*10,000 + 100,000 = 123,450 (11.1% more)."""
    game = SyntheticGame(10, 5, order="worst")
    deepening = AlphaBeta(game.start(), depth=5, evaluator=SyntheticEvaluator())
    deepening.run(Limit())
    assert deepening.stats.moves == 123_450
    single = AlphaBeta(game.start(), depth=5, start_depth=5, evaluator=SyntheticEvaluator())
    single.run(Limit())
    assert single.stats.moves == 111_110
    assert single.stats.nodes == 111_111  # the root and every node below it: no cut-off at all
    assert deepening.value().first() == single.value().first() == game.start().leaf_value()
    assert deepening.best_move() == single.best_move() == 9


# --- steps: windows and cut-offs on a drawn tree ----------------------------------------


def test_steps_carry_windows_and_cutoffs_on_a_drawn_tree() -> None:
    """Depth 3, two moves everywhere, searched left to right::

                          root (MAX)                = 6
                   /                    \\
               0 (MIN) = 6              1 (MIN) <= 3, cut off: 1 1 pruned
             /          \\             /          \\
        0 0 (MAX) = 6  0 1 (MAX) >= 7  1 0 (MAX) <= 3    1 1 (pruned)
         /    \\        /    \\          /    \\          /    \\
        5      6      7     (4)        3      2        (8)    (1)

    ``0 1`` is cut off after 7 >= beta 6 (its parent MIN already has 6); ``1`` is cut off
    after its child came back at most 3 <= alpha 6 (the root already has 6).
    """
    game = SyntheticGame(2, 3, leaves=[5, 6, 7, 4, 3, 2, 8, 1])
    searcher = AlphaBeta(game.start(), depth=3, start_depth=3, evaluator=SyntheticEvaluator())
    steps = step_to_end(searcher)
    inf = math.inf
    # (node's moves, window on entry, completed nodes' moves, their windows on exit, cut-off nodes)
    expected = [
        ((), (-inf, inf), [], [], []),
        ((0,), (-inf, inf), [], [], []),
        ((0, 0), (-inf, inf), [], [], []),
        ((0, 0, 0), (-inf, inf), [(0, 0, 0)], [(-inf, inf)], []),
        ((0, 0, 1), (5, inf), [(0, 0, 1), (0, 0)], [(5, inf), (6, inf)], []),
        ((0, 1), (-inf, 6), [], [], []),
        ((0, 1, 0), (-inf, 6), [(0, 1, 0), (0, 1), (0,)], [(-inf, 6), (7, 6), (-inf, 6)], [(0, 1)]),
        ((1,), (6, inf), [], [], []),
        ((1, 0), (6, inf), [], [], []),
        ((1, 0, 0), (6, inf), [(1, 0, 0)], [(6, inf)], []),
        ((1, 0, 1), (6, inf), [(1, 0, 1), (1, 0), (1,), ()], [(6, inf), (6, inf), (6, 3), (6, inf)], [(1,)]),
    ]
    actual = [
        (
            tuple(step.node.moves()),
            (step.alpha_in, step.beta_in),
            [tuple(node.moves()) for node in step.completed],
            list(step.windows_out),
            [tuple(node.moves()) for node in step.cutoffs],
        )
        for step in steps
    ]
    assert actual == expected
    assert steps[6].note == "0 1 0 [-inf, 6]: 7; cut-off at 0 1: 7 >= beta 6, 1 pruned"
    assert steps[10].note == (
        "1 0 1 [6, inf]: 2; cut-off at 1: 3 <= alpha 6, 1 pruned; iteration 3 complete: value 6 (solved), best move 0"
    )
    for step in steps:
        assert step.path[-1] is step.node and step.path[0] is searcher.root
        assert step.added == ((step.node,) if step.node.parent is not None else (searcher.root,))
    nodes = {tuple(node.moves()): node for node in searcher.walk()}
    assert {moves: (n.value, n.bound, n.pruned) for moves, n in nodes.items() if len(moves) < 3} == {
        (): (6, "=", 0),
        (0,): (6, "=", 0),
        (0, 0): (6, "=", 0),
        (0, 1): (7, ">=", 1),
        (1,): (3, "<=", 1),
        (1, 0): (3, "<=", 0),
    }
    assert nodes[(0, 1)].cut_off and not nodes[(0, 0)].cut_off
    assert searcher.finished and searcher.solved
    assert searcher.stats.moves == 10 and searcher.stats.iterations == 11
    assert searcher.principal_variation() == [0, 0, 1]


def test_every_pruned_node_is_reported_once_as_a_cutoff() -> None:
    searcher = AlphaBeta(C4.parse("4453"), depth=4, ordering="history", tt=True, evaluator="threats")
    reported = [node for step in step_to_end(searcher) for node in step.cutoffs]
    assert len(reported) == len(set(map(id, reported)))
    assert {id(node) for node in reported if node.iteration == 4} == {
        id(node) for node in searcher.walk() if node.pruned > 0
    }


# --- run() and stepping ----------------------------------------------------------------


@pytest.mark.parametrize(("ordering", "tt"), CONFIGS)
@pytest.mark.parametrize("budget", [None, 1, 7, 60, 333])
def test_run_builds_the_same_tree_as_stepping(ordering: str, tt: bool, budget: int | None) -> None:
    state = C4.parse("4453")
    stepped = AlphaBeta(state, depth=4, ordering=ordering, tt=tt)
    step_to_end(stepped, budget)
    ran = AlphaBeta(state, depth=4, ordering=ordering, tt=tt)
    result = ran.run(Limit(moves=budget))
    assert signature(ran) == signature(stepped)
    assert (ran.stats.moves, ran.stats.nodes, ran.stats.iterations, ran.stats.max_depth) == (
        stepped.stats.moves,
        stepped.stats.nodes,
        stepped.stats.iterations,
        stepped.stats.max_depth,
    )
    assert (result.best_move, result.value.first(), result.finished) == (
        stepped.best_move(),
        stepped.value().first(),
        stepped.finished,
    )
    assert result.principal_variation == tuple(stepped.principal_variation())


def test_run_in_pieces_builds_the_same_tree_as_one_run() -> None:
    state = C4.parse("4453")
    whole = AlphaBeta(state, depth=4, ordering="static", tt=True)
    whole.run(Limit())
    pieces = AlphaBeta(state, depth=4, ordering="static", tt=True)
    while not pieces.run(Limit(iterations=37)).finished:
        pass
    assert signature(pieces) == signature(whole)
    assert pieces.stats.moves == whole.stats.moves


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 400), st.sampled_from(CONFIGS))
def test_a_moves_budget_is_never_exceeded(budget: int, config: tuple[str, bool]) -> None:
    ordering, tt = config
    searcher = AlphaBeta(C4.parse("44"), ordering=ordering, tt=tt)
    result = searcher.run(Limit(moves=budget))
    assert result.stats.moves <= budget
    assert not result.finished
    # It stopped because the next step would cost more than what is left, and refusing changed nothing.
    before = (signature(searcher), searcher.stats.moves)
    assert searcher.step(budget - searcher.stats.moves) is None
    assert (signature(searcher), searcher.stats.moves) == before
    # A second run spends its own budget on top of the first.
    assert searcher.run(Limit(moves=budget)).stats.moves <= 2 * budget


def test_static_ordering_pays_one_move_per_child_it_generates_to_sort() -> None:
    """Depth 2 from the start: the root's 7 children are generated and evaluated at once (7 moves),
    the nodes one ply above the horizon are not sorted, and each leaf visited costs one move."""
    searcher = AlphaBeta(C4.start(), depth=2, start_depth=2, ordering="static", evaluator="rivest")
    searcher.run(Limit())
    leaves = sum(1 for node in searcher.walk() if node.depth == 2)
    assert searcher.stats.moves == 7 + leaves
    evaluator = searcher.evaluator
    root_values = [evaluator(C4.start().play(node.move)) for node in searcher.root.children]
    assert root_values == sorted(root_values, reverse=True)  # first player to move: best for MAX first
    assert searcher.root.children[0].move == 3  # the centre column scores best


def test_static_all_ordering_sorts_the_parents_of_leaves_too() -> None:
    """Rivest's ordering at depth 2 from the start: the root's 7 children and, for each of them, its 7
    children are generated and evaluated to be sorted (7 + 7 * 7 moves); visiting a leaf costs nothing
    more, and the leaves visited are tried best first for the player to move."""
    searcher = AlphaBeta(C4.start(), depth=2, start_depth=2, ordering="static-all", evaluator="rivest")
    searcher.run(Limit())
    assert searcher.stats.moves == 7 + 7 * 7
    evaluator = searcher.evaluator
    for node in children(searcher.root):
        state = C4.start().play(node.move)
        values = [evaluator(state.play(leaf.move)) for leaf in node.children]
        assert values == sorted(values)  # the second player to move: best for MIN first
        assert [leaf.value for leaf in children(node)] == values
    cheaper = AlphaBeta(C4.start(), depth=2, start_depth=2, ordering="static", evaluator="rivest")
    assert cheaper.run(Limit()).value.first() == searcher.value().first()


def test_rivests_accounting_also_pays_for_each_child_visited() -> None:
    """Depth 2 from the start with Rivest's accounting: the 7 + 7 * 7 children generated to sort, and
    one more move for every node visited (every node of the tree but the root); the same tree."""
    plain = AlphaBeta(C4.start(), depth=2, start_depth=2, ordering="static-all", evaluator="rivest")
    counted = AlphaBeta(C4.start(), depth=2, start_depth=2, ordering="static-all", accounting=True, evaluator="rivest")
    plain.run(Limit())
    counted.run(Limit())
    visited = sum(1 for _ in counted.walk()) - 1
    assert counted.stats.moves == 7 + 7 * 7 + visited
    assert [node.move for node in counted.walk()] == [node.move for node in plain.walk()]
    assert counted.value().first() == plain.value().first()


@pytest.mark.parametrize("budget", [0, 6, 7, 8, 9, 63, 64, 500])
def test_rivests_accounting_never_exceeds_the_budget(budget: int) -> None:
    searcher = make_searcher("ab-rivest", C4.parse("4453"))
    result = searcher.run(Limit(moves=budget))
    assert result.stats.moves <= budget
    before = searcher.stats.moves
    assert searcher.step(budget - before) is None
    assert searcher.stats.moves == before


def test_the_same_search_twice() -> None:
    """Alpha-beta draws no random numbers (it takes no seed): two searches of one position are one search."""
    first = AlphaBeta(C4.parse("4453"), ordering="history", tt=True)
    second = AlphaBeta(C4.parse("4453"), ordering="history", tt=True)
    first_result = first.run(Limit(moves=2000))
    second_result = second.run(Limit(moves=2000))
    assert replace(first_result, stats=replace(first_result.stats, seconds=0.0)) == replace(
        second_result, stats=replace(second_result.stats, seconds=0.0)
    )
    assert signature(first) == signature(second)


# --- iterations: which move, when finished ------------------------------------------------


def test_best_move_is_the_last_complete_iterations() -> None:
    searcher = AlphaBeta(C4.parse("4453"), ordering="none", evaluator="threats")
    assert searcher.best_move() is None and searcher.value().first() == searcher.evaluator(C4.parse("4453"))
    searcher.step()  # opens the first root
    assert searcher.best_move() is None
    searcher.step()  # the first root child, a leaf at depth 1
    assert searcher.best_move() == searcher.root.children[0].move
    searcher.run(Limit(moves=3000))
    assert searcher.completed_root is not None and searcher.root is not searcher.completed_root
    assert searcher.completed_root.iteration == searcher.iteration - 1
    root = searcher.completed_root
    assert root.bound == "=" and searcher.value().first() == root.value
    best = max(children(root), key=lambda child: child.value or 0.0)
    assert searcher.best_move() == best.move
    assert searcher.principal_path()[0] is root


def test_finishes_at_the_maximum_depth() -> None:
    searcher = AlphaBeta(C4.start(), depth=3, evaluator="threats")
    result = searcher.run(Limit())
    assert result.finished and not searcher.solved
    assert searcher.completed_root is not None and searcher.completed_root.iteration == 3
    assert searcher.root.iteration == 3
    assert searcher.stats.max_depth == 3
    assert searcher.step() is None


def test_history_ordering_tries_the_previous_iterations_best_move_first() -> None:
    searcher = AlphaBeta(C4.parse("4453"), depth=4, ordering="history", evaluator="threats")
    expected: object = None
    firsts = []
    while (step := searcher.step()) is not None:
        if expected is not None:  # the first visit of an iteration after the first
            assert step.node.move == expected
            firsts.append(expected)
            expected = None
        if step.node.parent is None and searcher.completed_root is not None:
            expected = searcher.best_move()  # the previous iteration's best move
    assert len(firsts) == 3
    assert any(move != C4.parse("4453").legal_moves()[0] for move in firsts)  # not the legal order's first


def test_the_table_saves_visits_on_connect4() -> None:
    """Connect Four is full of transpositions (``4 3`` then ``5`` = ``5 3`` then ``4``)."""
    plain = AlphaBeta(C4.start(), depth=5, start_depth=5, evaluator="threats")
    tabled = AlphaBeta(C4.start(), depth=5, start_depth=5, tt=True, evaluator="threats")
    assert plain.run(Limit()).value.first() == tabled.run(Limit()).value.first()
    assert tabled.stats.moves < plain.stats.moves


def test_completed_nodes_hold_the_fail_soft_values_of_their_children() -> None:
    searcher = AlphaBeta(C4.parse("444333"), depth=4, start_depth=4, ordering="static", evaluator="threats")
    searcher.run(Limit())
    for node in searcher.walk():
        if not node.children:
            continue
        values = [child.value for child in children(node) if child.value is not None]
        assert node.value == (max(values) if node.player > 0 else min(values))
        assert node.pruned == len(searcher.state_at(node).legal_moves()) - len(node.children)
        if node.pruned:
            assert node.bound == (">=" if node.player > 0 else "<=")
            assert node.alpha >= node.beta


# --- known results ---------------------------------------------------------------------


@pytest.mark.parametrize(("ordering", "tt"), CONFIGS)
def test_grundy_7_is_lost_and_8_is_won_by_splitting_off_1(ordering: str, tt: bool) -> None:
    seven = AlphaBeta(GRUNDY.parse("7"), ordering=ordering, tt=tt)
    assert seven.run(Limit()).finished and seven.solved
    assert seven.value().first() == 1.004  # the neutral evaluator's "second player won at ply 4"
    eight = AlphaBeta(GRUNDY.parse("8"), ordering=ordering, tt=tt)
    assert eight.run(Limit()).finished and eight.solved
    assert eight.value().first() == 1022.995  # "the first player won at ply 5"
    assert GRUNDY.parse("8").move_label(eight.best_move()) == "8=7+1"


@pytest.mark.parametrize("piles", ["1,2,3", "3,4,5", "1,3,5,7", "2,3", "1,4,5", "2,2", "1,2,4"])
def test_classic_nim_follows_the_xor_rule(piles: str) -> None:
    """With the table: classic Nim reaches a position at several plies (piles 2, 2 from 3, 3 after two moves or
    four), and a finished game's value carries its ply, so an entry answers only at the ply it was found at."""
    state = CLASSIC.parse(piles)
    searcher = AlphaBeta(state, tt=True)
    searcher.run(Limit())
    assert searcher.solved
    first_player_wins = reduce(xor, state.piles) != 0
    assert searcher.value().first() == exact_neutral_value(state)
    assert (searcher.value().first() > 512) == first_player_wins
    if first_player_wins:
        assert reduce(xor, state.play(searcher.best_move()).piles) == 0


def exact_neutral_value(state: State, known: dict[tuple[object, int], float] | None = None) -> float:
    """The neutral evaluator's value of ``state`` with best play (the quickest win, the slowest loss), each position
    valued once at each ply it is reached at (``known``)."""
    known = {} if known is None else known
    at = (state.key(), state.ply)
    if at not in known:
        if state.is_terminal():
            known[at] = NeutralEvaluator()(state)
        else:
            values = [exact_neutral_value(state.play(move), known) for move in state.legal_moves()]
            known[at] = max(values) if state.player > 0 else min(values)
    return known[at]


@pytest.mark.parametrize(("ordering", "tt"), CONFIGS)
def test_connect4_wins_in_one(ordering: str, tt: bool) -> None:
    """X to move wins in column 4::

    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    O O O . . . .
    X X X . . . .
    """
    searcher = AlphaBeta(C4.parse("112233"), depth=3, ordering=ordering, tt=tt, evaluator="threats")
    searcher.run(Limit())
    assert searcher.best_move() == 3
    assert searcher.value().first() == 1000 - 7  # X wins with the 7th stone


@pytest.mark.parametrize(("ordering", "tt"), CONFIGS)
def test_connect4_blocks_a_win_in_one(ordering: str, tt: bool) -> None:
    """O to move must block column 4::

    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    O O . . . . .
    X X X . . . .
    """
    searcher = AlphaBeta(C4.parse("11223"), depth=2, ordering=ordering, tt=tt, evaluator="threats")
    searcher.run(Limit())
    assert searcher.best_move() == 3
    assert abs(searcher.value().first()) < 900  # no forced win either way within two plies


# --- the registry ----------------------------------------------------------------------


def test_registry_builds_alphabeta_with_its_parameters() -> None:
    searcher = AgentSpec.parse("alphabeta:depth=5,start_depth=2,ordering=history,tt=true,eval=threats").make(C4.start())
    assert isinstance(searcher, AlphaBeta)
    assert (searcher.depth, searcher.start_depth, searcher.ordering, searcher.evaluator.name) == (
        5,
        2,
        "history",
        "threats",
    )
    assert searcher.iteration == 2


def test_registry_ab_rivest_is_rivests_configuration() -> None:
    searcher = make_searcher("ab-rivest", C4.start())
    assert isinstance(searcher, RivestAlphaBeta)
    assert (searcher.start_depth, searcher.ordering, searcher.depth, searcher.accounting, searcher.evaluator.name) == (
        2,
        "static-all",
        0,
        True,
        "rivest",
    )
    searcher.run(Limit(moves=500))
    assert searcher.completed_root is not None and searcher.completed_root.iteration >= 2 and not searcher.finished
    assert all(node.iteration >= 2 for node in searcher.walk())
    with pytest.raises(SearchError, match="connect4 only"):
        make_searcher("ab-rivest", GRUNDY.parse("7"))


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"ordering": "best"}, "ordering"),
        ({"depth": 2, "start_depth": 3}, "start_depth 3 is deeper than depth 2"),
        ({"start_depth": 0}, "start_depth"),
        ({"tt": "maybe"}, "tt"),
    ],
)
def test_registry_refuses_bad_parameters(params: dict[str, object], message: str) -> None:
    with pytest.raises(SearchError, match=message):
        make_searcher("alphabeta", C4.start(), params)


def test_a_finished_game_has_nothing_to_search() -> None:
    state = C4.parse("1212121")  # X has four in column 1
    searcher = AlphaBeta(state, evaluator="threats")
    assert searcher.finished and searcher.best_move() is None
    assert searcher.value().first() == 1000 - 7
    assert isinstance(searcher.root, AlphaBetaNode) and searcher.step() is None

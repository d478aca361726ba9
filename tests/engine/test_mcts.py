"""MCTS (UCT, partial expansion, MCTS-Solver, batched playouts) and flat Monte Carlo sampling."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyscope.engine.games import Connect4, Move, Nim, State
from plyscope.engine.kits import make_game
from plyscope.engine.kits.playouts import state_playout
from plyscope.engine.search import Limit, SearchError
from plyscope.engine.search.montecarlo.mcts import (
    DRAW,
    LOSS,
    WIN,
    FlatMonteCarlo,
    MctsNode,
    MonteCarloTreeSearch,
    expansion_urgency,
    secure_value,
    ucb1,
)
from plyscope.engine.search.registry import AgentSpec, make_searcher
from plyscope.engine.search.stream import RandomStream

GRUNDY = Nim("grundy")
NIM = Nim("classic")
CONNECT4 = Connect4()

WIN_IN_ONE = "445567"
"""X (first player) to move wins with 3, and only with 3::

    .......
    .......
    .......
    .......
    ...OO..
    ...XXXO
"""

BLOCK = "41414"
"""O (second player) to move must block column 4 (every other move loses at once)::

    .......
    .......
    .......
    ...X...
    O..X...
    O..X...
"""

WIN_IN_THREE = "4433"
"""X to move wins in three plies with 2 or 5 (three in a row open at both ends)::

    .......
    .......
    .......
    .......
    ..OO...
    ..XX...
"""


def column(label: str) -> int:
    return int(label) - 1


def nodes(node: MctsNode) -> Iterator[MctsNode]:
    yield node
    for child in node.children:
        yield from nodes(child)


def shape(root: MctsNode) -> list[tuple[tuple[Move, ...], int, float, int | None]]:
    """Every node as (moves from the root, visits, total, proven), depth first."""
    return [(tuple(node.moves()), node.visits, node.total, node.proven) for node in nodes(root)]


def xor(piles: tuple[int, ...]) -> int:
    value = 0
    for pile in piles:
        value ^= pile
    return value


# --- formulas ---


def test_ucb1_worked_example() -> None:
    """UCB1 (Auer, Cesa-Bianchi and Fischer 2002), as UCT uses it (Kocsis and Szepesvári 2006): mean 0.5,
    parent 10, child 3, c = 1 gives 0.5 + sqrt(ln 10 / 3) = 1.37609."""
    assert ucb1(0.5, 10, 3, 1.0) == pytest.approx(1.37609, abs=5e-6)


def test_partial_expansion_and_secure_child_formulas() -> None:
    assert expansion_urgency(10, 3) == pytest.approx(0.5 + math.sqrt(math.log(10) / 4))
    assert secure_value(0.25, 16) == 0.5


def test_nodes_show_their_ucb_as_their_parent_computes_it() -> None:
    search = MonteCarloTreeSearch(CONNECT4.parse("4453"), seed=1, c=0.7)
    search.run(Limit(iterations=200))
    root = search.root
    assert search.numbers(root)["ucb"] is None
    for child in root.children:
        numbers = search.numbers(child)
        assert numbers["n"] == child.visits
        assert numbers["mean"] == child.total / child.visits
        assert numbers["ucb"] == pytest.approx(ucb1(child.total / child.visits, root.visits, child.visits, 0.7))
        assert numbers["proven"] is None


# --- plain UCT against a textbook implementation ---


class ReferenceNode:
    __slots__ = ("move", "children", "untried", "visits", "total")

    def __init__(self, move: Move | None) -> None:
        self.move = move
        self.children: list[ReferenceNode] = []
        self.untried: list[Move] | None = None
        self.visits = 0
        self.total = 0.0


def reference_uct(state: State, iterations: int, c: float, seed: int) -> ReferenceNode:
    """Textbook UCT through ``State`` alone, drawing random numbers from the stream in the order
    ``MonteCarloTreeSearch`` does.

    Totals are for the player who moved into each node (win 1, draw 0.5, loss 0).
    """
    stream = RandomStream(seed)
    root = ReferenceNode(None)
    for _ in range(iterations):
        node, position, path = root, state, [root]
        while node.untried is not None and not node.untried:
            log_visits = math.log(node.visits)
            node = max(node.children, key=lambda ch: ch.total / ch.visits + c * math.sqrt(log_visits / ch.visits))
            position = position.play(node.move)
            path.append(node)
        if not position.is_terminal():
            if node.untried is None:
                node.untried = list(position.legal_moves())
            index = int(stream.draw() * len(node.untried))
            node.untried[index], node.untried[-1] = node.untried[-1], node.untried[index]
            child = ReferenceNode(node.untried.pop())
            node.children.append(child)
            position = position.play(child.move)
            path.append(child)
        winner, _ = state_playout(position, stream)
        reward = 1.0 if winner == -position.player else 0.5 if winner == 0 else 0.0
        for visited in reversed(path):
            visited.visits += 1
            visited.total += reward
            reward = 1 - reward
    return root


def reference_shape(node: ReferenceNode, moves: tuple[Move, ...] = ()) -> list[tuple[tuple[Move, ...], int, float]]:
    found = [(moves, node.visits, node.total)]
    for child in node.children:
        found += reference_shape(child, (*moves, child.move))
    return found


@pytest.mark.parametrize(
    ("state", "c"),
    [(CONNECT4.parse("4453"), 1.4), (CONNECT4.parse(WIN_IN_THREE), 0.5), (NIM.parse("2,3,4"), 1.0)],
)
def test_k1_is_textbook_uct_node_for_node(state: State, c: float) -> None:
    """k = 1: one playout and one visit per iteration, the same tree as a plain UCT (bitboard playouts included)."""
    search = MonteCarloTreeSearch(state, seed=11, c=c, k=1)
    search.run(Limit(iterations=600))
    ours = [(moves, visits, total) for moves, visits, total, _ in shape(search.root)]
    assert ours == reference_shape(reference_uct(state, 600, c, seed=11))
    assert search.root.visits == 600


def test_k_playouts_add_k_visits_per_iteration() -> None:
    state = CONNECT4.parse("4453")
    search = MonteCarloTreeSearch(state, seed=2, k=32)
    for iteration in range(1, 21):
        step = search.step()
        assert step is not None
        assert search.root.visits == 32 * iteration
        assert all(node.visits % 32 == 0 for node in step.path)
    assert search.stats.playouts == 32 * 20  # no game ends this close to the root
    assert search.stats.playout_moves > 20 * 32 * 10


def test_boards_over_64_bits_play_their_k_playouts_in_plain_python() -> None:
    search = MonteCarloTreeSearch(Connect4(10, 10).parse("55"), seed=0, k=4)
    search.run(Limit(iterations=25))
    assert search.root.visits == 100
    assert search.stats.playouts == 100


# --- determinism, stepping, budgets ---


@pytest.mark.parametrize("params", [{"k": 1}, {"k": 16}, {"k": 1, "partial": True, "solver": True}])
def test_same_seed_same_tree(params: dict[str, object]) -> None:
    state = CONNECT4.parse("4453")
    trees = []
    for seed in (7, 7, 8):
        search = make_searcher("mcts", state, params, seed=seed)
        search.run(Limit(iterations=150))
        assert isinstance(search.root, MctsNode)
        trees.append(shape(search.root))
    assert trees[0] == trees[1]
    assert trees[0] != trees[2]


@pytest.mark.parametrize("algorithm", ["mcts", "flat-mc"])
def test_run_builds_the_tree_stepping_builds(algorithm: str) -> None:
    state = CONNECT4.parse("4453")
    params = {"k": 4, "solver": True} if algorithm == "mcts" else {"k": 4}
    stepped = make_searcher(algorithm, state, params, seed=3)
    ran = make_searcher(algorithm, state, params, seed=3)
    for _ in range(120):
        assert stepped.step() is not None
    ran.run(Limit(iterations=120))
    assert isinstance(stepped.root, MctsNode) and isinstance(ran.root, MctsNode)
    assert shape(stepped.root) == shape(ran.root)
    assert stepped.stats.moves == ran.stats.moves
    assert stepped.stats.playouts == ran.stats.playouts


def test_a_budget_of_moves_is_spent_exactly_and_never_exceeded() -> None:
    search = MonteCarloTreeSearch(CONNECT4.parse("4453"), seed=4, k=8)
    search.run(Limit(moves=300))
    assert search.stats.moves == search.stats.iterations == 300
    assert search.stats.nodes <= 301  # one expansion per iteration, except where a finished game is scored again
    before = shape(search.root)
    assert search.step(moves_left=0) is None
    assert shape(search.root) == before
    search.run(Limit(moves=50))
    assert search.stats.moves == 350


def test_a_won_finished_game_costs_a_move_each_time_it_is_scored() -> None:
    """Plain UCT keeps choosing the win in one; each of those iterations still pays its move."""
    search = MonteCarloTreeSearch(CONNECT4.parse(WIN_IN_ONE), seed=0)
    result = search.run(Limit(moves=400))
    assert result.stats.moves == result.stats.iterations == search.root.visits == 400
    win = next(child for child in search.root.children if child.move == column("3"))
    assert not win.children
    assert win.visits > 200
    assert result.best_move == column("3")


def test_a_complete_tree_goes_on_refining_one_move_per_iteration() -> None:
    """Grundy 7's whole tree is small; once it is complete, iterations only score finished games."""
    search = MonteCarloTreeSearch(GRUNDY.parse("7"), seed=0)
    result = search.run(Limit(moves=5000))
    assert result.stats.moves == result.stats.iterations == 5000
    assert not result.finished  # no solver: nothing is proven
    assert result.value.first() < -0.5  # the first player loses


def test_step_reports_the_path_the_new_leaf_and_what_changed() -> None:
    search = MonteCarloTreeSearch(CONNECT4.parse("4453"), seed=5)
    search.run(Limit(iterations=30))
    step = search.step()
    assert step is not None
    assert step.path[0] is search.root
    assert step.node is step.path[-1]
    assert step.added == (step.node,)
    assert step.node.visits == 1
    expected = {id(search.root)} | {id(child) for node in step.path[:-1] for child in node.children}
    assert {id(node) for node in step.changed} == expected
    assert step.note.endswith("for the player who moved there")


# --- game-theoretic results: Nim ---


def test_solver_proves_grundy_seven_lost() -> None:
    search = MonteCarloTreeSearch(GRUNDY.parse("7"), seed=0, solver=True)
    result = search.run(Limit(iterations=10_000))
    assert result.finished
    assert search.root.proven == WIN  # for the second player, who "moved into" the start
    assert all(child.proven == LOSS for child in search.root.children)
    assert result.value.first() == -1.0


@pytest.mark.parametrize("solver", [False, True])
def test_grundy_eight_is_won_by_seven_plus_one(solver: bool) -> None:
    state = GRUNDY.parse("8")
    result = MonteCarloTreeSearch(state, seed=0, solver=solver).run(Limit(iterations=3000))
    assert state.move_label(result.best_move) == "8=7+1"
    assert result.value.first() > 0.9
    assert result.finished == solver


@pytest.mark.parametrize("piles", ["2,3", "1,2,4", "1,1,3", "2,2", "1,2,3", "1,4,5"])
def test_solver_follows_the_xor_rule_of_classic_nim(piles: str) -> None:
    state = NIM.parse(piles)
    search = MonteCarloTreeSearch(state, seed=1, solver=True)
    result = search.run(Limit(iterations=20_000))
    assert result.finished
    if xor(state.piles):
        assert result.value.first() == 1.0
        assert xor(state.play(result.best_move).piles) == 0
    else:
        assert result.value.first() == -1.0


@pytest.mark.parametrize("piles", ["2,3", "1,2,4"])
def test_plain_mcts_plays_the_xor_move(piles: str) -> None:
    state = NIM.parse(piles)
    result = MonteCarloTreeSearch(state, seed=1).run(Limit(iterations=4000))
    assert xor(state.play(result.best_move).piles) == 0
    assert result.value.first() > 0.5


# --- Connect Four tactics ---


@pytest.mark.parametrize("params", [{}, {"k": 32}, {"partial": True}, {"solver": True}])
@pytest.mark.parametrize(("position", "answers"), [(WIN_IN_ONE, {"3"}), (BLOCK, {"4"}), (WIN_IN_THREE, {"2", "5"})])
def test_connect_four_tactics(position: str, answers: set[str], params: dict[str, object]) -> None:
    state = CONNECT4.parse(position)
    search = make_searcher("mcts", state, params, seed=2)
    result = search.run(Limit(iterations=300 if "k" in params else 2500))
    assert state.move_label(result.best_move) in answers
    assert result.principal_variation[0] == result.best_move


@pytest.mark.parametrize("k", [1, 32])
def test_solver_proves_the_win_in_three(k: int) -> None:
    state = CONNECT4.parse(WIN_IN_THREE)
    search = MonteCarloTreeSearch(state, seed=0, solver=True, k=k)
    result = search.run(Limit(iterations=5000))
    assert result.finished
    assert result.value.first() == 1.0
    assert search.root.proven == LOSS  # for O, who "moved into" this position
    assert {state.move_label(result.best_move)} <= {"2", "5"}
    best = next(child for child in search.root.children if child.move == result.best_move)
    assert best.proven == WIN
    assert best.numbers()["proven"] == "win@7"  # the game won at ply 7, exactly


# --- MCTS-Solver's draws: proven, and valued exactly 0 ---

DRAWN_TREE = "((0,1),(-1,2))"
"""MAX's left move leads to MIN's choice of 0 or 1 (a draw), its right one to -1 or 2 (a loss): a draw."""
DRAWN_ENDGAME = "62736211431665431641332425417457"
"""Connect Four, 32 stones, a draw with best play (``plyscope solve``)."""


def exactly_zero(value: float) -> bool:
    """0.0 itself, not -0.0 (which JSON writes as ``-0.0``)."""
    return value == 0 and math.copysign(1.0, value) == 1.0


@pytest.mark.parametrize("seed", range(6))
def test_solver_proves_a_drawn_tree_a_draw_valued_exactly_zero(seed: int) -> None:
    """Every child proven, the best of them for MAX a draw: the root is a proven draw, its value 0, not the mean."""
    search = MonteCarloTreeSearch(make_game("tree").parse(DRAWN_TREE), seed=seed, solver=True)
    result = search.run(Limit(iterations=100))
    assert result.finished
    assert search.root.proven == DRAW
    assert exactly_zero(result.value.first()) and exactly_zero(search.value().first())
    assert search.proven() == (0, 0)
    assert {child.move: child.proven for child in search.root.children} == {0: DRAW, 1: LOSS}


def test_solver_proves_a_drawn_connect_four_endgame_and_says_so() -> None:
    state = CONNECT4.parse(DRAWN_ENDGAME)
    search = MonteCarloTreeSearch(state, seed=0, solver=True)
    notes = []
    while (step := search.step()) is not None:
        notes.append(step.note)
    assert search.finished and search.root.proven == DRAW and search.proven() == (0, 0)
    assert exactly_zero(search.value().first())
    assert search.root.numbers()["proven"] == "draw"
    assert any(note.endswith("(game over), proven draw") for note in notes)
    best = next(child for child in search.root.children if child.move == search.best_move())
    assert best.proven == DRAW  # the player to move plays a proven draw, the best there is


def test_the_backpropagation_phase_says_proven_draw() -> None:
    search = MonteCarloTreeSearch(make_game("tree").parse(DRAWN_TREE), seed=0, solver=True)
    texts: list[str] = []
    while not search.finished:
        texts.extend(phase.text for phase in search.phased() if phase.name == "backpropagation")
    assert "MCTS-Solver: root proven draw" in texts[-1]


Tree = int | list["Tree"]
"""A tree of ``TREES``: a leaf's value, or a node's children."""


def minimax_sign(tree: Tree, maximising: bool) -> int:
    """The sign of a tree's minimax value (a leaf: its own sign), MAX to move at the top if ``maximising``."""
    if isinstance(tree, int):
        return (tree > 0) - (tree < 0)
    signs = [minimax_sign(child, not maximising) for child in tree]
    return max(signs) if maximising else min(signs)


def written(tree: Tree) -> str:
    """The tree as ``--game tree`` reads it: ``((0,1),(-1,2))``."""
    return str(tree) if isinstance(tree, int) else "(" + ",".join(map(written, tree)) + ")"


TREES = st.recursive(st.integers(-2, 2), lambda kids: st.lists(kids, min_size=1, max_size=3), max_leaves=12).filter(
    lambda tree: isinstance(tree, list)
)
"""Small trees whose leaves are -2..2: wins, losses and draws (0) for MAX."""


@settings(max_examples=60, deadline=None)
@given(tree=TREES, seed=st.integers(0, 1000))
def test_solver_proves_the_result_of_any_small_tree_its_value_exactly_that(tree: Tree, seed: int) -> None:
    search = MonteCarloTreeSearch(make_game("tree").parse(written(tree)), seed=seed, solver=True)
    result = search.run(Limit(iterations=5000))
    exact = minimax_sign(tree, True)
    assert result.finished
    assert search.proven() == (exact, exact)
    assert result.value.first() == exact and math.copysign(1.0, result.value.first()) == (-1.0 if exact < 0 else 1.0)


def test_solver_proves_the_win_in_one_at_its_first_expansion_of_column_three() -> None:
    state = CONNECT4.parse(WIN_IN_ONE)
    search = MonteCarloTreeSearch(state, seed=0, solver=True)
    result = search.run(Limit(iterations=100))
    assert result.finished
    assert search.root.children[-1].move == column("3")  # proven the moment it was added
    assert result.stats.iterations == len(search.root.children)


def test_partial_expansion_adds_a_child_only_when_ucb_c_beats_every_child() -> None:
    """Replays each selection by the rule before the step and checks the searcher took that path."""
    search = MonteCarloTreeSearch(CONNECT4.parse("4453"), seed=6, c=1.0, partial=True)
    descended_past_untried = 0
    for _ in range(400):
        node, path = search.root, [search.root]
        while node.untried is not None:
            best = max(node.children, key=lambda ch: ucb1(ch.total / ch.visits, node.visits, ch.visits, 1.0))
            best_ucb = ucb1(best.total / best.visits, node.visits, best.visits, 1.0)
            if node.untried and expansion_urgency(node.visits, len(node.children)) > best_ucb:
                break
            descended_past_untried += bool(node.untried)
            node = best
            path.append(node)
        step = search.step()
        assert step is not None
        if search.state_at(path[-1]).is_terminal():  # a finished game is scored again, nothing added
            assert (list(step.path), step.added) == (path, ())
        else:
            assert (list(step.path[:-1]), step.added) == (path, (step.path[-1],))
    assert descended_past_untried > 100  # plain UCT would have expanded there every time


# --- flat Monte Carlo ---


def test_flat_monte_carlo_samples_root_moves_in_turn() -> None:
    state = CONNECT4.parse("4453")
    search = FlatMonteCarlo(state, seed=0, k=4)
    search.run(Limit(iterations=7 * 5))
    assert [child.visits for child in search.root.children] == [20] * 7
    assert search.stats.moves == 35
    assert search.stats.max_depth == 1
    best = max(search.root.children, key=lambda child: child.total / child.visits)
    assert search.best_move() == best.move
    assert search.principal_variation() == [best.move]


def test_flat_monte_carlo_takes_a_win_in_one() -> None:
    state = CONNECT4.parse(WIN_IN_ONE)
    result = FlatMonteCarlo(state, seed=0, k=8).run(Limit(iterations=70))
    assert state.move_label(result.best_move) == "3"
    assert result.value.first() == 1.0


def test_flat_monte_carlo_pays_one_move_per_step() -> None:
    result = FlatMonteCarlo(CONNECT4.parse("4453"), seed=0, k=2).run(Limit(moves=100))
    assert result.stats.moves == result.stats.iterations == 100
    assert result.stats.nodes == 8


# --- registry ---


def test_registry_builds_and_checks_mcts_parameters() -> None:
    spec = AgentSpec.parse("mcts:c=1.4,k=32,partial=true,solver=yes")
    assert spec.params == {"c": 1.4, "k": 32, "partial": True, "solver": True}
    search = spec.make(CONNECT4.parse("44"), seed=1)
    assert isinstance(search, MonteCarloTreeSearch)
    assert (search.c, search.k, search.partial, search.solver) == (1.4, 32, True, True)
    assert isinstance(make_searcher("flat-mc", GRUNDY.parse("9"), {"k": "3"}), FlatMonteCarlo)
    with pytest.raises(SearchError, match="k: 0 is below its range"):
        AgentSpec.parse("mcts:k=0")
    with pytest.raises(SearchError, match="flat-mc has no parameter 'c'"):
        AgentSpec.parse("flat-mc:c=2")

"""Hand-written game trees (``--game tree``): the parser, the positions, and every searcher that plays them."""

from __future__ import annotations

import random

import pytest

from plyscope.engine.games import CHANCE
from plyscope.engine.games.tree import BUILT_IN, MAX_DEPTH, MAX_NODES, TreeError, TreeGame, TreeState, read_tree
from plyscope.engine.kits import make_game
from plyscope.engine.kits.evaluation import make_evaluator
from plyscope.engine.search import Limit, SearchError
from plyscope.engine.search.alphabeta.searcher import AlphaBeta
from plyscope.engine.search.registry import make_searcher
from plyscope.engine.solve import PositionSolve

GAME = make_game("tree")


def tree_state(text: str) -> TreeState:
    state = GAME.parse(text)
    assert isinstance(state, TreeState)
    return state


def random_tree(rng: random.Random, depth: int, *, chance: bool = False) -> str:
    """A tree of height at most ``depth`` with leaf values in -20..20 (never 0), some nodes chance ones."""
    if depth == 0 or (depth < 3 and rng.random() < 0.2):
        return str(rng.choice([v for v in range(-20, 21) if v]))
    count = rng.randint(1, 3)
    kids = [random_tree(rng, depth - 1, chance=chance) for _ in range(count)]
    if chance and rng.random() < 0.3:
        return "?(" + ",".join(f"1/{count}:{kid}" for kid in kids) + ")"
    return "(" + ",".join(kids) + ")"


def random_trees(count: int, *, chance: bool = False) -> list[str]:
    rng = random.Random(28)
    trees: list[str] = []
    while len(trees) < count:
        text = ("min:" if rng.random() < 0.3 else "") + random_tree(rng, rng.randint(2, 4), chance=chance)
        state = tree_state(text)
        if not state.is_terminal() and state.player != CHANCE and state.tree.has_chance == chance:
            trees.append(text)
    return trees


DETERMINISTIC = [*random_trees(8), BUILT_IN["classic"], BUILT_IN["order"], BUILT_IN["deep"]]
WITH_CHANCE = [*random_trees(6, chance=True), BUILT_IN["chance"]]


# ----------------------------------------------------------------------------- the parser


@pytest.mark.parametrize(
    ("text", "written", "players", "static"),
    [
        ("((3,12,8),(2,4,6),(14,5,2))", "((3,12,8),(2,4,6),(14,5,2))", (1, -1, 1, 1), (56 / 9, 23 / 3, 3, 12)),
        (" A( B=5(3, 12, 8), C(2,4,6) ) # a comment\n", "A(B=5(3,12,8),C(2,4,6))", (1, -1, 1, 1), (35 / 6, 5, 3)),
        ("min:(3,(1,7))", "min:(3,(1,7))", (-1, 1, 1, -1, -1), (11 / 3, 3, 4, 1, 7)),
        ("(?(0.5:3, 0.5:(1,7)), 4)", "(?(0.5:3,0.5:(1,7)),4)", (1, CHANCE, -1, -1, 1, 1, -1), (3.75, 11 / 3, 3)),
        ("?(1/2:(1,2),1/2:-3.5)", "?(1/2:(1,2),1/2:-3.5)", (CHANCE, 1, -1, -1, 1), (-1 / 6, 1.5, 1)),
        ("(x=3, y=-5e1)", "(x=3,y=-50)", (1, -1, -1), (-23.5, 3, -50)),
    ],
)
def test_trees_are_read_with_players_and_static_values(
    text: str, written: str, players: tuple[int, ...], static: tuple[float, ...]
) -> None:
    tree = read_tree(text)
    assert tree.text == written
    assert tree.player[: len(players)] == players
    assert tree.static[: len(static)] == pytest.approx(static)
    assert read_tree(written).text == written


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("((3,12,8),(2,4,6)", "tree at the end: 1 '(' not closed"),
        ("((3,12,8),(2,,6))", "tree at character 14 (','): a node expected: a value, a label or '('"),
        ("(3 4)", "tree at character 4 ('4'): ',' or ')' expected"),
        ("(3,4))", "tree at character 6 (')'): the tree is over: nothing may follow it"),
        ("()", "tree at character 2 (')'): a node needs at least one child: '()' is empty"),
        ("(A)", "tree at character 3 (')'): '(' expected after the label A"),
        ("(3,A=)", "tree at character 6 (')'): a value expected after '='"),
        ("(3,+)", "tree at character 4 ('+'): a node expected: a value, a label or '('"),
        ("(1e999)", "tree at character 2 ('1'): 1e999 is beyond ±1,000,000,000"),
        ("(?(0.5:3,0.4:1))", "tree at character 15 (')'): the probabilities of this chance node's children add up"),
        ("(?(3))", "tree at character 5 (')'): ':' expected: a chance node's child is written PROBABILITY:NODE"),
        ("(?(0:3,1:2))", "tree at character 4 ('0'): probability 0 is not above 0 and at most 1"),
        ("(?(1/0:3))", "tree at character 4 ('1'): 1/0 divides by 0"),
        ("(?x)", "tree at character 3 ('x'): '(' expected after the chance node"),
        ("min:", "tree at the end: a node expected"),
        ("(1,2)\n(3", "tree at line 2, column 1 ('('): the tree is over"),
        ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), f"tree at character {MAX_DEPTH + 1} ('('): deeper than"),
        ("(" + "1," * MAX_NODES + "1)", "tree at character 200000 ('1'): more than 100,000 nodes"),
        # Issue 36, item 1: a move names a child by its label, so two siblings labelled alike lost a move.
        ("(x=5,x=-2,y=1)", "tree at character 6 ('x'): a second child labelled x here: siblings need different"),
        ("A(B(3),B(4))", "tree at character 8 ('B'): a second child labelled B here"),
        ("(?(0.5:x=1,0.5:x=2))", "tree at character 16 ('x'): a second child labelled x here"),
        ("(B(x=1,y=2),B(x=1))", "tree at character 13 ('B'): a second child labelled B here"),
    ],
)
def test_a_malformed_tree_is_refused_naming_its_place(text: str, message: str) -> None:
    with pytest.raises(TreeError) as refused:
        read_tree(text)
    assert str(refused.value).startswith(message)


def test_cousins_and_an_ancestor_may_share_a_label() -> None:
    tree = read_tree("A(B(x=1,A=2),C(x=3,B(4)))")
    assert tree.labels == ("A", "B", "x", "A", "C", "x", "B", "")


def test_positions_are_built_in_names_files_or_text(tmp_path: pytest.TempPathFactory) -> None:
    assert tree_state("classic").text() == "A(B(3,12,8),C(2,4,6),D(14,5,2))"
    written = tmp_path / "lecture.tree"  # type: ignore[operator]
    written.write_text("# from the lecture\n(\n  (3, 12, 8),\n  (2, 4, 6)\n)\n")
    assert tree_state(str(written)).text() == "((3,12,8),(2,4,6))"
    with pytest.raises(TreeError, match=r"is not a tree, a built-in tree .* or a readable file"):
        GAME.parse("no-such-tree")


def test_a_position_is_a_node_and_its_text_reads_back_as_it() -> None:
    root = tree_state("classic")
    assert [root.move_label(m) for m in root.legal_moves()] == ["B", "C", "D"]
    c = root.play(root.parse_move("C"))
    assert (c.player, c.ply, c.text(), c.winner()) == (-1, 1, "min:C(2,4,6)", None)
    assert [c.move_label(m) for m in c.legal_moves()] == ["1", "2", "3"]
    leaf = c.play(c.parse_move("2"))
    assert (leaf.is_terminal(), leaf.winner(), leaf.value(), leaf.label()) == (True, 1, 4.0, "C.2")
    assert tree_state(c.text()).text() == c.text()
    assert tree_state("(-3,0)").play(0).winner() == -1 and tree_state("(-3,0)").play(1).winner() == 0
    with pytest.raises(SearchError, match="already over"):
        make_searcher("minimax", leaf)


def test_editing_a_leaf_changes_exactly_that_leaf() -> None:
    game = tree_state("classic").game
    edited = game.with_value(7, 1.5)
    assert edited.tree.text == "A(B(3,12,8),C(2,1.5,6),D(14,5,2))"
    assert [v for i, v in enumerate(edited.tree.values) if v != game.tree.values[i]] == [1.5]
    with pytest.raises(TreeError, match="only a leaf"):
        game.with_value(1, 3)


def test_a_thousand_leaves_parse() -> None:
    text = "(" + ",".join("(" + ",".join(str(i * 10 + j) for j in range(10)) + ")" for i in range(100)) + ")"
    tree = read_tree(text)
    assert sum(not kids for kids in tree.children) == 1000 and tree.exact[0] == 990


def test_the_evaluator_gives_static_values_and_the_tree_range() -> None:
    state = tree_state("A(B=5(3,12,8),C(2,4,6))")
    evaluator = make_evaluator("tree", state.game)
    assert (evaluator.lo, evaluator.hi) == (2, 12)
    assert [evaluator(state.play(m)) for m in state.legal_moves()] == [5, 4]
    assert evaluator(state.play(0).play(1)) == 12
    flat = make_evaluator("tree", tree_state("(1,1)").game)
    assert (flat.lo, flat.hi) == (1, 2)


# ----------------------------------------------------------------------------- the searchers


def exact_value(text: str) -> float:
    state = tree_state(text)
    return state.tree.exact[state.node]


@pytest.mark.parametrize("text", DETERMINISTIC)
@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("minimax", {"depth": 12}),
        ("alphabeta", {}),
        ("alphabeta", {"ordering": "static-all", "tt": True}),
        ("alphabeta", {"ordering": "history"}),
        ("bestfirst", {}),
        ("bestfirst", {"ab_depth": 1}),
        ("rivest", {}),
        ("expectiminimax", {"depth": 12}),
        ("expectiminimax", {"depth": 12, "pruning": "star1"}),
    ],
)
def test_every_searcher_finds_the_minimax_value(text: str, name: str, params: dict[str, object]) -> None:
    searcher = make_searcher(name, tree_state(text), params)
    result = searcher.run(Limit(iterations=10_000))
    assert result.finished
    assert result.value.first() == pytest.approx(exact_value(text))
    state = tree_state(text)
    best = state.play(result.best_move)
    assert state.tree.exact[best.node] == pytest.approx(exact_value(text))


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.parametrize("text", DETERMINISTIC)
def test_proof_number_search_and_mcts_solver_prove_the_sign_of_the_minimax_value(text: str) -> None:
    result = sign(exact_value(text))
    pns = make_searcher("pns", tree_state(text))
    pns.run(Limit(iterations=10_000))
    assert pns.proven() == (result, result)
    solver = make_searcher("mcts", tree_state(text), {"solver": True}, seed=1)
    solver.run(Limit(iterations=2_000))
    assert solver.proven() == (result, result)


def test_mcts_takes_a_leaf_sign_as_its_result() -> None:
    state = tree_state("A(B(3,-12,8),C(-2,4,6),D(14,5,2))")
    searcher = make_searcher("mcts", state, seed=3)
    result = searcher.run(Limit(iterations=400))
    assert state.move_label(result.best_move) == "D"


@pytest.mark.parametrize("text", WITH_CHANCE)
@pytest.mark.parametrize("pruning", ["none", "star1"])
def test_expectiminimax_finds_the_expectation_on_chance_trees(text: str, pruning: str) -> None:
    searcher = make_searcher("expectiminimax", tree_state(text), {"depth": 12, "pruning": pruning})
    assert searcher.run(Limit()).value.first() == pytest.approx(exact_value(text))


def test_searchers_without_chance_nodes_refuse_a_chance_tree() -> None:
    with pytest.raises(SearchError, match="alphabeta cannot search chance nodes: on tree use expectiminimax, mcts"):
        make_searcher("alphabeta", tree_state("chance"))


def pruned_leaves(searcher: AlphaBeta, state: TreeState) -> list[str]:
    """The leaves alpha-beta's last iteration never reached because of a cut-off, as ``parent.move``."""
    tree = state.tree
    pruned: list[str] = []
    for node in searcher.walk():
        if node.pruned:
            at = searcher.state_at(node)
            assert isinstance(at, TreeState)
            kids = tree.children[at.node]
            assert len(kids) - len(node.children) == node.pruned
            pruned += [f"{at.label()}.{move + 1}" for move in range(len(node.children), len(kids))]
    return pruned


@pytest.mark.parametrize(
    ("name", "pruned"),
    [("classic", ["C.2", "C.3"]), ("order", []), ("deep", ["E.2", "C.2"])],
)
@pytest.mark.parametrize("start_depth", [1, 3])
def test_alpha_beta_prunes_the_textbook_leaves(name: str, pruned: list[str], start_depth: int) -> None:
    """AIMA figure 5.5: after B = 3, C's first leaf 2 cuts C's other two; D's three are all examined."""
    state = tree_state(name)
    searcher = make_searcher("alphabeta", state, {"start_depth": start_depth})
    searcher.run(Limit())
    assert isinstance(searcher, AlphaBeta)
    assert pruned_leaves(searcher, state) == pruned
    assert searcher.value().first() == (17 if name == "deep" else 3)


def test_solve_gives_every_move_its_exact_value() -> None:
    solution = PositionSolve(tree_state("classic")).solution().as_json()
    assert (solution["value"], solution["moves"], solution["best_moves"]) == (3, {"B": 3, "C": 2, "D": 2}, ["B"])
    chance = PositionSolve(tree_state("chance")).solution().as_json()
    assert (chance["value"], chance["moves"]) == (7, {"B": 7, "C": 6.5, "D": 2.5})


def test_tree_games_are_equal_by_their_text() -> None:
    assert TreeGame.built_in() == make_game("tree") == tree_state("A(B(3,12,8),C(2,4,6),D(14,5,2))").game
    assert tree_state("classic") != tree_state("order")


def test_a_monotonic_transform_keeps_minimax_s_choice_but_not_expectiminimax_s() -> None:
    """Seed 004: only the order of the values matters to minimax; with chance nodes their size does too."""
    classic = tree_state("classic")
    chance = tree_state("chance")
    for transform in ("identity", "cube", "exp", "log"):
        minimax = make_searcher("minimax", classic, {"depth": 12, "transform": transform})
        assert classic.move_label(minimax.run(Limit()).best_move) == "B"
    chosen = {}
    for transform in ("identity", "affine:2,10", "cube"):
        searcher = make_searcher("expectiminimax", chance, {"depth": 12, "transform": transform})
        chosen[transform] = chance.move_label(searcher.run(Limit()).best_move)
    assert chosen == {"identity": "B", "affine:2,10": "B", "cube": "C"}

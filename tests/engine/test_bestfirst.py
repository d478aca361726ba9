"""Best-first minimax (Korf & Chickering) and its best-first extension.

Every value here is from the first player's (MAX's) point of view.
"""

from __future__ import annotations

import pytest

from plyscope.engine.games import Connect4, Nim
from plyscope.engine.games.base import State
from plyscope.engine.search import Limit
from plyscope.engine.search.bestfirst.bestfirst import BestFirst, BestFirstNode
from plyscope.engine.search.minimax import Minimax
from plyscope.engine.search.registry import AgentSpec
from tests.engine.test_rivest import BLOCK, WIN_IN_ONE, WIN_IN_THREE, HandEvaluator, HandGame, HandState

pytestmark = pytest.mark.usefixtures("hand_made_kit")
"""Their hand-made games name the tests' kit."""


def full_minimax_value(state: State) -> float:
    """The root value of full-width minimax over the whole game (neutral evaluator: a win at ply p 1023 - p/1000, a
    loss at ply p 1 + p/1000)."""
    searcher = Minimax(state, depth=100, evaluator="neutral")
    assert searcher.run(Limit()).finished
    return searcher.value().first()


def test_expands_the_principal_leaf() -> None:
    """s (MAX) -> t = 2, u = 10;  u (MIN) -> w = 10, x = 12;  w (MAX) -> y = 11, z = 11."""
    children = {"s": ["t", "u"], "u": ["w", "x"], "w": ["y", "z"], "t": ["t1"], "x": ["x1"], "y": ["y1"], "z": ["z1"]}
    values = {"s": 5.0, "t": 2.0, "u": 10.0, "w": 10.0, "x": 12.0, "y": 11.0, "z": 11.0}
    searcher = BestFirst(HandGame(children, values).start(), evaluator=HandEvaluator())
    steps = [searcher.step() for _ in range(3)]
    assert [None if s is None else s.node.move for s in steps] == [None, "u", "w"]
    step = steps[-1]
    assert step is not None
    assert searcher.value().first() == 11.0
    assert [n.move for n in step.path] == [None, "u", "w"]
    assert [n.move for n in step.added] == ["y", "z"]
    assert {n.move for n in step.changed} == {None, "u", "w", "y", "z"}
    assert searcher.principal_variation() == ["u", "w", "y"]
    assert searcher.root.numbers() == {"v": 11.0}
    leaf = searcher.state_at(searcher.principal_path()[-1])
    assert isinstance(leaf, HandState) and leaf.name == "y"


@pytest.mark.parametrize("ab_depth", [0, 2])
@pytest.mark.parametrize(
    ("text", "won", "value"), [("7", False, 1.004), ("8", True, 1022.995), ("10", False, 1.006), ("12", True, 1022.993)]
)
def test_grundy(ab_depth: int, text: str, won: bool, value: float) -> None:
    """Grundy's game: 7 and 10 are lost for the player to move (at ply 4 and 6 at the latest); 8 is won by 8=7+1
    (at ply 5), 12 by 12=10+2 (at ply 7)."""
    state = Nim("grundy").parse(text)
    result = BestFirst(state, ab_depth=ab_depth).run(Limit())
    assert result.finished
    assert result.value.first() == value == full_minimax_value(state)
    if won:
        assert state.move_label(result.best_move) == {"8": "8=7+1", "12": "12=10+2"}[text]


@pytest.mark.parametrize("ab_depth", [0, 3])
@pytest.mark.parametrize(
    ("text", "winning_move", "value"),
    [("2,3,4", (4, 3), 1022.993), ("3,4,5", (3, 2), 1022.989), ("1,2,3", None, 1.006)],
)
def test_classic_nim_follows_the_xor_rule(
    ab_depth: int, text: str, winning_move: tuple[int, int] | None, value: float
) -> None:
    """The player to move wins exactly when the XOR of the piles is not 0, by making it 0 (2,3,4: at ply 7 at the
    soonest; 3,4,5: at ply 11); 1,2,3 is lost, at ply 6 at the latest."""
    state = Nim("classic").parse(text)
    result = BestFirst(state, ab_depth=ab_depth).run(Limit())
    assert result.finished
    assert result.value.first() == value
    if winning_move is not None:
        assert result.best_move == winning_move
    if text != "3,4,5":  # the full tree of (3, 4, 5) is too big to search here
        assert result.value.first() == full_minimax_value(state)


@pytest.mark.parametrize("ab_depth", [0, 2])
@pytest.mark.parametrize(
    ("text", "moves", "right"), [(WIN_IN_ONE, 100, {"4"}), (BLOCK, 500, {"4"}), (WIN_IN_THREE, 5000, {"2", "5"})]
)
def test_connect_four_tactics(ab_depth: int, text: str, moves: int, right: set[str]) -> None:
    """The positions are drawn in ``test_rivest``: win in one, block a win in one, win in three."""
    state = Connect4().parse(text)
    result = BestFirst(state, ab_depth=ab_depth).run(Limit(moves=moves))
    assert state.move_label(result.best_move) in right
    if text != BLOCK:
        assert result.value.first() == 1022.993  # won at ply 7


def test_finishes_when_the_principal_leaf_is_terminal() -> None:
    searcher = BestFirst(Connect4().parse(WIN_IN_ONE))
    result = searcher.run(Limit())
    assert result.finished and result.stats.iterations == 1
    assert searcher.principal_path()[-1].terminal
    assert searcher.step() is None


def test_best_first_extension_grows_full_width_first() -> None:
    """ab_depth = 2 from the empty board: the root, then its 7 children, breadth first; then best-first."""
    state = Connect4().start()
    searcher = BestFirst(state, ab_depth=2)
    expanded = []
    for _ in range(8):
        step = searcher.step()
        assert step is not None
        expanded.append(tuple(step.node.moves()))
    assert expanded == [(), *((column,) for column in range(7))]
    assert searcher.stats.nodes == 1 + 7 + 49
    assert searcher.value().first() == Minimax(state, depth=2).run(Limit()).value.first()
    principal = searcher.principal_path()
    step = searcher.step()
    assert step is not None
    assert list(step.path) == principal and step.node.depth == 2


def check_backed_up(searcher: BestFirst, node: BestFirstNode) -> None:
    """Every interior node holds the minimax value of its children and points at its first best child."""
    children = list(node.children)
    if not children:
        assert node.best is None
        return
    for child in children:
        check_backed_up(searcher, child)
    values = [c.v * searcher.player(node) for c in children]
    assert node.best is children[values.index(max(values))]
    assert node.v == node.best.v


@pytest.mark.parametrize("text", ["", "4453", "44444323"])
def test_values_stay_backed_up(text: str) -> None:
    searcher = BestFirst(Connect4().parse(text))
    for _ in range(80):
        principal = searcher.principal_path()
        step = searcher.step()
        assert step is not None
        assert list(step.path) == principal
        assert set(step.added) <= set(step.changed) and step.node in step.changed
    check_backed_up(searcher, searcher.root)


def tree_snapshot(searcher: BestFirst) -> list[tuple[object, ...]]:
    return [(tuple(n.moves()), n.v, None if n.best is None else n.best.move) for n in searcher.walk()]


@pytest.mark.parametrize("ab_depth", [0, 2])
def test_run_builds_the_tree_stepping_builds(ab_depth: int) -> None:
    state = Connect4().parse("4453")
    stepped = BestFirst(state, ab_depth=ab_depth)
    while stepped.step(moves_left=3000 - stepped.stats.moves) is not None:
        pass
    run = BestFirst(state, ab_depth=ab_depth)
    run.run(Limit(moves=3000))
    assert tree_snapshot(run) == tree_snapshot(stepped)
    assert (run.stats.moves, run.stats.nodes, run.stats.iterations) == (
        stepped.stats.moves,
        stepped.stats.nodes,
        stepped.stats.iterations,
    )


@pytest.mark.parametrize("ab_depth", [0, 2])
def test_move_budget_is_never_exceeded(ab_depth: int) -> None:
    state = Connect4().parse("4453")
    for budget in (0, 6, 7, 8, 50, 333, 1000):
        searcher = BestFirst(state, ab_depth=ab_depth)
        result = searcher.run(Limit(moves=budget))
        assert result.stats.moves <= budget
        nodes = searcher.stats.nodes
        assert searcher.step(moves_left=budget - result.stats.moves) is None
        assert searcher.stats.nodes == nodes


def test_registry() -> None:
    searcher = AgentSpec.parse("bestfirst:ab_depth=3,eval=threats").make(Connect4().start())
    assert isinstance(searcher, BestFirst)
    assert searcher.ab_depth == 3 and searcher.evaluator.name == "threats"

"""Proof-number search: its pn/dn arithmetic on a hand-drawn tree, and known results it must prove."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyscope.engine.games import Connect4, Game, Move, Nim, PositionError, State
from plyscope.engine.kits import make_game
from plyscope.engine.search import Limit, Node, SearchError
from plyscope.engine.search.bestfirst.pns import INF, ProofNumberSearch
from plyscope.engine.search.registry import make_searcher
from tests.engine.test_distance import exact_score

pytestmark = pytest.mark.usefixtures("hand_made_kit")
"""Their hand-made games name the tests' kit."""


class TreeGame:
    """A game given as a drawn tree: ``edges`` maps a node to its children, ``results`` a leaf to its utility."""

    kit = "hand-made"
    """The tests' kit (``tests.conftest.HandMadeKit``)."""

    name = "tree"

    def __init__(self, edges: dict[str, tuple[str, ...]], results: dict[str, int]) -> None:
        self.edges = edges
        self.results = results

    def start(self) -> TreeState:
        return TreeState(self, "root", 0)

    def parse(self, text: str) -> TreeState:
        raise PositionError("a drawn tree has only its root")


class TreeState:
    """A node of a ``TreeGame``; moves are the children's names, the first player moves at even plies."""

    def __init__(self, game: TreeGame, label: str, ply: int) -> None:
        self.tree = game
        self.label = label
        self.ply = ply

    @property
    def game(self) -> Game:
        return self.tree

    @property
    def player(self) -> int:
        return 1 if self.ply % 2 == 0 else -1

    def legal_moves(self) -> Sequence[Move]:
        return self.tree.edges.get(self.label, ())

    def play(self, move: Move) -> TreeState:
        return TreeState(self.tree, str(move), self.ply + 1)

    def is_terminal(self) -> bool:
        return self.label in self.tree.results

    def winner(self) -> int | None:
        return self.tree.results.get(self.label)

    def utility(self) -> int:
        return self.tree.results[self.label]

    def key(self) -> str:
        return self.label

    def move_label(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        return text

    def text(self) -> str:
        return self.label


FIRST_WINS, SECOND_WINS, DRAW = 1, -1, 0

DRAWN_TREE = TreeGame(
    edges={
        "root": ("a", "c", "b"),
        "a": ("a1", "a2"),
        "a1": ("a1x", "a1y"),
        "c": ("c1", "c2", "c3"),
        "c1": ("c1x",),
        "c2": ("c2x",),
        "c3": ("c3x",),
        "b": ("b1", "b2"),
        "b2": ("b2x", "b2y"),
        "b2y": ("b2y1",),
    },
    results={
        "a1x": SECOND_WINS,
        "a1y": SECOND_WINS,
        "a2": FIRST_WINS,
        "c1x": FIRST_WINS,
        "c2x": FIRST_WINS,
        "c3x": FIRST_WINS,
        "b1": FIRST_WINS,
        "b2x": SECOND_WINS,
        "b2y1": FIRST_WINS,
    },
)


def numbers_by_name(search: ProofNumberSearch) -> dict[str, tuple[float, float]]:
    return {("root" if node.move is None else str(node.move)): (node.pn, node.dn) for node in search.walk()}


def name(node: Node) -> str:
    return "root" if node.move is None else str(node.move)


def test_proof_and_disproof_numbers_on_a_drawn_tree() -> None:
    """Seven expansions prove the root; the first player (OR) moves at the root, so the claim is "first wins".

    ::

        root (OR)
        +-- a (AND)
        |   +-- a1 (OR) -- a1x: second wins, a1y: second wins
        |   +-- a2: first wins
        +-- c (AND)
        |   +-- c1 (OR) -- c1x: first wins      (c2, c3 alike)
        +-- b (AND)
            +-- b1: first wins
            +-- b2 (OR)
                +-- b2x: second wins
                +-- b2y (AND) -- b2y1: first wins

    1. root: a, c, b are (1, 1), so root = (min 1, sum 3).
    2. a (first child of least pn): a1 = (1, 1), a2 = (0, inf); a = (1 + 0, min(1, inf)) = (1, 1)
       is unchanged, so the root is not recomputed.
    3. a1 (least dn below the AND node a): both children (inf, 0), a1 = (inf, 0), a = (inf, 0),
       root = (min(inf, 1, 1), 0 + 1 + 1) = (1, 2).
    4. c: c = (1 + 1 + 1, 1) = (3, 1); root stays (1, 2).
    5. b: b = (0 + 1, min(inf, 1)) = (1, 1), unchanged.
    6. b2: b2 = (min(inf, 1), 0 + 1) = (1, 1), unchanged.
    7. b2y: (0, inf), and so are b2, b and the root: proven, by b, a win at ply 4.

    Then the refinement (the length): c, whose children are unknown, could still win at ply 3, so
    8-10. c1, c2, c3 (c's children, each of highest upper bound in turn): each wins at ply 3, so c does,
       and so does the root: finished, by c, the quicker win.
    """
    search = ProofNumberSearch(DRAWN_TREE.start())
    expected: list[tuple[str, dict[str, tuple[float, float]], set[str]]] = [
        ("root", {"root": (1, 3), "a": (1, 1), "c": (1, 1), "b": (1, 1)}, {"root", "a", "c", "b"}),
        ("a", {"a": (1, 1), "a1": (1, 1), "a2": (0, INF), "root": (1, 3)}, {"a", "a1", "a2"}),
        ("a1", {"a1": (INF, 0), "a": (INF, 0), "root": (1, 2)}, {"a1", "a1x", "a1y", "a", "root"}),
        ("c", {"c": (3, 1), "c1": (1, 1), "root": (1, 2)}, {"c", "c1", "c2", "c3"}),
        ("b", {"b": (1, 1), "b1": (0, INF), "b2": (1, 1), "root": (1, 2)}, {"b", "b1", "b2"}),
        ("b2", {"b2": (1, 1), "b2x": (INF, 0), "b2y": (1, 1), "root": (1, 2)}, {"b2", "b2x", "b2y"}),
        ("b2y", {"b2y": (0, INF), "b2": (0, INF), "b": (0, INF), "root": (0, INF)}, {"b2y", "b2y1", "b2", "b", "root"}),
    ]
    for expanded, numbers, changed in expected:
        assert not search.finished
        step = search.step()
        assert step is not None
        assert name(step.node) == expanded
        assert [name(n) for n in step.path] == [name(n) for n in step.node.path()]
        assert {name(n) for n in step.changed} == changed
        assert {name(n) for n in step.added} == {name(c) for c in step.node.children}
        current = numbers_by_name(search)
        assert {label: current[label] for label in numbers} == numbers
    assert not search.finished
    assert step is not None and step.note == "root proven; its score: win at ply 4 to win at ply 3, refining"
    assert search.value().first() == 0.996  # the proof's win, at ply 4
    assert search.best_move() == "b"
    assert search.principal_variation() == ["b", "b2", "b2y", "b2y1"]  # b2 holds the loss off longest (b1: at once)
    assert (search.stats.moves, search.stats.nodes, search.stats.max_depth, search.stats.iterations) == (15, 16, 4, 7)
    assert search.root.numbers() == {"pn": 0, "dn": INF}
    assert search.numbers(search.root)["result"] == "win@3..4"
    refined = [search.step() for _ in range(3)]
    assert [None if r is None else name(r.node) for r in refined] == ["c1", "c2", "c3"]
    assert finished(search) and search.step() is None
    assert refined[-1] is not None and refined[-1].note == "root proven: win at ply 3"
    assert search.value().first() == 0.997
    assert search.best_move() == "c"
    assert search.principal_variation() == ["c", "c1", "c1x"]
    assert search.numbers(search.root)["result"] == "win@3"


def finished(search: ProofNumberSearch) -> bool:
    """``search.finished`` (read through a call: a step changes it)."""
    return search.finished


def test_before_any_step_the_root_is_unknown_and_there_is_no_move() -> None:
    search = ProofNumberSearch(DRAWN_TREE.start())
    assert (search.root.pn, search.root.dn) == (1, 1)
    assert search.best_move() is None
    assert search.value().first() == 0.0
    assert search.principal_variation() == []


def test_while_unsettled_the_best_move_is_the_child_of_least_pn() -> None:
    search = ProofNumberSearch(DRAWN_TREE.start())
    search.run(Limit(iterations=4))  # a disproven, c = (3, 1), b = (1, 1)
    assert search.best_move() == "b"
    assert search.principal_variation() == ["b"]
    assert search.value().first() == 0.0


DRAW_OR_LOSS = TreeGame(edges={"root": ("d", "l")}, results={"d": DRAW, "l": SECOND_WINS})


@pytest.mark.parametrize(("target", "proven"), [("win", False), ("draw-or-win", True)])
def test_a_draw_is_a_disproof_of_a_win_and_a_proof_of_a_draw(target: str, proven: bool) -> None:
    """root (OR) -- d: draw, l: second player wins.  Either way the game's value is a draw (0), by move d."""
    search = ProofNumberSearch(DRAW_OR_LOSS.start(), target=target)
    search.run(Limit())
    assert search.finished
    assert (search.root.pn == 0) is proven
    assert search.value().first() == 0.0
    assert search.best_move() == "d"


def test_a_terminal_root_is_settled_at_once() -> None:
    search = ProofNumberSearch(make_game("grundy").parse("2"))  # a pile of 2 cannot be split: the mover lost
    assert search.finished
    assert search.value().first() == -1.0  # lost at ply 0
    assert search.best_move() is None
    assert search.step() is None


def solve(state: State, target: str = "win") -> ProofNumberSearch:
    search = ProofNumberSearch(state, target=target)
    result = search.run(Limit(moves=100_000))
    assert result.finished
    return search


def test_grundy_7_is_disproven_for_the_first_player() -> None:
    search = solve(Nim("grundy").parse("7"))
    assert search.root.dn == 0
    assert search.value().first() == -0.996  # lost at ply 4 at the latest


def test_grundy_8_is_proven_by_splitting_into_7_and_1() -> None:
    state = Nim("grundy").parse("8")
    search = solve(state)
    assert search.root.pn == 0
    assert search.value().first() == 0.995  # won at ply 5
    assert search.best_move() == (8, 7)
    assert state.move_label(search.best_move()) == "8=7+1"


@pytest.mark.parametrize("pile", range(3, 14))
def test_grundy_losses_are_exactly_the_listed_piles(pile: int) -> None:
    """Grundy's game (Berlekamp, Conway and Guy 1982, Winning Ways, vol. 1, ch. 4; OEIS A002188): the first
    player loses exactly for n = 1, 2, 4, 7, 10, 20, ..."""
    state = Nim("grundy").parse(str(pile))
    search = solve(state)
    assert (search.value().first() < 0) == (pile in (4, 7, 10))
    assert search.value().first() == exact_score(state) / 1000


def xor(piles: Sequence[int]) -> int:
    return functools.reduce(lambda a, b: a ^ b, piles, 0)


@pytest.mark.parametrize("piles", ["1,2,3", "2,2", "1,4,5", "1,2", "2,3", "1,2,4", "3,4,5"])
def test_classic_nim_follows_the_xor_rule(piles: str) -> None:
    state = Nim("classic").parse(piles)
    search = solve(state)
    wins = xor(state.piles) != 0
    assert (search.value().first() > 0) == wins
    assert search.value().first() == exact_score(state) / 1000
    if wins:
        best = search.best_move()
        assert best is not None
        assert xor(state.play(best).piles) == 0


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=3))
def test_classic_nim_xor_rule_on_random_small_piles(piles: list[int]) -> None:
    state = Nim("classic").parse(",".join(map(str, piles)))
    value = solve(state).value().first()
    assert (value > 0) == bool(xor(piles)) and value == exact_score(state) / 1000


def test_misere_nim_single_pile_of_one_is_lost() -> None:
    search = solve(Nim("classic", misere=True).parse("1"))  # the mover must take the last token
    assert search.value().first() == -0.999  # lost at ply 1


@pytest.mark.parametrize("target", ["win", "draw-or-win"])
def test_connect4_win_in_three_is_proven(target: str) -> None:
    """Position ``2737``, first player (X) to move, proves the win with column 4::

        .......
        .......
        .......
        .......
        ......O
        .XX...O

    Column 4 makes an open three on the bottom row; the opponent can block 1 or 5, not both.
    """
    state = Connect4().parse("2737")
    search = solve(state, target)
    assert search.root.pn == 0
    assert search.value().first() == 0.993  # won at ply 7
    assert search.best_move() == 3  # column 4 (moves are 0-based columns)
    assert_line_ends_in_a_win_for_the_first_player(state, search.principal_variation())


@pytest.mark.parametrize("target", ["win", "draw-or-win"])
def test_connect4_lost_position_is_disproven_for_the_second_player(target: str) -> None:
    """Position ``33445``, second player (O) to move: X's open three on the bottom threatens 2 and 6::

        .......
        .......
        .......
        .......
        ..OO...
        ..XXX..

    The claim is about O (the player to move), so it is disproven; the value is positive because
    values are from the first player's point of view.
    """
    state = Connect4().parse("33445")
    search = solve(state, target)
    assert search.root.dn == 0
    assert search.root_player == -1
    assert search.value().first() == 0.993  # X wins at ply 7
    pv = search.principal_variation()
    assert len(pv) == 2  # whatever O plays, X wins at once
    assert_line_ends_in_a_win_for_the_first_player(state, pv)


def assert_line_ends_in_a_win_for_the_first_player(state: State, line: Sequence[Move]) -> None:
    for move in line:
        state = state.play(move)
    assert state.is_terminal()
    assert state.winner() == 1


def test_a_budget_smaller_than_the_first_expansion_does_nothing() -> None:
    search = ProofNumberSearch(Connect4().start())
    result = search.run(Limit(moves=6))  # expanding the root costs 7 moves
    assert (result.stats.moves, result.stats.nodes, result.stats.iterations) == (0, 1, 0)
    assert result.best_move is None
    assert search.step(moves_left=6) is None
    assert search.step(moves_left=7) is not None
    assert search.stats.moves == 7


def test_an_unknown_target_is_refused() -> None:
    with pytest.raises(SearchError, match="target 'lose' is not one of win, draw-or-win"):
        ProofNumberSearch(Connect4().start(), target="lose")


def test_a_step_note_gives_the_root_numbers() -> None:
    step = ProofNumberSearch(DRAWN_TREE.start()).step()
    assert step is not None and step.note == "root pn 1, dn 3"


def test_registry_builds_pns_with_its_target() -> None:
    search = make_searcher("pns", Connect4().parse("2737"), {"target": "draw-or-win"})
    assert isinstance(search, ProofNumberSearch)
    assert search.target == "draw-or-win"

"""Rivest's min/max approximation: generalized means, the worked example, Rivest's evaluator, searches.

Every value here is from the first player's (MAX's) point of view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from plyscope.engine.games import Connect4, Connect4State, Nim
from plyscope.engine.games.base import Move, State
from plyscope.engine.games.evaluators import RivestEvaluator
from plyscope.engine.search import Limit, SearchError
from plyscope.engine.search.bestfirst.genmean import log_generalized_mean
from plyscope.engine.search.bestfirst.rivest import Rivest, RivestNode
from plyscope.engine.search.registry import AgentSpec, make_searcher

pytestmark = pytest.mark.usefixtures("hand_made_kit")
"""Their hand-made games name the tests' kit."""


def generalized_mean(values: Sequence[float], p: float) -> float:
    """``M_p(values)`` of positive values (n >= 1), by ``log_generalized_mean``."""
    return math.exp(log_generalized_mean([math.log(v) for v in values], p))


def derivative(values: Sequence[float], p: float, index: int) -> float:
    """The exact ``dM_p/da_i = (1/n)(a_i / M_p(a))^(p-1)`` at ``a = values``, ``i = index``."""
    log_mean = log_generalized_mean([math.log(v) for v in values], p)
    return math.exp((p - 1) * (math.log(values[index]) - log_mean)) / len(values)


def penalty_from_root(searcher: Rivest, node: RivestNode) -> float:
    """The sum of the edge weights from the root down to ``node`` (Rivest's ``P``; the searcher keeps ``pi``, the
    least of these below a node, counted from it)."""
    return sum(searcher.weight_of(n) for n in node.path())


class HandGame:
    """A small hand-made game tree: named positions, their children and their static values."""

    kit = "hand-made"
    """The tests' kit (``tests.conftest.HandMadeKit``)."""

    name = "hand"

    def __init__(self, children: dict[str, list[str]], values: dict[str, float]) -> None:
        self.children = children
        """Position -> its children, in move order; a position with none is terminal."""
        self.values = values
        """Static value of each position (first player's view); terminal positions score theirs too."""

    def start(self) -> HandState:
        return HandState(self, "s", 0)

    def parse(self, text: str) -> HandState:
        return HandState(self, text, 0)


class HandState:
    """A position of a ``HandGame``; the first player (MAX) moves at even plies, and moves are child names."""

    def __init__(self, game: HandGame, name: str, ply: int) -> None:
        self._game = game
        self.name = name
        self._ply = ply

    @property
    def game(self) -> HandGame:
        return self._game

    @property
    def player(self) -> int:
        return 1 if self._ply % 2 == 0 else -1

    @property
    def ply(self) -> int:
        return self._ply

    def legal_moves(self) -> Sequence[Move]:
        return self._game.children.get(self.name, [])

    def play(self, move: Move) -> HandState:
        assert move in self.legal_moves()
        return HandState(self._game, str(move), self._ply + 1)

    def is_terminal(self) -> bool:
        return not self.legal_moves()

    def winner(self) -> int | None:
        return 0 if self.is_terminal() else None

    def utility(self) -> int:
        return 0

    def key(self) -> str:
        return self.name

    def move_label(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        return text

    def text(self) -> str:
        return self.name


class HandEvaluator:
    """The static values a ``HandGame`` lists."""

    name = "hand"
    lo = 1.0
    hi = 100.0

    def __call__(self, state: State) -> float:
        assert isinstance(state, HandState)
        return state.game.values[state.name]


def hand_searcher(children: dict[str, list[str]], values: dict[str, float], **params: object) -> Rivest:
    game = HandGame(children, values)
    return Rivest(game.start(), evaluator=HandEvaluator(), **params)  # type: ignore[arg-type]


def node_named(searcher: Rivest, name: str) -> RivestNode:
    for node in searcher.walk():
        state = searcher.state_at(node)
        assert isinstance(state, HandState)
        if state.name == name:
            return node
    raise KeyError(name)


# --- generalized means (Rivest's Table 1) ---------------------------------------------

TABLE_1 = {
    -32: 10.4,
    -16: 10.9,
    -8: 11.9,
    -4: 13.9,
    -2: 16.6,
    -1: 18.7,
    0: 21.0,
    1: 23.0,
    2: 24.5,
    4: 26.5,
    8: 28.3,
    16: 29.7,
    32: 30.7,
}


@pytest.mark.parametrize(("p", "expected"), sorted(TABLE_1.items()))
def test_table_1(p: int, expected: float) -> None:
    assert generalized_mean([10, 21, 29, 32], p) == pytest.approx(expected, abs=0.05)


def test_mean_prefers_the_larger_minimum() -> None:
    assert generalized_mean([35, 40], 10) == pytest.approx(38.20, abs=0.005)
    assert generalized_mean([30, 40], 10) == pytest.approx(37.53, abs=0.005)


def test_means_of_huge_exponents_neither_overflow_nor_lose_the_extremes() -> None:
    assert generalized_mean([1.0, 1023.0], 500.0) == pytest.approx(1023.0 * 0.5 ** (1 / 500))
    assert generalized_mean([1.0, 1023.0], -500.0) == pytest.approx(0.5 ** (-1 / 500))


@pytest.mark.parametrize("p", [-10.0, -1.0, 0.0, 2.0, 10.0])
def test_derivative_matches_a_difference_quotient(p: float) -> None:
    values = [10.0, 21.0, 29.0, 32.0]
    step = 1e-4
    for index in range(len(values)):
        up, down = list(values), list(values)
        up[index] += step
        down[index] -= step
        quotient = (generalized_mean(up, p) - generalized_mean(down, p)) / (2 * step)
        assert derivative(values, p, index) == pytest.approx(quotient, rel=1e-6, abs=1e-9)


# --- the worked example (Rivest's Figs 4-6: p = 10, generalized values) ---------------

EXAMPLE_CHILDREN = {
    "s": ["t", "u"],
    "u": ["w", "x"],
    "w": ["y", "z"],
    "t": ["t1"],
    "x": ["x1"],
    "y": ["y1"],
    "z": ["z1"],
}
"""s (MAX) -> t, u;  u (MIN) -> w, x;  w (MAX) -> y, z.  t, x, y, z can be expanded further."""
EXAMPLE_VALUES = {
    "s": 5.0,
    "t": 2.0,
    "u": 10.0,
    "w": 10.0,
    "x": 12.0,
    "y": 11.0,
    "z": 11.0,
    "t1": 1.0,
    "x1": 1.0,
    "y1": 1.0,
    "z1": 1.0,
}


def test_worked_example() -> None:
    searcher = hand_searcher(EXAMPLE_CHILDREN, EXAMPLE_VALUES, mode="mean", p=10.0)
    first = searcher.step()
    assert first is not None and [c.move for c in first.added] == ["t", "u"]
    second = searcher.step()  # u's edge is far cheaper than t's: u is expanded next
    assert second is not None and second.node.move == "u"
    # Fig. 4: the tree s -> t, u -> w, x.
    node = {name: node_named(searcher, name) for name in ("s", "t", "u", "w", "x")}
    assert node["u"].v == pytest.approx(10.56, abs=0.005)
    assert node["s"].v == pytest.approx(9.85, abs=0.005)
    assert penalty_from_root(searcher, node["t"]) == pytest.approx(15.04, abs=0.03)
    assert penalty_from_root(searcher, node["w"]) == pytest.approx(0.165, abs=0.03)
    assert penalty_from_root(searcher, node["x"]) == pytest.approx(2.17, abs=0.03)
    assert searcher.root.pi == pytest.approx(penalty_from_root(searcher, node["w"]))
    third = searcher.step()
    assert third is not None and third.node is node["w"]
    assert [n.move for n in third.path] == [None, "u", "w"]
    # Fig. 6: w (MAX) now has children y = 11 and z = 11.
    y, z = node_named(searcher, "y"), node_named(searcher, "z")
    assert node["w"].v == pytest.approx(11.0)
    assert node["u"].v == pytest.approx(11.38, abs=0.005)
    assert node["s"].v == pytest.approx(10.62, abs=0.005)
    assert penalty_from_root(searcher, y) == pytest.approx(1.078, abs=0.03)
    assert penalty_from_root(searcher, z) == pytest.approx(1.078, abs=0.03)
    assert penalty_from_root(searcher, node["x"]) == pytest.approx(1.342, abs=0.03)
    fourth = searcher.step()
    assert fourth is not None and fourth.node is y


def test_worked_example_weights_are_minus_log_of_the_exact_derivative() -> None:
    searcher = hand_searcher(EXAMPLE_CHILDREN, EXAMPLE_VALUES, mode="mean", p=10.0)
    searcher.run(Limit(iterations=3))
    for father in searcher.walk():
        values = [c.v for c in father.children if isinstance(c, RivestNode)]
        q = 10.0 * father.player
        for index, child in enumerate(father.children):
            assert isinstance(child, RivestNode)
            assert searcher.weight_of(child) == pytest.approx(-math.log(derivative(values, q, index)))


def test_reverse_mode_weights() -> None:
    """w(c) = weight + |ln v(c) - ln v(best sibling)|; the best child's edge costs exactly the weight."""
    searcher = hand_searcher(EXAMPLE_CHILDREN, EXAMPLE_VALUES, mode="reverse", weight=0.25)
    searcher.run(Limit(iterations=2))
    s, t, u, w, x = (node_named(searcher, name) for name in "stuwx")
    assert (u.v, s.v) == (10.0, 10.0)
    assert searcher.weight_of(u) == 0.25 and searcher.weight_of(w) == 0.25
    assert searcher.weight_of(t) == pytest.approx(0.25 + math.log(10 / 2))
    assert searcher.weight_of(x) == pytest.approx(0.25 + math.log(12 / 10))
    assert searcher.root.pi == pytest.approx(0.5)


def test_reverse_derivative_weights() -> None:
    """ln n + (p - 1)|ln v(c) - ln v(father)| at MAX nodes, (p + 1)|...| at MIN nodes."""
    searcher = hand_searcher(EXAMPLE_CHILDREN, EXAMPLE_VALUES, mode="reverse-derivative", p=4.0)
    searcher.run(Limit(iterations=2))
    t, u, w, x = (node_named(searcher, name) for name in "tuwx")
    assert searcher.weight_of(u) == pytest.approx(math.log(2)) and searcher.weight_of(w) == pytest.approx(math.log(2))
    assert searcher.weight_of(t) == pytest.approx(math.log(2) + 3 * math.log(10 / 2))
    assert searcher.weight_of(x) == pytest.approx(math.log(2) + 5 * math.log(12 / 10))


def test_final_by_value_or_by_mean() -> None:
    """A (MIN) -> 20, 20 and B (MIN) -> 19, 1000: A has the better minimum, B the better M_-10."""
    children = {"s": ["A", "B"], "A": ["a1", "a2"], "B": ["b1", "b2"]}
    values = {"s": 50.0, "A": 20.0, "B": 20.0, "a1": 20.0, "a2": 20.0, "b1": 19.0, "b2": 1000.0}
    by_value = hand_searcher(children, values)
    by_mean = hand_searcher(children, values, final="mean")
    assert by_value.run(Limit()).finished and by_mean.run(Limit()).finished
    assert by_value.best_move() == "A" and by_value.value().first() == 20.0
    assert by_mean.best_move() == "B" and by_mean.value().first() == 20.0
    assert by_mean.principal_variation() == ["B", "b1"]


def test_equal_root_values_are_broken_by_static_value_not_by_column() -> None:
    """A (MIN) and B (MIN) both back up 20; B's own static value is the better one for MAX."""
    children = {"s": ["A", "B"], "A": ["a1"], "B": ["b1"]}
    values = {"s": 50.0, "A": 10.0, "B": 30.0, "a1": 20.0, "b1": 20.0}
    searcher = hand_searcher(children, values)
    assert searcher.run(Limit()).finished
    assert [node_named(searcher, name).v for name in "AB"] == [20.0, 20.0]
    assert searcher.best_move() == "B"
    assert searcher.principal_variation() == ["B", "b1"]


@pytest.mark.parametrize(
    ("text", "right", "value"),
    [
        ("2333222343322444446666655", {"5"}, 1.026),  # won for Red by column 1 too, later: 5 wins at once (ply 26)
        ("2332332242377237776161666", {"6", "7"}, 1022.969),  # lost for Red: 6 and 7 lose latest (ply 31), 1 at once
    ],
)
def test_a_decided_root_plays_the_quickest_win_or_the_slowest_loss(text: str, right: set[str], value: float) -> None:
    """Positions from Table 2 games where MM, every root child equal (1 or 1023 before a finished game's value
    carried its ply), played column 1; the solver's best moves."""
    state = Connect4().parse(text)
    searcher = AgentSpec.parse("rivest:mode=reverse,accounting=true,eval=rivest").make(state)
    result = searcher.run(Limit(moves=1000))
    assert searcher.value().first() == value
    assert result.best_move is not None and state.move_label(result.best_move) in right


# --- Rivest's evaluator against a plain per-segment count ----------------------------


def segments(width: int, height: int) -> list[list[tuple[int, int]]]:
    """Every line of four cells on the board, as (column, row) pairs."""
    lines = []
    for column in range(width):
        for row in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(column + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < width and 0 <= r < height for c, r in cells):
                    lines.append(cells)
    return lines


SEGMENT_SCORES = {1: 1, 2: 10, 3: 50}


def reference_rivest_value(state: Connect4State, lines: list[list[tuple[int, int]]]) -> float:
    """Rivest's evaluator segment by segment, from the board's picture (``X`` = Black, the first player)."""
    if state.is_terminal():  # Rivest's 1023 and 1, less or plus a thousandth a ply
        return {1: 1023.0 - state.ply / 1000, 0: 512.0, -1: 1.0 + state.ply / 1000}[state.utility()]
    rows = list(reversed(state.rows()))
    total = 512 + 16 * state.player
    for cells in lines:
        marks = [rows[r][c] for c, r in cells]
        black, red = marks.count("X"), marks.count("O")
        if black and not red:
            total += SEGMENT_SCORES[black]
        elif red and not black:
            total -= SEGMENT_SCORES[red]
    return float(min(1022, max(2, total)))


def test_rivest_evaluator_known_values() -> None:
    game = Connect4()
    evaluator = RivestEvaluator(game)
    assert evaluator(game.start()) == 528.0
    assert evaluator(game.parse("4")) == 503.0
    assert evaluator(game.parse("4142434")) == 1022.993  # won at ply 7
    assert evaluator(game.parse("14152627")) == 1.008  # lost at ply 8


def test_segment_count() -> None:
    assert len(segments(7, 6)) == 69


@pytest.mark.parametrize(("width", "height", "games"), [(7, 6, 400), (4, 4, 40), (6, 5, 40), (8, 7, 20), (10, 10, 10)])
def test_rivest_evaluator_matches_segment_counts(width: int, height: int, games: int) -> None:
    """Every position of ``games`` random games, each cut off at a random length."""
    game = Connect4(width, height)
    evaluator = RivestEvaluator(game)
    lines = segments(width, height)
    rng = random.Random(width * 100 + height)
    checked = 0
    for _ in range(games):
        state = game.start()
        for _ in range(rng.randrange(game.cells + 1)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
            assert evaluator(state) == reference_rivest_value(state, lines)
            checked += 1
    assert checked > 5 * games


# --- searches -------------------------------------------------------------------------

MODES = [{"mode": "reverse"}, {"mode": "mean"}, {"mode": "reverse-derivative"}, {"mode": "reverse", "accounting": True}]


@pytest.mark.parametrize("params", MODES)
@pytest.mark.parametrize(
    ("text", "won", "value"), [("7", False, 1.004), ("8", True, 1022.995), ("10", False, 1.006), ("12", True, 1022.993)]
)
def test_grundy(params: dict[str, object], text: str, won: bool, value: float) -> None:
    """Grundy's game: 7 and 10 are lost for the player to move (at ply 4 and 6 at the latest); 8 is won by 8=7+1
    (at ply 5), 12 by 12=10+2 (at ply 7)."""
    state = Nim("grundy").parse(text)
    searcher = Rivest(state, **params)  # type: ignore[arg-type]
    result = searcher.run(Limit(moves=20_000))
    assert result.finished
    if params["mode"] != "mean":
        assert result.value.first() == value
    if won:
        assert state.move_label(result.best_move) == {"8": "8=7+1", "12": "12=10+2"}[text]


@pytest.mark.parametrize("params", MODES)
def test_classic_nim_follows_the_xor_rule(params: dict[str, object]) -> None:
    """(2, 3, 4) has XOR 5: the only winning move takes 3 from the 4, leaving XOR 0; (1, 2, 3) is lost.

    Both trees are searched to the end (the search stops only when no tip is left to expand).
    """
    game = Nim("classic")
    won = Rivest(game.parse("2,3,4"), **params)  # type: ignore[arg-type]
    result = won.run(Limit())
    assert result.finished and result.best_move == (4, 3)
    lost = Rivest(game.parse("1,2,3"), **params)  # type: ignore[arg-type]
    assert lost.run(Limit()).finished
    if params["mode"] != "mean":  # won at ply 7 at the soonest, lost at ply 6 at the latest
        assert won.value().first() == 1022.993 and lost.value().first() == 1.006


WIN_IN_ONE = "112233"
"""Black (X) to move wins at once in column 4::

    .......
    .......
    .......
    .......
    OOO....
    XXX....
"""

BLOCK = "11223"
"""Red (O) to move must block Black's three in column 4::

    .......
    .......
    .......
    .......
    OO.....
    XXX....
"""

WIN_IN_THREE = "4433"
"""Black (X) to move wins in three plies with column 2 or 5: an open three on the bottom row::

    .......
    .......
    .......
    .......
    ..OO...
    ..XX...
"""


@pytest.mark.parametrize("params", MODES)
@pytest.mark.parametrize(
    ("text", "moves", "right"), [(WIN_IN_ONE, 100, {"4"}), (BLOCK, 500, {"4"}), (WIN_IN_THREE, 5000, {"2", "5"})]
)
def test_connect_four_tactics(params: dict[str, object], text: str, moves: int, right: set[str]) -> None:
    state = Connect4().parse(text)
    searcher = Rivest(state, **params)  # type: ignore[arg-type]
    result = searcher.run(Limit(moves=moves))
    assert state.move_label(result.best_move) in right
    if text != BLOCK and params["mode"] != "mean":
        assert result.value.first() == 1022.993  # won at ply 7


def tree_snapshot(searcher: Rivest) -> list[tuple[object, ...]]:
    return [
        (tuple(n.moves()), n.v, n.pi, searcher.weight_of(n), None if n.a is None else n.a.move) for n in searcher.walk()
    ]


@pytest.mark.parametrize("params", MODES)
def test_run_builds_the_tree_stepping_builds(params: dict[str, object]) -> None:
    state = Connect4().parse("4453")
    stepped = Rivest(state, **params)  # type: ignore[arg-type]
    while stepped.step(moves_left=3000 - stepped.stats.moves) is not None:
        pass
    run = Rivest(state, **params)  # type: ignore[arg-type]
    run.run(Limit(moves=3000))
    assert tree_snapshot(run) == tree_snapshot(stepped)
    assert (run.stats.moves, run.stats.nodes, run.stats.iterations) == (
        stepped.stats.moves,
        stepped.stats.nodes,
        stepped.stats.iterations,
    )


def recomputed(node: RivestNode, searcher: Rivest) -> tuple[float, float]:
    """``(ln v, pi)`` of ``node`` recomputed from the tips up, checking every stored number on the way."""
    children = [c for c in node.children if isinstance(c, RivestNode)]
    if not children:
        return math.log(node.v), node.pi
    below = [recomputed(c, searcher) for c in children]
    logs = [lnv for lnv, _ in below]
    if searcher.mode == "mean":
        lnv = log_generalized_mean(logs, searcher.p * node.player)
        weights = [math.log(len(logs)) - (searcher.p * node.player - 1) * (x - lnv) for x in logs]
    else:
        lnv = max(logs) if node.player > 0 else min(logs)
        weights = [searcher.weight + abs(x - lnv) for x in logs]
    costs = [pi + w for (_, pi), w in zip(below, weights, strict=True)]
    assert math.log(node.v) == pytest.approx(lnv, abs=1e-9)
    assert [searcher.weight_of(c) for c in children] == pytest.approx(weights, abs=1e-9)
    assert node.pi == pytest.approx(min(costs), abs=1e-9)
    assert node.a is not None and costs[children.index(node.a)] == pytest.approx(min(costs), abs=1e-9)
    return lnv, min(costs)


@pytest.mark.parametrize("mode", ["reverse", "mean"])
@pytest.mark.parametrize("text", ["", "4453", "44444323"])
def test_updating_only_the_path_keeps_every_number_right(mode: str, text: str) -> None:
    searcher = Rivest(Connect4().parse(text), mode=mode)
    for _ in range(60):
        step = searcher.step()
        assert step is not None
        assert step.path[-1] is step.node and step.path[0] is searcher.root
        assert set(step.added) <= set(step.changed) and set(step.path) <= set(step.changed)
        recomputed(searcher.root, searcher)


@pytest.mark.parametrize("accounting", [False, True])
def test_move_budget_is_never_exceeded(accounting: bool) -> None:
    state = Connect4().parse("4453")
    for budget in (0, 6, 7, 8, 50, 333, 1000):
        searcher = Rivest(state, accounting=accounting)
        result = searcher.run(Limit(moves=budget))
        assert result.stats.moves <= budget
        # The next step would have gone over: it is refused and changes nothing.
        nodes = searcher.stats.nodes
        assert searcher.step(moves_left=budget - result.stats.moves) is None
        assert searcher.stats.nodes == nodes


def test_accounting_pays_for_every_edge_walked() -> None:
    searcher = Rivest(Connect4().parse("4453"), accounting=True)
    for _ in range(40):
        before = searcher.stats.moves
        step = searcher.step()
        assert step is not None
        assert searcher.stats.moves - before == len(step.added) + step.node.depth
    assert searcher.stats.moves > searcher.stats.nodes - 1


def test_shifted_evaluator_scale() -> None:
    """The threat evaluator's -1000..1000 is shifted to 1..2001 inside, and back in ``value()``."""
    searcher = Rivest(Connect4().parse("4453"), evaluator="threats")
    searcher.run(Limit(moves=500))
    assert searcher.shift == 1001.0
    assert all(n.v >= 1.0 for n in searcher.walk())
    assert searcher.value().first() == searcher.root.v - 1001.0


def test_registry_builds_rivests_setup() -> None:
    spec = AgentSpec.parse("rivest:mode=reverse,accounting=true,eval=rivest")
    searcher = spec.make(Connect4().start())
    assert isinstance(searcher, Rivest)
    assert (searcher.mode, searcher.accounting, searcher.weight, searcher.p) == ("reverse", True, 0.05, 10.0)
    assert searcher.numbers(searcher.root) == {"v": 528.0, "pi": 0.0, "w": 0.0}
    with pytest.raises(SearchError, match="mode"):
        make_searcher("rivest", Connect4().start(), {"mode": "median"})

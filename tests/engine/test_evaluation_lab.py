"""The evaluation lab: the feature evaluator and its weights, monotonic transforms, and what they leave unchanged.

The invariance half of the textbook account (Russell and Norvig 2010, Artificial Intelligence: A Modern
Approach, 3rd ed., ch. 5): minimax and alpha-beta (and best-first minimax, which only
compares values) choose the same move under any strictly increasing transform of the
evaluation, and back up exactly the transformed values.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyscope.engine.errors import UserError
from plyscope.engine.games import Connect4, Connect4State, State
from plyscope.engine.games.evaluators import (
    FEATURE_NAMES,
    FEATURES,
    HAND_SET_WEIGHTS,
    TRANSFORMS,
    Evaluator,
    EvaluatorError,
    FeatureEvaluator,
    feature_terms,
    parse_transform,
    parse_weights,
    read_weights_file,
    write_weights_file,
)
from plyscope.engine.kits import make_game
from plyscope.engine.kits.evaluation import make_evaluator
from plyscope.engine.search import Limit, SearchError
from plyscope.engine.search.alphabeta.searcher import AlphaBeta
from plyscope.engine.search.bestfirst.bestfirst import BestFirst
from plyscope.engine.search.minimax import Minimax, MinimaxNode
from plyscope.engine.search.registry import AgentSpec, make_searcher
from tests.engine.test_connect4 import random_game

C4 = Connect4()


# --- the features ------------------------------------------------------------------------------


def lines_of_four(game: Connect4) -> list[list[tuple[int, int]]]:
    """Every line of four cells on the board, as (column, row) pairs."""
    lines = []
    for column in range(game.width):
        for row in range(game.height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(column + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < game.width and 0 <= r < game.height for c, r in cells):
                    lines.append(cells)
    return lines


def owner_at(state: Connect4State, column: int, row: int) -> int:
    """Whose stone is at ``column``, ``row`` of ``state``: 1 the first player's, -1 the second's, 0 none."""
    bit = state.game.cell(column, row)
    return 1 if state.stones(1) & bit else -1 if state.stones(-1) & bit else 0


def completes_four(state: Connect4State, column: int, row: int, mover: int) -> bool:
    """Whether a stone of ``mover`` at ``column``, ``row`` (empty) would complete a line of four in ``state``."""
    return any(
        all(owner_at(state, c, r) == mover for c, r in line if (c, r) != (column, row))
        for line in lines_of_four(state.game)
        if (column, row) in line
    )


def naive_features(state: Connect4State) -> tuple[int, ...]:
    """The features counted cell by cell from their definitions in ``FEATURES``."""
    game = state.game
    counts = {1: [0, 0, 0, 0, 0, 0], -1: [0, 0, 0, 0, 0, 0]}  # twos, threes, centre, parity, other, playable
    for line in lines_of_four(game):
        owners = [owner_at(state, c, r) for c, r in line]
        for player in (1, -1):
            if -player not in owners and owners.count(player) in (2, 3):
                counts[player][owners.count(player) - 2] += 1
    centre = {game.width // 2} | ({game.width // 2 - 1} if game.width % 2 == 0 else set())
    heights = [sum(1 for r in range(game.height) if owner_at(state, c, r)) for c in range(game.width)]
    for column in range(game.width):
        for row in range(game.height):
            player = owner_at(state, column, row)
            if player and column in centre:
                counts[player][2] += 1
            if player:
                continue
            for mover in (1, -1):
                if completes_four(state, column, row, mover):
                    odd_row = row % 2 == 0  # rows counted from 1 at the bottom
                    counts[mover][3 if odd_row == (mover == 1) else 4] += 1
                    counts[mover][5] += heights[column] == row
    differences = tuple(counts[1][i] - counts[-1][i] for i in range(6))
    mover = state.player
    wins_next = any(heights[c] < game.height and completes_four(state, c, heights[c], mover) for c in range(game.width))
    return (*differences, mover if wins_next else 0, mover)


@pytest.mark.parametrize("size", [(7, 6), (4, 4), (6, 5)])
def test_features_match_their_definitions(size: tuple[int, int]) -> None:
    game = Connect4(*size)
    evaluator = FeatureEvaluator(game)
    rng = random.Random(sum(size))
    checked = 0
    while checked < 150:
        state = random_game(rng, game, rng.randrange(game.cells))
        if state.is_terminal():
            continue
        assert evaluator.features(state) == naive_features(state), state.text()
        checked += 1


def test_features_are_mirror_symmetric_and_the_value_is_the_weighted_sum() -> None:
    evaluator = FeatureEvaluator(C4)
    rng = random.Random(8)
    for _ in range(300):
        state = random_game(rng, C4, rng.randrange(36))
        if state.is_terminal():
            continue
        mirrored = C4.parse("".join(str(8 - int(c)) for c in state.text()))
        assert evaluator.features(mirrored) == evaluator.features(state)
        weighted = sum(w * f for w, f in zip(HAND_SET_WEIGHTS, evaluator.features(state), strict=True))
        assert evaluator(state) == max(-800.0, min(800.0, weighted))


def test_feature_values_on_known_positions() -> None:
    terms = {term.name: term.value for term in feature_terms(C4.parse("445"))}
    assert terms == {
        "twos": 3,
        "threes": 0,
        "centre": 0,
        "parity_threats": 0,
        "other_threats": 0,
        "playable_threats": 0,
        "win_next": 0,
        "tempo": -1,
    }
    threat = {term.name: term.value for term in feature_terms(C4.parse("112233"))}
    # Both sides have three in a row, each threatening column 4 on a row of its own parity (the first
    # player's on row 1, the second's on row 2); only the first player's can be played, and it is their turn.
    assert (threat["win_next"], threat["playable_threats"], threat["threes"], threat["parity_threats"]) == (1, 1, 0, 0)
    evaluator = FeatureEvaluator(C4)
    assert evaluator(C4.parse("1212121")) == 1000 - 7 and evaluator(C4.parse("71122334")) == -(1000 - 8)


def test_feature_terms_explain_the_evaluation() -> None:
    state = C4.parse("4453")
    terms = feature_terms(state, "threes:20,tempo:0")
    assert [t.name for t in terms] == list(FEATURE_NAMES)
    assert all(t.contribution == t.value * t.weight for t in terms)
    weights = {t.name: t.weight for t in terms}
    assert weights["threes"] == 20 and weights["tempo"] == 0 and weights["twos"] == 4
    evaluator = make_evaluator("features", C4, weights="threes:20,tempo:0")
    assert evaluator(state) == sum(t.contribution for t in terms)
    chance = make_game("connect4-chance")
    assert feature_terms(chance.parse("4454")) == feature_terms(C4.parse("44"))
    assert feature_terms(chance.parse("445")) == feature_terms(C4.parse("4"))  # the board before the disc lands
    assert feature_terms(C4.parse("1212121")) == []
    with pytest.raises(EvaluatorError, match="features are defined for Connect Four boards only, not for grundy"):
        feature_terms(make_game("grundy").start())


# --- weights -----------------------------------------------------------------------------------


def test_weights_text_and_files(tmp_path: Path) -> None:
    assert parse_weights("") == HAND_SET_WEIGHTS
    chosen = parse_weights(" threes : 20 , centre:-1.5e1 ")
    assert dict(zip(FEATURE_NAMES, chosen, strict=True)) | {} == {
        f.name: {"threes": 20.0, "centre": -15.0}.get(f.name, f.weight) for f in FEATURES
    }
    path = tmp_path / "w.json"
    write_weights_file(path, [float(i) for i in range(len(FEATURES))], fit={"positions": 3})
    assert parse_weights(str(path)) == tuple(float(i) for i in range(len(FEATURES)))
    assert json.loads(path.read_text())["fit"] == {"positions": 3}
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({"format": "plyscope-weights", "weights": {"win_next": 900}}))
    assert dict(zip(FEATURE_NAMES, read_weights_file(partial), strict=True))["win_next"] == 900
    assert read_weights_file(partial)[0] == HAND_SET_WEIGHTS[0]
    partial.write_text(json.dumps({"format": "plyscope-weights", "weights": {"win_next": 700}}))  # rewritten
    assert dict(zip(FEATURE_NAMES, read_weights_file(partial), strict=True))["win_next"] == 700


@pytest.mark.parametrize(
    ("text", "contents", "message"),
    [
        ("nosuch:3", None, "weights 'nosuch:3': no feature 'nosuch' (features: twos, threes, centre,"),
        ("threes:x", None, "weights 'threes:x': the weight of threes: 'x' is not a number (from -1,000,000"),
        ("threes:inf", None, "weights 'threes:inf': the weight of threes: 'inf' is not a number"),
        ("missing.json", None, "weights 'missing.json': no such file (weights are a file or NAME:VALUE pairs"),
        ("w.json", "{not json", "not JSON (line 1: unexpected character, expected a string key)"),
        ("w.json", '{"weights": {}}', 'not a weights file (no "format": "plyscope-weights")'),
        ("w.json", '{"format": "plyscope-weights", "weights": [1, 2]}', '"weights" must map feature names to'),
        ("w.json", '{"format": "plyscope-weights", "weights": {"twos": "many"}}', "twos: 'many' is not a number"),
        ("w.json", '{"format": "plyscope-weights", "weights": {"twos": true}}', "twos: True is not a number"),
    ],
)
def test_bad_weights_are_refused_in_one_line(
    text: str, contents: str | None, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    if contents is not None:
        (tmp_path / text).write_text(contents)
    with pytest.raises(EvaluatorError) as raised:
        parse_weights(text)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_weights_go_with_the_feature_evaluator_only() -> None:
    with pytest.raises(SearchError, match=r"^minimax: weights are for eval=features, not eval=rivest$"):
        make_searcher("minimax", C4.start(), {"eval": "rivest", "weights": "threes:2"})
    with pytest.raises(SearchError, match=r"^minimax: weights 'threes:x'"):
        make_searcher("minimax", C4.start(), {"eval": "features", "weights": "threes:x"})
    with pytest.raises(SearchError, match="evaluator 'features' does not fit grundy"):
        make_searcher("minimax", make_game("grundy").start(), {"eval": "features"})


# --- transforms --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["identity", "cube", "exp", "log", "affine:2.5,-7"])
@pytest.mark.parametrize("evaluator", ["rivest", "threats", "features"])
def test_transforms_are_strictly_increasing_and_keep_the_ends(name: str, evaluator: str) -> None:
    plain = make_evaluator(evaluator, C4)
    transformed = make_evaluator(evaluator, C4, transform=name)
    transform = parse_transform(name)
    xs = [plain.lo + (plain.hi - plain.lo) * i / 400 for i in range(401)]
    ys = [transform(x, plain.lo, plain.hi) for x in xs]
    assert all(a < b for a, b in pairwise(ys))
    assert (transformed.lo, transformed.hi) == (ys[0], ys[-1])
    if not name.startswith("affine"):
        assert (transformed.lo, transformed.hi) == (plain.lo, plain.hi)
    else:
        assert (transformed.lo, transformed.hi) == (2.5 * plain.lo - 7, 2.5 * plain.hi - 7)
    state = C4.parse("4453")
    assert transformed(state) == transform(plain(state), plain.lo, plain.hi)
    assert transformed.name == plain.name


def test_named_transforms_are_the_documented_functions() -> None:
    lo, hi = 0.0, 1.0
    assert parse_transform("cube")(0.75, lo, hi) == pytest.approx(0.5 + 0.5 * 0.5**3)
    assert parse_transform("exp")(0.5, lo, hi) == pytest.approx(math.expm1(4) / math.expm1(8))
    assert parse_transform("log")(parse_transform("exp")(0.3, lo, hi), lo, hi) == pytest.approx(0.3)
    assert parse_transform("affine:3,1")(2.0, lo, hi) == 7.0
    assert set(TRANSFORMS) == {"identity", "affine:A,B", "cube", "exp", "log"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("square", "transform 'square' is not one of identity, affine:A,B, cube, exp, log"),
        (
            "affine:0,1",
            "transform 'affine:0,1': A must be above 0 and both finite (a transform must be strictly increasing)",
        ),
        ("affine:-2,1", "transform 'affine:-2,1': A must be above 0"),
        ("affine:1", "transform 'affine:1': write affine:A,B with two numbers, e.g. affine:2,10"),
        ("affine:1,x", "transform 'affine:1,x': write affine:A,B with two numbers"),
        ("affine:1,nan", "transform 'affine:1,nan': write affine:A,B with two numbers, e.g. affine:2,10"),
        ("cube:2", "transform 'cube:2' is not one of"),
    ],
)
def test_bad_transforms_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(UserError) as raised:
        parse_transform(text)
    assert str(raised.value).startswith(message)
    with pytest.raises(SearchError, match=r"^alphabeta: transform"):
        make_searcher("alphabeta", C4.start(), {"transform": text})


def test_an_agent_spec_value_may_hold_commas() -> None:
    spec = AgentSpec.parse("minimax:transform=affine:2,10,depth=3,eval=features,weights=threes:20,twos:1")
    assert spec.params == {"transform": "affine:2,10", "depth": 3, "eval": "features", "weights": "threes:20,twos:1"}
    assert AgentSpec.parse(spec.label()) == spec
    with pytest.raises(SearchError, match="'depth' is not key=value"):
        AgentSpec.parse("minimax:depth")


# --- what a strictly increasing transform leaves unchanged -------------------------------------


class Remapped:
    """An evaluator's values through a strictly increasing piecewise-linear map (any such map will do)."""

    def __init__(self, inner: Evaluator, knots: list[float], slopes: list[float]) -> None:
        self.inner = inner
        self.knots = knots
        self.slopes = slopes
        self.name = inner.name
        self.lo = self.map(inner.lo)
        self.hi = self.map(inner.hi)

    def map(self, x: float) -> float:
        """Slope ``slopes[i]`` (all > 0) between ``knots[i-1]`` and ``knots[i]``; continuous."""
        value = self.slopes[0] * x
        for knot, before, after in zip(self.knots, self.slopes, self.slopes[1:], strict=False):
            if x > knot:
                value += (after - before) * (x - knot)
        return value

    def __call__(self, state: State) -> float:
        return self.map(self.inner(state))


@st.composite
def connect4_positions(draw: st.DrawFn) -> Connect4State:
    state = C4.start()
    for column in draw(st.lists(st.integers(0, 6), max_size=16)):
        if state.can_play(column) and not state.play(column).is_terminal():
            state = state.play(column)
    return state


@st.composite
def increasing_maps(draw: st.DrawFn) -> tuple[list[float], list[float]]:
    knots = sorted(draw(st.lists(st.integers(-900, 900), min_size=0, max_size=6, unique=True)))
    slopes = draw(
        st.lists(
            st.sampled_from([0.125, 0.5, 1.0, 3.0, 17.0, 1024.0]), min_size=len(knots) + 1, max_size=len(knots) + 1
        )
    )
    return [float(k) for k in knots], slopes


SEARCHERS: dict[str, Callable[[State, Evaluator, int], object]] = {
    "minimax": lambda state, ev, depth: Minimax(state, depth=depth, evaluator=ev),
    "alphabeta": lambda state, ev, depth: AlphaBeta(state, depth=depth, evaluator=ev),
    "alphabeta static": lambda state, ev, depth: AlphaBeta(
        state, depth=depth, ordering="static", tt=True, evaluator=ev
    ),
    "alphabeta history": lambda state, ev, depth: AlphaBeta(state, depth=depth, ordering="history", evaluator=ev),
}


@settings(max_examples=40, deadline=None)
@given(
    connect4_positions(),
    st.integers(1, 3),
    increasing_maps(),
    st.sampled_from(["threats", "features", "rivest"]),
    st.sampled_from(sorted(SEARCHERS)),
)
def test_minimax_and_alpha_beta_choose_the_same_under_any_increasing_transform(
    state: Connect4State, depth: int, mapping: tuple[list[float], list[float]], evaluator: str, searcher: str
) -> None:
    plain_evaluator = make_evaluator(evaluator, C4)
    remapped = Remapped(plain_evaluator, *mapping)
    plain = SEARCHERS[searcher](state, plain_evaluator, depth)
    moved = SEARCHERS[searcher](state, remapped, depth)
    assert isinstance(plain, Minimax | AlphaBeta) and isinstance(moved, Minimax | AlphaBeta)
    plain_result = plain.run(Limit())
    moved_result = moved.run(Limit())
    assert moved_result.best_move == plain_result.best_move
    assert moved_result.principal_variation == plain_result.principal_variation
    assert moved_result.value.first() == remapped.map(plain_result.value.first())
    assert moved_result.stats.nodes == plain_result.stats.nodes  # the same tree, visit for visit
    if isinstance(plain, Minimax) and isinstance(moved, Minimax):
        root_values = [c.value for c in plain.root.children if isinstance(c, MinimaxNode) and c.value is not None]
        moved_values = [c.value for c in moved.root.children if isinstance(c, MinimaxNode)]
        assert moved_values == [remapped.map(v) for v in root_values]


@settings(max_examples=25, deadline=None)
@given(
    connect4_positions(),
    st.sampled_from(["identity", "cube", "exp", "log", "affine:3,-40"]),
    st.sampled_from(["threats", "features"]),
)
def test_named_transforms_leave_the_choice_of_minimax_alpha_beta_and_best_first_unchanged(
    state: Connect4State, transform: str, evaluator: str
) -> None:
    """Best-first minimax only compares values (the principal leaf, the max or min child), so it grows the
    same tree too; Rivest's method and expectiminimax read the values' sizes and may not (GUIDE.md, the
    evaluation lab's exercises 2 and 3)."""
    for name, params in (("minimax", {"depth": 2}), ("alphabeta", {"depth": 3}), ("bestfirst", {})):
        plain = make_searcher(name, state, {**params, "eval": evaluator}).run(Limit(moves=600))
        moved = make_searcher(name, state, {**params, "eval": evaluator, "transform": transform}).run(Limit(moves=600))
        assert (moved.best_move, moved.principal_variation) == (plain.best_move, plain.principal_variation), name


def test_bestfirst_backs_up_the_transformed_values() -> None:
    state = C4.parse("4453")
    plain = BestFirst(state, evaluator=make_evaluator("threats", C4))
    cubed = BestFirst(state, evaluator=make_evaluator("threats", C4, transform="cube"))
    plain.run(Limit(moves=2000))
    cubed.run(Limit(moves=2000))
    cube = parse_transform("cube")
    assert [n.moves() for n in cubed.walk()] == [n.moves() for n in plain.walk()]
    assert [c.v for c in cubed.walk()] == [pytest.approx(cube(p.v, -1000, 1000)) for p in plain.walk()]


def test_the_piecewise_linear_map_is_what_it_says() -> None:
    remapped = Remapped(make_evaluator("threats", C4), [0.0, 10.0], [1.0, 2.0, 0.5])
    assert [remapped.map(x) for x in (-4, 0, 5, 10, 14)] == [-4, 0, 10, 20, 22]
    assert (remapped.lo, remapped.hi) == (-1000, 20 + 0.5 * 990)

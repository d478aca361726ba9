"""Tuning the feature weights: the logistic fit recovers known weights; positions and labels are reproducible."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from plyscope.engine.errors import UserError
from plyscope.engine.games import Connect4
from plyscope.engine.games.evaluators import (
    FEATURE_NAMES,
    FEATURE_SCALE,
    HAND_SET_WEIGHTS,
    FeatureEvaluator,
    parse_weights,
    write_weights_file,
)
from plyscope.engine.solver import Connect4Solver
from plyscope.engine.tuning import fit_logistic, parse_plies, quality, sample_positions, solved_result, tune
from tests.engine.test_connect4 import random_game
from tests.pons import pons_positions

SMALL = Connect4(5, 4)
TRUE_BETA = np.array([0.3, -0.2, 0.1, 0.5, 0.05, 0.2, 2.0, 0.1])


def synthetic_features(rows: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(-3, 4, size=(rows, len(FEATURE_NAMES))).astype(float)


def sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-z)), dtype=np.float64)


def test_the_fit_recovers_known_weights_from_expected_scores() -> None:
    """Labels that are the model's own expected scores: the unpenalised fit is exact."""
    x = synthetic_features(4000, 1)
    fit = fit_logistic(x, sigmoid(x @ TRUE_BETA), l2=0.0)
    assert fit.converged
    assert np.asarray(fit.beta) == pytest.approx(TRUE_BETA, abs=1e-8)
    assert np.asarray(fit.weights) == pytest.approx(FEATURE_SCALE * TRUE_BETA, abs=1e-6)


def test_the_fit_recovers_known_weights_from_sampled_results() -> None:
    """Wins, draws and losses drawn from the model: the fit is close, and closer with more data."""
    errors = []
    for rows in (5_000, 80_000):
        x = synthetic_features(rows, 2)
        rng = np.random.default_rng(3)
        p = sigmoid(x @ TRUE_BETA)
        decisive = (rng.random(rows) < p).astype(float)
        # One result in ten is given as its expected score rather than drawn: still an unbiased label.
        results = np.where(rng.random(rows) < 0.1, p, decisive)
        fit = fit_logistic(x, results, l2=0.0)
        errors.append(float(np.max(np.abs(np.asarray(fit.beta) - TRUE_BETA))))
    assert errors[0] < 0.15 and errors[1] < 0.04 and errors[1] < errors[0]


def test_the_ridge_penalty_shrinks_the_weights() -> None:
    x = synthetic_features(2000, 4)
    results = sigmoid(x @ TRUE_BETA)
    free = np.asarray(fit_logistic(x, results, l2=0.0).beta)
    ridged = np.asarray(fit_logistic(x, results, l2=0.1).beta)
    assert np.linalg.norm(ridged) < np.linalg.norm(free)


def test_separable_data_still_gives_finite_weights() -> None:
    x = synthetic_features(500, 5)
    results = (x @ TRUE_BETA > 0).astype(float)
    fit = fit_logistic(x, results)
    assert fit.converged and all(np.isfinite(fit.beta))


def test_quality_of_the_true_weights_beats_the_hand_set_ones_on_their_own_data() -> None:
    x = synthetic_features(3000, 6)
    results = sigmoid(x @ TRUE_BETA)
    true = quality(x, results, FEATURE_SCALE * TRUE_BETA)
    hand = quality(x, results, HAND_SET_WEIGHTS)
    assert true.cross_entropy < hand.cross_entropy and true.squared_error < hand.squared_error
    assert 0 <= hand.accuracy <= 1


@pytest.mark.parametrize(("source", "labels"), [("random", "solver"), ("selfplay", "solver"), ("selfplay", "games")])
def test_positions_are_reproducible_open_and_labelled(source: str, labels: str) -> None:
    first = sample_positions(SMALL, 40, (4, 10), 9, source=source, labels=labels).positions
    again = sample_positions(SMALL, 40, (4, 10), 9, source=source, labels=labels).positions
    other = sample_positions(SMALL, 40, (4, 10), 10, source=source, labels=labels).positions
    assert [(p.state.text(), p.result) for p in first] == [(p.state.text(), p.result) for p in again]
    assert [p.state.text() for p in first] != [p.state.text() for p in other]
    assert all(not p.state.is_terminal() and 4 <= p.state.ply <= 10 for p in first)
    assert {p.result for p in first} <= {0.0, 0.5, 1.0}
    if labels == "solver":
        solver = Connect4Solver(SMALL)
        for position in first[:10]:
            score = solver.solve(position.state).first()
            winner = (score > 0) - (score < 0)
            assert position.result == (winner + 1) / 2


def test_solved_results_are_for_the_first_player() -> None:
    game = Connect4()
    solver = Connect4Solver(game)
    assert solved_result(solver, game.parse("112233")) == 1.0  # the first player to move wins at once
    assert solved_result(solver, game.parse("7112233")) == 0.0  # the second player to move wins at once
    assert solved_result(solver, game.parse("2252576253462244111563365343671351441")) == 1.0  # Pons' -1 for O


def test_a_solver_label_agrees_with_the_exact_score_and_gives_up_past_its_budget() -> None:
    game = Connect4()
    solver = Connect4Solver(game)
    for moves, _ in pons_positions("Test_L2_R1", 30):
        state = game.parse(moves)
        first = solver.solve(state).first()
        assert solved_result(solver, state) == (1.0 if first > 0 else 0.5 if first == 0 else 0.0), moves
    assert solved_result(Connect4Solver(game), game.parse("4453"), 1_000) is None


def test_positions_too_early_for_the_solver_are_skipped_then_refused() -> None:
    sample = sample_positions(SMALL, 20, (4, 10), 9, nodes=2_000)
    assert len(sample.positions) == 20 and sample.skipped > 0
    with pytest.raises(UserError, match=r"^--plies 0-2: \d+ of the \d+ positions drawn took the solver more than 50 "):
        sample_positions(Connect4(), 5, (0, 2), 0, nodes=50)


def test_tune_end_to_end_writes_weights_the_evaluator_reads(tmp_path: Path) -> None:
    positions = sample_positions(SMALL, 150, (4, 12), 1).positions
    report = tune(positions, SMALL)
    assert report.positions == 150 == report.wins + report.draws + report.losses
    assert report.fit.converged and report.tuned.cross_entropy <= report.hand_set.cross_entropy
    path = tmp_path / "w.json"
    write_weights_file(path, report.fit.weights, fit=report.as_dict())
    assert parse_weights(str(path)) == pytest.approx(report.fit.weights)
    evaluator = FeatureEvaluator(SMALL, parse_weights(str(path)))
    state = random_game(random.Random(1), SMALL, 6)
    assert isinstance(evaluator(state), float)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12-x", "--plies '12-x': write a range of plies such as 12-34"),
        ("20-10", "--plies '20-10': plies go from 0 to 41"),
        ("0-42", "--plies '0-42': plies go from 0 to 41"),
    ],
)
def test_bad_ply_ranges_are_refused(text: str, message: str) -> None:
    with pytest.raises(UserError) as raised:
        parse_plies(text, Connect4())
    assert str(raised.value).startswith(message)
    assert parse_plies("12-34", Connect4()) == (12, 34) and parse_plies("7", Connect4()) == (7, 7)


def test_labels_from_games_need_self_play() -> None:
    with pytest.raises(UserError, match="labels from games need positions from self-play"):
        sample_positions(SMALL, 5, (4, 8), 0, source="random", labels="games")

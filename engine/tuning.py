"""Fitting the weights of ``eval=features`` to positions labelled with their game result (``plyscope tune``).

Texel's method as a logistic regression: each labelled position ``s`` has the feature vector
``f(s)`` (``FeatureEvaluator.features``) and a result ``y`` for the first player (win 1, draw
1/2, loss 0).  The model says ``P(y) = sigmoid(beta . f(s))``; ``beta`` minimises the mean
cross-entropy plus ``l2 / 2 |beta|^2`` (Newton's method, numpy), and the weights written are
``FEATURE_SCALE * beta``, so that the evaluation divided by 100 is the fitted logit of the
first player's expected score.

**Positions.**  ``random``: games of uniformly random moves from the start, each cut at a ply
drawn uniformly from a range; ``selfplay``: games of the hand-set evaluator (1-ply greedy, a
random move instead with probability ``SELFPLAY_RANDOM``), cut the same way.  Positions whose
game is over are drawn again.  Everything is drawn from one seeded numpy generator, so the
same seed gives the same positions.

**Labels.**  ``solver``: the exact result with perfect play from the position (Pons' solver,
``plyscope.engine.solver``: a weak solve, two null-window probes at most, at 0 and -1); ``games``
(self-play only): the result of the self-play game the position was cut from, the classic
Texel label.  A position the solver cannot settle within ``label_nodes(game)`` nodes (early
positions can take it minutes) is skipped and another drawn; more skipped than kept means
the plies are too early, and the sample is refused with a message saying so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from plyscope.engine.errors import UserError
from plyscope.engine.games import Connect4, Connect4State
from plyscope.engine.games.evaluators import FEATURE_NAMES, FEATURE_SCALE, HAND_SET_WEIGHTS, FeatureEvaluator
from plyscope.engine.numbers import NumberError, OutOfRange, parse_int, shown
from plyscope.engine.pov import PovScore
from plyscope.engine.solver import Connect4Solver, ScoreSearch, native_fits

SOURCES = ("random", "selfplay")
LABELS = ("solver", "games")
SELFPLAY_RANDOM = 0.2
LABEL_NODES = 10_000_000
"""Solver nodes a label may take with the compiled kernel (some 1.5 s); positions that need more are skipped."""
LABEL_PYTHON_NODES = 300_000
"""The same for boards the compiled kernel does not fit, searched in pure Python (some 1 s)."""
MIN_REFUSAL_DRAWS = 10
"""Skipped positions before a sample can be refused as too early (see ``sample_positions``)."""
"""Probability that a self-play move is uniformly random rather than the evaluator's choice."""
DEFAULT_L2 = 1e-4
"""The ridge penalty: keeps the weights finite where the data separate (e.g. ``win_next`` decides most games)."""

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class LabelledPosition:
    """A position and its result for the first player: 1 win, 0.5 draw, 0 loss."""

    state: Connect4State
    result: float


def parse_plies(text: str, game: Connect4) -> tuple[int, int]:
    """``A-B`` (or one number) as the range of plies positions are cut at; raises ``UserError``."""
    low, dash, high = text.strip().partition("-")
    plies_go = f"--plies '{shown(text)}': plies go from 0 to {game.cells - 1}, the first no more than the last"
    try:
        first = parse_int(low, "--plies", lo=0, hi=game.cells)
        last = parse_int(high, "--plies", lo=0, hi=game.cells) if dash else first
    except OutOfRange:
        raise UserError(plies_go) from None
    except NumberError:
        raise UserError(f"--plies '{shown(text)}': write a range of plies such as 12-34") from None
    if not 0 <= first <= last < game.cells:
        raise UserError(plies_go)
    return first, last


@dataclass(frozen=True, slots=True)
class Sample:
    """Labelled positions, and how many were skipped for taking the solver too long."""

    positions: list[LabelledPosition]
    skipped: int


def label_nodes(game: Connect4) -> int:
    """Solver nodes a solver label may take on ``game``'s board."""
    return LABEL_NODES if native_fits(game) else LABEL_PYTHON_NODES


def sample_positions(
    game: Connect4,
    count: int,
    plies: tuple[int, int],
    seed: int,
    *,
    source: str = "selfplay",
    labels: str = "solver",
    nodes: int | None = None,
) -> Sample:
    """``count`` open positions cut at plies in ``plies`` from games of ``source``, with ``labels`` results.

    Solver labels: a position that takes more than ``nodes`` solver nodes (``None``: ``label_nodes(game)``) is
    skipped; raises ``UserError`` once more positions were skipped than kept (and at least ``MIN_REFUSAL_DRAWS``).
    """
    _check_sample(source, labels)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    evaluator = FeatureEvaluator(game)
    solver = Connect4Solver(game) if labels == "solver" else None
    budget = label_nodes(game) if nodes is None else nodes
    found: list[LabelledPosition] = []
    skipped = 0
    while len(found) < count:
        cut = int(rng.integers(plies[0], plies[1] + 1))
        state = game.start()
        while state.ply < cut and not state.is_terminal():
            state = state.play(_next_move(state, source, rng, evaluator))
        if state.is_terminal():
            continue
        if solver is not None:
            result = solved_result(solver, state, budget)
            if result is not None:
                found.append(LabelledPosition(state, result))
                continue
            skipped += 1
            if skipped >= MIN_REFUSAL_DRAWS and skipped > len(found):
                raise UserError(
                    f"--plies {plies[0]}-{plies[1]}: {skipped} of the {skipped + len(found)} positions drawn took the "
                    f"solver more than {budget:,} nodes each (early positions can take it minutes); use later "
                    "plies, e.g. 12-34, or --labels games"
                )
            continue
        found.append(LabelledPosition(state, _played_out(state, source, rng, evaluator)))
    return Sample(found, skipped)


def _check_sample(source: str, labels: str) -> None:
    """Raise ``UserError`` unless ``source`` and ``labels`` are known and go together."""
    if source not in SOURCES:
        raise UserError(f"source '{source}' is not one of {', '.join(SOURCES)}")
    if labels not in LABELS:
        raise UserError(f"labels '{labels}' is not one of {', '.join(LABELS)}")
    if labels == "games" and source != "selfplay":
        raise UserError("labels from games need positions from self-play (--source selfplay)")


def _played_out(state: Connect4State, source: str, rng: np.random.Generator, evaluator: FeatureEvaluator) -> float:
    """The first player's result (1 win, 0.5 draw, 0 loss) of ``state`` played to its end by ``source``'s moves."""
    end = state
    while not end.is_terminal():
        end = end.play(_next_move(end, source, rng, evaluator))
    return (end.utility() + 1) / 2


def _next_move(state: Connect4State, source: str, rng: np.random.Generator, evaluator: FeatureEvaluator) -> int:
    """A random move, or (self-play) the evaluator's best 1-ply move for the player to move."""
    moves = state.legal_moves()
    if source == "random" or rng.random() < SELFPLAY_RANDOM:
        return moves[int(rng.integers(len(moves)))]
    sign = state.player
    return max(moves, key=lambda move: sign * evaluator(state.play(move)))


def solved_result(solver: Connect4Solver, state: Connect4State, nodes: int | None = None) -> float | None:
    """The first player's result with perfect play from the open ``state``: 1 win, 0.5 draw, 0 loss; ``None``
    if the solver needs more than ``nodes`` nodes (``None``: no bound) to tell.

    A weak solve: a null-window probe at 0 says whether the player to move wins; if not, one at -1 whether
    they draw or lose.  The solver's table lasts from one position to the next, as in the column analysis.
    """
    spent = 0
    for threshold in (0, -1):
        search = ScoreSearch(solver, state, threshold=threshold)
        spent += search.advance(None if nodes is None else nodes - spent)
        if not search.done:
            return None
        if search.lower > threshold:  # the mover scores above the threshold: a win, or (at -1) a draw
            outcome = PovScore(1 if threshold == 0 else 0, state.player)
            break
    else:
        outcome = PovScore(-1, state.player)
    return (outcome.first() + 1) / 2


def feature_matrix(states: Sequence[Connect4State], game: Connect4) -> Matrix:
    """One row of ``FeatureEvaluator.features`` per position."""
    evaluator = FeatureEvaluator(game)
    return np.array([evaluator.features(state) for state in states], dtype=np.float64).reshape(len(states), -1)


@dataclass(frozen=True, slots=True)
class Fit:
    """A fitted logistic model: ``beta`` (per feature) and how it fits the data it was fitted on."""

    beta: tuple[float, ...]
    """Logit per unit of each feature, in the order of ``FEATURES``."""
    iterations: int
    """Newton steps taken."""
    converged: bool

    @property
    def weights(self) -> tuple[float, ...]:
        """The evaluator's weights: ``FEATURE_SCALE`` times ``beta``."""
        return tuple(FEATURE_SCALE * b for b in self.beta)


def fit_logistic(
    features: Matrix, results: Sequence[float] | Matrix, *, l2: float = DEFAULT_L2, max_iterations: int = 100
) -> Fit:
    """``beta`` minimising mean cross-entropy of ``results`` (in [0, 1]) under ``sigmoid(features @ beta)``
    plus ``l2 / 2 |beta|^2``, by Newton's method with step halving; no intercept (every feature is from
    the first player's point of view, and ``tempo`` carries the side to move)."""
    x = np.asarray(features, dtype=np.float64)
    y = np.asarray(results, dtype=np.float64)
    rows, columns = x.shape
    if rows == 0:
        raise UserError("no positions to fit")
    beta = np.zeros(columns)
    loss = _loss(x, y, beta, l2)
    for iteration in range(1, max_iterations + 1):
        p = _sigmoid(x @ beta)
        gradient = x.T @ (p - y) / rows + l2 * beta
        hessian = (x.T * (p * (1 - p))) @ x / rows + l2 * np.eye(columns)
        step = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
        scale = 1.0
        while True:
            candidate = beta - scale * step
            candidate_loss = _loss(x, y, candidate, l2)
            if candidate_loss <= loss:
                break
            scale /= 2
            if scale < 1e-10:  # no step lowers the loss: the minimum, to the precision of floats
                return Fit(tuple(float(b) for b in beta), iteration, True)
        improvement = loss - candidate_loss
        beta, loss = candidate, candidate_loss
        if improvement <= 1e-12 * max(1.0, loss) and float(np.max(np.abs(scale * step))) < 1e-7:
            return Fit(tuple(float(b) for b in beta), iteration, True)
    return Fit(tuple(float(b) for b in beta), max_iterations, False)


def _sigmoid(z: Matrix) -> Matrix:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def _loss(x: Matrix, y: Matrix, beta: Matrix, l2: float) -> float:
    """Mean cross-entropy of ``y`` under ``sigmoid(x @ beta)``, plus the ridge term."""
    z = x @ beta
    # -[y log s(z) + (1 - y) log(1 - s(z))] = log(1 + e^z) - y z, computed stably
    entropy = np.logaddexp(0.0, z) - y * z
    return float(np.mean(entropy) + 0.5 * l2 * beta @ beta)


@dataclass(frozen=True, slots=True)
class Quality:
    """How well some weights predict the results: per position, on the data given."""

    cross_entropy: float
    """Mean cross-entropy (nats) of the results under ``sigmoid(value / FEATURE_SCALE)`` (before clamping)."""
    squared_error: float
    """Mean squared error of that prediction: Texel's E."""
    accuracy: float
    """Share of decisive results whose winner the sign of the value names (draws left out)."""


def quality(features: Matrix, results: Sequence[float] | Matrix, weights: Sequence[float] | Matrix) -> Quality:
    """How ``weights`` (on the evaluator's scale) predict ``results`` from ``features``."""
    x = np.asarray(features, dtype=np.float64)
    y = np.asarray(results, dtype=np.float64)
    beta = np.asarray(weights, dtype=np.float64) / FEATURE_SCALE
    z = x @ beta
    p = _sigmoid(z)
    decisive = y != 0.5
    right = np.count_nonzero((z[decisive] > 0) == (y[decisive] > 0.5))
    return Quality(
        cross_entropy=_loss(x, y, beta, 0.0),
        squared_error=float(np.mean((p - y) ** 2)),
        accuracy=float(right) / max(1, int(np.count_nonzero(decisive))),
    )


@dataclass(frozen=True, slots=True)
class TuneReport:
    """What ``tune`` found: the data, the fit, and both weight sets' quality on the data."""

    positions: int
    wins: int
    draws: int
    losses: int
    fit: Fit
    tuned: Quality
    hand_set: Quality

    def as_dict(self) -> dict[str, object]:
        return {
            "positions": self.positions,
            "results": {"first_wins": self.wins, "draws": self.draws, "second_wins": self.losses},
            "iterations": self.fit.iterations,
            "converged": self.fit.converged,
            "tuned": _quality_dict(self.tuned),
            "hand_set": _quality_dict(self.hand_set),
            "hand_set_weights": dict(zip(FEATURE_NAMES, HAND_SET_WEIGHTS, strict=True)),
        }


def _quality_dict(value: Quality) -> dict[str, float]:
    return {
        "cross_entropy": round(value.cross_entropy, 6),
        "squared_error": round(value.squared_error, 6),
        "accuracy": round(value.accuracy, 6),
    }


def tune(positions: Sequence[LabelledPosition], game: Connect4, *, l2: float = DEFAULT_L2) -> TuneReport:
    """Fit the feature weights to ``positions`` and measure the fit against the hand-set weights."""
    if not (l2 >= 0 and math.isfinite(l2)):
        raise UserError(f"--l2 must be 0 or more, not {l2}")
    x = feature_matrix([p.state for p in positions], game)
    y = np.array([p.result for p in positions])
    fit = fit_logistic(x, y, l2=l2)
    return TuneReport(
        positions=len(positions),
        wins=int(np.count_nonzero(y == 1)),
        draws=int(np.count_nonzero(y == 0.5)),
        losses=int(np.count_nonzero(y == 0)),
        fit=fit,
        tuned=quality(x, y, fit.weights),
        hand_set=quality(x, y, HAND_SET_WEIGHTS),
    )

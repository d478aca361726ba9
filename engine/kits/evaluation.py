"""Static evaluators by name, for any game: the ones its kit offers (``GameKit.evaluators``), through a transform.

``make_evaluator`` builds the evaluator ``name`` of a game from its kit (with the weighted features' ``weights``), then,
if asked, passes its values through a strictly increasing ``Transform`` (``plyscope.engine.games.evaluators``:
``TRANSFORMS``).  ``auto`` is the kit's first evaluator (``default_evaluator``).  Every evaluator scores a position
from the **first player's** point of view.
"""

from __future__ import annotations

from plyscope.engine.games.base import Game, PositionError
from plyscope.engine.games.evaluators import Evaluator, EvaluatorError, FeatureEvaluator, parse_transform, transformed
from plyscope.engine.kits import kit_of, kits


def evaluator_names() -> tuple[str, ...]:
    """Every evaluator some kit offers (for its first game), each once, in the kits' order: the ``eval`` parameter's
    choices besides ``auto``."""
    return tuple(dict.fromkeys(name for kit in kits().values() for name in kit.evaluators(kit.first())))


def default_evaluator(game: Game) -> str:
    """The evaluator a searcher uses on ``game`` unless told otherwise: its kit's first (Rivest's for Connect Four,
    the features with chance, neutral for Nim, a hand-written tree's own values on a tree)."""
    return kit_of(game).evaluators(game)[0]


def make_evaluator(name: str, game: Game, *, weights: str = "", transform: str = "identity") -> Evaluator:
    """The evaluator ``name`` of ``game`` (one its kit offers), with the ``weights`` (``eval=features`` only: see
    ``parse_weights``) and through the ``transform`` (see ``TRANSFORMS``).

    Raises ``PositionError`` if the game's kit does not offer the evaluator, ``EvaluatorError`` for bad weights or a
    bad transform.
    """
    chosen_transform = parse_transform(transform)
    if weights.strip() and name != FeatureEvaluator.name:
        raise EvaluatorError(f"weights are for eval=features, not eval={name}")
    kit = kit_of(game)
    offered = kit.evaluators(game)
    if name not in offered:
        raise PositionError(f"evaluator '{name}' does not fit {game.name}: choose {' or '.join(sorted(offered))}")
    evaluator = kit.evaluator(game, name, weights=weights)
    return evaluator if chosen_transform.name == "identity" else transformed(evaluator, chosen_transform)

"""The hand-written trees' kit (``--game tree``): a textbook's tree, valued exactly by minimax (expectiminimax where
it has chance nodes).

A tree's values are its leaves', from the first player's (MAX's) point of view, and they are values, not results:
a move is optimal when it keeps the node's exact value (``TreeValues.outcome``), not merely its sign.
"""

from __future__ import annotations

from plyscope.engine.games.base import Game, State
from plyscope.engine.games.evaluators import Evaluator, TreeEvaluator
from plyscope.engine.games.tree import MAX_VALUE, TreeGame, TreeState, number_text
from plyscope.engine.kits.base import EditableLeaf, ExactValues, GameKit, MovesSolve, Number, Ranking, Truth, TruthMoves
from plyscope.engine.numbers import parse_float
from plyscope.engine.pov import FIRST, PovScore


class TreeValues(ExactValues):
    """A tree's exact values at once (``Tree.exact``), for the player to move (kept from MAX's point of view: a
    chance node's too)."""

    scale = "minimax value"
    legend = "every value is MAX's (the leaves')"
    span = (float("-inf"), float("inf"))
    ceiling = None
    first_player = True

    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        assert isinstance(state, TreeState)
        return Truth(PovScore(state.tree.exact[state.node], FIRST))

    def moves(self, state: State) -> MovesSolve:
        assert isinstance(state, TreeState)
        return TruthMoves(state, self, work=len(state.tree.exact))

    def words(self, score: PovScore[int] | PovScore[float], state: State) -> str:
        return f"value {number_text(float(score.first()))}"

    def outcome(self, score: Number) -> Number:
        return score

    def proven(self, result: int, ply: int, state: State) -> Truth | None:
        return None


class TreeKit(GameKit):
    name = "tree"
    summary = "a game tree written as a textbook draws it, ((3,12,8),(2,4,6),(14,5,2)): exact by minimax"
    positions = "a tree of leaf values, ((3,12,8),(2,4,6),(14,5,2)), labels A(B(3),C(4)), chance ?(0.5:3,0.5:4)"
    position_hint = "a tree like ((3,12,8),(2,4,6),(14,5,2)), a built-in one (classic, order, deep, chance) or a file"
    board = "tree"

    def names(self) -> tuple[str, ...]:
        return ("tree",)

    def make(self, name: str) -> Game | None:
        return TreeGame.built_in() if name == "tree" else None

    def editable_leaf(self, state: State) -> EditableLeaf | None:
        return state if isinstance(state, TreeState) and state.is_terminal() else None

    def with_leaf_value(self, top: State, leaf: State, text: str) -> str:
        assert isinstance(top, TreeState) and isinstance(leaf, TreeState)
        value = parse_float(text, f"the value of leaf {leaf.label()}", lo=-MAX_VALUE, hi=MAX_VALUE)
        return leaf.game.with_value(leaf.node, value).tree.subtree_text(top.node)

    def has_chance(self, game: Game) -> bool:
        assert isinstance(game, TreeGame)
        return game.tree.has_chance

    def ranking(self, game: Game) -> Ranking:
        assert isinstance(game, TreeGame)
        return Ranking(game.tree.open_outcomes(), _rank)

    def evaluators(self, game: Game) -> tuple[str, ...]:
        return ("tree", "neutral")

    def evaluator(self, game: Game, name: str, *, weights: str = "") -> Evaluator:
        assert isinstance(game, TreeGame)
        return TreeEvaluator(game) if name == "tree" else super().evaluator(game, name)

    def exact(self, game: Game) -> ExactValues:
        return TreeValues()


def _rank(state: State) -> int:
    """A leaf's rank (``Tree.outcome``)."""
    assert isinstance(state, TreeState)
    return state.tree.outcome(state.node)


KITS = (TreeKit(),)

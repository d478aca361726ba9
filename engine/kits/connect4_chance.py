"""Connect Four with chance's kit: a disc may slip into a neighbouring column (``plyscope.engine.games.chance``).

Its values are expected values, not results, so it has no exact solver; only searchers that handle chance nodes
(expectiminimax, MCTS) search it.  Its evaluators are Connect Four's, each valuing a position by its board (a chance
node by the expectation over where the disc lands: ``ChanceBoardEvaluator``), the weighted features by default
(values meant as expected scores, which expectations need).
"""

from __future__ import annotations

from plyscope.engine.games.base import Game, Move, State
from plyscope.engine.games.chance import Connect4Chance, parse_chance_game
from plyscope.engine.games.connect4_playouts import ChancePlayouts
from plyscope.engine.games.evaluators import ChanceBoardEvaluator, Evaluator
from plyscope.engine.kits.base import FastPlayouts, GameKit
from plyscope.engine.kits.connect4 import Connect4Kit

BOARD_KIT = Connect4Kit()
"""Connect Four's own kit: the evaluators of the boards."""


class Connect4ChanceKit(GameKit):
    name = "connect4-chance"
    summary = "Connect Four where a disc lands in the column aimed at with probability 0.6, else beside it"
    positions = "every move, two digits a turn (the column aimed at, then where the disc landed): 4454"
    position_hint = "two digits a turn, the column aimed at and where it landed, e.g. 4454 (blank: empty board)"
    board = "connect4"

    def names(self) -> tuple[str, ...]:
        return ("connect4-chance", "connect4-chance:WxH:KEEP,SIDE")

    def choices(self) -> tuple[str, ...]:
        return ("connect4-chance", "connect4-chance:5x4")

    def make(self, name: str) -> Game | None:
        return parse_chance_game(name)

    def chance_words(self, state: State, aimed: Move, outcome: Move) -> str:
        """Where the disc slipped, if not into the column aimed at."""
        return "" if outcome == aimed else f"; the disc slipped into {state.move_label(outcome)}"

    def has_chance(self, game: Game) -> bool:
        return True

    def playouts(self, game: Game) -> FastPlayouts:
        return ChancePlayouts()

    def evaluators(self, game: Game) -> tuple[str, ...]:
        return ("features", "rivest", "threats", "neutral")

    def evaluator(self, game: Game, name: str, *, weights: str = "") -> Evaluator:
        assert isinstance(game, Connect4Chance)
        return ChanceBoardEvaluator(BOARD_KIT.evaluator(game.board, name, weights=weights))

    def no_exact(self, game: Game) -> str:
        return f"{game.name}: Connect Four with chance has expected values, not exact ones (and no opening book)"


KITS = (Connect4ChanceKit(),)

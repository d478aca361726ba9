"""Lost positions defended longest, won ones won quickest: every searcher, given enough budget, plays a move of
the best distance (the issue "Every limit the app states is true", part 3).

A finished game's value carries the ply it ended at, in every searcher's units (``plyscope.engine.games.evaluators`` for
the searchers that evaluate, ``plyscope.engine.search.outcomes`` for the proofs), so that a quicker win and a slower
loss are worth more.  The positions below are ones whose moves' exact scores differ: the exact solver's (Pons', which
carry the length) for Connect Four, a brute-force search that prefers quicker wins and slower losses
(``exact_score``) for Nim and Grundy's game.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from plyscope.engine.games import Connect4, Move, PositionError, State
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, Node, Searcher
from plyscope.engine.search.montecarlo.mcts import FlatMonteCarlo
from plyscope.engine.search.registry import algorithm, algorithms, make_searcher, plays
from plyscope.engine.solve import PositionSolve

pytestmark = pytest.mark.usefixtures("hand_made_kit")
"""Their hand-made games name the tests' kit."""


def exact_score(state: State, known: dict[tuple[object, int], int] | None = None) -> int:
    """The score of ``state`` for its player to move with best play on both sides, the quickest win and the slowest
    loss: ``1000 - ply`` for a win at that ply, ``ply - 1000`` for a loss, 0 for a draw
    (``plyscope.engine.search.outcomes``). Each position is valued once at each ply it is reached at (``known``)."""
    known = {} if known is None else known
    at = (state.key(), state.ply)
    if at not in known:
        if state.is_terminal():
            winner = state.winner()
            assert winner is not None
            known[at] = winner * state.player * (1000 - state.ply)
        else:
            known[at] = max(-exact_score(state.play(move), known) for move in state.legal_moves())
    return known[at]


def best_moves(state: State) -> set[str]:
    """The moves of the best score for the player to move: the quickest win, or the slowest loss (Connect Four:
    the exact solver's scores; Nim: ``exact_score``)."""
    if isinstance(state.game, Connect4):
        solving = PositionSolve(state)
        solving.run()
        solution = solving.solution()
        scores = {label: score.pov(state.player) for label, score in solution.moves.items() if score is not None}
        assert len(scores) == len(state.legal_moves())
    else:
        known: dict[tuple[object, int], int] = {}
        scores = {state.move_label(move): -exact_score(state.play(move), known) for move in state.legal_moves()}
    best = max(scores.values())
    return {label for label, value in scores.items() if value == best}


POSITIONS: tuple[tuple[str, str, set[str], int], ...] = (
    # Connect Four, lost for the player to move:
    ("connect4", "5654167624224422776246671711", {"7"}, 6),  # the issue's: 7 loses in 5, every other move at once
    ("connect4", "75671334317317336771215665546", {"4"}, 6),  # 4 loses in 3 (Pons -4), the others in 1 (-6)
    ("connect4", "1313327526554131647611374372646", {"5", "7"}, 8),  # 5, 7 lose at ply 42; 4, 6 at 40; 2 sooner
    # Connect Four, won for the player to move, quickly and slowly:
    ("connect4", "2762751722231276466633475674533", {"4"}, 6),  # 4 wins (Pons 5) sooner than 5 (4)
    ("connect4", "7235431667532555335366227767122741", {"4"}, 6),  # 4 wins in 2 (Pons 3), 6 in 4 (1)
    ("connect4", "524216226637772126164361744551551", {"4", "7"}, 6),  # 4, 7 win in 2 (Pons 4), 3 and 5 in 3
    ("connect4", "67152117737262713366376314254", {"5"}, 6),  # 5 wins in 2; Rivest's values lead 4's line to a draw
    # Nim, won and lost:
    ("nim", "2,2,3", {"3-3"}, 6),  # 3-3 wins at ply 5, 2-1 at ply 7
    ("nim", "4,4", {"4-1"}, 6),  # lost: 4-1 holds on to ply 8, 4-4 to ply 2
    ("nim", "1,4,5", {"1-1", "5-1"}, 8),  # lost: to ply 10 at the latest
    # Grundy's game, won and lost:
    ("grundy", "5,6", {"5=3+2"}, 6),  # won at ply 5, by 6=5+1 at ply 7
    ("grundy", "5,5", {"5=4+1"}, 6),  # lost: at ply 6 at the latest, by 5=3+2 at ply 4
    ("grundy", "8,8", {"8=5+3", "8=7+1"}, 6),  # lost: at ply 10 at the latest, by 8=6+2 at ply 8
)
"""Game, position, the moves of best score there (the quickest win, or the slowest loss), and a depth that is
enough for the searchers of a fixed depth (in plies: a turn is a ply without chance)."""

FIXED_DEPTH = ("minimax", "expectiminimax")
"""Searchers whose budget is a depth: they search it to the end (of ``POSITIONS``' depth)."""

BUDGET = 20_000
"""Moves enough on every position above for a searcher (but those of ``BUDGETS``): about twice what the slowest to
settle needs (Rivest's MM on Nim's 1,4,5 from 30,000: until its tree holds the whole game, a lost root's values are
its tree's)."""
BUDGETS = {"mcts": 10_000, "perfect": 7}
"""Budgets of their own: plain MCTS settles Nim's 1,4,5 from 5,000 moves; the perfect player's moves are the root's
children alone (the solver's nodes cost none)."""
VARIANTS: dict[str, tuple[tuple[dict[str, object], int], ...]] = {
    "alphabeta": (({"tt": True, "ordering": "history"}, BUDGET),),
    "bestfirst": (({"ab_depth": 2}, BUDGET),),
    "rivest": (({"accounting": True}, 60_000),),  # Rivest's MM, as in his experiment: a move a child and an edge
    "mcts": (({"solver": True}, BUDGET),),
    "pns": (({"target": "draw-or-win"}, BUDGET),),
}
"""Parameters that change how a searcher values a finished game (a table, MCTS-Solver, the claim proven), with
their budgets."""
NOT_BY_DISTANCE = {"flat-mc": "its means are random playouts' results, which know nothing of how long a game lasts"}

SEARCHERS: tuple[tuple[str, dict[str, object], int], ...] = tuple(
    (name, params, 0 if name in FIXED_DEPTH else budget)
    for name in algorithms()
    if name not in NOT_BY_DISTANCE
    for params, budget in (({}, BUDGETS.get(name, BUDGET)), *VARIANTS.get(name, ()))
)
"""Every registered searcher but those ``NOT_BY_DISTANCE``, with its defaults and its ``VARIANTS``, and its budget in
moves (0 for the searchers of a fixed depth)."""


def test_every_registered_searcher_is_checked() -> None:
    assert {name for name, _, _ in SEARCHERS} | set(NOT_BY_DISTANCE) == set(algorithms())
    assert set(FIXED_DEPTH) | set(BUDGETS) | set(VARIANTS) | set(NOT_BY_DISTANCE) <= set(algorithms())


@pytest.mark.parametrize(
    ("game", "position", "right", "depth"), POSITIONS, ids=[f"{g}-{p}" for g, p, _, _ in POSITIONS]
)
def test_the_positions_best_moves_are_those_of_the_best_distance(
    game: str, position: str, right: set[str], depth: int
) -> None:
    assert best_moves(make_game(game).parse(position)) == right


def cases() -> list[tuple[str, dict[str, object], int, str, str, set[str], int]]:
    return [
        (name, params, moves, game, position, right, depth)
        for name, params, moves in SEARCHERS
        for game, position, right, depth in POSITIONS
        if plays(algorithm(name), make_game(game))
    ]


@pytest.mark.parametrize(
    ("name", "params", "moves", "game", "position", "right", "depth"),
    cases(),
    ids=[f"{name}{params or ''}-{game}-{position}" for name, params, _, game, position, _, _ in cases()],
)
def test_every_searcher_given_enough_budget_plays_a_move_of_the_best_distance(
    name: str, params: dict[str, object], moves: int, game: str, position: str, right: set[str], depth: int
) -> None:
    state = make_game(game).parse(position)
    if name in FIXED_DEPTH:
        searcher = make_searcher(name, state, {**params, "depth": depth}, seed=0)
        searcher.run(Limit())
    else:
        searcher = make_searcher(name, state, params, seed=0)
        searcher.run(Limit(moves=moves))
    move = searcher.best_move()
    assert move is not None and state.move_label(move) in right


def searched(name: str, position: str, params: dict[str, object] | None = None) -> Searcher[Node]:
    searcher = make_searcher(name, make_game("connect4").parse(position), params or {}, seed=0)
    searcher.run(Limit(moves=20_000))
    assert searcher.finished
    return searcher


LOST_IN_FIVE = "5654167624224422776246671711"
"""The issue's position: the first player (to move, at ply 28) loses at ply 38 at the latest, by 7."""


def test_each_searcher_reads_the_length_in_its_own_units() -> None:
    """The first player loses at ply 38: Rivest's scale 1.038 (1 + 38/1000), a proof's score -962 (over 1000 for
    proof-number search's value), MCTS-Solver's "win@38" for the second player, who moved into the root."""
    assert searched("ab-rivest", LOST_IN_FIVE).value().first() == 1.038
    assert searched("bestfirst", LOST_IN_FIVE).value().first() == 1.038
    assert searched("bestfirst", LOST_IN_FIVE, {"eval": "threats"}).value().first() == -962
    assert searched("pns", LOST_IN_FIVE).value().first() == -0.962
    solver = searched("mcts", LOST_IN_FIVE, {"solver": True})
    assert solver.numbers(solver.root)["proven"] == "win@38"
    assert searched("solver", LOST_IN_FIVE).value().first() == -3  # Pons: the opponent wins with their 3rd-last stone


class TwoWins:
    """A game drawn by hand: from the root, ``now`` wins at once for the first player, and ``later`` leads to a
    single move ``then``, after which the first player's only move ``end`` wins: every game from either wins."""

    kit = "hand-made"
    """The tests' kit (``tests.conftest.HandMadeKit``)."""

    name = "two-wins"

    def start(self) -> TwoWinsState:
        return TwoWinsState(self, "root", 0)

    def parse(self, text: str) -> TwoWinsState:
        raise PositionError("a drawn game has only its start")


EDGES = {"root": ("later", "now"), "later": ("then",), "then": ("end",)}


class TwoWinsState:
    def __init__(self, game: TwoWins, label: str, ply: int) -> None:
        self.drawn = game
        self.label = label
        self.ply = ply

    @property
    def game(self) -> TwoWins:
        return self.drawn

    @property
    def player(self) -> int:
        return 1 if self.ply % 2 == 0 else -1

    def legal_moves(self) -> Sequence[Move]:
        return EDGES.get(self.label, ())

    def play(self, move: Move) -> TwoWinsState:
        return TwoWinsState(self.drawn, str(move), self.ply + 1)

    def is_terminal(self) -> bool:
        return self.label in ("now", "end")

    def winner(self) -> int | None:
        return 1 if self.is_terminal() else None

    def utility(self) -> int:
        return 1

    def key(self) -> str:
        return self.label

    def move_label(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        return text

    def text(self) -> str:
        return self.label


@pytest.mark.parametrize("seed", range(8))
def test_flat_monte_carlo_takes_a_win_at_once_over_a_later_one(seed: int) -> None:
    """Both moves win every playout, so their means tie at 1: the move whose game is over is sure, and soonest."""
    searcher = FlatMonteCarlo(TwoWins().start(), seed=seed)
    searcher.run(Limit(iterations=40))
    assert [child.mean() for child in searcher.root.children] == [1.0, 1.0]
    assert searcher.best_move() == "now"

"""Lost positions defended longest, won ones won quickest: every searcher, given enough budget, plays a move of
the best distance (the issue "Every limit the app states is true", part 3).

A finished game's value carries the ply it ended at in every searcher's units (``engine.search.outcomes`` for the
proof searches, ``engine.games.evaluators`` for the evaluators), so a quicker win or a slower loss is worth more.
The positions below are ones whose moves' exact scores differ: the exact solver's (Pons') for Connect Four, a
brute-force search that prefers quicker wins and slower losses (``exact_score``) for Nim.
"""

from __future__ import annotations

import pytest

from engine.games import Connect4, Nim, State, make_game
from engine.search import outcomes
from engine.search.alphabeta import table_key
from engine.search.base import Limit
from engine.search.registry import algorithms, make_searcher, plays
from engine.solve import solve_position


def exact_score(state: State, known: dict[tuple[object, int], int] | None = None) -> int:
    """The score of ``state`` (``engine.search.outcomes``: ``1000 - ply`` a win at that ply) for its player to move,
    with best play on both sides: the quickest win, the slowest loss.  Each position is valued once at each ply it
    is reached at (``known``)."""
    known = {} if known is None else known
    at = (state.key(), state.ply)
    if at not in known:
        if state.is_terminal():
            winner = state.winner()
            assert winner is not None
            known[at] = outcomes.score(winner * state.player, state.ply)
        else:
            known[at] = max(-exact_score(state.play(move), known) for move in state.legal_moves())
    return known[at]


def best_moves(state: State) -> set[str]:
    """The moves of the best score for the player to move: the quickest win, or the slowest loss (Connect Four:
    the exact solver's scores, Pons', which carry the length; Nim: ``exact_score``)."""
    if isinstance(state.game, Connect4):
        solution = solve_position(state)
        scores = {label: score.pov(state.player) for label, score in solution.moves.items() if score is not None}
        assert len(scores) == len(state.legal_moves())
    else:
        known: dict[tuple[object, int], int] = {}
        scores = {state.move_label(move): -exact_score(state.play(move), known) for move in state.legal_moves()}
    best = max(scores.values())
    return {label for label, value in scores.items() if value == best}

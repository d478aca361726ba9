"""Column analysis: the solver's exact score of every column, a slice at a time, within a node budget."""

from __future__ import annotations

import pytest

from plyscope.engine.analysis import MAX_SLICES, ColumnScores
from plyscope.engine.games import Connect4, Move
from plyscope.engine.kits.base import Number
from plyscope.engine.pov import PovScore
from plyscope.engine.solver import Connect4Solver
from tests.pons import pons_positions

C4 = Connect4()


def solved(scores: ColumnScores) -> ColumnScores:
    while not scores.done:
        scores.advance()
    return scores


def for_mover(analysis: ColumnScores) -> dict[Move, Number | None]:
    """Each column's score as bare numbers, for the player to move (who plays the column)."""
    mover = analysis.state.player
    return {column: None if s is None else s.pov(mover) for column, s in analysis.scores.items()}


def test_every_column_gets_the_solvers_score_and_the_best_is_the_positions_score() -> None:
    solver = Connect4Solver(C4)
    for moves, score in pons_positions("Test_L3_R1", 20):
        state = C4.parse(moves)
        analysis = solved(ColumnScores(state))
        assert analysis.complete
        assert analysis.scores == {c: solver.move_score(state, c) for c in state.legal_moves()}
        scores = for_mover(analysis)
        assert max(s for s in scores.values() if s is not None) == score
        assert analysis.snapshot().best() == {c for c, s in scores.items() if s == score}


def test_a_known_position_column_by_column() -> None:
    # Pons' score 4: only column 6 keeps the win for the player to move.
    analysis = solved(ColumnScores(C4.parse("5554224333234511764415115")))
    assert for_mover(analysis) == {0: -8, 1: -8, 2: -8, 3: -8, 5: 4, 6: -8}
    assert analysis.snapshot().best() == {5}
    assert analysis.bounds(5).pov(analysis.state.player) == (4, 4)


def test_a_columns_score_is_kept_for_the_player_who_plays_it_and_read_from_either_side() -> None:
    state = C4.parse("5554224333234511764415115")  # the second player to move; column 6 wins for them
    analysis = solved(ColumnScores(state))
    score = analysis.scores[5]
    assert score is not None and state.player == -1
    assert (score.relative, score.player) == (4, -1)
    assert (score.pov(-1), score.pov(1), score.first()) == (4, -4, -4)
    assert score == PovScore(-4, 1)  # the same score, kept from the other side
    assert analysis.bounds(0).pov(1) == (8, 8) and analysis.bounds(0).pov(-1) == (-8, -8)


def test_an_immediate_win_and_a_full_column() -> None:
    analysis = ColumnScores(C4.parse("112233"))
    assert for_mover(analysis)[3] == 18 and analysis.scores[4] is None
    assert 0 in analysis.scores


@pytest.mark.usefixtures("no_book")
def test_out_of_budget_the_unsolved_columns_stay_unknown_within_their_bounds() -> None:
    analysis = solved(ColumnScores(C4.parse("4453"), node_budget=30_000))
    assert analysis.done and not analysis.complete
    assert analysis.solve.nodes <= 30_000
    unknown = [c for c, s in analysis.scores.items() if s is None]
    assert unknown
    for column in unknown:
        lowest, highest = analysis.bounds(column).pov(analysis.state.player)
        assert -21 <= lowest < highest <= 21
    assert analysis.advance() is None


def test_a_finished_game_has_nothing_to_analyse() -> None:
    with pytest.raises(ValueError, match="game is over"):
        ColumnScores(C4.parse("1212121"))


def test_a_snapshot_writes_scores_short_and_finds_the_proven_best() -> None:
    done = solved(ColumnScores(C4.parse("5554224333234511764415115"))).snapshot()
    assert [done.note(c) for c in range(7)] == ["-8", "-8", "-8", "-8", "", "+4", "-8"]
    assert [done.mark(c) for c in range(7)] == [("8", "bad")] * 4 + [("", ""), ("4", "best"), ("8", "bad")]
    assert done.best() == {5} and done.complete and done.exact(5) == 4 and done.exact(4) is None
    assert {c for c in done.bounds if done.worse(c)} == {0, 1, 2, 3, 6}
    unsolved = ColumnScores(C4.parse("4453"), node_budget=10).snapshot()
    assert unsolved.note(3) == "…" and unsolved.best() == set() and unsolved.solved() == 0
    assert unsolved.mark(3) == ("…", "")
    assert not any(unsolved.worse(c) for c in unsolved.bounds)
    gave_up = solved(ColumnScores(C4.parse("4453"), node_budget=10)).snapshot()
    assert gave_up.done and {gave_up.note(c) for c in range(7)} <= {"?", "+?", "-?"}


def test_columns_settled_without_search_are_known_before_any_slice() -> None:
    # X to move: 4 completes X's bottom row; 1, 2 and 3 are playable but leave the game open.
    analysis = ColumnScores(C4.parse("112233"))
    snapshot = analysis.snapshot()
    assert analysis.solve.nodes == 0
    assert snapshot.exact(3) == 18 and snapshot.solved() == 1


@pytest.mark.usefixtures("no_book")
def test_slices_double_each_round_up_to_a_cap() -> None:
    analysis = ColumnScores(C4.parse("4453"), node_budget=None)
    first = analysis.solve.slice
    spent: list[int] = []
    while not spent or spent[-1] < MAX_SLICES * first:
        before = analysis.solve.nodes
        analysis.advance()
        spent.append(analysis.solve.nodes - before)
    assert not analysis.done  # no node budget: it goes on until every column is solved
    assert max(spent[:7]) <= first  # the first round: one slice per column
    assert max(spent) == MAX_SLICES * first  # later rounds: doubled, up to the cap
    before = analysis.solve.nodes
    analysis.advance()
    assert analysis.solve.nodes - before <= MAX_SLICES * first  # and no more after


def test_without_a_node_budget_every_column_is_solved() -> None:
    moves, score = pons_positions("Test_L2_R2", 4)[3]
    state = C4.parse(moves)
    analysis = solved(ColumnScores(state, node_budget=None))
    assert analysis.complete
    assert max(s for s in for_mover(analysis).values() if s is not None) == score

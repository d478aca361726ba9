"""Anytime curves (``plyscope.engine.study``): positions and their exact values, the judging of each move, the
curve's points and their intervals, the results document, its CSV and its resuming."""

from __future__ import annotations

import csv
import io
import json
from functools import reduce
from operator import xor
from pathlib import Path

import pytest

from plyscope.engine.agents import Agent
from plyscope.engine.errors import UserError
from plyscope.engine.games import Connect4State, NimState
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.solver import Connect4Solver
from plyscope.engine.study import (
    ROW_FIELDS,
    PositionCounts,
    PositionSource,
    StudyResults,
    StudyRow,
    choose,
    curve,
    failed,
    judging_refusal,
    resumed_rows,
    study_exact,
    study_row,
    study_tasks,
    uniform_share,
    value_position,
)
from tests.pons import SAMPLES, pons_positions

NIM_POSITIONS = ("3,4,5", "1,2,3", "2,2", "5,3/2", "1,1,1", "7,1,4,2/2", "6")
"""Classic Nim positions, won and lost, either player to move."""


def test_every_nim_move_is_judged_by_nim_sums() -> None:
    """A move keeps the value when the mover wins (nim-sum not 0) and leaves a nim-sum of 0, or when the mover loses
    whatever it does; a win thrown away loses 2."""
    game = make_game("nim")
    exact = study_exact(1)
    for text in NIM_POSITIONS:
        state = game.parse(text)
        assert isinstance(state, NimState)
        position = value_position(exact, state)
        wins = reduce(xor, state.piles, 0) != 0
        assert position.value == (1 if wins else -1)
        assert position.settled
        for move in state.legal_moves():
            after = state.play(move)
            assert isinstance(after, NimState)
            keeps = not wins or reduce(xor, after.piles, 0) == 0
            verdict = position.verdict(move)
            assert verdict is not None and (verdict.kept, verdict.loss) == (keeps, 0 if keeps else 2), (text, move)


def test_pons_end_easy_positions_are_judged_against_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The values of a sample of Pons' End-Easy set, found by name: his scores, and each move's as the solver finds
    it (a winning move keeps the win)."""
    monkeypatch.setenv("PLYSCOPE_PONS_DATA", str(SAMPLES))
    game = make_game("connect4")
    positions, counts = PositionSource.read(game, "L3R1:8", 5).valued(study_exact(200_000))
    assert (counts.looked_at, counts.kept, counts.unsettled) == (8, 8, 0)
    scores = dict(pons_positions("Test_L3_R1", 100))
    solver = Connect4Solver(game, table_limit=1 << 18)  # type: ignore[arg-type]
    for position in positions:
        state = position.state
        assert isinstance(state, Connect4State)
        assert position.value == scores[position.text]
        for move in state.legal_moves():
            after = state.play(move)
            assert isinstance(after, Connect4State)
            verdict = position.verdict(move)
            assert verdict is not None
            if after.is_terminal():
                assert verdict.kept and position.value > 0
                continue
            value = solver.solve(after).pov(state.player)
            assert (verdict.kept, verdict.loss) == (
                (value > 0) - (value < 0) == (position.value > 0) - (position.value < 0),
                position.value - value,
            )


def test_a_set_is_found_by_any_of_its_names_and_sampled_with_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLYSCOPE_PONS_DATA", str(SAMPLES))
    game = make_game("connect4")
    exact = study_exact(200_000)
    texts = {
        name: [position.text for position in PositionSource.read(game, name, 1).valued(exact)[0]]
        for name in ("L3R1:5", "Test_L3_R1:5", "end-easy:5", "l3_r1:5")
    }
    assert len({tuple(found) for found in texts.values()}) == 1
    every = [moves for moves, _ in pons_positions("Test_L3_R1", 100)]
    assert texts["L3R1:5"] == sorted(texts["L3R1:5"], key=every.index)  # in the file's order
    assert texts["L3R1:5"] != [position.text for position in PositionSource.read(game, "L3R1:5", 2).valued(exact)[0]]


def test_a_position_left_unsettled_is_counted_and_its_moves_not_judged() -> None:
    game = make_game("connect4")
    position = value_position(study_exact(1), game.parse("17516442226766"))  # one solver node: nothing past the book
    assert position.value is None and not position.settled
    assert position.verdict(3) is None and position.kept_share() is None


def test_random_midgames_are_new_settled_and_with_a_wrong_move() -> None:
    game = make_game("connect4")
    exact = study_exact(200_000)
    five, counts = PositionSource.read(game, "random:5", 3).valued(exact)
    eight, _ = PositionSource.read(game, "random:8", 3).valued(exact)
    assert [position.text for position in five] == [position.text for position in eight[:5]]  # a prefix
    assert counts.looked_at == counts.kept + counts.repeated + counts.unsettled + counts.no_wrong_move + counts.ended
    assert len({position.text for position in eight}) == 8
    for position in eight:
        share = position.kept_share()
        assert share is not None and share < 1
    late, counts = PositionSource.read(game, "random:4:20-24", 3).valued(exact)
    assert all(20 <= position.state.ply <= 24 for position in late)
    assert counts.looked_at == counts.kept + counts.repeated + counts.unsettled + counts.no_wrong_move + counts.ended


def test_a_game_with_few_positions_gives_what_it_has_and_says_so() -> None:
    positions, counts = PositionSource.read(make_game("grundy"), "random:50", 0).valued(study_exact(1))
    assert 0 < counts.kept == len(positions) < 50
    assert "fewer than the 50 asked for" in counts.text(1)


def test_a_file_of_positions(tmp_path: Path) -> None:
    path = tmp_path / "positions.txt"
    path.write_text("# Nim\n3,4,5\n\n2,2/2\n3,4,5\n")
    positions, counts = PositionSource.read(make_game("nim"), str(path), 0).valued(study_exact(1))
    assert [position.text for position in positions] == ["5,4,3", "2,2/2"]
    assert (counts.looked_at, counts.repeated, counts.kept) == (3, 1, 2)
    path.write_text("3,4,5\n0,0\n")
    with pytest.raises(UserError, match=r"line 2: the game is over in '0,0'"):
        PositionSource.read(make_game("nim"), str(path), 0).valued(study_exact(1))


def test_a_file_of_connect_four_positions_may_be_one_of_pons_files(tmp_path: Path) -> None:
    """Pons' lines (a move string, its score) are read as their move strings; plain move strings too."""
    path = tmp_path / "positions.txt"
    path.write_text((SAMPLES / "Test_L3_R1").read_text().splitlines()[0] + "\n4453\n")
    positions, _ = PositionSource.read(make_game("connect4"), str(path), 0).valued(study_exact(200_000))
    first, score = pons_positions("Test_L3_R1", 1)[0]
    assert [position.text for position in positions] == [first, "4453"]
    assert positions[0].value == score


def test_a_tree_is_not_judged_by_win_draw_or_loss() -> None:
    refusal = judging_refusal(make_game("tree"), study_exact(1))
    assert refusal is not None and "minimax value" in refusal
    assert judging_refusal(make_game("nim"), study_exact(1)) is None


def _small_study() -> tuple[list[Agent], list[int], StudyResults]:
    """Two agents at two budgets on three Nim positions, every search made here."""
    game = make_game("nim")
    exact = study_exact(1)
    positions = [value_position(exact, game.parse(text)) for text in NIM_POSITIONS[:3]]
    agents = [Agent.parse("alphabeta", Limit()), Agent.parse("mcts", Limit())]
    budgets = [3, 30]
    tasks = study_tasks(game, agents, "moves", budgets, positions, 0)
    results = StudyResults({"command": "study", "positions": [position.text for position in positions]})
    for task in tasks:
        choice = choose(task)
        assert choice.move is not None and choice.index == task.index
        row = study_row(task, choice.move, choice.work, choice.seconds, positions[task.position])
        results.rows[row.index] = row
    return agents, budgets, results


def test_the_curve_counts_each_agent_at_each_budget_with_wilson_intervals() -> None:
    agents, budgets, results = _small_study()
    points = curve(list(results.rows.values()), [agent.label for agent in agents], budgets)
    assert [(point.agent, point.budget, point.searches) for point in points] == [
        ("alphabeta", 3, 3),
        ("alphabeta", 30, 3),
        ("mcts", 3, 3),
        ("mcts", 30, 3),
    ]
    for point in points:
        rows = [row for row in results.rows.values() if (row.agent, row.budget) == (point.agent, point.budget)]
        assert point.optimal == sum(1 for row in rows if row.optimal)
        assert point.loss == sum(row.loss or 0 for row in rows)
        assert all(row.work <= point.budget for row in rows)


def test_wilson_interval_of_a_share() -> None:
    """8 optimal moves of 10: Wilson's 95% score interval is 0.490 to 0.943 (Newcombe 1998, Table I's method 3)."""
    rows = [StudyRow(i, "a", 1, "p", "m", i < 8, 0, 1, 0.0) for i in range(10)]
    (point,) = curve(rows, ["a"], [1])
    assert point.share == 0.8
    assert point.interval == pytest.approx((0.4902, 0.9433), abs=1e-4)
    (none,) = curve([StudyRow(0, "a", 1, "p", "m", None, None, 1, 0.0)], ["a"], [1])
    assert (none.searches, none.judged, none.share, none.interval) == (1, 0, None, None)


def test_a_uniformly_random_move_share() -> None:
    exact = study_exact(1)
    game = make_game("nim")
    won = value_position(exact, game.parse("1,2"))  # moves 2-1 (to 1,1) alone keeps the win, of 3
    assert won.kept_share() == pytest.approx(1 / 3)
    assert uniform_share([won, value_position(exact, game.parse("1,1"))]) == pytest.approx((1 / 3 + 1) / 2)


def test_the_document_and_the_csv_hold_the_same_rows() -> None:
    _, _, results = _small_study()
    document = json.loads(results.document({"points": []}, complete=True, interrupted=False))
    assert document["command"] == "study" and document["complete"] is True
    assert [list(row) for row in document["rows"]] == [list(ROW_FIELDS)] * len(results.rows)
    table = list(csv.reader(io.StringIO(results.csv())))
    assert table[0] == list(ROW_FIELDS)
    for line, row in zip(table[1:], document["rows"], strict=True):
        expected = [
            row["agent"],
            str(row["budget"]),
            row["position"],
            row["move"],
            "" if row["optimal"] is None else str(row["optimal"]).lower(),
            "" if row["loss"] is None else str(row["loss"]),
            str(row["work"]),
            repr(row["seconds"]),
        ]
        assert line == expected


def test_resumed_rows_are_those_of_this_very_study(tmp_path: Path) -> None:
    agents, budgets, results = _small_study()
    game = make_game("nim")
    exact = study_exact(1)
    positions = [value_position(exact, game.parse(text)) for text in NIM_POSITIONS[:3]]
    tasks = study_tasks(game, agents, "moves", budgets, positions, 0)
    path = tmp_path / "study.json"
    assert resumed_rows(path, results.meta, tasks, positions) == []  # no file yet
    path.write_text(results.document({}, complete=True, interrupted=False))
    resumed = resumed_rows(path, results.meta, tasks, positions)
    assert sorted(resumed, key=lambda row: row.index) == [results.rows[index] for index in sorted(results.rows)]
    with pytest.raises(UserError, match="the study in it has another positions"):
        resumed_rows(path, {**results.meta, "positions": []}, tasks, positions)
    document = json.loads(path.read_text())
    for change, message in (
        ({"move": "9-9"}, "row 1 has a move that is not one"),
        ({"agent": "pns"}, "row 1 is not a search of this study"),
        ({"work": -1}, "row 1 has a work or seconds below 0"),
        ({"budget": "3"}, "row 1 has a budget or seconds that is not a number"),
    ):
        path.write_text(json.dumps({**document, "rows": [{**document["rows"][0], **change}]}))
        with pytest.raises(UserError, match=message):
            resumed_rows(path, results.meta, tasks, positions)
    path.write_text(json.dumps({**document, "rows": [document["rows"][0]] * 2}))
    with pytest.raises(UserError, match="row 2 is there twice"):
        resumed_rows(path, results.meta, tasks, positions)


def test_a_search_that_cannot_run_is_an_error_not_a_row() -> None:
    agents, budgets, _ = _small_study()
    game = make_game("nim")
    positions = [value_position(study_exact(1), game.parse("3,4,5"))]
    (task, *_) = study_tasks(game, agents, "moves", budgets, positions, 0)
    broken = choose(type(task)(task.index, "nim", 0, "no piles here", task.agent, task.budget, task.seed))
    assert broken.move is None and broken.error is not None and "PositionError" in broken.error
    assert failed(task, "WorkerDied: ...").error == "WorkerDied: ..."


def test_counts_say_what_was_left_out() -> None:
    counts = PositionCounts("random:3", looked_at=9, unsettled=2, no_wrong_move=3, repeated=1, kept=3, wanted=3)
    assert counts.text(1000) == (
        "3 positions (random:3): 9 random games drawn; left out: 2 not settled within 1,000 solver nodes, "
        "3 where every move keeps the value, 1 met before"
    )

"""``plyscope study`` from the command line: refusals, the JSON and CSV, resuming, the plot and the tables."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from plyscope.engine.arena.play import TurnReport
from plyscope.engine.games import Connect4
from plyscope.engine.solver import Connect4Solver
from plyscope.engine.study import ROW_FIELDS, Choice, StudyTask, choose
from plyscope.tui.cli import main
from tests.pons import SAMPLES, pons_positions

NIM = ["study", "--game", "nim", "--agents", "alphabeta", "mcts", "--positions", "random:6", "--budgets", "3,30"]
"""A small study: two agents, two budgets, six random Nim positions."""


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``argv``, expect exit status 2, and return the one line it printed on stderr."""
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own refusals
        status = int(stop.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("plyscope study: "), err
    return err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["study", "--agents", "alphabeta", "--positions", "L9R9"], "--positions 'L9R9': use random:N"),
        (["study", "--agents", "alphabeta", "--positions", "random:0"], "random:0: 0 is out of range (from 1"),
        (["study", "--agents", "alphabeta", "--positions", "random:5:9-3"], "go from the fewer to the more"),
        (["study", "--agents", "alphabeta", "--positions", "L3R1:0"], "L3R1:0: 0 is out of range (from 1"),
        (["study", "--agents", "alphabeta", "--game", "nim", "--positions", "L3R1"], "Pons' sets are 7x6 Connect"),
        (["study", "--agents", "alphabeta", "--budgets", "10,x"], "argument --budgets: a budget: 'x' is not a whole"),
        (["study", "--agents", "alphabeta", "--budgets", "10,,100"], "argument --budgets: a budget: '' is not"),
        (["study", "--agents", "alphabeta", "--budgets", "10,10"], "argument --budgets: '10,10' gives a budget twice"),
        (["study", "--agents", "alphabeta", "--seconds", "0.1,0"], "argument --seconds: a budget: 0 is out of range"),
        (["study", "--agents", "alphabeta", "--budgets", "5", "--seconds", "1"], "not allowed with argument"),
        (["study", "--agents", "ab-rivest", "--game", "nim"], "agent 'ab-rivest': ab-rivest plays connect4 only"),
        (["study", "--agents", "nosuch"], "unknown algorithm 'nosuch'"),
        (["study", "--agents", "human"], "agent 'human': a study plays agents, not humans"),
        (["study", "--agents", "mcts:moves=5"], "agent 'mcts:moves=5': a study gives every agent the budgets"),
        (["study", "--agents", "mcts", "--game", "connect4-chance"], "--game connect4-chance: "),
        (["study", "--agents", "alphabeta", "--game", "tree"], "tree's exact values are a minimax value"),
        (["study", "--agents", "alphabeta", "--plot", "curves.pdf"], "--plot curves.pdf: write an .svg or a .png"),
        (["study", "--agents", "alphabeta", "--csv", "/no/such/folder/x.csv"], "does not exist"),
        (["study", "--agents", "alphabeta", "--truth-nodes", "0"], "argument --truth-nodes: 0 is out of range"),
    ],
)
def test_bad_input_is_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert message in _refused(argv, capsys)


def test_a_file_of_positions_with_a_bad_line_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "positions.txt"
    path.write_text("3,4,5\n3,x\n")
    err = _refused(["study", "--game", "nim", "--agents", "alphabeta", "--positions", str(path)], capsys)
    assert f"--positions {path}: line 2: pile 'x' is not a whole number" in err


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``argv`` to its end (exit status 0): its stdout."""
    assert main(argv) == 0
    return capsys.readouterr().out


def test_json_and_csv_hold_every_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "rows.csv"
    document = json.loads(_run([*NIM, "--json", "--csv", str(table), "--workers", "1"], capsys))
    assert (document["command"], document["bound"], document["budgets"]) == ("study", "moves", [3, 30])
    assert document["complete"] is True and len(document["positions"]) == 6
    rows = document["rows"]
    assert len(rows) == 6 * 2 * 2 and all(list(row) == list(ROW_FIELDS) for row in rows)
    assert all(row["optimal"] in (True, False) and row["loss"] in (0, 2) for row in rows)  # Nim: always judged
    summary = document["summary"]
    assert (summary["searches_planned"], summary["searches_done"], summary["errors"]) == (24, 24, [])
    assert [(point["agent"], point["budget"]) for point in summary["points"]] == [
        ("alphabeta", 3),
        ("alphabeta", 30),
        ("mcts", 3),
        ("mcts", 30),
    ]
    with table.open(newline="") as stream:
        written = list(csv.DictReader(stream))
    assert [list(row) for row in written] == [list(ROW_FIELDS)] * len(rows)
    assert [(row["agent"], row["position"], row["move"]) for row in written] == [
        (row["agent"], row["position"], row["move"]) for row in rows
    ]


def test_workers_and_a_cluster_choose_the_same_moves_as_this_process(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    here = json.loads(_run([*NIM, "--json", "--workers", "1"], capsys))["rows"]
    pooled = json.loads(_run([*NIM, "--json", "--workers", "2"], capsys))["rows"]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_dask = json.loads(_run([*NIM, "--json", "--scheduler", cluster.scheduler_address], capsys))["rows"]
    for other in (pooled, on_dask):
        assert [{**row, "seconds": 0} for row in other] == [{**row, "seconds": 0} for row in here]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The task indexes the study's searches run from now on (in this process)."""
    ran: list[int] = []

    def counted(task: StudyTask, on_turn: Callable[[TurnReport], None] | None = None) -> Choice:
        ran.append(task.index)
        return choose(task, on_turn)

    monkeypatch.setattr("plyscope.tui.commands.study.choose", counted)
    return ran


def test_resume_runs_only_the_searches_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "study.json"
    whole = json.loads(_run([*NIM, "--json", "--workers", "1"], capsys))
    _run([*NIM, "--resume", str(path), "--workers", "1"], capsys)
    saved = json.loads(path.read_text())
    assert [{**row, "seconds": 0} for row in saved["rows"]] == [{**row, "seconds": 0} for row in whole["rows"]]
    interrupted = {**saved, "rows": saved["rows"][:10], "complete": False, "interrupted": True}
    path.write_text(json.dumps(interrupted))
    ran = _counting(monkeypatch)
    resumed = json.loads(_run([*NIM, "--resume", str(path), "--workers", "1", "--json"], capsys))
    assert sorted(ran) == list(range(10, 24))
    assert resumed["complete"] is True and resumed["rows"][:10] == saved["rows"][:10]
    assert [{**row, "seconds": 0} for row in resumed["rows"]] == [{**row, "seconds": 0} for row in whole["rows"]]
    assert json.loads(path.read_text())["rows"] == resumed["rows"]


def test_a_ctrl_c_keeps_the_searches_made_and_resume_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "study.json"

    def interrupted(task: StudyTask, on_turn: Callable[[TurnReport], None] | None = None) -> Choice:
        if task.index == 5:
            raise KeyboardInterrupt
        return choose(task, on_turn)

    monkeypatch.setattr("plyscope.tui.commands.study.choose", interrupted)
    assert main([*NIM, "--resume", str(path), "--workers", "1"]) == 130
    assert "interrupted: 5 of 24 searches made" in capsys.readouterr().out
    saved = json.loads(path.read_text())
    assert (saved["complete"], saved["interrupted"], len(saved["rows"])) == (False, True, 5)
    ran = _counting(monkeypatch)
    resumed = json.loads(_run([*NIM, "--resume", str(path), "--workers", "1", "--json"], capsys))
    assert sorted(ran) == list(range(5, 24)) and resumed["complete"] is True


def test_resume_refuses_another_study(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "study.json"
    _run([*NIM, "--resume", str(path), "--workers", "1"], capsys)
    err = _refused([*NIM[:-1], "3,100", "--resume", str(path), "--workers", "1"], capsys)
    assert "the study in it has another budgets; resume a study with the command line that started it" in err


def test_pons_positions_judged_as_the_solver_says(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each move chosen in Pons' End-Easy positions is optimal exactly when the solver says it keeps his score's
    sign."""
    monkeypatch.setenv("PLYSCOPE_PONS_DATA", str(SAMPLES))
    argv = ["study", "--agents", "alphabeta", "--positions", "L3R1:6", "--budgets", "10,100", "--json"]
    rows = json.loads(_run([*argv, "--workers", "1", "--no-compiled"], capsys))["rows"]
    scores = dict(pons_positions("Test_L3_R1", 100))
    game = Connect4()
    solver = Connect4Solver(game, table_limit=1 << 18)
    for row in rows:
        before = game.parse(row["position"])
        after = before.play(before.parse_move(row["move"]))
        score = scores[row["position"]]
        value = score if after.is_terminal() else solver.solve(after).pov(before.player)  # a win played keeps it
        assert row["optimal"] == ((value > 0) - (value < 0) == (score > 0) - (score < 0)), row
        assert row["loss"] == score - value


def test_the_tables_and_the_curve(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run([*NIM, "--workers", "1"], capsys)
    assert "6 positions (random:6)" in out
    assert "alphabeta: moves per search" in out and "mcts: moves per search" in out
    assert "optimal moves (%)" in out and "moves per search (log scale)" in out
    assert "A uniformly random move is optimal" in out


def test_the_plot_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="the plot needs the extra plyscope[plots]")
    for name in ("curves.svg", "curves.png"):
        path = tmp_path / name
        _run([*NIM, "--workers", "1", "--plot", str(path)], capsys)
        data = path.read_bytes()
        assert data.startswith(b"<?xml" if name.endswith(".svg") else b"\x89PNG")
        assert len(data) > 1000


def test_without_matplotlib_the_plot_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # an import of it fails, as without the extra
    err = _refused([*NIM, "--plot", "curves.svg"], capsys)
    assert err == "plyscope study: --plot needs matplotlib, an optional dependency: pip install 'plyscope[plots]'\n"

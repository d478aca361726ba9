"""``plyscope bench``: its JSON tables, and exit status 2 with one line for an unknown section."""

from __future__ import annotations

import json
import subprocess
import sys
from unittest import mock

import pytest

from plyscope.engine.benchmarks import peers
from plyscope.tui.benchmark import AHEAD, AT_ONCE, truth_figures
from plyscope.tui.cli import main


def test_quick_rules_section_reports_perft_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--only", "rules", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (table,) = report["rules"]
    (row,) = table["rows"]
    assert (row["position"], row["depth"], row["leaves"]) == ("connect4 start", 5, 7**5)  # --quick: depth 5
    assert row["nodes/s"] > 0


def test_an_unknown_section_is_named_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "speed"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "unknown bench section speed" in err and "solver" in err


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--ui", "--ui-part", "speed"], "unknown --ui-part speed: choose from steps, keys, quit, timeline"),
        (["--ui-part", "tree"], "--ui-part chooses parts of the explorer's figures: give --ui too"),
    ],
)
def test_a_part_of_the_explorers_figures_is_checked(
    words: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", *words]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err


def test_one_part_of_the_explorers_figures_is_measured_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--ui", "--quick", "--ui-part", "tree", "--json"]) == 0
    (table,) = json.loads(capsys.readouterr().out)["ui"]
    assert table["title"].startswith("explorer: a hand-written tree of 1,000 leaves")


def test_memory_probe_reports_resident_bytes_per_node_of_a_fresh_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "plyscope.engine.benchmarks.memory", "rivest", "20000"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    size, reached, seconds = done.stdout.split()
    assert int(reached) >= 20_000
    assert float(size) > 0 and float(seconds) > 0


def test_the_truth_figures_come_from_a_fresh_process_per_tree_and_are_held_to_their_targets() -> None:
    quick = {"first value (s)": 0.2, "lines <= 12 stones (s)": 0.3, "90% of lines (s)": 0.3, "every line (s)": 0.4}
    measured = {
        AT_ONCE: {**quick, "first value (s)": 1.2, "key max (ms)": 40.0, "lines": 57, "unsettled": 3},
        AHEAD: {**quick, "head line (s)": 0.3, "key max (ms)": 20.0, "lines": 57, "unsettled": 3},
    }
    with mock.patch("plyscope.tui.benchmark.run_apart", return_value=json.dumps(measured).split(" ")) as apart:
        table = truth_figures(quick=True)
    assert [call.args[:2] for call in apart.call_args_list] == [
        ("plyscope.tui.benchmark", ["truth", "4453", "rivest"]),
        ("plyscope.tui.benchmark", ["truth", "-", "rivest"]),  # the empty board
    ]
    assert table.rows[:2] == [
        ["4453", "rivest", AT_ONCE, "57 (3)", 1.2, 0.3, 0.3, 0.4, "–", 40.0, "no"],  # the first value over 1 s
        ["4453", "rivest", AHEAD, "57 (3)", 0.2, 0.3, 0.3, 0.4, 0.3, 20.0, "yes"],
    ]
    assert table.rows[2][:2] == ["''", "rivest"]
    with mock.patch("plyscope.tui.benchmark.run_apart", return_value="over 300 s"):
        assert truth_figures(quick=True).notes[0] == "4453, rivest: not measured: over 300 s"
    done = subprocess.run([sys.executable, "-m", "plyscope.tui.benchmark"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "usage: python -m plyscope.tui.benchmark truth" in done.stderr


def test_without_the_peers_each_comparison_is_one_row_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(peers, "installed", lambda module: False)
    assert main(["bench", "--quick", "--only", "peers", "--json"]) == 0
    mcts, solver = json.loads(capsys.readouterr().out)["peers"]
    assert [row["searcher"] for row in mcts["rows"]] == [peers.OPENSPIEL_MISSING]
    assert [row["solver"] for row in solver["rows"]] == [peers.BITBULLY_MISSING]
    assert all(peers.INSTALL_HINT in table["notes"][0] for table in (mcts, solver))


def test_the_peers_do_the_same_work_and_their_tables_say_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel, of the peers extra, is not installed")
    pytest.importorskip("bitbully", reason="BitBully, of the peers extra, is not installed")
    from plyscope.engine.benchmarks import peer_mcts, peer_solver

    monkeypatch.setattr(peer_mcts, "QUICK", peer_mcts.Scale(2_000, 200, 100, 3))
    monkeypatch.setattr(
        peer_solver, "SAMPLES", {name: (0, 2 if name != "Begin-Hard" else 0) for name in peer_solver.SAMPLES}
    )
    assert main(["bench", "--quick", "--only", "peers", "--json"]) == 0
    speed, strength, solver, nodes, book, empty = json.loads(capsys.readouterr().out)["peers"]

    rows = speed["rows"]
    assert [row["searcher"] for row in rows] == [
        "OpenSpiel Python",
        "mcts k=1 (Python)",
        "OpenSpiel C++",
        "mcts k=1 compiled",
    ]
    assert [row["iterations a position"] for row in rows] == [200, 200, 2_000, 2_000]  # equal work, pair by pair
    assert [row["exploration"] for row in rows] == ["c 1.4, rewards -1..1", "c 0.7, rewards 0..1"] * 2
    assert rows[0]["x OpenSpiel"] == rows[2]["x OpenSpiel"] == 1.0

    equal, timed = strength["rows"]
    assert (equal["match"], timed["match"]) == ("equal iterations", "equal CPU time")
    assert equal["iterations a move"] == "100 / 100" and timed["iterations a move"].endswith(" / 100")
    for row in (equal, timed):
        wins, draws, losses = (int(n) for n in row["W-D-L"].split("-"))
        assert row["games"] == wins + draws + losses == 6  # three openings, colours swapped
        assert row["score"] == round((wins + draws / 2) / 6, 3)
        assert set(row) == {
            "match",
            "iterations a move",
            "games",
            "W-D-L",
            "score",
            "score 95%",
            "Elo (pairs)",
            "CPU ms a move",
        }

    sets = ["End-Easy", "Middle-Easy", "Middle-Medium", "Begin-Easy", "Begin-Medium"]
    assert [row["set"] for row in solver["rows"]] == [row["set"] for row in nodes["rows"]] == sets
    assert all(row["exact"] == "2/2, 2/2" for row in solver["rows"])
    assert set(solver["rows"][0]) == {
        "set",
        "sample",
        "exact",
        "plyscope",
        "BitBully MTD(f)",
        "BitBully null window",
        "x BitBully",
    }
    assert [row["Pons (whole set)"] for row in nodes["rows"]] == [51, 449, 39_808, 3_296, 1_190_000]
    assert [row["set"] for row in book["rows"]] == ["Begin-Easy", "Begin-Medium"]
    assert all(row["exact"] == "2/2, 2/2" and "x no book" in row for row in book["rows"])

    assert [row["solver"] for row in empty["rows"]] == [peer_solver.PLYSCOPE, peer_solver.BITBULLY]
    assert all(row["scores"] == "-2 -1 0 +1 0 -1 -2" for row in empty["rows"])
    assert all(any(note.startswith("machine load") for note in t["notes"]) for t in (speed, strength, solver, empty))

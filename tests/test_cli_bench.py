"""``plyscope bench``: its JSON tables, and exit status 2 with one line for an unknown section."""

from __future__ import annotations

import json
import subprocess
import sys
from unittest import mock

import pytest

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


def test_the_truth_figures_come_from_a_fresh_process_and_are_held_to_their_targets() -> None:
    measured = {
        "figures": {f"{AT_ONCE}first value (s)": 1.2, f"{AHEAD}first value (s)": 0.2, f"{AHEAD}other (ms)": 3.0},
        "searcher": "rivest",
        "nodes": 10_003,
        "lines": 57,
        "unsettled": 51,
    }
    with mock.patch("plyscope.tui.benchmark.run_apart", return_value=json.dumps(measured).split(" ")) as apart:
        table = truth_figures(quick=True)
    assert apart.call_args.args[:2] == ("plyscope.tui.benchmark", ["truth"])
    assert table.rows == [
        [f"{AT_ONCE}first value (s)", 1.2, 1.0, "no"],
        [f"{AHEAD}first value (s)", 0.2, 1.0, "yes"],
        [f"{AHEAD}other (ms)", 3.0, None, ""],
    ]
    assert "rivest, 10,003 nodes; 57 lines shown, 51 beyond the solver's budget" in table.notes[0]
    with mock.patch("plyscope.tui.benchmark.run_apart", return_value="over 300 s"):
        assert truth_figures(quick=True).notes == ["not measured: over 300 s"]
    done = subprocess.run([sys.executable, "-m", "plyscope.tui.benchmark"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "usage: python -m plyscope.tui.benchmark truth" in done.stderr

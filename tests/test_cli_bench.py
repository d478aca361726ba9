"""``plyscope bench``: its JSON tables, and exit status 2 with one line for an unknown section."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

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

"""``plyscope bench`` prints each table's title and notes at the terminal's width: Rich wrapped them at the
table's, a narrow table's title a column of words."""

from __future__ import annotations

import argparse

import pytest

from plyscope.engine.benchmarks import BenchTable
from plyscope.tui.commands import bench

TITLE = "Truth column on a 10,000-node tree from the empty board, each searcher family"
NOTE = "a note that says what the figures mean, at some length, in one line"


def test_a_narrow_table_s_title_and_notes_are_one_line_each(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    narrow = BenchTable(TITLE, ["part", "ms"], [["a", 1.5]], notes=[NOTE])
    monkeypatch.setattr(bench, "measure", lambda section, quick: [narrow])
    args = argparse.Namespace(only=["rules"], ui=False, web=False, ui_part=[], quick=True, json=False)
    assert bench.run(args) == 0
    lines = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == TITLE
    assert lines[-1] == NOTE
    assert len(lines) == 2 + 5  # (the table: its head, a rule, one row and its two borders)

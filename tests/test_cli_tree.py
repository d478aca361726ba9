"""``--game tree`` on the command line: solve's exact values, search's, and one line with exit status 2 for a bad
tree."""

from __future__ import annotations

import json

import pytest

from plyscope.tui.cli import main


def test_solve_gives_the_minimax_value(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--game", "tree", "--position", "((3,12,8),(2,4,6),(14,5,2))", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["value"], report["moves"], report["best_moves"]) == (3, {"1": 3, "2": 2, "3": 2}, ["1"])
    assert list(report) == [
        *("game", "position", "player", "value", "moves", "best_moves", "nodes", "seconds", "finished")
    ]
    assert main(["solve", "--game", "tree", "min:(3,(1,7))", "--json"]) == 0  # MIN to move: the values stay MAX's
    report = json.loads(capsys.readouterr().out)
    assert (report["player"], report["value"], report["moves"], report["best_moves"]) == (
        -1,
        3,
        {"1": 3, "2": 7},
        ["1"],
    )
    assert main(["solve", "--game", "tree", "min:(3,(1,7))"]) == 0
    assert "MIN to move: minimax value 3" in " ".join(capsys.readouterr().out.split())


def test_a_tree_is_read_from_a_file(tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    written = tmp_path / "lecture.tree"  # type: ignore[operator]
    written.write_text("A(B(3,12,8),\n  C(2,4,6),\n  D(14,5,2))\n")
    assert main(["search", "--game", "tree", "--position", str(written), "--algo", "alphabeta", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["value"], report["best_move"]) == (3, "B")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "--game", "tree", "--position", "((3,12,8),(2,4,6)"], "tree at the end: 1 '(' not closed"),
        (
            ["search", "--game", "tree", "--algo", "minimax", "((3,12),x)"],
            "tree at character 10 (')'): '(' expected after the label x",
        ),
        (["solve", "--game", "tree"], "a position is needed"),
    ],
)
def test_a_bad_tree_is_one_line_and_status_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err


def test_duplicate_sibling_labels_are_refused_by_every_command(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 36, item 1: solve printed "minimax value 5" above a table of x -2 and y 1, no move starred.
    refusal = "tree at character 6 ('x'): a second child labelled x here: siblings need different labels"
    for argv in (
        ["solve", "--game", "tree", "(x=5,x=-2,y=1)"],
        ["solve", "--game", "tree", "--json", "(x=5,x=-2,y=1)"],
        ["search", "--game", "tree", "--algo", "alphabeta", "(x=5,x=-2,y=1)"],
    ):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and refusal in err
    good = tmp_path / "good.json"  # type: ignore[operator]
    assert main(["search", "--game", "tree", "--algo", "minimax", "(x=5,z=-2,y=1)", "--export", str(good)]) == 0
    saved = tmp_path / "saved.json"  # type: ignore[operator]
    saved.write_text(good.read_text().replace("(x=5,z=-2,y=1)", "(x=5,x=-2,y=1)"))
    capsys.readouterr()
    for argv in (["replay", "--check", str(saved)], ["diff", str(good), str(saved)]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and f"{saved}: {refusal}" in err


@pytest.mark.parametrize(
    ("columns", "lines"),
    [
        (
            "140",
            [
                "tree A(B(3,12,8),C(2,4,6),D(14,5,2)): MAX to move: minimax value 3",
                "13 nodes valued in 0.000 s; every value is MAX's (the leaves')",
            ],
        ),
        (
            "30",
            ["tree", "A(B(3,12,8),C(2,4,6),D(14,5,2)):", "MAX to move: minimax value 3", "every value is MAX's (the"],
        ),
    ],
)
def test_solve_prints_whole_lines_at_the_terminals_width(
    columns: str, lines: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 36, item 10: the title and the footer were wrapped to the table's width even in 140 columns, the tree
    # split mid-token ("D(" / "14,5,2)):").
    monkeypatch.setenv("COLUMNS", columns)
    assert main(["solve", "--game", "tree", "classic"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert all(line in printed for line in lines)
    assert all(len(line) <= int(columns) for line in printed if line != "A(B(3,12,8),C(2,4,6),D(14,5,2)):")

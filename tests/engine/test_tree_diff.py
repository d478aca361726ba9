"""Two search trees lined up by move path (``plyscope.engine.tree_diff``, ``plyscope diff``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from plyscope.engine.games import State
from plyscope.engine.kits import make_game
from plyscope.engine.search_file import SearchRecipe, parse_document, search_document
from plyscope.engine.timeline import recorded
from plyscope.engine.tree_diff import (
    DiffError,
    Entry,
    TreeDiff,
    diff_json,
    diff_saved,
    diff_trees,
    labels,
    nodes_by_path,
)
from plyscope.engine.tree_diff import Path as TreePath
from plyscope.tui.cli import main
from plyscope.tui.diff_view import entry, shown_diff


def saved(steps: int, *, algorithm: str = "bestfirst", position: str = "4453", game: str = "connect4") -> object:
    recipe = SearchRecipe(game, position, algorithm, {}, 0, None)
    searcher, timeline = recorded(recipe.maker(), steps)
    return search_document(recipe, searcher, timeline)


def test_hand_built_trees_identical_then_differing_exactly_where_they_do() -> None:
    a: dict[TreePath, Entry] = {(): ({"v": 1}, 3), (3,): ({"v": 2}, 1), (4,): ({"v": 0}, 1), (4, 4): ({"v": 0}, 0)}
    same = diff_trees(a, dict(a), [3], [3])
    assert same.identical and (same.only_a, same.only_b, same.changed) == ([], [], [])
    b: dict[TreePath, Entry] = {(): ({"v": 1}, 4), (3,): ({"v": 2}, 1), (4,): ({"v": 5}, 1), (5,): ({"v": 1}, 0)}
    diff = diff_trees(a, b, [3, 4], [4])
    assert diff.only_a == [(4, 4)] and diff.only_b == [(5,)]
    assert [(change.path, change.a, change.b) for change in diff.changed] == [
        ((), ({"v": 1}, 3), ({"v": 1}, 4)),  # work only
        ((4,), ({"v": 0}, 1), ({"v": 5}, 1)),  # numbers only
    ]
    assert not diff.identical and diff.common_line == 0


def test_a_search_diffed_with_itself_is_identical() -> None:
    document = saved(120)
    one, two = parse_document(document, "a"), parse_document(json.loads(json.dumps(document)), "b")
    diff = diff_saved(one, two)
    assert diff.identical and diff.common_line == len(one.principal_variation) > 0


def test_two_steps_of_one_search_differ_by_the_nodes_added_in_between() -> None:
    early, late = parse_document(saved(100), "early"), parse_document(saved(130), "late")
    recipe = SearchRecipe("connect4", "4453", "bestfirst", {}, 0, None)
    before, _ = recorded(recipe.maker(), 100)
    paths_before = {tuple(node.moves()) for node in before.walk()}
    after, _ = recorded(recipe.maker(), 130)
    added = [tuple(node.moves()) for node in after.walk() if tuple(node.moves()) not in paths_before]
    diff = diff_saved(early, late)
    assert diff.only_a == [] and sorted(diff.only_b) == sorted(added) and len(added) > 30
    assert set(nodes_by_path(late)) == set(nodes_by_path(early)) | set(added)


def test_the_json_names_moves_as_written() -> None:
    a = parse_document(saved(30, algorithm="minimax", game="grundy", position="9"), "a")
    b = parse_document(saved(40, algorithm="minimax", game="grundy", position="9"), "b")
    fields = diff_json(diff_saved(a, b), a.recipe.state())
    assert fields["identical"] is False and fields["only_in_a"] == []
    assert all("=" in move for path in fields["only_in_b"] for move in path)  # type: ignore[attr-defined]


def test_searches_of_different_positions_are_refused() -> None:
    with pytest.raises(DiffError, match="different positions"):
        diff_saved(parse_document(saved(10), "a"), parse_document(saved(10, position="44"), "b"))


def test_the_command_prints_the_diff_and_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, steps, position in (("a", 60, "4453"), ("b", 70, "4453"), ("c", 10, "44")):
        (tmp_path / f"{name}.json").write_text(json.dumps(saved(steps, position=position)))
    a, b, c = (str(tmp_path / f"{name}.json") for name in "abc")
    assert main(["diff", a, a]) == 0
    assert "the trees are identical" in capsys.readouterr().out
    assert main(["diff", a, b, "--json"]) == 0
    fields = json.loads(capsys.readouterr().out)
    assert fields["only_in_a"] == [] and fields["only_in_b"]
    assert main(["diff", a, b]) == 0
    assert "only in B" in capsys.readouterr().out
    assert main(["diff", a, c]) == 2
    err = capsys.readouterr().err
    assert "different positions" in err and len(err.strip().splitlines()) == 1


def test_a_paths_moves_are_labelled_by_the_positions_they_are_played_from() -> None:
    root = make_game("tree").parse("A(B(3,12,8),C(x=2,4,6),D(14,5,2))")
    assert labels(root, (1, 0)) == ["C", "x"]  # not "C B": each node labels its own children


def drawn_text(diff: TreeDiff, root: State) -> list[str]:
    """The lines ``plyscope diff`` and the explorer's diff box draw for ``diff``, 200 columns wide."""
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(shown_diff(diff, root, 40))
    return console.export_text().splitlines()


def test_the_roots_own_numbers_are_drawn_where_they_differ() -> None:
    """The root was counted among the differing nodes (and listed by ``--json``) but drawn as a bare ``root``."""
    a: dict[TreePath, Entry] = {(): ({"mean": 0.4368, "n": 12}, 12), (3,): ({"mean": 0.5, "n": 4}, 4)}
    b: dict[TreePath, Entry] = {(): ({"mean": 0.4437, "n": 12}, 12), (3,): ({"mean": 0.5, "n": 4}, 4)}
    lines = drawn_text(diff_trees(a, b, [3], [3]), make_game("connect4").start())
    assert lines[2:] == ["root ≠ A mean=0.4368 n=12 work=12 │ B mean=0.4437 n=12 work=12"]


def test_work_is_written_alike_in_the_app_and_the_command() -> None:
    """The app's live tree gives work as a float (``7.0``), a saved file as read (``7``): one formatting for both."""
    assert entry(({"v": 1.5}, 7.0)) == entry(({"v": 1.5}, 7)) == "v=1.5 work=7"


def test_a_damaged_files_numbers_are_drawn_as_they_are_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A node's number that is not one (a list, in an edited file) once ended ``plyscope diff`` in an internal
    error."""
    document = saved(20)
    assert isinstance(document, dict)
    (tmp_path / "a.json").write_text(json.dumps(document))
    document["tree"][1][2]["v"] = [1, 2]
    (tmp_path / "b.json").write_text(json.dumps(document))
    assert main(["diff", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    assert "│ B v=[1, 2]" in capsys.readouterr().out


def test_the_header_says_which_count_is_the_searchs_and_which_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Alpha-beta lets go of nodes between its iterations: its own count is not the tree the file holds."""
    documents = {name: saved(steps, algorithm="alphabeta") for name, steps in (("a", 100), ("b", 300))}
    for name, document in documents.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(document))
    a, b = (parse_document(documents[name], name) for name in "ab")
    assert a.stats.nodes != len(a.tree)
    assert main(["diff", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    header = " ".join(capsys.readouterr().out.split())  # (Rich wraps it to the console's width)
    assert (
        f"a.json (alphabeta: {a.stats.nodes:,} nodes searched, {len(a.tree):,} saved), "
        f"B {tmp_path / 'b.json'} (alphabeta: {b.stats.nodes:,} nodes searched, {len(b.tree):,} saved)"
    ) in header

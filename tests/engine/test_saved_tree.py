"""The saved tree shown while a replay rebuilds its search: every node, number and answer as the search had them,
read lazily from the file's rows; damaged rows left out, never an exception; the bulk timeline as append makes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyscope.engine.saved_tree import SavedTree
from plyscope.engine.search.base import Node, Searcher
from plyscope.engine.search_file import SearchFileError, SearchRecipe, read_search, write_search
from plyscope.engine.timeline import Event, Timeline, recorded


def picture(searcher: Searcher[Node]) -> list[tuple[object, object, float]]:
    """Every node depth first: its moves, its numbers and its measure of work."""
    return [(node.moves(), searcher.numbers(node), node.work()) for node in searcher.walk()]


def saved_view(tmp_path: Path, recipe: SearchRecipe, steps: int) -> tuple[Searcher[Node], SavedTree]:
    searcher, timeline = recorded(recipe.maker(), steps)
    path = tmp_path / "s.json"
    write_search(path, recipe, searcher, timeline)
    saved = read_search(path)
    return searcher, SavedTree(saved, recipe.state(), searcher.evaluator)


def written(tmp_path: Path, recipe: SearchRecipe, steps: int) -> tuple[Searcher[Node], Path, dict[str, Any]]:
    """A search of ``recipe`` stepped ``steps`` times, the file it was written to and that file's document (to
    damage, then write back)."""
    searcher, timeline = recorded(recipe.maker(), steps)
    path = tmp_path / "s.json"
    write_search(path, recipe, searcher, timeline)
    return searcher, path, json.loads(path.read_text())


@pytest.mark.parametrize(
    ("algorithm", "game", "position"),
    [
        ("rivest", "connect4", "4453"),
        ("mcts", "nim", "3,4,5"),
        ("alphabeta", "connect4", ""),
        ("bestfirst", "connect4", "44"),
        ("pns", "grundy", "13"),
        ("expectiminimax", "connect4-chance", ""),
    ],
)
def test_the_saved_tree_is_the_search_as_it_was(tmp_path: Path, algorithm: str, game: str, position: str) -> None:
    searcher, view = saved_view(tmp_path, SearchRecipe(game, position, algorithm, {}, 3, None), 400)
    assert picture(view) == picture(searcher)
    line = searcher.principal_variation()
    assert view.principal_variation() == line
    shown = [node.moves() for node in view.principal_path()]
    assert shown == [line[:depth] for depth in range(len(shown))]
    if algorithm != "alphabeta":  # (its line may run through an earlier iteration's tree)
        assert len(shown) == len(line) + 1
    assert view.best_move() == searcher.best_move()
    assert view.value() == searcher.value()
    assert view.finished == searcher.finished
    stats, original = view.stats, searcher.stats
    assert (stats.iterations, stats.moves, stats.nodes, stats.max_depth, stats.playouts) == (
        original.iterations,
        original.moves,
        original.nodes,
        original.max_depth,
        original.playouts,
    )
    assert view.step() is None  # read-only: it takes no step


def test_a_node_is_made_only_when_its_parent_is_opened(tmp_path: Path) -> None:
    _, view = saved_view(tmp_path, SearchRecipe("connect4", "", "rivest"), 300)
    line = view.principal_path()
    off_line = [child for child in view.root.children if child not in line and child.work() > 0]
    assert off_line and all(child._children is None for child in off_line)
    assert off_line[0].children and off_line[0]._children is not None


def test_a_file_from_before_work_and_the_line_were_saved_still_shows_its_tree(tmp_path: Path) -> None:
    recipe = SearchRecipe("connect4", "", "mcts", {}, 1, None)
    searcher, timeline = recorded(recipe.maker(), 200)
    path = tmp_path / "old.json"
    write_search(path, recipe, searcher, timeline)
    document = json.loads(path.read_text())
    for name in ("work", "principal_variation", "finished"):
        del document[name]
    path.write_text(json.dumps(document))
    view = SavedTree(read_search(path), recipe.state(), None)
    assert [(n.moves(), view.numbers(n)) for n in view.walk()] == [
        (n.moves(), searcher.numbers(n)) for n in searcher.walk()
    ]
    assert view.principal_path() == [view.root] and view.root.work() == len(searcher.root.children)


def test_damaged_rows_are_left_out_and_the_check_says_the_file_differs(tmp_path: Path) -> None:
    recipe = SearchRecipe("connect4", "4453", "bestfirst")
    searcher, path, document = written(tmp_path, recipe, 60)
    rows = document["tree"]
    first_children = [index for index, row in enumerate(rows) if row[0] == 1]
    rows[first_children[0]][1] = 99  # not a column (a row not [depth, move, {...}] is refused as it is read)
    rows[0][2] = {"v": [1, 2], "n": "inf", "w": {"x": 1}}
    path.write_text(json.dumps(document))
    saved = read_search(path)
    view = SavedTree(saved, recipe.state(), None)
    assert len(view.root.children) == len(searcher.root.children) - 1
    assert view.numbers(view.root) == {"n": float("inf")}
    assert len(list(view.walk())) < len(list(searcher.walk()))
    with pytest.raises(SearchFileError, match="differs from the saved one"):
        saved.check(searcher)


events = st.lists(
    st.tuples(
        st.lists(st.integers(0, 6), max_size=6).map(tuple),
        st.integers(0, 70_000),
        st.integers(0, 300),
        st.one_of(st.none(), st.integers(0, 6)),
        st.floats(-1e6, 1e6),
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(events)
def test_the_timeline_in_bulk_is_the_one_append_makes(
    given_events: list[tuple[tuple[int, ...], int, int, int | None, float]],
) -> None:
    one_by_one = Timeline()
    for index, (path, added, changed, best, value) in enumerate(given_events):
        one_by_one.append(Event(index + 1, path, added, changed, best, value))
    columns = [list(column) for column in zip(*given_events, strict=True)] or [[], [], [], [], []]
    bulk = Timeline.from_columns(*columns)
    assert list(bulk.events()) == list(one_by_one.events())
    assert bulk.best_changes() == one_by_one.best_changes()
    assert bulk.nbytes() == one_by_one.nbytes()


def test_hostile_answers_in_a_file_are_left_out_of_the_saved_tree(tmp_path: Path) -> None:
    recipe = SearchRecipe("connect4", "", "rivest")
    searcher, path, document = written(tmp_path, recipe, 100)
    line = document["principal_variation"]
    document.update(
        principal_variation=[*line[:2], {"x": 1}, 3],
        best_move=[[1]],
        work=["many"] * len(document["tree"]),
        stats={"moves": -5, "nodes": "x", "max_depth": True},
        finished="yes",
    )  # (a value off the algorithm's scale is refused as it is read: tests/test_hostile_files.py)
    path.write_text(json.dumps(document))
    saved = read_search(path)
    view = SavedTree(saved, recipe.state(), searcher.evaluator)
    assert view.principal_variation() == line[:2] and len(view.principal_path()) == 3
    assert view.best_move() is None and not view.finished and view.value() == searcher.value()
    assert view.root.work() == len(searcher.root.children)  # (a work that is not a number: the children)
    assert view.stats.moves == 0 and view.stats.nodes == len(document["tree"])
    saved.check(searcher)  # the tree itself is intact

"""Saved searches: plyscope search --export (.json, .dot), plyscope replay, and every bad file refused in one line."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from plyscope.engine.kits import make_game
from plyscope.engine.saved_tree import SavedTree
from plyscope.engine.search import registry
from plyscope.engine.search.registry import algorithms
from plyscope.engine.search_file import SearchRecipe, read_search, to_dot, write_search
from plyscope.engine.timeline import recorded

ROOT = Path(__file__).resolve().parents[1]


def plyscope(*words: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "plyscope.tui.cli", *words],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def refused(done: subprocess.CompletedProcess[str], command: str) -> str:
    """The one line a refusal printed (and exit status 2, no traceback)."""
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"plyscope {command}: ")
    return done.stderr


@pytest.mark.parametrize(
    ("algorithm", "game", "position"),
    [
        ("rivest", "connect4", "4453"),
        ("mcts", "nim", "3,4,5"),
        ("alphabeta", "connect4", ""),
        ("expectiminimax", "connect4-chance", ""),
        ("pns", "grundy", "13"),
    ],
)
def test_export_then_replay_gives_the_identical_tree_and_timeline(
    tmp_path: Path, algorithm: str, game: str, position: str
) -> None:
    recipe = SearchRecipe(game, position, algorithm, {}, 5, None)
    searcher, timeline = recorded(recipe.maker(), 300)
    path = tmp_path / "s.json"
    said = write_search(path, recipe, searcher, timeline)
    assert said.startswith(f"wrote {path}")
    saved = read_search(path)
    assert saved.recipe == recipe and saved.steps == len(timeline)
    assert list(saved.timeline.events()) == list(timeline.events())
    assert saved.timeline.best_changes() == timeline.best_changes()
    again = saved.rebuilt()
    assert again is not None
    assert [(n.moves(), again.numbers(n)) for n in again.walk()] == [
        (n.moves(), searcher.numbers(n)) for n in searcher.walk()
    ]


def test_search_export_and_replay_check_from_the_command_line(tmp_path: Path) -> None:
    done = plyscope(
        "search",
        "4453",
        "--algo",
        "bestfirst",
        "--param",
        "ab_depth=2",
        "--iterations",
        "500",
        "--seed",
        "3",
        "--export",
        "b.json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "wrote b.json (500 steps" in done.stderr
    document = json.loads((tmp_path / "b.json").read_text())
    assert document["params"] == {"ab_depth": 2} and document["seed"] == 3 and document["steps"] == 500
    assert document["format"] == "plyscope-search" and document["version"] == 1
    assert len(document["events"]) == 500 and document["stats"]["nodes"] == len(document["tree"])
    checked = plyscope("replay", "b.json", "--check", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "the tree matches the saved one" in checked.stdout


def test_the_dot_picture_holds_the_principal_variation_and_parses(tmp_path: Path) -> None:
    recipe = SearchRecipe("connect4", "4453", "rivest")
    searcher, _ = recorded(recipe.maker(), 400)
    text = to_dot(searcher, nodes=50)
    line = searcher.principal_path()
    assert text.startswith("digraph search {") and text.rstrip().endswith("}")
    assert text.count('style=bold, color="red"') == len(line)
    assert text.count('penwidth=2, color="red"') == len(line) - 1
    drawn = [
        entry
        for entry in text.splitlines()
        if entry.strip().startswith("n") and "[label=" in entry and "->" not in entry and "_more" not in entry
    ]
    assert len(drawn) <= 50 + len(line)
    dot = shutil.which("dot")
    if dot is None:
        pytest.skip("Graphviz's dot is not installed: the DOT text was checked, not parsed")
    (tmp_path / "t.dot").write_text(text)
    parsed = subprocess.run([dot, "-Tsvg", str(tmp_path / "t.dot")], capture_output=True, text=True, timeout=60)
    assert parsed.returncode == 0 and "<svg" in parsed.stdout, parsed.stderr


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("x.txt", "ends in .json (to replay) or .dot"),
        ("missing/x.json", "the folder missing does not exist"),
    ],
)
def test_a_bad_export_path_is_refused_before_any_search(tmp_path: Path, name: str, says: str) -> None:
    done = plyscope("search", "--algo", "rivest", "--export", name, cwd=tmp_path)
    assert says in refused(done, "search")


def damaged_files(good: str) -> dict[str, str | bytes]:
    document = json.loads(good)
    foreign = dict(document, version=2)
    no_format = {k: v for k, v in document.items() if k != "format"}
    short_events = dict(document, events=document["events"][:-1])
    bad_event = dict(document, events=[["x", 1, 1, None, 0.5], *document["events"][1:]])
    edited = json.loads(good)
    edited["tree"][3][2] = {key: 12345 for key in edited["tree"][3][2]}
    bad_algorithm = dict(document, algorithm="nosuch")
    bad_seed = dict(document, seed="7")
    deeper = json.loads(good)
    deeper["tree"][5][0] += 2  # a row two deeper than the one before it
    return {
        "truncated": good[: len(good) // 2],
        "empty": "",
        "binary": b"\x00\xff\xfe garbage",
        "not an object": "[1, 2, 3]",
        "foreign version": json.dumps(foreign),
        "no format": json.dumps(no_format),
        "events short": json.dumps(short_events),
        "bad event": json.dumps(bad_event),
        "edited tree": json.dumps(edited),
        "unknown algorithm": json.dumps(bad_algorithm),
        "seed as text": json.dumps(bad_seed),
        "tree not rows": json.dumps(dict(document, tree=[1, 2, 3])),
        "tree skips a depth": json.dumps(deeper),
        "tree with two roots": json.dumps(dict(document, tree=[*document["tree"], [0, None, {}]])),
    }


def test_damaged_foreign_and_wrong_files_are_refused_in_one_line(tmp_path: Path) -> None:
    recipe = SearchRecipe("connect4", "4453", "bestfirst")
    searcher, timeline = recorded(recipe.maker(), 50)
    good = tmp_path / "good.json"
    write_search(good, recipe, searcher, timeline)
    said: dict[str, str] = {}
    for label, content in damaged_files(good.read_text()).items():
        path = tmp_path / f"{label.replace(' ', '-')}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        said[label] = refused(plyscope("replay", path.name, "--check", cwd=tmp_path), "replay")
    assert "format version 2; this plyscope reads version 1 only" in said["foreign version"]
    assert "is not a saved search" in said["truncated"] and "is not a saved search" in said["not an object"]
    assert "49 events for 50 steps" in said["events short"]
    assert "event 1 is damaged" in said["bad event"]
    assert "the rebuilt tree differs from the saved one at node 3" in said["edited tree"]
    assert "nosuch" in said["unknown algorithm"]
    assert '"seed" is missing or of the wrong type' in said["seed as text"]
    for label in ("tree not rows", "tree skips a depth", "tree with two roots"):
        assert 'field "tree" is damaged' in said[label]
    assert "is a folder" in refused(plyscope("replay", str(tmp_path), cwd=tmp_path), "replay")
    assert "cannot read" in refused(plyscope("replay", "nothing.json", cwd=tmp_path), "replay")


EXPORT_POSITIONS = {"connect4": "444444333333", "grundy": "9", "connect4-chance:5x4": "2233"}
"""A position of each family for the export tests (the chance family for the searchers that play it); the
solver finishes this Connect Four position in 30 steps."""
EXPORT_STEPS = (0, 1, 7, 2000)
"""Steps at which every searcher's search is written: none, one, a few, and many (alpha-beta then stands
mid-iteration, its principal variation the last complete iteration's)."""


def export_cases() -> list[tuple[str, str]]:
    return [
        (name, game)
        for name, info in algorithms().items()
        for game in EXPORT_POSITIONS
        if registry.plays(info, make_game(game))
    ]


@pytest.mark.parametrize(("name", "game"), export_cases())
def test_every_searcher_exports_json_and_dot_at_every_step(tmp_path: Path, name: str, game: str) -> None:
    recipe = SearchRecipe(game, EXPORT_POSITIONS[game], name, {}, 1, None)
    make = recipe.maker()
    drawn: list[Path] = []
    for steps in EXPORT_STEPS:
        searcher, timeline = recorded(make, steps)
        saved = tmp_path / f"s{steps}.json"
        write_search(saved, recipe, searcher, timeline)
        back = read_search(saved)
        assert back.steps == len(timeline) and len(back.tree) == sum(1 for _ in searcher.walk())
        picture = tmp_path / f"s{steps}.dot"
        write_search(picture, recipe, searcher, timeline)
        text = picture.read_text()
        line = searcher.nodes_along(searcher.principal_variation())
        assert text.count('style=bold, color="red"') == len(line)
        assert text.count('penwidth=2, color="red"') == len(line) - 1
        drawn.append(picture)
    dot = shutil.which("dot")
    if dot is None:
        pytest.skip("Graphviz's dot is not installed: the DOT text was checked, not parsed")
    for picture in drawn:
        parsed = subprocess.run([dot, "-Tcanon", str(picture)], capture_output=True, text=True, timeout=60)
        assert parsed.returncode == 0 and parsed.stderr == "", (picture.name, parsed.stderr)


def test_a_replay_exports_its_saved_tree_as_dot(tmp_path: Path) -> None:
    recipe = SearchRecipe("connect4", "4453", "alphabeta", {}, 1, None)
    searcher, timeline = recorded(recipe.maker(), 2000)
    write_search(tmp_path / "ab.json", recipe, searcher, timeline)
    shown = SavedTree(read_search(tmp_path / "ab.json"), recipe.state(), searcher.evaluator)
    assert to_dot(shown) == to_dot(searcher)


@pytest.mark.parametrize("name", ["alphabeta", "ab-rivest"])
def test_alpha_beta_mid_iteration_exports_its_dot_picture(tmp_path: Path, name: str) -> None:
    done = plyscope("search", "4453", "--algo", name, "--iterations", "2000", "--export", "ab.dot", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "wrote ab.dot (2,000 steps" in done.stderr
    assert (tmp_path / "ab.dot").read_text().startswith("digraph search {")


def test_export_and_check_say_which_count_is_the_search_s_and_which_the_file_s(tmp_path: Path) -> None:
    """Alpha-beta lets nodes go between iterations: ``1,664 nodes`` was the search's count, said of a file holding
    396 (and of a picture drawing 60)."""
    done = plyscope(
        "search", "4453", "--algo", "alphabeta", "--iterations", "2000", "--export", "ab.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "ab.json").read_text())
    searched, saved = document["stats"]["nodes"], len(document["tree"])
    assert searched > saved
    assert (
        done.stderr == f"plyscope search: wrote ab.json (2,000 steps, {searched:,} nodes searched, {saved:,} saved)\n"
    )
    checked = plyscope("replay", "ab.json", "--check", cwd=tmp_path)
    assert checked.stdout.endswith(f"the tree matches the saved one ({searched:,} nodes searched, {saved:,} saved)\n")
    drawn = plyscope(
        "search", "4453", "--algo", "alphabeta", "--iterations", "2000", "--export", "ab.dot", cwd=tmp_path
    )
    boxes = len(re.findall(r"^  n\d+ \[label=", (tmp_path / "ab.dot").read_text(), re.MULTILINE))  # (a node's)
    assert drawn.stderr == f"plyscope search: wrote ab.dot (2,000 steps, {searched:,} nodes searched, {boxes} drawn)\n"

"""Hostile files and an early Ctrl-C: each case below ended with ``internal error`` (exit status 1), a traceback, or
a refusal that took seconds of CPU, before its fix.  Every one is now one line: exit status 2 for a file, 130 for
a Ctrl-C at any moment."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from plyscope.engine.files import ORJSON_NESTING, NotJson, parse_json
from plyscope.engine.search.registry import algorithms
from plyscope.engine.search_file import NESTING, SearchFileError, SearchRecipe, read_search, write_search
from plyscope.engine.timeline import recorded
from plyscope.tui.cli import main
from tests.test_hostile import ROOT, SMALL_ARENA, refused

DEEP = "[" * 1000 + "]" * 1000
"""Nesting some 1,000 levels deep: orjson reads it (up to 1,024), and anything walking it recursively fails."""


def saved_search(tmp_path: Path, algo: str = "rivest", steps: int = 30, game: str = "connect4") -> dict[str, Any]:
    """The document of a small saved search (to edit, then write back with ``write``)."""
    recipe = SearchRecipe(game, "4453" if game == "connect4" else "3,4,5", algo)
    searcher, timeline = recorded(recipe.maker(), steps)
    path = tmp_path / "saved.json"
    write_search(path, recipe, searcher, timeline)
    document: dict[str, Any] = json.loads(path.read_text())
    return document


def write(tmp_path: Path, document: object, name: str = "edited.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


# --- 1. a saved search's tree whose depths are lists ---------------------------------------------------------

TREES: dict[str, list[object]] = {
    "lists as depths": [[[0]], [[1]]],
    "ragged lists as depths": [[[0]], [[1, 2]]],
    "empty lists as depths": [[[]], [[]]],
    "true as a depth": [[0, None, {}], [True, 3, {}]],
    "1.0 as a depth": [[0, None, {}], [1.0, 3, {}]],
    "a depth past 64 bits": [[0, None, {}], [2**64 - 1, 3, {}]],
    "a root with a move": [[0, 3, {}]],
    "numbers not an object": [[0, None, {}], [1, 3, "not numbers"]],
}


@pytest.mark.parametrize("tree", list(TREES))
def test_tree_rows_whose_depths_are_not_whole_numbers_are_refused_by_replay_and_replay_check(
    tree: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, {**saved_search(tmp_path), "tree": TREES[tree]})
    assert 'field "tree" is damaged' in refused(["replay", "--check", path], capsys)
    with pytest.raises(SearchFileError, match='field "tree" is damaged'):  # what plyscope replay reads first
        read_search(path)


# --- 2. nesting deeper than the format has -------------------------------------------------------------------


def test_parse_json_refuses_nesting_past_the_formats_at_once_and_reads_up_to_it() -> None:
    for nesting in (1, 3, 5, ORJSON_NESTING - 1):
        assert parse_json("[" * nesting + "]" * nesting, nesting) is not None
        with pytest.raises(NotJson, match=f"nested more than {nesting} levels deep"):
            parse_json("[" * (nesting + 1) + "]" * (nesting + 1), nesting)
        with pytest.raises(NotJson, match=f"nested more than {nesting} levels deep"):
            parse_json('{"a":' * (nesting + 1) + "1" + "}" * (nesting + 1), nesting)
    for not_one_document in ["", " ", "1, 2", "[1],[2]", "1]]", "[1,"]:
        with pytest.raises(NotJson, match="not JSON"):
            parse_json(not_one_document, 3)


def test_orjson_reads_1024_levels_and_no_more() -> None:
    """``parse_json`` checks a format's nesting with orjson's own limit (``ORJSON_NESTING``): it must be that."""
    import orjson

    orjson.loads("[" * ORJSON_NESTING + "]" * ORJSON_NESTING)
    with pytest.raises(orjson.JSONDecodeError, match="depth limit"):
        orjson.loads("[" * (ORJSON_NESTING + 1) + "]" * (ORJSON_NESTING + 1))


def depth(value: object) -> int:
    """How deep ``value`` nests (a number or text: 0; a list or an object: 1 more than its deepest item)."""
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
    return 0 if items is None else 1 + max(map(depth, items), default=0)


def test_the_deepest_saved_search_plyscope_writes_is_as_deep_as_its_format_goes(tmp_path: Path) -> None:
    nim = saved_search(tmp_path, "pns", game="nim")  # Nim's moves are lists: its events go deepest
    assert depth(nim) == NESTING == 5
    assert read_search(write(tmp_path, nim)).steps == 30


@pytest.mark.parametrize("nested", ["1,000 levels", "one level past the format"])
def test_a_saved_search_nested_deeper_than_its_format_is_refused(
    nested: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """params at 1,000 levels: RecursionError (its repr); a list one level past the format is refused too."""
    value = DEEP if nested == "1,000 levels" else "[[[[1]]]]"  # params (2), its value (3..6)
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({**saved_search(tmp_path), "params": {"p": "VALUE"}}).replace('"VALUE"', value))
    assert "nested more than 5 levels deep" in refused(["replay", "--check", str(path)], capsys)


def deep_weights(tmp_path: Path) -> str:
    path = tmp_path / "weights.json"
    path.write_text('{"format": "plyscope-weights", "weights": {"threes": DEEP}}'.replace("DEEP", DEEP))
    return str(path)


WEIGHTS_READERS: dict[str, Callable[[str], list[str]]] = {
    "search": lambda w: ["search", "4453", "--algo", "minimax", "--param", "eval=features", "--param", f"weights={w}"],
    "arena": lambda w: ["arena", "--agents", f"minimax:depth=1,eval=features,weights={w}", "mcts", "--openings", "1"],
    "serve": lambda w: ["serve", "--algo", "minimax", "--param", "eval=features", "--param", f"weights={w}"],
}


@pytest.mark.parametrize("command", list(WEIGHTS_READERS))
def test_a_weights_file_nested_1000_levels_deep_is_refused(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(WEIGHTS_READERS[command](deep_weights(tmp_path)), capsys)
    assert "nested more than 3 levels deep" in line


@pytest.mark.parametrize("command", ["play", "compare", "explore"])
def test_a_weights_file_nested_1000_levels_deep_is_refused_before_the_screen_opens(
    command: str, tmp_path: Path
) -> None:
    from plyscope.engine.errors import UserError
    from plyscope.tui.cli import parse_arguments
    from plyscope.tui.commands import compare, explore, play

    weights = deep_weights(tmp_path)
    spec = f"minimax:depth=1,eval=features,weights={weights}"
    argv = {
        "play": ["play", "--second", spec],
        "compare": ["compare", "44", "--agents", "mcts", spec],
        "explore": ["explore", "--algo", "minimax", "--param", "eval=features", "--param", f"weights={weights}"],
    }[command]
    module = {"play": play, "compare": compare, "explore": explore}[command]
    with pytest.raises(UserError, match="nested more than 3 levels deep"):
        module.app_for(parse_arguments(argv))


def test_an_arena_results_file_whose_turns_nest_1000_levels_deep_is_refused_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.json"
    argv = [*SMALL_ARENA, "--workers", "1", "--resume", str(results)]
    assert main(argv) == 0
    capsys.readouterr()
    document = json.loads(results.read_text())
    assert depth(document) == 5  # the deepest a results file goes (RESULTS_NESTING): games, a game, stats, a side
    document["games"][0]["stats"]["first"]["turns"] = "TURNS"
    results.write_text(json.dumps(document).replace('"TURNS"', DEEP))
    assert "nested more than 5 levels deep" in refused(argv, capsys)


# --- 3. integers are integers --------------------------------------------------------------------------------


def first_row_with_move(tree: list[list[Any]], move: int) -> int:
    return next(index for index, row in enumerate(tree) if row[1] == move)


@pytest.mark.parametrize("written_as", [0.0, True])
def test_a_tree_move_written_as_a_float_or_true_is_refused(
    written_as: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``0.0 == 0`` (and ``True == 1``): the check passed, and the saved tree played the move: TypeError."""
    document = saved_search(tmp_path)
    tree = document["tree"]
    tree[first_row_with_move(tree, 0 if written_as == 0.0 else 1)][1] = written_as
    path = write(tmp_path, document)
    assert 'field "tree" is damaged' in refused(["replay", "--check", path], capsys)


def test_an_event_path_written_with_floats_is_refused_even_where_the_same_path_was_seen_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path read as ``[0.0]`` found the ``(0,)`` checked before (``0.0 == 0``, same hash) and was taken."""
    document = saved_search(tmp_path, "alphabeta", steps=300)
    events = document["events"]
    seen: dict[tuple[int, ...], int] = {}
    again = next(
        index for index, event in enumerate(events) if event[0] and seen.setdefault(tuple(event[0]), index) < index
    )
    events[again][0] = [float(move) for move in events[again][0]]
    assert f"event {again + 1} is damaged" in refused(["replay", "--check", write(tmp_path, document)], capsys)


# --- 4. values off the searcher's scale ------------------------------------------------------------------------


@pytest.mark.parametrize("value", [1e308, -1e308, 1024.0, 0.5, "inf", "nan", None])
def test_a_root_value_off_the_searchers_scale_is_refused_naming_the_field(
    value: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rivest's values run from 1 to 1023: 1e308 in an event made the sparkline fail on NaN."""
    document = saved_search(tmp_path)
    document["events"][5][4] = value
    line = refused(["replay", "--check", write(tmp_path, document)], capsys)
    assert 'event 6\'s "value"' in line
    assert ("off the scale of rivest's values (1 to 1023)" if isinstance(value, float) else "not a number") in line
    document = saved_search(tmp_path, "mcts")  # MCTS's mean rewards: -1 to 1
    document["value"] = 1.5
    assert 'field "value" is 1.5, off the scale of mcts\'s values (-1 to 1)' in refused(
        ["replay", "--check", write(tmp_path, document)], capsys
    )


GAMES = {"connect4": "4453", "nim": "3,4,5", "connect4-chance": ""}


@pytest.mark.parametrize("name", algorithms())
def test_every_algorithms_root_values_lie_on_its_scale(name: str) -> None:
    """What makes the check above true: no searcher gives a root value off ``value_scale``, on any game it plays."""
    from plyscope.engine.errors import UserError

    played = 0
    for game, position in GAMES.items():
        try:
            make = SearchRecipe(game, position, name).maker()
        except UserError:
            continue
        searcher, timeline = recorded(make, 300)
        lo, hi = searcher.value_scale()
        values = timeline.values(len(timeline))
        assert lo <= min(values) and max(values) <= hi, (game, lo, hi, min(values), max(values))
        played += 1
    assert played


# --- events checked against the rebuilt search as it goes -------------------------------------------------------


def test_a_small_file_of_100000_bogus_events_is_refused_within_a_chunk_of_the_rebuild(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2 MB naming 100,000 steps, every event the root's: the rebuild ran all of them (10 s of CPU) before the tree
    check refused it.  The best move and root value are compared after every chunk (1,024 steps)."""
    document = saved_search(tmp_path, "mcts")
    document |= {"steps": 100_000, "events": [[[], 1, 1, None, 0.5]] * 100_000}
    path = write(tmp_path, document)
    line = refused(["replay", "--check", path], capsys)
    assert "differs from the saved one at step 1,024 (its best move or root value)" in line


def test_a_file_of_more_steps_than_its_search_takes_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A search that finishes after N steps, saved with more events: the tree matched, the extra steps were taken."""
    recipe = SearchRecipe("nim", "2,2", "minimax")
    searcher, timeline = recorded(recipe.maker(), 10_000)
    assert searcher.finished
    path = tmp_path / "finished.json"
    write_search(path, recipe, searcher, timeline)
    document = json.loads(path.read_text())
    steps = document["steps"]
    document |= {"steps": steps + 3, "events": document["events"] + document["events"][-1:] * 3}
    line = refused(["replay", "--check", write(tmp_path, document)], capsys)
    assert f"the rebuilt search ends after {steps} steps, the file has {steps + 3}" in line


# --- a byte order mark ----------------------------------------------------------------------------------------


def test_a_utf8_file_with_a_byte_order_mark_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from plyscope.engine.arena.openings import read_openings
    from plyscope.engine.game_record import PlayedGame
    from plyscope.engine.games.evaluators import read_weights_file
    from plyscope.engine.kits import make_game
    from plyscope.engine.search.base import Limit

    bom = b"\xef\xbb\xbf"
    saved = tmp_path / "bom.json"
    saved.write_bytes(bom + json.dumps(saved_search(tmp_path)).encode())
    assert read_search(saved).steps == 30
    weights = tmp_path / "weights.json"
    weights.write_bytes(bom + b'{"format": "plyscope-weights", "weights": {"threes": 20}}')
    assert read_weights_file(weights)[1] == 20.0
    openings = tmp_path / "openings.txt"
    openings.write_bytes(bom + b"44\n35\n")
    assert read_openings(make_game("connect4"), str(openings)) == [(3, 3), (2, 4)]
    game = tmp_path / "game.txt"
    game.write_bytes(
        bom + b"plyscope-game 1\ngame: connect4\nstart: -\nfirst: human\nsecond: human\nseed: 0\nmoves: 44\n"
    )
    assert PlayedGame.load(game, Limit(moves=10)).moves == (3, 3)
    results = tmp_path / "results.json"
    argv = [*SMALL_ARENA, "--workers", "1", "--resume", str(results)]
    assert main(argv) == 0
    results.write_bytes(bom + results.read_bytes())
    assert main(argv) == 0
    capsys.readouterr()


# --- a stopped tune says so in its weights file ------------------------------------------------------------------


def test_a_tune_stopped_by_ctrl_c_says_in_its_weights_file_that_the_match_was_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The match's Ctrl-C: ``run_games`` keeps the games finished and says it was interrupted; the file held the
    partial counts with no sign of it."""
    import dataclasses

    from plyscope.engine.games.evaluators import WEIGHTS_NESTING, read_weights_file
    from plyscope.tui.commands import tune
    from plyscope.tui.commands.arena import play_with_progress as play

    def stopped_after_two_games(tasks: Any, **options: Any) -> Any:
        return dataclasses.replace(play(tasks[:2], **options), interrupted=True)  # as a Ctrl-C at the third

    monkeypatch.setattr(tune, "play_with_progress", stopped_after_two_games)
    out = tmp_path / "w.json"
    argv = ["tune", "--out", str(out), "--positions", "20", "--openings", "2", "--moves", "200", "--workers", "1"]
    assert main([*argv, "--match", "alphabeta:depth=1"]) == 130
    capsys.readouterr()
    document = json.loads(out.read_text())
    match = document["match"]
    assert match["interrupted"] is True and match["games"] == 2 and match["games_planned"] == 4
    assert depth(document) <= WEIGHTS_NESTING
    read_weights_file(out)


# --- 5. Ctrl-C at any moment ------------------------------------------------------------------------------------


def test_the_console_script_is_the_one_that_answers_ctrl_c_while_modules_load() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["plyscope"] == "plyscope.tui.entry:main"


@pytest.mark.parametrize("stage", ["the command line", "the command's modules"])
def test_ctrl_c_while_the_command_line_is_read_or_the_command_loads_is_one_line_and_130(
    stage: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command's module was imported before the ``try`` that answers a Ctrl-C: a traceback, exit status -2."""
    import plyscope.tui.cli

    def interrupt(*args: object) -> None:
        raise KeyboardInterrupt

    if stage == "the command line":
        monkeypatch.setattr(plyscope.tui.cli, "parse_arguments", interrupt)
    else:
        monkeypatch.setattr(
            plyscope.tui.cli, "importlib", type("Importer", (), {"import_module": staticmethod(interrupt)})
        )
    assert main(SMALL_ARENA) == 130
    assert capsys.readouterr().err == "plyscope: interrupted\n"  # (the command's module holds its arguments)


CONSOLE_SCRIPT = "import sys; from plyscope.tui.entry import main; sys.exit(main())"
"""What the installed ``plyscope`` script runs (pip writes it from ``pyproject.toml``'s entry point)."""

MOMENTS = [
    ("plyscope.tui.entry", 0.0),  # the console script's module loaded: plyscope.tui.cli's imports start
    ("plyscope.engine.errors", 0.0),  # the command line's first module of its own: numpy, games, Rich to load
    ("plyscope.tui.cli", 0.0),  # the command line read, the arena's modules (numba...) loading
    ("plyscope.tui.entry", 0.3),
    ("plyscope.tui.entry", 1.0),
]
"""When the Ctrl-C comes: after the import of a module (Python's ``-X importtime`` line for it), and a delay."""


@pytest.mark.parametrize(("after", "delay"), MOMENTS, ids=[f"{after}+{delay}s" for after, delay in MOMENTS])
def test_ctrl_c_at_any_moment_of_an_arena_is_one_line_and_exit_status_130(after: str, delay: float) -> None:
    """SIGINT to the process group, as a terminal's Ctrl-C sends it: in the first second, Python's traceback of
    20-40 lines and exit status -2 (the interpreter ended by the signal)."""
    arena = subprocess.Popen(
        [sys.executable, "-c", CONSOLE_SCRIPT, "arena", "--agents", "minimax:depth=1", "mcts", "--moves", "3000"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"},
        start_new_session=True,
    )
    watchdog = threading.Timer(60, arena.kill)  # a run that takes no notice ends anyway: the test fails, not hangs
    watchdog.start()
    try:
        assert arena.stderr is not None
        before = []
        while (line := arena.stderr.readline()).rpartition("|")[2].strip() != after:
            assert line, f"no import of {after} seen"
            before.append(line)
        time.sleep(delay)
        os.killpg(arena.pid, signal.SIGINT)
        stdout, rest = arena.communicate(timeout=60)
    finally:
        watchdog.cancel()
        arena.kill()
        arena.wait()
    said = [line for line in [*before, *rest.splitlines(keepends=True)] if not line.startswith("import time:")]
    assert arena.returncode == 130, said
    assert len(said) == 1 and "Traceback" not in stdout, said
    finished = re.search(r"interrupted: (\d+) of 98 games finished", stdout)
    if finished is not None:  # the run under way: the arena says so (its progress bar, as far as it went)
        assert f"{finished[1]}/98 games" in said[0]
    else:
        assert said[0] in ("plyscope: interrupted\n", "plyscope arena: interrupted\n"), said

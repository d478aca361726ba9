"""Games from other packages (issue 38, item 2): the guide's example package, a subtraction game, registered through the
``plyscope.games`` entry points and used through the command line and the explorer; a broken plugin reported in one
line, never stopping plyscope.

The package is ``tests/data/plugin_example`` (its ``pyproject.toml`` and its one module), the very text GUIDE.md
shows.  It is registered as an installer would: its module and a ``.dist-info`` folder (its metadata and the entry
points its ``pyproject.toml`` declares) in a folder put on the path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from plyscope.engine import kits as registry
from plyscope.engine.kits import kit_of, make_game, plugin_problems
from plyscope.tui.cli import main
from tests.tui.helpers import explorer, make_app, run_async, settle

EXAMPLE = Path(__file__).parent / "data" / "plugin_example"
"""The example package: the guide shows its two files."""
GUIDE = Path(__file__).parent.parent / "GUIDE.md"
BROKEN = "raise RuntimeError('this plugin is broken on purpose')\n"
"""The module of a plugin that cannot be imported."""


def install(site: Path, project: Path) -> None:
    """Install ``project`` (a folder with a ``pyproject.toml`` and its modules) into ``site`` as an installer would:
    its modules, and a ``.dist-info`` folder with its metadata and its entry points."""
    declared = tomllib.loads((project / "pyproject.toml").read_text())["project"]
    for module in project.glob("*.py"):
        shutil.copy(module, site / module.name)
    info = site / f"{declared['name'].replace('-', '_')}-{declared['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {declared['name']}\nVersion: {declared['version']}\n")
    groups = declared.get("entry-points", {})
    (info / "entry_points.txt").write_text(
        "".join(
            f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
            for group, entries in groups.items()
        )
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the example package installed, and a plugin that raises as it is imported."""
    folder = tmp_path_factory.mktemp("site")
    install(folder, EXAMPLE)
    broken = tmp_path_factory.mktemp("broken")
    (broken / "pyproject.toml").write_text(
        '[project]\nname = "plyscope-broken"\nversion = "0.1"\n\n'
        '[project.entry-points."plyscope.games"]\nbroken = "broken_plugin:Kit"\n'
    )
    (broken / "broken_plugin.py").write_text(BROKEN)
    install(folder, broken)
    return folder


@pytest.fixture
def plugged(site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process sees the plugins (the kits found again now, and again once the test is over)."""
    monkeypatch.syspath_prepend(str(site))
    registry._found.cache_clear()
    yield
    monkeypatch.undo()
    registry._found.cache_clear()


def run_plyscope(site: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``plyscope ARGV`` in a fresh process that sees the plugins of ``site``."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(
        [sys.executable, "-m", "plyscope.tui.cli", *argv], capture_output=True, text=True, env=environment, timeout=120
    )


def test_plyscope_games_lists_the_plugin_and_says_the_broken_one_in_one_line(site: Path) -> None:
    listed = run_plyscope(site, "games", "--json")
    assert listed.returncode == 0
    document = json.loads(listed.stdout)
    games = {game["name"]: game for game in document["games"]}
    assert games["subtraction"]["kit"] == "subtraction" and games["subtraction"]["exact"] == "at once"
    assert {"minimax", "alphabeta", "mcts", "pns"} <= set(games["subtraction"]["searchers"])
    assert "subtraction:N" in next(kit["names"] for kit in document["kits"] if kit["name"] == "subtraction")
    said = "game plugin 'broken' (broken_plugin:Kit) did not load: RuntimeError: this plugin is broken on purpose"
    assert document["problems"] == [said]
    assert listed.stderr == f"plyscope: {said}\n"  # one line, no traceback
    table = run_plyscope(site, "games")
    assert table.returncode == 0 and "subtraction:10" in table.stdout and said in " ".join(table.stdout.split())
    assert table.stderr.count("\n") == 1


def test_the_command_line_solves_searches_replays_and_plays_the_plugin_game(
    plugged: None, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["solve", "9", "--game", "subtraction", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("did not load") == 1  # told once, as the kits were loaded
    solved = json.loads(captured.out)
    assert (solved["score"], solved["moves"], solved["best_moves"]) == (1, {"-1": 1, "-2": -1, "-3": -1}, ["-1"])
    saved = tmp_path / "search.json"
    argv = ["search", "10/2", "--game", "subtraction:12", "--algo", "pns", "--json", "--export", str(saved)]
    assert main(argv) == 0
    searched = json.loads(capsys.readouterr().out)
    assert searched["best_move"] == "-2" and searched["best_move_optimal"] is True
    assert main(["replay", "--check", str(saved)]) == 0
    assert "the tree matches" in capsys.readouterr().out
    out = tmp_path / "arena.json"
    argv = ["arena", "--agents", "minimax:depth=4", "mcts", "--game", "subtraction:10", "--openings", "1"]
    assert main([*argv, "--moves", "100", "--workers", "1", "--out", str(out)]) == 0
    assert "Accuracy of minimax:depth=4" in capsys.readouterr().out
    assert len(json.loads(out.read_text())["games"]) == 2


@pytest.mark.usefixtures("plugged")
@run_async
async def test_the_explorer_searches_the_plugin_game() -> None:
    assert len(plugin_problems()) == 1 and kit_of(make_game("subtraction")).name == "subtraction"
    app = make_app(game="subtraction", position="9", algorithm="alphabeta")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = explorer(pilot)
        await pilot.press("f")  # (100 steps: r would run the whole budget at the explorer's pace)
        await settle(pilot)
        assert screen.session.searcher.best_move() == 1  # 9 - 1 leaves 8, a multiple of 4


def test_the_guide_shows_the_example_package_as_it_is() -> None:
    guide = GUIDE.read_text()
    for name in ("pyproject.toml", "subtraction.py"):
        assert (EXAMPLE / name).read_text() in guide, f"GUIDE.md does not show {name} as tests/data has it"

"""Regenerate the screenshots in ``screenshots/``: ``python -m plyscope.tui.screenshots [DIRECTORY]``.

Each SVG view is the real app run headless with a fixed seed and a clock that never moves (so
no steps-per-second figure), driven by keys as a person would. ``browser.png`` is a real
browser's: ``plyscope serve`` opened in headless Chromium (``plyscope.tui.web.browser``), the explorer
driven by keys typed into the page; it is skipped, saying why, where no browser can be driven.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual.pilot import Pilot

from plyscope.engine.search.registry import algorithms
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.compare_match import CompareMatchScreen
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.session import SearchConfig, Session
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.search_tree import SearchTree

Script = Callable[[Pilot[None]], Awaitable[None]]


@dataclass(frozen=True)
class View:
    """One screenshot: the session to explore, the terminal size and the keys pressed before it."""

    name: str
    config: SearchConfig
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = (120, 36)
    then: tuple[Script, ...] = field(default=())


async def _choose_deep_node(pilot: Pilot[None]) -> None:
    """Move the tree's cursor to the last node of the principal variation and choose it."""
    screen = pilot.app.screen
    assert isinstance(screen, ExploreScreen)
    tree = screen.query_one(SearchTree)
    path = screen.session.searcher.principal_path()
    tree.reveal(path[:4])
    await pilot.pause()
    await pilot.press("enter")


async def _play_match(pilot: Pilot[None]) -> None:
    """Start a match between the compared agents and wait for its end."""
    assert isinstance(pilot.app.screen, CompareScreen)
    await pilot.press("m")
    await pilot.pause()
    match = pilot.app.screen
    assert isinstance(match, CompareMatchScreen)
    while not match.runner.played.is_over() or match.searches.searching:
        await pilot.pause(0.05)


async def _choose_pv_end(pilot: Pilot[None]) -> None:
    """Choose the last node of the principal variation shown in the tree (its numbers and features appear)."""
    screen = pilot.app.screen
    assert isinstance(screen, ExploreScreen)
    tree = screen.query_one(SearchTree)
    tree.reveal_moves(screen.session.searcher.principal_variation()[:3])
    await pilot.pause()
    await pilot.press("enter")


async def _draw_playout(pilot: Pilot[None]) -> None:
    """Wait until the board has drawn the whole playout of the simulation phase shown (phase mode)."""
    screen = pilot.app.screen
    assert isinstance(screen, ExploreScreen)
    phase = screen.pane.phase
    assert phase is not None
    while screen.query_one(Board).line != (*phase.path[-1].moves(), *phase.line):
        await pilot.pause(0.05)


TRUTH_KEYS = ("f", "f", "T", "v", "T", "T")
"""Grundy's 13 under minimax at depth 3: the truth column on, the principal variation open, its ``✗`` marks (``T``
twice more: the values of the lines opened by ``v`` are found by then)."""

VIEWS = (
    View("explorer", SearchConfig(), ("f", "f", "d")),
    View("explorer-80x24", SearchConfig(), ("f", "d"), size=(80, 24)),
    View("explorer-position", SearchConfig(position="4453"), ("f", "f", "f")),
    View("explorer-node-chosen", SearchConfig(), ("f", "f"), then=(_choose_deep_node,)),
    View("alphabeta", SearchConfig(algorithm="alphabeta", params={"depth": 4}), ("f", "f", "f")),
    View("mcts", SearchConfig(algorithm="mcts"), ("f", "f")),
    View(
        "timeline",
        SearchConfig(algorithm="alphabeta", params={"depth": 5}),
        ("f", "f", "f", "f", "f", "less_than_sign", "less_than_sign"),
    ),
    View("truth", SearchConfig(game="grundy", position="13", algorithm="minimax", params={"depth": 3}), TRUTH_KEYS),
    View("step-diff", SearchConfig(position="4453", algorithm="bestfirst"), ("d", "d", "M", "d", "D")),
    View(
        "phases", SearchConfig(position="4453", algorithm="mcts"), ("d", "d", "i", "s", "s", "s"), then=(_draw_playout,)
    ),
    View(
        "phases-alphabeta",
        SearchConfig(game="tree", position="classic", algorithm="alphabeta", params={"start_depth": 3}),
        ("i", *["s"] * 11),
    ),
    View("pns-grundy", SearchConfig(game="grundy", position="13", algorithm="pns"), ("f",)),
    View("nim", SearchConfig(game="nim", position="3,4,5", algorithm="bestfirst"), ("f",)),
    View(
        "tictactoe-phases",
        SearchConfig(game="tictactoe", algorithm="mcts"),
        ("d", "d", "i", "s", "s", "s"),
        then=(_draw_playout,),
    ),
    View("tictactoe-play", SearchConfig(game="tictactoe", algorithm="alphabeta"), ("P", "2", "a"), size=(100, 30)),
    View(
        "openspiel-breakthrough",
        SearchConfig(game="openspiel:breakthrough(rows=5,columns=5)", position="4 260", algorithm="mcts"),
        ("f", "f"),
    ),
    View("tree", SearchConfig(game="tree", position="classic", algorithm="alphabeta"), ("f",), then=(_choose_pv_end,)),
    View("setup", SearchConfig(algorithm="mcts"), ("e",), size=(100, 32)),
    View("help", SearchConfig(), ("question_mark",), size=(100, 40)),
    View(
        "lab-features",
        SearchConfig(position="4453", algorithm="alphabeta", params={"depth": 3, "eval": "features"}),
        ("f", "f", "f"),
        size=(120, 40),
        then=(_choose_pv_end,),
    ),
    View(
        "chance",
        SearchConfig(game="connect4-chance", position="4454", algorithm="expectiminimax", params={"depth": 2}),
        ("f", "f"),
        size=(120, 36),
    ),
    View("play", SearchConfig(algorithm="alphabeta", params={"depth": 4}), ("P", "4", "3"), size=(100, 30)),
    View(
        "play-analysis-hint", SearchConfig(position="243335424257", algorithm="rivest"), ("P", "a", "h"), size=(100, 30)
    ),
    View("compare", SearchConfig(position="243335424257", algorithm="rivest"), ("C", "enter", "r"), size=(120, 36)),
    View(
        "compare-phases",
        SearchConfig(position="243335424257", algorithm="rivest"),
        ("C", "enter", "d", "i", "s"),
        size=(120, 36),
    ),
    View(
        "compare-match",
        SearchConfig(position="5554224333234511764415115", algorithm="alphabeta", params={"depth": 4}),
        ("C", "enter"),
        size=(120, 36),
        then=(_play_match,),
    ),
)


async def shoot(view: View, directory: Path) -> Path:
    """Run the app for ``view`` and save its screenshot as ``directory/<name>.svg``."""
    app = PlyscopeApp(Session.create(view.config), clock=lambda: 0.0)
    async with app.run_test(size=view.size) as pilot:
        await pilot.pause()
        for key in view.keys:
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
        for script in view.then:
            await script(pilot)
            await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        path = directory / f"{view.name}.svg"
        path.write_text(keeping_spaces(app.export_screenshot()), encoding="utf-8")
        return path


def keeping_spaces(svg: str) -> str:
    """``svg`` (Rich's export) with its spaces drawn where they are: Rich writes each run of a line's text as an element
    of its own, and a renderer that keeps XML's default whitespace handling drops a run's leading space, which ran the
    reading guide's keys into their words (``vvalue``) and the tree drawing's leaves together (``614``)."""
    return svg.replace("<svg ", '<svg xml:space="preserve" ', 1)


BROWSER_KEYS = ("f", "f", "d")
"""Typed into the page before ``browser.png`` is taken: 210 steps, as the explorer's own screenshot."""


def shoot_browser(directory: Path) -> Path | None:
    """``directory/browser.png``: the explorer served by ``plyscope serve``, in headless Chromium."""
    from plyscope.tui.web.browser import Browser, Served, browser_problem, wait_for

    problem = browser_problem()
    if problem:
        print(f"skipped browser: {problem}")
        return None
    with tempfile.TemporaryDirectory() as folder, Served() as served, Browser(Path(folder) / "profile") as browser:
        tab = browser.open(served.url)
        tab.wait_app(60)
        tab.press(*BROWSER_KEYS)
        tab.wait_screen(lambda screen: screen.step() == 210, 60, "210 steps")
        shown: list[object] = []

        def settled() -> bool:  # the same screen twice, a quarter of a second apart
            shown.append(tab.screen())
            time.sleep(0.25)
            return tab.screen() == shown[-1]

        wait_for(settled, 30, "a settled screen")
        return tab.screenshot(directory / "browser.png")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m plyscope.tui.screenshots", description="Draw the screenshots of the README and the guide."
    )
    parser.add_argument(
        "directory",
        nargs="?",
        type=Path,
        default=Path(__file__).resolve().parents[1] / "screenshots",
        help="where to write them (default: the checkout's screenshots/)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="VIEW",
        choices=[view.name for view in VIEWS] + ["browser"],
        help="draw only these (the SVG views' names, and browser for browser.png; default: every one)",
    )
    args = parser.parse_args(argv)
    directory, only = args.directory, set(args.only or ())
    directory.mkdir(parents=True, exist_ok=True)
    known = algorithms()
    for view in VIEWS:
        if only and view.name not in only:
            continue
        if view.config.algorithm is not None and view.config.algorithm not in known:
            print(f"skipped {view.name}: algorithm {view.config.algorithm} is not registered")
            continue
        print(asyncio.run(shoot(view, directory)))
    browser = shoot_browser(directory) if not only or "browser" in only else None
    if browser is not None:
        print(browser)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

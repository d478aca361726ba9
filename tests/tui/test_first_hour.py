"""Issue 11: the defects a new user met in the first hour, each reproduced as the user met it.

Every test here failed before its fix.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

import plyscope.tui.crash
import plyscope.tui.web.app_process
from plyscope.engine.agents import Agent
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, Node, Stats
from plyscope.engine.search.registry import AgentSpec, make_searcher
from plyscope.tui.app import PlyscopeApp, run_app
from plyscope.tui.cli import main
from plyscope.tui.contest import compared_agents
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.compare_match import CompareMatchScreen
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.screens.help import HelpScreen
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.session import Session
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.boards.connect4 import Connect4Board
from plyscope.tui.widgets.search_pane import SearchPane
from plyscope.tui.widgets.search_tree import SearchTree
from plyscope.tui.widgets.stats import FigureGrid, Figures, StatsPanel
from tests.tui.contest_helpers import app_with, prompt_error, prompt_field, wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle

ROOT = Path(__file__).resolve().parents[2]
C4 = make_game("connect4")


def status(screen: object) -> str:
    from textual.screen import Screen

    assert isinstance(screen, Screen)
    return str(screen.query_one("#status", Static).render())


def shown(pane: SearchPane) -> object:
    """The pane's session, read through a function (type checkers keep no earlier narrowing)."""
    return pane.session


def agent(text: str, moves: int = 1000) -> Agent:
    return Agent(AgentSpec.parse(text), Limit(moves=moves))


# --- defects 1 and 2: a search replaced while the tree still had events of the old one crashed -------------


class TreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield SearchTree()


@run_async
async def test_two_searches_shown_in_a_row_do_not_crash_the_tree() -> None:
    """``AssertionError`` in ``move_label(None)`` from a stale root's expand event (defects 1 and 2)."""
    app = TreeApp()
    async with app.run_test() as pilot:
        tree = app.query_one(SearchTree)
        first = make_searcher("mcts", C4.start(), {"k": 4})
        first.run(Limit(iterations=50))
        tree.show_searcher(first)
        tree.show_searcher(make_searcher("mcts", C4.parse("4"), {"k": 4}))
        await pilot.pause()
        await pilot.pause()
        assert tree.root.data is tree.searcher.root if tree.searcher else False


@run_async
async def test_a_compare_match_plays_on() -> None:
    """``plyscope compare - --agents rivest ab-rivest --match`` crashed about 3 s in (defect 1)."""
    total = Limit(moves=300)
    agents = compared_agents(["rivest", "ab-rivest"], total, C4)
    screen = CompareScreen(C4.start(), agents, total, match=True, clock=lambda: 0.0)
    async with app_with("connect4", lambda: screen).run_test(size=(120, 36)) as pilot:

        def played() -> int:
            match = pilot.app.screen
            return len(match.runner.played.moves) if isinstance(match, CompareMatchScreen) else 0

        await wait_until(pilot, lambda: played() >= 8, "eight moves of the match")


@run_async
async def test_full_speed_mid_game_plays_on() -> None:
    """``plyscope play --first mcts:k=32 --second alphabeta``, then ``l``: the same crash (defect 2)."""
    played = PlayedGame(C4.start(), agent("mcts:k=32", 300), agent("alphabeta", 300))
    screen = PlayScreen(played, clock=lambda: 0.0)
    async with app_with("connect4", lambda: screen).run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: len(played.moves) >= 2, "two moves")
        await pilot.press("l")
        await wait_until(pilot, lambda: len(played.moves) >= 6, "four more moves at full speed")
        await pilot.press("l")
        await wait_until(pilot, lambda: len(played.moves) >= 8, "two more moves, live")


# --- defect 3: a crash exited 0 and filled the screen with a traceback ----------------------------------


def test_a_crash_in_a_command_exits_1_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PLYSCOPE_CRASH_DIR", str(tmp_path))

    def broken(args: object) -> int:
        raise KeyError("boom")

    import plyscope.tui.commands.search

    monkeypatch.setattr(plyscope.tui.commands.search, "run", broken)
    assert main(["search", "--algo", "mcts"]) == 1
    line = capsys.readouterr().err
    match = re.fullmatch(r"plyscope search: internal error \(KeyError: 'boom'\); the full traceback is in (.+)\n", line)
    assert match is not None, line
    report = Path(match.group(1)).read_text()
    assert "Traceback" in report and "KeyError: 'boom'" in report and "def broken" not in line


def test_a_crash_in_the_app_exits_1_with_one_line_and_the_traceback_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PLYSCOPE_CRASH_DIR", str(tmp_path))

    def broken(self: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(ExploreScreen, "on_mount", broken)
    app = make_app()
    assert run_app(app, "explore", headless=True) == 1
    assert app.crash_report is not None and "RuntimeError: a bug" in app.crash_report.read_text()
    line = f"plyscope explore: internal error (RuntimeError: a bug); the full traceback is in {app.crash_report}"
    assert capsys.readouterr().err == line + "\n"


def test_an_app_whose_message_loop_is_stopped_from_under_it_exits_1_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Out of its address space, a served session's app ended with no error raised and exit status 0 (Textual's
    message loop ended, cancelled, with no exit and no exception: seen under ``prlimit --as``): an app that stops
    with no exit is a failure."""

    def stopped(self: PlyscopeApp, *, headless: bool = False) -> None:
        assert self.return_code is None  # (as Textual's run returns when its loop is cancelled)

    monkeypatch.setattr(PlyscopeApp, "run", stopped)
    app = make_app()
    assert run_app(app, "explore", headless=True) == 1
    assert capsys.readouterr().err == "plyscope explore: internal error (the app stopped though nothing asked it to)\n"


def test_an_app_stopped_with_its_address_space_spent_says_out_of_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plyscope.tui.crash, "address_space_spent", lambda: True)
    line = plyscope.tui.crash.stopped_line("explore")
    assert line == "plyscope explore: out of memory (the address space it may use is spent)"
    assert plyscope.tui.web.app_process.ended_words(1, line, 256) == (
        "plyscope: this session reached its memory limit of 256 MB and ended"
    )


# --- defect 5: the analysis painted a lost position's best move in the winning colour --------------------


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        ("42335614", ("-16", "-13", "-16", "-16", "-6", "-16", "-16")),
        ("4233561445", ("-16",) * 7),
    ],
)
def test_the_analysis_of_a_lost_position_is_drawn_as_losses(position: str, expected: tuple[str, ...]) -> None:
    @run_async
    async def analyse() -> None:
        played = PlayedGame(C4.parse(position), None, None)
        screen = PlayScreen(played, clock=lambda: 0.0)
        async with app_with("connect4", lambda: screen).run_test(size=(100, 30)) as pilot:
            await pilot.press("a")
            await wait_until(pilot, lambda: screen.analysis is not None and screen.analysis.complete, "the solver")
            await pilot.pause()
            notes = screen.query_one(Connect4Board).notes
            assert tuple(text for text, _ in notes) == expected
            assert all("loss" in kind and "win" not in kind for _, kind in notes)
            best = [kind for _, kind in notes if "best" in kind]
            assert best and all(kind == "loss best" for kind in best)

    analyse()


# --- defect 6: compare's step keys left the agents on unequal budgets -------------------------------------


@run_async
async def test_compare_step_keys_keep_the_budgets_equal() -> None:
    total = Limit(moves=10_000)
    state = C4.parse("4453")
    agents = compared_agents(["mcts", "rivest", "alphabeta", "bestfirst"], total, C4)
    screen = CompareScreen(state, agents, total, clock=lambda: 0.0)
    async with app_with("connect4", lambda: screen).run_test(size=(140, 40)) as pilot:
        for key in "sdfs":
            await pilot.press(key)
            await wait_until(pilot, lambda: not screen.searches.searching, "the step")
        spent = [session.searcher.stats.moves for session in screen.sessions]
        # Before: 112 / 784 / 109 / 784.  Now every agent is within one step (an expansion: 7 moves) of the others.
        assert max(spent) - min(spent) <= 7, spent
        assert min(spent) >= 100


# --- defect 7: digit keys did nothing while the tree had the focus --------------------------------------


@run_async
async def test_digit_keys_play_on_the_board_whichever_pane_has_focus() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        assert isinstance(screen.focused, SearchTree)
        await pilot.press("4")
        await settle(pilot)
        assert screen.session.state.text() == "4"


@pytest.mark.parametrize("screen_name", ["explore", "play"])
def test_keys_typed_faster_than_the_board_is_redrawn(screen_name: str) -> None:
    """Three quick presses on a column with one cell left: one move, then refusals, no crash."""

    @run_async
    async def press() -> None:
        from textual import events

        if screen_name == "play":
            played = PlayedGame(C4.parse("11111"), None, None)
            app = app_with("connect4", lambda: PlayScreen(played, clock=lambda: 0.0))
        else:
            app = make_app(position="11111")
        async with app.run_test() as pilot:
            for _ in range(3):
                app.post_message(events.Key("1", "1"))
            await pilot.pause()
            await pilot.pause()
            shown = app.screen
            board = shown.query_one(Board).state
            assert board.text() == "111111"
            assert "cannot be played" in status(shown)

    press()


# --- defect 8: ``v`` did nothing under alphabeta ------------------------------------------------------


@run_async
async def test_v_opens_the_principal_variation_under_alphabeta() -> None:
    app = make_app(algorithm="alphabeta")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = explorer(pilot)
        searcher = screen.session.searcher
        for _ in range(3):
            await pilot.press("f")
            await settle(pilot)
        # Alpha-beta shows the iteration under way; its line is the last complete one's: step until the
        # iteration under way has reached the line's first move (counted on a twin: the search is deterministic).
        twin = Session.create(screen.session.config)
        twin.take(searcher.stats.iterations)
        steps = 0
        while not any(child.move == twin.searcher.principal_variation()[0] for child in twin.searcher.root.children):
            twin.take(1)
            steps += 1
        screen.action_step(steps)
        await settle(pilot)
        assert any(child.move == searcher.principal_variation()[0] for child in searcher.root.children)
        tree = screen.query_one(SearchTree)
        tree.action_close_all()
        await pilot.press("v")
        await pilot.pause()
        cursor = tree.cursor_node
        assert cursor is not None and cursor is not tree.root and isinstance(cursor.data, Node)
        line = searcher.principal_variation()
        assert cursor.data.moves() == line[: len(cursor.data.moves())] and len(cursor.data.moves()) >= 1


# --- defect 9: status messages were cut off ------------------------------------------------------------


@run_async
async def test_a_long_message_wraps_at_80_columns() -> None:
    app = make_app(position="333333")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = explorer(pilot)
        await pilot.press("3")
        await pilot.pause()
        message = "column 3 cannot be played: it is full or the game is over"
        assert message in status(screen)
        line = screen.query_one("#status", Static)
        assert line.size.height >= 3  # the two status lines and the note, wrapped, none cut off


# --- defect 10: the budget halved below what was spent, then raised ------------------------------------


@run_async
async def test_halving_the_budget_below_what_is_spent_says_so_and_raising_it_clears_it() -> None:
    app = make_app(budget=400)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = explorer(pilot)
        for _ in range(4):
            await pilot.press("f")
            await settle(pilot)
        spent = screen.session.searcher.stats.moves
        assert spent == 400 and "budget spent" in status(screen)
        await pilot.press("left_square_bracket")
        assert "budget 200 is below the 400 moves spent" in status(screen)
        await pilot.press("right_square_bracket", "right_square_bracket")
        assert "budget: 800 moves" in status(screen) and "budget spent" not in status(screen)
        await pilot.press("s")
        await settle(pilot)
        assert screen.session.searcher.stats.moves == 401


# --- defect 11: the stats panel broke at 7-digit counts ------------------------------------------------


@pytest.mark.parametrize("width", [24, 41, 60, 90])
def test_ten_digit_counts_fit_the_stats_panel(width: int) -> None:
    @run_async
    async def show() -> None:
        class StatsApp(App[None]):
            def compose(self) -> ComposeResult:
                yield StatsPanel()

        app = StatsApp()
        async with app.run_test(size=(width, 20)) as pilot:
            stats = Stats(moves=1_234_567_890, iterations=9_876_543_210, nodes=1_000_000_000, max_depth=42)
            app.query_one(StatsPanel).show(Figures(stats, 2_147_483_647, 123_456.0), [1.0, 2.0])
            await pilot.pause()
            grid = app.query_one(FigureGrid)
            lines = grid.render().plain.splitlines()  # type: ignore[union-attr]
            assert all(len(line) <= width for line in lines)
            shown = "\n".join(lines)
            for figure in ("1,234,567,890", "9,876,543,210", "1,000,000,000", "2,147,483,647", "123,456"):
                assert figure in shown
            assert "steps/s" in shown and grid.size.height == len(lines)

    show()


# --- defect 12: ``t`` opened a theme picker that swallowed the next keys --------------------------------


@run_async
async def test_t_cycles_themes_and_the_next_key_still_steps() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        before = app.theme
        await pilot.press("t")
        assert app.theme != before and isinstance(app.screen, type(explorer(pilot)))
        await pilot.press("s")
        await settle(pilot)
        assert explorer(pilot).session.searcher.stats.iterations == 1


# --- defect 14: children listed in different orders by different searchers ----------------------------


@run_async
async def test_children_in_move_order_for_every_searcher_and_by_work_on_request() -> None:
    app = make_app(algorithm="mcts")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = explorer(pilot)
        await pilot.press("f")
        await settle(pilot)
        tree = screen.query_one(SearchTree)
        columns = [child.data.move for child in tree.root.children if isinstance(child.data, Node)]
        assert all(isinstance(column, int) for column in columns)
        assert columns == sorted(columns, key=int) and len(columns) == 7  # type: ignore[arg-type]
        tree.focus()
        await pilot.press("O")
        await pilot.pause()
        work = [child.data.work() for child in tree.root.children if isinstance(child.data, Node)]
        assert work == sorted(work, reverse=True) and work[0] > work[-1]


# --- defect 15: undo, C, help's digits, load's default name, the setup form after a game change ------------


@run_async
async def test_undo_empties_the_tree_of_the_undone_position() -> None:
    played = PlayedGame(C4.start(), None, agent("minimax:depth=2"))
    screen = PlayScreen(played, clock=lambda: 0.0)
    async with app_with("connect4", lambda: screen).run_test(size=(100, 30)) as pilot:
        await pilot.press("4")
        await wait_until(pilot, lambda: not screen.thinking and len(played.moves) == 2, "the reply")
        pane = screen.query_one(SearchPane)
        assert pane.session is not None
        await pilot.press("u")
        assert shown(pane) is None and played.moves == ()


@run_async
async def test_c_asks_which_agents_to_compare_with() -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("C")
        field = prompt_field(explorer(pilot))
        assert field.value == "rivest"
        field.value = "mcts alphabeta"
        await pilot.press("enter")
        await pilot.pause()
        compare = app.screen
        assert isinstance(compare, CompareScreen)
        assert [a.label for a in compare.agents] == ["minimax", "mcts", "alphabeta"]


@pytest.mark.parametrize(("game", "keys"), [("connect4", "1-7"), ("connect4:5x4", "1-5"), ("connect4:10x10", "1-9, 0")])
def test_help_lists_only_the_boards_columns(game: str, keys: str) -> None:
    @run_async
    async def look() -> None:
        app = make_app(game=game)
        async with app.run_test(size=(100, 50)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen)
            listed = [key for _, rows in help_screen.sections for key, _ in rows]
            assert keys in listed and "8" not in listed and "0" not in listed

    look()


def test_load_proposes_the_file_just_saved(tmp_path: Path) -> None:
    @run_async
    async def save_then_load() -> None:
        path = tmp_path / "mine.txt"
        first = PlayScreen(PlayedGame(C4.start(), None, None), clock=lambda: 0.0)
        async with app_with("connect4", lambda: first).run_test(size=(100, 30)) as pilot:
            await pilot.press("w")
            prompt_field(first).value = str(path)
            await pilot.press("enter")
            assert path.exists()
        second = PlayScreen(PlayedGame(C4.start(), None, None), clock=lambda: 0.0)
        async with app_with("connect4", lambda: second).run_test(size=(100, 30)) as pilot:
            await pilot.press("o")
            assert prompt_field(second).value == str(path)

    save_then_load()


@run_async
async def test_the_setup_form_shows_the_new_algorithms_parameters_at_once() -> None:
    from textual.widgets import Select

    app = make_app(algorithm="rivest")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        form.query_one("#game", Select).value = "nim"
        from plyscope.engine.search.registry import algorithm as info

        def shown() -> bool:
            labels = [str(label.render()) for label in form.query("#params Label").results()]
            algorithm = form.query_one("#algorithm", Select).value
            return labels == [param.name for param in info(str(algorithm)).params]

        await wait_until(pilot, shown, "the new algorithm's parameters in the form")
        await pilot.pause()  # (the new fields mounted before the app ends: a Select mounting at its end fails)


# --- styles -----------------------------------------------------------------------------------------


def test_each_screen_stylesheet_holds_only_rules_for_its_screen() -> None:
    """Textual loads a screen's CSS_PATH for the whole app: an unscoped ``#tree`` reached every screen."""
    screens = {
        "explore.tcss": ("ExploreScreen",),
        "play.tcss": ("PlayScreen",),
        "side_by_side.tcss": ("CompareScreen", "CompareMatchScreen"),
    }
    for name, classes in screens.items():
        css = re.sub(r"/\*.*?\*/", "", (ROOT / "tui" / "screens" / name).read_text(), flags=re.S)
        selectors = [part.strip() for rule in re.findall(r"([^{}]+)\{", css) for part in rule.split(",")]
        assert selectors and all(selector.startswith(tuple(f"{cls} " for cls in classes)) for selector in selectors), (
            name,
            selectors,
        )


def test_screen_modules_hold_layout_and_actions_only() -> None:
    """A screen module holds its layout and its actions, a component module one behaviour: at most 330 lines each, as
    ``wc -l`` counts them (300 while base classes did part of the screens' wiring: each screen now composes its
    components, hands them its size and hears their messages itself)."""
    modules = sorted([*(ROOT / "tui" / "screens").glob("*.py"), *(ROOT / "tui" / "components").glob("*.py")])
    assert len(modules) >= 16
    lines = {module.name: module.read_text().count("\n") for module in modules}
    assert all(count <= 330 for count in lines.values()), lines


def test_screens_and_components_are_no_tower() -> None:
    """Each screen is a direct subclass of a Textual screen; each component of ``Component`` (the explorer's timeline of
    ``Timeline``), taking what it needs as arguments or by query: nothing is left for a subclass to supply."""
    import importlib
    import inspect
    import pkgutil

    from textual.screen import Screen

    from plyscope.tui import components, screens
    from plyscope.tui.components.base import Component

    classes = [
        cls
        for package in (screens, components)
        for info in pkgutil.iter_modules(package.__path__)
        for _, cls in inspect.getmembers(importlib.import_module(f"{package.__name__}.{info.name}"), inspect.isclass)
        if cls.__module__.startswith(f"{package.__name__}.")
    ]
    ours = [cls for cls in classes if issubclass(cls, Screen | Component) and cls is not Component]
    assert len(ours) >= 16
    for cls in ours:
        above = [base for base in cls.__mro__[1:] if base.__module__.startswith("plyscope.")]
        if issubclass(cls, Component):  # (a component, or a variant of one)
            assert above[-1] is Component and len(above) <= 2, (cls, above)
        else:
            assert not above, (cls, above)
    for folder in ("screens", "components"):
        for module in (ROOT / "tui" / folder).glob("*.py"):
            assert "NotImplementedError" not in module.read_text(), module


@run_async
async def test_a_terminal_too_small_is_told_so() -> None:
    app = PlyscopeApp(make_app().session, clock=lambda: 0.0)
    async with app.run_test(size=(50, 15)) as pilot:
        await pilot.pause()
        text = str(app.screen.query_one("#too-small", Static).render())
        assert "at least 60 x 18" in text and "50 x 15" in text


@run_async
async def test_the_command_palettes_own_race_is_not_a_crash() -> None:
    """Textual's palette, closed as its search worker starts, fails to find its list: found in long random
    key sequences ('a', then escape at once). The real failure, from the real worker, is recognised."""
    from textual.command import CommandPalette
    from textual.css.query import NoMatches
    from textual.worker import WorkerFailed

    from plyscope.tui.app import closed_palette_race

    palette = CommandPalette()  # never mounted: its list cannot be found, as once it is closed
    with pytest.raises(NoMatches) as raised:
        await CommandPalette._gather_commands.__wrapped__(palette, "x")  # type: ignore[attr-defined]
    assert closed_palette_race(WorkerFailed(raised.value))
    assert not closed_palette_race(WorkerFailed(KeyError("other")))
    assert not closed_palette_race(RuntimeError("other"))


# --- issue 12 in the app: the bars and the form refuse what the command line refuses --------------------


@run_async
async def test_the_position_bar_refuses_unicode_digits_inline() -> None:
    app = make_app(game="nim", algorithm="pns")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        before = screen.session
        await pilot.press("p")
        prompt_field(screen).value = "3,\u00b2"
        await pilot.press("enter")
        assert prompt_error(screen) == "pile '\u00b2' is not a whole number of tokens"
        assert screen.session is before


def test_the_load_bar_refuses_a_named_pipe_at_once(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    @run_async
    async def load() -> None:
        screen = PlayScreen(PlayedGame(C4.start(), None, None), clock=lambda: 0.0)
        async with app_with("connect4", lambda: screen).run_test() as pilot:
            await pilot.press("o")
            prompt_field(screen).value = str(fifo)
            await pilot.press("enter")
            assert prompt_error(screen) == f"{fifo} is a named pipe, not a file: it cannot be a saved game"

    load()

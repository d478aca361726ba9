"""Snapshots of the main views (``pytest --snapshot-update`` rewrites them after a deliberate change).

Deterministic: minimax (no randomness), a fixed seed, and a clock that never moves (no rate shown).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.worker import WorkerState

from plyscope.engine.agents import Agent
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.contest import compared_agents
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.compare_match import CompareMatchScreen
from plyscope.tui.screens.play import PlayScreen
from tests.tui.contest_helpers import app_with, repainted, wait_until
from tests.tui.helpers import make_app, settle

SnapCompare = Callable[..., bool]


def keys_then_settle(*keys: str) -> Callable[[Pilot[None]], object]:
    async def run_before(pilot: Pilot[None]) -> None:
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return run_before


def test_explorer_at_the_start(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_explorer_after_111_steps(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=keys_then_settle("s", "d", "f"))


def test_explorer_wide_on_a_position(snap_compare: SnapCompare) -> None:
    app = make_app(position="4453", params={"depth": 3})
    assert snap_compare(app, terminal_size=(130, 36), run_before=keys_then_settle("f", "f"))


def test_explorer_on_grundys_game(snap_compare: SnapCompare) -> None:
    app = make_app(game="grundy", position="9", params={"depth": 6})
    assert snap_compare(app, terminal_size=(80, 24), run_before=keys_then_settle("f"))


def test_help_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 40), press=["question_mark"])


def test_setup_form(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 36), press=["e"])


# --- the play and compare screens (deterministic agents with budgets in moves) ------------


def playing(position: str, first: str, second: str) -> tuple[PlayScreen, PlyscopeApp]:
    sides = [None if text == "human" else Agent(AgentSpec.parse(text), Limit(moves=1000)) for text in (first, second)]
    played = PlayedGame(make_game("connect4").parse(position), sides[0], sides[1])
    screen = PlayScreen(played, clock=lambda: 0.0)
    return screen, app_with("connect4", lambda: screen)


def comparing(position: str, specs: list[str], moves: int) -> tuple[CompareScreen, PlyscopeApp]:
    game = make_game("connect4")
    total = Limit(moves=moves)
    screen = CompareScreen(game.parse(position), compared_agents(specs, total, game), total, clock=lambda: 0.0)
    return screen, app_with("connect4", lambda: screen)


def test_play_against_an_agent(snap_compare: SnapCompare) -> None:
    screen, app = playing("", "human", "minimax:depth=2")

    async def run_before(pilot: Pilot[None]) -> None:
        for key in "4", "3":
            await pilot.press(key)
            await wait_until(pilot, lambda: not screen.thinking, "the agent's move")
        await repainted(pilot)

    # Tall enough for the whole tree: a follow-mode scroll would make the scroll bar depend on timing.
    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)


def test_play_with_the_solvers_analysis(snap_compare: SnapCompare) -> None:
    screen, app = playing("5554224333234511764415115", "minimax:depth=2", "human")

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.press("a")
        await wait_until(pilot, lambda: screen.analysis is not None and screen.analysis.done, "the analysis")
        await repainted(pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


def test_compare_after_a_run(snap_compare: SnapCompare) -> None:
    screen, app = comparing("243335424257", ["rivest", "mcts:k=2", "alphabeta:depth=4"], 2000)

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await wait_until(
            pilot,
            lambda: not screen.searches.searching and screen.analysis is not None and screen.analysis.done,
            "the run and the solver",
        )
        await repainted(pilot)

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_compare_a_match_played_out(snap_compare: SnapCompare) -> None:
    _, app = comparing("5554224333234511764415115", ["minimax:depth=2", "alphabeta:depth=3"], 500)

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.press("m")

        def over() -> bool:
            """The match (a screen over the comparison) over, and every thread of its screen ended."""
            match = pilot.app.screen
            if not isinstance(match, CompareMatchScreen):
                return False
            settled = all(worker.state not in (WorkerState.PENDING, WorkerState.RUNNING) for worker in match.workers)
            return match.runner.played.is_over() and settled

        await wait_until(pilot, over, "the match's end")
        await repainted(pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)

"""Phase mode in the explorer and in compare: ``i`` turns it on, ``s`` tells one phase, ``,`` and ``.`` move one."""

from __future__ import annotations

from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.search.montecarlo.mcts import MctsNode
from plyscope.engine.search.registry import make_searcher
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.components.phases import PHASES_DESCRIPTION
from plyscope.tui.contest import compared_agents
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.reading_guide import ReadingGuide
from plyscope.tui.widgets.search_pane import SearchPane
from tests.engine.test_phases import fingerprint
from tests.tui.contest_helpers import wait_until
from tests.tui.helpers import assert_key_offered, explorer, make_app, run_async, settle


def guide_text(app: PlyscopeApp) -> str:
    return str(app.screen.query_one(ReadingGuide).render())


@run_async
async def test_s_tells_an_mcts_iteration_as_its_four_phases_and_they_make_the_step() -> None:
    app = make_app(algorithm="mcts", position="4453", seed=4)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("s", "s", "s")
        await settle(pilot)
        await pilot.press("i")
        told = []
        for _ in range(4):
            await pilot.press("s")
            await settle(pilot)
            told.append(guide_text(app))
        assert [text.split(":")[0] for text in told] == ["selection", "expansion", "simulation", "backpropagation"]
        assert "UCB1" in told[0] and "n " in told[3] and "→" in told[3]
        session = explorer(pilot).session
        assert (session.step_shown, session.phases_shown) == (4, 0)
        stepped = make_searcher("mcts", make_game("connect4").parse("4453"), {}, seed=4)
        for _ in range(4):
            stepped.step()
        assert fingerprint(session.searcher) == fingerprint(stepped)
        assert "phase mode" in str(app.screen.query_one("#status").render())


@run_async
async def test_the_simulation_draws_its_playout_on_the_board() -> None:
    app = make_app(algorithm="mcts", position="4453", seed=4)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("i", "s", "s", "s")
        await settle(pilot)
        pane = app.screen.query_one(SearchPane)
        phase = pane.phase
        assert phase is not None and phase.name == "simulation" and phase.line
        board = app.screen.query_one(Board)
        leaf = phase.path[-1]
        assert isinstance(leaf, MctsNode)
        playout = (*leaf.moves(), *phase.line)  # drawn a move at a time: waited for, whatever the machine's load
        await wait_until(pilot, lambda: board.line == playout, "the whole playout drawn on the board")
        assert board.border_title == "phase: simulation"
        assert board.border_subtitle == f"playout: {len(phase.line)} of {len(phase.line)} moves"


@run_async
async def test_comma_and_full_stop_move_one_phase_along_the_timeline() -> None:
    app = make_app(algorithm="bestfirst", position="4453")
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("i", "s", "s", "s", "s")
        await settle(pilot)
        session = explorer(pilot).session
        assert (session.step_shown, session.phases_shown) == (1, 1)
        assert guide_text(app).startswith("tip:")
        after_tip = fingerprint(session.searcher)
        await pilot.press("comma")
        await settle(pilot)
        assert (session.step_shown, session.phases_shown) == (1, 0)
        await pilot.press("comma")
        await settle(pilot)
        assert (session.step_shown, session.phases_shown) == (0, 2)
        assert guide_text(app).startswith("expansion:")
        await pilot.press("full_stop", "full_stop")
        await settle(pilot)
        assert (session.step_shown, session.phases_shown) == (1, 1)
        assert fingerprint(session.searcher) == after_tip
        await pilot.press("i")  # off: the step under way is done
        await settle(pilot)
        assert (session.step_shown, session.phases_shown) == (2, 0)
        assert not guide_text(app).startswith("tip:")


@run_async
async def test_going_back_a_phase_tells_a_steps_end_as_going_forward_told_it() -> None:
    """Issue 36, 12: ``,`` from a step's first phase landed on an unlabelled ``step 1``, which ``s`` had told as
    ``backpropagation``: the same state is told the same way both ways."""
    app = make_app(algorithm="mcts", position="4453", seed=4)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("i", "s", "s", "s", "s")
        await settle(pilot)
        session, pane = explorer(pilot).session, app.screen.query_one(SearchPane)
        status = app.screen.query_one("#status")
        forward = (session.step_shown, session.phases_shown, pane.phase, guide_text(app), str(status.render()))
        assert forward[:2] == (1, 0) and forward[2] is not None and forward[2].name == "backpropagation"
        assert "phase mode (i: off): backpropagation" in forward[4]
        await pilot.press("s", "comma")
        await settle(pilot)
        back = (session.step_shown, session.phases_shown, pane.phase, guide_text(app), str(status.render()))
        assert back[2] is not None and back[2].name == "backpropagation"
        assert back[:2] == forward[:2] and back[3:] == forward[3:]


@run_async
async def test_alpha_beta_on_the_classic_tree_names_its_cut_off_in_the_guide() -> None:
    app = make_app(algorithm="alphabeta", game="tree", position="classic", params={"start_depth": 3})
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("i")
        told = []
        for _ in range(11):
            await pilot.press("s")
            await settle(pilot)
            told.append(guide_text(app))
        assert any("beta 2 <= alpha 3 at ● C: the rest of its children (2) are never searched" in t for t in told)


@run_async
async def test_compare_tells_one_phase_of_every_pane_in_lockstep() -> None:
    state = make_game("connect4").parse("4453")
    total = Limit(moves=1000)
    agents = compared_agents(["mcts", "rivest"], total, state.game)
    app = make_app(position="4453")
    async with app.run_test(size=(160, 44)) as pilot:
        await app.push_screen(CompareScreen(state, agents, total))
        await settle(pilot)
        await pilot.press("i", "s")
        await settle(pilot)
        panes = list(app.screen.query(SearchPane).results(SearchPane))
        assert [pane.phase.name if pane.phase else None for pane in panes] == ["selection", "tip"]
        assert all(pane.has_class("-phases") for pane in panes)
        await pilot.press("s", "s")
        await settle(pilot)
        assert [pane.phase.name if pane.phase else None for pane in panes] == ["simulation", "back-up"]
        sessions = [pane.session for pane in panes]
        assert [(s.step_shown, s.phases_shown) for s in sessions if s] == [(0, 3), (1, 0)]


@run_async
async def test_the_key_is_in_the_help_and_the_palette() -> None:
    await assert_key_offered("i", PHASES_DESCRIPTION)

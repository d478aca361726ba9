"""The compare screen driven by the Pilot: lockstep steps and runs at equal budgets, the solver's verdicts,
a match played to its end, choosing the agents, and the way in from the explorer."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, Node
from plyscope.engine.seeds import turn_seed
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.cli import main, parse_arguments
from plyscope.tui.contest import agent_session, compared_agents, step_together
from plyscope.tui.match import MatchRunner
from plyscope.tui.screens.compare import COMPARE_MOVES, CompareScreen
from plyscope.tui.screens.compare_match import CompareMatchScreen
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.widgets.boards.connect4 import Connect4Board
from plyscope.tui.widgets.prompt_bar import PromptBar
from tests.tui.contest_helpers import app_with, prompt_error, prompt_field, wait_until
from tests.tui.helpers import explorer, make_app, run_async

C4 = make_game("connect4")
END_GAME = "5554224333234511764415115"
"""Pons' score 4 for the player to move: only column 6 wins (the solver scores every other column -8)."""
MIDDLE_GAME = "243335424257"
"""A position the solver scores at once, with room for the searchers to grow their trees."""


def comparing(position: str, specs: Sequence[str], moves: int, seed: int = 0) -> tuple[CompareScreen, PlyscopeApp]:
    total = Limit(moves=moves)
    state = C4.parse(position)
    screen = CompareScreen(state, compared_agents(specs, total, C4), total, seed=seed, clock=lambda: 0.0)
    return screen, app_with("connect4", lambda: screen)


def top(pilot: Pilot[None]) -> Screen[object]:
    """The screen on top (a function, so that type checkers do not keep an earlier narrowing)."""
    return pilot.app.screen


def in_match(pilot: Pilot[None]) -> MatchRunner | None:
    """The match on top, if one is (a function: type checkers keep no earlier narrowing)."""
    screen = pilot.app.screen
    return screen.runner if isinstance(screen, CompareMatchScreen) else None


def status(screen: CompareScreen | CompareMatchScreen) -> str:
    return str(screen.query_one("#status", Static).render())


async def idle(pilot: Pilot[None], screen: CompareScreen | CompareMatchScreen) -> None:
    """Wait for the search threads (not for the solver's analysis)."""
    await wait_until(pilot, lambda: not screen.searches.searching, "the searches")


@run_async
async def test_lockstep_steps_and_the_moves_each_spent() -> None:
    screen, app = comparing(MIDDLE_GAME, ["minimax:depth=2", "rivest", "mcts:k=2"], 5000)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("s")
        await idle(pilot, screen)
        # Minimax stepped (one move); MCTS caught up; Rivest's expansion (seven moves) did not fit in one.
        assert [s.searcher.stats.moves for s in screen.sessions] == [1, 0, 1]
        await pilot.press("d")
        await idle(pilot, screen)
        spent = [s.searcher.stats.moves for s in screen.sessions]
        assert max(spent) - min(spent) <= 7 and min(spent) >= 10
        rows = screen.summary_rows()
        assert [row[2] for row in rows] == [f"{s.searcher.stats.moves:,}" for s in screen.sessions]
        assert len(screen.panes) == 3 and [pane.border_title for pane in screen.panes] == [
            "A · minimax:depth=2",
            "B · rivest",
            "C · mcts:k=2",
        ]


@run_async
async def test_run_gives_every_agent_the_same_budget() -> None:
    screen, app = comparing(MIDDLE_GAME, ["rivest", "bestfirst"], 800)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("r")
        await idle(pilot, screen)
        for session in screen.sessions:
            moves = session.searcher.stats.moves
            assert moves <= 800 and session.ended
            assert session.searcher.step(800 - moves) is None  # the next step would go over the budget
        assert "■ every agent has spent its budget (or finished)" in status(screen)
        await pilot.press("s")
        assert "every agent has spent its budget (or finished): x starts again" in status(screen)
        await pilot.press("x")
        assert [s.searcher.stats.moves for s in screen.sessions] == [0, 0]


@run_async
async def test_the_summary_says_which_agents_find_the_solvers_best_move() -> None:
    screen, app = comparing(END_GAME, ["minimax:depth=1", "alphabeta:depth=4"], 2000)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.analysis is not None and screen.analysis.done, "the solver")
        await idle(pilot, screen)
        for (letter, move, _, verdict), session in zip(screen.summary_rows(), screen.sessions, strict=True):
            best = session.searcher.best_move()
            assert isinstance(best, int) and move == str(best + 1)
            assert verdict.plain == ("+4 ✓" if best == 5 else "-8 ✗"), letter
        assert screen.query_one(Connect4Board).notes == (("-8", "loss"),) * 4 + (
            ("", ""),
            ("+4", "win best"),
            ("-8", "loss"),
        )


@run_async
async def test_a_match_is_played_to_its_end_with_both_trees_live() -> None:
    screen, app = comparing(END_GAME, ["minimax:depth=2", "alphabeta:depth=3"], 500, seed=4)
    async with app.run_test(size=(120, 36)) as pilot:
        compared = list(screen.sessions)
        await pilot.press("m")
        await wait_until(pilot, lambda: (runner := in_match(pilot)) is not None and runner.played.is_over(), "its end")
        match_screen = top(pilot)
        assert isinstance(match_screen, CompareMatchScreen)
        await idle(pilot, match_screen)
        match = match_screen.runner.played
        # The second player is to move at the position, so B (alphabeta) moves first there.
        assert (match.first, match.second) == (screen.agents[1], screen.agents[0])
        state = C4.parse(END_GAME)
        for move in match.moves:  # every move is what that agent decides afresh with the turn's seed
            mover = match.controller(state.player)
            assert mover is not None and mover.decide(state, turn_seed(4, state.ply)).move == move
            state = state.play(move)
        assert state == match.state and state.is_terminal()
        winner = state.winner()
        if winner:
            letter = "A" if match.controller(winner) is screen.agents[0] else "B"
            assert f"player ({letter}) won" in status(match_screen)
        else:
            assert "■ a draw" in status(match_screen)
        panes = match_screen.panes
        assert all(pane.session not in compared for pane in panes)  # both panes show their agent's match turns
        assert panes[0].session is not panes[1].session
        await pilot.press("m")
        await pilot.pause()
        assert in_match(pilot) is None and top(pilot) is screen and [pane.session for pane in screen.panes] == compared
        assert "back to the comparison" in status(screen)


@run_async
async def test_the_match_keeps_the_live_setting_and_leaves_for_other_agents() -> None:
    """``l`` before ``m`` plays the match at full speed; ``a`` in the match leaves it for a comparison of the agents
    typed, and the comparison keeps the setting changed there."""
    screen, app = comparing(MIDDLE_GAME, ["minimax:depth=1", "rivest"], 200)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("l", "m")
        await pilot.pause()
        match = top(pilot)
        assert isinstance(match, CompareMatchScreen) and not match.searches.live and len(match.panes) == 2
        await pilot.press("s")
        assert "a match is on: m leaves it" in status(match)
        await pilot.press("l", "a")
        assert prompt_field(match).value == "minimax:depth=1 rivest"
        prompt_field(match).value = "rivest mcts alphabeta:depth=2"
        await pilot.press("enter")
        await wait_until(pilot, lambda: top(pilot) is screen and len(screen.panes) == 3, "the new comparison")
        assert screen.searches.live and [pane.border_title for pane in screen.panes] == [
            "A · rivest",
            "B · mcts",
            "C · alphabeta:depth=2",
        ]


@run_async
async def test_choosing_the_agents_in_the_bar() -> None:
    screen, app = comparing(MIDDLE_GAME, ["minimax:depth=2", "rivest"], 1000)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("a")
        field = prompt_field(screen)
        assert field.value == "minimax:depth=2 rivest"
        for text, error in (
            ("minimax", "compare takes 2 to 4 agents, not 1"),
            ("minimax human", "compare is for agents: play against one with plyscope play"),
            ("minimax mcts:k=0", "parameter k: 0 is below its range 1..65536"),
        ):
            field.value = text
            await pilot.press("enter")
            assert prompt_error(screen) == error
            assert len(screen.panes) == 2
        field.value = "minimax:depth=1 minimax:depth=1 alphabeta mcts"
        await pilot.press("enter")
        await pilot.pause()
        assert [pane.border_title for pane in screen.panes] == [
            "A · minimax:depth=1",
            "B · minimax:depth=1 #2",
            "C · alphabeta",
            "D · mcts",
        ]
        assert len(screen.sessions) == 4 and not screen.query_one(PromptBar).is_open


@run_async
async def test_play_and_compare_open_from_the_explorer_and_escape_goes_back() -> None:
    app = make_app(position=MIDDLE_GAME)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("C")
        assert prompt_field(explorer(pilot)).value == "rivest"  # the explorer proposes a rival
        await pilot.press("enter")
        await pilot.pause()
        compare = top(pilot)
        assert isinstance(compare, CompareScreen)
        assert [a.label for a in compare.agents[:1]] == ["minimax"] and len(compare.agents) == 2
        assert compare.total == Limit(moves=COMPARE_MOVES) and compare.state == C4.parse(MIDDLE_GAME)
        await pilot.press("escape")
        assert isinstance(top(pilot), ExploreScreen)
        await pilot.press("P")
        play = top(pilot)
        assert isinstance(play, PlayScreen)
        assert play.played.start == C4.parse(MIDDLE_GAME) and play.played.first is None
        assert play.played.second is not None and play.played.second.label == "minimax"
        await pilot.press("escape")
        assert explorer(pilot).session.state == C4.parse(MIDDLE_GAME)


def test_the_command_line_refuses_bad_agents_with_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "4453", "--agents", "mcts"]) == 2
    assert capsys.readouterr().err == "plyscope compare: compare takes 2 to 4 agents, not 1\n"
    assert main(["compare", "4453", "--agents", "mcts", "rivest:moves=50"]) == 2
    assert capsys.readouterr().err == (
        "plyscope compare: agent 'rivest:moves=50': compared agents share one budget (--moves or --seconds); "
        "drop its moves= or seconds=\n"
    )
    assert main(["compare", "1212121", "--agents", "mcts", "rivest"]) == 2
    assert capsys.readouterr().err == (
        "plyscope compare: position '1212121': the game is already over there, nothing to compare\n"
    )


def lockstep(specs: Sequence[str], moves: int, steps: int) -> list[tuple[int, int]]:
    """Steps and moves of each of fresh sessions of ``specs`` on ``MIDDLE_GAME`` after ``steps`` lockstep steps."""
    total = Limit(moves=moves)
    sessions = [agent_session(agent, C4.parse(MIDDLE_GAME), 0) for agent in compared_agents(specs, total, C4)]
    for _ in range(steps):
        step_together(sessions, total)
    return [(s.searcher.stats.iterations, s.searcher.stats.moves) for s in sessions]


@run_async
async def test_step_keys_pressed_while_steps_are_taken_add_theirs() -> None:
    """``s d f s`` pressed while the first steps are taken: every pane ends at 112 lockstep steps, exactly where
    112 lockstep steps take fresh searches (no key cancels the steps of another); a reset drops those left."""
    specs = ["rivest", "mcts:k=2"]
    screen, app = comparing(MIDDLE_GAME, specs, 5000)

    def reached() -> list[tuple[int, int]]:
        return [(s.searcher.stats.iterations, s.searcher.stats.moves) for s in screen.sessions]

    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("s", "d", "f", "s")
        await idle(pilot, screen)
        assert reached() == lockstep(specs, 5000, 112)
        await pilot.press("f", "x", "s")  # the reset drops the steps still to take, then one more
        await idle(pilot, screen)
        assert reached() == lockstep(specs, 5000, 1)


@run_async
async def test_tree_lines_too_wide_for_a_narrow_pane_give_up_numbers_not_marks() -> None:
    """Issue 36, 8: a line cut at the pane's edge kept the cells under the scroll bar's gutter (``beta=493 prun…d=``
    where no bar was drawn over them) and lost its ``✂`` and ``◂``.  A line too wide keeps its move, truth column and
    marks, gives up its last whole numbers for an ellipsis, and nothing is drawn past its end."""
    screen, app = comparing(MIDDLE_GAME, ["alphabeta", "rivest", "mcts"], 5000)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("d")
        await idle(pilot, screen)
        whole = cut = 0
        for pane in screen.panes:
            tree = pane.search_tree
            shown = tree.scrollable_content_region  # (without the scroll bars, which cover the lines' ends)
            for y in range(shown.height):
                view = tree.get_node_at_line(tree.scroll_offset.y + y)
                if view is None or not isinstance(view.data, Node):
                    continue
                drawn = tree.render_line(y).text
                assert not drawn[shown.width :].strip(), f"drawn past the pane's edge: {drawn!r}"
                text = drawn[: shown.width].rstrip()
                label = str(view.label)
                if text.endswith(label):
                    whole += 1
                    continue
                record = tree._shown[view.data]
                head, _, marks = label.partition(record.numbers)
                assert text.endswith(f"{head}{text[text.index(head) + len(head) :].split('…')[0]}…{marks}"), text
                kept = text[text.index(head) + len(head) : text.rindex("…")]
                assert record.numbers.startswith(kept) and (not kept or kept.endswith(" ")), "a number cut in two"
                cut += 1
        assert whole and cut  # both kinds of line were on the screen


@run_async
async def test_no_piece_of_a_cut_line_is_left_where_the_scroll_bars_gutter_is_not_drawn_over() -> None:
    """The gutter reserved for a vertical scroll bar the screen does not draw (as a compare pane's tree had while it
    ran, issue 36, 8) is blank: no stale ``d=`` of ``pruned=`` after the ellipsis."""
    screen, app = comparing(MIDDLE_GAME, ["alphabeta", "rivest", "mcts"], 5000)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("d")
        await idle(pilot, screen)
        tree = screen.panes[0].search_tree
        tree.styles.scrollbar_gutter = "stable"  # a gutter two cells wide, whether a bar is drawn there or not
        await pilot.pause()
        width, shown = tree.size.width, tree.scrollable_content_region.width
        assert shown == width - tree.styles.scrollbar_size_vertical
        drawn = [tree.render_line(y).text for y in range(tree.size.height)]
        assert any("…" in line for line in drawn)
        for line in drawn:
            assert len(line) == width and not line[shown:].strip(), line


def diff_text(screen: Screen[object]) -> str:
    """What the diff screen shows, as text."""
    import io

    from rich.console import Console

    from plyscope.tui.screens.diff import DiffScreen

    assert isinstance(screen, DiffScreen)
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(screen.shown)
    return console.export_text()


@run_async
async def test_d_diffs_the_trees_of_panes_a_and_b() -> None:
    from plyscope.engine.tree_diff import diff_searchers
    from plyscope.tui.screens.diff import DiffScreen

    screen, app = comparing(MIDDLE_GAME, ["rivest", "rivest", "bestfirst"], 300)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("D")  # nothing searched yet: two roots alike
        await wait_until(pilot, lambda: isinstance(top(pilot), DiffScreen), "the diff")
        assert "the trees are identical" in diff_text(top(pilot))
        await pilot.press("escape")
        await pilot.press("r")
        await idle(pilot, screen)
        a, b, _ = screen.sessions
        assert diff_searchers(a.searcher, b.searcher).identical  # one algorithm, one seed: one tree
        screen.lockstep.sessions[1] = screen.sessions[2]  # B is now best-first's
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(top(pilot), DiffScreen), "the diff")
        shown = diff_text(top(pilot))
        diff = diff_searchers(a.searcher, screen.sessions[1].searcher)
        assert f"{len(diff.changed):,} in both with different numbers or work (≠)" in shown and diff.changed
        await pilot.press("escape")
        assert top(pilot) is screen


def test_l_typed_as_the_match_is_left_is_no_crash() -> None:
    """m leaves the match; an l queued for the match before it had gone ran its action once the match's searches
    were unmounted (``NoScreen``: the key fuzz found it): an action of a screen on its way out does nothing."""
    from plyscope.tui.commands.compare import app_for

    async def drive() -> None:
        app = app_for(parse_arguments(["compare", "-", "--agents", "rivest", "ab-rivest", "--match"]))
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            match = app.screen
            assert isinstance(match, CompareMatchScreen)
            await pilot.press("m")
            await wait_until(pilot, lambda: match not in app.screen_stack, "the match left")
            live = app.screen.searches.live if isinstance(app.screen, CompareScreen) else None
            match.action_toggle_live()  # (as a key queued for it would)
            await pilot.pause()
            assert isinstance(app.screen, CompareScreen) and app.screen.searches.live == live

    asyncio.run(drive())

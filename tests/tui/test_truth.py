"""The truth column (``T``): exact values on the tree's lines, found in the background while keys are answered."""

from __future__ import annotations

import itertools
import os
import threading
from unittest import mock

from textual.widgets import Static

from plyscope.engine.exact import Exact
from plyscope.engine.games import State
from plyscope.engine.kits import make_game
from plyscope.engine.kits.base import Number, Truth
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import Node
from plyscope.engine.truth import Judgement, work_shares
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.cli import build_parser
from plyscope.tui.commands import explore as explore_command
from plyscope.tui.components.truth import TRUTH_DESCRIPTION
from plyscope.tui.formatting import TRUTH_PENDING, TRUTH_UNSETTLED, truth_words
from plyscope.tui.session import SearchConfig, Session
from plyscope.tui.web import session
from plyscope.tui.widgets.search_pane import SearchPane, share_cells
from plyscope.tui.widgets.search_tree import FOOLED_MARK, SearchTree, truth_column
from plyscope.tui.widgets.stats import FigureGrid
from tests.engine.test_truth import HeldLoad
from tests.pons import pons_positions
from tests.tui.contest_helpers import PATIENCE, wait_until
from tests.tui.helpers import (
    assert_key_offered,
    explorer,
    keys_without_idle_waits,
    make_app,
    run_async,
    settle,
    view_of,
)


def label(tree: SearchTree, node: Node) -> str:
    view = view_of(tree, node)
    assert view is not None
    return str(view.label)


@run_async
async def test_the_column_shows_each_nodes_exact_value_and_goes_away() -> None:
    app = make_app(game="nim", position="3,4,5", algorithm="alphabeta")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("d")
        await settle(pilot)
        tree = screen.query_one(SearchTree)
        assert "[" not in str(tree.border_title)
        await pilot.press("T")
        await settle(pilot)
        await pilot.pause()
        searcher = screen.session.searcher
        oracle = Exact()
        shown = [node for node in searcher.walk() if view_of(tree, node) is not None and node.parent is not None]
        assert len(shown) > 3
        for node in shown:
            state = searcher.state_at(node)
            words = truth_column(truth_words(oracle.truth(state), state, oracle))
            assert label(tree, node).startswith(f"{label(tree, node).split(' [')[0]}{words} ")
        root = searcher.root_state
        assert str(tree.border_title).startswith(f"root{truth_column(truth_words(oracle.truth(root), root, oracle))} ")
        assert "truth column on" in str(screen.query_one("#status", Static).render())
        await pilot.press("T")
        await pilot.pause()
        assert all("[" not in label(tree, node) for node in shown)


def busy(pane: SearchPane) -> bool:
    """Whether the pane's truth worker is finding values."""
    return pane._truth_busy


class HeldOracle(Exact):
    """A door to exact values whose first value waits until the test lets it go: the worker is surely busy
    meanwhile."""

    def __init__(self) -> None:
        super().__init__(budget=20_000, table=1 << 16)
        self.go = threading.Event()

    def truth(self, state: State, *, at_least: Number | None = None, budget: int | None = None) -> Truth:
        self.go.wait(PATIENCE)  # (a bound, that a test which fails does not hang)
        return super().truth(state, at_least=at_least, budget=budget)

    def quick(self, state: State) -> Truth | None:
        self.go.wait(PATIENCE)
        return super().quick(state)


@run_async
async def test_keys_are_answered_while_the_truth_is_being_found() -> None:
    app = make_app(game="connect4", position="4453", algorithm="alphabeta")
    oracle = app.exact = HeldOracle()
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("d")
        await settle(pilot)
        pane = screen.query_one(SearchPane)
        tree = pane.search_tree
        with keys_without_idle_waits():
            await pilot.press("T")
            await pilot.pause()
            follow = tree.follow
            await pilot.press("o")
            await pilot.pause()
            assert tree.follow is not follow  # the key acted ...
            assert busy(pane)  # ... while the worker was still solving
            await pilot.press("s")
            await pilot.pause()
            assert screen.session.searcher.stats.iterations == 11
        oracle.go.set()
        for _ in range(50):  # a worker ended starts the next on the lines added meanwhile
            await settle(pilot)
            await pilot.pause()
            if not busy(pane):
                break
        assert not busy(pane)
        assert tree.awaiting_truth() == []  # every line settled, or "…"
        searcher = screen.session.searcher
        assert all(TRUTH_PENDING not in label(tree, node) for node in searcher.root.children)


@run_async
async def test_chance_refuses_the_column() -> None:
    app = make_app(game="connect4-chance", position="4454", algorithm="mcts")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("T")
        await pilot.pause()
        assert not screen.query_one(SearchTree).truth
        said = str(screen.query_one("#status", Static).render())
        assert "has expected values, not exact ones (and no opening book)" in " ".join(said.split())


@run_async
async def test_the_key_is_in_the_help_and_the_palette() -> None:
    await assert_key_offered("T", TRUTH_DESCRIPTION)


@run_async
async def test_the_fooled_nodes_of_the_principal_variation_are_marked_and_the_head_says_so() -> None:
    app = make_app(game="grundy", position="13", algorithm="minimax", params={"depth": 3})
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        pane = screen.query_one(SearchPane)
        await pilot.press("f", "f")
        await settle(pilot)
        await pilot.press("T", "v")
        for _ in range(50):
            await settle(pilot)
            await pilot.pause()
            if not busy(pane) and not pane.search_tree.awaiting_truth():
                break
        searcher = screen.session.searcher
        line = searcher.nodes_along(searcher.principal_variation())
        assert len(line) == 4
        oracle = Exact()
        values = oracle.values(searcher.root_state.game)
        judged = [
            Judgement.of(
                [oracle.truth(searcher.state_at(child)) for child in node.children],
                searcher.state_at(node).player,
                node.children.index(chosen),
                values,
            ).optimal
            for node, chosen in itertools.pairwise(line)
        ]
        assert judged == [False, False, True]  # the root's move and the reply below it lose; the last is right
        assert [label(pane.search_tree, node).endswith(FOOLED_MARK) for node in line[1:3]] == [True, False]
        head = str(pane.query_one("#head", Static).render())
        assert "✗ not optimal (1 of 6 moves are)" in head


@run_async
async def test_an_optimal_best_move_is_said_to_be() -> None:
    app = make_app(game="nim", position="1,2,3", algorithm="minimax", params={"depth": 1})
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        pane = screen.query_one(SearchPane)
        await pilot.press("d", "T")
        await settle(pilot)
        await pilot.pause()
        assert "✓ optimal (6 of 6 moves are)" in str(pane.query_one("#head", Static).render())
        cells = dict(pane.query_one(FigureGrid).cells)
        assert (cells["optimal"], cells["losing work"]) == ("yes, 6 of 6", "100% moves")  # nim-sum 0: all lose
        sparkline = pane.query_one("#value-label", Static)
        assert str(sparkline.render()) == "losing work 100% (100%..100%) over the run"  # the sparkline's line
        await pilot.press("T")
        await pilot.pause()
        assert str(sparkline.render()).startswith("root value ")
        assert "optimal" not in str(pane.query_one("#head", Static).render())
        assert "optimal" not in dict(pane.query_one(FigureGrid).cells)


@run_async
async def test_a_pane_whose_tree_has_gone_looks_for_no_truth() -> None:
    """Found by the key fuzz: a ``find_truths`` called after a refresh, once the pane's screen had gone."""
    app = make_app(game="nim", position="3,4,5")
    async with app.run_test() as pilot:
        pane = explorer(pilot).query_one(SearchPane)
        await pane.search_tree.remove()
        pane.find_truths()  # NoMatches before: it asked for the tree it no longer has


@run_async
async def test_a_fooled_node_off_the_principal_variation_is_marked_too() -> None:
    """Every line shown is judged by its searcher's preferred child (``Searcher.preferred_child``), not only the
    principal variation's: the marks are exactly the nodes shown whose preferred child is known to be worse than a
    sibling (values from an oracle of its own)."""
    app = make_app(game="grundy", position="13", algorithm="minimax", params={"depth": 3})
    async with app.run_test(size=(120, 60)) as pilot:
        screen = explorer(pilot)
        pane = screen.query_one(SearchPane)
        tree = pane.search_tree
        await pilot.press("f", "f")
        await settle(pilot)
        searcher = screen.session.searcher
        for child in searcher.root.children:  # every root move's replies shown
            tree.reveal_moves([child.move, child.children[0].move] if child.children else [child.move])
        await pilot.press("T")
        for _ in range(50):
            await settle(pilot)
            await pilot.pause()
            if not busy(pane) and not tree.awaiting_truth():
                break
        oracle = Exact()
        values = oracle.values(searcher.root_state.game)
        line = set(searcher.nodes_along(searcher.principal_variation()))
        marked = {node for node in tree.shown()[1:] if label(tree, node).endswith(FOOLED_MARK)}
        expected = set()
        for node in tree.shown()[1:]:  # (the root's choice is judged on the head line)
            chosen = searcher.preferred_child(node)
            shown_children = [child for child in node.children if view_of(tree, child) is not None]
            if chosen is None or chosen not in shown_children:
                continue
            truths = [
                oracle.truth(searcher.state_at(child)) if child in shown_children else None for child in node.children
            ]
            chooser = searcher.state_at(node).player
            if Judgement.of(truths, chooser, node.children.index(chosen), values).optimal is False:
                expected.add(node)
        assert marked == expected
        assert marked - line, "some fooled node off the principal variation"


@run_async
async def test_the_first_values_show_before_the_compiled_solver_has_loaded() -> None:
    moves, _ = pons_positions("Test_L2_R1", 1)[0]
    app = make_app(game="connect4", position=moves, algorithm="alphabeta")
    held = HeldLoad()
    oracle = app.exact = Exact(table=1 << 16)
    with mock.patch("plyscope.engine.solver.values.Connect4Solver", held):
        async with app.run_test() as pilot:
            screen = explorer(pilot)
            await pilot.press("d")
            await settle(pilot)
            pane = screen.query_one(SearchPane)
            await pilot.press("T")
            await wait_until(
                pilot,
                lambda: any(truth.settled for node, (truth, _) in pane._truths.items() if isinstance(node, Node)),
                "a value found by the pure Python kernel",
            )
            loading = oracle.prepare(screen.session.searcher.root_state.game)
            assert loading is not None and not loading.done()  # still held ...
            found = [(node, truth) for node, (truth, _) in pane._truths.items() if isinstance(node, Node)]
            assert any(truth.settled for _, truth in found)  # ... and values are on the tree
            held.go.set()
            searcher = screen.session.searcher
            for node, truth in found:  # the pure Python kernel's values are the compiled solver's
                assert not truth.settled or truth.score == Exact(table=1 << 16).truth(searcher.state_at(node)).score
            await wait_until(pilot, lambda: not busy(pane), "the truth worker's end")
            assert pane.search_tree.awaiting_truth() == []


@run_async
async def test_a_pane_loads_the_solver_ahead_of_the_column_but_not_in_a_served_session() -> None:
    app = make_app(game="connect4", position="4453")
    oracle = app.exact = Exact(table=1 << 16)
    with (
        mock.patch("plyscope.tui.widgets.search_pane.LOAD_AHEAD_SECONDS", 0.05),
        mock.patch.object(oracle, "prepare", wraps=oracle.prepare) as prepare,
    ):
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: prepare.called, "the solver's load ahead")
            prepare.assert_called_with(app.session.searcher.root_state.game)
    with (
        mock.patch.dict(os.environ),
        mock.patch("plyscope.engine.processes.end_with_parent"),
        mock.patch("resource.setrlimit"),
        mock.patch("plyscope.tui.web.session.rename"),
        mock.patch("plyscope.tui.cli.main", return_value=0) as explore,
    ):
        assert session.main(["1", "2048", "explore", "--algo", "mcts"]) == 0
    explore.assert_called_once_with(["explore", "--algo", "mcts", "--solver-on-demand"])
    served = explore_command.app_for(build_parser().parse_args(["explore", "--solver-on-demand"]))
    assert not served.exact.load_ahead and app.exact.load_ahead


@run_async
async def test_a_searcher_that_proves_values_settles_the_column_and_the_head_line() -> None:
    """Issue 36, 6: the solver beside an oracle that cannot settle its root moves (here: one solver node a position)
    showed every child's exact score while the head line said ``optimal? (0 of 7 settled)``.  What the search proved is
    the column's truth, the oracle's own values agreeing."""
    position = "52753311433677442422121"  # 23 stones: the solver ends in a fraction of a second
    app = make_app(game="connect4", position=position, algorithm="solver")
    app.exact = Exact(budget=1, table=1 << 16)
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        pane = screen.query_one(SearchPane)
        await pilot.press("T", "r")
        searcher = screen.session.searcher
        for _ in range(600):
            await settle(pilot)
            if searcher.finished and not busy(pane):
                break
        assert searcher.finished
        await pilot.pause()
        oracle = Exact()
        for child in searcher.root.children:  # every root move's exact score, from the solver's proof
            state = searcher.state_at(child)
            words = truth_words(oracle.truth(state), state, oracle)
            shown, column = label(pane.search_tree, child), truth_column(words)
            assert shown.startswith(f"{shown.split(' [')[0]}{column} ")
        head = str(pane.query_one("#head", Static).render())
        assert "settled" not in head and "✓ optimal (" in head
        cells = dict(pane.query_one(FigureGrid).cells)
        assert cells["optimal"].startswith("yes, ")


def test_the_stats_say_the_losing_share_is_unknown_while_work_is_below_an_unsettled_move() -> None:
    """Issue 36, 7: ``optimal ?`` beside ``losing work 0% moves`` with nothing settled: unknown is ``?``, never 0%."""
    root = Node(None, None)
    for move in (1, 2):
        root.add_child(Node(root, move))
    loses = Truth(PovScore(1, -1))  # for the player to move after it: the opponent wins
    nim = Exact().values(make_game("nim"))
    unknown = dict(share_cells(work_shares(root, [1, 2], 1, [None, None], 1, nim)))
    assert unknown == {"optimal": "?", "losing work": "?"}
    assert dict(share_cells(work_shares(root, [1, 2], 1, [loses, None], 1, nim)))["losing work"] == "?"
    assert dict(share_cells(work_shares(root, [1, 2], 1, [loses, loses], 1, nim)))["losing work"] == "100% moves"
    no_work = work_shares(Node(None, None), [1], None, [None], 1, nim)
    assert dict(share_cells(no_work))["losing work"] == "–"  # no work yet


@run_async
async def test_from_the_empty_board_every_line_of_up_to_12_stones_settles_and_the_head_line_is_complete() -> None:
    """Issue 39, 4: on a tree from the empty board the column showed ``…`` on every line and the head line ``optimal?
    (0 of 7 settled)``.  A position of at most 12 stones is settled whatever the budget (a search down to the opening
    book; the empty board and its moves from the table of early scores): here one solver node a position, which
    settles nothing past the book."""
    searched = Session.create(SearchConfig(position="", algorithm="rivest", budget=None, node_cap=3_000))
    searched.take(None)
    app = PlyscopeApp(searched, clock=lambda: 0.0)
    app.exact = Exact(budget=1, table=1 << 16)
    async with app.run_test() as pilot:
        pane = explorer(pilot).query_one(SearchPane)
        tree = pane.search_tree
        tree.reveal_moves(searched.searcher.principal_variation())
        await pilot.press("T")

        def early_lines() -> list[str]:
            return [truth for node, truth in zip(tree.shown(), tree.truths(), strict=True) if node.depth <= 12]

        await wait_until(
            pilot, lambda: TRUTH_PENDING not in early_lines(), "a value on every line of at most 12 stones"
        )
        assert max(node.depth for node in tree.shown()) >= 5
        assert TRUTH_UNSETTLED not in early_lines()
        await wait_until(pilot, lambda: not busy(pane), "the truth worker's end")
        head = str(pane.query_one("#head", Static).render())
        assert "optimal (1 of 7 moves are)" in head  # the centre alone wins (Allis 1988)

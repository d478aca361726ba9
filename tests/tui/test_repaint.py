"""What a step of the explorer draws again: only what changed (each widget drawn is CPU time before the frame)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from textual.app import RenderResult
from textual.widgets import Static, Tree

from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.search_tree import SearchTree
from tests.tui.helpers import explorer, make_app, run_async, settle


@run_async
async def test_a_tree_line_s_width_is_measured_as_textual_measures_it_drawn() -> None:
    app = make_app(algorithm="mcts", params={"k": "1"}, seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = explorer(pilot).query_one(SearchTree)
        for keys in ("d", "d", "f"):
            await pilot.press(keys)
            await settle(pilot)
        for view in tree.root.children[:3]:  # open branches, and a closed node with children
            view.expand()
        await pilot.pause()
        tree.root.children[0].collapse()
        await pilot.pause()
        lines = tree._tree_lines
        assert len(lines) > 10
        kinds = {(line.node.allow_expand, line.node.is_expanded) for line in lines}
        assert {(True, True), (True, False), (False, False)} <= kinds
        for line in lines:
            assert tree.get_label_width(line.node) == Tree.get_label_width(tree, line.node), line.node.label


def counting(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count the board's drawings, and the updates of the pane's head line and root-value label (by id)."""
    drawn: Counter[str] = Counter()
    render, update = Board.render, Static.update

    def counted_render(board: Board) -> RenderResult:
        drawn["board"] += 1
        return render(board)

    def counted_update(static: Static, *args: object, **kwargs: object) -> None:
        drawn[str(static.id)] += 1
        update(static, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Board, "render", counted_render)
    monkeypatch.setattr(Static, "update", counted_update)
    return drawn


def test_a_step_that_changes_neither_the_board_nor_a_line_of_text_draws_them_not_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each step set the board's titles (which repaints the whole board) and the pane's head line and root-value
    label, changed or not: about a fifth of a step's CPU time, for nothing on most steps."""
    drawn = counting(monkeypatch)

    async def scenario() -> None:
        app = make_app(algorithm="rivest")
        async with app.run_test(size=(142, 36)) as pilot:
            screen = explorer(pilot)
            board = screen.query_one(Board)
            head, label = screen.query_one("#head", Static), screen.query_one("#value-label", Static)
            unchanged: Counter[str] = Counter()
            for _ in range(12):
                before = (board.line, board.best, head.content, label.content)
                drawn.clear()
                await pilot.press("s")
                await settle(pilot)
                after = (board.line, board.best, head.content, label.content)
                if before[:2] == after[:2]:
                    assert drawn["board"] == 0
                    unchanged["board"] += 1
                for name, old, new in (("head", before[2], after[2]), ("value-label", before[3], after[3])):
                    if old == new:
                        assert drawn[name] == 0, name
                        unchanged[name] += 1
            assert min(unchanged[name] for name in ("board", "head", "value-label")) >= 3  # the case was met

    asyncio.run(scenario())

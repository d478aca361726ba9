"""What the compare screen and its match share: the board and a summary beside the agents' panes.

Each agent shown has a ``SearchPane``, as many side by side as fit at ``PANE_WIDTH`` columns
each.  Both screens take the same keys (the match refuses those that step the comparison), so
the footer and the help read the same on both; ``a`` asks for other agents on either.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.widgets import Static
from textual.worker import WorkerState

from plyscope.engine.agents import Agent
from plyscope.engine.games import State
from plyscope.engine.search.base import Limit
from plyscope.tui.contest import compared_agents
from plyscope.tui.formatting import format_count
from plyscope.tui.screens.turns import TurnScreen
from plyscope.tui.widgets.board import Board
from plyscope.tui.widgets.compare_summary import LETTERS, CompareSummary
from plyscope.tui.widgets.footer import KeyFooter
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.search_pane import SearchPane

PANE_WIDTH = 36
"""The narrowest an agent's pane is laid out (its figures and tree lines stay readable)."""


class SideBySideScreen(TurnScreen):
    """Agents' searches side by side, beside the board and a summary (the compare screen, its match)."""

    CSS_PATH = "side_by_side.tcss"
    MIN_SIZE = (80, 24)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "step(1)", "Step all"),
        Binding("d", "step(10)", "×10"),
        Binding("f", "step(100)", "×100"),
        Binding("r", "run", "Run"),
        Binding("x", "reset", "Reset"),
        Binding("m", "match", "Match"),
        Binding("a", "edit_agents", "Choose the agents", show=False),
        Binding("l", "toggle_live", "Match turns: live or full speed", show=False),
        Binding("escape", "back", "Leave the match; back to the explorer", show=False),
    ]

    def __init__(
        self,
        state: State,
        agents: Sequence[Agent],
        total: Limit,
        *,
        seed: int = 0,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``agents`` (two to four) compared on ``state``, each with the budget ``total`` (a match: a turn's)."""
        super().__init__()
        self.state = state
        self.agents = list(agents)
        self.total = total
        self.seed = seed
        self.clock = clock

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Board(self.state, id="board")
                summary = CompareSummary(id="summary")
                summary.border_title = "summary"
                yield summary
            yield Container(id="panes")
        yield PromptBar()
        yield KeyFooter()

    async def mount_panes(self, agents: Sequence[Agent]) -> None:
        """A pane for each of ``agents`` (the panes shown before go), titled with its letter and its label."""
        found = list(self.query("#panes").results(Container))
        if not found:  # the screen was left before it was mounted: nothing to show the panes in
            return
        panes = found[0]
        await panes.remove_children()
        self._lay_out_panes(len(agents))
        made = [SearchPane(clock=self.clock) for _ in agents]
        await panes.mount_all(made)
        for letter, agent, pane in zip(LETTERS, agents, made, strict=False):
            pane.border_title = f"{letter} · {agent.label}"

    def _lay_out_panes(self, shown: int) -> None:
        """As many of the ``shown`` panes side by side as fit at ``PANE_WIDTH`` columns each (four: two rows of two
        at most)."""
        panes = self.query_one("#panes", Container)
        width = panes.size.width
        columns = max(1, min(shown, 2 if shown == 4 else shown, width // PANE_WIDTH if width else shown))
        panes.styles.grid_size_columns = columns

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(lambda: self._lay_out_panes(len(self.panes)))

    @property
    def panes(self) -> list[SearchPane]:
        """The agents' panes, in the agents' order."""
        return list(self.query(SearchPane).results(SearchPane))

    @property
    def searching(self) -> bool:
        """Whether a search thread (steps, a run, or a match turn) is at work."""
        return any(
            worker.group == "search" and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for worker in self.workers
        )

    def budget(self) -> str:
        """Each agent's budget in words: ``10,000 moves``, ``2 s of search``."""
        if self.total.seconds is not None:
            return f"{self.total.seconds:g} s of search"
        return f"{format_count(self.total.moves or 0)} moves"

    def action_edit_agents(self) -> None:
        self.query_one(PromptBar).ask(
            "agents",
            " ".join(agent.spec.label() for agent in self.agents),
            self._agents_typed,
            placeholder="two to four agents, e.g. rivest mcts:k=32 alphabeta",
        )

    async def _agents_typed(self, text: str) -> None:
        agents = compared_agents(text.split(), self.total, self.state.game)
        self.query_one(PromptBar).close()
        await self.compare(agents)

    async def compare(self, agents: Sequence[Agent]) -> None:
        """Compare ``agents`` from now on, typed after ``a`` (the screens say how)."""

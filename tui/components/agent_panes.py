"""The agents' panes of compare and its match: one ``SearchPane`` per agent, as many side by side as fit at
``PANE_WIDTH`` columns each (four: two rows of two at most)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from textual import events
from textual.containers import Container

from plyscope.engine.agents import Agent
from plyscope.tui.widgets.compare_summary import LETTERS
from plyscope.tui.widgets.search_pane import SearchPane

PANE_WIDTH = 36
"""The narrowest an agent's pane is laid out (its figures and tree lines stay readable)."""


class AgentPanes(Container):
    """A grid of the agents' panes, in the agents' order, each titled with its letter and its label."""

    DEFAULT_CSS = """
    AgentPanes { width: 1fr; height: 100%; layout: grid; grid-size: 2; grid-rows: 1fr; }
    """

    def __init__(self, *, clock: Callable[[], float] = time.perf_counter) -> None:
        """``clock`` measures steps per second."""
        super().__init__(id="panes")
        self.clock = clock

    @property
    def panes(self) -> list[SearchPane]:
        """The agents' panes, in the agents' order."""
        return list(self.query(SearchPane).results(SearchPane))

    async def show_agents(self, agents: Sequence[Agent]) -> None:
        """A pane for each of ``agents`` (the panes shown before go)."""
        await self.remove_children()
        self.lay_out(len(agents))
        made = [SearchPane(clock=self.clock) for _ in agents]
        await self.mount_all(made)
        for letter, agent, pane in zip(LETTERS, agents, made, strict=False):
            pane.border_title = f"{letter} · {agent.label}"

    def lay_out(self, shown: int | None = None) -> None:
        """As many of the ``shown`` panes (by default those shown) side by side as fit, one above the other until the
        width is known."""
        shown = len(self.panes) if shown is None else shown
        width = self.size.width
        columns = max(1, min(shown, 2 if shown == 4 else shown, width // PANE_WIDTH))
        self.styles.grid_size_columns = columns

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.lay_out)

"""What the compare screen and its match share: their keys, their layout (the board and a summary beside the agents'
panes, ``AgentPanes``) and the bar that asks for other agents.

Both screens take the same keys (the match refuses those that step the comparison), so the footer and the help read
the same on both; ``a`` asks for other agents on either.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from plyscope.engine.agents import Agent
from plyscope.engine.games import State
from plyscope.engine.search.base import Limit
from plyscope.tui.components.agent_panes import AgentPanes
from plyscope.tui.contest import compared_agents
from plyscope.tui.formatting import format_count
from plyscope.tui.widgets.boards import board_for
from plyscope.tui.widgets.compare_summary import CompareSummary
from plyscope.tui.widgets.prompt_bar import PromptBar

SIDE_BY_SIDE_KEYS: list[BindingType] = [
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
"""The keys of compare and of its match."""
MIN_SIZE = (80, 24)
"""The smallest terminal compare and its match are laid out in."""


def board_and_panes(state: State, clock: Callable[[], float] = time.perf_counter) -> ComposeResult:
    """The board on ``state`` and the summary, beside the agents' panes (``clock`` measures their steps per second)."""
    with Horizontal(id="main"):
        with Vertical(id="side"):
            yield board_for(state, playable=False)
            summary = CompareSummary(id="summary")
            summary.border_title = "summary"
            yield summary
        yield AgentPanes(clock=clock)


def budget_words(total: Limit) -> str:
    """Each agent's budget ``total`` in words: ``10,000 moves``, ``2 s of search``."""
    if total.seconds is not None:
        return f"{total.seconds:g} s of search"
    return f"{format_count(total.moves or 0)} moves"


def ask_agents(
    bar: PromptBar, agents: Sequence[Agent], total: Limit, state: State, then: Callable[[list[Agent]], Awaitable[None]]
) -> None:
    """Ask in ``bar`` for the agents to compare on ``state`` instead of ``agents`` (each with the budget ``total``);
    ``then`` takes them, once the bar is closed."""

    async def typed(text: str) -> None:
        chosen = compared_agents(text.split(), total, state.game)
        bar.close()
        await then(chosen)

    bar.ask(
        "agents",
        " ".join(agent.spec.label() for agent in agents),
        typed,
        placeholder="two to four agents, e.g. rivest mcts:k=32 alphabeta",
    )

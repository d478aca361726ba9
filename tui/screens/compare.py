"""The compare screen: two to four agents on one position, side by side, at equal budgets.

Each agent has a ``SearchPane``.  The searchers move in lockstep on the budget
(``plyscope.tui.contest.Lockstep``): ``s`` is one lockstep step, ``r`` runs them all to the budget in
equal increments; after either, each has spent the same budget (up to one step it could not
afford).  Step keys pressed while steps are being taken add theirs to those (one search
thread takes them all, in order), as in the explorer.  A summary under the board shows the
move each agent would play and, for a game with exact values, the exact score of that move, so
it is plain which agents find a best move.  ``m`` opens a match between the first two agents
(``CompareMatchScreen``) over the comparison, which waits under it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.worker import Worker

from plyscope.engine.agents import Agent
from plyscope.engine.analysis import ScoresSnapshot
from plyscope.engine.games import State
from plyscope.engine.search.base import Limit
from plyscope.tui.components.agent_panes import AgentPanes
from plyscope.tui.components.diffs import PaneDiff
from plyscope.tui.components.phases import Phases
from plyscope.tui.components.searches import Searches
from plyscope.tui.components.size import TooSmall
from plyscope.tui.components.status import StatusLine
from plyscope.tui.components.timeline import Timeline
from plyscope.tui.components.truth import TruthColumn
from plyscope.tui.contest import Lockstep, agent_session, compared_with
from plyscope.tui.messages import Analysed
from plyscope.tui.screens.compare_match import CompareMatchScreen
from plyscope.tui.screens.side_by_side import MIN_SIZE, SIDE_BY_SIDE_KEYS, ask_agents, board_and_panes, budget_words
from plyscope.tui.session import Session, named_position
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.compare_summary import CompareSummary, Row, summary_rows
from plyscope.tui.widgets.footer import KeyFooter
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.search_pane import SearchPane

COMPARE_MOVES = 10_000
"""Each agent's budget in moves when none is given."""


class CompareScreen(Screen[None]):
    """Agents side by side on one position at equal budgets."""

    CSS_PATH = "side_by_side.tcss"
    BINDINGS: ClassVar[list[BindingType]] = SIDE_BY_SIDE_KEYS

    def __init__(
        self,
        state: State,
        agents: Sequence[Agent],
        total: Limit,
        *,
        seed: int = 0,
        match: bool = False,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """Compare ``agents`` (two to four, each with the budget ``total``) on ``state``; ``match``: start a match."""
        super().__init__()
        self.state = state
        self.agents = list(agents)
        self.total = total
        self.seed = seed
        self.clock = clock
        self.start_in_match = match
        self.lockstep = Lockstep([], total)
        """The compared searches, and the threads that step them."""
        self._stepper: Worker[None] | None = None
        """The thread taking the step keys' steps (cancelled, it takes no more)."""
        self.status = StatusLine(self.status_lines)
        self.searches = Searches()

    @classmethod
    def beside(cls, session: Session, rivals: str, *, clock: Callable[[], float] = time.perf_counter) -> CompareScreen:
        """``session``'s algorithm beside the one to three ``rivals`` typed (``mcts alphabeta``) on its position,
        at ``COMPARE_MOVES`` each, with its seed."""
        total = Limit(moves=COMPARE_MOVES)
        agents = compared_with(session.config.label(), rivals, total, session.state.game)
        return cls(session.state, agents, total, seed=session.config.seed, clock=clock)

    def compose(self) -> ComposeResult:
        yield self.status
        with (
            self.searches,
            Timeline(self._timeline_refusal),
            TruthColumn(),
            Phases(under_trees=True),
            PaneDiff(lambda: self.sessions, self._stop),
        ):
            yield from board_and_panes(self.state, self.clock)
        yield PromptBar()
        yield KeyFooter()
        yield TooSmall(MIN_SIZE)

    async def on_mount(self) -> None:
        found = list(self.query(AgentPanes).results(AgentPanes))
        if not found:  # (the screen was left before it was mounted: nothing to show the panes in)
            return
        await found[0].show_agents(self.agents)
        self.panes[0].search_tree.focus()
        self._new_sessions()
        self.query_one(Board).analyse(self.state)
        if self.start_in_match:
            self.action_match()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmall).fit(event.size)

    @property
    def panes(self) -> list[SearchPane]:
        """The agents' panes, in the agents' order."""
        return self.query_one(AgentPanes).panes

    @property
    def sessions(self) -> list[Session]:
        """The compared searches, in the agents' order."""
        return self.lockstep.sessions

    @property
    def analysis(self) -> ScoresSnapshot | None:
        """The exact scores of the position's moves, as far as found (a game with exact values)."""
        return self.query_one(Board).scores

    def _timeline_refusal(self, session: Session) -> str:
        """A compared search can be moved along its timeline (the others pause)."""
        self._stop()
        return ""

    # ----------------------------------------------------------------- comparing

    def _new_sessions(self) -> None:
        """Fresh searchers for every agent on the position (the same seed gives the same trees)."""
        self._stop()
        self.lockstep = Lockstep([agent_session(agent, self.state, self.seed) for agent in self.agents], self.total)
        for pane, session in zip(self.panes, self.sessions, strict=True):
            pane.show(session)
            pane.border_subtitle = ""
        self._refresh()

    def _stop(self) -> None:
        self.searches.pause()
        self.searches.stop()
        self.lockstep.queue.clear()

    def action_step(self, count: int) -> None:
        """``count`` lockstep steps (after pausing a run): each time the agent that has spent least steps and the
        others catch up.  While steps are being taken, the new ones are taken after them."""
        if self.searches.running:
            self._stop()
        under_way = any(session.phases_shown for session in self.sessions)
        if self.lockstep.ended and not under_way:
            self.status.refuse("every agent has spent its budget (or finished): x starts again")
            return
        phases = self.query_one(Phases)
        if phases.on and count == 1:
            self._stop()
            if self.total.moves is not None:
                for session in self.sessions:
                    session.set_budget(self.total.moves)
            phases.take(self.sessions)
            return
        if self._stepper is not None and self._stepper.is_cancelled:
            self.lockstep.queue.clear()
        job = self.lockstep.steps(count)
        if job is not None:
            self._stepper = self.searches.host(job)

    def action_run(self) -> None:
        """Run every agent to the budget in lockstep increments; pause if running."""
        if self.searches.running:
            self._stop()
            self.status.say("paused")
        else:
            self._stop()
            self.searches.start_run(self.lockstep.run())
        self.status.show()

    def on_searches_shown(self) -> None:
        self._refresh()

    def on_searches_run_ended(self) -> None:
        self.status.show()

    def action_reset(self) -> None:
        """Start every search again."""
        self._new_sessions()

    def on_analysed(self, message: Analysed) -> None:
        self._refresh()

    def action_edit_agents(self) -> None:
        ask_agents(self.query_one(PromptBar), self.agents, self.total, self.state, self.compare)

    async def compare(self, agents: Sequence[Agent]) -> None:
        """Compare ``agents`` from now on (every search starts again)."""
        self._stop()
        self.agents = list(agents)
        await self.query_one(AgentPanes).show_agents(self.agents)
        self._new_sessions()

    def action_toggle_live(self) -> None:
        self.searches.toggle_live()

    def action_match(self) -> None:
        """A match between the first two agents from the position, over the comparison (``m`` leaves it)."""
        self._stop()
        match = CompareMatchScreen(
            self.state,
            self.agents,
            self.total,
            self.sessions,
            seed=self.seed,
            live=self.searches.live,
            clock=self.clock,
        )
        self.app.push_screen(match, partial(self._match_left, match))

    async def _match_left(self, match: CompareMatchScreen, _: None) -> None:
        """Back from ``match``: to the comparison, or to a comparison of the agents chosen there."""
        self.searches.live = match.searches.live
        if match.chosen is not None:
            await self.compare(match.chosen)
            return
        for pane, session in zip(self.panes, self.sessions, strict=True):
            pane.show(session)  # (each tree shown afresh, its root's children folded)
        self.status.say("back to the comparison")

    def action_back(self) -> None:
        """Back to the explorer: the searches and the solver's analysis stop."""
        self._stop()
        if self.is_current:  # (a key typed again before the first was handled: this screen has gone)
            self.query_one(Board).analyse(None)
            self.app.pop_screen()

    # ----------------------------------------------------------------- showing

    def _refresh(self) -> None:
        board = self.query_one(Board)
        board.show(self.state)
        board.show_scores(self.analysis)
        board.border_title = "position"
        self.query_one(CompareSummary).show(self.state, self.sessions, self.total, self.analysis, board.scores_where)
        self.status.show()

    def summary_rows(self) -> list[Row]:
        """The summary's rows (``plyscope.tui.widgets.compare_summary.summary_rows``)."""
        return summary_rows(self.state, self.sessions, self.total, self.analysis)

    def status_lines(self) -> tuple[Text, Text]:
        first = Text.assemble(
            (self.state.game.name, "bold"),
            f" · {named_position(self.state.text())} · {len(self.agents)} agents · ",
            (budget_words(self.total), "bold"),
            " each, in lockstep",
        )
        if self.searches.running:
            second = Text("▶ running to the budget in equal increments")
        elif self.sessions and self.lockstep.ended:
            second = Text("■ every agent has spent its budget (or finished) · x: again · m: a match")
        elif self.query_one(Phases).on:
            second = Text.assemble(
                ("phase mode (i: off)", "bold"), " · s: one phase of every pane, told under its tree"
            )
        else:
            second = Text("s: a lockstep step · r: run all to the budget · m: a match between A and B")
        return first, second

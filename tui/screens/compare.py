"""The compare screen: two to four agents on one position, side by side, at equal budgets.

Each agent has a ``SearchPane``.  The searchers move in lockstep on the budget
(``plyscope.tui.contest.Lockstep``): ``s`` is one lockstep step, ``r`` runs them all to the budget in
equal increments; after either, each has spent the same budget (up to one step it could not
afford).  Step keys pressed while steps are being taken add theirs to those (one search
thread takes them all, in order), as in the explorer.  A summary under the board shows the
move each agent would play and, for Connect Four, the solver's exact score of that move, so
it is plain which agents find a best move.  ``m`` opens a match between the first two agents
(``CompareMatchScreen``) over the comparison, which waits under it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.worker import Worker

from plyscope.engine.agents import Agent
from plyscope.engine.analysis import ScoresSnapshot
from plyscope.engine.games import State
from plyscope.engine.search.base import Limit
from plyscope.tui.contest import Lockstep, agent_session, compared_with
from plyscope.tui.diffing import Progress, copy_tree, drawn_diff, let_go
from plyscope.tui.messages import Analysed
from plyscope.tui.screens.compare_match import CompareMatchScreen
from plyscope.tui.screens.diff import DiffingScreen, Finish
from plyscope.tui.screens.phases import PHASES_DESCRIPTION
from plyscope.tui.screens.side_by_side import SideBySideScreen
from plyscope.tui.session import Batch, Session, named_position
from plyscope.tui.widgets.board import Board
from plyscope.tui.widgets.compare_summary import CompareSummary, Row, summary_rows

COMPARE_MOVES = 10_000
"""Each agent's budget in moves when none is given."""


class CompareScreen(SideBySideScreen, DiffingScreen):
    """Agents side by side on one position at equal budgets."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("D", "diff", "Diff the trees of panes A and B, node by node", show=False),
        Binding("i", "phases", PHASES_DESCRIPTION, show=False),
    ]

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
        super().__init__(state, agents, total, seed=seed, clock=clock)
        self.start_in_match = match
        self.lockstep = Lockstep([], total)
        """The compared searches, and the threads that step them."""
        self._stepper: Worker[None] | None = None
        """The thread taking the step keys' steps (cancelled, it takes no more)."""

    @classmethod
    def beside(cls, session: Session, rivals: str, *, clock: Callable[[], float] = time.perf_counter) -> CompareScreen:
        """``session``'s algorithm beside the one to three ``rivals`` typed (``mcts alphabeta``) on its position,
        at ``COMPARE_MOVES`` each, with its seed."""
        total = Limit(moves=COMPARE_MOVES)
        agents = compared_with(session.config.label(), rivals, total, session.state.game)
        return cls(session.state, agents, total, seed=session.config.seed, clock=clock)

    def action_diff(self) -> None:
        """Show how pane B's tree differs from pane A's (the first two agents'), as they stand (a run pauses)."""
        sessions = self.sessions
        if len(sessions) < 2:
            self.refuse("no two searches to diff yet")
            return
        self._stop()
        a, b = sessions[0], sessions[1]
        title = f"A {a.config.label()} and B {b.config.label()}"

        def job(stop: threading.Event, progress: Progress) -> Finish | None:
            copied_a = copy_tree(a, stop, progress)
            copied_b = None if copied_a is None else copy_tree(b, stop, progress)
            if copied_a is None or copied_b is None:
                return None
            shown = drawn_diff(copied_a[1], copied_b[1], self.state, progress)
            let_go(copied_a[1])
            let_go(copied_b[1])
            return partial(self.show_diff, title, shown, "the trees of A and B lined up (D again: as they stand then)")

        self.in_diff_thread(job, "lining up the trees of A and B…")

    @property
    def sessions(self) -> list[Session]:
        """The compared searches, in the agents' order."""
        return self.lockstep.sessions

    @property
    def analysis(self) -> ScoresSnapshot | None:
        """The solver's scores of the position, as far as found (Connect Four)."""
        return self.query_one(Board).scores

    async def on_mount(self) -> None:
        await self.mount_panes(self.agents)
        if not self.panes:  # (the screen was left before its panes were mounted)
            return
        self.panes[0].search_tree.focus()
        self._new_sessions()
        self.query_one(Board).analyse(self.state)
        if self.start_in_match:
            self.action_match()

    def timeline_refusal(self, session: Session) -> str:
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
        self.pause()
        self.stop_searches()
        self.lockstep.queue.clear()

    def action_step(self, count: int) -> None:
        """``count`` lockstep steps (after pausing a run): each time the agent that has spent least steps and the
        others catch up.  While steps are being taken, the new ones are taken after them."""
        if self.running:
            self._stop()
        under_way = any(session.phases_shown for session in self.sessions)
        if self.lockstep.ended and not under_way:
            self.refuse("every agent has spent its budget (or finished): x starts again")
            return
        if self.phase_mode and count == 1:
            self._stop()
            if self.total.moves is not None:
                for session in self.sessions:
                    session.set_budget(self.total.moves)
            self.take_phases(self.sessions)
            return
        if self._stepper is not None and self._stepper.is_cancelled:
            self.lockstep.queue.clear()
        job = self.lockstep.steps(count)
        if job is not None:
            self._stepper = self.host(job)

    def action_phases(self) -> None:
        """Phase mode on or off, each pane's phase told under its tree."""
        super().action_phases()
        for pane in self.panes:
            pane.set_class(self.phase_mode, "-phases")

    def action_run(self) -> None:
        """Run every agent to the budget in lockstep increments; pause if running."""
        if self.running:
            self._stop()
            self.say("paused")
        else:
            self._stop()
            self.start_run(self.lockstep.run())
        self.show_status()

    def batches_shown(self, batches: Sequence[tuple[Session, Batch]]) -> None:
        self._refresh()

    def action_reset(self) -> None:
        """Start every search again."""
        self._new_sessions()

    def on_analysed(self, message: Analysed) -> None:
        self._refresh()

    async def compare(self, agents: Sequence[Agent]) -> None:
        """Compare ``agents`` from now on (every search starts again)."""
        self._stop()
        self.agents = list(agents)
        await self.mount_panes(self.agents)
        self._new_sessions()

    def action_match(self) -> None:
        """A match between the first two agents from the position, over the comparison (``m`` leaves it)."""
        self._stop()
        match = CompareMatchScreen(self, self.sessions)
        self.app.push_screen(match, partial(self._match_left, match))

    async def _match_left(self, match: CompareMatchScreen, _: None) -> None:
        """Back from ``match``: to the comparison, or to a comparison of the agents chosen there."""
        self.live = match.live
        if match.chosen is not None:
            await self.compare(match.chosen)
            return
        for pane, session in zip(self.panes, self.sessions, strict=True):
            pane.show(session)  # (each tree shown afresh, its root's children folded)
        self.say("back to the comparison")

    def action_back(self) -> None:
        self._stop()
        super().action_back()

    # ----------------------------------------------------------------- showing

    def _refresh(self) -> None:
        board = self.query_one(Board)
        board.show(self.state)
        board.show_scores(self.analysis)
        board.border_title = "position"
        self.query_one(CompareSummary).show(self.state, self.sessions, self.total, self.analysis)
        self.show_status()

    def summary_rows(self) -> list[Row]:
        """The summary's rows (``plyscope.tui.widgets.compare_summary.summary_rows``)."""
        return summary_rows(self.state, self.sessions, self.total, self.analysis)

    def status_lines(self) -> tuple[Text, Text]:
        first = Text.assemble(
            (self.state.game.name, "bold"),
            f" · {named_position(self.state.text())} · {len(self.agents)} agents · ",
            (self.budget(), "bold"),
            " each, in lockstep",
        )
        if self.running:
            second = Text("▶ running to the budget in equal increments")
        elif self.sessions and self.lockstep.ended:
            second = Text("■ every agent has spent its budget (or finished) · x: again · m: a match")
        elif self.phase_mode:
            second = Text.assemble(
                ("phase mode (i: off)", "bold"), " · s: one phase of every pane, told under its tree"
            )
        else:
            second = Text("s: a lockstep step · r: run all to the budget · m: a match between A and B")
        return first, second

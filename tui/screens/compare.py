"""The compare screen: two to four agents on one position, side by side, at equal budgets; or two in a match.

Each agent has a ``SearchPane``.  The searchers move in lockstep on the budget
(``tui.contest``): ``s`` is one lockstep step, ``r`` runs them all to the budget in equal
increments; after either, each has spent the same budget (up to one step it could not
afford).  Step keys pressed while steps are being taken add theirs to those (one search
thread takes them all, in order), as in the explorer.  A summary under the board shows the
move each agent would play and, for Connect Four, the solver's exact score of that move, so
it is plain which agents find a best move.

In match mode the first two agents play each other from the position on the shared board,
each turn a new search shown live in its agent's pane (turns from ``tui.match``, run by
``SearchScreen.start_turn`` as on the play screen; the budget is per turn there).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from engine.agents import Agent, Decision
from engine.analysis import ScoresSnapshot
from engine.errors import UserError
from engine.game_record import PlayedGame
from engine.games import Connect4State, State
from engine.search.base import Limit
from engine.search.registry import AgentSpec, fitting_algorithms
from tui.contest import LockstepQueue, agent_session, compared_agents, run_together
from tui.formatting import format_count, player_glyph
from tui.match import MatchRunner, Turn
from tui.messages import Analysed
from tui.screens.base import Deliver, SearchScreen
from tui.session import PREFERRED_ALGORITHMS, Batch, Session
from tui.widgets.board import Board
from tui.widgets.compare_summary import LETTERS, CompareSummary, Row, summary_rows
from tui.widgets.footer import KeyFooter
from tui.widgets.move_list import moves_text
from tui.widgets.prompt_bar import PromptBar
from tui.widgets.search_pane import SearchPane

COMPARE_MOVES = 10_000
"""Each agent's budget in moves when none is given."""
PANE_WIDTH = 36
"""The narrowest an agent's pane is laid out (its figures and tree lines stay readable)."""


def default_rival(state: State, spec: AgentSpec) -> str:
    """The first preferred algorithm (the explorer's order) that differs from ``spec``'s and plays the game."""
    fitting = [info.name for info in fitting_algorithms(state.game.name)]
    return next(name for name in (*PREFERRED_ALGORITHMS, *fitting) if name in fitting and name != spec.name)


class CompareScreen(SearchScreen):
    """Agents side by side on one position at equal budgets, or two of them in a match."""

    CSS_PATH = "compare.tcss"
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
        self.sessions: list[Session] = []
        self.analysis: ScoresSnapshot | None = None
        self.runner: MatchRunner | None = None
        """The match being played (match mode), else ``None``."""
        self.turn: Turn | None = None
        """The search of the match's agent to move."""
        self._run_worker: Worker[None] | None = None
        self._steps = LockstepQueue()
        """The lockstep steps asked for by the step keys, and the search thread taking them."""
        self._stepper: Worker[None] | None = None
        """That search thread (cancelled, it takes no more)."""

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Board(self.state, id="board")
                yield CompareSummary(id="summary")
            yield Container(id="panes")
        yield PromptBar()
        yield KeyFooter()

    async def on_mount(self) -> None:
        self.query_one(CompareSummary).border_title = "summary"
        await self._mount_panes()
        self.panes[0].search_tree.focus()
        self._new_sessions()
        if isinstance(self.state, Connect4State):
            self.start_analysis(self.state)
        if self.start_in_match:
            self.action_match()

    async def _mount_panes(self) -> None:
        panes = self.query_one("#panes", Container)
        await panes.remove_children()
        self._lay_out_panes(panes.size.width)
        made = [SearchPane(clock=self.clock) for _ in self.agents]
        await panes.mount_all(made)
        for letter, agent, pane in zip(LETTERS, self.agents, made, strict=False):
            pane.border_title = f"{letter} · {agent.label}"

    def _lay_out_panes(self, width: int) -> None:
        """As many panes side by side as fit at ``PANE_WIDTH`` columns each (four: two rows of two at most)."""
        shown = 2 if self.runner is not None else len(self.agents)
        columns = max(1, min(shown, 2 if shown == 4 else shown, width // PANE_WIDTH if width else shown))
        self.query_one("#panes", Container).styles.grid_size_columns = columns

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(lambda: self._lay_out_panes(self.query_one("#panes", Container).size.width))

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

    def timeline_refusal(self, session: Session) -> str:
        """A compared search can be moved along its timeline (the others pause); a match's turns cannot."""
        if self.runner is not None:
            return "the timeline shows compared searches: m leaves the match first"
        self._stop()
        return ""

    # ----------------------------------------------------------------- comparing

    def _new_sessions(self) -> None:
        """Fresh searchers for every agent on the position (the same seed gives the same trees)."""
        self._stop()
        self.sessions = [agent_session(agent, self.state, self.seed) for agent in self.agents]
        for pane, session in zip(self.panes, self.sessions, strict=True):
            pane.show(session)
            pane.border_subtitle = ""
        self._refresh()

    def _stop(self) -> None:
        self.stop_searches()
        self._steps.clear()
        self._run_worker = None
        self.turn = None

    def action_step(self, count: int) -> None:
        """``count`` lockstep steps (after pausing a run): each time the agent that has spent least steps and the
        others catch up.  While steps are being taken, the new ones are taken after them."""
        if self.runner is not None:
            self.refuse("a match is on: m leaves it")
            return
        if self._run_worker is not None:
            self._stop()
        if all(session.ended for session in self.sessions):
            self.refuse("every agent has spent its budget (or finished): x starts again")
            return
        if self._stepper is not None and self._stepper.is_cancelled:
            self._steps.clear()
        if self._steps.ask(count):
            sessions = list(self.sessions)
            total = self.total
            self._stepper = self.host(
                lambda deliver, stop: self._steps.take(
                    sessions, total, lambda batches: deliver(list(zip(sessions, batches, strict=True))), stop
                )
            )

    def action_run(self) -> None:
        """Run every agent to the budget in lockstep increments; pause if running."""
        if self.runner is not None:
            self.refuse("a match is on: m leaves it")
        elif self._run_worker is not None:
            self._stop()
            self.say("paused")
        else:
            self._stop()
            sessions = list(self.sessions)

            def job(deliver: Deliver, stop: threading.Event) -> None:
                run_together(
                    sessions, self.total, lambda batches: deliver(list(zip(sessions, batches, strict=True))), stop
                )

            self._run_worker = self.host(job)
        self.show_status()

    def batches_shown(self, batches: Sequence[tuple[Session, Batch]]) -> None:
        self._refresh()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._run_worker and event.state in (
            WorkerState.SUCCESS,
            WorkerState.CANCELLED,
            WorkerState.ERROR,
        ):
            self._run_worker = None
            self.show_status()

    def action_reset(self) -> None:
        """Start every search again (or, in a match, the match again)."""
        if self.runner is not None:
            self._start_match()
        else:
            self._new_sessions()

    def on_analysed(self, message: Analysed) -> None:
        if message.analysis.state == self.state:
            self.analysis = message.analysis
            self._refresh()

    # ----------------------------------------------------------------- match mode

    def action_match(self) -> None:
        """Start a match between the first two agents from the position; leave it if one is on."""
        if self.runner is not None:
            self._leave_match()
        else:
            self._start_match()

    def _start_match(self) -> None:
        self._stop()
        first, second = self.agents[0], self.agents[1]
        if self.state.player == -1:
            first, second = second, first
        self.runner = MatchRunner(PlayedGame(self.state, first, second, seed=self.seed), name=self._letter)
        for pane in self.panes[2:]:
            pane.display = False
        self._lay_out_panes(self.query_one("#panes", Container).size.width)
        self.note = ""
        self._next_turn()

    def _leave_match(self) -> None:
        self._stop()
        self.runner = None
        for pane, session in zip(self.panes, self.sessions, strict=True):
            pane.display = True
            pane.show(session)
            pane.border_subtitle = ""
        self._lay_out_panes(self.query_one("#panes", Container).size.width)
        self.say("back to the comparison")
        self._refresh()

    def _next_turn(self) -> None:
        runner = self.runner
        assert runner is not None
        self._refresh()
        try:
            turn = runner.turn()
        except UserError as error:
            self.refuse(f"the match cannot go on: {error}")
            return
        if turn is None:
            return
        self.turn = turn
        self.start_turn(turn, self._pane_of(turn.agent), turn.purpose)
        self.show_status()

    def turn_decided(self, turn: Turn, decision: Decision) -> None:
        runner = self.runner
        if runner is None or turn is not self.turn or not runner.current(turn):
            return
        self.turn = None
        self.note = runner.conclude(turn, decision)
        self._next_turn()

    def _pane_of(self, agent: Agent) -> SearchPane:
        return self.panes[0] if agent is self.agents[0] else self.panes[1]

    def _letter(self, agent: Agent) -> str:
        return LETTERS[0] if agent is self.agents[0] else LETTERS[1]

    # ----------------------------------------------------------------- choosing the agents

    def action_edit_agents(self) -> None:
        self.query_one(PromptBar).ask(
            "agents",
            "agents",
            " ".join(agent.spec.label() for agent in self.agents),
            placeholder="two to four agents, e.g. rivest mcts:k=32 alphabeta",
        )

    @on(PromptBar.Answered)
    async def _answered(self, event: PromptBar.Answered) -> None:
        try:
            agents = compared_agents(event.value.split(), self.total, self.state.game)
        except UserError as error:
            event.bar.fail(str(error))
            return
        event.bar.close()
        await self.compare(agents)

    async def compare(self, agents: Sequence[Agent]) -> None:
        """Compare ``agents`` from now on (every search starts again)."""
        self._stop()
        self.runner = None
        self.agents = list(agents)
        await self._mount_panes()
        self._new_sessions()

    def action_back(self) -> None:
        if self.runner is not None:
            self._leave_match()
        else:
            self._stop()
            self.stop_analysis()
            self.leave()

    # ----------------------------------------------------------------- showing

    def _refresh(self) -> None:
        board = self.query_one(Board)
        runner = self.runner
        state = runner.played.state if runner is not None else self.state
        board.show(state)
        board.show_scores(self.analysis, on=runner is None)
        board.border_title = "match" if runner is not None else "position"
        summary = self.query_one(CompareSummary)
        if runner is not None:
            summary.update(self._match_summary(runner))
        else:
            summary.show(self.state, self.sessions, self.total, self.analysis)
        self.show_status()

    def summary_rows(self) -> list[Row]:
        """The summary's rows (``tui.widgets.compare_summary.summary_rows``)."""
        return summary_rows(self.state, self.sessions, self.total, self.analysis)

    def _match_summary(self, runner: MatchRunner) -> Text:
        text = Text()
        for player in (1, -1):
            agent = runner.played.controller(player)
            assert agent is not None
            text.append(f"{player_glyph(player)} {self._letter(agent)} {agent.label}\n")
        return text.append_text(moves_text(runner.played))

    def status_lines(self) -> tuple[Text, Text]:
        position = self.state.text() or "start"
        budget = (
            f"{self.total.seconds:g} s of search"
            if self.total.seconds is not None
            else f"{format_count(self.total.moves or 0)} moves"
        )
        runner = self.runner
        if runner is not None:
            first = Text.assemble(
                (self.state.game.name, "bold"),
                f" · from {position} · match ",
                (f"{LETTERS[0]} vs {LETTERS[1]}", "bold"),
                f" · {budget} a turn",
            )
            outcome = runner.outcome()
            if outcome:
                return first, Text(f"■ {outcome} · x: play it again · m: back to the comparison")
            mover = runner.played.to_move()
            assert mover is not None
            return first, Text(f"▶ {self._letter(mover)} is thinking… (move {runner.played.state.ply + 1})")
        first = Text.assemble(
            (self.state.game.name, "bold"),
            f" · {position} · {len(self.agents)} agents · ",
            (budget, "bold"),
            " each, in lockstep",
        )
        if self._run_worker is not None:
            second = Text("▶ running to the budget in equal increments")
        elif self.sessions and all(session.ended for session in self.sessions):
            second = Text("■ every agent has spent its budget (or finished) · x: again · m: a match")
        else:
            second = Text("s: a lockstep step · r: run all to the budget · m: a match between A and B")
        return first, second

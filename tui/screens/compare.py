"""The compare screen: two to four agents on one position, side by side, at equal budgets; or two in a match.

Each agent has a pane: its search tree, its best move, root value and stats.  The searchers
step in lockstep (``tui.contest``): ``s`` gives each one step, ``r`` runs them all to the
same budget in equal increments.  A summary under the board shows the move each agent would
play and, for Connect Four, the solver's exact score of that move (``engine.analysis``, in a
worker of its own), so it is plain which agents find the best move.

In match mode the first two agents play each other from the position on the shared board,
each turn a new search shown live in its agent's pane (the budget is per turn there).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from engine.agents import Agent
from engine.analysis import ScoresSnapshot
from engine.errors import UserError
from engine.game_record import PlayedGame
from engine.games import Connect4State, Move, State
from engine.search.base import Limit
from engine.search.registry import AgentSpec, fitting_algorithms
from tui.contest import (
    TURN_FRAME_SECONDS,
    agent_session,
    analyse,
    board_marks,
    compared_agents,
    decide,
    merge,
    run_together,
    step_together,
    think,
)
from tui.formatting import format_count, format_number
from tui.messages import Analysed, Decided
from tui.screens.help import binding_commands
from tui.session import FRAME_SECONDS, PREFERRED_ALGORITHMS, Batch, RateMeter, Session
from tui.widgets.board import Board
from tui.widgets.search_tree import SearchTree
from tui.widgets.stats import StatsPanel

COMPARE_MOVES = 10_000
"""Each agent's budget in moves when none is given."""
LETTERS = "ABCD"
"""How the compared agents are named in the summary."""


def default_rivals(state: State, spec: AgentSpec, total: Limit) -> list[Agent]:
    """``spec`` and the first preferred algorithm (the explorer's order) that differs from it and plays the game."""
    fitting = [info.name for info in fitting_algorithms(state.game.name)]
    other = next(name for name in (*PREFERRED_ALGORITHMS, *fitting) if name in fitting and name != spec.name)
    return [Agent(spec, total), Agent(AgentSpec(other), total)]


class AgentPane(Vertical):
    """One agent: a head line (best move, root value, budget spent), its search tree and its stats."""

    DEFAULT_CSS = """
    AgentPane { border: round $primary 60%; border-title-color: $text; height: 100%; }
    AgentPane > .pane-head { height: 1; padding: 0 1; background: $boost; }
    AgentPane > SearchTree { height: 1fr; }
    AgentPane > StatsPanel { height: auto; padding: 0 1; }
    """

    def __init__(self, letter: str, agent: Agent, clock: Callable[[], float]) -> None:
        super().__init__()
        self.letter = letter
        self.agent = agent
        self.session: Session | None = None
        """The search shown here."""
        self.rate = RateMeter(clock)

    def compose(self) -> ComposeResult:
        yield Static(classes="pane-head")
        yield SearchTree()
        yield StatsPanel()

    def on_mount(self) -> None:
        self.border_title = f"{self.letter} · {self.agent.label}"

    def follow(self, session: Session, total: Limit) -> None:
        """Show ``session``'s search from now on."""
        self.session = session
        self.rate.clear()
        self.query_one(SearchTree).show_searcher(session.searcher, session.lock)
        self.show_figures(total)

    def apply(self, batch: Batch, total: Limit) -> None:
        """Show what ``batch`` (of this pane's session) changed."""
        session = self.session
        assert session is not None
        with session.lock:
            self.query_one(SearchTree).apply(batch, session.searcher.principal_path())
        self.rate.add(session.searcher.stats.iterations)
        self.show_figures(total)

    def show_figures(self, total: Limit) -> None:
        session = self.session
        if session is None:
            return
        with session.lock:
            searcher = session.searcher
            stats = replace(searcher.stats)
            best = searcher.best_move()
            value = searcher.value()
        best_text = "–" if best is None else session.state.move_label(best)
        head = Text.assemble("best ", (best_text, "bold"), f" · value {format_number(value)}")
        self.query_one(".pane-head", Static).update(head, layout=False)
        self.query_one(StatsPanel).show(stats, self.rate.rate(), session.history.values)


class CompareScreen(Screen[None]):
    """Agents side by side on one position at equal budgets, or two of them in a match."""

    CSS_PATH = "compare.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "step(1)", "Step all"),
        Binding("d", "step(10)", "×10"),
        Binding("f", "step(100)", "×100"),
        Binding("r", "run", "Run"),
        Binding("x", "reset", "Reset"),
        Binding("m", "match", "Match"),
        Binding("a", "edit_agents", "Choose the agents", show=False),
        Binding("escape", "back", "Close the bar; leave the match; back to the explorer", show=False),
    ]

    class Progress(Message):
        """Batches of steps of ``sessions`` (one batch each), to show; ``shown`` is set once they are on screen."""

        def __init__(self, sessions: Sequence[Session], batches: Sequence[Batch], shown: threading.Event) -> None:
            super().__init__()
            self.sessions = tuple(sessions)
            self.batches = tuple(batches)
            self.shown = shown

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
        self.match: PlayedGame | None = None
        """The match being played (match mode), else ``None``."""
        self._turn: Session | None = None
        """The search of the match's agent to move."""
        self._run_worker: Worker[None] | None = None
        self._note = ""

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Board(self.state, id="board")
                yield Static(id="summary")
            yield Container(id="panes")
        with Vertical(id="bar"):
            with Horizontal(id="bar-row"):
                yield Static("agents: ", id="bar-prompt")
                yield Input(id="bar-input", compact=True)
            yield Static(id="bar-error")
        yield Footer()

    async def on_mount(self) -> None:
        self.query_one("#summary", Static).border_title = "summary"
        await self._mount_panes()
        self.panes[0].query_one(SearchTree).focus()
        self._new_sessions()
        if isinstance(self.state, Connect4State):
            self._analyse(self.state)
        if self.start_in_match:
            self.action_match()

    async def _mount_panes(self) -> None:
        panes = self.query_one("#panes", Container)
        await panes.remove_children()
        columns = len(self.agents) if len(self.agents) <= 3 else 2
        panes.styles.grid_size_columns = columns
        await panes.mount_all([AgentPane(letter, agent, self.clock) for letter, agent in zip(LETTERS, self.agents,
                                                                                                strict=False)])

    @property
    def panes(self) -> list[AgentPane]:
        """The agents' panes, in the agents' order."""
        return list(self.query(AgentPane).results(AgentPane))

    @property
    def searching(self) -> bool:
        """Whether a search thread (steps, a run, or a match turn) is at work."""
        return any(worker.group == "search" and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
                   for worker in self.workers)

    # ----------------------------------------------------------------- comparing

    def _new_sessions(self) -> None:
        """Fresh searchers for every agent on the position (the same seed gives the same trees)."""
        self._stop()
        self.sessions = [agent_session(agent, self.state, self.seed) for agent in self.agents]
        for pane, session in zip(self.panes, self.sessions, strict=True):
            pane.follow(session, self.total)
        self._refresh()

    def _stop(self) -> None:
        self.workers.cancel_group(self, "search")
        self._run_worker = None
        self._turn = None

    def action_step(self, count: int) -> None:
        """Every agent takes ``count`` steps (those whose next step would exceed the budget stop)."""
        if self.match is not None:
            self._refuse("a match is on: m leaves it")
            return
        self._stop()
        if all(session.ended for session in self.sessions):
            self._refuse("every agent has spent its budget (or finished): x starts again")
            return
        self._step(self.sessions, count)

    @work(thread=True, group="search")
    def _step(self, sessions: list[Session], count: int) -> None:
        """The search thread of ``s``, ``d``, ``f``: ``count`` steps of every session, shown frame by frame."""
        worker = get_current_worker()
        pending: list[list[Batch]] = [[] for _ in sessions]
        frame_end = time.perf_counter() + FRAME_SECONDS
        for done in range(1, count + 1):
            if worker.is_cancelled:
                return
            for batches, batch in zip(pending, step_together(sessions, self.total), strict=True):
                batches.append(batch)
            if done == count or time.perf_counter() >= frame_end:
                self._deliver(sessions, [merge(b, s.ended) for b, s in zip(pending, sessions, strict=True)])
                pending = [[] for _ in sessions]
                frame_end = time.perf_counter() + FRAME_SECONDS

    def action_run(self) -> None:
        """Run every agent to the budget in lockstep increments; pause if running."""
        if self.match is not None:
            self._refuse("a match is on: m leaves it")
        elif self._run_worker is not None:
            self._stop()
            self._note = "paused"
        else:
            self._stop()
            self._run_worker = self._run(self.sessions)
        self._show_status()

    @work(thread=True, group="search")
    def _run(self, sessions: list[Session]) -> None:
        """The search thread of ``r``: every session to the budget, in lockstep increments."""
        run_together(sessions, self.total, lambda batches: self._deliver(sessions, batches),
                     get_current_worker().cancelled_event)

    def _deliver(self, sessions: Sequence[Session], batches: Sequence[Batch]) -> None:
        """From a search thread: post the batches and wait until they are on screen (or the worker is cancelled)."""
        worker = get_current_worker()
        shown = threading.Event()
        self.post_message(self.Progress(sessions, batches, shown))
        while not shown.wait(0.05):
            if worker.is_cancelled:
                return

    def on_compare_screen_progress(self, message: Progress) -> None:
        try:
            by_session = {id(pane.session): pane for pane in self.panes}
            for session, batch in zip(message.sessions, message.batches, strict=True):
                pane = by_session.get(id(session))
                if pane is not None and batch.steps:
                    pane.apply(batch, self.total)
            self._refresh()
        finally:
            self.call_after_refresh(message.shown.set)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._run_worker and event.state in (WorkerState.SUCCESS, WorkerState.CANCELLED,
                                                                   WorkerState.ERROR):
            self._run_worker = None
            self._show_status()

    def action_reset(self) -> None:
        """Start every search again (or, in a match, the match again)."""
        if self.match is not None:
            self._start_match()
        else:
            self._new_sessions()

    # ----------------------------------------------------------------- the solver's scores

    @work(thread=True, group="analysis")
    def _analyse(self, state: Connect4State) -> None:
        analyse(state, lambda found: self.post_message(Analysed(found)), get_current_worker().cancelled_event)

    def on_analysed(self, message: Analysed) -> None:
        if message.analysis.state == self.state:
            self.analysis = message.analysis
            self._refresh()

    # ----------------------------------------------------------------- match mode

    def action_match(self) -> None:
        """Start a match between the first two agents from the position; leave it if one is on."""
        if self.match is not None:
            self._leave_match()
            return
        self._start_match()

    def _start_match(self) -> None:
        self._stop()
        first, second = self.agents[0], self.agents[1]
        if self.state.player == -1:
            first, second = second, first
        self.match = PlayedGame(self.state, first, second, seed=self.seed)
        for pane in self.panes[2:]:
            pane.display = False
        self._note = ""
        self._next_turn()

    def _leave_match(self) -> None:
        self._stop()
        self.match = None
        for pane, session in zip(self.panes, self.sessions, strict=True):
            pane.display = True
            pane.follow(session, self.total)
        self._note = "back to the comparison"
        self._refresh()

    def _next_turn(self) -> None:
        match = self.match
        assert match is not None
        self._refresh()
        agent = match.to_move()
        if match.is_over() or agent is None:
            return
        session = agent_session(agent, match.state, match.turn_seed())
        self._turn = session
        self._pane_of(agent).follow(session, self.total)
        self._play_turn(session, agent.limit.seconds)
        self._show_status()

    def _pane_of(self, agent: Agent) -> AgentPane:
        return self.panes[0] if agent is self.agents[0] else self.panes[1]

    @work(thread=True, group="search")
    def _play_turn(self, session: Session, seconds: float | None) -> None:
        worker = get_current_worker()
        think(session, seconds, lambda batch: self._deliver([session], [batch]), worker.cancelled_event,
              TURN_FRAME_SECONDS)
        if not worker.is_cancelled:
            self.post_message(Decided(session, decide(session)))

    def on_decided(self, message: Decided) -> None:
        match = self.match
        if match is None or message.session is not self._turn:
            return
        self._turn = None
        mover = match.to_move()
        assert mover is not None
        label = match.state.move_label(message.decision.move)
        match.play(message.decision.move)
        self._note = f"{self._letter(mover)} played {label}"
        self._next_turn()

    def _letter(self, agent: Agent) -> str:
        return LETTERS[0] if agent is self.agents[0] else LETTERS[1]

    # ----------------------------------------------------------------- choosing the agents

    def action_edit_agents(self) -> None:
        bar = self.query_one("#bar")
        bar.display = True
        self.query_one("#bar-error", Static).update("")
        field = self.query_one("#bar-input", Input)
        field.value = " ".join(agent.spec.label() for agent in self.agents)
        field.focus()

    @on(Input.Submitted, "#bar-input")
    async def _agents_submitted(self, event: Input.Submitted) -> None:
        try:
            agents = compared_agents(event.value.split(), self.total, self.state.game)
        except UserError as error:
            self.query_one("#bar-error", Static).update(Text(str(error)))
            return
        await self.compare(agents)
        self._close_bar()

    async def compare(self, agents: Sequence[Agent]) -> None:
        """Compare ``agents`` from now on (every search starts again)."""
        self._stop()
        self.match = None
        self.agents = list(agents)
        await self._mount_panes()
        self._new_sessions()

    def _close_bar(self) -> None:
        self.query_one("#bar").display = False
        self.focus_next()

    def action_back(self) -> None:
        if self.query_one("#bar").display:
            self._close_bar()
        elif self.match is not None:
            self._leave_match()
        else:
            self._stop()
            self.workers.cancel_group(self, "analysis")
            self.app.pop_screen()

    # ----------------------------------------------------------------- showing

    def _refresh(self) -> None:
        board = self.query_one(Board)
        match = self.match
        state = match.state if match is not None else self.state
        board.show(state)
        marked, notes = board_marks(state, self.analysis, match is None)
        board.annotate(marked=marked, notes=notes)
        board.border_title = "match" if match is not None else "position"
        self.query_one("#summary", Static).update(self._match_summary() if match is not None else self._summary())
        self._show_status()

    def summary_rows(self) -> list[tuple[str, str, str, Text]]:
        """For each compared agent: its letter, the move it would play now, what it has spent, and for
        Connect Four the solver's verdict on that move (``+2 ✓`` among the best, ``-1 ✗`` not, ``…`` unknown)."""
        rows = []
        for letter, session in zip(LETTERS, self.sessions, strict=False):
            with session.lock:
                move = session.searcher.best_move()
                stats = replace(session.searcher.stats)
            spent = f"{stats.seconds:.2f}" if self.total.seconds is not None else format_count(stats.moves)
            shown = "–" if move is None else self.state.move_label(move)
            rows.append((letter, shown, spent, self._verdict(move)))
        return rows

    def _summary(self) -> Table:
        table = Table(box=None, padding=(0, 1), show_edge=False, expand=True, caption_justify="left")
        table.add_column("", style="bold")
        table.add_column("plays", justify="center")
        table.add_column("seconds" if self.total.seconds is not None else "moves", justify="right")
        solver = isinstance(self.state, Connect4State)
        if solver:
            table.add_column("solver", justify="right")
            table.caption = ("solver: the score of the move for the player to move (+ wins, 0 draws, - loses); "
                             "✓ among the best. Under the board: every column's (green wins, red loses)")
        for letter, move, spent, verdict in self.summary_rows():
            table.add_row(letter, move, spent, *([verdict] if solver else []))
        return table

    def _verdict(self, move: Move | None) -> Text:
        """The solver's score of ``move`` and whether it is among the best (blank when not Connect Four)."""
        analysis = self.analysis
        if not isinstance(self.state, Connect4State) or move is None:
            return Text("")
        if analysis is None or not isinstance(move, int):
            return Text("…")
        note = analysis.note(move)
        if move in analysis.best():
            return Text(f"{note} ✓", "bold green")
        if analysis.worse(move):
            return Text(f"{note} ✗", "red")
        return Text(note)

    def _match_summary(self) -> Text:
        match = self.match
        assert match is not None
        board = self.query_one(Board)
        text = Text()
        for player in (1, -1):
            agent = match.controller(player)
            assert agent is not None
            style = board.get_component_rich_style("board--first" if player == 1 else "board--second")
            text.append("●", style)
            text.append(f" {self._letter(agent)} {agent.label}\n")
        text.append("moves ", "dim")
        text.append(match.history() or "–")
        return text

    def _show_status(self) -> None:
        position = self.state.text() or "start"
        budget = (f"{self.total.seconds:g} s of search" if self.total.seconds is not None
                  else f"{format_count(self.total.moves or 0)} moves")
        match = self.match
        if match is not None:
            first = Text.assemble((self.state.game.name, "bold"), f" · from {position} · match ",
                                  (f"{LETTERS[0]} vs {LETTERS[1]}", "bold"), f" · {budget} a turn")
            second = self._match_state(match)
        else:
            first = Text.assemble((self.state.game.name, "bold"), f" · {position} · {len(self.agents)} agents · ",
                                  (budget, "bold"), " each, in lockstep")
            if self._run_worker is not None:
                second = Text("▶ running to the budget in equal increments")
            elif self.sessions and all(session.ended for session in self.sessions):
                second = Text("■ every agent has spent its budget (or finished) · x: again · m: a match")
            else:
                second = Text("s: one step each · r: run all to the budget · m: a match between A and B")
        if self._note:
            second.append(f" · {self._note}", "italic")
        self.query_one("#status", Static).update(Text("\n").join([first, second]), layout=False)

    def _match_state(self, match: PlayedGame) -> Text:
        state = match.state
        if state.is_terminal():
            winner = state.winner()
            if winner == 0:
                return Text("■ a draw · x: play it again · m: back to the comparison")
            assert winner is not None
            agent = match.controller(winner)
            assert agent is not None
            return Text(f"■ {self._letter(agent)} ({agent.label}) won · x: play it again · m: back to the comparison")
        agent = match.to_move()
        assert agent is not None
        return Text(f"▶ {self._letter(agent)} is thinking… (move {state.ply + 1})")

    def _refuse(self, reason: str) -> None:
        self._note = reason
        self.notify(reason, severity="warning", timeout=4)
        self._show_status()

    # ----------------------------------------------------------------- command palette

    def palette_commands(self) -> Iterator[SystemCommand]:
        yield from binding_commands(self)

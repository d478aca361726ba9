"""The explorer screen: the board beside the live search tree, a status line and the stats panel.

Searching happens in thread workers: ``Session.drive`` takes steps in frames and posts each
frame's batch as a ``Progress`` message; the worker waits until the screen has shown it
before taking more, so the tree the screen reads only changes between two repaints.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import SimpleCommand
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from engine.agents import Agent, turn_limit
from engine.errors import UserError
from engine.game_record import PlayedGame
from engine.games import GAME_CHOICES, Move
from engine.search.base import Limit, Node
from engine.search.registry import AgentSpec, fitting_algorithms
from tui.formatting import format_count, format_number
from tui.screens.compare import COMPARE_MOVES, CompareScreen, default_rivals
from tui.screens.help import binding_commands
from tui.screens.play import PlayScreen
from tui.screens.setup import SetupScreen
from tui.session import DEFAULT_BUDGET, Batch, RateMeter, SearchConfig, Session
from tui.widgets.board import Board
from tui.widgets.search_tree import SearchTree
from tui.widgets.stats import StatsPanel

SPEEDS: tuple[float | None, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, None)
"""Run speeds in steps per second; ``None`` runs flat out."""
DEFAULT_SPEED = 10


class ExploreScreen(Screen[None]):
    """One searcher on one position: step it, run it, and watch its tree grow."""

    CSS_PATH = "explore.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "step(1)", "Step"),
        Binding("d", "step(10)", "×10"),
        Binding("f", "step(100)", "×100"),
        Binding("r", "run", "Run"),
        Binding("plus,equals_sign", "speed(1)", "Faster run", show=False),
        Binding("minus", "speed(-1)", "Slower run", show=False),
        Binding("x", "reset", "Reset"),
        Binding("right_square_bracket", "budget(2)", "Double the budget", show=False),
        Binding("left_square_bracket", "budget(0.5)", "Halve the budget", show=False),
        Binding("e", "setup", "Setup"),
        Binding("a", "choose_algorithm", "Choose the algorithm", show=False),
        Binding("g", "choose_game", "Choose the game", show=False),
        Binding("p", "edit_position", "Type a position", show=False),
        Binding("b", "play_best", "Play the best move", show=False),
        Binding("u", "undo", "Take back the last move played", show=False),
        Binding("o", "follow", "Follow mode on/off", show=False),
        Binding("v", "reveal_pv", "Open the principal variation in the tree", show=False),
        Binding("escape", "back", "Board back to the principal variation; close the position bar", show=False),
        Binding("P", "play", "Play from this position against this algorithm", show=False),
        Binding("C", "compare", "Compare this algorithm with another on this position", show=False),
    ]

    class Progress(Message):
        """A batch of steps of ``session``, to show; ``shown`` is set once it is on screen."""

        def __init__(self, session: Session, batch: Batch, shown: threading.Event) -> None:
            super().__init__()
            self.session = session
            self.batch = batch
            self.shown = shown

    def __init__(self, session: Session, *, clock: Callable[[], float] = time.perf_counter) -> None:
        """``clock`` measures steps per second (a fixed clock shows none, for stable snapshots)."""
        super().__init__()
        self.session = session
        self.speed: float | None = DEFAULT_SPEED
        """Run speed in steps per second (``None``: flat out); the search thread reads it every frame."""
        self.chosen: Node | None = None
        """The node whose position the board shows, or ``None`` for the principal variation."""
        self.played: list[SearchConfig] = []
        """Configurations before each move played on the board, for undo."""
        self.rate = RateMeter(clock)
        self._run_worker: Worker[None] | None = None
        self._note = ""
        """What happened last, for the status line (a step's note, or a refused action)."""

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Board(self.session.state, id="board")
                yield StatsPanel(id="stats")
            yield SearchTree(id="tree")
        with Vertical(id="position-bar"):
            yield Input(placeholder="position: a move string like 4453, or piles like 3,4,5", id="position-input")
            yield Static(id="position-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stats", StatsPanel).border_title = "stats"
        self.adopt(self.session)
        self.query_one(SearchTree).focus()

    @property
    def running(self) -> bool:
        """Whether a run (not a fixed number of steps) is going on."""
        worker = self._run_worker
        return worker is not None and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)

    # ----------------------------------------------------------------- searching

    def action_step(self, count: int) -> None:
        """Take ``count`` steps (after pausing a run)."""
        self._pause()
        if self.session.ended:
            self._refuse(self._end_reason())
            return
        self._drive(self.session, count, paced=False)

    def action_run(self) -> None:
        """Run at the chosen speed until the budget or the end of the search; pause if running."""
        if self.running:
            self._pause()
        elif self.session.ended:
            self._refuse(self._end_reason())
        else:
            self._run_worker = self._drive(self.session, None, paced=True)
        self._show_status()

    def action_speed(self, change: int) -> None:
        index = SPEEDS.index(self.speed) if self.speed in SPEEDS else SPEEDS.index(DEFAULT_SPEED)
        self.speed = SPEEDS[min(max(0, index + change), len(SPEEDS) - 1)]
        self._show_status()

    def action_budget(self, factor: float) -> None:
        """Scale the move budget by ``factor`` (halving "no bound" gives the default budget)."""
        budget = self.session.budget
        unbounded = DEFAULT_BUDGET if factor < 1 else None
        self.session.set_budget(unbounded if budget is None else max(1, int(budget * factor)))
        self._show_status()

    def action_reset(self) -> None:
        """Start the same search again (same seed, same tree)."""
        self.adopt(self.session.renewed())

    @work(thread=True, group="search")
    def _drive(self, session: Session, steps: int | None, paced: bool) -> None:
        """The search thread: ``steps`` steps, or a run paced by ``self.speed``."""
        worker = get_current_worker()

        def deliver(batch: Batch) -> None:
            shown = threading.Event()
            self.post_message(self.Progress(session, batch, shown))
            while not shown.wait(0.05):
                if worker.is_cancelled:
                    return

        session.drive(steps, (lambda: self.speed) if paced else (lambda: None), deliver, worker.cancelled_event)

    def on_explore_screen_progress(self, message: Progress) -> None:
        try:
            if message.session is self.session:
                if message.batch.last is not None:
                    self._note = message.batch.last.note
                self.rate.add(self.session.searcher.stats.iterations)
                self._show(message.batch)
        finally:
            # The search thread goes on once the batch is painted: it competes for the GIL
            # with the event loop, so it must not run while the screen repaints.
            self.call_after_refresh(message.shown.set)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._run_worker and event.state in (WorkerState.SUCCESS, WorkerState.CANCELLED,
                                                                   WorkerState.ERROR):
            self._run_worker = None
            self.rate.clear()
            self._show_status()

    def _pause(self) -> None:
        if self._run_worker is not None:
            self._run_worker.cancel()
            self._run_worker = None
            self.rate.clear()

    # ----------------------------------------------------------------- choosing

    def adopt(self, session: Session) -> None:
        """Explore ``session`` from now on (the previous search stops)."""
        self.workers.cancel_group(self, "search")
        self._run_worker = None
        self.session = session
        self.chosen = None
        self.rate.clear()
        self._note = ""
        self.query_one(SearchTree).show_searcher(session.searcher, session.lock)
        self._show(None)

    def _try(self, config: SearchConfig) -> bool:
        """Adopt a session built from ``config``; on bad input say why and change nothing."""
        try:
            session = Session.create(config)
        except UserError as error:
            self._refuse(str(error))
            return False
        self.adopt(session)
        return True

    def choose_algorithm(self, name: str) -> None:
        """Search with ``name`` and its default parameters."""
        self._try(replace(self.session.config, algorithm=name, params={}))

    def choose_game(self, name: str) -> None:
        """Explore the start of game ``name`` with the default algorithm for it if the current one does not fit."""
        fits = any(info.name == self.session.config.algorithm for info in fitting_algorithms(name))
        config = replace(self.session.config, game=name, position="")
        if not fits:
            config = replace(config, algorithm=None, params={})
        if self._try(config):
            self.played.clear()

    def action_setup(self, focus: str | None = None) -> None:
        def adopt(session: Session | None) -> None:
            if session is not None:
                self.adopt(session)

        self.app.push_screen(SetupScreen(self.session.config, focus=focus), adopt)

    def action_choose_algorithm(self) -> None:
        game = self.session.config.game
        self.app.search_commands(
            [SimpleCommand(info.name, partial(self.choose_algorithm, info.name), info.description)
             for info in fitting_algorithms(game)],
            placeholder="Algorithm (default parameters; e for the form)…",
        )

    def action_choose_game(self) -> None:
        self.app.search_commands(
            [SimpleCommand(name, partial(self.choose_game, name), "from its start position") for name in GAME_CHOICES],
            placeholder="Game…",
        )

    def action_edit_position(self) -> None:
        bar = self.query_one("#position-bar")
        bar.display = True
        field = self.query_one("#position-input", Input)
        field.value = self.session.config.position
        self.query_one("#position-error", Static).update("")
        field.focus()

    @on(Input.Submitted, "#position-input")
    def _position_submitted(self, event: Input.Submitted) -> None:
        try:
            session = Session.create(replace(self.session.config, position=event.value.strip()))
        except UserError as error:
            self.query_one("#position-error", Static).update(Text(str(error)))
            return
        self.played.clear()
        self._close_position_bar()
        self.adopt(session)

    def _close_position_bar(self) -> None:
        self.query_one("#position-bar").display = False
        self.query_one(SearchTree).focus()

    def on_board_move_played(self, message: Board.MovePlayed) -> None:
        self._play(message.move)

    def on_board_illegal_move(self, message: Board.IllegalMove) -> None:
        self._refuse(message.reason)

    def action_play_best(self) -> None:
        with self.session.lock:
            best = self.session.searcher.best_move()
        if best is None:
            self._refuse("no best move yet: take a step first")
        else:
            self._play(best)

    def _play(self, move: Move) -> None:
        """Explore the position after ``move`` with the same algorithm and parameters."""
        state = self.session.state
        after = state.play(move)
        if after.is_terminal():
            winner = after.winner()
            outcome = "a draw" if winner == 0 else ("a win for the first player" if winner == 1
                                                    else "a win for the second player")
            self._refuse(f"{state.move_label(move)} ends the game ({outcome}): nothing left to search")
            return
        previous = self.session.config
        if self._try(replace(previous, position=after.text())):
            self.played.append(previous)

    def action_undo(self) -> None:
        if not self.played:
            self._refuse("no move to take back")
            return
        if self._try(replace(self.played[-1], budget=self.session.budget)):
            self.played.pop()

    def action_play(self) -> None:
        """Open the play screen on this position: you against this algorithm (which also gives the hints)."""
        self._pause()
        config = self.session.config
        agent = Agent(AgentSpec(config.algorithm or "", dict(config.params)), turn_limit(None, None))
        played = PlayedGame(self.session.state, None, agent, seed=config.seed)
        self.app.push_screen(PlayScreen(played, hint=agent, clock=self.rate.clock))

    def action_compare(self) -> None:
        """Open the compare screen on this position: this algorithm beside another, at equal budgets."""
        self._pause()
        config = self.session.config
        total = Limit(moves=COMPARE_MOVES)
        agents = default_rivals(self.session.state, AgentSpec(config.algorithm or "", dict(config.params)), total)
        self.app.push_screen(CompareScreen(self.session.state, agents, total, seed=config.seed,
                                           clock=self.rate.clock))

    # ----------------------------------------------------------------- the tree and the board

    def action_follow(self) -> None:
        tree = self.query_one(SearchTree)
        tree.follow = not tree.follow
        self._show_status()

    def action_reveal_pv(self) -> None:
        with self.session.lock:
            path = self.session.searcher.principal_path()
        self.query_one(SearchTree).reveal(path)

    def on_search_tree_node_chosen(self, message: SearchTree.NodeChosen) -> None:
        self.chosen = message.node
        self._show_board()
        self._show_status()

    def action_back(self) -> None:
        if self.query_one("#position-bar").display:
            self._close_position_bar()
            return
        self.chosen = None
        self._show_board()
        self._show_status()

    # ----------------------------------------------------------------- showing

    def _show(self, batch: Batch | None) -> None:
        """Bring every pane up to date with the session (and with ``batch``, the steps just taken)."""
        session = self.session
        with session.lock:
            if batch is not None:
                self.query_one(SearchTree).apply(batch, session.searcher.principal_path())
            self.query_one("#stats", StatsPanel).show(replace(session.searcher.stats), self.rate.rate(),
                                                       session.history.values)
            self._show_board()
            self._show_status()

    def _show_board(self) -> None:
        session = self.session
        board = self.query_one("#board", Board)
        with session.lock:
            searcher = session.searcher
            best = searcher.best_move()
            if self.chosen is not None:
                board.show(session.state, self.chosen.moves(), best)
                board.border_title = "node " + " ".join(
                    session.state.move_label(m) for m in self.chosen.moves()) if self.chosen.parent else "root"
                board.border_subtitle = "esc: back to the PV"
            else:
                board.show(session.state, searcher.principal_variation(), best)
                board.border_title = "principal variation"
                board.border_subtitle = ""

    def _show_status(self) -> None:
        session = self.session
        config = session.config
        with session.lock:
            searcher = session.searcher
            stats = searcher.stats
            best = searcher.best_move()
            value = searcher.value()
            finished = searcher.finished
        budget = "no bound" if config.budget is None else format_count(config.budget)
        position = config.position or "start"
        first = Text.assemble(
            (config.game, "bold"), " · ", position, " · ", (config.label(), "bold"),
            f" · moves {format_count(stats.moves)}/{budget}",
        )
        speed = "max" if self.speed is None else f"{self.speed:g}/s"
        if self.running:
            state = f"▶ running {speed}"
        elif finished:
            state = "■ search finished"
        elif session.ended:
            state = "■ budget spent ([ ] change it)"
        else:
            state = f"paused ({speed})"
        best_text = "–" if best is None else session.state.move_label(best)
        second = Text.assemble(
            f"best {best_text} · value {format_number(value)} (first player) · ", state,
            " · follow" if self.query_one(SearchTree).follow else "",
        )
        if self._note:
            second.append(f" · {self._note}", "italic")
        self.query_one("#status", Static).update(Text("\n").join([first, second]), layout=False)

    def _refuse(self, reason: str) -> None:
        """Say why an action did nothing (nothing else changes)."""
        self._note = reason
        self.notify(reason, severity="warning", timeout=4)
        self._show_status()

    def _end_reason(self) -> str:
        if self.session.searcher.finished:
            return "the search is finished: x resets it, e changes it"
        return "the budget is spent: ] doubles it"

    # ----------------------------------------------------------------- command palette

    def palette_commands(self) -> Iterator[SystemCommand]:
        """The palette's commands for this screen: every binding, algorithms, games and parameters."""
        yield from binding_commands(self)
        for info in fitting_algorithms(self.session.config.game):
            yield SystemCommand(f"Algorithm: {info.name}", info.description, partial(self.choose_algorithm, info.name))
        for name in GAME_CHOICES:
            yield SystemCommand(f"Game: {name}", "explore its start position", partial(self.choose_game, name))
        algorithm = self.session.config.algorithm or ""
        for info in fitting_algorithms(self.session.config.game):
            if info.name == algorithm:
                for param in info.params:
                    yield SystemCommand(f"Parameter: {param.name}…", f"{param.help} ({param.range_text()})",
                                        partial(self.action_setup, f"param-{param.name}"))

"""The explorer screen: the board beside one live search (``SearchPane``), a status line and a prompt bar.

Searching happens in a thread hosted by ``SearchScreen.host``: ``Session.drive`` takes steps
in frames and each frame is painted before the search goes on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import SimpleCommand
from textual.containers import Horizontal, Vertical
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from engine.agents import Agent, turn_limit
from engine.errors import UserError
from engine.game_record import PlayedGame
from engine.games import GAME_CHOICES, Move
from engine.search.base import Limit, Node
from engine.search.registry import fitting_algorithms
from tui.contest import compared_agents
from tui.formatting import format_count, move_labels, verdict_words
from tui.screens.base import Deliver, SearchScreen
from tui.screens.compare import COMPARE_MOVES, CompareScreen, default_rival
from tui.screens.play import PlayScreen
from tui.screens.setup import SetupScreen
from tui.session import Batch, SearchConfig, Session
from tui.widgets.board import Board
from tui.widgets.footer import KeyFooter
from tui.widgets.prompt_bar import PromptBar
from tui.widgets.reading_guide import ReadingGuide
from tui.widgets.search_pane import SearchPane
from tui.widgets.search_tree import SearchTree

SPEEDS: tuple[float | None, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, None)
"""Run speeds in steps per second; ``None`` runs flat out."""
DEFAULT_SPEED = 10


class ExploreScreen(SearchScreen):
    """One searcher on one position: step it, run it, and watch its tree grow."""

    CSS_PATH = "explore.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "step(1)", "Step"),
        Binding("d", "step(10)", "×10"),
        Binding("f", "step(100)", "×100"),
        Binding("comma", "timeline('back')", "Back", tooltip="Timeline: one step back"),
        Binding("full_stop", "timeline('forward')", "Fwd", tooltip="Timeline: one step forward"),
        Binding("r", "run", "Run"),
        Binding("plus,equals_sign", "speed(1)", "Faster run", show=False),
        Binding("minus", "speed(-1)", "Slower run", show=False),
        Binding("x", "reset", "Reset"),
        Binding(
            "right_square_bracket", "raise_budget", "Double the budget (or the node cap, once reached)", show=False
        ),
        Binding("left_square_bracket", "halve_budget", "Halve the budget", show=False),
        Binding("e", "setup", "Setup"),
        Binding("a", "choose_algorithm", "Choose the algorithm", show=False),
        Binding("g", "choose_game", "Choose the game", show=False),
        Binding("p", "edit_position", "Type a position", show=False),
        Binding("b", "play_best", "Play the best move", show=False),
        Binding("u", "undo", "Take back the last move played", show=False),
        Binding("o", "follow", "Follow mode on/off", show=False),
        Binding("v", "reveal_pv", "Open the principal variation in the tree", show=False),
        Binding("escape", "back", "Board back to the principal variation", show=False),
        Binding("P", "play", "Play from this position against this algorithm", show=False),
        Binding("C", "compare", "Compare this algorithm with others on this position", show=False),
        Binding("w", "export", "Write the search to a file (.json to replay, .dot for Graphviz)", show=False),
        *(
            Binding(key, f"play_column({column})", f"Play column {key}", show=False)
            for column, key in enumerate("1234567890")
        ),
    ]

    def __init__(self, session: Session, *, clock: Callable[[], float] = time.perf_counter) -> None:
        """``clock`` measures steps per second (a fixed clock shows none, for stable snapshots)."""
        super().__init__()
        self.session = session
        self.clock = clock
        self.speed: float | None = DEFAULT_SPEED
        """Run speed in steps per second (``None``: flat out); the search thread reads it every frame."""
        self.chosen: Node | None = None
        """The node whose position the board shows, or ``None`` for the principal variation."""
        self.played: list[SearchConfig] = []
        """Configurations before each move played on the board, for undo."""
        self._run_worker: Worker[None] | None = None

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Board(self.session.state, id="board")
                yield ReadingGuide(id="details")
            yield SearchPane(clock=self.clock, id="pane")
        yield PromptBar()
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(ReadingGuide).border_title = "reading the tree"
        self.adopt(self.session)
        self.query_one(SearchTree).focus()

    @property
    def pane(self) -> SearchPane:
        return self.query_one(SearchPane)

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
            self.refuse(self.session.stop_words()[1])
            return
        self._drive(count, paced=False)

    def action_run(self) -> None:
        """Run at the chosen speed until the budget or the end of the search; pause if running."""
        if self.running:
            self._pause()
        elif self.session.ended:
            self.refuse(self.session.stop_words()[1])
        else:
            self._run_worker = self._drive(None, paced=True)
        self.show_status()

    def action_speed(self, change: int) -> None:
        index = SPEEDS.index(self.speed) if self.speed in SPEEDS else SPEEDS.index(DEFAULT_SPEED)
        self.speed = SPEEDS[min(max(0, index + change), len(SPEEDS) - 1)]
        self.show_status()

    def action_raise_budget(self) -> None:
        """Double the move budget; when the node cap stopped the search, double the cap and say what it costs."""
        self.say(self.session.double_budget())

    def action_halve_budget(self) -> None:
        """Halve the move budget ("no bound" becomes the default budget)."""
        self.say(self.session.halve_budget())

    def action_reset(self) -> None:
        """Start the same search again (same seed, same tree)."""
        self.adopt(self.session.renewed())

    def _drive(self, steps: int | None, paced: bool) -> Worker[None]:
        """A search thread taking ``steps`` steps, or a run paced by ``self.speed``."""
        session = self.session
        rate: Callable[[], float | None] = (lambda: self.speed) if paced else (lambda: None)

        def job(deliver: Deliver, stop: threading.Event) -> None:
            session.drive(steps, rate, lambda batch: deliver([(session, batch)]), stop)

        return self.host(job)

    def batches_shown(self, batches: Sequence[tuple[Session, Batch]]) -> None:
        for session, batch in batches:
            if session is self.session and batch.last is not None:
                self.note = batch.last.note
        self._show_board()
        self.show_status()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._run_worker and event.state in (
            WorkerState.SUCCESS,
            WorkerState.CANCELLED,
            WorkerState.ERROR,
        ):
            self._run_worker = None
            self.pane.rate.clear()
            self.show_status()

    def _pause(self) -> None:
        if self._run_worker is not None:
            self._run_worker.cancel()
            self._run_worker = None
            self.pane.rate.clear()

    # ----------------------------------------------------------------- choosing

    def adopt(self, session: Session) -> None:
        """Explore ``session`` from now on (the previous search stops)."""
        self.stop_searches()
        self._run_worker = None
        self.session = session
        self.chosen = None
        self.note = ""
        self.pane.show(session)
        self.pane.border_title = session.config.label()
        self._show_board()
        self._show_details()
        self.show_status()
        if session.saved is not None:
            self.pane.reveal_step()
            self.call_after_refresh(self.open_saved, session)  # the saved tree on the screen first
        else:
            self.workers.cancel_group(self, "replay")

    def _try(self, config: SearchConfig) -> bool:
        """Adopt a session built from ``config``; on bad input say why and change nothing."""
        try:
            session = Session.create(config)
        except UserError as error:
            self.refuse(str(error))
            return False
        self.adopt(session)
        return True

    def choose_algorithm(self, name: str) -> None:
        """Search with ``name`` and its default parameters."""
        self._try(self.session.config.with_algorithm(name))

    def choose_game(self, name: str) -> None:
        """Explore the start of game ``name``, with the default algorithm for it if the current one does not fit."""
        fits = any(info.name == self.session.config.algorithm for info in fitting_algorithms(name))
        config = replace(self.session.config, game=name, position="")
        if not fits:
            config = config.with_algorithm(None)
        if self._try(config):
            self.played.clear()

    def action_setup(self, focus: str | None = None) -> None:
        def adopt(session: Session | None) -> None:
            if session is not None:
                self.played.clear()
                self.adopt(session)

        self.app.push_screen(SetupScreen(self.session.config, focus=focus), adopt)

    def action_choose_algorithm(self) -> None:
        self.app.search_commands(
            [
                SimpleCommand(info.name, partial(self.choose_algorithm, info.name), info.description)
                for info in fitting_algorithms(self.session.config.game)
            ],
            placeholder="Algorithm (default parameters; e for the form)…",
        )

    def action_choose_game(self) -> None:
        self.app.search_commands(
            [SimpleCommand(name, partial(self.choose_game, name), "from its start position") for name in GAME_CHOICES],
            placeholder="Game…",
        )

    def action_edit_position(self) -> None:
        self.query_one(PromptBar).ask(
            "position",
            "position",
            self.session.config.position,
            placeholder="a move string like 4453, or piles like 3,4,5; blank: the start",
        )

    @on(PromptBar.Answered)
    def _answered(self, event: PromptBar.Answered) -> None:
        try:
            if event.purpose == "position":
                session = Session.create(replace(self.session.config, position=event.value))
                self.played.clear()
                event.bar.close()
                self.adopt(session)
            elif event.purpose == "compare":
                self._open_compare(event.value)
                event.bar.close()
            elif event.purpose == "export":
                self.export_search(event.value)
                event.bar.close()
        except UserError as error:
            event.bar.fail(str(error))

    def action_play_column(self, column: int) -> None:
        """A digit key plays on the board whichever pane has the focus."""
        self.query_one(Board).action_play_column(column)

    def on_board_move_played(self, message: Board.MovePlayed) -> None:
        self._play(message.move)

    def on_board_illegal_move(self, message: Board.IllegalMove) -> None:
        self.refuse(message.reason)

    def action_play_best(self) -> None:
        with self.session.lock:
            best = self.session.searcher.best_move()
        if best is None:
            self.refuse("no best move yet: take a step first")
        else:
            self._play(best)

    def _play(self, move: Move) -> None:
        """Explore the position after ``move`` with the same algorithm and parameters."""
        state = self.session.state
        if move not in state.legal_moves():  # keys typed faster than the board is redrawn
            self.refuse(f"{state.move_label(move)} cannot be played here")
            return
        after = state.play(move)
        winner = after.winner()
        if winner is not None:
            self.refuse(f"{state.move_label(move)} ends the game ({verdict_words(winner, winner)}): nothing to search")
            return
        previous = self.session.config
        if self._try(replace(previous, position=after.text())):
            self.played.append(previous)

    def action_undo(self) -> None:
        if not self.played:
            self.refuse("no move to take back")
            return
        if self._try(replace(self.played[-1], budget=self.session.budget)):
            self.played.pop()

    def action_play(self) -> None:
        """Open the play screen on this position: you against this algorithm (which also gives the hints)."""
        self._pause()
        agent = Agent(self.session.config.spec(), turn_limit(None, None))
        played = PlayedGame(self.session.state, None, agent, seed=self.session.config.seed)
        self.app.push_screen(PlayScreen(played, hint=agent, clock=self.clock))

    def action_compare(self) -> None:
        """Ask which agents to set beside this algorithm on this position (a rival is proposed)."""
        spec = self.session.config.spec()
        rival = default_rival(self.session.state, spec)
        self.query_one(PromptBar).ask(
            "compare",
            f"compare {spec.label()} with",
            rival,
            placeholder="one to three agents, e.g. mcts:k=32 alphabeta",
        )

    def _open_compare(self, rivals: str) -> None:
        if not rivals:
            raise UserError("name one to three agents to compare with, e.g. mcts alphabeta")
        total = Limit(moves=COMPARE_MOVES)
        state = self.session.state
        agents = compared_agents([self.session.config.label(), *rivals.split()], total, state.game)
        self._pause()
        self.app.push_screen(CompareScreen(state, agents, total, seed=self.session.config.seed, clock=self.clock))

    # ----------------------------------------------------------------- the tree and the board

    def action_follow(self) -> None:
        tree = self.query_one(SearchTree)
        tree.follow = not tree.follow
        self.show_status()

    def action_reveal_pv(self) -> None:
        with self.session.lock:
            line = self.session.searcher.principal_variation()
        followed = self.query_one(SearchTree).reveal_moves(line)
        if not line:
            self.refuse("no principal variation yet: take a step first")
        elif followed < len(line):
            self.say(
                f"the tree shown holds {followed} of the principal variation's {len(line)} moves "
                "(alpha-beta shows the iteration under way; its line is the last complete one's)"
            )

    def on_search_tree_node_chosen(self, message: SearchTree.NodeChosen) -> None:
        self.chosen = message.node
        self._show_board()
        self._show_details()

    def action_back(self) -> None:
        self.chosen = None
        self._show_board()
        self._show_details()

    # ----------------------------------------------------------------- showing

    def _show_board(self) -> None:
        """The board shows the chosen node's position, or the principal variation."""
        session = self.session
        board = self.query_one(Board)
        with session.lock:
            searcher = session.searcher
            moves = self.chosen.moves() if self.chosen is not None else searcher.principal_variation()
            board.show(session.state, moves, searcher.best_move())
        if self.chosen is not None:
            titles = (f"node {move_labels(session.state, moves)}" if moves else "root", "esc: back to the PV")
        else:
            titles = ("principal variation", "")
        if (board.border_title, board.border_subtitle) != titles:  # setting either repaints the whole board
            board.border_title, board.border_subtitle = titles

    def _show_details(self) -> None:
        self.query_one(ReadingGuide).show_session(self.session, self.chosen)

    def status_lines(self) -> tuple[Text, Text]:
        session = self.session
        config = session.config
        with session.lock:
            spent = session.searcher.stats.moves
        budget = "no bound" if config.budget is None else format_count(config.budget)
        first = Text.assemble(
            (config.game, "bold"),
            " · ",
            config.position or "start",
            " · ",
            (config.label(), "bold"),
            f" · moves {format_count(spent)}/{budget}",
        )
        speed = "max" if self.speed is None else f"{self.speed:g}/s"
        stopped = session.stop_words()[0]
        second = Text(f"▶ running {speed}" if self.running else stopped or f"paused ({speed})")
        if self.query_one(SearchTree).follow:
            second.append(" · follow")
        return first, second

    # ----------------------------------------------------------------- command palette

    def palette_commands(self) -> Iterator[SystemCommand]:
        """The palette's commands for this screen: every binding, algorithms, games and parameters."""
        yield from super().palette_commands()
        config = self.session.config
        for info in fitting_algorithms(config.game):
            yield SystemCommand(f"Algorithm: {info.name}", info.description, partial(self.choose_algorithm, info.name))
        for name in GAME_CHOICES:
            yield SystemCommand(f"Game: {name}", "explore its start position", partial(self.choose_game, name))
        for param in self.session.info.params:
            yield SystemCommand(
                f"Parameter: {param.name}…",
                f"{param.help} ({param.range_text()})",
                partial(self.action_setup, f"param-{param.name}"),
            )

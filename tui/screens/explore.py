"""The explorer screen: the board beside one live search (``SearchPane``), a status line and a prompt bar.

Searching happens in a thread hosted by ``SearchScreen.host``: ``Session.drive`` takes steps in frames, each painted
before the search goes on.  What is explored, and where the moves played came from, is an ``Exploration``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from plyscope.engine.errors import UserError
from plyscope.engine.search.base import Node
from plyscope.tui.contest import default_rival
from plyscope.tui.formatting import format_count
from plyscope.tui.match import game_against
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.leaf_edit import LeafEditing
from plyscope.tui.screens.palette import algorithm_picks, game_picks, search_commands
from plyscope.tui.screens.phases import PHASES_DESCRIPTION
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.screens.setup import SetupScreen
from plyscope.tui.screens.step_diff import StepDiffScreen
from plyscope.tui.session import DEFAULT_SPEED, Batch, Exploration, Session, next_speed
from plyscope.tui.widgets.board import COLUMN_BINDINGS, Board
from plyscope.tui.widgets.footer import KeyFooter
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.reading_guide import ReadingGuide
from plyscope.tui.widgets.search_pane import SearchPane
from plyscope.tui.widgets.search_tree import SearchTree


class ExploreScreen(LeafEditing, StepDiffScreen):
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
        Binding("i", "phases", PHASES_DESCRIPTION, show=False),
        *COLUMN_BINDINGS,
    ]

    def __init__(self, session: Session, *, clock: Callable[[], float] = time.perf_counter) -> None:
        """``clock`` measures steps per second (a fixed clock shows none, for stable snapshots)."""
        super().__init__()
        self.exploration = Exploration(session)
        self.clock = clock
        self.speed: float | None = DEFAULT_SPEED
        """Run speed in steps per second (``None``: flat out); the search thread reads it every frame."""
        self.chosen: Node | None = None
        """The node whose position the board shows, or ``None`` for the principal variation."""

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
    def session(self) -> Session:
        """The search explored."""
        return self.exploration.session

    @property
    def pane(self) -> SearchPane:
        return self.query_one(SearchPane)

    # ----------------------------------------------------------------- searching

    def action_step(self, count: int) -> None:
        """Take ``count`` steps (after pausing a run); in phase mode, ``s`` tells one phase."""
        self.pause()
        if self.session.ended and not self.session.phases_shown:
            self.refuse(self.session.stop_words()[1])
        elif self.phase_mode and count == 1:
            self.take_phases([self.session])
        else:
            self.host(self.session.driving(count, lambda: None))

    def action_run(self) -> None:
        """Run at the chosen speed until the budget or the end of the search; pause if running."""
        if self.running:
            self.pause()
        elif self.session.ended:
            self.refuse(self.session.stop_words()[1])
        else:
            self.start_run(self.session.driving(None, lambda: self.speed))
        self.show_status()

    def action_speed(self, change: int) -> None:
        self.speed = next_speed(self.speed, change)
        self.show_status()

    def action_raise_budget(self) -> None:
        """Double the move budget; when the node cap stopped the search, double the cap and say what it costs."""
        self.say(self.session.double_budget())

    def action_halve_budget(self) -> None:
        """Halve the move budget ("no bound" becomes the default budget)."""
        self.say(self.session.halve_budget())

    def action_reset(self) -> None:
        """Start the same search again (same seed, same tree)."""
        self.adopt(self.exploration.adopt(self.session.renewed()))

    def batches_shown(self, batches: Sequence[tuple[Session, Batch]]) -> None:
        for session, batch in batches:
            if session is self.session and (batch.last is not None or batch.phase is not None):
                self.note = batch.last.note if batch.last is not None and batch.phase is None else ""
        if self.phase_mode or self.pane.phase is not self.query_one(ReadingGuide).phase:  # (a phase told, or no more)
            self._show_side(self.chosen)
        else:  # (the guide is laid out again when it changes: not at every frame of a run)
            self.query_one(Board).show_search(self.session, self.chosen)
        self.show_status()

    def run_ended(self) -> None:
        self.pane.rate.clear()

    # ----------------------------------------------------------------- choosing

    def adopt(self, session: Session) -> None:
        """Show ``session``, the exploration's search from now on (the previous search stops)."""
        self.pause()
        self.stop_searches()
        self.note = ""
        self.pane.show(session)
        self.pane.border_title = session.config.label()
        self._show_side(None)
        self.show_status()
        self.open_saved(session, self.pane)

    def _try(self, change: Callable[[], Session]) -> None:
        """Show the session ``change`` makes the exploration's; on bad input say why (nothing changes)."""
        try:
            session = change()
        except UserError as error:
            self.refuse(str(error))
        else:
            self.adopt(session)

    def choose_algorithm(self, name: str) -> None:
        """Search with ``name`` and its default parameters."""
        self._try(lambda: self.exploration.search(self.session.config.with_algorithm(name)))

    def choose_game(self, name: str) -> None:
        """Explore the start of game ``name``, with the default algorithm for it if the current one does not fit."""
        self._try(lambda: self.exploration.search(self.session.config.with_game(name), fresh=True))

    def action_setup(self, focus: str | None = None) -> None:
        def adopt(session: Session | None) -> None:
            if session is not None:
                self.adopt(self.exploration.adopt(session, fresh=True))

        self.app.push_screen(SetupScreen(self.session.config, focus=focus), adopt)

    def action_choose_algorithm(self) -> None:
        picks = algorithm_picks(self.session.config.game, self.choose_algorithm)
        self.app.search_commands(picks, placeholder="Algorithm (default parameters; e for the form)…")

    def action_choose_game(self) -> None:
        self.app.search_commands(game_picks(self.choose_game), placeholder="Game…")

    def action_edit_position(self) -> None:
        self.query_one(PromptBar).ask(
            "position",
            self.session.config.position,
            lambda text: self.adopt(self.exploration.search(replace(self.session.config, position=text), fresh=True)),
            placeholder="a move string like 4453, piles like 3,4,5, a tree like ((3,12,8),(2,4,6)); blank: the start",
        )

    def on_board_move_played(self, message: Board.MovePlayed) -> None:
        self._try(lambda: self.exploration.play(message.move))

    def on_board_illegal_move(self, message: Board.IllegalMove) -> None:
        self.refuse(message.reason)

    def action_play_best(self) -> None:
        self._try(lambda: self.exploration.play(None))

    def action_undo(self) -> None:
        self._try(self.exploration.undo)

    def action_play(self) -> None:
        """Open the play screen on this position: you against this algorithm (which also gives the hints)."""
        played = game_against(self.session)
        self._open(PlayScreen(played, hint=played.second, clock=self.clock))

    def _open(self, screen: Screen[None]) -> None:
        """Open ``screen`` over the explorer (a run pauses)."""
        self.pause()
        self.app.push_screen(screen)

    def action_compare(self) -> None:
        """Ask which agents to set beside this algorithm on this position (a rival is proposed)."""
        spec = self.session.config.spec()
        rival = default_rival(self.session.state, spec)
        self.query_one(PromptBar).ask(
            f"compare {spec.label()} with",
            rival,
            lambda rivals: self._open(CompareScreen.beside(self.session, rivals, clock=self.clock)),
            placeholder="one to three agents, e.g. mcts:k=32 alphabeta",
        )

    # ----------------------------------------------------------------- the tree, the board, the status line

    def action_follow(self) -> None:
        self.pane.search_tree.follow = not self.pane.search_tree.follow
        self.show_status()

    def action_reveal_pv(self) -> None:
        try:
            self.say(self.pane.reveal_line() or self.note)
        except UserError as error:
            self.refuse(str(error))

    def on_search_tree_node_chosen(self, message: SearchTree.NodeChosen) -> None:
        self._show_side(message.node)

    def action_back(self) -> None:
        self._show_side(None)

    def _show_side(self, chosen: Node | None) -> None:
        """The board and the reading guide show ``chosen`` (``None``: the principal variation, or in phase mode the
        phase's path and playout) from now on; in phase mode the guide tells the phase first."""
        self.chosen = chosen
        phase = self.pane.phase if self.phase_mode else None
        if phase is not None and chosen is None:
            self.query_one(Board).show_phase(self.session, phase)
        else:
            self.query_one(Board).show_search(self.session, chosen)
        self.query_one(ReadingGuide).show_session(self.session, chosen, phase)

    def status_lines(self) -> tuple[Text, Text]:
        session = self.session
        config = session.config
        with session.lock:
            spent = session.searcher.stats.moves
        budget = "no bound" if config.budget is None else format_count(config.budget)
        where, spending = f" · {config.where()} · ", f" · moves {format_count(spent)}/{budget}"
        first = Text.assemble((config.game, "bold"), where, (config.label(), "bold"), spending)
        speed = "max" if self.speed is None else f"{self.speed:g}/s"
        stopped = session.stop_words()[0]
        second = Text(f"▶ running {speed}" if self.running else stopped or f"paused ({speed})")
        if self.query_one(SearchTree).follow:
            second.append(" · follow")
        if self.phase_mode:
            second.append(" · phase mode (i: off)" + (f": {self.pane.phase.name}" if self.pane.phase else ""), "bold")
        return first, second

    # ----------------------------------------------------------------- command palette

    def palette_commands(self) -> Iterator[SystemCommand]:
        """The palette's choices beyond the keys: algorithms, games and parameters."""
        yield from search_commands(self.session, self.choose_algorithm, self.choose_game, self.action_setup)

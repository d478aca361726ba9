"""The explorer screen: the board beside one live search (``SearchPane``), a status line and a prompt bar.

Searching happens in a thread hosted by ``Searches.host``: ``Session.drive`` takes steps in frames, each painted
before the search goes on.  What is explored, and where the moves played came from, is an ``Exploration``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from plyscope.engine.errors import UserError
from plyscope.tui.components.board_keys import BoardKeys
from plyscope.tui.components.chosen import ChosenNode
from plyscope.tui.components.diffs import StepDiff
from plyscope.tui.components.phases import Phases
from plyscope.tui.components.searches import Batches, Searches
from plyscope.tui.components.size import TooSmall
from plyscope.tui.components.status import StatusLine
from plyscope.tui.components.timeline import WritableTimeline
from plyscope.tui.components.truth import TruthColumn
from plyscope.tui.contest import default_rival
from plyscope.tui.formatting import format_count
from plyscope.tui.match import game_against
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.screens.palette import algorithm_picks, game_picks, search_commands
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.screens.setup import SetupScreen
from plyscope.tui.session import DEFAULT_SPEED, Exploration, Session, next_speed
from plyscope.tui.widgets.boards import board_for, fit_board
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.footer import KeyFooter
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.reading_guide import ReadingGuide
from plyscope.tui.widgets.search_pane import SearchPane
from plyscope.tui.widgets.search_tree import SearchTree


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
        Binding("P", "play", "Play from this position against this algorithm", show=False),
        Binding("C", "compare", "Compare this algorithm with others on this position", show=False),
    ]

    def __init__(self, session: Session, *, clock: Callable[[], float] = time.perf_counter) -> None:
        """``clock`` measures steps per second (a fixed clock shows none, for stable snapshots)."""
        super().__init__()
        self.exploration = Exploration(session)
        self.clock = clock
        self.speed: float | None = DEFAULT_SPEED
        """Run speed in steps per second (``None``: flat out); the search thread reads it every frame."""
        self.status = StatusLine(self.status_lines)
        self.searches = Searches()

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield self.status
        with (
            self.searches,
            WritableTimeline(),
            TruthColumn(),
            Phases(),
            StepDiff(),
            BoardKeys(),
            ChosenNode(self.exploration),
            Horizontal(id="main"),
        ):
            with Vertical(id="side"):
                yield board_for(self.session.state)
                yield ReadingGuide(id="details")
            yield SearchPane(clock=self.clock, id="pane")
        yield PromptBar()
        yield KeyFooter(compact=True)
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one(ReadingGuide).border_title = "reading the tree"
        self.adopt(self.session)
        self.query_one(SearchTree).focus()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmall).fit(event.size)

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
        self.searches.pause()
        phases = self.query_one(Phases)
        if self.session.ended and not self.session.phases_shown:
            self.status.refuse(self.session.stop_words()[1])
        elif phases.on and count == 1:
            phases.take([self.session])
        else:
            self.searches.host(self.session.driving(count, lambda: None))

    def action_run(self) -> None:
        """Run at the chosen speed until the budget or the end of the search; pause if running."""
        if self.searches.running:
            self.searches.pause()
        elif self.session.ended:
            self.status.refuse(self.session.stop_words()[1])
        else:
            self.searches.start_run(self.session.driving(None, lambda: self.speed))
        self.status.show()

    def action_speed(self, change: int) -> None:
        self.speed = next_speed(self.speed, change)
        self.status.show()

    def action_raise_budget(self) -> None:
        """Double the move budget; when the node cap stopped the search, double the cap and say what it costs."""
        self.status.say(self.session.double_budget())

    def action_halve_budget(self) -> None:
        """Halve the move budget ("no bound" becomes the default budget)."""
        self.status.say(self.session.halve_budget())

    def action_reset(self) -> None:
        """Start the same search again (same seed, same tree)."""
        self.adopt(self.exploration.adopt(self.session.renewed()))

    def on_chosen_node_edited(self, message: ChosenNode.Edited) -> None:
        """Search the tree edited from its start, at the chosen speed."""
        self.adopt(message.session)
        self.action_run()

    def on_searches_shown(self, message: Searches.Shown) -> None:
        self.batches_shown(message.batches)

    def batches_shown(self, batches: Batches) -> None:
        """After the pane showed ``batches``: the note, the board and the guide follow (``plyscope bench --ui`` times
        the repaint after this)."""
        for session, batch in batches:
            if session is self.session and (batch.last is not None or batch.phase is not None):
                self.status.note = batch.last.note if batch.last is not None and batch.phase is None else ""
        self.query_one(ChosenNode).follow()
        self.status.show()

    def on_searches_run_ended(self) -> None:
        self.pane.rate.clear()
        self.status.show()

    # ----------------------------------------------------------------- choosing

    def adopt(self, session: Session) -> None:
        """Show ``session``, the exploration's search from now on (the previous search stops)."""
        self.searches.pause()
        self.searches.stop()
        self.status.note = ""
        self.pane.show(session)
        self.pane.border_title = session.config.label()
        fit_board(self.query_one(Board), session.state)
        self.query_one(ChosenNode).show(None)
        self.status.show()
        self.searches.open_saved(session, self.pane)

    def _try(self, change: Callable[[], Session]) -> None:
        """Show the session ``change`` makes the exploration's; on bad input say why (nothing changes)."""
        try:
            session = change()
        except UserError as error:
            self.status.refuse(str(error))
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
        self.status.refuse(message.reason)

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
        self.searches.pause()
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
        self.status.show()

    def action_reveal_pv(self) -> None:
        try:
            self.status.say(self.pane.reveal_line() or self.status.note)
        except UserError as error:
            self.status.refuse(str(error))

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
        second = Text(f"▶ running {speed}" if self.searches.running else stopped or f"paused ({speed})")
        if self.query_one(SearchTree).follow:
            second.append(" · follow")
        if self.query_one(Phases).on:
            second.append(" · phase mode (i: off)" + (f": {self.pane.phase.name}" if self.pane.phase else ""), "bold")
        return first, second

    # ----------------------------------------------------------------- command palette

    def palette_commands(self) -> Iterator[SystemCommand]:
        """The palette's choices beyond the keys: algorithms, games and parameters."""
        yield from search_commands(self.session, self.choose_algorithm, self.choose_game, self.action_setup)

"""The play screen: a human or an agent on each side of the board, the agents' search live in a ``SearchPane``.

Turns come from a ``MatchRunner`` (``tui.match``) and run through ``SearchScreen.start_turn``,
as in compare's match mode.  Undo, redo, a new game, new sides and loading a game stop the
search under way; a decision that arrives for a position no longer on the board is dropped.
For Connect Four, ``a`` shows the solver's exact score of every column under the board.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from engine.agents import Agent, Decision, turn_limit
from engine.analysis import NODE_BUDGET, ScoresSnapshot
from engine.errors import UserError
from engine.game_record import Controller, PlayedGame, controller_text, parse_controller
from engine.games import Connect4State, Move, State
from engine.search.base import Limit
from engine.search.registry import AgentSpec, fitting_algorithms
from tui.formatting import player_glyph
from tui.match import MatchRunner, Turn
from tui.messages import Analysed
from tui.screens.base import SearchScreen
from tui.session import Session, default_algorithm
from tui.widgets.board import Board, scores_caption
from tui.widgets.footer import KeyFooter
from tui.widgets.move_list import MoveList
from tui.widgets.prompt_bar import PromptBar
from tui.widgets.search_pane import SearchPane

DEFAULT_FILE = "plyscope-game.txt"
"""Where a game is saved (and loaded from) until the user types another path."""
NO_SEARCH = "no search for this position yet: the agents' searches and hints appear here"


class PlayScreen(SearchScreen):
    """A game between two sides, each a human (keys or mouse on the board) or an agent."""

    CSS_PATH = "play.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("n", "new_game", "New game"),
        Binding("h", "hint", "Hint"),
        Binding("a", "analysis", "Analysis"),
        Binding("s", "swap", "Swap sides", show=False),
        Binding("e", "edit_sides", "Choose the sides (human or agent)", show=False),
        Binding("l", "toggle_live", "Agents' search: live or full speed", show=False),
        Binding("p", "pause", "Pause or resume the agents", show=False),
        Binding("w", "file('save')", "Save game"),
        Binding("o", "file('load')", "Load game"),
        Binding("escape", "back", "Back to the explorer", show=False),
        *(
            Binding(key, f"play_column({column})", f"Play column {key}", show=False)
            for column, key in enumerate("1234567890")
        ),
    ]

    last_file: ClassVar[str] = DEFAULT_FILE
    """The file last saved or loaded in this run of plyscope: the next save or load proposes it."""

    def __init__(
        self,
        played: PlayedGame,
        *,
        default_limit: Limit | None = None,
        hint: Agent | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``default_limit``: the budget of agents chosen without one; ``hint``: the agent asked for hints
        (default: the first agent side, else the game's default algorithm)."""
        super().__init__()
        self.runner = MatchRunner(played)
        self.default_limit = default_limit or turn_limit(None, None)
        self.hint_agent = hint or next(
            (side for side in (played.second, played.first) if side is not None),
            Agent(AgentSpec(default_algorithm(played.game)), self.default_limit),
        )
        self.clock = clock
        self.paused = False
        """Agents do not move while paused."""
        self.analysing = False
        """Whether the solver's scores are shown under the board (Connect Four)."""
        self.analysis: ScoresSnapshot | None = None
        self.turn: Turn | None = None
        """The search under way (an agent's turn or a hint), if any."""
        self.hint: tuple[State, Decision, list[Move]] | None = None
        """The last hint: the position, the decision and the line the hint agent expects."""

    @property
    def played(self) -> PlayedGame:
        return self.runner.played

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Board(self.played.state, id="board")
                yield MoveList(id="history")
            yield SearchPane(placeholder=NO_SEARCH, clock=self.clock, id="pane")
        yield PromptBar()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(MoveList).border_title = "moves"
        self.query_one(Board).focus()
        self._position_changed()

    @property
    def thinking(self) -> bool:
        """Whether a search (an agent's turn or a hint) is running."""
        return self.turn is not None

    def timeline_refusal(self, session: Session) -> str:
        """The last turn's search can be moved along its timeline once the agent has moved."""
        return "wait for the agent's move (p pauses the agents)" if self.thinking else ""

    # ----------------------------------------------------------------- turns

    def _position_changed(self, note: str = "", *, moved: bool = True) -> None:
        """After any change of the game: stop searching, show it, and let the side to move move.

        ``moved``: the game went on by a move, so the last search shown is still one of this game's
        (else, after undo, redo, a new game or a load, the pane is emptied).
        """
        self.stop_searches()
        self.turn = None
        self.hint = None
        self.note = note
        if not moved:
            pane = self.query_one(SearchPane)
            pane.show(None)
            pane.border_subtitle = ""
        if self.analysing:
            self._analyse_position()
        self._refresh()
        if not self.paused and not self.played.is_over():
            try:
                turn = self.runner.turn()
            except UserError as error:
                self.paused = True
                self.refuse(f"the agent to move cannot search here: {error}")
                return
            if turn is not None:
                self._search(turn, f"{turn.agent.label} · {turn.purpose}")

    def _search(self, turn: Turn, title: str) -> None:
        self.turn = turn
        self.start_turn(turn, self.query_one(SearchPane), title)
        self.show_status()

    def turn_decided(self, turn: Turn, decision: Decision) -> None:
        if turn is not self.turn or not self.runner.current(turn):
            return
        self.turn = None
        if turn.hint:
            with turn.session.lock:
                line = list(turn.session.searcher.principal_variation())
            self.hint = (turn.state, decision, line if line[:1] == [decision.move] else [decision.move])
            self.note = f"hint: {turn.agent.label} would play {turn.state.move_label(decision.move)}"
            self._refresh()
            return
        self._position_changed(self.runner.conclude(turn, decision))

    # ----------------------------------------------------------------- the human's moves

    def action_play_column(self, column: int) -> None:
        """A digit key plays on the board whichever pane has the focus."""
        self.query_one(Board).action_play_column(column)

    def on_board_move_played(self, message: Board.MovePlayed) -> None:
        played = self.played
        mover = played.to_move()
        if played.is_over():
            self.refuse("the game is over: n starts a new one, u takes moves back")
        elif mover is not None:
            thinking = "is thinking" if self.turn is not None else "is paused (p resumes)"
            self.refuse(f"it is not your turn: {mover.label} {thinking}")
        else:
            label = played.state.move_label(message.move)
            try:  # keys typed faster than the board is redrawn may name a move the board had not yet refused
                chance = self.runner.play(message.move)
            except UserError as error:
                self.refuse(str(error))
                return
            self._position_changed(f"you played {label}{chance}")

    def on_board_illegal_move(self, message: Board.IllegalMove) -> None:
        if self.played.is_over():
            self.refuse("the game is over: n starts a new one, u takes moves back")
        else:
            self.refuse(message.reason)

    # ----------------------------------------------------------------- actions

    def action_undo(self) -> None:
        """Take back moves to before your last one (with two agents: one move, and pause)."""
        if not self.played.has_human():
            self.paused = True
        taken = self.played.undo_turn()
        if not taken:
            self._position_changed(moved=False)
            self.refuse("no move of yours to take back" if self.played.moves else "no move to take back")
            return
        self._position_changed(f"took back {taken} move{'s' if taken > 1 else ''}", moved=False)

    def action_redo(self) -> None:
        """Replay the moves taken back, up to your next turn."""
        if not self.played.has_human():
            self.paused = True
        replayed = self.played.redo_turn()
        if not replayed:
            self._position_changed(moved=False)
            self.refuse("no move to replay")
            return
        self._position_changed(f"replayed {replayed} move{'s' if replayed > 1 else ''}", moved=False)

    def action_new_game(self) -> None:
        """Start again from the game's start position, with the same sides."""
        self.runner = MatchRunner(self.played.restarted())
        self.paused = False
        self._position_changed("new game", moved=False)

    def action_swap(self) -> None:
        """Exchange the sides' controllers (you take the other colour); the position stays."""
        self.played.swap_sides()
        self._position_changed("sides swapped")

    def action_pause(self) -> None:
        """Stop the agents from moving (a search under way is dropped), or let them move again."""
        self.paused = not self.paused
        self._position_changed("agents paused (p resumes)" if self.paused else "agents resumed")

    def action_hint(self) -> None:
        """Ask the hint agent what it would play here; its move is marked on the board."""
        if self.played.is_over():
            self.refuse("the game is over: no hint to give")
        elif self.played.to_move() is not None:
            self.refuse("hints are for a human's turn")
        else:
            self.stop_searches()
            try:
                turn = self.runner.hint(self.hint_agent)
            except UserError as error:
                self.refuse(f"{self.hint_agent.label} cannot give hints here: {error}")
                return
            self._search(turn, f"{self.hint_agent.label} · hint")

    def choose_hint_agent(self, name: str) -> None:
        """Ask ``name`` (default parameters and budget) for hints from now on."""
        self.hint_agent = Agent(AgentSpec(name), self.default_limit)
        self.say(f"hints from {self.hint_agent.label}")

    def action_analysis(self) -> None:
        """Show or hide the solver's exact score of every column (Connect Four)."""
        if not isinstance(self.played.state, Connect4State):
            self.refuse("the analysis is for Connect Four without chance: the solver plays nothing else")
            return
        self.analysing = not self.analysing
        if self.analysing:
            self._analyse_position()
        else:
            self.stop_analysis()
            self.analysis = None
        self._refresh()

    def _analyse_position(self) -> None:
        self.analysis = None
        state = self.played.state
        if isinstance(state, Connect4State) and not state.is_terminal():
            self.start_analysis(state)
        else:
            self.stop_analysis()

    def on_analysed(self, message: Analysed) -> None:
        if self.analysing and message.analysis.state == self.played.state:
            self.analysis = message.analysis
            self._refresh()

    def set_sides(self, first: Controller, second: Controller) -> None:
        """Give the sides new controllers (``None``: a human); the game goes on from the position."""
        self.played.first, self.played.second = first, second
        self.paused = False
        self._position_changed(f"sides: {controller_text(first)} vs {controller_text(second)}")

    # ----------------------------------------------------------------- the bar: sides, save, load

    def action_edit_sides(self) -> None:
        self.query_one(PromptBar).ask(
            "sides",
            "sides (FIRST vs SECOND)",
            f"{controller_text(self.played.first)} vs {controller_text(self.played.second)}",
            placeholder="e.g. human vs mcts:k=32,moves=2000",
        )

    def action_file(self, mode: str) -> None:
        if not self.files_allowed():
            return
        self.query_one(PromptBar).ask(mode, "save to" if mode == "save" else "load from", PlayScreen.last_file)

    @on(PromptBar.Answered)
    def _answered(self, event: PromptBar.Answered) -> None:
        text = event.value
        try:
            if not text:
                raise UserError("type the sides" if event.purpose == "sides" else "type the file's path")
            if event.purpose == "sides":
                first, second = self._sides(text)
                event.bar.close()
                self.set_sides(first, second)
            elif event.purpose == "save":
                self.played.save(text)
                PlayScreen.last_file = text
                event.bar.close()
                self.say(f"saved to {text}")
            elif event.purpose == "load":
                loaded = PlayedGame.load(text, self.default_limit)
                PlayScreen.last_file = text
                event.bar.close()
                self.runner = MatchRunner(loaded)
                self.paused = False
                self.analysing = self.analysing and isinstance(loaded.state, Connect4State)
                self._position_changed(f"loaded {text}", moved=False)
        except UserError as error:
            event.bar.fail(str(error))

    def _sides(self, text: str) -> tuple[Controller, Controller]:
        parts = re.split(r"\s+vs\s+", text)
        if len(parts) != 2:
            raise UserError("write the two sides as FIRST vs SECOND, e.g. human vs mcts:k=32,moves=2000")
        first, second = (parse_controller(part, self.default_limit, self.played.game) for part in parts)
        return first, second

    def action_back(self) -> None:
        self.stop_searches()
        self.stop_analysis()
        self.leave()

    # ----------------------------------------------------------------- showing

    def _refresh(self) -> None:
        """Bring the board, the moves and the status line up to date with the game."""
        state = self.played.state
        board = self.query_one(Board)
        if self.hint is not None and self.hint[0] == state:
            _, decision, line = self.hint
            board.show(state, line, decision.move)
        else:
            board.show(state)
        board.show_scores(self.analysis, on=self.analysing)
        board.border_title = (
            f"{self.played.game.name} · move {state.ply + 1}" if not state.is_terminal() else (self.played.game.name)
        )
        caption = scores_caption(self.analysis, NODE_BUDGET) if self.analysing else None
        self.query_one(MoveList).show(self.played, caption)
        self.show_status()

    def status_lines(self) -> tuple[Text, Text]:
        played = self.played
        state = played.state
        board = self.query_one(Board)
        colours = {
            player: board.get_component_rich_style("board--first" if player == 1 else "board--second")
            for player in (1, -1)
        }
        first = Text.assemble(
            (player_glyph(1), colours[1]),
            f" {controller_text(played.first)}  vs  ",
            (player_glyph(-1), colours[-1]),
            f" {controller_text(played.second)}",
        )
        if self.paused:
            first.append("  · paused", "bold")
        first.append("  · live" if self.live else "  · full speed", "dim")
        second = Text()
        mover = played.to_move()
        if state.is_terminal():
            second.append(f"■ {self.runner.outcome()} · n: new game · u: undo")
            return first, second
        second.append(player_glyph(state.player), colours[state.player])
        if self.turn is not None:
            second.append(f" {self.turn.progress()}")
        elif mover is None:
            second.append(" your move: " + board.how_to_move())
        else:
            second.append(f" {mover.label} to move (paused: p resumes)")
        return first, second

    # ----------------------------------------------------------------- command palette

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Every binding, sides against each fitting algorithm, and the hint agent."""
        yield from super().palette_commands()
        for info in fitting_algorithms(self.played.game.name):
            agent = Agent(AgentSpec(info.name), self.default_limit)
            yield SystemCommand(
                f"Play against {info.name}", f"you move first; {info.description}", partial(self.set_sides, None, agent)
            )
            yield SystemCommand(
                f"Play second against {info.name}", "the agent moves first", partial(self.set_sides, agent, None)
            )
            yield SystemCommand(f"Hints from {info.name}", info.description, partial(self.choose_hint_agent, info.name))
        yield SystemCommand("Two humans", "both sides at the keyboard", partial(self.set_sides, None, None))

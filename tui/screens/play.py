"""The play screen: a human or an agent on each side of the board, the agents' search live in a ``SearchPane``.

Turns come from a ``MatchRunner`` (``plyscope.tui.match``) and run through ``Searches.start_turn``,
as in compare's match.  Undo, redo, a new game, new sides and loading a game stop the
search under way; a decision that arrives for a position no longer on the board is dropped.
For a game with exact values, ``a`` shows the exact score of every move on the board, as its view draws them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from plyscope.engine.agents import Agent, turn_limit
from plyscope.engine.analysis import NODE_BUDGET, ScoresSnapshot
from plyscope.engine.errors import UserError
from plyscope.engine.game_record import Controller, PlayedGame, controller_text
from plyscope.engine.games import is_chance
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.tui.components.board_keys import BoardKeys
from plyscope.tui.components.searches import Searches
from plyscope.tui.components.size import TooSmall
from plyscope.tui.components.status import StatusLine, files_allowed
from plyscope.tui.components.timeline import Timeline
from plyscope.tui.components.truth import TruthColumn
from plyscope.tui.contest import analysis_refusal, parse_sides
from plyscope.tui.formatting import player_glyph
from plyscope.tui.match import GAME_OVER, MatchRunner, default_hint
from plyscope.tui.messages import Analysed, Decided
from plyscope.tui.screens.palette import side_commands
from plyscope.tui.session import Session
from plyscope.tui.widgets.boards import board_for, fit_board
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.footer import KeyFooter
from plyscope.tui.widgets.move_list import MoveList
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.search_pane import SearchPane, app_exact

DEFAULT_FILE = "plyscope-game.txt"
"""Where a game is saved (and loaded from) until the user types another path."""
NO_SEARCH = "no search for this position yet: the agents' searches and hints appear here"


class PlayScreen(Screen[None]):
    """A game between two sides, each a human (keys or mouse on the board) or an agent."""

    CSS_PATH = "play.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "take_back(False)", "Undo"),
        Binding("r", "take_back(True)", "Redo"),
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
        self.hint_agent = hint or default_hint(played, self.default_limit)
        self.clock = clock
        self.analysing = False
        """Whether the moves' exact scores are shown on the board (a game with exact values)."""
        self.status = StatusLine(self.status_lines)
        self.searches = Searches()

    @property
    def played(self) -> PlayedGame:
        return self.runner.played

    @property
    def analysis(self) -> ScoresSnapshot | None:
        """The solver's scores of the position, as far as found, while ``analysing``."""
        return self.query_one(Board).scores

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield self.status
        with self.searches, Timeline(self._timeline_refusal), TruthColumn(), BoardKeys(), Horizontal(id="main"):
            with Vertical(id="side"):
                yield board_for(self.played.state)
                yield MoveList(id="history")
            yield SearchPane(placeholder=NO_SEARCH, clock=self.clock, id="pane")
        yield PromptBar()
        yield KeyFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one(MoveList).border_title = "moves"
        self.query_one(Board).focus()
        self._position_changed()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmall).fit(event.size)

    @property
    def thinking(self) -> bool:
        """Whether a search (an agent's turn or a hint) is running."""
        return self.runner.searching is not None

    def _timeline_refusal(self, session: Session) -> str:
        """The last turn's search can be moved along its timeline once the agent has moved."""
        return "wait for the agent's move (p pauses the agents)" if self.thinking else ""

    # ----------------------------------------------------------------- turns

    def _position_changed(self, note: str = "", *, moved: bool = True) -> None:
        """After any change of the game: stop searching, show it, and let the side to move move.

        ``moved``: the game went on by a move, so the last search shown is still one of this game's
        (else, after undo, redo, a new game or a load, the pane is emptied).
        """
        self.searches.stop()
        self.runner.drop()
        self.status.note = note
        if not moved:
            pane = self.query_one(SearchPane)
            pane.show(None)
            pane.border_subtitle = ""
        if self.analysing:
            self.query_one(Board).analyse(self.played.state)
        self._refresh()
        try:
            turn = self.runner.turn()
        except UserError as error:
            self.runner.paused = True
            self.status.refuse(f"the agent to move cannot search here: {error}")
            return
        if turn is not None:
            self.searches.start_turn(turn, self.query_one(SearchPane), f"{turn.agent.label} · {turn.purpose}")

    def on_decided(self, message: Decided) -> None:
        turn, decision = message.turn, message.decision
        if not self.runner.decided(turn):
            return
        if turn.hint:
            self.status.note = self.runner.keep_hint(turn, decision)
            self._refresh()
        else:
            self._position_changed(self.runner.conclude(turn, decision))

    def on_searches_shown(self) -> None:
        self.status.show()

    # ----------------------------------------------------------------- the human's moves and other actions

    def on_board_move_played(self, message: Board.MovePlayed) -> None:
        try:
            note = self.runner.human_move(message.move)
        except UserError as error:
            self.status.refuse(str(error))
        else:
            self._position_changed(note)

    def on_board_illegal_move(self, message: Board.IllegalMove) -> None:
        self.status.refuse(GAME_OVER if self.played.is_over() else message.reason)

    def action_take_back(self, redo: bool) -> None:
        """Take back moves to before your last one, or (``redo``) replay those taken back up to your next turn;
        with two agents: one move, and pause."""
        moved = self.runner.take_back(redo)
        done = f"{'replayed' if redo else 'took back'} {moved} move{'s' if moved > 1 else ''}"
        self._position_changed(done if moved else "", moved=False)
        if not moved:
            mine = "no move of yours to take back" if self.played.moves else "no move to take back"
            self.status.refuse("no move to replay" if redo else mine)

    def action_new_game(self) -> None:
        """Start again from the game's start position, with the same sides."""
        self.runner = MatchRunner(self.played.restarted())
        self._position_changed("new game", moved=False)

    def action_swap(self) -> None:
        """Exchange the sides' controllers (you take the other colour); the position stays."""
        self.played.swap_sides()
        self._position_changed("sides swapped")

    def action_pause(self) -> None:
        """Stop the agents from moving (a search under way is dropped), or let them move again."""
        self.runner.paused = not self.runner.paused
        self._position_changed("agents paused (p resumes)" if self.runner.paused else "agents resumed")

    def action_hint(self) -> None:
        """Ask the hint agent what it would play here; its move is marked on the board."""
        try:
            turn = self.runner.hint(self.hint_agent)
        except UserError as error:
            self.status.refuse(str(error))
            return
        self.searches.stop()  # (the last hint's search, if one is under way)
        self.searches.start_turn(turn, self.query_one(SearchPane), f"{self.hint_agent.label} · hint")

    def choose_hint_agent(self, name: str) -> None:
        """Ask ``name`` (default parameters and budget) for hints from now on."""
        self.hint_agent = Agent(AgentSpec(name), self.default_limit)
        self.status.say(f"hints from {self.hint_agent.label}")

    def action_analysis(self) -> None:
        """Show or hide the exact score of every move (a game with exact values)."""
        reason = analysis_refusal(self.played.state, app_exact(self))
        if reason is not None:
            self.status.refuse(reason)
            return
        self.analysing = not self.analysing
        self.query_one(Board).analyse(self.played.state if self.analysing else None)
        self._refresh()

    def on_analysed(self, message: Analysed) -> None:
        if self.analysing:
            self._refresh()

    def set_sides(self, first: Controller, second: Controller) -> None:
        """Give the sides new controllers (``None``: a human); the game goes on from the position."""
        self._position_changed(self.runner.set_sides(first, second))

    def action_edit_sides(self) -> None:
        self.query_one(PromptBar).ask(
            "sides (FIRST vs SECOND)",
            f"{controller_text(self.played.first)} vs {controller_text(self.played.second)}",
            lambda text: self.set_sides(*parse_sides(text, self.default_limit, self.played.game)),
            placeholder="e.g. human vs mcts:k=32,moves=2000",
        )

    def action_toggle_live(self) -> None:
        self.searches.toggle_live()

    def action_file(self, mode: str) -> None:
        if files_allowed(self):
            prompt, answer = ("save to", self._save) if mode == "save" else ("load from", self._load)
            self.query_one(PromptBar).ask(prompt, PlayScreen.last_file, partial(self._with_file, answer))

    def _with_file(self, answer: Callable[[str], None], path: str) -> None:
        """Save to or load from the file ``path`` typed (``answer``), proposed next time."""
        if not path:
            raise UserError("type the file's path")
        answer(path)
        PlayScreen.last_file = path

    def _save(self, path: str) -> None:
        self.played.save(path)
        self.status.say(f"saved to {path}")

    def _load(self, path: str) -> None:
        loaded = PlayedGame.load(path, self.default_limit)
        self.runner = MatchRunner(loaded)
        fit_board(self.query_one(Board), loaded.state)
        self.analysing = self.analysing and analysis_refusal(loaded.state, app_exact(self)) is None
        self._position_changed(f"loaded {path}", moved=False)

    def action_back(self) -> None:
        """Back to the explorer: the searches and the solver's analysis stop."""
        self.searches.stop()
        if self.is_current:  # (a key typed again before the first was handled: this screen has gone)
            self.query_one(Board).analyse(None)
            self.app.pop_screen()

    # ----------------------------------------------------------------- showing, and the palette's choices

    def _refresh(self) -> None:
        """Bring the board, the moves and the status line up to date with the game."""
        state = self.played.state
        board = self.query_one(Board)
        board.show(state, *self.runner.hint_line())
        board.show_scores(self.analysis, on=self.analysing)
        board.border_title = self.played.game.name + ("" if state.is_terminal() else f" · move {state.ply + 1}")
        caption = None
        if self.analysing:
            legend = app_exact(self).values(state.game).legend
            caption = board.scores_caption(self.analysis, NODE_BUDGET, legend)
        self.query_one(MoveList).show(self.played, caption)
        self.status.show()

    def status_lines(self) -> tuple[Text, Text]:
        played = self.played
        state = played.state
        board = self.query_one(Board)
        style = board.get_component_rich_style
        glyphs = {1: (player_glyph(1), style("board--first")), -1: (player_glyph(-1), style("board--second"))}
        sides = f" {controller_text(played.first)}  vs  ", glyphs[-1], f" {controller_text(played.second)}"
        first = Text.assemble(glyphs[1], *sides)
        if self.runner.paused:
            first.append("  · paused", "bold")
        first.append("  · live" if self.searches.live else "  · full speed", "dim")
        if state.is_terminal():
            return first, Text(f"■ {self.runner.outcome()} · n: new game · u: undo")
        if is_chance(state):  # (its outcome is drawn in a moment: nobody's to move, nobody's glyph)
            return first, Text("nature moves next (chance)")
        mover, searching = played.to_move(), self.runner.searching
        if searching is not None:
            doing = searching.progress()
        elif mover is not None:
            doing = f"{mover.label} to move (paused: p resumes)"
        else:
            doing = f"your move: {board.how_to_move()}"
        return first, Text.assemble(glyphs[state.player], f" {doing}")

    def palette_commands(self) -> Iterator[SystemCommand]:
        """The palette's choices beyond the keys: sides against each fitting algorithm, and the hint agent."""
        yield from side_commands(self.played.game.name, self.default_limit, self.set_sides, self.choose_hint_agent)

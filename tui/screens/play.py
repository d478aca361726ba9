"""The play screen: a human or an agent on each side of the board, the agents' search live in the tree pane.

An agent's turn (or a hint) runs in a thread worker (``tui.contest.think``).  In live mode
each frame's batch is posted as a ``Progress`` message and shown in the tree pane before the
search goes on; at full speed nothing is shown until the search ends.  The worker then posts
``Decided``.  Undo, redo, a new game, new sides, loading a game and leaving the screen cancel
the worker, and a message of a cancelled search is recognised by its session and ignored.

For Connect Four an analysis toggle shows the solver's exact score of every column under the
board (``engine.analysis.ColumnScores``, in an analysis worker of its own, within a node budget).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.worker import get_current_worker

from engine.agents import Agent, turn_limit
from engine.analysis import NODE_BUDGET, ScoresSnapshot
from engine.errors import UserError
from engine.game_record import Controller, PlayedGame, controller_text, parse_controller
from engine.games import Connect4State, Move, NimState, State
from engine.search.base import Limit
from engine.search.registry import AgentSpec, fitting_algorithms
from tui.contest import TURN_FRAME_SECONDS, agent_session, analyse, board_marks, decide, think
from tui.formatting import format_count
from tui.messages import Analysed, Decided
from tui.screens.help import binding_commands
from tui.session import Batch, RateMeter, Session, default_algorithm
from tui.widgets.board import Board
from tui.widgets.search_tree import SearchTree
from tui.widgets.stats import StatsPanel

DEFAULT_FILE = "plyscope-game.txt"
"""Where a game is saved (and loaded from) unless the user types another path."""


class PlayScreen(Screen[None]):
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
        Binding("l", "live", "Agents' search: live or full speed", show=False),
        Binding("p", "pause", "Pause or resume the agents", show=False),
        Binding("w", "file('save')", "Save game"),
        Binding("o", "file('load')", "Load game"),
        Binding("escape", "back", "Close the bar; back to the explorer", show=False),
    ]

    class Progress(Message):
        """A batch of steps of ``session``'s search, to show; ``shown`` is set once it is on screen."""

        def __init__(self, session: Session, batch: Batch, shown: threading.Event) -> None:
            super().__init__()
            self.session = session
            self.batch = batch
            self.shown = shown

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
        self.played = played
        self.default_limit = default_limit or turn_limit(None, None)
        self.hint_agent = hint or next(
            (side for side in (played.second, played.first) if side is not None),
            Agent(AgentSpec(default_algorithm(played.game)), self.default_limit),
        )
        self.live = True
        """Show an agent's search frame by frame (else only when it ends); the search thread reads it."""
        self.paused = False
        """Agents do not move while paused."""
        self.analysing = False
        """Whether the solver's scores are shown under the board (Connect Four)."""
        self.analysis: ScoresSnapshot | None = None
        self.rate = RateMeter(clock)
        self.path = DEFAULT_FILE
        """The file last saved or loaded."""
        self._search: Session | None = None
        """The search running now (an agent's turn or a hint), if any."""
        self._shown: Session | None = None
        """The search shown in the tree pane."""
        self._hint: tuple[State, Move, tuple[Move, ...]] | None = None
        """The last hint: the position it is for, the move, and the line the hint agent expects."""
        self._bar = ""
        """What the bar at the bottom asks for: ``save``, ``load``, ``sides`` (empty: closed)."""
        self._note = ""

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Board(self.played.state, id="board")
                yield Static(id="history")
            with Vertical(id="search"):
                yield SearchTree(id="tree")
                yield StatsPanel(id="stats")
        with Vertical(id="bar"):
            with Horizontal(id="bar-row"):
                yield Static(id="bar-prompt")
                yield Input(id="bar-input", compact=True)
            yield Static(id="bar-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#history", Static).border_title = "moves"
        self.query_one("#stats", StatsPanel).border_title = "search"
        self.query_one(Board).focus()
        self.query_one(SearchTree).border_subtitle = "the agents' searches appear here"
        self._position_changed()

    @property
    def thinking(self) -> bool:
        """Whether a search (an agent's turn or a hint) is running."""
        return self._search is not None

    # ----------------------------------------------------------------- turns

    def _position_changed(self, note: str = "") -> None:
        """After any change of the game: stop searching, show it, and let the side to move move."""
        self._stop_search()
        self._hint = None
        self._note = note
        self._refresh()
        if self.analysing:
            self._start_analysis()
        agent = self.played.to_move()
        if agent is not None and not self.paused and not self.played.is_over():
            self._start_search(agent)

    def _stop_search(self) -> None:
        self.workers.cancel_group(self, "search")
        self._search = None

    def _start_search(self, agent: Agent) -> None:
        """Search the position with ``agent`` (its turn, or a hint), shown in the tree pane."""
        try:
            session = agent_session(agent, self.played.state, self.played.turn_seed())
        except UserError as error:
            self.paused = True
            self._refuse(f"{agent.label} cannot search here: {error}")
            return
        self._search = session
        self._show_search(session, agent)
        self._run_search(session, agent.limit.seconds)
        self._show_status()

    @work(thread=True, group="search")
    def _run_search(self, session: Session, seconds: float | None) -> None:
        """The search thread: step ``session`` to its budget, showing each frame when live, then decide."""
        worker = get_current_worker()

        def deliver(batch: Batch) -> None:
            if not self.live:
                return
            shown = threading.Event()
            self.post_message(self.Progress(session, batch, shown))
            while not shown.wait(0.05):
                if worker.is_cancelled:
                    return

        think(session, seconds, deliver, worker.cancelled_event, TURN_FRAME_SECONDS)
        if not worker.is_cancelled:
            self.post_message(Decided(session, decide(session)))

    def on_play_screen_progress(self, message: Progress) -> None:
        try:
            if message.session is self._shown:
                self.rate.add(message.session.searcher.stats.iterations)
                with message.session.lock:
                    self.query_one(SearchTree).apply(message.batch, message.session.searcher.principal_path())
                self._show_stats(message.session)
                self._show_status()
        finally:
            self.call_after_refresh(message.shown.set)

    def on_decided(self, message: Decided) -> None:
        session = message.session
        if session is not self._search:
            return
        self._search = None
        if not self.live:
            self.query_one(SearchTree).show_searcher(session.searcher, session.lock)
        self._show_stats(session)
        decision = message.decision
        state = self.played.state
        if self.played.to_move() is None:  # a hint for the human to move
            with session.lock:
                line = tuple(session.searcher.principal_variation())
            self._hint = (state, decision.move, line if line[:1] == (decision.move,) else (decision.move,))
            self._note = f"hint: {self.hint_agent.label} would play {state.move_label(decision.move)}"
            self._refresh()
            return
        mover = self.played.to_move()
        assert mover is not None
        self.played.play(decision.move)
        fallback = " (its search proposed none: the fallback move)" if decision.fallback else ""
        self._position_changed(f"{mover.label} played {state.move_label(decision.move)}{fallback}")

    # ----------------------------------------------------------------- the human's moves

    def on_board_move_played(self, message: Board.MovePlayed) -> None:
        played = self.played
        mover = played.to_move()
        if played.is_over():
            self._refuse("the game is over: n starts a new one, u takes moves back")
        elif mover is not None:
            thinking = "is thinking" if self._search is not None else "is paused (p resumes)"
            self._refuse(f"it is not your turn: {mover.label} {thinking}")
        else:
            label = played.state.move_label(message.move)
            played.play(message.move)
            self._position_changed(f"you played {label}")

    def on_board_illegal_move(self, message: Board.IllegalMove) -> None:
        if self.played.is_over():
            self._refuse("the game is over: n starts a new one, u takes moves back")
        else:
            self._refuse(message.reason)

    # ----------------------------------------------------------------- actions

    def action_undo(self) -> None:
        """Take back moves to before your last one (with two agents: one move, and pause)."""
        self._stop_search()
        if not self.played.has_human():
            self.paused = True
        taken = self.played.undo_turn()
        if not taken:
            self._refuse("no move of yours to take back" if self.played.moves else "no move to take back")
            self._position_changed(self._note)
            return
        self._position_changed(f"took back {taken} move{'s' if taken > 1 else ''}")

    def action_redo(self) -> None:
        """Replay the moves taken back, up to your next turn."""
        self._stop_search()
        if not self.played.has_human():
            self.paused = True
        replayed = self.played.redo_turn()
        if not replayed:
            self._refuse("no move to replay")
            self._position_changed(self._note)
            return
        self._position_changed(f"replayed {replayed} move{'s' if replayed > 1 else ''}")

    def action_new_game(self) -> None:
        """Start again from the game's start position, with the same sides."""
        self.played = self.played.restarted()
        self.paused = False
        self._position_changed("new game")

    def action_swap(self) -> None:
        """Exchange the sides' controllers (you take the other colour); the position stays."""
        self.played.swap_sides()
        self._position_changed("sides swapped")

    def action_pause(self) -> None:
        """Stop the agents from moving (a search under way is dropped), or let them move again."""
        self.paused = not self.paused
        self._position_changed("agents paused (p resumes)" if self.paused else "agents resumed")

    def action_live(self) -> None:
        """Toggle between watching the agents' search frame by frame and letting it run at full speed."""
        self.live = not self.live
        self._note = "live search" if self.live else "full speed: the tree is shown when the search ends"
        self._show_status()

    def action_hint(self) -> None:
        """Ask the hint agent what it would play here; its move is marked on the board."""
        if self.played.is_over():
            self._refuse("the game is over: no hint to give")
        elif self.played.to_move() is not None:
            self._refuse("hints are for a human's turn")
        else:
            self._stop_search()
            self._start_search(self.hint_agent)

    def choose_hint_agent(self, name: str) -> None:
        """Ask ``name`` (default parameters and budget) for hints from now on."""
        self.hint_agent = Agent(AgentSpec(name), self.default_limit)
        self._note = f"hints from {self.hint_agent.label}"
        self._show_status()

    def action_analysis(self) -> None:
        """Show or hide the solver's exact score of every column (Connect Four)."""
        if not isinstance(self.played.state, Connect4State):
            self._refuse("the analysis is for Connect Four: the solver plays nothing else")
            return
        self.analysing = not self.analysing
        if self.analysing:
            self._start_analysis()
        else:
            self.workers.cancel_group(self, "analysis")
            self.analysis = None
        self._refresh()

    def _start_analysis(self) -> None:
        state = self.played.state
        self.workers.cancel_group(self, "analysis")
        self.analysis = None
        if isinstance(state, Connect4State) and not state.is_terminal():
            self._analyse(state)

    @work(thread=True, group="analysis")
    def _analyse(self, state: Connect4State) -> None:
        """The analysis thread: solve ``state``'s columns, reporting each one solved."""
        analyse(state, lambda found: self.post_message(Analysed(found)), get_current_worker().cancelled_event)

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
        self._open_bar("sides", f"{controller_text(self.played.first)} vs {controller_text(self.played.second)}")

    def action_file(self, mode: str) -> None:
        self._open_bar(mode, self.path)

    def _open_bar(self, mode: str, value: str) -> None:
        self._bar = mode
        prompts = {"sides": "sides (FIRST vs SECOND)", "save": "save to", "load": "load from"}
        self.query_one("#bar-prompt", Static).update(prompts[mode] + ": ")
        self.query_one("#bar-error", Static).update("")
        self.query_one("#bar").display = True
        field = self.query_one("#bar-input", Input)
        field.value = value
        field.focus()

    def _close_bar(self) -> None:
        self._bar = ""
        self.query_one("#bar").display = False
        self.query_one(Board).focus()

    @on(Input.Submitted, "#bar-input")
    def _bar_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        try:
            if not text:
                raise UserError("type the sides" if self._bar == "sides" else "type the file's path")
            if self._bar == "sides":
                self._submit_sides(text)
            elif self._bar == "save":
                self.played.save(text)
                self.path = text
                self._close_bar()
                self._note = f"saved to {text}"
                self._show_status()
            elif self._bar == "load":
                loaded = PlayedGame.load(text, self.default_limit)
                self.path = text
                self._close_bar()
                self.played = loaded
                self.paused = False
                self.analysing = self.analysing and isinstance(loaded.state, Connect4State)
                self._position_changed(f"loaded {text}")
        except UserError as error:
            self.query_one("#bar-error", Static).update(Text(str(error)))

    def _submit_sides(self, text: str) -> None:
        parts = re.split(r"\s+vs\s+", text)
        if len(parts) != 2:
            raise UserError("write the two sides as FIRST vs SECOND, e.g. human vs mcts:k=32,moves=2000")
        first, second = (parse_controller(part, self.default_limit, self.played.game) for part in parts)
        self._close_bar()
        self.set_sides(first, second)

    def action_back(self) -> None:
        if self._bar:
            self._close_bar()
            return
        self._stop_search()
        self.workers.cancel_group(self, "analysis")
        self.app.pop_screen()

    # ----------------------------------------------------------------- showing

    def _show_search(self, session: Session, agent: Agent) -> None:
        """Show ``session``'s tree from now on (an agent's turn or a hint)."""
        self._shown = session
        self.rate.clear()
        tree = self.query_one(SearchTree)
        tree.show_searcher(session.searcher, session.lock)
        purpose = "hint" if self.played.to_move() is None else f"move {self.played.state.ply + 1}"
        tree.border_subtitle = f"{agent.label} · {purpose}"
        self._show_stats(session)

    def _show_stats(self, session: Session) -> None:
        with session.lock:
            stats = replace(session.searcher.stats)
        self.query_one(StatsPanel).show(stats, self.rate.rate(), session.history.values)

    def _refresh(self) -> None:
        """Bring the board, the moves and the status line up to date with the game."""
        played = self.played
        state = played.state
        board = self.query_one(Board)
        if self._hint is not None and self._hint[0] == state:
            _, move, line = self._hint
            board.show(state, line, move)
        else:
            board.show(state)
        marked, notes = board_marks(state, self.analysis, self.analysing)
        board.annotate(marked=marked, notes=notes)
        board.border_title = self._board_title()
        self._show_history()
        self._show_status()

    def _board_title(self) -> str:
        state = self.played.state
        return f"{self.played.game.name} · move {state.ply + 1}" if not state.is_terminal() else self.played.game.name

    def _show_history(self) -> None:
        played = self.played
        text = Text()
        start = played.start.text()
        if start:
            text.append(f"from {start}: ", "dim")
        text.append(played.history() or "(none yet)")
        if played.redo_moves:
            text.append(f"  (redo: {len(played.redo_moves)})", "dim")
        analysis = self.analysis
        if self.analysing:
            text.append("\n")
            if analysis is None:
                text.append("solver: …", "dim")
            elif analysis.complete:
                text.append("under the board: the solver's score for the player to move, green a win, red a loss, "
                            "0 a draw (the larger, the sooner it ends); reversed: the best", "dim")
            elif analysis.done:
                text.append(f"solver: ? not solved within {format_count(NODE_BUDGET)} nodes", "dim")
            else:
                text.append(f"solver: {analysis.solved()}/{len(analysis.bounds)} columns, "
                            f"{format_count(analysis.nodes)} nodes…", "dim")
        self.query_one("#history", Static).update(text)

    def _show_status(self) -> None:
        played = self.played
        state = played.state
        board = self.query_one(Board)
        colours = {player: board.get_component_rich_style("board--first" if player == 1 else "board--second")
                   for player in (1, -1)}
        first = Text.assemble(("●", colours[1]), f" {controller_text(played.first)}  vs  ",
                              ("●", colours[-1]), f" {controller_text(played.second)}")
        if self.paused:
            first.append("  · paused", "bold")
        first.append("  · live" if self.live else "  · full speed", "dim")
        second = Text()
        mover = played.to_move()
        if state.is_terminal():
            second.append_text(self._outcome(state, colours))
        elif mover is None:
            second.append("●", colours[state.player])
            second.append(" your move: " + _how_to_move(state))
        elif self._search is not None:
            second.append("●", colours[state.player])
            with self._search.lock:
                stats = self._search.searcher.stats
                spent = (f"{stats.seconds:.1f}/{mover.limit.seconds:g} s" if mover.limit.seconds is not None
                         else f"{format_count(stats.moves)}/{format_count(mover.limit.moves or 0)} moves")
            second.append(f" {mover.label} is thinking… {spent}")
        else:
            second.append("●", colours[state.player])
            second.append(f" {mover.label} to move (paused: p resumes)")
        if self._note:
            second.append(f" · {self._note}", "italic")
        self.query_one("#status", Static).update(Text("\n").join([first, second]), layout=False)

    def _outcome(self, state: State, colours: dict[int, Style]) -> Text:
        winner = state.winner()
        text = Text("■ ")
        if winner == 0:
            text.append("a draw")
        else:
            assert winner is not None
            text.append("●", colours[winner])
            side = self.played.controller(winner)
            who = "you" if side is None and self.played.controller(-winner) is not None else (
                "the first player" if winner == 1 else "the second player")
            text.append(f" {who} won" + (f" ({side.label})" if side is not None else ""))
        text.append(" · n: new game · u: undo")
        return text

    def _refuse(self, reason: str) -> None:
        """Say why an action did nothing."""
        self._note = reason
        self.notify(reason, severity="warning", timeout=4)
        self._show_status()

    # ----------------------------------------------------------------- command palette

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Every binding, sides against each fitting algorithm, and the hint agent."""
        yield from binding_commands(self)
        game = self.played.game.name
        for info in fitting_algorithms(game):
            agent = Agent(AgentSpec(info.name), self.default_limit)
            yield SystemCommand(f"Play against {info.name}", f"you move first; {info.description}",
                                partial(self.set_sides, None, agent))
            yield SystemCommand(f"Play second against {info.name}", "the agent moves first",
                                partial(self.set_sides, agent, None))
            yield SystemCommand(f"Hints from {info.name}", info.description, partial(self.choose_hint_agent, info.name))
        yield SystemCommand("Two humans", "both sides at the keyboard", partial(self.set_sides, None, None))


def _how_to_move(state: State) -> str:
    if isinstance(state, NimState):
        action = "take from the cursor to the end" if state.game.variant == "classic" else "split after the cursor"
        return f"↑↓ a pile, ←→ the cursor ({action}), enter; or click a token"
    return "a column's number key, ←→ and enter, or click a column"


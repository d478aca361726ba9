"""What every board view is: a position with a line of moves drawn on it, moves played by keys and mouse.

Every screen asks a board the same things, whatever its game (``plyscope.tui.widgets.boards`` makes the view of a
game, as its kit names it):

* show a position, a *line* of moves from it (the principal variation, the path to a chosen node, a hint) and a best
  move marked (``show``); a search's principal variation or chosen node (``show_search``); a phase of phase mode, its
  playout drawn a move at a time (``show_phase``);
* how a person plays a move on it, in a few words (``how_to_move``), and what its digit keys play (``digits``: the
  help and the palette list them);
* the exact score of each move, for a game with exact values: found in a thread of the board's own (``analyse``,
  ``scores``; each report also reaches the screen as ``Analysed``) and drawn the view's way (``show_scores``), with
  what they mean (``scores_caption``, ``scores_where``).

A move the user plays posts ``MovePlayed`` (one that cannot be played, ``IllegalMove`` with the reason): the screens
handle them.  A view draws ``render_board`` and plays with its own keys (its ``BINDINGS``), the digit keys
(``play_digit``) and a move typed by its notation (``m``).  The first player's stones are ``●``, the second's ``○``:
the glyph tells them apart without colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import RenderResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import get_current_worker

from plyscope.engine.analysis import ScoresSnapshot
from plyscope.engine.games import ChanceState, Move, State, is_chance
from plyscope.engine.search.base import Node, Phase, Searcher
from plyscope.tui.contest import analyse
from plyscope.tui.formatting import move_labels, player_glyph
from plyscope.tui.messages import Analysed
from plyscope.tui.session import Session
from plyscope.tui.widgets.prompt_bar import PromptBar

PLAYOUT_MOVE_SECONDS = 0.15
"""Phase mode: how long the board shows each move of a playout before drawing the next."""
DIGITS = "1234567890"
"""The digit keys in order: ``1`` plays what a view numbers first, ``0`` the tenth."""
DIGIT_BINDINGS = [
    Binding(key, f"play_digit({index})", f"Digit {key} on the board", show=False) for index, key in enumerate(DIGITS)
]
"""The digit keys, each playing what the view numbers so (a column, a child, a cell); screens bind them too
(``plyscope.tui.components.board_keys``), for the board to take them whichever widget has the focus."""
LINE_DIGITS = "123456789"
"""Numbers drawn on the ghost stones of a line; later moves are drawn ``+``."""
Note = tuple[str, str]
"""A move's score as a board writes it: its text and its kind: ``""`` (a draw or unknown), ``win``, ``loss``, and
with `` best`` added for a best move (``win best``)."""


@dataclass(frozen=True, slots=True)
class DigitKeys:
    """What a view's digit keys play, for the help's row and the palette's list."""

    keys: str
    """The keys as the help shows them: ``1-7``."""
    description: str
    """What they do: ``Play that column on the board``."""
    picks: tuple[tuple[int, str], ...]
    """The palette's list: each digit key's index (``0`` for ``1``) and what it plays (``Play column 4``)."""
    placeholder: str = "Move…"
    """The palette's prompt for that list."""


def digit_keys(count: int, description: str, pick: str, placeholder: str) -> DigitKeys | None:
    """The first ``count`` digit keys (at most ten), each playing the ``pick`` of its number (``Play column {}``);
    ``None`` for none."""
    count = min(count, len(DIGITS))
    if count <= 0:
        return None
    keys = DIGITS[0] if count == 1 else (f"1-{DIGITS[count - 1]}" if count <= 9 else "1-9, 0")
    return DigitKeys(keys, description, tuple((i, pick.format(DIGITS[i])) for i in range(count)), placeholder)


def score_note(scores: ScoresSnapshot, move: Move) -> Note:
    """``move``'s score, signed for the player who plays it (``+12`` wins, ``-15`` loses, ``0`` draws), of the kind its
    outcome gives and `` best`` among the best; ``…`` while unknown, ``?`` given up (its kind once its sign is known);
    blank for a move not in ``scores``."""
    if move not in scores.bounds:
        return ("", "")
    lowest, highest = scores.bounds[move]
    kind = "win" if lowest > 0 else ("loss" if highest < 0 else "")
    if move in scores.best():
        kind = f"{kind} best".strip()
    if lowest == highest:
        return (scores.note(move), kind)
    return ("…" if not scores.done else "?", kind)


class Board(Widget, can_focus=True):
    """A position with a line of moves drawn on it (a view of one family of games); posts ``MovePlayed`` when the user
    plays a move."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *DIGIT_BINDINGS,
        Binding("m", "type_move", "Type a move as the game writes it", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--grid",
        "board--first",
        "board--second",
        "board--empty",
        "board--cursor",
        "board--best",
        "board--muted",
        "board--win",
        "board--note",
        "board--note-win",
        "board--note-loss",
        "board--note-best",
    }

    DEFAULT_CSS = """
    Board { height: auto; padding: 0 1; }
    Board > .board--grid { background: $primary-background; }
    Board > .board--first { color: #e8413c; text-style: bold; }
    Board > .board--second { color: #f2c12e; text-style: bold; }
    Board > .board--empty { color: $text-muted; }
    Board > .board--cursor { background: $accent 40%; }
    Board > .board--best { color: $success; text-style: bold reverse; }
    Board > .board--muted { color: $text-muted; }
    Board > .board--win { background: $success 50%; }
    Board > .board--note { color: $text-muted; }
    Board > .board--note-win { color: $success; }
    Board > .board--note-loss { color: $error; }
    Board > .board--note-best { text-style: bold reverse; }
    """

    wide: ClassVar[bool] = False
    """Whether the view needs more room across than a board of stones (a tree): its container gets the class
    ``-wide`` while it is shown."""
    scores_where: ClassVar[str] = "Beside each move: its score."
    """Where the view shows each move's score, for a caption (compare's summary)."""

    class MovePlayed(Message):
        """The user played ``move`` in the board's base position (it is legal there)."""

        def __init__(self, board: Board, move: Move) -> None:
            super().__init__()
            self.board = board
            self.move = move

        @property
        def control(self) -> Board:
            return self.board

    class IllegalMove(Message):
        """The user tried a move that cannot be played; ``reason`` says why."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    def __init__(
        self,
        state: State,
        *,
        playable: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        """``playable``: whether the user plays moves on it (else it only shows, and its keys go on to the screen)."""
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.playable = playable
        self.state = state
        """The base position (moves are played here)."""
        self.line: tuple[Move, ...] = ()
        """Moves drawn from ``state``."""
        self.best: Move | None = None
        """A move marked as the best one in ``state``."""
        self.scores: ScoresSnapshot | None = None
        """The exact scores of the moves of the position ``analyse`` was given, as far as found (``None``: none yet)."""
        self.shown_scores: ScoresSnapshot | None = None
        """The scores drawn (``show_scores``), ``None`` before the first report."""
        self.scoring = False
        """Whether the moves' scores are drawn (``show_scores``)."""
        self.fallback_note = ""
        """Why the board is not the view its game's kit names (a plugin's view that did not load); ``""``: it is."""
        self._analysed: State | None = None
        """The position ``analyse`` was given (``None``: none analysed)."""
        self._phase: Phase[Node] | None = None
        """Phase mode: the phase drawn (``show_phase``), or ``None``."""
        self._drawing: Timer | None = None
        """Phase mode: the timer drawing the phase's playout a move at a time."""

    def on_mount(self) -> None:
        self._ask_room()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A board that only shows (compare's) takes no key: each goes on to the screen's binding of it."""
        return self.playable

    @property
    def taking_keys(self) -> bool:
        """Whether the board's keys play on it now (it has the focus and is played): its cursor is drawn then."""
        return self.has_focus and self.playable

    def _ask_room(self) -> None:
        """Give the board's container the class ``-wide`` while the view needs it (the screens widen it then)."""
        if isinstance(self.parent, Widget):
            self.parent.set_class(self.wide, "-wide")

    # ----------------------------------------------------------------- what the screens ask

    def show(self, state: State, line: Sequence[Move] = (), best: Move | None = None) -> None:
        """Draw ``state`` with ``line`` on it and ``best`` marked."""
        line = tuple(line)
        if (state, line, best) == (self.state, self.line, self.best):
            return
        if state != self.state:
            self.moved_to(state)
        lines = self.render_board().plain.count("\n")
        self.state = state
        self.line = line
        self.best = best
        self.refresh(layout=self.render_board().plain.count("\n") != lines)

    def show_phase(self, session: Session, phase: Phase[Node]) -> None:
        """Draw the path of ``phase`` (phase mode) in ``session``'s tree, then the phase's line (a playout) one move
        every ``PLAYOUT_MOVE_SECONDS``; the same phase again leaves the drawing going on."""
        if phase is self._phase:
            return
        self._phase = phase
        state = session.state
        with session.lock:
            moves = phase.path[-1].moves()
        if self._drawing is not None:
            self._drawing.stop()
        line = phase.line
        drawn = [0]

        def draw() -> None:
            count = drawn[0] = min(drawn[0] + 1, len(line)) if self._drawing is not None else 0
            self.show(state, [*moves, *line[:count]])
            said = f"playout: {count} of {len(line)} moves" if line else ""
            self.border_title, self.border_subtitle = f"phase: {phase.name}", said

        self._drawing = None
        draw()
        if line:
            self._drawing = self.set_interval(PLAYOUT_MOVE_SECONDS, draw, repeat=len(line))

    def show_search(self, session: Session, chosen: Node | None) -> None:
        """Draw ``chosen``'s position in ``session``'s tree (``None``: the principal variation) and say which."""
        if self._drawing is not None:
            self._drawing.stop()
        self._phase = self._drawing = None
        with session.lock:
            searcher = session.searcher
            moves = chosen.moves() if chosen is not None else searcher.principal_variation()
            self.searched(searcher, session.state)
            self.show(session.state, moves, searcher.best_move())
        if chosen is not None:
            titles = (f"node {move_labels(session.state, moves)}" if moves else "root", "esc: back to the PV")
        else:
            titles = ("principal variation", "")
        if (self.border_title, self.border_subtitle) != titles:  # setting either repaints the whole board
            self.border_title, self.border_subtitle = titles

    def how_to_move(self) -> str:
        """How a person plays a move on this board, in a few words."""
        return "m and the move as the game writes it"

    def digits(self) -> DigitKeys | None:
        """What the digit keys play on the position shown (``None``: nothing)."""
        return None

    # ----------------------------------------------------------------- the moves' exact scores

    def analyse(self, state: State | None) -> None:
        """Find the exact score of each of ``state``'s moves in a thread (the one before stops), keeping its reports in
        ``scores`` as they come (each also reaches the screen as ``Analysed``); ``None``, a game over or a chance node
        (nature's moves have no score to choose by): stop, and keep none.  The game must have exact values
        (``plyscope.tui.contest.analysis_refusal``)."""
        self.workers.cancel_group(self, "analysis")
        self.scores = None
        self._analysed = None
        if state is not None and not state.is_terminal() and not is_chance(state):
            self._analysed = state
            self._analysis_thread(state)

    @work(thread=True, group="analysis")
    def _analysis_thread(self, state: State) -> None:
        analyse(state, lambda found: self.post_message(Analysed(found)), get_current_worker().cancelled_event)

    def on_analysed(self, message: Analysed) -> None:
        if message.analysis.state == self._analysed:
            self.scores = message.analysis

    def show_scores(self, scores: ScoresSnapshot | None, *, on: bool = True) -> None:
        """Draw each move's exact score (``scores``, for the player to move, who plays it; ``…`` before the first
        report, ``scores`` ``None``); nothing when ``on`` is false or the game is over."""
        on = on and not self.state.is_terminal() and not is_chance(self.state)
        if (on, scores) == (self.scoring, self.shown_scores):
            return
        lines = self.render_board().plain.count("\n")
        self.scoring, self.shown_scores = on, scores
        self.refresh(layout=self.render_board().plain.count("\n") != lines)

    def note(self, move: Move) -> Note | None:
        """``move``'s score as drawn now (``score_note``), ``("…", "")`` before the first report; ``None`` while no
        scores are drawn."""
        if not self.scoring:
            return None
        return ("…", "") if self.shown_scores is None else score_note(self.shown_scores, move)

    def scores_caption(self, scores: ScoresSnapshot | None, node_budget: int, legend: str) -> Text:
        """What the scores drawn are (``legend``: what the game's numbers mean, ``ExactValues.legend``), or how far
        their solve has got within its ``node_budget``."""
        if scores is None:
            return Text(f"solver: starting (at most {node_budget:,} nodes)", "dim")
        if scores.complete:
            return Text(
                f"beside each move: its exact value for the player to move ({legend}); reversed: the best", "dim"
            )
        if scores.done:
            return Text(f"solver: ? not solved within its budget of {node_budget:,} nodes", "dim")
        return Text(
            f"solver: {scores.solved()}/{len(scores.bounds)} moves, {scores.nodes:,} of {node_budget:,} nodes…", "dim"
        )

    # ----------------------------------------------------------------- playing

    def action_play_digit(self, index: int) -> None:
        """The digit key ``index`` (``0`` for ``1``): play what the view numbers so."""
        self.play_digit(index)

    def play_digit(self, index: int) -> None:
        """Play the move the view numbers ``index + 1`` (the digit key ``DIGITS[index]``)."""
        self.refuse(f"the digit keys play nothing here: {self.how_to_move()}")

    def action_type_move(self) -> None:
        """Ask for a move as the game writes it (``State.parse_move``), and play it."""
        state = self.state
        if state.is_terminal():
            self.refuse("the game is over: no move to play")
            return
        example = state.move_label(state.legal_moves()[0])
        self.screen.query_one(PromptBar).ask(
            "move", "", self._typed, placeholder=f"a move as the game writes it, e.g. {example}"
        )

    def _typed(self, text: str) -> None:
        """Play the move written ``text`` (a ``PositionError``, shown by the bar, when it is none)."""
        self.play(self.state.parse_move(text))

    def play(self, move: Move) -> None:
        """Post ``move`` as played by the user (it is legal in ``state``)."""
        self.post_message(self.MovePlayed(self, move))

    def refuse(self, reason: str) -> None:
        """Tell the screen a move cannot be played, and why."""
        self.post_message(self.IllegalMove(reason))

    # ----------------------------------------------------------------- what a view supplies

    def moved_to(self, state: State) -> None:
        """The board is about to show ``state``, another position than before (a view resets its cursor here)."""

    def searched(self, searcher: Searcher[Node], state: State) -> None:
        """The board is about to show ``searcher``'s tree on ``state`` (the session's lock held): a view marks what it
        draws of the search (a tree, its cut-offs) here."""

    def render(self) -> RenderResult:
        return self.render_board()

    def render_board(self) -> Text:
        """The board as drawn now."""
        raise NotImplementedError

    # ----------------------------------------------------------------- drawing helpers

    def style(self, name: str) -> Style:
        """The board's style ``name`` (``first``, ``second``, ``muted``, ``best``...: ``COMPONENT_CLASSES``)."""
        return self.get_component_rich_style(f"board--{name}", partial=True)

    def player_style(self, player: int) -> Style:
        return self.style("first" if player == 1 else "second")

    def note_style(self, kind: str) -> Style:
        """The style of a note of ``kind`` (``Note``)."""
        style = self.style("note")
        for part in kind.split():
            style += self.style(f"note-{part}")
        return style

    def line_end(self) -> State:
        """The position where the line ends (at its first move that cannot be played)."""
        current = self.state
        for move in self.line:
            if current.is_terminal() or move not in current.legal_moves():
                break
            current = current.play(move)
        return current

    def caption(
        self, state: State, line_end: State, names: tuple[str, str] = ("first player", "second player")
    ) -> Text:
        """Who moves (``names``: the first and the second player's), and how the line ends when it ends the game (or
        who won, once the game is over)."""
        text = Text()
        winner = state.winner()
        if winner is not None:
            if winner == 0:
                text.append("■ a draw", self.style("muted"))
            else:
                text.append(player_glyph(winner), self.player_style(winner))
                text.append(f" {names[0 if winner == 1 else 1]} won", self.style("muted"))
            return text
        if is_chance(state):
            text.append(player_glyph(state.mover), self.player_style(state.mover))
            text.append(f" {self.chance_words(state)}", self.style("muted"))
        else:
            text.append(player_glyph(state.player), self.player_style(state.player))
            text.append(f" {names[0 if state.player == 1 else 1]}", self.style("muted"))
            text.append(" to move", self.style("muted"))
        if self.line and line_end.is_terminal():
            winner = line_end.winner()
            outcome = "a draw" if winner == 0 else ("the first player wins" if winner == 1 else "the second wins")
            text.append(f"\nthe line ends: {outcome}", self.style("muted"))
        return text

    def chance_words(self, state: ChanceState) -> str:
        """What happens at the chance node ``state``, after the glyph of the player who moved into it."""
        whose = "first" if state.mover == 1 else "second"
        return f"nature moves after the {whose} player"

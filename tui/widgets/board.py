"""The board: a Connect Four grid, Nim piles or a hand-written tree, a line of moves drawn on it, moves played by key
or mouse.

The board shows a base position and a *line* (a sequence of moves from it: the principal
variation, or the path to a chosen node).  On Connect Four the line's stones are drawn as
numbered ghost stones where they would land; on Nim the line is listed under the piles.
The first player's stones are ``●`` (red), the second player's ``○`` (yellow): the glyph
tells them apart without colour.  A won game's four is highlighted.  Under the columns the
board can show the exact solver's score of each column (``show_scores``), which it finds in a
thread of its own (``analyse``: the screen hears of each report by the ``Analysed`` message).
A tree is drawn top-down, the line's path reversed (``plyscope.tui.widgets.tree_drawing``); the board's
container gets the class ``-tree`` meanwhile, for a wider side column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import RenderResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import get_current_worker

from plyscope.engine.analysis import ScoresSnapshot
from plyscope.engine.games import Connect4State, Move, NimState, State, is_chance
from plyscope.engine.games.chance import ChanceDrop, connect4_grid
from plyscope.engine.games.tree import TreeState, number_text
from plyscope.engine.search.base import Node, Phase
from plyscope.tui.contest import analyse
from plyscope.tui.formatting import move_labels, player_glyph, signed
from plyscope.tui.messages import Analysed
from plyscope.tui.session import Session
from plyscope.tui.widgets.tree_drawing import GLYPHS, draw_tree, pruned_nodes

WIDE_CELL = 4
"""Connect Four: columns are four cells wide (room for a signed score under each, ``-15``)..."""
NARROW_CELL = 3
"""...or three on boards of more than ``WIDE_UP_TO`` columns."""
WIDE_UP_TO = 7
TOKEN = 2
"""Nim: each token takes two cells."""
PILE_LABEL = 6
"""Nim: cells before a pile's first token (its size, right-aligned, and a bar)."""
Note = tuple[str, str]
"""A note under a column: its text (three cells at most) and its kind: ``""`` (a draw or unknown), ``win``,
``loss``, and with `` best`` added for a best column (``win best``)."""
PLAYOUT_MOVE_SECONDS = 0.15
"""Phase mode: how long the board shows each move of a playout before drawing the next."""
LINE_DIGITS = "123456789"
"""Numbers drawn on the ghost stones of a line; later moves are drawn ``+``."""
COLUMN_BINDINGS = [
    Binding(key, f"play_column({column})", f"Play column {key}", show=False) for column, key in enumerate("1234567890")
]
"""The digit keys, each playing a column (Connect Four; Nim: the cursor's pile); screens bind them too, for the
board to take them whichever widget has the focus."""


class Board(Widget, can_focus=True):
    """A position with a line of moves drawn on it; emits ``MovePlayed`` when the user plays a move."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1, 0)", "Cursor left", show=False),
        Binding("right", "cursor(1, 0)", "Cursor right", show=False),
        Binding("up", "cursor(0, -1)", "Pile above (Nim)", show=False),
        Binding("down", "cursor(0, 1)", "Pile below (Nim)", show=False),
        Binding("enter,space", "play_cursor", "Play the move at the cursor", show=False),
        *COLUMN_BINDINGS,
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

    cursor_column: reactive[int] = reactive(3)
    """Connect Four: the column a key press plays; Nim: the part of the pile at the cursor."""
    cursor_pile: reactive[int] = reactive(0)
    """Nim: the index of the pile at the cursor (largest pile first)."""

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
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.state = state
        """The base position (moves are played here)."""
        self.line: tuple[Move, ...] = ()
        """Moves drawn from ``state``."""
        self.best: Move | None = None
        """A move marked as the best one in ``state``."""
        self.pruned: frozenset[int] = frozenset()
        """A tree: the nodes a cut-off of the search shown left unsearched (``tree_drawing.pruned_nodes``)."""
        self.notes: tuple[Note, ...] = ()
        """Connect Four: a short note under each column: the solver's score."""
        self.scores: ScoresSnapshot | None = None
        """The solver's scores of the position ``analyse`` was given, as far as found (``None``: none yet)."""
        self._analysed: State | None = None
        """That position (``None``: none analysed)."""
        self._phase: Phase[Node] | None = None
        """Phase mode: the phase drawn (``show_phase``), or ``None``."""
        self._drawing: Timer | None = None
        """Phase mode: the timer drawing the phase's playout a move at a time."""
        grid = connect4_grid(state)
        if grid is not None:
            self.set_reactive(Board.cursor_column, grid.game.width // 2)
        elif isinstance(state, NimState):
            self.set_reactive(Board.cursor_column, 1)

    def on_mount(self) -> None:
        self._ask_room()

    def _ask_room(self) -> None:
        """Give the board's container the class ``-tree`` while it shows a tree (the explorer widens it then)."""
        if isinstance(self.parent, Widget):
            self.parent.set_class(isinstance(self.state, TreeState), "-tree")

    def show(self, state: State, line: Sequence[Move] = (), best: Move | None = None) -> None:
        """Draw ``state`` with ``line`` on it and ``best`` marked."""
        if state != self.state and isinstance(state, NimState):
            self.set_reactive(Board.cursor_pile, 0)
            self.set_reactive(Board.cursor_column, 1)
        line = tuple(line)
        if (state, line, best) == (self.state, self.line, self.best):
            return
        lines = self.render_board().plain.count("\n")
        self.state = state
        self.line = line
        self.best = best
        if self.is_mounted:
            self._ask_room()
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
            state = session.state
            pruned = pruned_nodes(searcher, state) if isinstance(state, TreeState) else frozenset()
            if pruned != self.pruned:
                self.pruned = pruned
                self.refresh()
            self.show(state, moves, searcher.best_move())
        if chosen is not None:
            titles = (f"node {move_labels(session.state, moves)}" if moves else "root", "esc: back to the PV")
        else:
            titles = ("principal variation", "")
        if (self.border_title, self.border_subtitle) != titles:  # setting either repaints the whole board
            self.border_title, self.border_subtitle = titles

    @property
    def highlighted(self) -> int:
        """Connect Four: the cells drawn highlighted (a bitboard of the game): the winning four, once won."""
        grid = connect4_grid(self.state)
        if grid is None:
            return 0
        winner = grid.winner()
        return grid.game.fours(grid.stones(winner)) if winner in (1, -1) else 0

    def show_scores(self, scores: ScoresSnapshot | None, *, on: bool = True) -> None:
        """Connect Four: the solver's score of each column under it, for the player to move (who plays it);
        ``…`` before the first report (``scores`` is ``None``); nothing when ``on`` is false or the game is over."""
        state = self.state
        notes: tuple[Note, ...] = ()
        if on and isinstance(state, Connect4State) and not state.is_terminal():
            width = state.game.width
            notes = (("…", ""),) * width if scores is None else tuple(column_note(scores, c) for c in range(width))
        if notes == self.notes:
            return
        lines = self.render_board().plain.count("\n")
        self.notes = notes
        self.refresh(layout=self.render_board().plain.count("\n") != lines)

    def analyse(self, state: State | None) -> None:
        """Solve ``state``'s columns in a thread (the one before stops), keeping its reports in ``scores`` as they
        come (each also reaches the screen as ``Analysed``); ``None``, or a position the solver does not play
        (Connect Four without chance only) or a game over: stop, and keep none."""
        self.workers.cancel_group(self, "analysis")
        self.scores = None
        self._analysed = state if isinstance(state, Connect4State) and not state.is_terminal() else None
        if isinstance(self._analysed, Connect4State):
            self._analysis_thread(self._analysed)

    @work(thread=True, group="analysis")
    def _analysis_thread(self, state: Connect4State) -> None:
        analyse(state, lambda found: self.post_message(Analysed(found)), get_current_worker().cancelled_event)

    def on_analysed(self, message: Analysed) -> None:
        if message.analysis.state == self._analysed:
            self.scores = message.analysis

    @property
    def cell(self) -> int:
        """Connect Four: the width of a column, in terminal cells."""
        grid = connect4_grid(self.state)
        return WIDE_CELL if grid is None or grid.game.width <= WIDE_UP_TO else NARROW_CELL

    def how_to_move(self) -> str:
        """How a person plays a move on this board, in a few words."""
        state = self.state
        if isinstance(state, NimState):
            action = "take from the cursor to the end" if state.game.variant == "classic" else "split after the cursor"
            return f"↑↓ a pile, ←→ the cursor ({action}), enter; or click a token"
        if isinstance(state, TreeState):
            return "a child's number key (1 the leftmost)"
        return "a column's number key, ←→ and enter, or click a column"

    # ----------------------------------------------------------------- actions

    def action_cursor(self, columns: int, piles: int) -> None:
        state = self.state
        grid = connect4_grid(state)
        if grid is not None:
            self.cursor_column = (self.cursor_column + columns) % grid.game.width
        elif isinstance(state, NimState) and state.piles:
            self.cursor_pile = (self.cursor_pile + piles) % len(state.piles)
            pile = state.piles[self.cursor_pile]
            self.cursor_column = min(max(1, self.cursor_column + columns), pile)

    def action_play_cursor(self) -> None:
        state = self.state
        if connect4_grid(state) is not None:
            self.action_play_column(self.cursor_column)
        elif isinstance(state, NimState) and state.piles:
            pile = state.piles[min(self.cursor_pile, len(state.piles) - 1)]
            self._play_nim(pile, self.cursor_column)

    def action_play_column(self, column: int) -> None:
        """Play ``column`` (with chance: aim at it; at a chance node: make the disc land there)."""
        state = self.state
        grid = connect4_grid(state)
        if isinstance(state, TreeState):
            self._play_child(state, column)
            return
        if grid is None:
            return
        if column >= grid.game.width:
            last = "1234567890"[grid.game.width - 1]
            self.post_message(self.IllegalMove(f"there is no column {'1234567890'[column]}: columns are 1 to {last}"))
            return
        self.cursor_column = column
        if column in state.legal_moves():
            self.post_message(self.MovePlayed(self, column))
        elif is_chance(state):
            self.post_message(
                self.IllegalMove(
                    f"a disc aimed at column {state.move_label(state.legal_moves()[0])} "
                    f"cannot land in column {column + 1}"
                )
            )
        else:
            self.post_message(self.IllegalMove(f"column {column + 1} cannot be played: it is full or the game is over"))

    def _play_child(self, state: TreeState, child: int) -> None:
        """A tree: move to the ``child``-th child (0 the leftmost)."""
        if child in state.legal_moves():
            self.post_message(self.MovePlayed(self, child))
        elif state.is_terminal():
            self.post_message(self.IllegalMove("this node is a leaf: the game is over"))
        else:
            count = len(state.legal_moves())
            self.post_message(self.IllegalMove(f"there is no child {child + 1} here: the children are 1 to {count}"))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        state = self.state
        grid = connect4_grid(state)
        if grid is not None:
            column = (offset.x - 1) // self.cell
            if 0 <= column < grid.game.width and offset.x >= 1:
                self.action_play_column(column)
        elif isinstance(state, NimState) and 0 <= offset.y < len(state.piles):
            token = (offset.x - PILE_LABEL) // TOKEN + 1
            pile = state.piles[offset.y]
            if 1 <= token <= pile:
                self.cursor_pile = offset.y
                self.cursor_column = token
                self._play_nim(pile, token)

    def _play_nim(self, pile: int, token: int) -> None:
        """Classic Nim: take the tokens from ``token`` to the end; Grundy: split after ``token``."""
        state = self.state
        assert isinstance(state, NimState)
        classic = state.game.variant == "classic"
        move = (pile, pile - token + 1) if classic else (pile, max(token, pile - token))
        if move in state.legal_moves():
            self.post_message(self.MovePlayed(self, move))
        elif classic:
            self.post_message(self.IllegalMove("that move cannot be played here"))
        else:
            self.post_message(
                self.IllegalMove(
                    f"a pile of {pile} cannot be split into {token} and {pile - token}: the two parts must differ"
                )
            )

    # ----------------------------------------------------------------- rendering

    def render(self) -> RenderResult:
        return self.render_board()

    def render_board(self) -> Text:
        state = self.state
        if connect4_grid(state) is not None:
            return self._render_connect4(state)
        if isinstance(state, NimState):
            return self._render_nim(state)
        if isinstance(state, TreeState):
            return self._render_tree(state)
        return Text(state.text())

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"board--{name}", partial=True)

    def _player_style(self, player: int) -> Style:
        return self._style("first" if player == 1 else "second")

    def _render_connect4(self, state: State) -> Text:
        """A Connect Four grid (with chance: the grid under the position, the falling disc above it)."""
        board = connect4_grid(state)
        assert board is not None
        game = board.game
        ghosts, line_end = self._ghosts(state)
        grid = self._style("grid")
        text = Text()
        cell = self.cell
        text.append_text(self._marker(state, game.width))
        text.append("\n")
        for row in reversed(range(game.height)):
            text.append("│", grid)
            for column in range(game.width):
                glyph, style = self._cell(board, column, row, ghosts)
                text.append(_centred(glyph, cell), grid + style)
            text.append("│\n", grid)
        text.append("└" + "─" * (game.width * cell) + "┘\n", grid)
        text.append(" ")
        for column in range(game.width):
            label = _centred("1234567890"[column], cell)
            text.append(label, self._style("best") if column == self.best else self._style("muted"))
        text.append("\n")
        text.append_text(self._notes_line(state, game.width))
        text.append_text(self._caption(state, line_end))
        return text

    def _ghosts(self, state: State) -> tuple[dict[int, tuple[str, int]], State]:
        """The ghost stones of the line from ``state`` by cell bit (the digit drawn, the player whose stone it is),
        and the position where the line ends (at its first move that cannot be played)."""
        ghosts: dict[int, tuple[str, int]] = {}
        current = state
        for move in self.line:
            if current.is_terminal() or move not in current.legal_moves():
                break
            after = current.play(move)
            landed = _grid(after).mask ^ _grid(current).mask  # nothing when a move only aims (chance)
            if landed:
                placed = len(ghosts)
                ghosts[landed] = (
                    LINE_DIGITS[placed] if placed < len(LINE_DIGITS) else "+",
                    1 if _grid(after).stones(1) & landed else -1,
                )
            current = after
        return ghosts, current

    def _marker(self, state: State, width: int) -> Text:
        """The line above the grid: the disc about to fall above the column it was aimed at (chance), or the
        cursor's ▼ while the board has the focus."""
        cell = self.cell
        if isinstance(state, ChanceDrop):
            at = 1 + state.column * cell + (cell - 1) // 2
            return Text.assemble(" " * at, (player_glyph(state.mover), self._player_style(state.mover)))
        if self.has_focus:
            at = 1 + self.cursor_column * cell + (cell - 1) // 2
            return Text.assemble(" " * at, ("▼", self._player_style(state.player)))
        return Text(" " * (width * cell + 2))

    def _cell(
        self, board: Connect4State, column: int, row: int, ghosts: dict[int, tuple[str, int]]
    ) -> tuple[str, Style]:
        """What the grid shows at ``column``, ``row``: a stone (marked when one of the four highlighted), the line's
        ghost stone there (its digit, underlined), or a dot; and its style over the grid's."""
        bit = board.game.cell(column, row)
        style = self._style("cursor") if self.has_focus and column == self.cursor_column else Style()
        if board.mask & bit:
            won = self._style("win") if self.highlighted & bit else Style()
            owner = 1 if board.stones(1) & bit else -1
            return player_glyph(owner), style + self._player_style(owner) + won
        if bit in ghosts:
            digit, player = ghosts[bit]
            return digit, style + self._player_style(player) + Style(underline=True)
        return "·", style + self._style("empty")

    def _notes_line(self, state: State, width: int) -> Text:
        """The notes under the columns (``notes``, else where a disc would land in a chance game), or nothing."""
        notes = self.notes or _landing_notes(state)
        text = Text()
        if notes:
            text.append(" ")
            for note, kind in notes[:width]:
                style = self._style("note")
                for part in kind.split():
                    style += self._style(f"note-{part}")
                text.append(_centred(note[: self.cell], self.cell), style)
            text.append("\n")
        return text

    def _render_nim(self, state: NimState) -> Text:
        room = max(4, (self.size.width or 30) - PILE_LABEL) // TOKEN
        text = Text()
        mover = self._player_style(state.player)
        best_pile = self.best[0] if isinstance(self.best, tuple) else None
        for index, pile in enumerate(state.piles):
            label_style = self._style("best") if pile == best_pile else self._style("muted")
            text.append(f"{pile:>3}", label_style)
            text.append(" │ ", self._style("muted"))
            shown = pile if pile <= room else room - 2
            glyph = player_glyph(state.player)
            for token in range(1, shown + 1):
                style = mover
                if self.has_focus and index == self.cursor_pile and self._under_cursor(state, pile, token):
                    style = mover + self._style("cursor")
                text.append(f"{glyph} " if token < shown else glyph, style)
            if shown < pile:
                text.append(f" …{pile - shown}", self._style("muted"))
            text.append("\n")
        if not state.piles:
            text.append("(no tokens left)\n", self._style("muted"))
        current: State = state
        if self.line:
            text.append("line", self._style("muted"))
            for move in self.line:
                if current.is_terminal() or move not in current.legal_moves():
                    break
                text.append(" ")
                text.append(current.move_label(move), self._player_style(current.player))
                current = current.play(move)
            text.append(f"\n  → {current.text()}\n", self._style("muted"))
        text.append_text(self._caption(state, current))
        return text

    def _render_tree(self, state: TreeState) -> Text:
        """The tree below ``state``, the line's path reversed, and who moves."""
        path: list[int] = []
        current = state
        for move in self.line:
            if move not in current.legal_moves():
                break
            current = current.play(move)
            path.append(current.node)
        room = max(20, (self.size.width or 36) - 2)
        text = draw_tree(state.tree, state.node, path, room, self._style, self.pruned)
        mover = state.player
        if state.is_terminal():
            text.append(f"a leaf worth {number_text(state.value())}: the game is over", self._style("muted"))
            return text
        whose = {1: "MAX to move", -1: "MIN to move"}.get(mover, "nature moves")
        text.append(GLYPHS[mover], self._player_style(mover) if mover else self._style("muted"))
        text.append(f" {whose} (▲ MAX is ●, ▽ MIN is ○)\nleaves: MAX's values", self._style("muted"))
        if current is not state:
            worth = f", a leaf worth {number_text(current.value())}" if current.is_terminal() else ""
            text.append(f"\nthe line ends at {current.label()}{worth}", self._style("muted"))
        return text

    def _under_cursor(self, state: NimState, pile: int, token: int) -> bool:
        """Whether ``token`` of the pile at the cursor would move: taken (classic) or split off (Grundy)."""
        cut = self.cursor_column
        if state.game.variant == "classic":
            return token >= cut
        return token > cut

    def _caption(self, state: State, line_end: State) -> Text:
        """Who moves, and how the line ends when it ends the game (or who won, once the game is over)."""
        text = Text()
        winner = state.winner()
        if winner is not None:
            if winner == 0:
                text.append("■ a draw", self._style("muted"))
            else:
                text.append(player_glyph(winner), self._player_style(winner))
                text.append(" first player won" if winner == 1 else " second player won", self._style("muted"))
            return text
        if isinstance(state, ChanceDrop):
            text.append(player_glyph(state.mover), self._player_style(state.mover))
            whose = "first" if state.mover == 1 else "second"
            text.append(f" the {whose} player's disc falls (aimed at {state.column + 1})", self._style("muted"))
        else:
            text.append(player_glyph(state.player), self._player_style(state.player))
            text.append(" first player" if state.player == 1 else " second player", self._style("muted"))
            text.append(" to move", self._style("muted"))
        if self.line and line_end.is_terminal():
            winner = line_end.winner()
            outcome = "a draw" if winner == 0 else ("the first player wins" if winner == 1 else "the second wins")
            text.append(f"\nthe line ends: {outcome}", self._style("muted"))
        return text


def column_note(scores: ScoresSnapshot, column: int) -> Note:
    """``column``'s score under the board, signed for the player who plays it (``+12`` wins, ``-15`` loses,
    ``0`` draws), coloured by its outcome and reversed among the best; ``…`` while unknown, ``?`` given up
    (coloured once its sign is known); blank for a full column."""
    if column not in scores.bounds:
        return ("", "")
    lowest, highest = scores.bounds[column]
    kind = "win" if lowest > 0 else ("loss" if highest < 0 else "")
    if column in scores.best():
        kind = f"{kind} best".strip()
    if lowest == highest:
        return (signed(lowest), kind)
    return ("…" if not scores.done else "?", kind)


def scores_caption(scores: ScoresSnapshot | None, node_budget: int) -> Text:
    """What the solver's scores under the board are, or how far the solver has got within its ``node_budget``."""
    if scores is None:
        return Text(f"solver: starting (at most {node_budget:,} nodes)", "dim")
    if scores.complete:
        return Text(
            "under the board: each column's exact score for the player to move (+ a win, - a loss, "
            "0 a draw; the larger, the sooner it ends; Pons' scores); reversed: the best",
            "dim",
        )
    if scores.done:
        return Text(f"solver: ? not solved within its budget of {node_budget:,} nodes", "dim")
    solved = f"{scores.solved()}/{len(scores.bounds)} columns"
    return Text(f"solver: {solved}, {scores.nodes:,} of {node_budget:,} nodes…", "dim")


def _centred(text: str, width: int) -> str:
    """``text`` in ``width`` cells, one cell of space before it (the grid's rhythm: `` ● `` or `` ●  ``)."""
    return f" {text}".ljust(width) if len(text) < width - 1 else text.center(width)


def _grid(state: State) -> Connect4State:
    grid = connect4_grid(state)
    assert grid is not None
    return grid


def _landing_notes(state: State) -> tuple[Note, ...]:
    """At a chance node: the probability that the falling disc lands in each column, under the columns."""
    if not isinstance(state, ChanceDrop):
        return ()
    chances = dict(state.outcomes())
    return tuple(
        (f"{round(100 * chances[column])}%" if column in chances else "", "")
        for column in range(state.board.game.width)
    )

"""Connect Four's board (and with chance): the grid, the line's stones drawn as numbered ghost stones where they would
land, a column played by its digit key, the cursor and enter, or a click.

A won game's four is highlighted.  Under the columns the board writes each column's exact score (``show_scores``:
Pons' score for the player to move, who plays it) or, at a chance node, the probability that the falling disc lands
in each column; the disc about to fall is drawn above the column it was aimed at.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from plyscope.engine.analysis import ScoresSnapshot
from plyscope.engine.games import ChanceDrop, ChanceState, Connect4State, State, is_chance
from plyscope.engine.games.chance import connect4_grid
from plyscope.tui.formatting import player_glyph
from plyscope.tui.widgets.boards.base import DIGITS, LINE_DIGITS, Board, DigitKeys, Note, digit_keys

WIDE_CELL = 4
"""Columns are four cells wide (room for a signed score under each, ``-15``)..."""
NARROW_CELL = 3
"""...or three on boards of more than ``WIDE_UP_TO`` columns."""
WIDE_UP_TO = 7


class Connect4Board(Board):
    """A Connect Four grid (with chance: the grid under the position, the falling disc above it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "Cursor left", show=False),
        Binding("right", "cursor(1)", "Cursor right", show=False),
        Binding("enter,space", "play_cursor", "Play the column at the cursor", show=False),
    ]

    scores_where = "Under the board: each column's score."

    cursor_column: reactive[int] = reactive(3)
    """The column enter plays."""

    def __init__(self, state: State, *, playable: bool = True) -> None:
        super().__init__(state, playable=playable)
        self.set_reactive(Connect4Board.cursor_column, self.grid.game.width // 2)

    @property
    def grid(self) -> Connect4State:
        """The grid of the position shown (with chance: under the falling disc)."""
        grid = connect4_grid(self.state)
        assert grid is not None, f"the Connect Four board shows {self.state.game.name}"
        return grid

    @property
    def cell(self) -> int:
        """The width of a column, in terminal cells."""
        return WIDE_CELL if self.grid.game.width <= WIDE_UP_TO else NARROW_CELL

    @property
    def highlighted(self) -> int:
        """The cells drawn highlighted (a bitboard of the game): the winning four, once won."""
        grid = self.grid
        winner = grid.winner()
        return grid.game.fours(grid.stones(winner)) if winner in (1, -1) else 0

    @property
    def notes(self) -> tuple[Note, ...]:
        """The note under each column: its exact score while they are drawn (``show_scores``), else none."""
        if not self.scoring:
            return ()
        return tuple(self.note(column) or ("", "") for column in range(self.grid.game.width))

    def how_to_move(self) -> str:
        return "a column's number key, ←→ and enter, or click a column"

    def digits(self) -> DigitKeys | None:
        return digit_keys(self.grid.game.width, "Play that column on the board", "Play column {}", "Column…")

    def scores_caption(self, scores: ScoresSnapshot | None, node_budget: int, legend: str) -> Text:
        if scores is not None and scores.complete:
            return Text(
                "under the board: each column's exact score for the player to move (+ a win, - a loss, "
                "0 a draw; the larger, the sooner it ends; Pons' scores); reversed: the best",
                "dim",
            )
        if scores is not None and not scores.done:
            solved = f"{scores.solved()}/{len(scores.bounds)} columns"
            return Text(f"solver: {solved}, {scores.nodes:,} of {node_budget:,} nodes…", "dim")
        return super().scores_caption(scores, node_budget, legend)

    # ----------------------------------------------------------------- playing

    def action_cursor(self, columns: int) -> None:
        self.cursor_column = (self.cursor_column + columns) % self.grid.game.width

    def action_play_cursor(self) -> None:
        self.play_digit(self.cursor_column)

    def play_digit(self, index: int) -> None:
        """Play column ``index`` (with chance: aim at it; at a chance node: make the disc land there)."""
        state, width = self.state, self.grid.game.width
        if index >= width:
            self.refuse(f"there is no column {DIGITS[index]}: columns are 1 to {DIGITS[width - 1]}")
            return
        self.cursor_column = index
        if index in state.legal_moves():
            self.play(index)
        elif is_chance(state):
            aimed = state.move_label(state.legal_moves()[0])
            self.refuse(f"a disc aimed at column {aimed} cannot land in column {index + 1}")
        else:
            self.refuse(f"column {index + 1} cannot be played: it is full or the game is over")

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        column = (offset.x - 1) // self.cell
        if 0 <= column < self.grid.game.width and offset.x >= 1:
            self.play_digit(column)

    # ----------------------------------------------------------------- drawing

    def chance_words(self, state: ChanceState) -> str:
        assert isinstance(state, ChanceDrop)
        whose = "first" if state.mover == 1 else "second"
        return f"the {whose} player's disc falls (aimed at {state.column + 1})"

    def render_board(self) -> Text:
        state, board = self.state, self.grid
        game = board.game
        ghosts, line_end = self._ghosts()
        grid = self.style("grid")
        text = Text()
        cell = self.cell
        text.append_text(self._marker(game.width))
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
            label = _centred(DIGITS[column], cell)
            text.append(label, self.style("best") if column == self.best else self.style("muted"))
        text.append("\n")
        text.append_text(self._notes_line(game.width))
        text.append_text(self.caption(state, line_end))
        return text

    def _ghosts(self) -> tuple[dict[int, tuple[str, int]], State]:
        """The ghost stones of the line by cell bit (the digit drawn, the player whose stone it is), and the position
        where the line ends (at its first move that cannot be played)."""
        ghosts: dict[int, tuple[str, int]] = {}
        current = self.state
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

    def _marker(self, width: int) -> Text:
        """The line above the grid: the disc about to fall above the column it was aimed at (chance), or the
        cursor's ▼ while the board has the focus."""
        state, cell = self.state, self.cell
        if isinstance(state, ChanceDrop):
            at = 1 + state.column * cell + (cell - 1) // 2
            return Text.assemble(" " * at, (player_glyph(state.mover), self.player_style(state.mover)))
        if self.taking_keys:
            at = 1 + self.cursor_column * cell + (cell - 1) // 2
            return Text.assemble(" " * at, ("▼", self.player_style(state.player)))
        return Text(" " * (width * cell + 2))

    def _cell(
        self, board: Connect4State, column: int, row: int, ghosts: dict[int, tuple[str, int]]
    ) -> tuple[str, Style]:
        """What the grid shows at ``column``, ``row``: a stone (marked when one of the four highlighted), the line's
        ghost stone there (its digit, underlined), or a dot; and its style over the grid's."""
        bit = board.game.cell(column, row)
        style = self.style("cursor") if self.taking_keys and column == self.cursor_column else Style()
        if board.mask & bit:
            won = self.style("win") if self.highlighted & bit else Style()
            owner = 1 if board.stones(1) & bit else -1
            return player_glyph(owner), style + self.player_style(owner) + won
        if bit in ghosts:
            digit, player = ghosts[bit]
            return digit, style + self.player_style(player) + Style(underline=True)
        return "·", style + self.style("empty")

    def _notes_line(self, width: int) -> Text:
        """The notes under the columns (the scores, else where a disc would land at a chance node), or nothing."""
        notes = self.notes or self._landing_notes()
        text = Text()
        if notes:
            text.append(" ")
            for note, kind in notes[:width]:
                text.append(_centred(note[: self.cell], self.cell), self.note_style(kind))
            text.append("\n")
        return text

    def _landing_notes(self) -> tuple[Note, ...]:
        """At a chance node: the probability that the falling disc lands in each column, under the columns."""
        state = self.state
        if not isinstance(state, ChanceDrop):
            return ()
        chances = dict(state.outcomes())
        return tuple(
            (f"{round(100 * chances[column])}%" if column in chances else "", "")
            for column in range(state.board.game.width)
        )


def _centred(text: str, width: int) -> str:
    """``text`` in ``width`` cells, one cell of space before it (the grid's rhythm: `` ● `` or `` ●  ``)."""
    return f" {text}".ljust(width) if len(text) < width - 1 else text.center(width)


def _grid(state: State) -> Connect4State:
    grid = connect4_grid(state)
    assert grid is not None
    return grid


VIEW = Connect4Board

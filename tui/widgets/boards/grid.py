"""The board of a game of cells in a grid (tic-tac-toe and the m,n,k-games): each cell a stone or empty, a move by
cell.

The first player's (X's) stones are ``●``, the second's (O's) ``○``: the glyph tells them apart without colour.
Columns are lettered from ``a``, rows numbered from the top, as the cells are written (``b2`` is tic-tac-toe's
centre).  The line's stones are drawn as numbered ghost stones in their cells (underlined), as on Connect Four's
board, and the best move's column letter and row number reversed; a won game's line is highlighted.  A cell is
played by the cursor keys and enter (or space), by a click, on boards of at most nine cells by its digit key in
reading order (tic-tac-toe's 1 to 9, as on a phone's keys), or typed (``m``: ``b2``).  Each empty cell's exact score,
where asked for (``show_scores``), is written in the cell.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from plyscope.engine.analysis import ScoresSnapshot
from plyscope.engine.games import State
from plyscope.engine.kits import kit_of
from plyscope.engine.kits.tictactoe import MnkState
from plyscope.tui.formatting import player_glyph
from plyscope.tui.widgets.boards.base import DIGITS, LINE_DIGITS, Board, DigitKeys, digit_keys

CELL = 3
"""The cells of the terminal a board's cell takes (a border between two)."""
LEFT = 2
"""Cells before the board's left border: the row's number and a space."""
COLUMNS = "abcde"
DIGIT_CELLS = 9
"""The digit keys play the cells of boards of at most this many cells."""


class GridBoard(Board):
    """Cells in a grid, a cell at the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1, 0)", "Cursor left", show=False),
        Binding("right", "cursor(1, 0)", "Cursor right", show=False),
        Binding("up", "cursor(0, -1)", "Cursor up", show=False),
        Binding("down", "cursor(0, 1)", "Cursor down", show=False),
        Binding("enter,space", "play_cursor", "Play the cell at the cursor", show=False),
    ]

    scores_where = "In each empty cell: its score."

    cursor_column: reactive[int] = reactive(1)
    """The column of the cell at the cursor (0 the leftmost)."""
    cursor_row: reactive[int] = reactive(1)
    """The row of the cell at the cursor (0 the top)."""

    def __init__(self, state: State, *, playable: bool = True) -> None:
        super().__init__(state, playable=playable)
        game = self.grid.game
        self.set_reactive(GridBoard.cursor_column, (game.width - 1) // 2)
        self.set_reactive(GridBoard.cursor_row, (game.height - 1) // 2)

    @property
    def grid(self) -> MnkState:
        """The position shown."""
        state = self.state
        assert isinstance(state, MnkState), f"the grid board shows {state.game.name}"
        return state

    @property
    def highlighted(self) -> int:
        """The cells drawn highlighted (as bits, cell ``i`` bit ``i``): the winning line, once won."""
        state = self.grid
        winner = state.winner()
        if winner not in (1, -1):
            return 0
        stones = state.first if winner == 1 else state.second
        won = 0
        for line in state.game.lines:
            if line & stones == line:
                won |= line
        return won

    def how_to_move(self) -> str:
        numbers = f"a cell's number key (1-{self.grid.game.cells}), " if self.digits() is not None else ""
        return f"{numbers}←→↑↓ and enter, or click a cell"

    def digits(self) -> DigitKeys | None:
        cells = self.grid.game.cells
        if cells > DIGIT_CELLS:
            return None
        return digit_keys(cells, "Play that cell (reading order: 1 top left)", "Play cell {}", "Cell…")

    def scores_caption(self, scores: ScoresSnapshot | None, node_budget: int, legend: str) -> Text:
        if scores is not None and scores.complete:
            return Text(
                f"in each empty cell: its exact value for the player to move ({legend}); reversed: the best", "dim"
            )
        return super().scores_caption(scores, node_budget, legend)

    # ----------------------------------------------------------------- playing

    def action_cursor(self, columns: int, rows: int) -> None:
        game = self.grid.game
        self.cursor_column = (self.cursor_column + columns) % game.width
        self.cursor_row = (self.cursor_row + rows) % game.height

    def action_play_cursor(self) -> None:
        self._play_cell(self.grid.game.index(self.cursor_column, self.cursor_row))

    def play_digit(self, index: int) -> None:
        game = self.grid.game
        if game.cells > DIGIT_CELLS:
            self.refuse(f"the digit keys play the cells of boards of at most {DIGIT_CELLS}: {self.how_to_move()}")
        elif index >= game.cells:
            self.refuse(f"there is no cell {DIGITS[index]}: the cells are 1 to {game.cells}, in reading order")
        else:
            self._play_cell(index)

    def _play_cell(self, cell: int) -> None:
        state = self.grid
        game = state.game
        self.cursor_row, self.cursor_column = divmod(cell, game.width)
        if cell in state.legal_moves():
            self.play(cell)
        elif state.is_terminal():
            self.refuse("the game is over: no cell to play")
        else:
            self.refuse(f"cell {game.label(cell)} is taken")

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        game = self.grid.game
        column, row = (offset.x - LEFT - 1) // (CELL + 1), offset.y - 1
        if offset.x > LEFT and 0 <= column < game.width and row % 2 == 0 and 0 <= row // 2 < game.height:
            self._play_cell(game.index(column, row // 2))

    # ----------------------------------------------------------------- drawing

    def render_board(self) -> Text:
        state = self.grid
        game = state.game
        ghosts = self._ghosts()
        grid = self.style("grid")
        muted = self.style("muted")
        best = self.best if isinstance(self.best, int) else None
        best_row, best_column = divmod(best, game.width) if best is not None else (-1, -1)
        text = Text()
        rule = "─" * CELL
        text.append(" " * LEFT)
        text.append("┌" + "┬".join([rule] * game.width) + "┐\n", grid)
        for row in range(game.height):
            text.append(f"{row + 1}", self.style("best") if row == best_row else muted)
            text.append(" " * (LEFT - 1))
            text.append("│", grid)
            for column in range(game.width):
                glyph, style = self._cell(game.index(column, row), column, row, ghosts)
                text.append(glyph.center(CELL), grid + style)
                text.append("│", grid)
            text.append("\n")
            text.append(" " * LEFT)
            if row + 1 < game.height:
                text.append("├" + "┼".join([rule] * game.width) + "┤\n", grid)
            else:
                text.append("└" + "┴".join([rule] * game.width) + "┘\n", grid)
        text.append(" " * (LEFT + 1))
        for column in range(game.width):
            text.append(COLUMNS[column].center(CELL), self.style("best") if column == best_column else muted)
            text.append(" ")
        text.append("\n")
        names = kit_of(game).player_names or ("first player", "second player")
        text.append_text(self.caption(state, self.line_end(), names))
        return text

    def _ghosts(self) -> dict[int, tuple[str, int]]:
        """The ghost stones of the line by cell: the digit drawn, the player whose stone it is."""
        ghosts: dict[int, tuple[str, int]] = {}
        current: State = self.state
        for move in self.line:
            if current.is_terminal() or move not in current.legal_moves() or not isinstance(move, int):
                break
            placed = len(ghosts)
            ghosts[move] = (LINE_DIGITS[placed] if placed < len(LINE_DIGITS) else "+", current.player)
            current = current.play(move)
        return ghosts

    def _cell(self, cell: int, column: int, row: int, ghosts: dict[int, tuple[str, int]]) -> tuple[str, Style]:
        """What the board shows in ``cell``: a stone (marked when in the line won), the line's ghost stone there (its
        digit, underlined), the cell's score while scores are drawn, or a dot; and its style over the grid's."""
        state = self.grid
        bit = 1 << cell
        at_cursor = self.taking_keys and (column, row) == (self.cursor_column, self.cursor_row)
        style = self.style("cursor") if at_cursor else Style()
        if (state.first | state.second) & bit:
            owner = 1 if state.first & bit else -1
            won = self.style("win") if self.highlighted & bit else Style()
            return player_glyph(owner), style + self.player_style(owner) + won
        if cell in ghosts:
            digit, player = ghosts[cell]
            return digit, style + self.player_style(player) + Style(underline=True)
        note = self.note(cell)
        if note is not None and note[0]:
            return note[0].rjust(2).ljust(CELL), style + self.note_style(note[1])  # (digits under the stones: -1, 0)
        return "·", style + self.style("empty")


VIEW = GridBoard

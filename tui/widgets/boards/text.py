"""The board of any game: the position as text, and its legal moves in a list to play.

The position is drawn as its state writes its board (``State.board_text()`` where the state offers one, as
OpenSpiel's games do; else ``State.text()``), then who moves, the line (its moves by ``move_label``, in their
players' colours) and the legal moves, flowed across the board's width.  A move is played with the cursor keys and
enter (or space), by a click, by its digit key while the list has at most ten moves (each then numbered), or typed
(``m``: the move as the game writes it).  At a chance node the list is nature's moves, each with its probability.
Each move's exact score, where asked for (``show_scores``), is written beside it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from plyscope.engine.games import Move, State, is_chance, outcome_probability
from plyscope.engine.games.base import board_text
from plyscope.tui.widgets.boards.base import DIGITS, Board, DigitKeys, digit_keys

MOST_ROWS = 8
"""Rows of the move list drawn at most: a longer list is drawn around the cursor, the rest counted."""
GAP = 2
"""Cells between two moves of a row."""


class TextBoard(Board):
    """Any game: its text, and its legal moves listed to pick."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1, 0)", "Cursor to the move before", show=False),
        Binding("right", "cursor(1, 0)", "Cursor to the move after", show=False),
        Binding("up", "cursor(0, -1)", "Cursor up the list of moves", show=False),
        Binding("down", "cursor(0, 1)", "Cursor down the list of moves", show=False),
        Binding("enter,space", "play_cursor", "Play the move at the cursor", show=False),
    ]

    def __init__(self, state: State, *, playable: bool = True) -> None:
        super().__init__(state, playable=playable)
        self.cursor = 0
        """The index of the move at the cursor in ``state.legal_moves()``."""
        self._across = 1
        """Moves a row of the list holds, as last drawn."""
        self._rows_at: dict[int, int] = {}
        """The list's rows as last drawn: the line each is on -> the index of its first move."""
        self._cell = 1
        """The cells a move of the list takes, as last drawn (its gap after it included)."""

    def moved_to(self, state: State) -> None:
        self.cursor = 0

    def how_to_move(self) -> str:
        numbered = "its number key, " if self.digits() is not None else ""
        return f"a move of the list: {numbered}←→↑↓ and enter, a click, or m to type it"

    def digits(self) -> DigitKeys | None:
        moves = self.state.legal_moves()
        if len(moves) > len(DIGITS):
            return None
        return digit_keys(len(moves), "Play that move of the list", "Play move {}", "Move…")

    # ----------------------------------------------------------------- playing

    def action_cursor(self, across: int, down: int) -> None:
        count = len(self.state.legal_moves())
        if count:
            self.cursor = min(max(0, self.cursor + across + down * self._across), count - 1)
            self.refresh()

    def action_play_cursor(self) -> None:
        self._play_index(self.cursor)

    def play_digit(self, index: int) -> None:
        if self.digits() is None:
            self.refuse("more than ten moves: choose one with the cursor keys and enter, or type it (m)")
        else:
            self._play_index(index)

    def _play_index(self, index: int) -> None:
        moves = self.state.legal_moves()
        if self.state.is_terminal() or not moves:
            self.refuse("the game is over: no move to play")
        elif index >= len(moves):
            self.refuse(f"there is no move {index + 1} here: the moves are 1 to {len(moves)}")
        else:
            self.cursor = index
            self.play(moves[index])

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y not in self._rows_at:
            return
        column = offset.x // self._cell
        if 0 <= column < self._across and offset.x % self._cell < self._cell - GAP:
            index = self._rows_at[offset.y] + column
            if index < len(self.state.legal_moves()):
                self._play_index(index)

    # ----------------------------------------------------------------- drawing

    def render_board(self) -> Text:
        state = self.state
        text = Text()
        if self.fallback_note:
            text.append(f"{self.fallback_note}\n", self.style("muted"))
        drawn = board_text(state).rstrip("\n")
        text.append(f"{drawn}\n" if drawn.strip() else "(the start)\n", "" if drawn.strip() else self.style("muted"))
        end = self.line_end()
        text.append_text(self.caption(state, end))
        text.append("\n")
        if self.line:
            text.append_text(self._line_text())
        text.append_text(self._moves_text(text.plain.count("\n")))
        text.rstrip()
        return text

    def _line_text(self) -> Text:
        """The line's moves, each in its player's colour."""
        text = Text("line", self.style("muted"))
        current = self.state
        for move in self.line:
            if current.is_terminal() or move not in current.legal_moves():
                break
            text.append(" ")
            style = self.player_style(current.player) if not is_chance(current) else self.style("muted")
            text.append(current.move_label(move), style)
            current = current.play(move)
        text.append("\n")
        return text

    def _labels(self, state: State, moves: list[Move]) -> list[tuple[str, str, str]]:
        """Each move as listed: its number (while the list has at most ten), its label, and its note (its score, or
        at a chance node its probability) with its kind."""
        numbered = len(moves) <= len(DIGITS)
        labels = []
        for index, move in enumerate(moves):
            note, kind = self.note(move) or ("", "")
            probability = outcome_probability(state, move)
            if probability is not None:
                note = f"{round(100 * probability)}%"
            labels.append((f"{DIGITS[index]} " if numbered else "", state.move_label(move), f"{note}|{kind}"))
        return labels

    def _moves_text(self, top: int) -> Text:
        """The legal moves flowed in rows across the board, from line ``top`` of the board (for clicks)."""
        state = self.state
        moves = list(state.legal_moves())
        self._rows_at = {}
        if not moves:
            return Text()
        labels = self._labels(state, moves)
        label_width = max(len(number) + len(label) for number, label, _ in labels)
        note_width = max(len(note.partition("|")[0]) for _, _, note in labels)
        self._cell = label_width + (note_width + 1 if note_width else 0) + GAP
        room = max(self._cell, (self.size.width or 32) + GAP)
        self._across = max(1, room // self._cell)
        rows = (len(moves) + self._across - 1) // self._across
        self.cursor = min(self.cursor, len(moves) - 1)
        cursor_row = self.cursor // self._across
        first = min(max(0, cursor_row - MOST_ROWS // 2), max(0, rows - MOST_ROWS))
        last = min(rows, first + MOST_ROWS)
        text = Text(f"{'nature' if is_chance(state) else 'moves'} ({len(moves)})", self.style("muted"))
        text.append("\n")
        line = top + 1
        if first:
            text.append(f"… {first * self._across} before\n", self.style("muted"))
            line += 1
        for row in range(first, last):
            self._rows_at[line] = row * self._across
            for index in range(row * self._across, min(len(moves), (row + 1) * self._across)):
                if index > row * self._across:
                    text.append(" " * GAP)
                number, label, noted = labels[index]
                note, _, kind = noted.partition("|")
                style = self.style("best") if moves[index] == self.best else Style()
                if self.taking_keys and index == self.cursor:
                    style += self.style("cursor")
                text.append(number, self.style("muted"))
                text.append(label.ljust(label_width - len(number)), style)
                if note_width:
                    text.append(" " + note.rjust(note_width), self.note_style(kind))
            text.append("\n")
            line += 1
        if last < rows:
            text.append(f"… {len(moves) - last * self._across} after\n", self.style("muted"))
        return text


VIEW = TextBoard

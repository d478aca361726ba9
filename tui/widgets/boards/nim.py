"""The Nim games' board: each pile a row of tokens, the line listed under the piles.

The cursor stands on a token of a pile: ↑↓ choose the pile, ←→ the token, enter (or space) plays it, as does a
click on a token: classic Nim takes the tokens from there to the end of the pile, Grundy's game splits the pile after
it.  Each move's exact score, where asked for (``show_scores``), is listed under the piles.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from plyscope.engine.games import NimState, State
from plyscope.tui.formatting import player_glyph
from plyscope.tui.widgets.boards.base import Board

TOKEN = 2
"""Each token takes two cells."""
PILE_LABEL = 6
"""Cells before a pile's first token (its size, right-aligned, and a bar)."""


class NimBoard(Board):
    """Piles of tokens, a token at the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1, 0)", "Cursor left", show=False),
        Binding("right", "cursor(1, 0)", "Cursor right", show=False),
        Binding("up", "cursor(0, -1)", "Pile above", show=False),
        Binding("down", "cursor(0, 1)", "Pile below", show=False),
        Binding("enter,space", "play_cursor", "Play the move at the cursor", show=False),
    ]

    cursor_column: reactive[int] = reactive(1)
    """The token at the cursor in its pile (1 the first)."""
    cursor_pile: reactive[int] = reactive(0)
    """The index of the pile at the cursor (largest pile first)."""

    @property
    def nim(self) -> NimState:
        """The position shown."""
        state = self.state
        assert isinstance(state, NimState), f"the Nim board shows {state.game.name}"
        return state

    def moved_to(self, state: State) -> None:
        self.set_reactive(NimBoard.cursor_pile, 0)
        self.set_reactive(NimBoard.cursor_column, 1)

    def how_to_move(self) -> str:
        action = "take from the cursor to the end" if self.nim.game.variant == "classic" else "split after the cursor"
        return f"↑↓ a pile, ←→ the cursor ({action}), enter; or click a token"

    # ----------------------------------------------------------------- playing

    def action_cursor(self, columns: int, piles: int) -> None:
        state = self.nim
        if state.piles:
            self.cursor_pile = (self.cursor_pile + piles) % len(state.piles)
            pile = state.piles[self.cursor_pile]
            self.cursor_column = min(max(1, self.cursor_column + columns), pile)

    def action_play_cursor(self) -> None:
        state = self.nim
        if state.piles:
            pile = state.piles[min(self.cursor_pile, len(state.piles) - 1)]
            self._play_nim(pile, self.cursor_column)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        state = self.nim
        if offset is not None and 0 <= offset.y < len(state.piles):
            token = (offset.x - PILE_LABEL) // TOKEN + 1
            pile = state.piles[offset.y]
            if 1 <= token <= pile:
                self.cursor_pile = offset.y
                self.cursor_column = token
                self._play_nim(pile, token)

    def _play_nim(self, pile: int, token: int) -> None:
        """Classic Nim: take the tokens from ``token`` to the end; Grundy: split after ``token``."""
        state = self.nim
        classic = state.game.variant == "classic"
        move = (pile, pile - token + 1) if classic else (pile, max(token, pile - token))
        if move in state.legal_moves():
            self.play(move)
        elif classic:
            self.refuse("that move cannot be played here")
        else:
            self.refuse(f"a pile of {pile} cannot be split into {token} and {pile - token}: the two parts must differ")

    # ----------------------------------------------------------------- drawing

    def render_board(self) -> Text:
        state = self.nim
        room = max(4, (self.size.width or 30) - PILE_LABEL) // TOKEN
        text = Text()
        mover = self.player_style(state.player)
        best_pile = self.best[0] if isinstance(self.best, tuple) else None
        for index, pile in enumerate(state.piles):
            label_style = self.style("best") if pile == best_pile else self.style("muted")
            text.append(f"{pile:>3}", label_style)
            text.append(" │ ", self.style("muted"))
            shown = pile if pile <= room else room - 2
            glyph = player_glyph(state.player)
            for token in range(1, shown + 1):
                style = mover
                if self.taking_keys and index == self.cursor_pile and self._under_cursor(token):
                    style = mover + self.style("cursor")
                text.append(f"{glyph} " if token < shown else glyph, style)
            if shown < pile:
                text.append(f" …{pile - shown}", self.style("muted"))
            text.append("\n")
        if not state.piles:
            text.append("(no tokens left)\n", self.style("muted"))
        current: State = state
        if self.line:
            text.append("line", self.style("muted"))
            for move in self.line:
                if current.is_terminal() or move not in current.legal_moves():
                    break
                text.append(" ")
                text.append(current.move_label(move), self.player_style(current.player))
                current = current.play(move)
            text.append(f"\n  → {current.text()}\n", self.style("muted"))
        if self.scoring:
            text.append_text(self._scores_text())
        text.append_text(self.caption(state, current))
        return text

    def _scores_text(self) -> Text:
        """Each move with its exact score, for the player to move."""
        state = self.nim
        text = Text("scores", self.style("muted"))
        for move in state.legal_moves():
            note, kind = self.note(move) or ("", "")
            text.append(f" {state.move_label(move)} ", self.style("muted"))
            text.append(note, self.note_style(kind))
        text.append("\n")
        return text

    def _under_cursor(self, token: int) -> bool:
        """Whether ``token`` of the pile at the cursor would move: taken (classic) or split off (Grundy)."""
        cut = self.cursor_column
        if self.nim.game.variant == "classic":
            return token >= cut
        return token > cut


VIEW = NimBoard

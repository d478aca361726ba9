"""The moves of a game as played, each with its mover's glyph (``●4 ○4 ●5``), and what may follow them."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from plyscope.engine.game_record import PlayedGame
from plyscope.tui.formatting import player_glyph


def moves_text(played: PlayedGame) -> Text:
    """``from 4453: ●4 ○3 (redo: 2)``: the start (when not the game's), every move with its mover's glyph."""
    text = Text()
    start = played.start.text()
    if start:
        text.append(f"from {start}: ", "dim")
    state = played.start
    for move in played.moves:
        text.append(f"{player_glyph(state.player)}{state.move_label(move)} ")
        state = state.play(move)
    if not played.moves:
        text.append("(none yet)")
    if played.redo_moves:
        text.append(f"(redo: {len(played.redo_moves)})", "dim")
    return text


class MoveList(Static):
    """A game's moves and, under them, a note (e.g. what the solver's scores under the board mean)."""

    def show(self, played: PlayedGame, note: Text | None = None) -> None:
        text = moves_text(played)
        if note is not None:
            text.append("\n")
            text.append_text(note)
        self.update(text)

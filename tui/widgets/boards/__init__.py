"""The board views, one per family of games, and the one place a screen gets the view of a game (``board_for``).

* ``connect4``: Connect Four's grid (and with chance: the falling disc, where it may land);
* ``nim``: the Nim games' piles of tokens;
* ``tree``: a hand-written game tree drawn top-down, as a textbook draws it;
* ``grid``: a board of cells (tic-tac-toe, the m,n,k-games), a move by cell;
* ``text``: any game: the position's text (``State.board_text()`` where the state offers one), its legal moves listed
  by ``move_label`` to pick.

A game's kit names its view (``GameKit.board``): a module of this package (which exposes ``VIEW``, its board class),
or ``package.module:Class`` for a plugin's own, a subclass of ``plyscope.tui.widgets.boards.base.Board``.  A view
that does not load, or that is no board, falls back to ``text``, with a one-line note on the board saying why.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from textual.widget import Widget

from plyscope.engine.games import Game, State
from plyscope.engine.kits import kit_of
from plyscope.engine.numbers import shown
from plyscope.tui.widgets.boards.base import Board

FALLBACK = "text"
"""The view of a game whose own does not load."""


@dataclass(frozen=True, slots=True)
class ViewChoice:
    """The board view that draws a game, and why it is not the one its kit names (``""``: it is)."""

    view: type[Board]
    note: str = ""


def view_of(game: Game) -> ViewChoice:
    """The board view of ``game``, as its kit names it."""
    return view_named(kit_of(game).board)


@cache
def view_named(name: str) -> ViewChoice:
    """The view ``name`` names: a module of this package, or ``package.module:Class``; the text view, with a note
    saying why, for one that does not load or is no board."""
    module_name, _, class_name = name.partition(":")
    try:
        if class_name:
            view = getattr(importlib.import_module(module_name), class_name)
        else:
            view = importlib.import_module(f"{__name__}.{name}").VIEW
    except Exception as error:  # (a plugin's view, broken in any way: noted, never fatal)
        lines = str(error).strip().splitlines()
        why = f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
        return _fallback(f"the board view '{shown(name, 60)}' did not load ({shown(why, 80)})")
    if not (isinstance(view, type) and issubclass(view, Board)):
        return _fallback(f"the board view '{shown(name, 60)}' is not a plyscope Board")
    return ViewChoice(view)


def _fallback(note: str) -> ViewChoice:
    return ViewChoice(view_named(FALLBACK).view, f"{note}: drawn as text")


def board_for(state: State, *, playable: bool = True) -> Board:
    """The board view of ``state``'s game, showing ``state`` (``playable``: the user plays moves on it)."""
    choice = view_of(state.game)
    board = choice.view(state, playable=playable)
    board.fallback_note = choice.note
    return board


def fit_board(board: Board, state: State) -> Board:
    """The board that shows ``state``: ``board`` if its view draws ``state``'s game, else the view of that game put in
    its place (its titles kept, and the focus if it had it)."""
    choice = view_of(state.game)
    if type(board) is choice.view and board.fallback_note == choice.note:
        return board
    fitted = board_for(state, playable=board.playable)
    fitted.border_title, fitted.border_subtitle = board.border_title, board.border_subtitle
    parent = board.parent
    assert isinstance(parent, Widget), "a board shown is in a container"
    parent.mount(fitted, before=board)
    if board.has_focus:
        fitted.focus()
    board.remove()
    return fitted

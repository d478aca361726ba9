"""The explorer's key for hand-written trees: ``n`` edits the value of the leaf chosen in the tree pane, and the
search starts again on the tree edited (``Exploration.edit_leaf``), running at the chosen speed."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.binding import Binding, BindingType

from plyscope.engine.errors import UserError
from plyscope.engine.games import Move
from plyscope.engine.games.tree import number_text
from plyscope.engine.search.base import Node
from plyscope.tui.screens.base import SearchScreen
from plyscope.tui.session import Exploration, Session
from plyscope.tui.widgets.prompt_bar import PromptBar


class LeafEditing(SearchScreen):
    """A search screen whose chosen node, on a hand-written tree, can be a leaf whose value ``n`` edits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "edit_leaf", "Edit the chosen leaf's value (a hand-written tree)", show=False),
    ]

    exploration: Exploration
    chosen: Node | None
    """The node chosen in the tree pane (``None``: none)."""
    adopt: Callable[[Session], None]
    action_run: Callable[[], None]

    def action_edit_leaf(self) -> None:
        """Ask for the chosen leaf's new value; the search starts again with it."""
        moves = [] if self.chosen is None else self.chosen.moves()
        try:
            leaf = self.exploration.leaf_at(moves)
        except UserError as error:
            self.refuse(str(error))
            return
        self.query_one(PromptBar).ask(
            f"leaf {leaf.label()}'s value",
            number_text(leaf.value()),
            lambda text: self._search_edited(moves, text),
            placeholder="a number, MAX's point of view (the search starts again)",
        )

    def _search_edited(self, moves: list[Move], text: str) -> None:
        """Search the tree with the leaf at ``moves`` valued ``text``, from its start, at the chosen speed."""
        self.adopt(self.exploration.edit_leaf(moves, text))
        self.action_run()

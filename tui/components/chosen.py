"""The node chosen in the explorer's tree (enter, a click): the board and the reading guide show its position and its
numbers, escape goes back to the principal variation, and on a hand-written tree ``n`` edits the chosen leaf's value
(the search starts again on the tree edited: ``Exploration.edit_leaf``)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from plyscope.engine.errors import UserError
from plyscope.engine.games import Move
from plyscope.engine.games.tree import number_text
from plyscope.engine.search.base import Node
from plyscope.tui.components.base import Component
from plyscope.tui.components.phases import Phases
from plyscope.tui.session import Exploration, Session
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.reading_guide import ReadingGuide
from plyscope.tui.widgets.search_pane import SearchPane
from plyscope.tui.widgets.search_tree import SearchTree


class ChosenNode(Component):
    """What the board and the reading guide inside show of the exploration's search, in the pane inside: the node
    chosen, else the principal variation, or in phase mode the phase told (its path and playout)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Board back to the principal variation", show=False),
        Binding("n", "edit_leaf", "Edit the chosen leaf's value (a hand-written tree)", show=False),
    ]

    class Edited(Message):
        """The exploration searches the tree edited from now on, with ``session``: show it and run it."""

        def __init__(self, session: Session) -> None:
            super().__init__()
            self.session = session

    def __init__(self, exploration: Exploration) -> None:
        super().__init__()
        self.exploration = exploration
        self.chosen: Node | None = None
        """The node whose position the board shows, or ``None`` for the principal variation."""

    def show(self, chosen: Node | None) -> None:
        """The board and the reading guide show ``chosen`` (``None``: the principal variation, or in phase mode the
        phase's path and playout) from now on; in phase mode the guide tells the phase first."""
        self.chosen = chosen
        session = self.exploration.session
        phase = self.query_one(SearchPane).phase if self._phase_mode() else None
        if phase is not None and chosen is None:
            self.query_one(Board).show_phase(session, phase)
        else:
            self.query_one(Board).show_search(session, chosen)
        self.query_one(ReadingGuide).show_session(session, chosen, phase)

    def follow(self) -> None:
        """After the search shown moved on: show what it is now."""
        if self._phase_mode() or self.query_one(SearchPane).phase is not self.query_one(ReadingGuide).phase:
            self.show(self.chosen)  # (a phase told, or no more)
        else:  # (the guide is laid out again when it changes: not at every frame of a run)
            self.query_one(Board).show_search(self.exploration.session, self.chosen)

    def _phase_mode(self) -> bool:
        return any(phases.on for phases in self.screen.query(Phases).results(Phases))

    def on_search_tree_node_chosen(self, message: SearchTree.NodeChosen) -> None:
        self.show(message.node)

    def action_back(self) -> None:
        self.show(None)

    def action_edit_leaf(self) -> None:
        """Ask for the chosen leaf's new value; the search starts again with it."""
        moves = [] if self.chosen is None else self.chosen.moves()
        try:
            leaf = self.exploration.leaf_at(moves)
        except UserError as error:
            self.status.refuse(str(error))
            return
        self.screen.query_one(PromptBar).ask(
            f"leaf {leaf.label()}'s value",
            number_text(leaf.value()),
            lambda text: self._edited(moves, text),
            placeholder="a number, MAX's point of view (the search starts again)",
        )

    def _edited(self, moves: list[Move], text: str) -> None:
        """The leaf at ``moves`` valued ``text`` (a ``UserError``, shown by the bar, if ``text`` is no value)."""
        self.post_message(self.Edited(self.exploration.edit_leaf(moves, text)))

"""What the screens where agents take turns share: a turn's search live in a pane, and its decision.

``start_turn`` runs a ``Turn`` (``plyscope.tui.match``) in the pane given: live (every frame painted)
or at full speed (``live`` off, ``l``: the tree is shown when the turn ends), and posts
``Decided`` with the move, which ``turn_decided`` plays.  The play screen and compare's match
use it; the compare screen keeps the ``l`` setting for its match.
"""

from __future__ import annotations

from functools import partial

from plyscope.engine.agents import Decision
from plyscope.tui.contest import turn_job
from plyscope.tui.match import Turn
from plyscope.tui.messages import Decided
from plyscope.tui.screens.base import SearchScreen
from plyscope.tui.widgets.search_pane import SearchPane


class TurnScreen(SearchScreen):
    """A ``SearchScreen`` whose panes show agents' turns in a game."""

    def __init__(self) -> None:
        super().__init__()
        self.live = True
        """Agents' turns are painted frame by frame (else only when they end); the turn threads read it."""

    def start_turn(self, turn: Turn, pane: SearchPane, title: str) -> None:
        """Search ``turn`` in a thread, shown in ``pane`` (titled ``title``), then post ``Decided``."""
        pane.show(turn.session)
        pane.border_subtitle = title
        decided = partial(self._decided, turn)
        self.host(turn_job(turn.session, turn.agent.limit.seconds, lambda: self.live, decided))
        self.show_status()

    def _decided(self, turn: Turn, decision: Decision) -> None:
        """From the turn's thread: the search of ``turn`` ended with ``decision``."""
        self.post_message(Decided(turn, decision))

    def on_decided(self, message: Decided) -> None:
        for pane in self.query(SearchPane).results(SearchPane):
            if pane.session is message.turn.session and not self.live:
                pane.show(message.turn.session)  # at full speed the tree is shown when the turn ends
        self.turn_decided(message.turn, message.decision)

    def turn_decided(self, turn: Turn, decision: Decision) -> None:
        """A turn's search ended with ``decision``: play it (the screens say how)."""

    def action_toggle_live(self) -> None:
        """Agents' searches painted live, or at full speed (shown when each turn ends)."""
        self.live = not self.live
        self.say("live search" if self.live else "full speed: each turn's tree is shown when it ends")

"""Messages the play and compare screens post to themselves from their worker threads."""

from __future__ import annotations

from textual.message import Message

from engine.agents import Decision
from engine.analysis import ScoresSnapshot
from tui.session import Session


class Decided(Message):
    """``session``'s search ended with ``decision`` (an agent's move, or a hint)."""

    def __init__(self, session: Session, decision: Decision) -> None:
        super().__init__()
        self.session = session
        self.decision = decision


class Analysed(Message):
    """The analysis worker learnt more about the position's columns."""

    def __init__(self, analysis: ScoresSnapshot) -> None:
        super().__init__()
        self.analysis = analysis

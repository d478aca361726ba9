"""Compare's match: the first two compared agents play each other from the position, over the comparison.

Each turn is a new search shown live in its agent's pane (turns from ``plyscope.tui.match``, run by
``TurnScreen.start_turn`` as on the play screen; the budget is per turn here).  The keys are
the compare screen's: those that step the comparison say how to leave the match (``m``, escape),
``x`` plays it again, ``a`` leaves it for a comparison of other agents.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from plyscope.engine.agents import Agent, Decision
from plyscope.engine.errors import UserError
from plyscope.engine.game_record import PlayedGame
from plyscope.tui.formatting import player_glyph
from plyscope.tui.match import MatchRunner, Turn
from plyscope.tui.screens.side_by_side import SideBySideScreen
from plyscope.tui.session import Session, named_position
from plyscope.tui.widgets.board import Board
from plyscope.tui.widgets.compare_summary import LETTERS, CompareSummary
from plyscope.tui.widgets.move_list import moves_text


class CompareMatchScreen(SideBySideScreen):
    """A match between the first two of the compared agents, from the compared position."""

    def __init__(self, comparison: SideBySideScreen, shown: Sequence[Session] = ()) -> None:
        """The match of ``comparison``'s first two agents (the others wait for it), from its position, with its
        budget a turn and its live setting; their panes show ``shown`` (its searches) until their first turns."""
        super().__init__(
            comparison.state, comparison.agents, comparison.total, seed=comparison.seed, clock=comparison.clock
        )
        self.live = comparison.live
        self.shown = list(shown)
        self.runner = self._new_runner()
        self.chosen: list[Agent] | None = None
        """The agents typed after ``a``: the comparison goes on with them once the match is left."""

    async def on_mount(self) -> None:
        await self.mount_panes(self.agents[:2])
        if not self.panes:  # (the screen was left before its panes were mounted)
            return
        for pane, session in zip(self.panes, self.shown, strict=False):
            pane.show(session)
        self.panes[0].search_tree.focus()
        self._next_turn()

    def timeline_refusal(self, session: Session) -> str:
        """A match's turns cannot be moved along their timelines."""
        return "the timeline shows compared searches: m leaves the match first"

    def _new_runner(self) -> MatchRunner:
        """The match from the position: the first agent plays the side to move there."""
        first, second = self.agents[0], self.agents[1]
        if self.state.player == -1:
            first, second = second, first
        return MatchRunner(PlayedGame(self.state, first, second, seed=self.seed), name=self.letter)

    def _next_turn(self) -> None:
        self._refresh()
        try:
            turn = self.runner.turn()
        except UserError as error:
            self.refuse(f"the match cannot go on: {error}")
            return
        if turn is not None:
            self.start_turn(turn, self.panes[0 if turn.agent is self.agents[0] else 1], turn.purpose)

    def turn_decided(self, turn: Turn, decision: Decision) -> None:
        if self.runner.decided(turn):
            self.note = self.runner.conclude(turn, decision)
            self._next_turn()

    def letter(self, agent: Agent) -> str:
        """``A`` or ``B``: the agent's letter in the comparison."""
        return LETTERS[0] if agent is self.agents[0] else LETTERS[1]

    # ----------------------------------------------------------------- the keys

    def action_step(self, count: int) -> None:
        self.refuse("a match is on: m leaves it")

    def action_run(self) -> None:
        self.refuse("a match is on: m leaves it")

    def action_reset(self) -> None:
        """Play the match again."""
        self.stop_searches()
        self.runner = self._new_runner()
        self.note = ""
        self._next_turn()

    def action_match(self) -> None:
        self.action_back()

    def action_back(self) -> None:
        """Back to the comparison (``dismiss``: it hears of the live setting and of ``chosen``)."""
        self.stop_searches()
        if self.is_current:  # (not twice, for a key typed again before the first was handled)
            self.dismiss()

    async def compare(self, agents: Sequence[Agent]) -> None:
        """Leave the match for a comparison of ``agents``."""
        self.chosen = list(agents)
        self.action_back()

    # ----------------------------------------------------------------- showing

    def _refresh(self) -> None:
        played = self.runner.played
        board = self.query_one(Board)
        board.show(played.state)
        board.border_title = "match"
        text = Text()
        for player in (1, -1):
            agent = played.controller(player)
            assert agent is not None
            text.append(f"{player_glyph(player)} {self.letter(agent)} {agent.label}\n")
        self.query_one(CompareSummary).update(text.append_text(moves_text(played)))
        self.show_status()

    def status_lines(self) -> tuple[Text, Text]:
        first = Text.assemble(
            (self.state.game.name, "bold"),
            f" · from {named_position(self.state.text())} · match ",
            (f"{LETTERS[0]} vs {LETTERS[1]}", "bold"),
            f" · {self.budget()} a turn",
        )
        outcome = self.runner.outcome()
        if outcome:
            return first, Text(f"■ {outcome} · x: play it again · m: back to the comparison")
        mover = self.runner.played.to_move()
        assert mover is not None
        return first, Text(f"▶ {self.letter(mover)} is thinking… (move {self.runner.played.state.ply + 1})")

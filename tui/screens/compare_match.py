"""Compare's match: the first two compared agents play each other from the position, over the comparison.

Each turn is a new search shown live in its agent's pane (turns from ``plyscope.tui.match``, run by
``Searches.start_turn`` as on the play screen; the budget is per turn here).  The keys are
the compare screen's: those that step the comparison say how to leave the match (``m``, escape),
``x`` plays it again, ``a`` leaves it for a comparison of other agents.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen

from plyscope.engine.agents import Agent
from plyscope.engine.errors import UserError
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.games import State
from plyscope.engine.search.base import Limit
from plyscope.tui.components.agent_panes import AgentPanes
from plyscope.tui.components.searches import Searches
from plyscope.tui.components.size import TooSmall
from plyscope.tui.components.status import StatusLine
from plyscope.tui.components.timeline import Timeline
from plyscope.tui.components.truth import TruthColumn
from plyscope.tui.formatting import player_glyph
from plyscope.tui.match import MatchRunner
from plyscope.tui.messages import Decided
from plyscope.tui.screens.side_by_side import MIN_SIZE, SIDE_BY_SIDE_KEYS, ask_agents, board_and_panes, budget_words
from plyscope.tui.session import Session, named_position
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.compare_summary import LETTERS, CompareSummary
from plyscope.tui.widgets.footer import KeyFooter
from plyscope.tui.widgets.move_list import moves_text
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.search_pane import SearchPane


class CompareMatchScreen(Screen[None]):
    """A match between the first two of the compared agents, from the compared position."""

    CSS_PATH = "side_by_side.tcss"
    BINDINGS: ClassVar[list[BindingType]] = SIDE_BY_SIDE_KEYS

    def __init__(
        self,
        state: State,
        agents: Sequence[Agent],
        total: Limit,
        shown: Sequence[Session] = (),
        *,
        seed: int = 0,
        live: bool = True,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """The match of the first two of the compared ``agents`` (the others wait for it), from ``state``, with the
        budget ``total`` a turn, turns painted ``live`` or not; their panes show ``shown`` (the comparison's searches)
        until their first turns."""
        super().__init__()
        self.state = state
        self.agents = list(agents)
        self.total = total
        self.seed = seed
        self.clock = clock
        self.shown = list(shown)
        self.runner = self._new_runner()
        self.chosen: list[Agent] | None = None
        """The agents typed after ``a``: the comparison goes on with them once the match is left."""
        self.status = StatusLine(self.status_lines)
        self.searches = Searches(live=live)

    def compose(self) -> ComposeResult:
        yield self.status
        with (
            self.searches,
            Timeline(lambda session: "the timeline shows compared searches: m leaves the match first"),
            TruthColumn(),
        ):
            yield from board_and_panes(self.state, self.clock)
        yield PromptBar()
        yield KeyFooter()
        yield TooSmall(MIN_SIZE)

    async def on_mount(self) -> None:
        found = list(self.query(AgentPanes).results(AgentPanes))
        if not found:  # (the screen was left before it was mounted: nothing to show the panes in)
            return
        await found[0].show_agents(self.agents[:2])
        for pane, session in zip(self.panes, self.shown, strict=False):
            pane.show(session)
        self.panes[0].search_tree.focus()
        self._next_turn()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmall).fit(event.size)

    @property
    def panes(self) -> list[SearchPane]:
        """The agents' panes, in the agents' order."""
        return self.query_one(AgentPanes).panes

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
            self.status.refuse(f"the match cannot go on: {error}")
            return
        if turn is not None:
            self.searches.start_turn(turn, self.panes[0 if turn.agent is self.agents[0] else 1], turn.purpose)

    def on_decided(self, message: Decided) -> None:
        if self.runner.decided(message.turn):
            self.status.note = self.runner.conclude(message.turn, message.decision)
            self._next_turn()

    def on_searches_shown(self) -> None:
        self.status.show()

    def letter(self, agent: Agent) -> str:
        """``A`` or ``B``: the agent's letter in the comparison."""
        return LETTERS[0] if agent is self.agents[0] else LETTERS[1]

    # ----------------------------------------------------------------- the keys

    def action_step(self, count: int) -> None:
        self.status.refuse("a match is on: m leaves it")

    def action_run(self) -> None:
        self.status.refuse("a match is on: m leaves it")

    def action_reset(self) -> None:
        """Play the match again."""
        self.searches.stop()
        self.runner = self._new_runner()
        self.status.note = ""
        self._next_turn()

    def action_match(self) -> None:
        self.action_back()

    def action_back(self) -> None:
        """Back to the comparison (``dismiss``: it hears of the live setting and of ``chosen``)."""
        self.searches.stop()
        if self.is_current:  # (not twice, for a key typed again before the first was handled)
            self.dismiss()

    def action_edit_agents(self) -> None:
        ask_agents(self.query_one(PromptBar), self.agents, self.total, self.state, self.compare)

    async def compare(self, agents: Sequence[Agent]) -> None:
        """Leave the match for a comparison of ``agents``."""
        self.chosen = list(agents)
        self.action_back()

    def action_toggle_live(self) -> None:
        if self.is_current:  # (not for a key queued as the match was left: its searches are gone)
            self.searches.toggle_live()

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
        self.status.show()

    def status_lines(self) -> tuple[Text, Text]:
        first = Text.assemble(
            (self.state.game.name, "bold"),
            f" · from {named_position(self.state.text())} · match ",
            (f"{LETTERS[0]} vs {LETTERS[1]}", "bold"),
            f" · {budget_words(self.total)} a turn",
        )
        outcome = self.runner.outcome()
        if outcome:
            return first, Text(f"■ {outcome} · x: play it again · m: back to the comparison")
        mover = self.runner.played.to_move()
        assert mover is not None
        return first, Text(f"▶ {self.letter(mover)} is thinking… (move {self.runner.played.state.ply + 1})")

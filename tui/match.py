"""A game between sides driven turn by turn, as the play screen and compare's match mode both drive it; no Textual.

``MatchRunner`` says whose turn it is and builds the search of an agent's turn (a
``Session``), plays the ``Decision`` that search ends with, and writes what happened and how
the game ended.  A screen runs the turn's search in a thread (``SearchScreen.start_turn``)
and hands the decision back to ``conclude``; the runner never touches the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.agents import Agent, Decision
from engine.game_record import PlayedGame
from engine.games import Move, State, is_chance
from engine.seeds import chance_draw
from tui.contest import agent_session
from tui.session import Session

Namer = Callable[[Agent], str]
"""How a screen names an agent in its messages (e.g. ``A`` in compare, its spec in play)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One search of an agent: its move in the game, or a hint for a human."""

    agent: Agent
    session: Session
    """The search, on ``state``, with the agent's move budget."""
    state: State
    """The position searched."""
    hint: bool = False
    """A hint for the human to move (its move is shown, not played)."""

    @property
    def purpose(self) -> str:
        """``move 7`` or ``hint``: what the search is for."""
        return "hint" if self.hint else f"move {self.state.ply + 1}"

    def progress(self) -> str:
        """``rivest is thinking… 300/1,000 moves`` (or seconds of search, for a budget in seconds)."""
        limit = self.agent.limit
        with self.session.lock:
            stats = self.session.searcher.stats
            spent = (
                f"{stats.seconds:.1f}/{limit.seconds:g} s"
                if limit.seconds is not None
                else f"{stats.moves:,}/{limit.moves or 0:,} moves"
            )
        doing = "looks for a hint" if self.hint else "is thinking"
        return f"{self.agent.label} {doing}… {spent}"


def player_name(player: int) -> str:
    """``the first player`` or ``the second player``."""
    return "the first player" if player == 1 else "the second player"


class MatchRunner:
    """Turns of ``played``: which agent searches now, what its decision does, how the game ends."""

    def __init__(self, played: PlayedGame, name: Namer | None = None) -> None:
        self.played = played
        self.name: Namer = name or (lambda agent: agent.label)

    def turn(self) -> Turn | None:
        """The search the side to move runs now; ``None`` when a human is to move or the game is over.

        Raises ``UserError`` when the agent cannot search this position (a game it does not play).
        """
        played = self.played
        agent = played.to_move()
        if agent is None or played.is_over():
            return None
        return Turn(agent, agent_session(agent, played.state, played.turn_seed()), played.state)

    def hint(self, agent: Agent) -> Turn:
        """A search by ``agent`` of the position, for the human to move; seeded like a turn there."""
        played = self.played
        return Turn(agent, agent_session(agent, played.state, played.turn_seed()), played.state, hint=True)

    def current(self, turn: Turn) -> bool:
        """Whether ``turn`` is still for the position on the board (no undo, load or new game since)."""
        return turn.state == self.played.state and (turn.hint or self.played.to_move() is turn.agent)

    def conclude(self, turn: Turn, decision: Decision) -> str:
        """Play ``decision`` (a turn's move) and say what happened: ``rivest played 4``."""
        label = self.played.state.move_label(decision.move)
        fallback = " (its search proposed no move: the fallback move)" if decision.fallback else ""
        capped = (
            f" (its tree reached its cap of {turn.session.node_cap:,} nodes)"
            if (turn.session.stop_reason() == "cap")
            else ""
        )
        return f"{self.name(turn.agent)} played {label}{fallback}{capped}{self.play(decision.move)}"

    def play(self, move: Move) -> str:
        """Play ``move`` (a human's or an agent's; it must be legal) and nature's moves after it: with chance, the
        disc lands where the game's seeded draw says (``chance_draw(seed, ply)``, as the arena draws them).
        Returns what chance did, ``"; the disc slipped into 5"`` (``""`` if nothing, or it landed as aimed)."""
        played = self.played
        played.play(move)
        note = ""
        while is_chance(played.state):
            drop = played.state
            landing = drop.outcome_for(chance_draw(played.seed, drop.ply))
            if landing != move:
                note = f"; the disc slipped into {drop.move_label(landing)}"
            played.play(landing)
        return note

    def outcome(self) -> str:
        """How the game ended (``""`` while it goes on): ``a draw``, ``the first player (rivest) won``."""
        played = self.played
        winner = played.state.winner()
        if winner is None:
            return ""
        if winner == 0:
            return "a draw"
        side = played.controller(winner)
        if side is None and played.controller(-winner) is not None:
            return "you won"
        who = player_name(winner)
        return f"{who} ({self.name(side)}) won" if side is not None else f"{who} won"

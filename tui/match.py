"""A game between sides driven turn by turn, as the play screen and compare's match both drive it; no Textual.

``MatchRunner`` says whose turn it is and builds the search of an agent's turn (a
``Session``), keeps which search is under way (a decision of any other is dropped), plays the
``Decision`` that search ends with, and writes what happened and how the game ended.  A screen
runs the turn's search in a thread (``TurnScreen.start_turn``) and hands the decision back
to ``decided`` and ``conclude``; the runner never touches the screen.  For the play screen it
also keeps the agents paused or not, the last hint, and takes moves back and forth.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from plyscope.engine.agents import Agent, Decision, turn_limit
from plyscope.engine.errors import UserError
from plyscope.engine.game_record import Controller, PlayedGame, controller_text
from plyscope.engine.games import Move, State, is_chance
from plyscope.engine.kits import kit_of
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.engine.seeds import chance_draw
from plyscope.tui.contest import agent_session
from plyscope.tui.session import Session, default_algorithm

GAME_OVER = "the game is over: n starts a new one, u takes moves back"
"""What the play screen says to a move tried once the game is over."""

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


def default_hint(played: PlayedGame, limit: Limit) -> Agent:
    """Who gives hints when none is named: an agent side (the second player's first), else the game's default
    algorithm with the budget ``limit``."""
    sides = [side for side in (played.second, played.first) if side is not None]
    return sides[0] if sides else Agent(AgentSpec(default_algorithm(played.game)), limit)


def game_against(session: Session) -> PlayedGame:
    """A game from ``session``'s position: a human first against its algorithm and parameters (the default budget
    of a turn), seeded with its seed."""
    agent = Agent(session.config.spec(), turn_limit(None, None))
    return PlayedGame(session.state, None, agent, seed=session.config.seed)


def player_name(player: int) -> str:
    """``the first player`` or ``the second player``."""
    return "the first player" if player == 1 else "the second player"


class MatchRunner:
    """Turns of ``played``: which agent searches now, what its decision does, how the game ends."""

    def __init__(self, played: PlayedGame, name: Namer | None = None) -> None:
        self.played = played
        self.name: Namer = name or (lambda agent: agent.label)
        self.searching: Turn | None = None
        """The search under way (an agent's turn or a hint), from ``turn`` or ``hint`` until ``decided`` or
        ``drop``."""
        self.paused = False
        """The agents do not move while paused (``turn`` has none for them)."""
        self.hinted: tuple[State, Move, list[Move]] | None = None
        """The last hint (until ``drop``): its position, its move, and the line its agent expects from there."""

    def turn(self) -> Turn | None:
        """The search the side to move runs now (under way from now on); ``None`` when a human is to move, the
        game is over or the agents are paused.

        Raises ``UserError`` when the agent cannot search this position (a game it does not play).
        """
        played = self.played
        agent = played.to_move()
        if agent is None or played.is_over() or self.paused:
            return None
        self.searching = Turn(agent, agent_session(agent, played.state, played.turn_seed()), played.state)
        return self.searching

    def hint(self, agent: Agent) -> Turn:
        """A search by ``agent`` of the position, for the human to move (under way from now on); seeded like a
        turn there.  Raises ``UserError`` when no human is to move or ``agent`` cannot search the position."""
        played = self.played
        if played.is_over():
            raise UserError("the game is over: no hint to give")
        if played.to_move() is not None:
            raise UserError("hints are for a human's turn")
        try:
            session = agent_session(agent, played.state, played.turn_seed())
        except UserError as error:
            raise UserError(f"{agent.label} cannot give hints here: {error}") from None
        self.searching = Turn(agent, session, played.state, hint=True)
        return self.searching

    def drop(self) -> None:
        """No search is under way any more (the screen stopped it: the game changed), and no hint is shown: a
        decision that still arrives is dropped."""
        self.searching = None
        self.hinted = None

    def decided(self, turn: Turn) -> bool:
        """Whether the decision ``turn``'s search ended with is to be taken: ``turn`` is the search under way (which
        it is no more), for the position on the board (no undo, load or new game since)."""
        played = self.played
        current = turn.state == played.state and (turn.hint or played.to_move() is turn.agent)
        if turn is not self.searching or not current:
            return False
        self.searching = None
        return True

    def keep_hint(self, turn: Turn, decision: Decision) -> str:
        """Keep ``decision``, the hint ``turn`` searched for, with the line its agent expects; what to say of it."""
        move = decision.move
        with turn.session.lock:
            line = list(turn.session.searcher.principal_variation())
        self.hinted = (turn.state, move, line if line[:1] == [move] else [move])
        return f"hint: {turn.agent.label} would play {turn.state.move_label(move)}"

    def hint_line(self) -> tuple[list[Move], Move | None]:
        """The last hint's line and move, while its position is on the board (else none)."""
        hinted = self.hinted
        if hinted is None or hinted[0] != self.played.state:
            return [], None
        return hinted[2], hinted[1]

    def human_move(self, move: Move) -> str:
        """Play ``move`` for the human to move; what happened (``you played 4``).  Raises ``UserError`` when it is
        an agent's turn or the game is over, or ``move`` is not legal (keys typed faster than the board is redrawn
        may name a move the board had not yet refused)."""
        played = self.played
        mover = played.to_move()
        if played.is_over():
            raise UserError(GAME_OVER)
        if mover is not None:
            thinking = "is thinking" if self.searching is not None else "is paused (p resumes)"
            raise UserError(f"it is not your turn: {mover.label} {thinking}")
        label = played.state.move_label(move)
        return f"you played {label}{self.play(move)}"

    def take_back(self, redo: bool = False) -> int:
        """Take back the moves to before the human's last one (``redo``: replay those taken back, up to the human's
        next turn), pausing the agents if no side is human (one move then); how many moves."""
        if not self.played.has_human():
            self.paused = True
        return self.played.redo_turn() if redo else self.played.undo_turn()

    def set_sides(self, first: Controller, second: Controller) -> str:
        """Give the sides new controllers (``None``: a human) and let the agents move; what to say of it."""
        self.played.first, self.played.second = first, second
        self.paused = False
        return f"sides: {controller_text(first)} vs {controller_text(second)}"

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
        """Play ``move`` (a human's or an agent's; it must be legal) and nature's moves after it: with chance, each
        outcome is the game's seeded draw (``chance_draw(seed, ply)``, as the arena draws them).  Returns what chance
        did in the kit's words (``GameKit.chance_words``): ``"; the disc slipped into 5"``, ``"; nature: Roll 6"``;
        ``""`` if nothing worth saying."""
        played = self.played
        played.play(move)
        note = ""
        while is_chance(played.state):
            drop = played.state
            landing = drop.outcome_for(chance_draw(played.seed, drop.ply))
            note = kit_of(drop.game).chance_words(drop, move, landing)
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

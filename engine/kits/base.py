"""What a game kit is: everything plyscope asks of a game, in one registered description.

A game's rules are its ``State`` and ``Game`` (``plyscope.engine.games.base``); its kit says the rest, so that no
search, command or screen has to know which game it is showing:

* its names on the command line and in the menus, and how a position is written (``make``, ``names``,
  ``choices``, ``positions``);
* whether nature moves in it (``has_chance``), and so which searchers apply (``plyscope.engine.search.registry``
  asks);
* its static evaluators, the default first (``evaluators``, ``evaluator``);
* its exact values, where it has them (``exact``: an ``ExactValues``, the solver behind
  ``plyscope.engine.exact.Exact``, the one door every caller goes through), and why not where it has none;
* the arena's openings (``openings``), a move's JSON form (``move_to_json``, ``move_from_json``) and the move played
  when a searcher proposes none (``fallback_move``);
* how its board is drawn and played (``board``: the name of a view in ``plyscope.tui.widgets.boards``, or
  ``module:Class`` for a view of a plugin's own; ``text`` draws any game from ``State.text()`` and plays it from a
  list of its moves).

Kits are found by ``plyscope.engine.kits`` (built in) and through the ``plyscope.games`` entry points (plugins).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

from plyscope.engine.errors import UserError
from plyscope.engine.games.base import Draws, Game, Move, Player, State, is_chance
from plyscope.engine.games.evaluators import Evaluator, NeutralEvaluator
from plyscope.engine.pov import PovBounds, PovScore

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

Number = int | float
"""An exact value's number type: ``int`` for Pons' scores and win/draw/loss, ``float`` for a tree's values."""


@dataclass(frozen=True, slots=True)
class Truth:
    """What perfect play gives the player to move in a position, or that the budget could not say."""

    score: PovScore[int] | PovScore[float] | None
    """For the player to move, on its game's scale (``ExactValues.scale``); ``None``: not settled within the
    budget."""
    nodes: int = 0
    """Solver nodes spent finding it (0 where values are known at once)."""

    @property
    def settled(self) -> bool:
        return self.score is not None

    def outcome(self, player: Player) -> int | None:
        """``+1`` a win, ``0`` a draw, ``-1`` a loss for ``player`` (the sign of the value, for ``player``); ``None``
        when not settled."""
        if self.score is None:
            return None
        value = self.score.pov(player)
        return (value > 0) - (value < 0)


@dataclass(frozen=True, slots=True)
class Ranking:
    """How a game whose finished positions are ranked by value (a hand-written tree) ranks them for a search that
    bounds a result by whole numbers (best-first minimax): ranks ordered as the values, with their sign."""

    open: tuple[int, int]
    """Bounds on the rank of a position not searched yet: one beyond the lowest and the highest."""
    rank: Callable[[State], int]
    """A finished position's rank."""


class FastPlayouts(Protocol):
    """A game's own random playouts, faster than through ``State.play`` (``plyscope.engine.search.playouts``'s
    ``state_playout``) and drawing alike: the same game from the same draws, one draw a move (and one where nature
    moves).  Winners are from the first player's point of view: ``+1``, ``-1``, ``0`` a draw."""

    def one(self, state: State, draws: Draws) -> tuple[Player, int]:
        """One playout from ``state``: (winner, moves played)."""
        ...

    def many(self, state: State, count: int, draws: Draws) -> tuple[npt.NDArray[np.int8], int] | None:
        """``count`` playouts from ``state`` at once (a numpy batch): each game's winner, and the moves played in
        all; ``None``: not at once here (``one`` plays them one by one)."""
        ...


class MovesSolve(ABC):
    """Every legal move of one position valued exactly, a slice of work at a time (``plyscope solve``, the board's
    analysis), so that a caller can stop it between two slices."""

    @property
    @abstractmethod
    def nodes(self) -> int:
        """Work spent: solver nodes, or positions valued."""

    @property
    @abstractmethod
    def finished(self) -> bool:
        """Whether every move's value is exact."""

    @abstractmethod
    def advance(self, budget: int) -> None:
        """At most ``budget`` more units of work (a slice: milliseconds)."""

    @abstractmethod
    def bounds(self) -> dict[Move, PovBounds[int] | PovBounds[float]]:
        """Each legal move (in ``legal_moves()`` order) -> what is known of its value, kept for the player who plays
        it; the bounds meet once it is exact."""


def exactly(score: PovScore[int] | PovScore[float]) -> PovBounds[int] | PovBounds[float]:
    """The bounds that meet at ``score``, whichever its number type."""
    if isinstance(score.relative, float):
        return PovBounds.exactly(cast(PovScore[float], score))
    return PovBounds.exactly(cast(PovScore[int], score))


class InstantMoves(MovesSolve):
    """A ``MovesSolve`` for a game whose values are found at once: each move's value is the truth of the position
    it leads to, seen by the player who plays it."""

    def __init__(self, state: State, truth: Callable[[State], Truth]) -> None:
        self._bounds: dict[Move, PovBounds[int] | PovBounds[float]] = {}
        self._count = 1
        for move in state.legal_moves():
            after = state.play(move)
            score = truth(after).score
            assert score is not None, "an instant game's value is always settled"
            self._bounds[move] = exactly(score.seen_by(state.player))
            self._count += 1

    @property
    def nodes(self) -> int:
        return self._count

    @property
    def finished(self) -> bool:
        return True

    def advance(self, budget: int) -> None:
        return None

    def bounds(self) -> dict[Move, PovBounds[int] | PovBounds[float]]:
        return dict(self._bounds)


class ExactValues(ABC):
    """One game's exact values: the solver (or the theory) behind ``plyscope.engine.exact.Exact``.

    Every value is for the **player to move** in the position valued, on the game's ``scale``.
    """

    scale: str = "win/draw/loss"
    """How its numbers read, for help and JSON: ``win/draw/loss`` (+1, 0, -1), ``Pons' score``, ``minimax value``."""
    instant: bool = True
    """Whether ``truth`` answers at once and always settles (theory, a table): nothing to budget or load."""
    loaded: Callable[[], object] | None = None
    """Called (in the loading thread, the cycle collector paused) once a solver that loads has been made."""
    table: int | None = None
    """The slots of a solver's transposition table, where it has one (``None``: its default)."""

    @abstractmethod
    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        """``state``'s value for its player to move, within ``budget`` units of work (``Truth(None)`` if it cannot
        say in that); ``at_least``: a value its player to move is known to get, where a search may start."""

    def quick(self, state: State, budget: int) -> Truth | None:
        """``state``'s value if it comes within ``budget`` work without waiting for anything to load; ``None``: not
        yet (``truth`` finds it).  Instant games answer at once."""
        return self.truth(state, budget) if self.instant else None

    def moves(self, state: State) -> MovesSolve:
        """A solve of every legal move of ``state`` (a position where a player moves)."""
        return InstantMoves(state, lambda after: self.truth(after, 0))

    def prepare(self) -> Future[Any] | None:
        """Start loading what ``truth`` needs in the background, unless loaded or loading; the load (``None``:
        nothing to load, as for most games)."""
        return None

    def clear(self) -> None:
        """Forget what was learnt (tables), as in a fresh process."""
        return None

    def words(self, score: Number, state: State) -> str:
        """``score`` (for ``state``'s player to move) in words: ``win``, ``draw``, ``loss`` (a game may add the
        distance: ``win in 3``)."""
        return "win" if score > 0 else ("loss" if score < 0 else "draw")

    def outcome(self, score: Number) -> Number:
        """What judging a move compares (for the player who chooses; higher is better): a move is optimal when its
        outcome is the best of its siblings'.  The sign by default (win, draw or loss: a slower win is as good);
        a game whose values are not results (a hand-written tree's) compares the values themselves."""
        return (score > 0) - (score < 0)


class GameKit(ABC):
    """One game's registered description (``plyscope games`` lists them all)."""

    name: ClassVar[str]
    """The kit's name: ``State.game.kit`` names it, ``plyscope games`` lists it, searchers' ``AlgorithmInfo.games``
    restricts them to it."""
    summary: ClassVar[str]
    """One line: what the game is."""
    positions: ClassVar[str]
    """How a position is written, with an example (help texts, the setup form)."""
    board: ClassVar[str] = "text"
    """The board view that draws and plays it: a module of ``plyscope.tui.widgets.boards`` (``connect4``, ``nim``,
    ``tree``, ``grid``, ``text``) or ``package.module:Class`` for a plugin's own."""

    @abstractmethod
    def names(self) -> tuple[str, ...]:
        """The names ``--game`` takes, as help writes them (a pattern such as ``connect4:WxH`` included)."""

    def choices(self) -> tuple[str, ...]:
        """The games a menu offers (names ``make`` takes as they are)."""
        return tuple(name for name in self.names() if ":" not in name or "(" in name)

    @abstractmethod
    def make(self, name: str) -> Game | None:
        """The game ``name`` names (with its parameters), ``None`` when it is not one of this kit's; raises
        ``PositionError`` for one of its names with bad parameters."""

    def first(self) -> Game:
        """The kit's first game (its first choice): what ``plyscope search --list`` checks a searcher against."""
        game = self.make(self.choices()[0])
        assert game is not None, f"the kit {self.name} does not make its own first choice"
        return game

    def has_chance(self, game: Game) -> bool:
        """Whether nature moves in ``game`` (only searchers that handle chance nodes search it)."""
        return False

    def refusal(self, game: Game, algorithm: str) -> str | None:
        """Why the searcher ``algorithm`` cannot search ``game`` beyond what chance and its ``AlgorithmInfo.games``
        say (a board too large, a missing evaluator); ``None``: nothing more."""
        return None

    # -- search

    def key_fixes_ply(self, game: Game) -> bool:
        """Whether a position's ``key()`` fixes its ply (Connect Four's stone count): a transposition table may then
        answer one position reached by two paths from one entry; else the ply goes into the table's key (a finished
        game's value carries the ply it ended at)."""
        return False

    def playouts(self, game: Game) -> FastPlayouts | None:
        """``game``'s own fast random playouts (Connect Four's bitboards and numpy batches); ``None``: through
        ``State.play``."""
        return None

    def ranking(self, game: Game) -> Ranking | None:
        """For a game whose finished positions are ranked by their values, not by their result and length (a
        hand-written tree's leaves): how searchers that bound a result by whole numbers rank them; ``None``: by result
        and length (``plyscope.engine.search.outcomes``)."""
        return None

    # -- evaluation

    def evaluators(self, game: Game) -> tuple[str, ...]:
        """The static evaluators of ``game`` by name, the default first."""
        return ("neutral",)

    def evaluator(self, game: Game, name: str, *, weights: str = "") -> Evaluator:
        """The evaluator ``name`` of ``game``, one of those ``evaluators`` lists (``weights``: the weighted features'
        weights, ``plyscope.engine.games.evaluators.parse_weights``); ``make_evaluator`` checks the name first."""
        return NeutralEvaluator()

    # -- exact values

    def exact(self, game: Game) -> ExactValues | None:
        """A fresh provider of ``game``'s exact values (``None``: it has none, ``no_exact`` says why)."""
        return None

    def no_exact(self, game: Game) -> str:
        """Why ``game`` has no exact values to show."""
        return f"{game.name} has no exact solver in plyscope"

    # -- the arena, files and agents

    def openings(self, game: Game, count: int, seed: int) -> list[tuple[Move, ...]]:
        """``count`` openings for the arena, seeded: distinct short random prefixes that leave the game open."""
        return random_openings(game, count, seed)

    def move_to_json(self, move: Move) -> object:
        """``move`` as a saved file writes it: an int, or a list of ints (Nim's ``[pile, take]``)."""
        return list(move) if isinstance(move, tuple) else move

    def move_from_json(self, value: object) -> Move:
        """A move read back from ``move_to_json``'s form (JSON lists become tuples); not yet checked legal."""
        if isinstance(value, list):
            return tuple(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise UserError(f"a move is an integer or a list of integers, not {value!r:.40}")

    def fallback_move(self, state: State) -> Move:
        """The move played when a searcher proposes none: deterministic (the first legal move by default)."""
        moves = state.legal_moves()
        if not moves:
            raise ValueError("fallback_move() of a position where the game is over")
        return moves[0]


def random_openings(game: Game, count: int, seed: int, *, plies: int = 2) -> list[tuple[Move, ...]]:
    """Up to ``count`` distinct openings of ``plies`` moves from ``game``'s start, drawn with ``seed`` (every
    chance node's outcome drawn too), each leaving the game open; fewer if the game has fewer."""
    import numpy as np  # where it is used: the explorer starts without it

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    found: list[tuple[Move, ...]] = []
    seen: set[tuple[Move, ...]] = set()
    for _ in range(count * 20):
        if len(found) >= count:
            break
        state, line, chosen = game.start(), [], 0
        while chosen < plies and not state.is_terminal():
            if is_chance(state):
                move = state.outcome_for(float(rng.random()))
            else:
                moves = state.legal_moves()
                move = moves[int(rng.integers(len(moves)))]
                chosen += 1
            line.append(move)
            state = state.play(move)
        opening = tuple(line)
        if not state.is_terminal() and opening not in seen:
            seen.add(opening)
            found.append(opening)
    return found

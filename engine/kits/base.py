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
* what searchers may take from it: its own fast random playouts (``playouts``), whether a position's key fixes its
  ply (``key_fixes_ply``), how a tree ranks its leaves (``ranking``), the board whose features ``plyscope tune``
  fits (``features``);
* the arena's openings (``openings``), a move's JSON form (``move_to_json``, ``move_from_json``), the move played
  when a searcher proposes none (``fallback_move``), the leaves the explorer may edit (``editable_leaf``), how a
  title names its players (``player_names``) and a position field's hint (``position_hint``);
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
from plyscope.engine.games.connect4 import Connect4
from plyscope.engine.games.evaluators import Evaluator, NeutralEvaluator
from plyscope.engine.kits.playouts import PlayoutEvaluator
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


class EditableLeaf(Protocol):
    """A leaf whose value the explorer can edit (``n``): a hand-written tree's."""

    def label(self) -> str:
        """Its name in a prompt: ``B.2``."""
        ...

    def value(self) -> float:
        """Its value now, the first player's (MAX's) point of view."""
        ...


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
    def slice(self) -> int:
        """The work a slice takes: what a few milliseconds spend (solver nodes)."""

    @property
    def finished(self) -> bool:
        """Whether every move's value is exact."""
        return all(bounds.score is not None for bounds in self.bounds().values())

    def pending(self) -> list[Move]:
        """The moves whose value is not exact yet, in the order the solve works on them (Connect Four: centre
        first)."""
        return [move for move, bounds in self.bounds().items() if bounds.score is None]

    @abstractmethod
    def advance(self, budget: int, move: Move | None = None) -> None:
        """At most ``budget`` more units of work (or a few slices, whichever is less), on ``move`` (``None``: the
        next move whose value is not exact yet)."""

    @abstractmethod
    def bounds(self) -> dict[Move, PovBounds[int] | PovBounds[float]]:
        """Each legal move (in ``legal_moves()`` order) -> what is known of its value, kept for the player who plays
        it; the bounds meet once it is exact."""


def exactly(score: PovScore[int] | PovScore[float]) -> PovBounds[int] | PovBounds[float]:
    """The bounds that meet at ``score``, whichever its number type."""
    if isinstance(score.relative, float):
        return PovBounds.exactly(cast(PovScore[float], score))
    return PovBounds.exactly(cast(PovScore[int], score))


def between(lowest: Number, highest: Number, player: Player) -> PovBounds[int] | PovBounds[float]:
    """The bounds ``lowest..highest`` for ``player``, whichever their number type."""
    if isinstance(lowest, float) or isinstance(highest, float):
        return PovBounds(float(lowest), float(highest), player)
    return PovBounds(lowest, highest, player)


class TruthMoves(MovesSolve):
    """A ``MovesSolve`` from a provider's ``truth``: each move's value is the truth of the position it leads to, seen
    by the player who plays it; instant values all at once, others one move a slice (a move not settled within its
    slice is tried again with the next, a provider that remembers what it found going on from there)."""

    def __init__(self, state: State, values: ExactValues, *, work: int | None = None) -> None:
        """``work``: the work to report as ``nodes`` once every move is valued (a tree's nodes, all valued at once;
        ``None``: the positions valued)."""
        self.state = state
        self.values = values
        self._work = work
        self._count = 1
        self._bounds: dict[Move, PovBounds[int] | PovBounds[float]] = {}
        lowest, highest = values.span
        for move in state.legal_moves():
            self._bounds[move] = between(lowest, highest, state.player)
            if values.instant:
                self._value(move, 0)

    @property
    def nodes(self) -> int:
        return self._work if self._work is not None and self.finished else self._count

    @property
    def slice(self) -> int:
        return self.values.slice

    def advance(self, budget: int, move: Move | None = None) -> None:
        if move is None:
            move = next((move for move, bounds in self._bounds.items() if bounds.score is None), None)
        if move is not None and self._bounds[move].score is None:
            self._value(move, min(budget, self.slice))

    def _value(self, move: Move, budget: int) -> None:
        truth = self.values.truth(self.state.play(move), budget)
        self._count += max(truth.nodes, 1)
        if truth.score is not None:
            self._bounds[move] = exactly(truth.score.seen_by(self.state.player))

    def bounds(self) -> dict[Move, PovBounds[int] | PovBounds[float]]:
        return dict(self._bounds)


class ExactValues(ABC):
    """One game's exact values: the solver (or the theory) behind ``plyscope.engine.exact.Exact``.

    Every value is for the **player to move** in the position valued, on the game's ``scale``.
    """

    scale: str = "win/draw/loss"
    """How its numbers read, for help and JSON: ``win/draw/loss`` (+1, 0, -1), ``Pons' score``, ``minimax value``."""
    legend: str = "+1 win, 0 draw, -1 loss"
    """What its numbers mean, for a caption."""
    span: tuple[Number, Number] = (-1, 1)
    """The least and the most a value can be: the bounds of a value not known yet."""
    ceiling: Number | None = 1
    """The best ``outcome`` there is (a win): a move known to reach it is optimal whatever its siblings' values;
    ``None``: none (a tree's values)."""
    first_player: bool = False
    """Whether ``plyscope solve`` shows its values from the first player's (MAX's) point of view, as a hand-written
    tree's are written, rather than for the player to move."""
    instant: bool = True
    """Whether ``truth`` answers at once and always settles (theory, a table): nothing to budget or load."""
    slice: int = 2_000
    """The work a few milliseconds spend (a ``MovesSolve``'s slice)."""
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
        return TruthMoves(state, self)

    def prepare(self) -> Future[Any] | None:
        """Start loading what ``truth`` needs in the background, unless loaded or loading; the load (``None``:
        nothing to load, as for most games)."""
        return None

    def clear(self) -> None:
        """Forget what was learnt (tables), as in a fresh process."""
        return None

    def compiled(self) -> tuple[str, ...]:
        """The source files of the compiled code ``truth`` loads (numba's cache: the arena loads it once, before its
        games); ``()``: none."""
        return ()

    def unreachable(self) -> str | None:
        """Why positions near the start are out of reach whatever the budget (Connect Four: a board too large for the
        compiled solver); ``None``: they are not."""
        return None

    def note(self) -> str:
        """What a caption says of how the values are found (Connect Four: whether with the opening book); ``""``:
        nothing."""
        return ""

    def words(self, score: PovScore[int] | PovScore[float], state: State) -> str:
        """``state``'s value ``score`` in words for its player to move: ``win``, ``draw``, ``loss`` (a game may add
        the distance: ``win in 3``); ``won``, ``lost`` where the game is over."""
        value = score.pov(state.player)
        if state.is_terminal():
            return "won" if value > 0 else ("lost" if value < 0 else "draw")
        return "win" if value > 0 else ("loss" if value < 0 else "draw")

    def outcome(self, score: Number) -> Number:
        """What judging a move compares (for the player who chooses; higher is better): a move is optimal when its
        outcome is the best of its siblings'.  The sign by default (win, draw or loss: a slower win is as good);
        a game whose values are not results (a hand-written tree's) compares the values themselves."""
        return (score > 0) - (score < 0)

    def proven(self, result: int, ply: int, state: State) -> Truth | None:
        """What a search proved of ``state`` as its truth: the game ends with ``result`` (``+1`` a win, ``0`` a draw,
        ``-1`` a loss for ``state``'s player to move) at ``ply`` (``State.ply``), on the game's scale; ``None``
        where a proof says less than the values (a tree's, whose proofs rank its leaves)."""
        return Truth(PovScore(result, state.player))


class GameKit(ABC):
    """One game's registered description (``plyscope.engine.kits.kits`` lists them all)."""

    name: ClassVar[str]
    """The kit's name: ``State.game.kit`` names it, ``plyscope search --list`` names it, searchers'
    ``AlgorithmInfo.games`` restricts them to it."""
    summary: ClassVar[str]
    """One line: what the game is."""
    positions: ClassVar[str]
    """How a position is written, with an example (help texts, the setup form)."""
    position_hint: ClassVar[str] = ""
    """A short hint for a position's field (the setup form's placeholder), with an example; ``""``: ``positions``."""
    player_names: ClassVar[tuple[str, str] | None] = None
    """How a title names the first and the second player (``first player (X)``); ``None``: "the player to move"."""
    board: ClassVar[str] = "text"
    """The board view that draws and plays it: a module of ``plyscope.tui.widgets.boards`` (``connect4``, ``nim``,
    ``tree``, ``grid``, ``text``) or ``package.module:Class`` for a plugin's own."""

    def missing(self) -> str | None:
        """Why the kit cannot be used here, in a few words (a package it needs is not installed: OpenSpiel's); ``None``:
        it can.  A kit that is missing something is left out of ``kits``, and its ``make`` refuses its names saying
        why."""
        return None

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

    def describe(self, game: Game) -> str:
        """One line on ``game`` (``plyscope games``): the kit's ``summary`` by default."""
        return self.summary

    def first(self) -> Game:
        """The kit's first game (its first choice): what ``plyscope search --list`` checks a searcher against."""
        game = self.make(self.choices()[0])
        assert game is not None, f"the kit {self.name} does not make its own first choice"
        return game

    def has_chance(self, game: Game) -> bool:
        """Whether nature moves in ``game`` (only searchers that handle chance nodes search it)."""
        return False

    def chance_words(self, state: State, aimed: Move, outcome: Move) -> str:
        """What play says of nature's ``outcome`` at the chance node ``state`` that followed the move ``aimed``:
        ``"; nature: Roll 6"`` by default (``""``: nothing worth saying)."""
        return f"; nature: {state.move_label(outcome)}"

    def labels_by_position(self, game: Game) -> bool:
        """Whether a move's label depends on the position it is played in (OpenSpiel's action strings): the search
        tree then labels each move from its own position, not the root's."""
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

    # -- leaves

    def editable_leaf(self, state: State) -> EditableLeaf | None:
        """``state`` where it is a leaf whose value the explorer can edit (a hand-written tree's); ``None``: not."""
        return None

    def with_leaf_value(self, top: State, leaf: State, text: str) -> str:
        """The position ``top`` written as text, with ``leaf`` (an ``editable_leaf`` below it) valued ``text`` (a
        number, MAX's point of view); raises ``UserError`` for text that is no such value."""
        raise UserError(f"the leaves of {top.game.name} have no value to edit")

    # -- evaluation

    def evaluators(self, game: Game) -> tuple[str, ...]:
        """The static evaluators of ``game`` by name, the default first."""
        return ("neutral",)

    def evaluator(self, game: Game, name: str, *, weights: str = "") -> Evaluator:
        """The evaluator ``name`` of ``game``, one of those ``evaluators`` lists (``weights``: the weighted features'
        weights, ``plyscope.engine.games.evaluators.parse_weights``); ``make_evaluator`` checks the name first.  Any
        kit may list ``playouts`` (``plyscope.engine.kits.playouts.PlayoutEvaluator``: the mean of a few random
        playouts), made here; ``neutral`` otherwise."""
        if name != PlayoutEvaluator.name:
            return NeutralEvaluator()
        fast = self.playouts(game)
        return PlayoutEvaluator(None if fast is None else fast.one)

    def features(self, game: Game) -> Connect4 | None:
        """The Connect Four board whose weighted features (``eval=features``) ``plyscope tune`` fits for ``game``;
        ``None``: it fits none for this game."""
        return None

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

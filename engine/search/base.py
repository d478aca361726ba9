"""The surface every searcher shares: ``Limit``, ``Stats``, ``Step``, ``Result``, ``Node``, ``Searcher``.

Units of work and of budget, the same for every algorithm:

* a **step** is one unit of work: an expansion (best-first minimax, Rivest, proof-number
  search), one iteration (MCTS), one node visit (depth-first alpha-beta and minimax);
* **moves** are calls to ``State.play`` made by the tree search ("calls to the move
  operator" in Rivest's paper).  Under Rivest's accounting a best-first search also pays
  one move for every edge it walks down from the root.  Random playouts are counted apart
  (``Stats.playout_moves``), not in ``moves``.

Values: ``Searcher.value()`` is a ``PovScore`` (``plyscope.engine.pov``): a number with the player whose
point of view it takes, on the scale of the searcher's evaluator (or of its own statistics,
for MCTS and proof-number search); each ``Node`` subclass says the point of view of every
number it keeps.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import ClassVar, Generic, Self, TypeVar

from plyscope.engine.collector import cyclic_gc_paused
from plyscope.engine.errors import UserError
from plyscope.engine.games.base import Move, Player, State
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.pov import FIRST, PovBounds, PovScore


class SearchError(UserError):
    """A searcher cannot be built as asked (wrong game, bad parameter); the message says why."""


@dataclass(frozen=True, slots=True)
class Limit:
    """How much a ``run`` may spend; ``None`` means no bound on that unit.  Several bounds: the first reached stops."""

    moves: int | None = None
    """Calls to ``State.play`` (never exceeded: a step that would go over is not taken)."""
    seconds: float | None = None
    """Wall-clock seconds spent in this run."""
    iterations: int | None = None
    """Steps taken in this run."""
    nodes: int | None = None
    """Nodes in the searcher's tree (checked before each step)."""

    def __post_init__(self) -> None:
        for name in ("moves", "seconds", "iterations", "nodes"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise SearchError(f"limit {name} must be 0 or more, not {value}")


@dataclass(slots=True)
class Stats:
    """What a searcher has spent and built since it was created."""

    moves: int = 0
    """Calls to ``State.play`` by the tree search (plus edges walked, under Rivest's accounting)."""
    iterations: int = 0
    """Steps taken."""
    nodes: int = 0
    """Nodes the searcher holds now (alpha-beta: the current iteration's tree and the last complete one)."""
    max_depth: int = 0
    """Deepest node reached, in plies below the root."""
    seconds: float = 0.0
    """Time spent inside ``step`` and ``run``."""
    playout_moves: int = 0
    """Moves made in random playouts (MCTS), kept apart from ``moves``."""
    playouts: int = 0
    """Random playouts run (MCTS)."""


VALUE_MEANING: Mapping[str, str] = {"v": "value, for the first player"}
"""The meaning of ``v``, the value most searchers show (``Searcher.meanings``)."""

NO_CHILDREN: tuple[()] = ()
"""The children of a node not expanded yet: one shared empty tuple, so that leaves (most of a tree) hold no list."""


class Node:
    """A node of a searcher's own tree.  Subclasses add the numbers their algorithm keeps.

    ``parent`` and ``children`` are typed ``Self``: a subclass's nodes link to its own kind.
    """

    __slots__ = ("parent", "move", "children", "depth")

    parent: Self | None
    move: Move | None
    """The move from ``parent`` to this node (``None`` at the root)."""
    children: Sequence[Self]
    """Children generated so far, in generation order (``NO_CHILDREN`` until the first); a searcher adds one
    with ``add_child`` or sets them all at once."""
    depth: int
    """Plies below the root."""

    def __init__(self, parent: Self | None, move: Move | None) -> None:
        self.parent = parent
        self.move = move
        self.children = NO_CHILDREN
        self.depth = 0 if parent is None else parent.depth + 1

    def add_child(self, child: Self) -> None:
        """Append ``child`` to the children (the first one makes the list)."""
        children = self.children
        if isinstance(children, list):
            children.append(child)
        else:
            self.children = [*children, child]

    def numbers(self) -> dict[str, float | int | str | None]:
        """The numbers this node keeps, by short name, in display order (``Searcher.numbers`` may add the ones
        that depend on the search's parameters)."""
        return {}

    def work(self) -> float:
        """How much search went below this node, in the algorithm's own measure (here: children generated)."""
        return float(len(self.children))

    @property
    def cut_off(self) -> bool:
        """Whether a cut-off here left some of its children unsearched (the tree pane marks the node ``✂``)."""
        return False

    def path(self) -> list[Self]:
        """The nodes from the root down to this one."""
        nodes: list[Self] = []
        node: Self | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        nodes.reverse()
        return nodes

    def moves(self) -> list[Move]:
        """The moves from the root to this node."""
        return [n.move for n in self.path()[1:]]


N = TypeVar("N", bound=Node, covariant=True)
C = TypeVar("C", bound=Node)


def best_child(children: Sequence[C], player: int, value: Callable[[C], float]) -> C | None:
    """The first of ``children`` whose ``value`` (first player's point of view) is best for ``player``, the
    player to move at their parent (+1: the first player, who maximises; -1: the second, who minimises).

    ``None`` when there are no children.  Alpha-beta, minimax, best-first and Rivest's method choose with it.
    """
    if not children:
        return None
    return max(children, key=value) if player > 0 else min(children, key=value)


"""A searcher's kind of node (covariant: a searcher of ``MctsNode`` is a searcher of ``Node``)."""

Verdict = tuple[int, int]
"""What a search has proven about the game from its root: the lowest and the highest result the first
player gets with best play on both sides (+1 a win, 0 a draw, -1 a loss); equal when the result is known."""


class Taken(Enum):
    """A unit of work done on ``run``'s fast path, where no ``Step`` is built."""

    TAKEN = "taken"


TAKEN = Taken.TAKEN


@dataclass(frozen=True, slots=True)
class Step(Generic[N]):
    """What one step did, so that a UI can update only what changed."""

    path: tuple[N, ...]
    """The selected path, root first, ending at ``node``."""
    node: N
    """The node acted on (expanded, visited, or the new leaf of an MCTS iteration)."""
    added: tuple[N, ...] = ()
    """Children created by this step."""
    changed: tuple[N, ...] = ()
    """Nodes whose numbers changed (including ``node`` and the new children)."""
    cutoffs: tuple[N, ...] = ()
    """Nodes whose remaining children were pruned by this step (alpha-beta)."""
    note: str = ""
    """One line on what happened, for a status bar (e.g. ``cut-off: 7 >= beta 5``)."""
    continues: bool = False
    """True when the step only took further a piece of work that a later step ends (the solver's probe, cut at its
    slice of nodes): it shows nothing new, and a run at a chosen speed does not count it."""


@dataclass(frozen=True, slots=True)
class Phase(Generic[N]):
    """One part of a step, told on its own (phase mode): the tree as it stands after this part, and why it went so."""

    name: str
    """What part of the step it is: ``selection``, ``expansion``, ``simulation``, ``backpropagation`` (MCTS);
    ``entry``, ``return`` (alpha-beta); ``tip``, ``expansion``, ``back-up`` (best-first, Rivest); ``most-proving``,
    ``expansion``, ``back-up`` (proof-number search); ``step`` for a searcher whose steps are told whole."""
    text: str
    """One or two sentences: what happens and why, with the numbers that decide it (each node named by its moves
    from the root)."""
    path: tuple[N, ...]
    """The nodes this part is about, root first (the path selected, the node entered)."""
    added: tuple[N, ...] = ()
    """Nodes this part created."""
    changed: tuple[N, ...] = ()
    """Nodes whose numbers this part changed (including those it created)."""
    line: tuple[Move, ...] = ()
    """Moves played on from the end of ``path`` that are not in the tree: an MCTS playout, drawn on the board."""
    last: bool = False
    """True for the step's last phase: the tree is then the step's, and the generator only returns the ``Step``."""


def listed(parts: Sequence[str], most: int = 7) -> str:
    """``parts`` joined by ``; ``, at most ``most`` of them: the first and the last ones around ``…``."""
    if len(parts) > most:
        parts = [*parts[: most // 2], "…", *parts[len(parts) - (most - most // 2) :]]
    return "; ".join(parts)


PhasedStep = Generator[Phase[N], None, Step[N] | None]
"""A step told as its phases (``Searcher.phased``): each ``next`` does one part and yields it; the ``Step`` is
its return value (``None``, with nothing yielded, when no step could be taken)."""


@dataclass(frozen=True, slots=True)
class Result:
    """Where a ``run`` left the search."""

    best_move: Move | None
    value: PovScore[float]
    """The root's value (``Searcher.value()``)."""
    principal_variation: tuple[Move, ...]
    stats: Stats
    """A copy of the searcher's stats at the end of the run."""
    finished: bool
    """True when the search has nothing left to do (tree complete or root proven)."""


class Searcher(ABC, Generic[N]):
    """A game-tree search that grows its own tree one ``step`` at a time.

    Subclasses implement ``_advance`` (one unit of work), ``best_move``, ``value`` and
    ``principal_path``; ``step`` and ``run`` are built on ``_advance`` so that running
    visits exactly what stepping visits.
    """

    name: ClassVar[str]
    """Registry name, e.g. ``mcts``."""
    description: ClassVar[str]
    """One line for the registry listing."""

    root: N
    stats: Stats
    evaluator: Evaluator | None = None
    """The static evaluation whose scale ``value()`` is on (``None``: the searcher has its own, as MCTS)."""
    finished: bool = False
    """True when there is nothing left to do: the tree is complete or the root is proven."""
    journal: object = None
    """What the search tells of each step, to go back along its timeline in place: its registry entry's ``journal``
    (``AlgorithmInfo.journal``), set on the fresh searcher by the registry; ``None``: it goes back by a replay. A
    family types it by the small protocol it tells (the journal imports the searcher, never the other way)."""

    def __init__(self, state: State) -> None:
        self.root_state = state
        self.stats = Stats()

    @abstractmethod
    def _advance(self, record: bool, moves_left: int | None) -> Step[N] | Taken | None:
        """Do one unit of work, spending at most ``moves_left`` moves (no bound if ``None``).

        Returns ``None``, having changed nothing, if the work would cost more than
        ``moves_left`` or the search is finished.  Otherwise returns a ``Step`` when
        ``record`` is true, and ``TAKEN`` when it is not (the fast path of ``run``).
        """

    @abstractmethod
    def best_move(self) -> Move | None:
        """The move this searcher would play now (``None`` before any work, or with no legal move)."""

    @abstractmethod
    def value(self) -> PovScore[float]:
        """The root's value, with whose point of view it takes (most searchers keep the first player's)."""

    def value_bounds(self) -> PovBounds[float] | None:
        """What the root's value can be while the search only bounds it (the exact solver); ``None`` when
        ``value()`` is the search's own estimate, or exact."""
        return None

    def value_scale(self) -> tuple[float, float]:
        """The least and the greatest root value this search gives (``value().first()``, the timeline's values):
        its evaluator's range; -1 to 1 without one (MCTS's and flat Monte Carlo's mean rewards, the result
        proof-number search proves)."""
        evaluator = self.evaluator
        return (-1.0, 1.0) if evaluator is None else (evaluator.lo, evaluator.hi)

    def scored(self, value: float, player: Player = FIRST) -> PovScore[float]:
        """``value``, from ``player``'s point of view, as a score on this search's scale: even at the middle of
        its evaluator's range (512 on Rivest's 1..1023), at 0 without an evaluator."""
        evaluator = self.evaluator
        return PovScore(value, player, 0 if evaluator is None else (evaluator.lo + evaluator.hi) / 2)

    def preferred_child(self, node: Node) -> N | None:
        """The child this search prefers at ``node``: the move it would play were ``node`` the position, the way its
        principal path goes on from there (``None`` at a leaf, or while it prefers none).  The truth column marks
        ``✗`` a node whose preferred child is worse than a sibling.  Here: none (a searcher says its own)."""
        return None

    def principal_path(self) -> list[N]:
        """The nodes of the principal variation, root first: the preferred child at each node (``preferred_child``)."""
        path = [self.root]
        while (child := self.preferred_child(path[-1])) is not None:
            path.append(child)
        return path

    def principal_variation(self) -> list[Move]:
        """The moves of the principal variation from the root."""
        return [node.move for node in self.principal_path()[1:]]

    def proven(self) -> Verdict | None:
        """What this search has proven about the game from the root (``None``: nothing yet, or it cannot prove)."""
        return None

    def proof(self, node: Node) -> PovScore[int] | None:
        """The exact score this search has proven for the position at ``node``, in ``plyscope.engine.search.outcomes``'
        units (a win or a loss with the ply the game ends at, 0 a draw), with whose point of view it takes; ``None``
        while its bounds there are apart, or for a search that proves nothing (here).  The truth column takes it as
        the node's exact value: a search that proves values is a source of truth for its own nodes."""
        return None

    def line_verdict(self, line: list[Move]) -> Verdict | None:
        """The result where ``line`` (moves from the root) ends the game, as a verdict; ``None`` if it does not.

        For searchers whose finished tree is complete: best play from the root then ends the game.
        """
        state = self.root_state
        for move in line:
            state = state.play(move)
        winner = state.winner()
        return None if winner is None else (winner, winner)

    def nodes_along(self, moves: Sequence[Move]) -> list[N]:
        """The nodes from the root along ``moves``, as far as the tree holds them (the root alone for none)."""
        path = [self.root]
        for move in moves:
            child = next((c for c in path[-1].children if c.move == move), None)
            if child is None:
                break
            path.append(child)
        return path

    def label(self, node: Node) -> str:
        """The moves from the root to ``node`` as the game writes them, space apart (``root`` for the root)."""
        labels = []
        state = self.root_state
        for move in node.moves():
            labels.append(state.move_label(move))
            state = state.play(move)
        return " ".join(labels) or "root"

    def state_at(self, node: Node) -> State:
        """The position at ``node`` (replays its moves from the root; no stats are charged)."""
        state = self.root_state
        for move in node.moves():
            state = state.play(move)
        return state

    def step(self, moves_left: int | None = None) -> Step[N] | None:
        """One unit of work; ``None`` (nothing done) when finished or it would cost more than ``moves_left``."""
        started = time.perf_counter()
        step = self._advance(True, moves_left)
        self.stats.seconds += time.perf_counter() - started
        if step is None:
            return None
        assert isinstance(step, Step)
        self.stats.iterations += 1
        return step

    def phased(self, moves_left: int | None = None) -> PhasedStep[N]:
        """``step`` told as its phases (phase mode): each ``next`` does one part of the step and yields its
        ``Phase``; the generator returns the ``Step`` once the last part is done (``None``, having yielded nothing,
        when no step could be taken).  After the last phase the tree is the tree ``step`` leaves; in between, it
        stands as the phase says.  Nothing else may touch the searcher until the generator is finished."""
        parts = self._phases(moves_left)
        stats = self.stats
        while True:
            started = time.perf_counter()
            try:
                phase = next(parts)
            except StopIteration as done:
                stats.seconds += time.perf_counter() - started
                step: Step[N] | None = done.value
                if step is not None:
                    stats.iterations += 1
                return step
            stats.seconds += time.perf_counter() - started
            yield phase

    meanings: ClassVar[Mapping[str, str]] = {}
    """What each number ``numbers`` names means, in a few words, for the explorer's reading guide (a name missing is
    shown bare)."""

    phase_names: ClassVar[tuple[str, ...]] = ("step",)
    """The phases this searcher's steps are told as, in order (``Phase.name``); a step may skip some."""

    def _phases(self, moves_left: int | None) -> PhasedStep[N]:
        """One step as its phases (``phased``, which counts it).  Here: the whole step as one phase, for a searcher
        whose steps have no parts worth telling apart."""
        step = self._advance(True, moves_left)
        if step is None:
            return None
        assert isinstance(step, Step)
        yield Phase("step", step.note or "one step", step.path, step.added, step.changed, last=True)
        return step

    def run(self, limit: Limit) -> Result:
        """Step (on the fast path) until ``limit`` or the end of the search; the tree is the same as stepping."""
        started = time.perf_counter()
        deadline = None if limit.seconds is None else started + limit.seconds
        moves_cap = None if limit.moves is None else self.stats.moves + limit.moves
        iterations = 0
        stats = self.stats
        with cyclic_gc_paused():
            while not self.finished:
                if limit.iterations is not None and iterations >= limit.iterations:
                    break
                if limit.nodes is not None and stats.nodes >= limit.nodes:
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                if self._advance(False, None if moves_cap is None else moves_cap - stats.moves) is None:
                    break
                iterations += 1
                stats.iterations += 1
        stats.seconds += time.perf_counter() - started
        return self.result()

    def result(self) -> Result:
        return Result(
            best_move=self.best_move(),
            value=self.value(),
            principal_variation=tuple(self.principal_variation()),
            stats=replace(self.stats),
            finished=self.finished,
        )

    def walk(self) -> Iterator[N]:
        """Every node of the tree, depth first, root first."""
        stack: list[N] = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def numbers(self, node: Node) -> dict[str, float | int | str | None]:
        """The numbers to show beside ``node``, by short name, in display order: the node's own
        (``Node.numbers``), and those that depend on this search's parameters (an edge's weight, UCB1)."""
        return node.numbers()


TREE_MEMORY_BYTES = 1 << 30
"""What one search tree may take by default (about 1 GB): the node cap is this over the searcher's bytes per node."""
DEFAULT_NODE_BYTES = 500
"""Bytes of resident memory per tree node assumed for a searcher that states none."""

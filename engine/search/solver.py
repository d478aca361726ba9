"""The exact Connect Four solver (``plyscope.engine.solver``) on the common searcher surface: the registry's ``solver``.

Scores are Pons' (see ``plyscope.engine.solver``): a node's ``lower``/``upper`` are for the player to
move at that node.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, cast

from plyscope.engine.games.base import Move, State
from plyscope.engine.games.connect4 import Connect4State
from plyscope.engine.pov import PovBounds, PovScore
from plyscope.engine.search.base import TAKEN, Node, Searcher, SearchError, Step, Taken, Verdict
from plyscope.engine.search.entry import AlgorithmInfo
from plyscope.engine.search.outcomes import from_pons
from plyscope.engine.solver import Connect4Solver, ScoreSearch, centre_first


class SolverNode(Node):
    """A position the solver has scored or is scoring.

    ``lower`` and ``upper`` bound the exact score in Pons' convention, from the point of view
    of the player to move **at this node**; they are equal once the score is known.
    """

    __slots__ = ("state", "lower", "upper")

    state: Connect4State
    lower: int
    upper: int

    def __init__(
        self, parent: SolverNode | None, move: Move | None, state: Connect4State, lower: int, upper: int
    ) -> None:
        super().__init__(parent, move)
        self.state = state
        self.lower = lower
        self.upper = upper

    @property
    def score(self) -> int | None:
        """The exact score for the player to move here, ``None`` while only bounds are known."""
        return self.lower if self.lower == self.upper else None

    def kids(self) -> list[SolverNode]:
        """``children``, typed: a solver node's children are solver nodes."""
        return cast("list[SolverNode]", self.children)

    def line(self) -> tuple[SolverNode, ...]:
        """``path()``, typed: the solver nodes from the root down to this one."""
        return cast("tuple[SolverNode, ...]", tuple(self.path()))

    def numbers(self) -> dict[str, float | int | str | None]:
        """The score and its bounds for the **mover**, the player who played the move into this node (signed:
        positive, the mover wins), as every screen and ``plyscope solve`` write a move's score; at the root,
        for the player to move there."""
        if self.parent is None:
            return {"score": self.score, "lo": self.lower, "hi": self.upper}
        score = self.score
        return {"score": None if score is None else -score, "lo": -self.upper, "hi": -self.lower}


class SolverSearcher(Searcher[SolverNode]):
    """Pons' exact solver on the common searcher surface (Connect Four only).

    The tree is the root, one child per legal move, and the principal variation below the
    best child.  Steps:

    1. the first step expands the root: children that end the game, or whose player can win
       at once, are scored on the spot;
    2. each following step works on **one null-window probe** (``ScoreSearch``) of the first
       child (centre first) whose score is still open, until every child's score is exact;
    3. then each step tests one move of the last position of the principal variation (one
       probe at the score that move must have to be best) and adds that child when it is a
       best move, until the line ends the game.

    A step spends at most a slice of solver nodes (``Connect4Solver.slice_nodes``: a few
    milliseconds of search), so that a UI gets control back between two steps: a probe
    longer than that stops at the end of the slice, with its bounds unchanged, and the next
    step takes it up again (the transposition table keeps what it found).  ``run`` takes the
    same steps, so it visits exactly the nodes stepping does.

    Moves: one per negamax node (each stands for a position reached by one move) plus each
    position the searcher makes (the root's children, each move tested for the line).  Under
    a budget a step spends no more nodes than the moves left, so ``Limit(moves=N)`` is never
    exceeded.  Nodes (``stats.nodes``, which a node cap bounds) are the tree's: the root, its
    children and the line, at most ``1 + width + cells``; the solver's memory is its fixed
    transposition table (``plyscope.engine.solver.TABLE_LIMIT``), whatever its negamax visits.
    """

    name = "solver"
    description = "exact Connect Four solver (Pons: null-window search, transposition table, threat ordering)"
    meanings: ClassVar[Mapping[str, str]] = {
        "score": "Pons' exact score for the mover (+ wins, - loses; at the root: the player to move)",
        "lo": "the score's lower bound, for the mover",
        "hi": "the score's upper bound, for the mover",
    }
    player_name: ClassVar[str] = "solver"
    """What its refusals call it."""

    def __init__(self, state: State) -> None:
        if not isinstance(state, Connect4State):
            raise SearchError(f"the {self.player_name} plays Connect Four only, not {state.game.name}")
        super().__init__(state)
        self.solver = Connect4Solver(state.game)
        self.stats.nodes = 1
        search = ScoreSearch(self.solver, state)
        self.root = SolverNode(None, None, state, search.lower, search.upper)
        self.finished = state.is_terminal()
        self._open: list[tuple[SolverNode, ScoreSearch]] = []
        """The root's children whose score is not yet exact, centre first, with their searches."""
        self._line_end: SolverNode | None = None
        """The last node of the principal variation, once the root's score is exact."""
        self._tried = 0
        """Moves of ``_line_end``'s position already found not to be best."""
        self._testing: tuple[int, ScoreSearch] | None = None
        """The move of ``_line_end``'s position under test, and its search, while its probe goes on."""

    def _advance(self, record: bool, moves_left: int | None) -> Step[SolverNode] | Taken | None:
        if self.finished or (moves_left is not None and moves_left < 1):
            return None
        if not self.root.children:
            return self._expand(record, moves_left)
        if self._open:
            return self._probe(record, moves_left)
        return self._extend_line(record, moves_left)

    def _slice(self, moves_left: int | None) -> int:
        """The nodes a step may spend: a slice, or fewer when fewer moves are left."""
        nodes = self.solver.slice_nodes
        return nodes if moves_left is None else max(0, min(nodes, moves_left))

    def _expand(self, record: bool, moves_left: int | None) -> Step[SolverNode] | Taken | None:
        root = self.root
        state = root.state
        legal = set(state.legal_moves())
        columns = [c for c in centre_first(state.game.width) if c in legal]
        if moves_left is not None and moves_left < len(columns):
            return None
        for column in columns:
            search = ScoreSearch(self.solver, state.play(column))
            child = SolverNode(root, column, search.state, search.lower, search.upper)
            root.add_child(child)
            if not search.done:
                self._open.append((child, search))
        self.stats.moves += len(columns)
        self.stats.nodes += len(columns)
        self.stats.max_depth = 1
        self._update_root()
        if not record:
            return TAKEN
        children = tuple(root.kids())
        note = f"expanded {len(columns)} moves; {len(columns) - len(self._open)} scored at once"
        return Step(path=(root,), node=root, added=children, changed=(root, *children), note=note)

    def _probe(self, record: bool, moves_left: int | None) -> Step[SolverNode] | Taken | None:
        child, search = self._open[0]
        probe = search.probe
        assert probe is not None  # an open search has a probe to make
        nodes = self._slice(moves_left)
        spent = search.advance(nodes, probes=1)
        self.stats.moves += spent
        child.lower, child.upper = search.lower, search.upper
        if search.done:
            self._open.pop(0)
        self._update_root()
        if not record:
            return TAKEN
        label = child.state.move_label(child.move)
        if search.probe_nodes:
            why = "the budget is spent" if nodes < self.solver.slice_nodes else "it goes on next step"
            note = f"move {label}: probe at {probe}: {search.probe_nodes:,} nodes so far; {why}"
            return Step(path=(self.root, child), node=child, changed=(child, self.root), note=note, continues=True)
        if child.upper <= probe:
            note = f"move {label}: probe at {probe}: score <= {child.upper} for the opponent ({spent:,} nodes)"
        else:
            note = f"move {label}: probe at {probe}: score >= {child.lower} for the opponent ({spent:,} nodes)"
        return Step(path=(self.root, child), node=child, changed=(child, self.root), note=note)

    def _update_root(self) -> None:
        """Set the root's bounds from its children's (its score is the best of minus theirs).

        Once every child is exact, the principal variation starts from the best child.
        """
        root = self.root
        root.lower = max(-child.upper for child in root.kids())
        root.upper = max(-child.lower for child in root.kids())
        if self._line_end is None and not self._open:
            self._line_end = self._best_child(root)
            self.finished = self._line_end.state.is_terminal()

    def _extend_line(self, record: bool, moves_left: int | None) -> Step[SolverNode] | Taken | None:
        end = self._line_end
        assert end is not None and end.score is not None
        target = -end.score
        """The child's score (for its player to move) when the move is a best one: it scores at least that."""
        if self._testing is None:
            column = self._candidates(end.state)[self._tried]
            self._testing = column, ScoreSearch(self.solver, end.state.play(column), threshold=target)
            self.stats.moves += 1
            moves_left = None if moves_left is None else moves_left - 1
        column, search = self._testing
        nodes = self._slice(moves_left)
        self.stats.moves += search.advance(nodes, probes=1)
        label = end.state.move_label(column)
        if not search.done:
            if not record:
                return TAKEN
            why = "the budget is spent" if nodes < self.solver.slice_nodes else "it goes on next step"
            note = f"line: testing move {label}: {search.probe_nodes:,} nodes so far; {why}"
            return Step(path=end.line(), node=end, note=note, continues=True)
        self._testing = None
        if search.upper > target:
            self._tried += 1
            if not record:
                return TAKEN
            return Step(path=end.line(), node=end, note=f"line: move {label} is not a best move")
        child = SolverNode(end, column, search.state, target, target)
        end.add_child(child)
        self.stats.nodes += 1
        self.stats.max_depth = max(self.stats.max_depth, child.depth)
        self._line_end = child
        self._tried = 0
        self.finished = child.state.is_terminal()
        if not record:
            return TAKEN
        note = f"line: move {label} is best"
        return Step(path=child.line(), node=child, added=(child,), changed=(child,), note=note)

    def _candidates(self, state: Connect4State) -> list[int]:
        """Moves to test for the principal variation: the winning ones if any, else every move, centre first."""
        game = state.game
        legal = set(state.legal_moves())
        columns = [c for c in centre_first(game.width) if c in legal]
        if self.solver.win_now(state):
            winning = game.winning_cells(state.current, state.mask)
            return [c for c in columns if winning & ((state.mask + game.bottom[c]) & game.column_mask[c])]
        return columns

    @staticmethod
    def _best_child(node: SolverNode) -> SolverNode:
        """The child whose score is surest best for ``node``'s player to move (first in centre-first order on ties)."""
        return max(node.kids(), key=lambda child: (-child.upper, -child.lower))

    def best_move(self) -> Move | None:
        if not self.root.children:
            return None
        return self._best_child(self.root).move

    def value(self) -> PovScore[float]:
        """The root's score for its player to move, in Pons' units.

        Until it is exact: the score the player to move is sure of so far (the root's lower bound).
        """
        root = self.root
        return self.scored(float(root.lower), root.state.player)

    def value_scale(self) -> tuple[float, float]:
        """Pons' scores on this board: at most ``(cells + 1) // 2`` either way (a win with the first stone)."""
        most = (self.solver.game.cells + 1) // 2
        return (-most, most)

    def value_bounds(self) -> PovBounds[float] | None:
        """The root's score bounds for its player to move, until they meet."""
        root = self.root
        if root.lower == root.upper:
            return None
        return PovBounds(float(root.lower), float(root.upper), root.state.player)

    def proven(self) -> Verdict | None:
        """What the root's score bounds settle (Pons: positive, the player to move wins), for the first player."""
        root = self.root
        lowest = 1 if root.lower > 0 else (0 if root.lower >= 0 else -1)
        highest = -1 if root.upper < 0 else (0 if root.upper <= 0 else 1)
        if (lowest, highest) == (-1, 1):
            return None
        return (lowest, highest) if root.state.player == 1 else (-highest, -lowest)

    def proof(self, node: Node) -> PovScore[int] | None:
        """A node's exact score, once its bounds meet, for its player to move (Pons' score as ``outcomes``' units)."""
        assert isinstance(node, SolverNode)
        score = node.score
        if score is None:
            return None
        state = node.state
        return PovScore(from_pons(score, state.ply, state.game.cells), state.player)

    def preferred_child(self, node: Node) -> SolverNode | None:
        """At the root the child of surest best score; below it, the line's next node."""
        assert isinstance(node, SolverNode)
        if not node.children:
            return None
        return self._best_child(node) if node is self.root else node.kids()[0]


DEFAULT_BUDGET = 1_000_000_000
"""The solver's moves when no budget is given: 10^9 negamax nodes, some 2.5 minutes of the compiled solver (``4453``
takes 88 million with its line without the opening book, some 200,000 with it)."""

ALGORITHMS = (
    AlgorithmInfo(
        name=SolverSearcher.name,
        description=SolverSearcher.description,
        factory=SolverSearcher,
        games=("connect4",),
        default_budget=DEFAULT_BUDGET,
    ),
)

"""A perfect Connect Four player (the registry's ``perfect``): Thill's opening book and Pons' exact solver.

Connect Four is a first-player win (Allis 1988, "A knowledge-based approach of Connect-Four"); this
player plays every position as well as it can be played: a move that keeps the position's exact
value, and among those the quickest win or the slowest loss (Pons' score says both: ``plyscope.engine.solver``),
the ties broken by its seed.  On 7x6 the solver takes the scores of positions with 12 stones from
Thill's opening book (``plyscope.engine.solver.book``), so a move in the opening costs a search of
at most 12 plies; elsewhere it is as fast as the solver.

Scores are Pons', for the player to move at each node (as ``plyscope.engine.search.solver``'s ``SolverNode``).
"""

from __future__ import annotations

from plyscope.engine.games.base import Move, State
from plyscope.engine.search.base import TAKEN, Node, Step, Taken
from plyscope.engine.search.entry import AlgorithmInfo
from plyscope.engine.search.solver import SolverNode, SolverSearcher
from plyscope.engine.search.stream import RandomStream
from plyscope.engine.solver import ScoreSearch


class PerfectSearcher(SolverSearcher):
    """Perfect play on the common searcher surface (Connect Four only): the position's exact score, then which
    moves keep it.

    The tree is the root and one child per legal move.  Steps:

    1. the first step expands the root: children that end the game, whose player can win at once
       or that the opening book holds are scored on the spot;
    2. each following step works on **one null-window probe** (``ScoreSearch``) of the root's own
       score until it is exact, ``V`` for the player to move (its first probe is at once when
       the book holds the root);
    3. then each step works on one probe of a move's test: is its score for the opponent at most
       ``-V``, so that it keeps ``V``?  A move scored on the spot needs none.  One probe at ``-V``
       settles each move: it keeps the value (its score is then exactly ``-V``) or it does not.

    Once every move is tested, the move played is one of those that keep ``V``, drawn by the seed.
    A step spends at most a slice of solver nodes (``Connect4Solver.slice_nodes``), as the solver
    searcher's do, so that a UI gets control back between two steps.

    Moves: the positions it makes, one per root child; the solver's nodes, which cost no ``State.play``,
    are not counted (``solver_nodes`` counts them), so that any moves budget that pays for the root's
    children lets it finish: a perfect player stops short only at a time bound.
    """

    name = "perfect"
    description = "perfect Connect Four player: opening book and exact solver; quickest win, slowest loss"
    player_name = "perfect player"

    def __init__(self, state: State, *, seed: int = 0) -> None:
        super().__init__(state)
        self.seed = seed
        self.solver_nodes = 0
        """Solver nodes spent so far (negamax calls)."""
        self._root_search = ScoreSearch(self.solver, self.root.state)
        self._tests: list[tuple[SolverNode, ScoreSearch]] = []
        """The moves still to test, centre first, each with its search (a threshold at ``-V``)."""
        self._choice: SolverNode | None = None
        """The move played, once every move is tested."""

    def _advance(self, record: bool, moves_left: int | None) -> Step[SolverNode] | Taken | None:
        if self.finished:
            return None
        if not self.root.children:
            return self._expand(record, moves_left)
        if not self._root_search.done:
            return self._probe_root(record)
        return self._test(record)

    def _update_root(self) -> None:
        """The root's bounds are its own search's (``_probe_root``); the moves are tested against them after."""
        search = self._root_search
        self.root.lower, self.root.upper = search.lower, search.upper
        if search.done and not self._tests and self._choice is None:
            target = -search.lower
            for child in self.root.kids():
                if child.lower == child.upper:
                    continue  # scored on the spot: it keeps the value exactly when its score is ``target``
                self._tests.append((child, ScoreSearch(self.solver, child.state, threshold=target)))
            self._choose()

    def _probe_root(self, record: bool) -> Step[SolverNode] | Taken:
        search = self._root_search
        probe = search.probe
        spent = search.advance(self.solver.slice_nodes, probes=1)
        self.solver_nodes += spent
        self._update_root()
        if not record:
            return TAKEN
        root = self.root
        if search.probe_nodes:
            note = f"position: probe at {probe}: {search.probe_nodes:,} nodes so far; it goes on next step"
            return Step(path=(root,), node=root, changed=(root,), note=note, continues=True)
        note = f"position: probe at {probe}: score {root.lower}..{root.upper} ({spent:,} nodes)"
        return Step(path=(root,), node=root, changed=(root,), note=note)

    def _test(self, record: bool) -> Step[SolverNode] | Taken:
        child, search = self._tests[0]
        target = search.threshold
        assert target is not None  # every test is a threshold search
        spent = search.advance(self.solver.slice_nodes, probes=1)
        self.solver_nodes += spent
        label = child.state.move_label(child.move)
        if search.done:
            self._tests.pop(0)
            if search.upper <= target:  # at most ``target``, and the root's value says at least: exactly
                child.lower = child.upper = target
            else:
                child.lower = search.lower
            self._choose()
        if not record:
            return TAKEN
        path = (self.root, child)
        if not search.done:
            note = f"move {label}: test at {target}: {search.probe_nodes:,} nodes so far; it goes on next step"
            return Step(path=path, node=child, changed=(child,), note=note, continues=True)
        kept = "keeps the value" if child.upper == target else "does not keep the value"
        return Step(path=path, node=child, changed=(child,), note=f"move {label} {kept} ({spent:,} nodes)")

    def _choose(self) -> None:
        """Once every move is tested: draw the move played among those that keep the value, by the seed."""
        if self._tests or self._choice is not None:
            return
        value = self.root.lower
        best = [child for child in self.root.kids() if child.upper == -value]
        self._choice = best[int(RandomStream(self.seed).draw() * len(best))]
        self.finished = True

    def best_move(self) -> Move | None:
        """The move drawn among the best once every move is tested; until then the move surest best so far."""
        if self._choice is not None:
            return self._choice.move
        return super().best_move()

    def preferred_child(self, node: Node) -> SolverNode | None:
        """At the root, the move played (the surest best until it is drawn); below it, none."""
        if node is not self.root or not self.root.children:
            return None
        return self._choice or self._best_child(self.root)


ALGORITHMS = (
    AlgorithmInfo(
        name=PerfectSearcher.name,
        description=PerfectSearcher.description,
        factory=PerfectSearcher,
        games=("connect4",),
        random=True,
    ),
)

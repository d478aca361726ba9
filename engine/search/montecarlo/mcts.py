"""Monte Carlo tree search (UCT) with batched random playouts, and flat Monte Carlo sampling.

One step is one iteration: select a path by UCB1 from the root, expand one untried move
(one ``State.play``, the only move the tree search pays for), score the new leaf with
``k`` random playouts (one numpy batch on Connect Four; see ``plyscope.engine.search.montecarlo.playouts``),
and back the results up as ``k`` visits.  Options: partial expansion, and MCTS-Solver
(Winands, Björnsson & Saito 2008), which proves wins and losses (and here draws: a node whose children
are all proven, the best of them a draw, is a proven draw), with the bounds of score-bounded MCTS
(Cazenave & Saffidine 2010) on scores that carry the game's length, so that it proves how soon a
game is won or lost too (see ``MonteCarloTreeSearch._prove``).

Points of view, stated once for this module:

* A node's ``visits`` and ``total`` count playout results **for the player who made the
  move into the node**: win 1, draw 0.5, loss 0.  So ``mean = total / visits`` is in
  [0, 1] and every parent picks the child with the largest UCB1.  The root's numbers are
  for the player who moved into the root position: the opponent of the player to move.
* ``bounds`` and ``proven`` (MCTS-Solver) are from the same point of view: ``bounds`` on the
  score of the node's position with perfect play (``plyscope.engine.search.outcomes``: ``+962`` a win at
  ply 38, ``-962`` a loss then, 0 a draw), and ``proven`` is ``WIN`` once they show the player
  who moved into the node wins it, ``LOSS`` once they show this player loses, ``DRAW`` once they
  have met at 0 (``proven_result``).
* Chance nodes (Connect Four with chance): a chance node's numbers are for the player whose
  choice led to it, and so are those of its outcomes (the disc that landed is theirs).  Selection
  at a chance node draws an outcome with its probability (no UCB1), and expands it if it is not
  in the tree yet.  MCTS-Solver is for games without chance.
* ``Searcher.value()`` is ``2 * mean - 1`` of the root's mean, in [-1, 1], as a ``PovScore`` for
  the player who moved into the root (exactly +1, 0 or -1 once the root's result is proven: a win,
  a draw, a loss; a win's or loss's length is in the root's ``proven`` number); its ``first()`` is
  the first player's.

Rewards are already in [0, 1], the scale partial expansion's ``UCB_c = 0.5 +
sqrt(ln(n) / (1 + k))`` assumes, so it is compared with UCB1 as it is.

Every iteration costs exactly one move: the ``State.play`` that reaches the node it
scores.  That is the expansion of the new leaf, or, when the iteration ends at a node the
tree already has (a finished game in MCTS, a root child in flat Monte Carlo), the replay
of the last move into it.  Nodes keep no positions (a node costs about 230 bytes): each
iteration replays its path from the root position, and the other replays are not charged.
So a moves bound is an iteration bound, and one can never run on for free (UCT keeps
choosing a won finished game, and a complete tree has nothing left to expand).

Every random number (tree choices, plain playouts and numpy batches alike) is drawn from one
``RandomStream`` (``plyscope.engine.search.stream``), whose whole state is a position in a seeded
sequence: that is what lets the timeline take steps back and again in place, exactly, from a
journal of a few bytes a step (``plyscope.engine.search.montecarlo.journal``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import ClassVar, Protocol

from plyscope.engine.games.base import Move, Player, State, is_chance
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import (
    TAKEN,
    Node,
    Phase,
    PhasedStep,
    Searcher,
    SearchError,
    Step,
    Taken,
    Verdict,
    listed,
)
from plyscope.engine.search.montecarlo.playouts import Playouts
from plyscope.engine.search.outcomes import (
    Bounds,
    backed_up,
    bounds,
    exact,
    improvable,
    intrinsic,
    result_of,
    score,
    span_words,
)
from plyscope.engine.search.stream import RandomStream

WIN = 1
DRAW = 0
LOSS = -1
"""Values of ``MctsNode.proven``: the result proven for the player who moved into the node (``None``: not proven)."""

DEFAULT_C = 1.4
"""UCT's exploration constant; the theory (Auer et al.'s UCB1) says sqrt(2) ~ 1.414."""


def ucb1(mean: float, parent_visits: int, visits: int, c: float) -> float:
    """UCB1 = mean + c * sqrt(ln(parent visits) / visits); ``mean`` for the player choosing among siblings."""
    return mean + c * math.sqrt(math.log(parent_visits) / visits)


def expansion_urgency(visits: int, children: int) -> float:
    """Partial expansion's UCB_c = 0.5 + sqrt(ln(n) / (1 + k)): add a child when it beats every child's UCB1."""
    return 0.5 + math.sqrt(math.log(visits) / (1 + children))


def _ucb_words(node: MctsNode, c: float) -> str:
    """``node``'s UCB1 as its parent sees it, with its mean and visits: ``0.912 (mean 0.500, n 4)``."""
    ucb = node.ucb(c)
    mean = node.mean()
    if ucb is None or mean is None:
        return "∞ (never visited)"
    return f"{ucb:.3f} (mean {mean:.3f}, n {node.visits})"


def proven_result(span: Bounds | None) -> int | None:
    """The result bounds prove, for the player they are for: ``WIN`` once the lower bound is a win, ``LOSS`` once
    the upper is a loss, ``DRAW`` once both are a draw's score (a draw scores 0 whatever its length: every move
    proven, the best of them a draw); ``None`` while the result is open, or with no bounds.

    Winands, Björnsson & Saito (2008) prove wins and losses; a draw is proven the same way, once all of a node's
    children are proven and the best of them for its player to move is a draw (score-bounded MCTS's bounds meet at
    0: Cazenave & Saffidine 2010)."""
    if span is None:
        return None
    lo, hi = span
    return WIN if lo > 0 else LOSS if hi < 0 else DRAW if lo == hi else None


def secure_value(mean: float, visits: int) -> float:
    """MCTS-Solver's final-move score: mean + 1 / sqrt(n)."""
    return mean + 1 / math.sqrt(visits)


class MctsNode(Node):
    """A node of the Monte Carlo tree; its numbers are for the player who moved into it."""

    __slots__ = ("visits", "total", "untried", "bounds")

    visits: int
    """Playout results backed up through this node."""
    total: float
    """Their sum for the player who moved into this node: win 1, draw 0.5, loss 0."""
    untried: list[Move] | None
    """Moves not yet expanded; ``None`` until the first expansion from this node."""
    bounds: Bounds | None
    """MCTS-Solver: bounds on the score of this node's position for the player who moved into it
    (``plyscope.engine.search.outcomes``); ``None`` for its intrinsic ones (nothing below it proven, or no solver)."""

    def __init__(self, parent: MctsNode | None, move: Move | None) -> None:
        super().__init__(parent, move)
        self.visits = 0
        self.total = 0.0
        self.untried = None
        self.bounds = None

    @property
    def proven(self) -> int | None:
        """``WIN``, ``DRAW`` or ``LOSS`` for the player who moved into this node once its bounds prove it, else
        ``None`` (``proven_result``)."""
        return proven_result(self.bounds)

    def mean(self) -> float | None:
        """Mean result for the player who moved into this node, in [0, 1] (``None`` before any visit)."""
        return self.total / self.visits if self.visits else None

    def ucb(self, c: float) -> float | None:
        """UCB1 with exploration constant ``c`` as the parent would compute it now (``None`` at the root)."""
        parent = self.parent
        if parent is None:
            return None
        if not self.visits:
            return math.inf
        return ucb1(self.total / self.visits, parent.visits, self.visits, c)

    def work(self) -> float:
        """Visits: the iterations that went through this node."""
        return float(self.visits)

    def numbers(self) -> dict[str, float | int | str | None]:
        """``n`` visits; ``mean`` and ``proven`` for the player who moved here (``win@38``: the game is won at ply
        38; ``loss@36..40``: lost, somewhere in those plies; ``draw``)."""
        proven = None if self.bounds is None else span_words(self.bounds)
        return {"n": self.visits, "mean": self.mean(), "proven": proven}


class MonteCarloJournaling(Protocol):
    """What a Monte Carlo search tells its way back along the timeline (``journal.MonteCarloJournal``)."""

    def record(self, leaf: MctsNode, reward: float, grown: bool, place: int, proved: int) -> None:
        """The step under way scored ``leaf`` (added, if ``grown``, as the move at ``place`` of its parent's untried
        ones), backing up ``reward`` (for the leaf's mover), and its proof changed the bounds of ``proved`` nodes
        (called before the stats count the step)."""


class MonteCarloTreeSearch(Searcher[MctsNode]):
    """UCT with ``k`` random playouts per new leaf, optional partial expansion and MCTS-Solver."""

    name = "mcts"
    description = "Monte Carlo tree search (UCT), k numpy-batched playouts per leaf; partial expansion, MCTS-Solver"
    meanings: ClassVar[Mapping[str, str]] = {
        "n": "visits",
        "mean": "mean result for the mover, 0..1",
        "ucb": "UCB1 as the parent sees it",
        "proven": "the result proven, for the mover (win@38: at ply 38; loss@36..40: between)",
    }
    journal: MonteCarloJournaling | None = None
    """Told each step's leaf and result, to take steps back and again in place (its registry entry's journal, set by
    the registry)."""

    def __init__(
        self,
        state: State,
        *,
        seed: int = 0,
        c: float = DEFAULT_C,
        k: int = 1,
        partial: bool = False,
        solver: bool = False,
        stream: RandomStream | None = None,
    ) -> None:
        """``stream`` (every random number: tree choices, plain playouts, numpy batches) defaults to ``seed``'s."""
        super().__init__(state)
        self.c = c
        self.k = k
        self.partial = partial
        self.solver = solver
        chance = not state.is_terminal() and is_chance(state.play(state.legal_moves()[0]))
        if solver and chance:
            raise SearchError("solver=true (MCTS-Solver) proves the results of games without chance only")
        self._bounded = not chance
        """Whether the tree keeps MCTS-Solver's bounds (on every game without chance): the solver searches by
        them; plain MCTS searches as if it had none, and only plays by them once they settle a move's result."""
        self.stream = stream if stream is not None else RandomStream(seed)
        self.playouts = Playouts(self.stream)
        self.root = MctsNode(None, None)
        self.stats.nodes = 1
        self.finished = state.is_terminal()
        self._root_ply = state.ply
        if self.finished and self._bounded:
            self.root.bounds = _finished(state)

    def _shown_c(self) -> float | None:
        """The exploration constant the tree's nodes show their UCB with (``None``: no UCB to show)."""
        return self.c

    def numbers(self, node: Node) -> dict[str, float | int | str | None]:
        """``n``, ``mean`` and ``proven`` (``MctsNode.numbers``), and ``ucb``: UCB1 as the parent sees it now."""
        assert isinstance(node, MctsNode)
        numbers = node.numbers()
        c = self._shown_c()
        if c is None:
            return numbers
        return {"n": numbers["n"], "mean": numbers["mean"], "ucb": node.ucb(c), "proven": numbers["proven"]}

    # --- one iteration ---

    def _advance(self, record: bool, moves_left: int | None) -> Step[MctsNode] | Taken | None:
        if self.finished or (moves_left is not None and moves_left < 1):
            return None
        path, movers, state, grow, outcome = self._select()
        state, place = self._grow(path, movers, state, grow, outcome)
        reward = self._simulate(state, movers[-1])
        return self._end_iteration(path, movers, state, grow, place, reward, record)

    def _grow(
        self, path: list[MctsNode], movers: list[Player], state: State, grow: bool, outcome: Move | None
    ) -> tuple[State, int]:
        """Expand the end of ``path`` if ``grow`` (``_expand``: the new child goes on ``path`` and its mover on
        ``movers``) and pay the iteration's one move; the position scored, and the new move's index in the untried
        ones (0 when nothing grew)."""
        place = 0
        if grow:
            movers.append(movers[-1] if outcome is not None else state.player)
            child, state, place = self._expand(path[-1], state, outcome)
            path.append(child)
        self.stats.moves += 1  # the play into the scored node: the expansion, or the last replay of the path
        return state, place

    def _end_iteration(
        self,
        path: list[MctsNode],
        movers: list[Player],
        state: State,
        grow: bool,
        place: int,
        reward: float,
        record: bool,
    ) -> Step[MctsNode] | Taken:
        """Back ``reward`` up ``path``, prove what it proves, tell the journal; the ``Step`` if ``record``."""
        leaf = path[-1]
        self._back_up(path, movers, reward)
        proved = self._prove(path) if self._bounded else 0
        if proved:
            self.refresh()
        if self.journal is not None:
            self.journal.record(leaf, reward, grow, place, proved)
        if not record:
            return TAKEN
        changed = [self.root]
        for node in path[:-1]:
            changed.extend(node.children)  # ucb depends on the parent's visits
        return Step(
            path=tuple(path),
            node=leaf,
            added=(leaf,) if grow else (),
            changed=tuple(changed),
            note=self._note(path, state, reward),
        )

    # --- one iteration told as its four phases (``Searcher.phased``) ---

    phase_names = ("selection", "expansion", "simulation", "backpropagation")

    def _phases(self, moves_left: int | None) -> PhasedStep[MctsNode]:
        if self.finished or (moves_left is not None and moves_left < 1):
            return None
        path, movers, state, grow, outcome = self._select()
        yield Phase("selection", self._selection_text(path, grow), tuple(path))
        state, place = self._grow(path, movers, state, grow, outcome)
        if grow:
            text = self._expansion_text(path, outcome)
            yield Phase("expansion", text, tuple(path), added=(path[-1],), changed=(path[-2], path[-1]))
        else:
            text = f"expansion: none, the game is over at {self.label(path[-1])}: its result is counted again"
            yield Phase("expansion", text, tuple(path))
        start = self.stream.position
        played = self.stats.playout_moves
        reward = self._simulate(state, movers[-1])
        line = self._playout_line(state, start, self.stats.playout_moves - played)
        yield Phase(
            "simulation", self._simulation_text(path, state, movers[-1], reward, len(line)), tuple(path), line=line
        )
        before = [(node.visits, node.mean(), node.bounds) for node in path]
        step = self._end_iteration(path, movers, state, grow, place, reward, True)
        assert isinstance(step, Step)
        yield Phase(
            "backpropagation", self._backpropagation_text(path, before), tuple(path), changed=step.changed, last=True
        )
        return step

    def _selection_text(self, path: Sequence[MctsNode], grow: bool) -> str:
        """Why the selection went down ``path``: at each node the child of largest UCB1, beside its best rival's
        (the numbers as they stood when it chose: before this iteration's backpropagation)."""
        parts = []
        state = self.root_state
        for parent, child in itertools.pairwise(path):
            if is_chance(state):
                parts.append(f"{self.label(child)} (a chance outcome, drawn)")
            else:
                rivals = [c for c in (self._searched(parent) if self.solver else parent.children) if c is not child]
                chosen = f"{self.label(child)} UCB {_ucb_words(child, self.c)}"
                if rivals:
                    rival = max(rivals, key=lambda c: c.ucb(self.c) or 0.0)
                    chosen += f" over {state.move_label(rival.move)} {_ucb_words(rival, self.c)}"
                parts.append(chosen)
            state = state.play(child.move)
        end = path[-1]
        if not grow:
            stop = "the game is over there"
        elif is_chance(state):
            stop = "the outcome drawn there is not in the tree yet"
        elif end.untried is None:
            stop = "it has never been expanded"
        elif self.partial and end.children:
            stop = f"its UCB_c {expansion_urgency(end.visits, len(end.children)):.3f} beats every child's UCB1"
        else:
            stop = f"{len(end.untried)} of its moves are not tried yet"
        if not parts:
            return f"selection: the root, where {stop}"
        shown = parts if len(parts) <= 6 else ["…", *parts[-6:]]
        return (
            f"selection: at each node the child of largest UCB1 = mean + {self.c:g}·√(ln N / n): "
            + "; ".join(shown)
            + f"; stops at {self.label(path[-1])}: {stop}"
        )

    def _expansion_text(self, path: Sequence[MctsNode], outcome: Move | None) -> str:
        """What the expansion added to the tree."""
        child = path[-1]
        parent = self.label(path[-2])
        if outcome is not None:
            return f"expansion: {self.label(path[-1])} added below {parent}, the chance outcome drawn (1 move)"
        left = len(path[-2].untried or ())
        return (
            f"expansion: {self.label(path[-1])} added below {parent}, a move drawn at random among the untried "
            f"({left} left untried); 1 move played, n = {child.visits}"
        )

    def _playout_line(self, state: State, start: int, played: int) -> tuple[Move, ...]:
        """The moves of the single playout just run from ``state`` that drew from ``start`` on, replayed from a copy of
        the stream (plain playouts take one draw a move); none for batches of ``k`` or games with chance."""
        if self.k != 1 or played == 0 or is_chance(state) or not self._bounded:
            return ()
        copy = RandomStream(self.stream.seed)
        copy.seek(start)
        moves: list[Move] = []
        while not state.is_terminal():
            legal = state.legal_moves()
            move = legal[int(copy.draw() * len(legal))]
            moves.append(move)
            state = state.play(move)
        return tuple(moves) if len(moves) == played else ()

    def _simulation_text(self, path: Sequence[MctsNode], state: State, mover: Player, reward: float, shown: int) -> str:
        """What the playouts from the end of ``path`` scored, for ``mover`` (the player who moved there)."""
        where = self.label(path[-1])
        glyph = "●" if mover > 0 else "○"
        if state.is_terminal():
            return (
                f"simulation: none, the game is over at {where}; its result counts {self.k} time(s): "
                f"{reward:g} for {glyph}, who moved there"
            )
        if self.k == 1:
            result = {1.0: "a win", 0.5: "a draw", 0.0: "a loss"}[reward]
            drawn = " (drawn on the board)" if shown else ""
            moves = f"{shown} random moves" if shown else "random moves"
            return (
                f"simulation: a playout of {moves} from {where}{drawn}: {result} for {glyph}, who moved there "
                f"(reward {reward:g})"
            )
        return (
            f"simulation: {self.k} random playouts from {where} score {reward:g} for {glyph}, who moved there "
            "(win 1, draw ½, loss 0 each)"
        )

    def _backpropagation_text(
        self, path: Sequence[MctsNode], before: Sequence[tuple[int, float | None, Bounds | None]]
    ) -> str:
        """Each node of ``path``: its visits and mean before and after the result was added (each node's mean for
        the player who moved into it), and what the solver proved."""
        parts = []
        for node, (visits, mean, _) in zip(path, before, strict=True):
            was = "–" if mean is None else f"{mean:.3f}"
            parts.append(f"{self.label(node)} n {visits}→{node.visits}, mean {was}→{node.total / node.visits:.3f}")
        text = (
            f"backpropagation: {self.k} visit(s) and the result added on the path, from the root down (each mean "
            "for the player who moved there): " + listed(parts)
        )
        proved = [
            f"{self.label(node)} proven {words}"
            for node, (_, _, span) in zip(path, before, strict=True)
            if node.bounds != span and node.bounds is not None and (words := span_words(node.bounds)) is not None
        ]
        if proved:
            text += "; MCTS-Solver: " + ", ".join(proved)
        return text

    def _select(self) -> tuple[list[MctsNode], list[Player], State, bool, Move | None]:
        """The path from the root to the node to act on, the player who moved into each node of it, its
        position, whether to expand a new child of it, and (at a chance node) the outcome to expand.

        Descends by UCB1 (``ucb1``, computed here as mean + c * sqrt(ln N) / sqrt(n)), with the
        solver skipping the children it need not search (``_searched``); stops at a node never
        expanded, at a finished game, or at a node with untried moves (with partial expansion:
        only when its UCB_c beats the best child's UCB1).  At a chance node it draws an outcome with its
        probability and follows it, or stops to expand it if it is not in the tree yet.
        """
        node = self.root
        path = [node]
        movers = [-self.root_state.player]
        state = self.root_state
        c = self.c
        sqrt = math.sqrt
        while True:
            if is_chance(state):
                outcome = state.outcome_for(self.stream.draw())
                drawn = next((child for child in node.children if child.move == outcome), None)
                if drawn is None:
                    return path, movers, state, True, outcome
                node = drawn
                path.append(node)
                movers.append(movers[-1])  # the disc that landed is the chance node's mover's
                state = state.play(outcome)
                continue
            untried = node.untried
            if untried is None or (untried and not self.partial):
                break
            exploration = c * sqrt(math.log(node.visits))
            best = None
            best_score = -math.inf
            for child in self._searched(node) if self.solver else node.children:
                visits = child.visits
                score = child.total / visits + exploration / sqrt(visits)
                if score > best_score:
                    best, best_score = child, score
            if untried and (best is None or expansion_urgency(node.visits, len(node.children)) > best_score):
                break
            assert isinstance(best, MctsNode), "a node whose bounds are apart has a child that can change them"
            node = best
            path.append(node)
            movers.append(state.player)
            state = state.play(node.move)
        return path, movers, state, not state.is_terminal(), None

    def _expand(self, node: MctsNode, state: State, outcome: Move | None = None) -> tuple[MctsNode, State, int]:
        """Play ``outcome`` at a chance node, else one untried move of ``node`` (at ``state``) chosen at random:
        the new child, its position, and the index the move had in the untried moves (0 for an outcome)."""
        index = 0
        if outcome is None:
            untried = node.untried
            if untried is None:
                untried = node.untried = list(state.legal_moves())
            index = int(self.stream.draw() * len(untried))
            untried[index], untried[-1] = untried[-1], untried[index]
            move = untried.pop()
        else:
            move = outcome
        state = state.play(move)
        stats = self.stats
        child = MctsNode(node, move)
        node.add_child(child)
        stats.nodes += 1
        if child.depth > stats.max_depth:
            stats.max_depth = child.depth
        if self._bounded and state.is_terminal():
            child.bounds = _finished(state)
        return child, state, index

    def _simulate(self, state: State, mover: Player) -> float:
        """``k`` results from ``state`` summed for ``mover``, the player who moved into it (win 1, draw 0.5, loss 0).

        A finished game counts its own result ``k`` times, with no playout.
        """
        k = self.k
        stats = self.stats
        if state.is_terminal():
            winner = state.utility()
            return k * (1.0 if winner == mover else 0.0 if winner else 0.5)
        if k == 1:
            winner, played = self.playouts.one(state)
            stats.playouts += 1
            stats.playout_moves += played
            return 1.0 if winner == mover else 0.0 if winner else 0.5
        tally = self.playouts.many(state, k, mover)
        stats.playouts += k
        stats.playout_moves += tally.moves
        return tally.score()

    def _back_up(self, path: Sequence[MctsNode], movers: Sequence[Player], reward: float) -> None:
        """Add ``k`` visits and ``reward`` (for the leaf's mover) up ``path``, flipping the point of view where
        the player who moved into a node changes (every ply, but not across a chance node's outcome)."""
        k = self.k
        for index in range(len(path) - 1, -1, -1):
            node = path[index]
            node.visits += k
            node.total += reward
            if index and movers[index - 1] != movers[index]:
                reward = k - reward

    def _prove(self, path: Sequence[MctsNode]) -> int:
        """MCTS-Solver, after every iteration: pass bounds up ``path`` while they change; how many nodes changed
        (the leaf's parent first, then each one above it).

        Winands et al.'s proofs, on scores that carry the length (``plyscope.engine.search.outcomes``), with the bounds
        of Cazenave and Saffidine's score-bounded MCTS: a node's bounds, for the player who moved into it, are
        the opposite of the best its children's give the player to move there (``backed_bounds``).  A child
        proven won by its mover makes its parent a proven loss, and a fully expanded parent whose children are
        all proven lost by their mover is a proven win, as in MCTS-Solver; a fully expanded parent whose
        children are all proven, the best of them for its player to move a draw, is a proven draw (its bounds
        meet at 0: ``proven_result``); the length is exact once no other child can end the game sooner (for a
        win) or later (for a loss).  A finished game is exact at once;
        a position where the game goes on has its intrinsic bounds (``outcomes.intrinsic``), tighter once
        every move has a child (none of them ended the game at once).
        """
        for index in range(len(path) - 2, -1, -1):
            node = path[index]
            span = self.backed_bounds(node)
            if span == self._bounds_of(node):
                return len(path) - 2 - index
            node.bounds = span
        return len(path) - 1

    def _bounds_of(self, node: MctsNode) -> Bounds:
        """``node``'s bounds, for the player who moved into it."""
        span = node.bounds
        return intrinsic(self._root_ply + node.depth, False) if span is None else span

    def backed_bounds(self, node: MctsNode) -> Bounds:
        """``node``'s bounds from its children's, for the player who moved into it: the opposite of the best the
        player to move there gets from them (``outcomes.backed_up`` from the player to move's side)."""
        ply = self._root_ply + node.depth
        spans = [child.bounds for child in node.children]
        own = None if node.untried == [] else intrinsic(ply, True)
        lo, hi = backed_up(spans, intrinsic(ply + 1, False), True, own)
        return bounds(-hi, -lo)

    def _searched(self, node: MctsNode) -> list[MctsNode]:
        """The children of ``node`` the solver searches: those that can still change its bounds
        (``outcomes.improvable``), and of them, while the player to move there may not lose, none proven lost
        for that player (MCTS-Solver's rule)."""
        lo, hi = self._bounds_of(node)
        sure = -hi  # what the player to move at ``node`` is sure of
        may_not_lose = lo <= 0
        unsettled = intrinsic(self._root_ply + node.depth + 1, False)
        searched = []
        for child in node.children:
            span = unsettled if child.bounds is None else child.bounds
            if improvable(span, (sure, -lo), True) and not (may_not_lose and span[1] < 0):
                searched.append(child)
        return searched

    def refresh(self) -> None:
        """``finished`` after a proof, or after the tree went back or forth along the timeline (its journal): with
        MCTS-Solver, once the root's bounds have met (its score, the game's length included, is known); plain MCTS never
        finishes (it does not search by its bounds)."""
        span = self.root.bounds
        self.finished = self.solver and span is not None and span[0] == span[1]

    def _note(self, path: Sequence[MctsNode], state: State, reward: float) -> str:
        leaf = path[-1]
        note = f"{self.label(path[-1])}: {self.k} result(s) scoring {reward:g} for the player who moved there"
        if state.is_terminal():
            note += " (game over)"
        if leaf.bounds is not None and (proven := span_words(leaf.bounds)) is not None:
            note += f", proven {proven}"
        return note

    # --- answers ---

    def _final_child(self, node: MctsNode) -> MctsNode | None:
        """The child to play at ``node``.  Once the tree's bounds settle its result (a child proven won, every move
        proven lost, or its score exact), the child of surest score: the soonest win, or the latest loss, it is
        sure of.  Otherwise the most visited child, or with the solver the secure child among those not proven
        lost.  Among equals, the most visited (the secure child with the solver)."""
        children = node.children
        if not children:
            return None
        key = self._secure if self.solver else self._robust
        surest = self._surest_children(node)
        if surest:
            return max(surest, key=key)
        if self.solver:
            return max([child for child in children if child.proven != LOSS] or children, key=key)
        return max(children, key=key)

    def _surest_children(self, node: MctsNode) -> list[MctsNode]:
        """Once the tree's bounds settle ``node``'s result (a child proven won, every move proven lost, or its
        score exact), the children of surest score (the greatest lower bound: the soonest win, or the latest
        loss, the player to move is sure of); none before, or in a game with chance."""
        if not self._bounded or not node.children:
            return []
        spans = [self._bounds_of(child) for child in node.children]
        lo, hi = self._bounds_of(node)
        surest = max(span[0] for span in spans)
        if surest > 0 or lo > 0 or lo == hi:
            return [child for child, span in zip(node.children, spans, strict=True) if span[0] == surest]
        return []

    @staticmethod
    def _robust(child: MctsNode) -> tuple[int, float]:
        """UCT's final choice: the most visits (then the most wins)."""
        return (child.visits, child.total)

    @staticmethod
    def _secure(child: MctsNode) -> float:
        """MCTS-Solver's final choice: the secure child (``secure_value``)."""
        return secure_value(child.total / child.visits, child.visits)

    def best_move(self) -> Move | None:
        best = self._final_child(self.root)
        return None if best is None else best.move

    def value(self) -> PovScore[float]:
        """The root's mean reward as 2 * mean - 1, in [-1, 1], for the player who moved into the root (its
        rewards' point of view); exactly +1, 0 or -1 once the root's result is proven (a win, a draw, a loss)."""
        root = self.root
        mover = -self.root_state.player
        proven = root.proven
        if proven is not None:
            return self.scored(float(proven), mover)
        return self.scored(2 * root.total / root.visits - 1 if root.visits else 0.0, mover)

    def proven(self) -> Verdict | None:
        """What the root's bounds settle (MCTS-Solver), for the first player."""
        span = self.root.bounds
        if span is None:
            return None
        lowest, highest = result_of(span[0]), result_of(span[1])
        if (lowest, highest) == (-1, 1):
            return None
        return (lowest, highest) if -self.root_state.player == 1 else (-highest, -lowest)

    def proof(self, node: Node) -> PovScore[int] | None:
        """A node's exact score once its bounds meet (kept on games without chance only, where the players take turns),
        for the player who moved into it."""
        assert isinstance(node, MctsNode)
        span = node.bounds
        if span is None or span[0] != span[1]:
            return None
        root_player = self.root_state.player
        return PovScore(span[0], -root_player if node.depth % 2 == 0 else root_player)

    def preferred_child(self, node: Node) -> MctsNode | None:
        """The child ``best_move`` would play at ``node`` (most visited without the solver; ``_final_child``)."""
        assert isinstance(node, MctsNode)
        return self._final_child(node)


class FlatMonteCarlo(MonteCarloTreeSearch):
    """Flat Monte Carlo sampling: ``k`` playouts per step from each root move in turn; play the best mean."""

    name = "flat-mc"
    description = "flat Monte Carlo sampling: k playouts per step from each root move in turn, best mean wins"

    def __init__(
        self,
        state: State,
        *,
        seed: int = 0,
        k: int = 1,
        stream: RandomStream | None = None,
    ) -> None:
        super().__init__(state, seed=seed, k=k, stream=stream)

    def _shown_c(self) -> float | None:
        return None

    def _select(self) -> tuple[list[MctsNode], list[Player], State, bool, Move | None]:
        """A new root child while root moves are untried; then the least visited child (round robin)."""
        root = self.root
        state = self.root_state
        if root.untried is None or root.untried:
            return [root], [-state.player], state, True, None
        child = min(root.children, key=lambda child: child.visits)
        return [root, child], [-state.player, state.player], state.play(child.move), False, None

    def _final_child(self, node: MctsNode) -> MctsNode | None:
        """At the root, the child with the best mean (then the most visits), among those of surest score once the
        bounds settle the result (a move that wins at once); nothing below it."""
        if node is not self.root or not node.children:
            return None
        return max(
            self._surest_children(node) or node.children, key=lambda child: (child.total / child.visits, child.visits)
        )

    def value(self) -> PovScore[float]:
        """The best root child's mean reward as 2 * mean - 1, in [-1, 1], for the player to move at the root
        (who would play it); 0 before any step."""
        best = self._final_child(self.root)
        return self.scored(2 * best.total / best.visits - 1 if best is not None else 0.0, self.root_state.player)


def _finished(state: State) -> Bounds:
    """A finished game's bounds for the player who moved into it: its exact score."""
    winner = state.winner()
    assert winner is not None
    return exact(score(winner * -state.player, state.ply))

"""Monte Carlo tree search (UCT) with batched random playouts, and flat Monte Carlo sampling.

One step is one iteration: select a path by UCB1 from the root, expand one untried move
(one ``State.play``, the only move the tree search pays for), score the new leaf with
``k`` random playouts (one numpy batch on Connect Four; see ``engine.search.playouts``),
and back the results up as ``k`` visits.  Options: partial expansion, and MCTS-Solver
(Winands, Björnsson & Saito 2008), which proves wins and losses.

Points of view, stated once for this module:

* A node's ``visits`` and ``total`` count playout results **for the player who made the
  move into the node**: win 1, draw 0.5, loss 0.  So ``mean = total / visits`` is in
  [0, 1] and every parent picks the child with the largest UCB1.  The root's numbers are
  for the player who moved into the root position: the opponent of the player to move.
* ``proven`` (MCTS-Solver) is from the same point of view: ``WIN`` means the player who
  moved into the node wins it with perfect play, ``LOSS`` that this player loses.
* Chance nodes (Connect Four with chance): a chance node's numbers are for the player whose
  choice led to it, and so are those of its outcomes (the disc that landed is theirs).  Selection
  at a chance node draws an outcome with its probability (no UCB1), and expands it if it is not
  in the tree yet.  MCTS-Solver is for games without chance.
* ``Searcher.value()`` is ``2 * mean - 1`` of the root's mean, in [-1, 1], as a ``PovScore`` for
  the player who moved into the root (exactly +1 or -1 once the root is proven); its
  ``first()`` is the first player's.

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
``RandomStream`` (``engine.search.stream``), whose whole state is a position in a seeded
sequence.  That is what lets ``undo`` take a step back exactly: the search keeps, per step,
only how many draws it made (two bytes, usually), winds the stream back by as many, and finds
everything else the step did from the tree and from the stream itself (see ``undo``).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence

from engine.games.base import Move, Player, State, is_chance
from engine.pov import PovScore
from engine.search.base import (
    NO_CHILDREN,
    TAKEN,
    AlgorithmInfo,
    Node,
    Param,
    Searcher,
    SearchError,
    Step,
    Taken,
    Verdict,
)
from engine.search.playouts import Playouts
from engine.search.stream import RandomStream

WIN = 1
LOSS = -1
"""Values of ``MctsNode.proven`` (0: not proven), for the player who moved into the node."""

DEFAULT_C = 1.4
"""UCT's exploration constant; the theory (Auer et al.'s UCB1) says sqrt(2) ~ 1.414."""


def ucb1(mean: float, parent_visits: int, visits: int, c: float) -> float:
    """UCB1 = mean + c * sqrt(ln(parent visits) / visits); ``mean`` for the player choosing among siblings."""
    return mean + c * math.sqrt(math.log(parent_visits) / visits)


def expansion_urgency(visits: int, children: int) -> float:
    """Partial expansion's UCB_c = 0.5 + sqrt(ln(n) / (1 + k)): add a child when it beats every child's UCB1."""
    return 0.5 + math.sqrt(math.log(visits) / (1 + children))


def secure_value(mean: float, visits: int) -> float:
    """MCTS-Solver's final-move score: mean + 1 / sqrt(n)."""
    return mean + 1 / math.sqrt(visits)


class MctsNode(Node):
    """A node of the Monte Carlo tree; its numbers are for the player who moved into it."""

    __slots__ = ("visits", "total", "untried", "proven")

    visits: int
    """Playout results backed up through this node."""
    total: float
    """Their sum for the player who moved into this node: win 1, draw 0.5, loss 0."""
    untried: list[Move] | None
    """Moves not yet expanded; ``None`` until the first expansion from this node."""
    proven: int
    """``WIN`` or ``LOSS`` for the player who moved into this node once proven (MCTS-Solver), else 0."""

    def __init__(self, parent: MctsNode | None, move: Move | None) -> None:
        super().__init__(parent, move)
        self.visits = 0
        self.total = 0.0
        self.untried = None
        self.proven = 0

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
        """``n`` visits; ``mean`` and ``proven`` for the player who moved here."""
        proven = "win" if self.proven == WIN else "loss" if self.proven == LOSS else None
        return {"n": self.visits, "mean": self.mean(), "proven": proven}


class MonteCarloTreeSearch(Searcher[MctsNode]):
    """UCT with ``k`` random playouts per new leaf, optional partial expansion and MCTS-Solver."""

    name = "mcts"
    description = "Monte Carlo tree search (UCT), k numpy-batched playouts per leaf; partial expansion, MCTS-Solver"

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
        if solver and not state.is_terminal() and is_chance(state.play(state.legal_moves()[0])):
            raise SearchError("solver=true (MCTS-Solver) proves wins and losses of games without chance only")
        self.stream = stream if stream is not None else RandomStream(seed)
        self.playouts = Playouts(self.stream)
        self.root = MctsNode(None, None)
        self.stats.nodes = 1
        self.finished = state.is_terminal()
        self._draws = array("H")
        """For ``undo``: the draws each step took from the stream, in order (widened to ``Q`` if one takes more
        than 65,535)."""
        self._drawn = self.stream.position
        """The stream's position after the last step: where the next one starts drawing."""
        self._proof_steps = array("Q")
        """For ``undo``: the steps whose ``_prove`` proved nodes (MCTS-Solver), in order..."""
        self._proof_counts = array("I")
        """...and how many each proved: the leaf's parent and that many - 1 of its ancestors."""

    undo_cost = 1.6
    """An undo replays the path's moves twice (for the leaf's playouts, and for the selection that checks it) and the
    leaf's playouts once: measured at 1.5-1.7 times a step."""

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
        if grow:
            movers.append(movers[-1] if outcome is not None else state.player)
            child, state = self._expand(path[-1], state, outcome)
            path.append(child)
        self.stats.moves += 1  # the play into the scored node: the expansion, or the last replay of the path
        leaf = path[-1]
        reward = self._simulate(state, movers[-1])
        self._back_up(path, movers, reward)
        if self.solver and state.is_terminal():
            proved = self._prove(path)
            if proved:
                self._proof_steps.append(self.stats.iterations)
                self._proof_counts.append(proved)
            self.finished = self.root.proven != 0
        start, self._drawn = self._drawn, self.stream.position
        try:
            self._draws.append(self._drawn - start)
        except OverflowError:
            self._draws = array("Q", self._draws)
            self._draws.append(self._drawn - start)
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

    def _select(self) -> tuple[list[MctsNode], list[Player], State, bool, Move | None]:
        """The path from the root to the node to act on, the player who moved into each node of it, its
        position, whether to expand a new child of it, and (at a chance node) the outcome to expand.

        Descends by UCB1 (``ucb1``, computed here as mean + c * sqrt(ln N) / sqrt(n)), skipping
        children proven lost for the player choosing; stops at a node never expanded, at a
        finished game, or at a node with untried moves (with partial expansion: only when
        its UCB_c beats the best child's UCB1).  At a chance node it draws an outcome with its
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
            for child in node.children:
                if child.proven == LOSS:
                    continue
                visits = child.visits
                score = child.total / visits + exploration / sqrt(visits)
                if score > best_score:
                    best, best_score = child, score
            if untried and (best is None or expansion_urgency(node.visits, len(node.children)) > best_score):
                break
            assert isinstance(best, MctsNode), "an unproven node has a child that is not proven lost"
            node = best
            path.append(node)
            movers.append(state.player)
            state = state.play(node.move)
        return path, movers, state, not state.is_terminal(), None

    def _expand(self, node: MctsNode, state: State, outcome: Move | None = None) -> tuple[MctsNode, State]:
        """Play ``outcome`` at a chance node, else one untried move of ``node`` (at ``state``) chosen at random:
        the new child and its position."""
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
            self._deeper(child.depth)
        if self.solver and state.is_terminal() and state.utility():
            child.proven = WIN if state.utility() == -state.player else LOSS
        return child, state

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
        """MCTS-Solver, after reaching a finished game: pass proofs up ``path`` while they change; how many
        nodes it proved (the leaf's parent first, then each one above it).

        For the player who moved into the parent: a child proven won by its mover (the
        player to move at the parent) makes the parent a proven loss; a fully expanded
        parent whose children are all proven lost by their mover is a proven win.
        """
        for index in range(len(path) - 1, 0, -1):
            child, parent = path[index], path[index - 1]
            if parent.proven or not child.proven:
                return len(path) - 1 - index
            if child.proven == WIN:
                parent.proven = LOSS
            elif parent.untried == [] and all(sibling.proven == LOSS for sibling in parent.children):
                parent.proven = WIN
            else:
                return len(path) - 1 - index
        return len(path) - 1

    def _note(self, path: Sequence[MctsNode], state: State, reward: float) -> str:
        leaf = path[-1]
        note = f"{self._line(path)}: {self.k} result(s) scoring {reward:g} for the player who moved there"
        if state.is_terminal():
            note += " (game over)"
        if leaf.proven:
            note += ", proven " + ("win" if leaf.proven == WIN else "loss")
        return note

    def _line(self, path: Sequence[MctsNode]) -> str:
        """The moves from the root to the end of ``path`` as labels (``root`` for none)."""
        labels = []
        state = self.root_state
        for node in path[1:]:
            labels.append(state.move_label(node.move))
            state = state.play(node.move)
        return " ".join(labels) or "root"

    # --- taking a step back ---

    def undo(self, path: Sequence[Move]) -> bool:
        """Take back the last step, which ended at the node at ``path`` (its leaf), exactly.

        The journal holds only the number of draws each step took from the stream; the rest is found:

        * whether the step added the leaf: a new leaf has exactly ``k`` visits (the step's own) and is its
          parent's last child; a leaf reached again (a finished game; a root child in flat Monte Carlo) has more;
        * where its draws start: the stream wound back by the step's draws.  The tree's draws come first
          (``_tree_draws``: one per chance position on the path, one for the choice of the untried move), so
          the untried move's place in its parent's list is found by reading that draw again;
        * the result backed up and the playout moves: the leaf's playouts replayed from their place in the
          stream (they draw the very same numbers), checked against what the step left (the stream's position,
          and a new leaf's total);
        * proofs (MCTS-Solver): the steps that proved nodes, and how many, are kept apart (few steps prove).

        Totals are sums of halves, so taking the result off gives back the very floats there were.  Last, the
        selection is run again on the tree taken back, from the stream wound back: it must choose this step
        again, or everything is put back as it was and the answer is ``False`` (the timeline then replays):
        so a ``path`` that is not the last step's is refused, with nothing changed.
        """
        if not self._draws:
            return False
        nodes = [self.root]
        states = [self.root_state]
        for move in path:
            child = next((child for child in nodes[-1].children if child.move == move), None)
            if child is None:
                return False
            nodes.append(child)
            states.append(states[-1].play(move))
        leaf, k = nodes[-1], self.k
        parent = leaf.parent
        grown = parent is not None and leaf.visits == k and not leaf.children and parent.children[-1] is leaf
        if not grown and leaf.visits < 2 * k:  # a leaf reached again had a step of its own before
            return False
        movers = [-self.root_state.player]
        for before in states[:-1]:
            movers.append(movers[-1] if is_chance(before) else before.player)
        stream, stats = self.stream, self.stats
        end = self._drawn
        start = end - self._draws[-1]
        tree_draws = self._tree_draws(states, grown)
        playouts, playout_moves = stats.playouts, stats.playout_moves
        stream.seek(start + tree_draws)
        reward = self._simulate(states[-1], movers[-1])
        played = stats.playouts - playouts, stats.playout_moves - playout_moves
        stats.playouts, stats.playout_moves = playouts, playout_moves
        if stream.position != end or (grown and reward != leaf.total):
            stream.seek(end)
            return False
        proofs = self._proof_counts[-1] if self._proof_steps and self._proof_steps[-1] == stats.iterations - 1 else 0
        if not self._proved_by(nodes, proofs, grown):
            stream.seek(end)
            return False
        index = -1  # where the untried move was in its parent's list (-1: no list, or a chance outcome)
        if grown and len(nodes[-2].children) > 1 and not is_chance(states[-2]):
            index = int(stream.at(start + tree_draws - 1) * (len(nodes[-2].untried or ()) + 1))
        taken = self._take_back(nodes, movers, reward, grown, index, proofs)
        stream.seek(start)
        chosen, _, _, grow, outcome = self._select()
        expected = nodes[:-1] if grown else nodes
        if grow != grown or chosen != expected or (outcome is not None and outcome != leaf.move):
            self._put_back(nodes, movers, reward, grown, index, taken)
            stream.seek(end)
            return False
        stream.seek(start)
        self._drawn = start
        self._draws.pop()
        if proofs:
            self._proof_steps.pop()
            self._proof_counts.pop()
        stats.playouts -= played[0]
        stats.playout_moves -= played[1]
        stats.moves -= 1
        if grown:
            stats.nodes -= 1
        self.finished = self.root.proven != 0
        self._undone()
        return True

    def _proved_by(self, nodes: Sequence[MctsNode], proofs: int, grown: bool) -> bool:
        """Whether ``_prove`` can have proved the ``proofs`` nodes above the leaf of ``nodes`` in one step: each from
        the proven child below it, a win only once all its moves are tried, and (the leaf's parent) a win by that
        leaf only if the step added it: the tree taken back then has no node whose children are all lost unproven."""
        for above in range(2, 2 + proofs):
            node, child = nodes[-above], nodes[1 - above]
            if not child.proven or node.proven != (LOSS if child.proven == WIN else WIN):
                return False
            if node.proven == WIN and ((above == 2 and not grown) or node.untried != []):
                return False
        return True

    def _take_back(
        self, nodes: list[MctsNode], movers: list[Player], reward: float, grown: bool, index: int, proofs: int
    ) -> tuple[list[int], list[Move] | None]:
        """Take a step's numbers off ``nodes`` (root to leaf), and the leaf off the tree if the step ``grown`` it,
        its move back in the untried list at ``index``; clear the ``proofs`` it made.  For ``_put_back``: the proofs
        cleared, and the untried list dropped (the step had made it: its parent's first expansion)."""
        k = self.k
        proven = []
        dropped = None
        for above in range(2, 2 + proofs):  # the leaf's parent, and the nodes above it
            proven.append(nodes[-above].proven)
            nodes[-above].proven = 0
        for at in range(len(nodes) - 1, -1, -1):
            node = nodes[at]
            node.visits -= k
            node.total -= reward
            if at and movers[at - 1] != movers[at]:
                reward = k - reward
        if grown:
            leaf, parent = nodes[-1], nodes[-2]
            assert isinstance(parent.children, list)
            parent.children.pop()
            if not parent.children:
                parent.children = NO_CHILDREN
                dropped, parent.untried = parent.untried, None  # the first expansion made it; the next makes it anew
            elif index >= 0:
                untried = parent.untried
                assert untried is not None
                if index == len(untried):
                    untried.append(leaf.move)
                else:  # the move chosen had swapped places with the last one: swap them back
                    untried.append(untried[index])
                    untried[index] = leaf.move
        return proven, dropped

    def _put_back(
        self,
        nodes: list[MctsNode],
        movers: list[Player],
        reward: float,
        grown: bool,
        index: int,
        taken: tuple[list[int], list[Move] | None],
    ) -> None:
        """Undo ``_take_back`` (given what it returned): the tree as the step left it."""
        k = self.k
        proven, dropped = taken
        if grown:
            leaf, parent = nodes[-1], nodes[-2]
            if dropped is not None:
                parent.untried = dropped
            elif index >= 0:
                untried = parent.untried
                assert untried is not None
                untried[index], untried[-1] = untried[-1], untried[index]
                untried.pop()
            parent.add_child(leaf)
        for at in range(len(nodes) - 1, -1, -1):
            node = nodes[at]
            node.visits += k
            node.total += reward
            if at and movers[at - 1] != movers[at]:
                reward = k - reward
        for above, flag in enumerate(proven, 2):
            nodes[-above].proven = flag

    def _tree_draws(self, states: Sequence[State], grown: bool) -> int:
        """The draws a step takes before its playouts, from the positions on its path (root first) and whether it
        added the last one: one at each chance position it passed, and one to choose the untried move."""
        draws = sum(1 for state in states[:-1] if is_chance(state))
        return draws + 1 if grown and not is_chance(states[-2]) else draws

    def journal_nbytes(self) -> int:
        """What the search keeps only to take steps back: draws per step and the steps that proved nodes."""
        journal = (self._draws, self._proof_steps, self._proof_counts)
        return sum(len(a) * a.itemsize for a in journal) + super().journal_nbytes()

    # --- answers ---

    def _final_child(self, node: MctsNode) -> MctsNode | None:
        """The child to play at ``node``: most visited, or with the solver a proven win, else the secure child."""
        children = node.children
        if not children:
            return None
        if self.solver:
            for child in children:
                if child.proven == WIN:
                    return child
            candidates = [child for child in children if child.proven != LOSS] or children
            return max(candidates, key=lambda child: secure_value(child.total / child.visits, child.visits))
        return max(children, key=lambda child: (child.visits, child.total))

    def best_move(self) -> Move | None:
        best = self._final_child(self.root)
        return None if best is None else best.move

    def value(self) -> PovScore[float]:
        """The root's mean reward as 2 * mean - 1, in [-1, 1], for the player who moved into the root (its
        rewards' point of view); +1 or -1 once the root is proven."""
        root = self.root
        mover = -self.root_state.player
        if root.proven:
            return self.scored(float(root.proven), mover)
        return self.scored(2 * root.total / root.visits - 1 if root.visits else 0.0, mover)

    def proven(self) -> Verdict | None:
        """The root's MCTS-Solver proof, for the first player."""
        proven = self.root.proven * -self.root_state.player
        return (proven, proven) if proven else None

    def principal_path(self) -> list[MctsNode]:
        """Root first, then the child ``best_move`` would play at each node (most visited without the solver)."""
        path = [self.root]
        while (child := self._final_child(path[-1])) is not None:
            path.append(child)
        return path


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

    def _tree_draws(self, states: Sequence[State], grown: bool) -> int:
        """One draw, for the untried move, in a step that added a root child; none in one that did not."""
        return 1 if grown else 0

    def _select(self) -> tuple[list[MctsNode], list[Player], State, bool, Move | None]:
        """A new root child while root moves are untried; then the least visited child (round robin)."""
        root = self.root
        state = self.root_state
        if root.untried is None or root.untried:
            return [root], [-state.player], state, True, None
        child = min(root.children, key=lambda child: child.visits)
        return [root, child], [-state.player, state.player], state.play(child.move), False, None

    def _final_child(self, node: MctsNode) -> MctsNode | None:
        """At the root, the child with the best mean (then the most visits); nothing below it."""
        if node is not self.root or not node.children:
            return None
        return max(node.children, key=lambda child: (child.total / child.visits, child.visits))

    def value(self) -> PovScore[float]:
        """The best root child's mean reward as 2 * mean - 1, in [-1, 1], for the player to move at the root
        (who would play it); 0 before any step."""
        best = self._final_child(self.root)
        return self.scored(2 * best.total / best.visits - 1 if best is not None else 0.0, self.root_state.player)


K_PARAM = Param(
    "k", int, 1, "random playouts per new leaf (one numpy batch on Connect Four boards up to 64 bits)", lo=1, hi=65536
)

ALGORITHMS = (
    AlgorithmInfo(
        name=MonteCarloTreeSearch.name,
        description=MonteCarloTreeSearch.description,
        factory=MonteCarloTreeSearch,
        node_bytes=200,
        random=True,
        params=(
            Param("c", float, DEFAULT_C, "UCT exploration constant (sqrt(2) ~ 1.414 in theory)", lo=0, hi=100),
            K_PARAM,
            Param("partial", bool, False, "partial expansion: add a child only when UCB_c beats the best UCB1"),
            Param("solver", bool, False, "MCTS-Solver: prove wins and losses, play the secure child"),
        ),
        games=("connect4", "connect4-chance", "nim"),
    ),
    AlgorithmInfo(
        name=FlatMonteCarlo.name,
        description=FlatMonteCarlo.description,
        factory=FlatMonteCarlo,
        random=True,
        params=(K_PARAM,),
        games=("connect4", "connect4-chance", "nim"),
    ),
)

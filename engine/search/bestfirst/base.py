"""What the searches that expand one node a step share (best-first minimax, Rivest's method, proof-number search): the
step's skeleton, its phases and their sentences (``ExpandingSearch``), and the protocol their journal keeps
(``ExpansionJournal``).

One step: from the root, down to the node the search's rule picks (its *tip*: the principal leaf, the tip of least
penalty, the most-proving node); every child of the tip generated and valued at once (one move each); the numbers
above it backed up.  Every number at an inner node is a function of its children's, which is what lets the journal
(``plyscope.engine.search.bestfirst.expansions``) take steps back by making expanded nodes leaves again and rescoring
their ancestors, through the searcher's hooks (``leaf_again``, ``reattach``, ``kept``, ``give_back``, ``rescore``,
``refresh``).  Each node is named in a phase's sentence by its moves from the root (``Searcher.label``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol, TypeVar

from plyscope.engine.games.base import Move, State
from plyscope.engine.search.base import TAKEN, Node, Phase, PhasedStep, Searcher, Step, Taken, listed

N = TypeVar("N", bound=Node)
N_contra = TypeVar("N_contra", bound=Node, contravariant=True)

MOST_CHILDREN = 9
"""Children an expansion's sentence lists by name; more are counted."""

Numbers = tuple[float | int, ...]
"""An inner node's numbers as plain numbers (a child as its place among the children), as the journal keeps them."""


class ExpansionJournal(Protocol[N_contra]):
    """What a search that expands one node a step tells its way back along the timeline
    (``plyscope.engine.search.bestfirst.expansions.Expansions``)."""

    def record(self, node: N_contra, value: float) -> None:
        """The step under way expands ``node``, a leaf of ``value`` until then (called before the stats count the
        step)."""


class ExpandingSearch(Searcher[N]):
    """A search that expands one node a step: ``_tip``, ``_expand`` and ``_back_up`` are its own; the step, its phases
    (``tip``, ``expansion``, ``back-up``), its counts and its journal are here."""

    journal: ExpansionJournal[N] | None = None
    """Told each step's expansion, to take steps back and again in place (its registry entry's journal, set by the
    registry)."""
    leaf_values: ClassVar[bool] = True
    """Whether the journal keeps each expanded node's value as a leaf (``leaf_value``), to make it that leaf again
    (``leaf_again``); proof-number search's leaves get theirs back from nothing."""
    edge_moves: bool = False
    """Whether an expansion also pays one move per edge walked down to it from the root (Rivest's accounting)."""
    phase_names: ClassVar[tuple[str, ...]] = ("tip", "expansion", "back-up")

    # --- what each search says ---

    @abstractmethod
    def _tip(self) -> tuple[N, State]:
        """The node the next step expands (a leaf where the game goes on), and its position."""

    @abstractmethod
    def _expand(self, tip: N, state: State, moves: Sequence[Move]) -> list[N]:
        """``tip``'s children (it has them now), one for each of ``moves`` (its position's: ``state``), each valued."""

    @abstractmethod
    def _back_up(self, tip: N, children: Sequence[N], record: bool) -> tuple[N, ...] | None:
        """Back the numbers up from the expanded ``tip``; with ``record``, every node whose numbers changed (the new
        ``children`` too: the step's ``changed``), else ``None``."""

    @abstractmethod
    def refresh(self) -> None:
        """What the searcher keeps beside its tree (``finished``, a principal variation) brought up to date with it,
        after a step or after the tree went back or forth along the timeline."""

    @abstractmethod
    def _tip_text(self, path: Sequence[N]) -> str:
        """The tip phase's sentence: why the end of ``path`` is the node expanded."""

    @abstractmethod
    def _words(self, node: N) -> str:
        """A node's numbers as the phases' sentences give them (``v 12``)."""

    def _child_words(self, child: N) -> str:
        """A new child's numbers, as the expansion's sentence gives them.  Here: ``_words``."""
        return self._words(child)

    def _back_up_text(self, path: Sequence[N], before: Sequence[str]) -> str:
        """The back-up phase's sentence, ``before`` holding the path's numbers as words before it."""
        return back_up_text(self, path, before, self._words)

    def _note(self) -> str:
        """The step's note (``Step.note``).  Here: none."""
        return ""

    def _backed_up(self, changed: tuple[N, ...], children: Sequence[N]) -> tuple[N, ...]:
        """The nodes the back-up phase changed, of those the step changed (``_back_up``'s).  Here: all of them."""
        return changed

    # --- the step ---

    def expansion_moves(self, tip: N, children: int) -> int:
        """The moves an expansion of ``tip`` into ``children`` children pays: one a child, and under Rivest's
        accounting (``edge_moves``) one an edge walked down to it."""
        return children + tip.depth if self.edge_moves else children

    def _next(self, moves_left: int | None) -> tuple[N, State, Sequence[Move]] | None:
        """The tip the next step expands, its position and its moves; ``None`` once finished, or if expanding it would
        cost more than ``moves_left``."""
        if self.finished:
            return None
        tip, state = self._tip()
        moves = state.legal_moves()
        if moves_left is not None and self.expansion_moves(tip, len(moves)) > moves_left:
            return None
        return tip, state, moves

    def _advance(self, record: bool, moves_left: int | None) -> Step[N] | Taken | None:
        expansion = self._next(moves_left)
        if expansion is None:
            return None
        tip, state, moves = expansion
        children = self._grow(tip, state, moves)
        changed = self._back_up(tip, children, record)
        self.refresh()
        if changed is None:
            return TAKEN
        return Step(path=tuple(tip.path()), node=tip, added=tuple(children), changed=changed, note=self._note())

    def _phases(self, moves_left: int | None) -> PhasedStep[N]:
        """A step as its three phases: the tip and why, the expansion with each child's value, the back-up with each
        number it changed."""
        expansion = self._next(moves_left)
        if expansion is None:
            return None
        tip, state, moves = expansion
        path = tuple(tip.path())
        tip_phase, expansion_phase, back_up_phase = self.phase_names
        yield Phase(tip_phase, self._tip_text(path), path)
        before = [self._words(node) for node in path]
        children = self._grow(tip, state, moves)
        text = expansion_text(self, tip, children, self._child_words)
        yield Phase(expansion_phase, text, path, tuple(children), (tip, *children))
        changed = self._back_up(tip, children, True)
        assert changed is not None
        self.refresh()
        text = self._back_up_text(path, before)
        yield Phase(back_up_phase, text, path, changed=self._backed_up(changed, children), last=True)
        return Step(path=path, node=tip, added=tuple(children), changed=changed, note=self._note())

    def _grow(self, tip: N, state: State, moves: Sequence[Move]) -> list[N]:
        """Expand ``tip`` (at ``state``) into a child for each of ``moves``, told to the journal, counted."""
        journal = self.journal
        if journal is not None:
            journal.record(tip, self.leaf_value(tip))
        children = self._expand(tip, state, moves)
        stats = self.stats
        stats.moves += self.expansion_moves(tip, len(moves))
        stats.nodes += len(moves)
        if tip.depth + 1 > stats.max_depth:
            stats.max_depth = tip.depth + 1
        return children

    # --- the journal's hooks (``plyscope.engine.search.bestfirst.expansions``) ---

    def leaf_value(self, leaf: N) -> float:
        """``leaf``'s own value as a leaf, which the journal keeps to make it that leaf again (with ``leaf_values``).
        Here: none (0)."""
        return 0.0

    @abstractmethod
    def leaf_again(self, node: N, value: float) -> State | None:
        """``node``'s own numbers as a leaf of ``value`` again (the journal has taken its children); the position it
        no longer keeps (``None``: none)."""

    @abstractmethod
    def reattach(self, node: N, state: State | None) -> None:
        """``node`` expanded again (the journal gave its children back): the position ``leaf_again`` took given back."""

    @abstractmethod
    def kept(self, node: N) -> Numbers:
        """An inner node's numbers, as plain numbers, for the journal to give back (``give_back``)."""

    @abstractmethod
    def give_back(self, node: N, numbers: Numbers) -> None:
        """``node``'s numbers as ``kept`` took them."""

    @abstractmethod
    def rescore(self, node: N) -> object:
        """``node``'s numbers from its children's."""


class PositionNode(Node):
    """A node that keeps its position from its expansion on (best-first minimax's, Rivest's): a leaf's position is
    made again from its parent's when the leaf is expanded (that ``play`` is not counted in ``Stats.moves``), so that
    leaves, most of the tree, stay small."""

    __slots__ = ("state",)

    state: State | None
    """The position, from the node's expansion on (the root's from the start); ``Searcher.state_at`` gives any
    node's."""


P = TypeVar("P", bound=PositionNode)


class PositionSearch(ExpandingSearch[P]):
    """A search that expands one node a step whose nodes keep their position from their expansion on
    (``PositionNode``)."""

    @abstractmethod
    def _tip_node(self) -> P:
        """The node the next step expands (a leaf where the game goes on)."""

    def _tip(self) -> tuple[P, State]:
        """The tip (``_tip_node``) and its position: its own once expanded, else made again from its parent's."""
        tip = self._tip_node()
        state = tip.state
        if state is None:
            parent = tip.parent
            assert parent is not None and parent.state is not None
            state = parent.state.play(tip.move)
        return tip, state

    @staticmethod
    def _position_taken(node: P) -> State | None:
        """``node``'s position, which it no longer keeps (but at the root), for ``leaf_again``."""
        state = node.state
        if node.parent is not None:
            node.state = None
        return state

    def reattach(self, node: P, state: State | None) -> None:
        node.state = state


def expansion_text(searcher: Searcher[N], leaf: N, children: Sequence[N], value: Callable[[N], str]) -> str:
    """``leaf``'s new children with the value each was given (``value``: a child's numbers as words)."""
    state = searcher.state_at(leaf)
    parts = [f"{state.move_label(child.move)} {value(child)}" for child in children[:MOST_CHILDREN]]
    if len(children) > MOST_CHILDREN:
        parts.append(f"and {len(children) - MOST_CHILDREN} more")
    return (
        f"expansion: {searcher.label(leaf)} gets its {len(children)} children ({len(children)} moves played), "
        "each valued on its own: " + "; ".join(parts)
    )


def back_up_text(searcher: Searcher[N], path: Sequence[N], before: Sequence[str], after: Callable[[N], str]) -> str:
    """The nodes of ``path`` whose numbers the back-up changed, deepest first, as ``before → after``; ``before``
    holds each node's numbers as words before the back-up, root first."""
    parts = [
        f"{searcher.label(node)} {was} → {now}"
        for node, was in zip(reversed(path), reversed(before), strict=True)
        if (now := after(node)) != was
    ]
    if not parts:
        return "back-up: no value on the path changes"
    unchanged = len(path) - len(parts)
    text = "back-up: from the expanded node towards the root, " + listed(parts)
    if unchanged:
        text += f"; the {unchanged} node(s) above keep their numbers"
    return text
